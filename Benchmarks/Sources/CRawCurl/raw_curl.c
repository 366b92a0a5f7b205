#include "raw_curl.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

struct raw_curl_session {
    CURLM *multi;
    struct curl_slist *headers;  // sent with every transfer, NULL for curl's own
};

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;  // set when the buffer could not grow
} raw_buffer;

static size_t raw_write(char *bytes, size_t size, size_t count, void *context) {
    raw_buffer *buffer = context;
    size_t length = size * count;
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity < buffer->size + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (!grown) {
            buffer->failed = 1;
            return 0;
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
    return length;
}

raw_curl_session *raw_curl_session_create(long max_host_connections, long max_total_connections) {
    static int initialized = 0;
    if (!initialized) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
        initialized = 1;
    }
    raw_curl_session *session = calloc(1, sizeof *session);
    if (!session) return NULL;
    session->multi = curl_multi_init();
    if (!session->multi) {
        free(session);
        return NULL;
    }
    curl_multi_setopt(session->multi, CURLMOPT_MAX_HOST_CONNECTIONS, max_host_connections);
    curl_multi_setopt(session->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max_total_connections);
    return session;
}

void raw_curl_session_destroy(raw_curl_session *session) {
    if (!session) return;
    curl_multi_cleanup(session->multi);
    curl_slist_free_all(session->headers);
    free(session);
}

int raw_curl_session_set_headers(raw_curl_session *session, const char *const *lines, int count) {
    if (!session) return -1;
    struct curl_slist *list = NULL;
    for (int i = 0; i < count; i++) {
        struct curl_slist *grown = curl_slist_append(list, lines[i]);
        if (!grown) {
            curl_slist_free_all(list);
            return -1;
        }
        list = grown;
    }
    curl_slist_free_all(session->headers);
    session->headers = list;
    return 0;
}

// Adds a transfer of `url`, with `headers` when not NULL; 0 on success.
static int raw_add(CURLM *multi, const char *url, struct curl_slist *headers, long connect_timeout_ms,
                   long total_timeout_ms) {
    CURL *easy = curl_easy_init();
    if (!easy) return -1;
    raw_buffer *buffer = calloc(1, sizeof *buffer);
    if (!buffer) {
        curl_easy_cleanup(easy);
        return -1;
    }
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, total_timeout_ms);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    if (headers) curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, raw_write);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, buffer);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, buffer);
    if (curl_multi_add_handle(multi, easy) != CURLM_OK) {
        curl_easy_cleanup(easy);
        free(buffer);
        return -1;
    }
    return 0;
}

raw_curl_result raw_curl_fetch(raw_curl_session *session, const char *const *urls, int count, int max_concurrent,
                               long connect_timeout_ms, long total_timeout_ms) {
    raw_curl_result result = {0, 0};
    if (!session || count <= 0) return result;
    if (max_concurrent < 1) max_concurrent = 1;
    CURLM *multi = session->multi;
    int next = 0;
    int in_flight = 0;
    while (next < count && in_flight < max_concurrent) {
        if (raw_add(multi, urls[next++], session->headers, connect_timeout_ms, total_timeout_ms) == 0) {
            in_flight++;
        } else {
            result.failures++;
        }
    }
    while (in_flight > 0) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        CURLMsg *message;
        int left = 0;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            CURLcode code = message->data.result;
            raw_buffer *buffer = NULL;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&buffer);
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (code == CURLE_OK && status == 200 && buffer && !buffer->failed) {
                result.bytes += (long long)buffer->size;
            } else {
                result.failures++;
            }
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            if (buffer) {
                free(buffer->data);
                free(buffer);
            }
            in_flight--;
            while (next < count && in_flight < max_concurrent) {
                if (raw_add(multi, urls[next++], session->headers, connect_timeout_ms, total_timeout_ms) == 0) {
                    in_flight++;
                    break;
                }
                result.failures++;
            }
        }
        if (in_flight > 0 && curl_multi_poll(multi, NULL, 0, 1000, NULL) != CURLM_OK) break;
    }
    // Anything still in flight after a multi error counts as failed.
    result.failures += in_flight;
    return result;
}
