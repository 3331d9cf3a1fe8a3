#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pxview_codec_support.h"
#include "pxview_colour.h"
#include "pxview_dlopen.h"

/// JPEG XL through libjxl 0.7 (loaded on first use, with libjxl_threads
/// when it is there): 8-bit RGBA, with the codestream's orientation applied
/// by libjxl (as djxl does), and every frame of an animation as libjxl
/// composites ("coalesces") it. Colour: an XYB image (lossy) is asked for
/// sRGB, which libjxl can give (left to itself it gave linear sRGB, drawn
/// as if sRGB: dark, the blue of an Adobe RGB file near zero); any other is
/// in its own space, whose ICC profile goes to the colour step.
static struct {
    JxlDecoder *(*create)(const JxlMemoryManager *);
    void (*destroy)(JxlDecoder *);
    JxlDecoderStatus (*subscribe)(JxlDecoder *, int);
    JxlDecoderStatus (*set_input)(JxlDecoder *, const uint8_t *, size_t);
    JxlDecoderStatus (*process)(JxlDecoder *);
    JxlDecoderStatus (*basic_info)(const JxlDecoder *, JxlBasicInfo *);
    JxlDecoderStatus (*frame_header)(const JxlDecoder *, JxlFrameHeader *);
    JxlDecoderStatus (*out_buffer_size)(const JxlDecoder *, const JxlPixelFormat *, size_t *);
    JxlDecoderStatus (*set_out_buffer)(JxlDecoder *, const JxlPixelFormat *, void *, size_t);
    JxlDecoderStatus (*set_out_callback)(JxlDecoder *, const JxlPixelFormat *, JxlImageOutCallback, void *);
    JxlDecoderStatus (*set_runner)(JxlDecoder *, JxlParallelRunner, void *);
    uint32_t (*version)(void);
    /// libjxl 0.9 dropped these two functions' unused `format` argument:
    /// the library found (the unversioned name may be a newer one) says which to call.
    JxlDecoderStatus (*icc_size)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, size_t *);
    JxlDecoderStatus (*encoded)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, JxlColorEncoding *);
    JxlDecoderStatus (*icc)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, uint8_t *, size_t);
    JxlDecoderStatus (*prefer_profile)(JxlDecoder *, const JxlColorEncoding *);
} api;

/// libjxl_threads: optional, decoding is single-threaded without it.
static struct {
    JxlParallelRetCode (*runner)(void *, void *, JxlParallelRunInit, JxlParallelRunFunction, uint32_t, uint32_t);
    void *(*create)(const JxlMemoryManager *, size_t);
    void (*destroy)(void *);
} threads;

static pxview_library library = PXVIEW_LIBRARY_INIT("libjxl");

static void load_threads(void) {
    static const char *const names[] = {"libjxl_threads.so.0.7", "libjxl_threads.so"};
    char ignored[160];
    void *handle = pxview_dlopen_first(names, 2, ignored, sizeof ignored, "libjxl_threads");
    if (!handle) return;
    *(void **)(&threads.runner) = dlsym(handle, "JxlThreadParallelRunner");
    *(void **)(&threads.create) = dlsym(handle, "JxlThreadParallelRunnerCreate");
    *(void **)(&threads.destroy) = dlsym(handle, "JxlThreadParallelRunnerDestroy");
    if (!threads.runner || !threads.create || !threads.destroy) memset(&threads, 0, sizeof threads);
}

static void load(void) {
    static const char *const names[] = {"libjxl.so.0.7", "libjxl.so"};
    void *handle = pxview_dlopen_first(names, 2, library.error, sizeof library.error, "libjxl");
    if (!handle) return;
    PXVIEW_RESOLVE(handle, api, create, "JxlDecoderCreate", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, destroy, "JxlDecoderDestroy", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, subscribe, "JxlDecoderSubscribeEvents", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, set_input, "JxlDecoderSetInput", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, process, "JxlDecoderProcessInput", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, basic_info, "JxlDecoderGetBasicInfo", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, frame_header, "JxlDecoderGetFrameHeader", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, out_buffer_size, "JxlDecoderImageOutBufferSize", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, set_out_buffer, "JxlDecoderSetImageOutBuffer", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, set_out_callback, "JxlDecoderSetImageOutCallback", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, set_runner, "JxlDecoderSetParallelRunner", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, version, "JxlDecoderVersion", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, icc_size, "JxlDecoderGetICCProfileSize", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, icc, "JxlDecoderGetColorAsICCProfile", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, encoded, "JxlDecoderGetColorAsEncodedProfile", library.error, "libjxl");
    PXVIEW_RESOLVE(handle, api, prefer_profile, "JxlDecoderSetPreferredColorProfile", library.error, "libjxl");
    load_threads();
    library.status = 0;
}

typedef struct jxl_decoder {
    JxlDecoder *decoder;
    void *runner;
    JxlBasicInfo basic;
    unsigned width, height;
    /// The pixels' ICC profile, and the file's own when libjxl converted from it.
    uint8_t *icc, *original_icc;
    size_t icc_size, original_icc_size;
    /// HDR (PQ 16 or HLG 18, H.273's numbers, as libjxl's) and its
    /// primaries in H.273's numbers: decoded to 16 bits and tone-mapped
    /// here, as AVIF's are; 0 for SDR.
    int hdr_transfer, hdr_primaries;
    /// The frame being written (HDR: libjxl hands over 16-bit rows, each
    /// tone-mapped into it as it comes, never a whole 16-bit frame).
    unsigned char *frame;
} jxl_decoder;

static const JxlPixelFormat rgba8 = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
static const JxlPixelFormat rgba16 = {4, JXL_TYPE_UINT16, JXL_NATIVE_ENDIAN, 0};

void pxview_jxl_close(void *handle) {
    jxl_decoder *d = handle;
    if (!d) return;
    if (d->decoder) api.destroy(d->decoder);
    if (d->runner) threads.destroy(d->runner);
    free(d->icc);
    free(d->original_icc);
    free(d);
}

/// The profile libjxl gives for `target` (at most 4 MB), or NULL.
static uint8_t *profile(jxl_decoder *d, JxlColorProfileTarget target, size_t *size) {
    *size = 0;
    size_t needed = 0;
    int newer = api.version() >= 9000;
    JxlDecoderStatus (*size_since_0_9)(const JxlDecoder *, JxlColorProfileTarget, size_t *) = (void *)api.icc_size;
    JxlDecoderStatus (*icc_since_0_9)(const JxlDecoder *, JxlColorProfileTarget, uint8_t *, size_t) = (void *)api.icc;
    JxlDecoderStatus sized = newer ? size_since_0_9(d->decoder, target, &needed) : api.icc_size(d->decoder, NULL, target, &needed);
    if (sized != JXL_DEC_SUCCESS || needed == 0 || needed > (4u << 20)) return NULL;
    uint8_t *bytes = malloc(needed);
    if (!bytes) return NULL;
    JxlDecoderStatus got = newer ? icc_since_0_9(d->decoder, target, bytes, needed) : api.icc(d->decoder, NULL, target, bytes, needed);
    if (got != JXL_DEC_SUCCESS) {
        free(bytes);
        return NULL;
    }
    *size = needed;
    return bytes;
}

/// The file's own colour encoding, when libjxl can say it as one (0 when
/// it is only an ICC profile).
static int original_encoding(jxl_decoder *d, JxlColorEncoding *encoding) {
    JxlDecoderStatus (*since_0_9)(const JxlDecoder *, JxlColorProfileTarget, JxlColorEncoding *) = (void *)api.encoded;
    JxlDecoderStatus got = api.version() >= 9000 ? since_0_9(d->decoder, JXL_COLOR_PROFILE_TARGET_ORIGINAL, encoding)
                                                 : api.encoded(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, encoding);
    return got == JXL_DEC_SUCCESS;
}

/// At JXL_DEC_COLOR_ENCODING: PQ or HLG RGB is kept in its own encoding,
/// 16 bits a sample, for the tone-mapping (a PQ file went through its ICC
/// profile from 8 bits: mean dE00 3.9, L* 36 for 40); else an XYB image is
/// asked for sRGB (grey for a grey one); the pixels' profile, and the
/// original one, kept for `info`.
static void settle_colour(jxl_decoder *d, pxview_codec_info *info) {
    JxlColorEncoding own;
    // The tone-mapping knows D65 white with BT.709, BT.2020 or P3
    // primaries; other HDR (DCI white, custom primaries) goes through its
    // ICC profile from 8 bits, as before.
    if (d->basic.num_color_channels == 3 && original_encoding(d, &own) &&
        (own.transfer_function == JXL_TRANSFER_FUNCTION_PQ || own.transfer_function == JXL_TRANSFER_FUNCTION_HLG) &&
        own.white_point == JXL_WHITE_POINT_D65 &&
        (own.primaries == JXL_PRIMARIES_SRGB || own.primaries == JXL_PRIMARIES_2100 || own.primaries == JXL_PRIMARIES_P3) &&
        (d->basic.uses_original_profile || api.prefer_profile(d->decoder, &own) == JXL_DEC_SUCCESS)) {
        d->hdr_transfer = own.transfer_function == JXL_TRANSFER_FUNCTION_PQ ? 16 : 18;
        d->hdr_primaries = own.primaries == JXL_PRIMARIES_SRGB ? 1 : own.primaries == JXL_PRIMARIES_P3 ? 12 : 9;
        return;
    }
    if (!d->basic.uses_original_profile) {
        d->original_icc = profile(d, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &d->original_icc_size);
        JxlColorEncoding srgb;
        memset(&srgb, 0, sizeof srgb);
        srgb.color_space = d->basic.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
        srgb.white_point = JXL_WHITE_POINT_D65;
        srgb.primaries = JXL_PRIMARIES_SRGB;
        srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
        srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
        api.prefer_profile(d->decoder, &srgb);
    }
    d->icc = profile(d, JXL_COLOR_PROFILE_TARGET_DATA, &d->icc_size);
    info->icc = d->icc;
    info->icc_size = d->icc_size;
    info->original_icc = d->original_icc;
    info->original_icc_size = d->original_icc_size;
}

/// A decoder over the whole of `data`. The input is left open: libjxl then
/// asks for more (JXL_DEC_NEED_MORE_INPUT) when the data stops short, which
/// is how truncation is told from damage (with it closed, both are errors).
static JxlDecoder *start(const unsigned char *data, size_t size, int events) {
    JxlDecoder *decoder = api.create(NULL);
    if (!decoder) return NULL;
    if (api.subscribe(decoder, events) != JXL_DEC_SUCCESS || api.set_input(decoder, data, size) != JXL_DEC_SUCCESS) {
        api.destroy(decoder);
        return NULL;
    }
    return decoder;
}

static pxview_codec_status failure(JxlDecoderStatus status, pxview_codec_info *info) {
    if (status == JXL_DEC_NEED_MORE_INPUT) return PXVIEW_CODEC_TRUNCATED;
    pxview_codec_message(info, "libjxl refused the data");
    return PXVIEW_CODEC_CORRUPT;
}

/// An animation's frames, counted from their headers: libjxl skips the
/// pixels of frames nobody asked to see.
static pxview_codec_status count_frames(const unsigned char *data, size_t size, unsigned *count, pxview_codec_info *info) {
    JxlDecoder *decoder = start(data, size, JXL_DEC_FRAME);
    if (!decoder) return PXVIEW_CODEC_NO_MEMORY;
    *count = 0;
    for (;;) {
        JxlDecoderStatus status = api.process(decoder);
        if (status == JXL_DEC_FRAME) {
            (*count)++;
        } else if (status == JXL_DEC_SUCCESS) {
            api.destroy(decoder);
            return PXVIEW_CODEC_OK;
        } else {
            api.destroy(decoder);
            return failure(status, info);
        }
    }
}

pxview_codec_status pxview_jxl_open(const unsigned char *data, size_t size, pxview_codec_info *info, void **out) {
    pxview_codec_clear(info);
    *out = NULL;
    pxview_codec_status ready = pxview_library_ready(&library, load, info);
    if (ready != PXVIEW_CODEC_OK) return ready;
    jxl_decoder *d = calloc(1, sizeof *d);
    if (!d) return PXVIEW_CODEC_NO_MEMORY;
    d->decoder = start(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE);
    if (!d->decoder) {
        pxview_jxl_close(d);
        return PXVIEW_CODEC_NO_MEMORY;
    }
    // Two threads: the machines pxview is measured on have two cores.
    if (threads.create) d->runner = threads.create(NULL, 2);
    if (d->runner) api.set_runner(d->decoder, threads.runner, d->runner);
    JxlDecoderStatus status = api.process(d->decoder);
    if (status != JXL_DEC_BASIC_INFO || api.basic_info(d->decoder, &d->basic) != JXL_DEC_SUCCESS) {
        pxview_codec_status failed = failure(status, info);
        pxview_jxl_close(d);
        return failed;
    }
    // libjxl turns the pixels upright itself; xsize/ysize are before that.
    int swaps = d->basic.orientation >= JXL_ORIENT_TRANSPOSE;
    d->width = swaps ? d->basic.ysize : d->basic.xsize;
    d->height = swaps ? d->basic.xsize : d->basic.ysize;
    info->width = d->width;
    info->height = d->height;
    // The colour encoding follows the basic info in the codestream's header.
    status = api.process(d->decoder);
    if (status != JXL_DEC_COLOR_ENCODING) {
        pxview_codec_status failed = failure(status, info);
        pxview_jxl_close(d);
        return failed;
    }
    settle_colour(d, info);
    if (d->basic.have_animation) {
        pxview_codec_status counted = count_frames(data, size, &info->frame_count, info);
        if (counted != PXVIEW_CODEC_OK) {
            pxview_jxl_close(d);
            return counted;
        }
        info->loop_count = d->basic.animation.num_loops;
    }
    *out = d;
    return PXVIEW_CODEC_OK;
}

/// libjxl's rows of an HDR frame, 16 bits a sample (from its worker
/// threads, each its own rows): tone-mapped into the frame as they come
/// (libavif's and libjxl's HDR alike: 1000 cd/m² PQ content assumed).
static void hdr_rows(void *opaque, size_t x, size_t y, size_t count, const void *pixels) {
    jxl_decoder *d = opaque;
    if (x + count > d->width || y >= d->height) return;
    unsigned char *row = d->frame + ((size_t)y * d->width + x) * 4;
    pxview_hdr_to_srgb8(pixels, row, count, d->hdr_transfer, d->hdr_primaries, 1000);
}

pxview_codec_status pxview_jxl_frame(void *handle, unsigned char *out, unsigned out_width, unsigned out_height,
                                     unsigned *delay_ms, pxview_codec_info *info) {
    jxl_decoder *d = handle;
    *delay_ms = 0;
    if (out_width != d->width || out_height != d->height) return PXVIEW_CODEC_UNSUPPORTED;
    for (;;) {
        JxlDecoderStatus status = api.process(d->decoder);
        switch (status) {
        case JXL_DEC_FRAME: {
            JxlFrameHeader header;
            if (d->basic.have_animation && api.frame_header(d->decoder, &header) == JXL_DEC_SUCCESS &&
                d->basic.animation.tps_numerator > 0) {
                double ms = 1000.0 * header.duration * d->basic.animation.tps_denominator / d->basic.animation.tps_numerator;
                *delay_ms = ms > 0 && ms < 1e9 ? (unsigned)(ms + 0.5) : 0;
            }
            break;
        }
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
            size_t needed = 0;
            size_t have = (size_t)out_width * out_height * (d->hdr_transfer ? 8 : 4);
            const JxlPixelFormat *format = d->hdr_transfer ? &rgba16 : &rgba8;
            d->frame = out;
            if (api.out_buffer_size(d->decoder, format, &needed) != JXL_DEC_SUCCESS || needed != have ||
                (d->hdr_transfer ? api.set_out_callback(d->decoder, format, hdr_rows, d)
                                 : api.set_out_buffer(d->decoder, format, out, have)) != JXL_DEC_SUCCESS) {
                pxview_codec_message(info, "the frame's size differs from the header's");
                return PXVIEW_CODEC_CORRUPT;
            }
            break;
        }
        case JXL_DEC_FULL_IMAGE:
            if (d->hdr_transfer) {
                snprintf(info->tone_mapped_from, sizeof info->tone_mapped_from, "%s %s",
                         d->hdr_primaries == 1 ? "BT.709" : d->hdr_primaries == 12 ? "Display P3" : "BT.2020",
                         d->hdr_transfer == 16 ? "PQ" : "HLG");
            }
            return PXVIEW_CODEC_OK;
        case JXL_DEC_SUCCESS: return PXVIEW_CODEC_END;
        default: return failure(status, info);
        }
    }
}
