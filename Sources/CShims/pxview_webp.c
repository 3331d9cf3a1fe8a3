#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "pxview_codec_support.h"

/// WebP through libwebp: a still image (lossy, lossless, with or without
/// alpha) is one WebPDecode straight into the caller's buffer, scaled while
/// decoding when a smaller size is asked for; an animation goes through
/// libwebpdemux's WebPAnimDecoder, which composites each frame onto the
/// canvas (blending and disposal as the container says) and reports when it
/// ends, from which the delay follows.
typedef struct webp_decoder {
    WebPData data;
    int animated;
    unsigned width, height;
    WebPAnimDecoder *animation;  ///< made on the first frame: it allocates two canvases
    int last_timestamp;
    int done;
} webp_decoder;

static pxview_codec_status webp_status(VP8StatusCode code, pxview_codec_info *info) {
    switch (code) {
    case VP8_STATUS_OK: return PXVIEW_CODEC_OK;
    case VP8_STATUS_OUT_OF_MEMORY: return PXVIEW_CODEC_NO_MEMORY;
    case VP8_STATUS_NOT_ENOUGH_DATA: return PXVIEW_CODEC_TRUNCATED;
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        pxview_codec_message(info, "unsupported feature");
        return PXVIEW_CODEC_UNSUPPORTED;
    case VP8_STATUS_BITSTREAM_ERROR:
        pxview_codec_message(info, "bitstream error");
        return PXVIEW_CODEC_CORRUPT;
    default:
        pxview_codec_message(info, "invalid parameter");
        return PXVIEW_CODEC_CORRUPT;
    }
}

void pxview_webp_close(void *handle) {
    webp_decoder *decoder = handle;
    if (!decoder) return;
    if (decoder->animation) WebPAnimDecoderDelete(decoder->animation);
    free(decoder);
}

pxview_codec_status pxview_webp_open(const unsigned char *data, size_t size, pxview_codec_info *info, void **out) {
    pxview_codec_clear(info);
    *out = NULL;
    WebPBitstreamFeatures features;
    pxview_codec_status status = webp_status(WebPGetFeatures(data, size, &features), info);
    if (status != PXVIEW_CODEC_OK) return status;
    webp_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return PXVIEW_CODEC_NO_MEMORY;
    decoder->data.bytes = data;
    decoder->data.size = size;
    decoder->animated = features.has_animation;
    if (decoder->animated) {
        // The demuxer reads the chunks only (no pixels): canvas, frames, loops.
        WebPDemuxState state;
        WebPDemuxer *demux = WebPDemuxPartial(&decoder->data, &state);
        if (!demux || state != WEBP_DEMUX_DONE) {
            if (demux) WebPDemuxDelete(demux);
            free(decoder);
            if (state != WEBP_DEMUX_PARSE_ERROR) return PXVIEW_CODEC_TRUNCATED;
            pxview_codec_message(info, "bad container");
            return PXVIEW_CODEC_CORRUPT;
        }
        decoder->width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
        decoder->height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
        info->frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        // The container counts plays; 0 is for ever (Chrome reads it so).
        info->loop_count = WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT);
        WebPDemuxDelete(demux);
    } else {
        decoder->width = (unsigned)features.width;
        decoder->height = (unsigned)features.height;
        info->scales = 1;
    }
    info->width = decoder->width;
    info->height = decoder->height;
    *out = decoder;
    return PXVIEW_CODEC_OK;
}

pxview_codec_status pxview_webp_frame(void *handle, unsigned char *out, unsigned out_width, unsigned out_height,
                                      unsigned *delay_ms, pxview_codec_info *info) {
    webp_decoder *d = handle;
    *delay_ms = 0;
    if (!d->animated) {
        if (d->done) return PXVIEW_CODEC_END;
        WebPDecoderConfig config;
        if (!WebPInitDecoderConfig(&config)) return PXVIEW_CODEC_UNSUPPORTED;
        if (out_width != d->width || out_height != d->height) {
            config.options.use_scaling = 1;
            config.options.scaled_width = (int)out_width;
            config.options.scaled_height = (int)out_height;
        }
        config.options.use_threads = 1;
        config.output.colorspace = MODE_RGBA;
        config.output.is_external_memory = 1;
        config.output.u.RGBA.rgba = out;
        config.output.u.RGBA.stride = (int)out_width * 4;
        config.output.u.RGBA.size = (size_t)out_width * out_height * 4;
        pxview_codec_status status = webp_status(WebPDecode(d->data.bytes, d->data.size, &config), info);
        WebPFreeDecBuffer(&config.output);
        d->done = 1;
        return status;
    }
    if (out_width != d->width || out_height != d->height) return PXVIEW_CODEC_UNSUPPORTED;
    if (!d->animation) {
        WebPAnimDecoderOptions options;
        if (!WebPAnimDecoderOptionsInit(&options)) return PXVIEW_CODEC_UNSUPPORTED;
        options.color_mode = MODE_RGBA;
        options.use_threads = 1;
        d->animation = WebPAnimDecoderNew(&d->data, &options);
        if (!d->animation) {
            pxview_codec_message(info, "the animation could not be set up");
            return PXVIEW_CODEC_CORRUPT;
        }
    }
    if (!WebPAnimDecoderHasMoreFrames(d->animation)) return PXVIEW_CODEC_END;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(d->animation, &canvas, &timestamp)) {
        pxview_codec_message(info, "a frame could not be decoded");
        return PXVIEW_CODEC_CORRUPT;
    }
    memcpy(out, canvas, (size_t)d->width * d->height * 4);
    *delay_ms = timestamp > d->last_timestamp ? (unsigned)(timestamp - d->last_timestamp) : 0;
    d->last_timestamp = timestamp;
    return PXVIEW_CODEC_OK;
}
