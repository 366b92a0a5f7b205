#ifndef WEBIMAGE_CHIREDIS_SHIM_H
#define WEBIMAGE_CHIREDIS_SHIM_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <hiredis/hiredis.h>

// hiredis reports a failed call through the context's `err` and `errstr`, and the system error behind an I/O
// failure only through errno: each wrapper copies errno out right after the call, before Swift code can change it.

// redisConnectWithTimeout takes a struct timeval; the wrapper takes milliseconds. Never returns NULL unless
// hiredis could not allocate the context.
static inline redisContext *chiredis_connect(const char *host, int port, long timeout_ms, int *os_error) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    errno = 0;
    redisContext *context = redisConnectWithTimeout(host, port, tv);
    *os_error = errno;
    return context;
}

// redisSetTimeout, in milliseconds: the send and receive timeout of every later command.
static inline int chiredis_set_timeout(redisContext *context, long timeout_ms, int *os_error) {
    struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    errno = 0;
    int status = redisSetTimeout(context, tv);
    *os_error = errno;
    return status;
}

// redisCommandArgv returns void *: the wrapper returns the reply's type. Binary safe: every argument has its
// length. NULL when the context failed (its `err` says how); the caller frees a reply with freeReplyObject.
//
// hiredis writes with write(2), which raises SIGPIPE on a connection the server closed, and SIGPIPE ends the
// process by default. The wrapper blocks it on this thread for the call and discards the one the call raised, as
// libpq does, so that a closed connection is an EPIPE error and the process's signal handling is left alone.
static inline redisReply *chiredis_command_argv(
    redisContext *context, int count, const char **arguments, const size_t *lengths, int *os_error
) {
    sigset_t pipe_set, old_set, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);

    errno = 0;
    redisReply *reply = (redisReply *)redisCommandArgv(context, count, arguments, lengths);
    *os_error = errno;

    if (!was_pending) {
        sigemptyset(&pending);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = { 0, 0 };
            sigtimedwait(&pipe_set, NULL, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_set, NULL);
    return reply;
}

// The context's error flags and message; REDIS_OK (0) when it has none.
static inline int chiredis_error(const redisContext *context) { return context->err; }
static inline const char *chiredis_error_message(const redisContext *context) { return context->errstr; }

#endif
