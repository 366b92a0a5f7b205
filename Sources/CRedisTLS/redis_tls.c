#define _GNU_SOURCE
#include "redis_tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

typedef struct session {
    SSL_CTX *context;
    SSL *ssl;
    int tcp;
    int pair;
} session;

// `what`, then the first OpenSSL error queued on this thread, if any; the queue is emptied.
static void describe(char *message, size_t size, const char *what) {
    unsigned long code = ERR_get_error();
    if (code != 0) {
        char reason[256];
        ERR_error_string_n(code, reason, sizeof reason);
        snprintf(message, size, "%s: %s", what, reason);
    } else {
        snprintf(message, size, "%s", what);
    }
    ERR_clear_error();
}

static void set_timeouts(int fd, long timeout_ms) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// A TCP connection to host:port within timeout_ms, blocking again once connected; -1 with *os_error set on failure.
static int connect_tcp(const char *host, int port, long timeout_ms, int *os_error, char *message, size_t size) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *addresses = NULL;
    int resolved = getaddrinfo(host, service, &hints, &addresses);
    if (resolved != 0) {
        *os_error = EHOSTUNREACH;
        snprintf(message, size, "cannot resolve %s: %s", host, gai_strerror(resolved));
        return -1;
    }
    int fd = -1;
    int last_error = ECONNREFUSED;
    for (struct addrinfo *address = addresses; address != NULL && fd < 0; address = address->ai_next) {
        int candidate = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
        if (candidate < 0) {
            last_error = errno;
            continue;
        }
        int flags = fcntl(candidate, F_GETFL, 0);
        fcntl(candidate, F_SETFL, flags | O_NONBLOCK);
        int status = connect(candidate, address->ai_addr, address->ai_addrlen);
        if (status < 0 && errno == EINPROGRESS) {
            struct pollfd waiting = { candidate, POLLOUT, 0 };
            int ready;
            do {
                ready = poll(&waiting, 1, (int)timeout_ms);
            } while (ready < 0 && errno == EINTR);
            if (ready == 0) {
                errno = ETIMEDOUT;
            } else if (ready > 0) {
                int error = 0;
                socklen_t length = sizeof error;
                getsockopt(candidate, SOL_SOCKET, SO_ERROR, &error, &length);
                status = error == 0 ? 0 : -1;
                errno = error;
            }
        }
        if (status == 0) {
            fcntl(candidate, F_SETFL, flags);
            int one = 1;
            setsockopt(candidate, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            fd = candidate;
        } else {
            last_error = errno;
            close(candidate);
        }
    }
    freeaddrinfo(addresses);
    if (fd < 0) {
        *os_error = last_error;
        snprintf(message, size, "cannot connect to %s:%d: %s", host, port, strerror(last_error));
    }
    return fd;
}

static void free_session(session *s) {
    if (s->ssl != NULL) SSL_free(s->ssl);
    if (s->context != NULL) SSL_CTX_free(s->context);
    if (s->tcp >= 0) close(s->tcp);
    if (s->pair >= 0) close(s->pair);
    free(s);
}

// Writes all of `bytes` to the session; 0, or -1 once it fails.
static int ssl_write_all(SSL *ssl, const char *bytes, ssize_t count) {
    while (count > 0) {
        int written = SSL_write(ssl, bytes, (int)count);
        if (written <= 0) return -1;
        bytes += written;
        count -= written;
    }
    return 0;
}

static int write_all(int fd, const char *bytes, ssize_t count) {
    while (count > 0) {
        ssize_t written = send(fd, bytes, (size_t)count, MSG_NOSIGNAL);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        bytes += written;
        count -= written;
    }
    return 0;
}

// The session's thread: bytes from the client's socket to the server, and back, until either side closes or fails.
static void *pump(void *argument) {
    session *s = argument;
    // Writes to a closed peer fail with EPIPE here instead of raising SIGPIPE in the process.
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
    char buffer[16384];
    for (;;) {
        // Bytes OpenSSL already decrypted are not visible to poll.
        if (SSL_pending(s->ssl) == 0) {
            struct pollfd fds[2] = { { s->pair, POLLIN, 0 }, { s->tcp, POLLIN, 0 } };
            if (poll(fds, 2, -1) < 0) {
                if (errno == EINTR) continue;
                break;
            }
            if (fds[0].revents != 0) {
                ssize_t count = read(s->pair, buffer, sizeof buffer);
                if (count < 0 && errno == EINTR) continue;
                if (count <= 0 || ssl_write_all(s->ssl, buffer, count) != 0) break;
            }
            if (fds[1].revents == 0) continue;
        }
        int count = SSL_read(s->ssl, buffer, sizeof buffer);
        if (count <= 0) {
            // A record without application data (a TLS 1.3 session ticket) was read: nothing to pass on.
            if (SSL_get_error(s->ssl, count) == SSL_ERROR_WANT_READ) continue;
            break;
        }
        if (write_all(s->pair, buffer, count) != 0) break;
    }
    SSL_shutdown(s->ssl);
    ERR_clear_error();
    free_session(s);
    return NULL;
}

int wi_redis_tls_open(
    const char *host, int port, const wi_redis_tls_options *options,
    int *local_fd, int *os_error, char *message, size_t message_size
) {
    *local_fd = -1;
    *os_error = 0;
    session *s = calloc(1, sizeof *s);
    if (s == NULL) {
        *os_error = ENOMEM;
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    s->tcp = -1;
    s->pair = -1;
    // The handshake writes too: a server that closes during it must not raise SIGPIPE on this thread.
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);

    int status = -1;
    s->tcp = connect_tcp(host, port, options->timeout_ms, os_error, message, message_size);
    if (s->tcp < 0) goto done;
    set_timeouts(s->tcp, options->timeout_ms);

    s->context = SSL_CTX_new(TLS_client_method());
    if (s->context == NULL) {
        describe(message, message_size, "cannot make a TLS context");
        goto done;
    }
    SSL_CTX_set_min_proto_version(s->context, TLS1_2_VERSION);
    // Without it, a read that meets a record with no application data would wait for the next one, while the
    // client's next command waits to be sent.
    SSL_CTX_clear_mode(s->context, SSL_MODE_AUTO_RETRY);
    if (options->verify_peer) {
        SSL_CTX_set_verify(s->context, SSL_VERIFY_PEER, NULL);
        int loaded = options->ca_file != NULL
            ? SSL_CTX_load_verify_locations(s->context, options->ca_file, NULL)
            : SSL_CTX_set_default_verify_paths(s->context);
        if (loaded != 1) {
            describe(message, message_size, "cannot load the certificates to trust");
            goto done;
        }
        // A certificate given to trust is an anchor even when it is not a CA (a server's self-signed one).
        X509_VERIFY_PARAM_set_flags(SSL_CTX_get0_param(s->context), X509_V_FLAG_PARTIAL_CHAIN);
    } else {
        SSL_CTX_set_verify(s->context, SSL_VERIFY_NONE, NULL);
    }
    if (options->certificate_file != NULL) {
        if (SSL_CTX_use_certificate_chain_file(s->context, options->certificate_file) != 1
            || SSL_CTX_use_PrivateKey_file(s->context, options->private_key_file, SSL_FILETYPE_PEM) != 1) {
            describe(message, message_size, "cannot load the client certificate or its key");
            goto done;
        }
    }
    s->ssl = SSL_new(s->context);
    if (s->ssl == NULL || SSL_set_fd(s->ssl, s->tcp) != 1) {
        describe(message, message_size, "cannot make a TLS session");
        goto done;
    }
    const char *name = options->server_name != NULL ? options->server_name : host;
    unsigned char address[sizeof(struct in6_addr)];
    int is_address = inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1;
    if (!is_address) SSL_set_tlsext_host_name(s->ssl, name);
    if (options->verify_peer) {
        int named = is_address ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s->ssl), name) : SSL_set1_host(s->ssl, name);
        if (named != 1) {
            describe(message, message_size, "cannot set the name to verify");
            goto done;
        }
    }
    errno = 0;
    int connected = SSL_connect(s->ssl);
    if (connected != 1) {
        long verified = SSL_get_verify_result(s->ssl);
        int saved = errno;
        if (verified != X509_V_OK) {
            char what[256];
            snprintf(what, sizeof what, "the server's certificate did not verify: %s", X509_verify_cert_error_string(verified));
            describe(message, message_size, what);
        } else if (SSL_get_error(s->ssl, connected) == SSL_ERROR_WANT_READ || SSL_get_error(s->ssl, connected) == SSL_ERROR_WANT_WRITE) {
            // The socket's timeout ran out: OpenSSL reports the EAGAIN behind it as a read or write to retry.
            *os_error = ETIMEDOUT;
            char what[256];
            snprintf(what, sizeof what, "the TLS handshake with %s:%d timed out", host, port);
            describe(message, message_size, what);
        } else if (SSL_get_error(s->ssl, connected) == SSL_ERROR_SYSCALL && saved != 0) {
            *os_error = (saved == EAGAIN || saved == EWOULDBLOCK) ? ETIMEDOUT : saved;
            char what[256];
            snprintf(what, sizeof what, "the TLS handshake with %s:%d failed: %s", host, port, strerror(*os_error));
            describe(message, message_size, what);
        } else {
            describe(message, message_size, "the TLS handshake failed");
        }
        goto done;
    }

    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        *os_error = errno;
        snprintf(message, message_size, "cannot make a socket pair: %s", strerror(errno));
        goto done;
    }
    s->pair = fds[1];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int created = pthread_create(&thread, &attributes, pump, s);
    pthread_attr_destroy(&attributes);
    if (created != 0) {
        close(fds[0]);
        *os_error = created;
        snprintf(message, message_size, "cannot start the TLS thread: %s", strerror(created));
        goto done;
    }
    *local_fd = fds[0];
    s = NULL;
    status = 0;

done:
    if (s != NULL) free_session(s);
    // Discard a SIGPIPE this thread raised while it was blocked, then restore the mask.
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) && !sigismember(&old_set, SIGPIPE)) {
        struct timespec zero = { 0, 0 };
        sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old_set, NULL);
    return status;
}
