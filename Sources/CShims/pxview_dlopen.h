#ifndef PXVIEW_DLOPEN_H
#define PXVIEW_DLOPEN_H
/// Loading a library on first use (not exported to Swift): each shim keeps
/// a struct of function pointers, filled once under pthread_once by
/// PXVIEW_RESOLVE, and a status and message read after it.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "pxview_codec_support.h"

/// Opens the first of `names` that loads; NULL (and `error` says why) when none does.
static inline void *pxview_dlopen_first(const char *const *names, size_t count, char *error, size_t error_length,
                                        const char *what) {
    void *library = NULL;
    for (size_t i = 0; i < count && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) snprintf(error, error_length, "%s is not installed (%s)", what, dlerror());
    return library;
}

/// One library loaded on first use: `pthread_once` runs its loader, which
/// sets `status` to 0 when every symbol resolved, else leaves `error` saying why.
typedef struct pxview_library {
    pthread_once_t once;
    int status;
    char error[160];
} pxview_library;

#define PXVIEW_LIBRARY_INIT(name) {PTHREAD_ONCE_INIT, -1, name " was not loaded"}

/// Loads `library` (once) and says whether it can be used; the codec
/// status and message for a decoder's `open` when it cannot.
static inline pxview_codec_status pxview_library_ready(pxview_library *library, void (*loader)(void),
                                                       pxview_codec_info *info) {
    pthread_once(&library->once, loader);
    if (library->status == 0) return PXVIEW_CODEC_OK;
    pxview_codec_message(info, library->error);
    return PXVIEW_CODEC_NO_LIBRARY;
}

#define PXVIEW_RESOLVE(library, api, field, symbol, error, what)                                    \
    do {                                                                                            \
        *(void **)(&(api).field) = dlsym((library), (symbol));                                      \
        if (!(api).field) {                                                                         \
            snprintf((error), sizeof(error), "%s lacks %s (another version?)", (what), (symbol));   \
            return;                                                                                 \
        }                                                                                           \
    } while (0)
#endif
