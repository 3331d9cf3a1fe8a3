#include "pxview_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/// The functions pxview uses, resolved once by pxview_curl_load.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/// Written only inside pthread_once, read after it: no further locking needed.
static int load_status = -1;
static char load_error[256] = "libcurl was not loaded";

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (%s)", dlerror());
        return;
    }
#define RESOLVE(field, symbol)                                                                \
    do {                                                                                      \
        *(void **)(&api.field) = dlsym(library, symbol);                                      \
        if (!api.field) {                                                                     \
            snprintf(load_error, sizeof load_error, "libcurl lacks %s (too old?)", symbol);   \
            return;                                                                           \
        }                                                                                     \
    } while (0)
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_strerror, "curl_multi_strerror");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
#undef RESOLVE
    load_status = 0;
}

int pxview_curl_load(char *error, size_t error_length) {
    pthread_once(&load_once, load);
    if (load_status == 0) return 0;
    if (error && error_length) snprintf(error, error_length, "%s", load_error);
    return -1;
}

CURLcode pxview_curl_global_init(long flags) { return api.global_init(flags); }
CURL *pxview_curl_easy_init(void) { return api.easy_init(); }
void pxview_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *pxview_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLM *pxview_curl_multi_init(void) { return api.multi_init(); }
CURLMcode pxview_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode pxview_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode pxview_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode pxview_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode pxview_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned count, int timeout_ms, int *ready) {
    return api.multi_poll(multi, extra, count, timeout_ms, ready);
}
CURLMcode pxview_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMsg *pxview_curl_multi_info_read(CURLM *multi, int *remaining) { return api.multi_info_read(multi, remaining); }
const char *pxview_curl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }
struct curl_slist *pxview_curl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void pxview_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode pxview_curl_setopt_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode pxview_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return api.easy_setopt(h, o, v); }
CURLcode pxview_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return api.easy_setopt(h, o, v); }
CURLcode pxview_curl_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return api.easy_setopt(h, o, v); }
CURLcode pxview_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return api.easy_setopt(h, o, v); }
CURLcode pxview_curl_setopt_write_callback(CURL *h, CURLoption o, size_t (*f)(char *, size_t, size_t, void *)) {
    return api.easy_setopt(h, o, f);
}
CURLcode pxview_curl_setopt_xferinfo_callback(
    CURL *h, CURLoption o, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return api.easy_setopt(h, o, f);
}
CURLcode pxview_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return api.easy_getinfo(h, i, v); }
CURLcode pxview_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return api.easy_getinfo(h, i, v); }
CURLcode pxview_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return api.easy_getinfo(h, i, v); }
CURLMcode pxview_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return api.multi_setopt(m, o, v); }
