#ifndef WEBIMAGE_CCURL_SHIM_H
#define WEBIMAGE_CCURL_SHIM_H

#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

// curl_easy_setopt, curl_multi_setopt, curl_share_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: one typed wrapper per kind of argument.

typedef size_t (*wi_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode wi_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

static inline CURLcode wi_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, wi_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode wi_curl_easy_setopt_opensocket(CURL *handle, curl_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}

static inline CURLcode wi_curl_easy_setopt_prereq(CURL *handle, curl_prereq_callback value) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

// The address curl is about to connect to: an IPv4 or IPv6 socket address, copied into `bytes` (4 or 16 of them);
// returns how many, 0 for another family.
static inline int wi_curl_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char *bytes) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
        memcpy(bytes, &v4->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(bytes, &v6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

static inline CURLcode wi_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode wi_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode wi_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode wi_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode wi_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLSHcode wi_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

// CURLVERSION_NOW is a macro naming an enumerator, which Swift does not import.
static inline curl_version_info_data *wi_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

// CURLMsg's result sits in a union.
static inline CURLcode wi_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}

// CURLAUTH_BASIC is a macro with a cast and a shift, which Swift does not import.
static inline long wi_curl_auth_basic(void) {
    return (long)CURLAUTH_BASIC;
}

#endif
