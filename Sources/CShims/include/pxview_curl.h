#ifndef PXVIEW_CURL_H
#define PXVIEW_CURL_H
#include <stddef.h>
#include <curl/curl.h>

/// libcurl, loaded on first use with dlopen instead of at process start:
/// libcurl pulls in TLS, Kerberos and LDAP libraries whose loading costs
/// ~5 ms (measured: a C program that only links them starts in 6.9 ms
/// instead of 1.5 ms), which every `pxview show` of a local file paid.
/// Returns 0 when libcurl is available, else -1 with a message in `error`.
int pxview_curl_load(char *error, size_t error_length);

CURLcode pxview_curl_global_init(long flags);
CURL *pxview_curl_easy_init(void);
void pxview_curl_easy_cleanup(CURL *handle);
const char *pxview_curl_easy_strerror(CURLcode code);
CURLM *pxview_curl_multi_init(void);
CURLMcode pxview_curl_multi_cleanup(CURLM *multi);
CURLMcode pxview_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode pxview_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode pxview_curl_multi_perform(CURLM *multi, int *running);
CURLMcode pxview_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned count, int timeout_ms, int *ready);
CURLMcode pxview_curl_multi_wakeup(CURLM *multi);
CURLMsg *pxview_curl_multi_info_read(CURLM *multi, int *remaining);
const char *pxview_curl_multi_strerror(CURLMcode code);
struct curl_slist *pxview_curl_slist_append(struct curl_slist *list, const char *text);
void pxview_curl_slist_free_all(struct curl_slist *list);

/// curl_easy_setopt and curl_easy_getinfo are variadic and Swift cannot call
/// C variadics: these fixed-arity wrappers carry one argument type each.
CURLcode pxview_curl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode pxview_curl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode pxview_curl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode pxview_curl_setopt_off_t(CURL *h, CURLoption o, curl_off_t v);
CURLcode pxview_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode pxview_curl_setopt_write_callback(CURL *h, CURLoption o, size_t (*f)(char *, size_t, size_t, void *));
CURLcode pxview_curl_setopt_xferinfo_callback(
    CURL *h, CURLoption o, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode pxview_curl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode pxview_curl_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode pxview_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v);
CURLMcode pxview_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
#endif
