#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "pxview_codec_support.h"

/// WebP through libwebp: a still image (lossy, lossless, with or without
/// alpha) is one WebPDecode straight into the caller's buffer, scaled while
/// decoding when a smaller size is asked for; an animation is composited
/// here, frame after frame, as libwebpdemux's WebPAnimDecoder does (the
/// same key frames, blending and disposal, ported from its anim_decode.c,
/// so the pixels are the same), its ANMF chunks walked here in order:
/// libwebpdemux finds frame N, for WebPAnimDecoder and its iterator alike,
/// by walking its list from the first frame, and a 1x1 WebP of 100000
/// frames took 28-51 s. The demuxer still checks the container at `open`.
typedef struct webp_frame {
    int x, y, width, height, duration, dispose_background, blend, has_alpha, number;
    const uint8_t *bytes;  ///< the frame's ALPH and VP8/VP8L chunks, as WebPDecode takes them
    size_t size;
} webp_frame;

typedef struct webp_decoder {
    WebPData data;
    int animated;
    unsigned width, height;
    size_t next_chunk;       ///< where the walk for the next ANMF chunk goes on (0: not started)
    webp_frame frame;        ///< the frame just drawn
    unsigned char *canvas;   ///< the current frame's canvas
    unsigned char *disposed; ///< the last canvas after its frame's disposal
    /// The last frame: its rectangle, disposal and whether it was a key frame.
    int last_x, last_y, last_width, last_height, last_dispose_background, last_was_key;
    WebPDecoderConfig config;
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
    free(decoder->canvas);
    free(decoder->disposed);
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

/// libwebp's non-premultiplied "over" (anim_decode.c BlendPixelNonPremult),
/// bit for bit: `src` drawn over `dst`, RGBA words in memory order.
static uint8_t blend_channel(uint32_t src, uint8_t src_a, uint32_t dst, uint8_t dst_a, uint32_t scale, int shift) {
    const uint8_t src_channel = (src >> shift) & 0xff;
    const uint8_t dst_channel = (dst >> shift) & 0xff;
    const uint32_t blend_unscaled = src_channel * src_a + dst_channel * dst_a;
    return (uint8_t)((blend_unscaled * scale) >> 24);
}

static uint32_t blend_pixel(uint32_t src, uint32_t dst) {
    // Little-endian words of RGBA bytes: red in bits 0-7, alpha in 24-31.
    const uint8_t src_a = (src >> 24) & 0xff;
    if (src_a == 0) return dst;
    const uint8_t dst_a = (dst >> 24) & 0xff;
    const uint8_t dst_factor_a = (uint8_t)((dst_a * (256 - src_a)) >> 8);
    const uint8_t blend_a = (uint8_t)(src_a + dst_factor_a);
    const uint32_t scale = (1UL << 24) / blend_a;
    const uint8_t r = blend_channel(src, src_a, dst, dst_factor_a, scale, 0);
    const uint8_t g = blend_channel(src, src_a, dst, dst_factor_a, scale, 8);
    const uint8_t b = blend_channel(src, src_a, dst, dst_factor_a, scale, 16);
    return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)blend_a << 24;
}

/// Pixels of the frame not opaque, drawn over the canvas before it.
static void blend_row(unsigned char *canvas, const unsigned char *before, int count) {
    for (int i = 0; i < count; i++) {
        uint32_t src, dst;
        memcpy(&src, canvas + 4 * (size_t)i, 4);
        if ((src >> 24) == 0xff) continue;
        memcpy(&dst, before + 4 * (size_t)i, 4);
        src = blend_pixel(src, dst);
        memcpy(canvas + 4 * (size_t)i, &src, 4);
    }
}

static uint32_t le24(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16; }
static uint32_t le32(const uint8_t *p) { return le24(p) | (uint32_t)p[3] << 24; }

/// The next ANMF chunk after `d->next_chunk`: 1 with `frame` filled in, 0
/// at the end, -1 for a chunk that runs past the data.
static int next_anmf(webp_decoder *d, webp_frame *frame) {
    const uint8_t *data = d->data.bytes;
    size_t size = d->data.size;
    if (d->next_chunk == 0) d->next_chunk = 12;  // after "RIFF" size "WEBP"
    while (d->next_chunk + 8 <= size) {
        const uint8_t *header = data + d->next_chunk;
        const size_t length = le32(header + 4);
        const size_t payload = d->next_chunk + 8;
        if (length > size - payload) return -1;
        d->next_chunk = payload + length + (length & 1);
        if (memcmp(header, "ANMF", 4) != 0) continue;
        if (length < 16) return -1;
        const uint8_t *p = data + payload;
        frame->x = (int)le24(p) * 2;
        frame->y = (int)le24(p + 3) * 2;
        frame->width = (int)le24(p + 6) + 1;
        frame->height = (int)le24(p + 9) + 1;
        frame->duration = (int)le24(p + 12);
        frame->dispose_background = p[15] & 1;
        frame->blend = !(p[15] & 2);
        frame->bytes = p + 16;
        frame->size = length - 16;
        frame->number++;
        return 1;
    }
    return 0;
}

/// The next frame of an animation composited onto the canvas, copied to `out`.
static pxview_codec_status next_animation_frame(webp_decoder *d, unsigned char *out, unsigned *delay_ms,
                                                pxview_codec_info *info) {
    const size_t canvas_bytes = (size_t)d->width * d->height * 4;
    if (d->done) return PXVIEW_CODEC_END;
    if (!d->canvas) {
        // Two canvases, as WebPAnimDecoder has; the caller checked their size.
        d->canvas = calloc(canvas_bytes ? canvas_bytes : 1, 1);
        d->disposed = calloc(canvas_bytes ? canvas_bytes : 1, 1);
        if (!d->canvas || !d->disposed) return PXVIEW_CODEC_NO_MEMORY;
        if (!WebPInitDecoderConfig(&d->config)) return PXVIEW_CODEC_UNSUPPORTED;
        d->config.output.colorspace = MODE_RGBA;
        d->config.output.is_external_memory = 1;
        d->config.options.use_threads = 1;
    }
    webp_frame *it = &d->frame;
    int found = next_anmf(d, it);
    if (found <= 0) {
        d->done = 1;
        if (found == 0) return PXVIEW_CODEC_END;
        pxview_codec_message(info, "a frame's chunk runs past the data");
        return PXVIEW_CODEC_CORRUPT;
    }
    const int width = (int)d->width, height = (int)d->height;
    if (it->x + it->width > width || it->y + it->height > height) {
        pxview_codec_message(info, "a frame lies outside the canvas");
        return PXVIEW_CODEC_CORRUPT;
    }
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(it->bytes, it->size, &features);
    if (status != VP8_STATUS_OK) return webp_status(status, info) == PXVIEW_CODEC_OK ? PXVIEW_CODEC_CORRUPT : webp_status(status, info);
    if (features.width != it->width || features.height != it->height) {
        pxview_codec_message(info, "a frame's picture is not the size its chunk says");
        return PXVIEW_CODEC_CORRUPT;
    }
    it->has_alpha = features.has_alpha;
    const int full = it->width == width && it->height == height;
    int key = it->number == 1 || ((!it->has_alpha || !it->blend) && full) ||
              (d->last_dispose_background &&
               ((d->last_width == width && d->last_height == height) || d->last_was_key));
    if (key) {
        memset(d->canvas, 0, canvas_bytes);
    } else {
        memcpy(d->canvas, d->disposed, canvas_bytes);
    }
    const size_t stride = (size_t)width * 4;
    d->config.output.u.RGBA.rgba = d->canvas + (size_t)it->y * stride + (size_t)it->x * 4;
    d->config.output.u.RGBA.stride = (int)stride;
    d->config.output.u.RGBA.size = (size_t)it->height * stride;
    status = WebPDecode(it->bytes, it->size, &d->config);
    if (status != VP8_STATUS_OK) {
        pxview_codec_status failure = webp_status(status, info);
        return failure == PXVIEW_CODEC_OK ? PXVIEW_CODEC_CORRUPT : failure;
    }
    if (it->number > 1 && it->blend && !key) {
        for (int y = 0; y < it->height; y++) {
            const int canvas_y = it->y + y;
            int left1 = it->x, width1 = it->width, left2 = -1, width2 = 0;
            if (d->last_dispose_background) {
                // The last frame's rectangle is transparent now: nothing to
                // blend there (anim_decode.c FindBlendRangeAtRow).
                const int src_max_x = it->x + it->width;
                const int dst_max_x = d->last_x + d->last_width;
                if (!(canvas_y < d->last_y || canvas_y >= d->last_y + d->last_height || it->x >= dst_max_x ||
                      src_max_x <= d->last_x)) {
                    width1 = it->x < d->last_x ? d->last_x - it->x : 0;
                    if (src_max_x > dst_max_x) {
                        left2 = dst_max_x;
                        width2 = src_max_x - dst_max_x;
                    }
                }
            }
            const size_t row = (size_t)canvas_y * stride;
            if (width1 > 0) blend_row(d->canvas + row + (size_t)left1 * 4, d->disposed + row + (size_t)left1 * 4, width1);
            if (width2 > 0) blend_row(d->canvas + row + (size_t)left2 * 4, d->disposed + row + (size_t)left2 * 4, width2);
        }
    }
    d->last_x = it->x;
    d->last_y = it->y;
    d->last_width = it->width;
    d->last_height = it->height;
    d->last_dispose_background = it->dispose_background;
    d->last_was_key = key;
    memcpy(d->disposed, d->canvas, canvas_bytes);
    if (d->last_dispose_background) {
        for (int y = 0; y < it->height; y++) {
            memset(d->disposed + (size_t)(it->y + y) * stride + (size_t)it->x * 4, 0, (size_t)it->width * 4);
        }
    }
    memcpy(out, d->canvas, canvas_bytes);
    *delay_ms = it->duration > 0 ? (unsigned)it->duration : 0;
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
    return next_animation_frame(d, out, delay_ms, info);
}
