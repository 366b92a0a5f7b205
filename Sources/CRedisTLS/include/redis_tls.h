#ifndef WEBIMAGE_REDIS_TLS_H
#define WEBIMAGE_REDIS_TLS_H

#include <stddef.h>

// A TLS session to a Redis server, for a client library that speaks plain sockets only (Debian's hiredis 0.14 has no
// TLS): the session runs on a thread of its own, which pumps bytes between it and one end of a local socket pair;
// the client reads and writes the other end.

typedef struct wi_redis_tls_options {
    // Certificates to trust, in PEM; NULL trusts the system's default store.
    const char *ca_file;
    // The name to send (SNI) and to verify the certificate against; NULL uses the host.
    const char *server_name;
    // Nonzero to verify the server's certificate and name; zero accepts any certificate (for tests only).
    int verify_peer;
    // A client certificate and its private key, in PEM, for servers that ask for one; NULL sends none.
    const char *certificate_file;
    const char *private_key_file;
    // The longest the TCP connect, the handshake, and each read or write of the session may take.
    long timeout_ms;
} wi_redis_tls_options;

// Connects to host:port, completes the TLS handshake, and returns in *local_fd the client's end of the socket pair.
// The session's thread ends, and frees the session, once the client closes local_fd or the server closes.
//
// Returns 0, or on failure -1 with a message in `message` (at most message_size bytes, NUL-terminated) and in
// *os_error the system error behind it (ECONNREFUSED, ETIMEDOUT, ...; 0 for a TLS failure such as a certificate
// that does not verify).
int wi_redis_tls_open(
    const char *host, int port, const wi_redis_tls_options *options,
    int *local_fd, int *os_error, char *message, size_t message_size
);

#endif
