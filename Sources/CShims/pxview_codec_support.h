#ifndef PXVIEW_CODEC_SUPPORT_H
#define PXVIEW_CODEC_SUPPORT_H
/// Helpers the codec shims share (not exported to Swift).
#include <stdio.h>
#include <string.h>

#include "pxview_codec.h"

static inline void pxview_codec_message(pxview_codec_info *info, const char *text) {
    if (!info) return;
    snprintf(info->message, sizeof info->message, "%s", text ? text : "");
}

static inline void pxview_codec_clear(pxview_codec_info *info) {
    memset(info, 0, sizeof *info);
    info->orientation = 1;
    info->frame_count = 1;
    info->loop_count = 1;
}
#endif
