#include <avif/avif.h>
#include <stdlib.h>
#include <string.h>

#include "pxview_codec_support.h"
#include "pxview_colour.h"
#include "pxview_dlopen.h"

/// AVIF through libavif 0.11 (loaded on first use): the primary image, or
/// each image of a sequence, converted from YUV to 8-bit RGBA by libavif
/// as avifdec does. libavif leaves `irot`/`imir` to the application; they
/// are reported as the EXIF orientation that does the same (HEIF applies
/// rotation, then mirroring), which the caller applies.
static struct {
    avifDecoder *(*decoder_create)(void);
    void (*decoder_destroy)(avifDecoder *);
    avifResult (*set_io_memory)(avifDecoder *, const uint8_t *, size_t);
    avifResult (*parse)(avifDecoder *);
    avifResult (*next_image)(avifDecoder *);
    void (*rgb_defaults)(avifRGBImage *, const avifImage *);
    avifResult (*yuv_to_rgb)(const avifImage *, avifRGBImage *);
    const char *(*result_string)(avifResult);
} api;

static pxview_library library = PXVIEW_LIBRARY_INIT("libavif");

static void load(void) {
    static const char *const names[] = {"libavif.so.15", "libavif.so"};
    void *handle = pxview_dlopen_first(names, 2, library.error, sizeof library.error, "libavif");
    if (!handle) return;
    PXVIEW_RESOLVE(handle, api, decoder_create, "avifDecoderCreate", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, decoder_destroy, "avifDecoderDestroy", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, set_io_memory, "avifDecoderSetIOMemory", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, parse, "avifDecoderParse", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, next_image, "avifDecoderNextImage", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, rgb_defaults, "avifRGBImageSetDefaults", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, yuv_to_rgb, "avifImageYUVToRGB", library.error, "libavif");
    PXVIEW_RESOLVE(handle, api, result_string, "avifResultToString", library.error, "libavif");
    library.status = 0;
}

static pxview_codec_status avif_status(avifResult result, pxview_codec_info *info) {
    if (result == AVIF_RESULT_OK) return PXVIEW_CODEC_OK;
    pxview_codec_message(info, api.result_string(result));
    switch (result) {
    case AVIF_RESULT_TRUNCATED_DATA: return PXVIEW_CODEC_TRUNCATED;
    case AVIF_RESULT_OUT_OF_MEMORY: return PXVIEW_CODEC_NO_MEMORY;
    case AVIF_RESULT_NO_CODEC_AVAILABLE:
    case AVIF_RESULT_NOT_IMPLEMENTED:
    case AVIF_RESULT_UNSUPPORTED_DEPTH:
    case AVIF_RESULT_NO_AV1_ITEMS_FOUND: return PXVIEW_CODEC_UNSUPPORTED;
    default: return PXVIEW_CODEC_CORRUPT;
    }
}

/// HEIF's rotation (`angle` quarter turns anticlockwise) then mirroring
/// (`mode` 0: top and bottom swap, 1: left and right) as one EXIF value.
static int exif_orientation(int angle, int mirrored, int mode) {
    static const int rotation_only[4] = {1, 8, 3, 6};
    static const int then_left_right[4] = {2, 7, 4, 5};
    static const int then_top_bottom[4] = {4, 5, 2, 7};
    angle &= 3;
    if (!mirrored) return rotation_only[angle];
    return mode == 1 ? then_left_right[angle] : then_top_bottom[angle];
}

void pxview_avif_close(void *handle) {
    if (handle) api.decoder_destroy((avifDecoder *)handle);
}

pxview_codec_status pxview_avif_open(const unsigned char *data, size_t size, pxview_codec_info *info, void **out) {
    pxview_codec_clear(info);
    *out = NULL;
    pxview_codec_status ready = pxview_library_ready(&library, load, info);
    if (ready != PXVIEW_CODEC_OK) return ready;
    avifDecoder *decoder = api.decoder_create();
    if (!decoder) return PXVIEW_CODEC_NO_MEMORY;
    // Two threads: the machines pxview is measured on have two cores.
    decoder->maxThreads = 2;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    // Files from libheif 1.11 and older lack `pixi`; browsers open them.
    decoder->strictFlags = AVIF_STRICT_DISABLED;
    pxview_codec_status status = avif_status(api.set_io_memory(decoder, data, size), info);
    if (status == PXVIEW_CODEC_OK) status = avif_status(api.parse(decoder), info);
    if (status != PXVIEW_CODEC_OK) {
        api.decoder_destroy(decoder);
        return status;
    }
    avifImage *image = decoder->image;
    info->width = image->width;
    info->height = image->height;
    info->frame_count = decoder->imageCount > 0 ? (unsigned)decoder->imageCount : 1;
    info->loop_count = 0;  // 0.11 does not read the sequence's edit list: loop for ever, as Chrome did
    info->orientation = exif_orientation((image->transformFlags & AVIF_TRANSFORM_IROT) ? image->irot.angle : 0,
                                         (image->transformFlags & AVIF_TRANSFORM_IMIR) != 0, image->imir.mode);
    *out = decoder;
    return PXVIEW_CODEC_OK;
}

pxview_codec_status pxview_avif_frame(void *handle, unsigned char *out, unsigned out_width, unsigned out_height,
                                      unsigned *delay_ms, pxview_codec_info *info) {
    avifDecoder *decoder = handle;
    *delay_ms = 0;
    avifResult result = api.next_image(decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return PXVIEW_CODEC_END;
    pxview_codec_status status = avif_status(result, info);
    if (status != PXVIEW_CODEC_OK) return status;
    avifImage *image = decoder->image;
    if (image->width != out_width || image->height != out_height) {
        pxview_codec_message(info, "a frame's size differs from the header's");
        return PXVIEW_CODEC_CORRUPT;
    }
    avifRGBImage rgb;
    api.rgb_defaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    int transfer = (int)image->transferCharacteristics;
    if (transfer == 16 || transfer == 18) {
        // HDR: from 16 bits, tone-mapped to SDR sRGB here (the colour step
        // sees only 8 bits). libavif 0.11 reads no clli box: PQ content is
        // taken as mastered to 1000 cd/m², BT.2408's common case.
        size_t count = (size_t)out_width * out_height;
        uint16_t *wide = malloc(count * 8);
        if (!wide) return PXVIEW_CODEC_NO_MEMORY;
        rgb.depth = 16;
        rgb.pixels = (uint8_t *)wide;
        rgb.rowBytes = out_width * 8;
        status = avif_status(api.yuv_to_rgb(image, &rgb), info);
        if (status == PXVIEW_CODEC_OK) {
            int primaries = (int)image->colorPrimaries;
            pxview_hdr_to_srgb8(wide, out, count, transfer, primaries, 1000);
            snprintf(info->tone_mapped_from, sizeof info->tone_mapped_from, "%s %s",
                     primaries == 1 ? "BT.709" : primaries == 12 ? "Display P3" : "BT.2020", transfer == 16 ? "PQ" : "HLG");
        }
        free(wide);
        if (status != PXVIEW_CODEC_OK) return status;
    } else {
        rgb.depth = 8;
        rgb.pixels = out;
        rgb.rowBytes = out_width * 4;
        status = avif_status(api.yuv_to_rgb(image, &rgb), info);
        if (status != PXVIEW_CODEC_OK) return status;
    }
    double milliseconds = decoder->imageTiming.duration * 1000.0;
    *delay_ms = milliseconds > 0 && milliseconds < 1e9 ? (unsigned)(milliseconds + 0.5) : 0;
    return PXVIEW_CODEC_OK;
}
