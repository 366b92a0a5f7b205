#ifndef WEBIMAGE_BENCH_RAW_CURL_H
#define WEBIMAGE_BENCH_RAW_CURL_H

#include <stddef.h>

// The baseline for the download benchmarks: libcurl's multi interface called directly. A session holds one
// multi handle, so connections are reused from one fetch to the next, as the downloader's engine reuses them.

typedef struct raw_curl_session raw_curl_session;

typedef struct {
    long long bytes;  // body bytes received, over every transfer
    int failures;     // transfers that did not end with CURLE_OK and status 200
} raw_curl_result;

// A session whose multi handle allows at most `max_host_connections` connections to one host and
// `max_total_connections` in all (0: no limit). NULL when curl cannot make the handle.
raw_curl_session *raw_curl_session_create(long max_host_connections, long max_total_connections);
void raw_curl_session_destroy(raw_curl_session *session);

// Sends `count` header lines ("Name: value") with every later transfer of the session; 0 on success.
int raw_curl_session_set_headers(raw_curl_session *session, const char *const *lines, int count);

// Fetches `count` URLs with at most `max_concurrent` easy handles in flight, adding the next when one completes,
// waiting in curl_multi_poll. Each body is appended into a growable buffer of its own, freed when its transfer
// ends. The timeouts are in milliseconds (0: none).
raw_curl_result raw_curl_fetch(raw_curl_session *session, const char *const *urls, int count, int max_concurrent,
                               long connect_timeout_ms, long total_timeout_ms);

#endif
