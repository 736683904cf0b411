#ifndef RESOLVEKIT_CCURL_SHIM_H
#define RESOLVEKIT_CCURL_SHIM_H

// Typed, non-variadic wrappers around libcurl's variadic option and info functions, which Swift cannot call,
// plus the few macros whose values Swift does not import.

#if defined(__has_include) && !__has_include(<curl/curl.h>)
#error "libcurl's headers are missing: install them with `sudo apt-get install libcurl4-openssl-dev` (Debian/Ubuntu)"
#endif
#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/epoll.h>    // the curl thread's event loop (Glibc's Swift module leaves these two out)
#include <sys/eventfd.h>

typedef size_t (*rk_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*rk_curl_xferinfo_callback)(void *userdata, curl_off_t download_total, curl_off_t download_now,
                                         curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode rk_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode rk_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode rk_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode rk_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode rk_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode rk_curl_easy_setopt_write_callback(CURL *handle, rk_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode rk_curl_easy_setopt_header_callback(CURL *handle, rk_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode rk_curl_easy_setopt_xferinfo_callback(CURL *handle, rk_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode rk_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode rk_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// MARK: Network settings, one typed wrapper per option (see NetworkSettings in ResolveKitHTTP).

/// `CURLOPT_CAINFO`: the CA bundle file that verifies the server; `NULL` leaves no bundle file.
static inline CURLcode rk_curl_set_ca_file(CURL *handle, const char *path) {
    return curl_easy_setopt(handle, CURLOPT_CAINFO, path);
}

/// `CURLOPT_CAPATH`: the hashed CA folder(s) that verify the server (OpenSSL takes a `:`-separated list).
static inline CURLcode rk_curl_set_ca_path(CURL *handle, const char *path) {
    return curl_easy_setopt(handle, CURLOPT_CAPATH, path);
}

/// `CURLOPT_PROXY_CAINFO`: the CA bundle file that verifies an `https://` proxy.
static inline CURLcode rk_curl_set_proxy_ca_file(CURL *handle, const char *path) {
    return curl_easy_setopt(handle, CURLOPT_PROXY_CAINFO, path);
}

/// `CURLOPT_PROXY_CAPATH`: the hashed CA folder(s) that verify an `https://` proxy.
static inline CURLcode rk_curl_set_proxy_ca_path(CURL *handle, const char *path) {
    return curl_easy_setopt(handle, CURLOPT_PROXY_CAPATH, path);
}

/// `CURLOPT_CA_CACHE_TIMEOUT` (libcurl 7.87+): how long, in seconds, a CA store loaded from a file alone is kept.
static inline CURLcode rk_curl_set_ca_cache_timeout(CURL *handle, long seconds) {
    return curl_easy_setopt(handle, CURLOPT_CA_CACHE_TIMEOUT, seconds);
}

/// `CURLOPT_SSLCERT` with `CURLOPT_SSLCERTTYPE` `PEM`: the client certificate for mutual TLS.
static inline CURLcode rk_curl_set_client_certificate(CURL *handle, const char *path) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSLCERTTYPE, "PEM");
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_SSLCERT, path);
}

/// `CURLOPT_SSLKEY` with `CURLOPT_SSLKEYTYPE` `PEM`: the client certificate's private key.
static inline CURLcode rk_curl_set_client_key(CURL *handle, const char *path) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSLKEYTYPE, "PEM");
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_SSLKEY, path);
}

/// `CURLOPT_KEYPASSWD`: the passphrase of the client key (libcurl copies it).
static inline CURLcode rk_curl_set_key_password(CURL *handle, const char *passphrase) {
    return curl_easy_setopt(handle, CURLOPT_KEYPASSWD, passphrase);
}

/// `CURLOPT_PINNEDPUBLICKEY`: `sha256//…` pins separated by `;`, any of which the server's key must match.
static inline CURLcode rk_curl_set_pinned_public_key(CURL *handle, const char *pins) {
    return curl_easy_setopt(handle, CURLOPT_PINNEDPUBLICKEY, pins);
}

/// `CURLOPT_PROXY`: the proxy URL; `""` disables every proxy, the environment's included.
static inline CURLcode rk_curl_set_proxy(CURL *handle, const char *url) {
    return curl_easy_setopt(handle, CURLOPT_PROXY, url);
}

/// `CURLOPT_PROXYUSERNAME`: the proxy user name (libcurl copies it).
static inline CURLcode rk_curl_set_proxy_username(CURL *handle, const char *name) {
    return curl_easy_setopt(handle, CURLOPT_PROXYUSERNAME, name);
}

/// `CURLOPT_PROXYPASSWORD`: the proxy password (libcurl copies it).
static inline CURLcode rk_curl_set_proxy_password(CURL *handle, const char *password) {
    return curl_easy_setopt(handle, CURLOPT_PROXYPASSWORD, password);
}

/// `CURLOPT_NOPROXY`: hosts reached without the proxy, comma-separated; `""` proxies every host.
static inline CURLcode rk_curl_set_no_proxy(CURL *handle, const char *hosts) {
    return curl_easy_setopt(handle, CURLOPT_NOPROXY, hosts);
}

/// `CURLOPT_SSLVERSION`: the lowest TLS version accepted (a `CURL_SSLVERSION_*` value).
static inline CURLcode rk_curl_set_ssl_version(CURL *handle, long version) {
    return curl_easy_setopt(handle, CURLOPT_SSLVERSION, version);
}

/// `CURLOPT_HTTP_VERSION`: which HTTP version to ask for (a `CURL_HTTP_VERSION_*` value).
static inline CURLcode rk_curl_set_http_version(CURL *handle, long version) {
    return curl_easy_setopt(handle, CURLOPT_HTTP_VERSION, version);
}

/// `CURLOPT_CONNECTTIMEOUT_MS`: how long DNS, TCP, proxy and TLS set-up may take.
static inline CURLcode rk_curl_set_connect_timeout_ms(CURL *handle, long milliseconds) {
    return curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds);
}

/// `CURLOPT_LOW_SPEED_LIMIT` and `CURLOPT_LOW_SPEED_TIME`: abort when fewer than `bytes_per_second` arrive for
/// `seconds` in a row.
static inline CURLcode rk_curl_set_low_speed(CURL *handle, long bytes_per_second, long seconds) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, bytes_per_second);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, seconds);
}

/// A `curl_off_t` info of a transfer, e.g. `CURLINFO_TOTAL_TIME_T` (microseconds).
static inline CURLcode rk_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// A socket info of a transfer, e.g. `CURLINFO_ACTIVESOCKET` (`CURL_SOCKET_BAD` when there is none).
static inline CURLcode rk_curl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// A string info, e.g. `CURLINFO_CAPATH`; the text belongs to libcurl.
static inline CURLcode rk_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &text);
    *value = text;
    return code;
}

typedef int (*rk_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userdata, void *socketdata);
typedef int (*rk_curl_timer_callback)(CURLM *multi, long timeout_ms, void *userdata);

/// Sets `CURLMOPT_SOCKETFUNCTION` and its `CURLMOPT_SOCKETDATA`: libcurl says which sockets to watch for what.
static inline CURLMcode rk_curl_multi_set_socket_callback(CURLM *handle, rk_curl_socket_callback callback, void *userdata) {
    CURLMcode code = curl_multi_setopt(handle, CURLMOPT_SOCKETFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(handle, CURLMOPT_SOCKETDATA, userdata);
}

/// Sets `CURLMOPT_TIMERFUNCTION` and its `CURLMOPT_TIMERDATA`: libcurl says when it next needs a timeout action.
static inline CURLMcode rk_curl_multi_set_timer_callback(CURLM *handle, rk_curl_timer_callback callback, void *userdata) {
    CURLMcode code = curl_multi_setopt(handle, CURLMOPT_TIMERFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(handle, CURLMOPT_TIMERDATA, userdata);
}

/// The result code of a finished transfer from a `CURLMSG_DONE` message (a union member in C).
static inline CURLcode rk_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}

/// Whether a `CURLMsg` reports a finished transfer.
static inline bool rk_curl_msg_is_done(const CURLMsg *message) {
    return message->msg == CURLMSG_DONE;
}

/// Whether the linked libcurl was built with HTTP/3 support.
static inline bool rk_curl_supports_http3(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & CURL_VERSION_HTTP3) != 0;
}

/// Whether the linked libcurl was built with HTTP/2 support.
static inline bool rk_curl_supports_http2(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & CURL_VERSION_HTTP2) != 0;
}

/// The linked libcurl's version text, e.g. `7.88.1`.
static inline const char *rk_curl_version_string(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL ? info->version : "unknown";
}

static const size_t RK_CURL_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE;
static const int RK_CURLPAUSE_CONT = CURLPAUSE_CONT;
static const long RK_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;
static const size_t RK_CURL_ERROR_SIZE = CURL_ERROR_SIZE;
static const curl_socket_t RK_CURL_SOCKET_TIMEOUT = CURL_SOCKET_TIMEOUT;

#endif
