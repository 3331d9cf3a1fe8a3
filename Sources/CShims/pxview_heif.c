#include <libheif/heif.h>
#include <stdlib.h>
#include <string.h>

#include "pxview_codec_support.h"
#include "pxview_colour.h"
#include "pxview_dlopen.h"

/// HEIF/HEIC through libheif 1.15 (loaded on first use): the primary
/// image, decoded to 8-bit interleaved RGBA with the file's own
/// transformations (`irot`, `imir`, `clap`) applied by libheif, as
/// heif-convert does. The handle's size is the transformed one.
static struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    struct heif_error (*read_from_memory)(struct heif_context *, const void *, size_t, const struct heif_reading_options *);
    void (*set_max_threads)(struct heif_context *, int);
    struct heif_error (*primary_handle)(struct heif_context *, struct heif_image_handle **);
    void (*handle_release)(const struct heif_image_handle *);
    int (*handle_width)(const struct heif_image_handle *);
    int (*handle_height)(const struct heif_image_handle *);
    int (*thumbnail_count)(const struct heif_image_handle *);
    int (*thumbnail_ids)(const struct heif_image_handle *, heif_item_id *, int);
    struct heif_error (*thumbnail)(const struct heif_image_handle *, heif_item_id, struct heif_image_handle **);
    struct heif_decoding_options *(*options_alloc)(void);
    void (*options_free)(struct heif_decoding_options *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                enum heif_chroma, const struct heif_decoding_options *);
    int (*image_width)(const struct heif_image *, enum heif_channel);
    int (*image_height)(const struct heif_image *, enum heif_channel);
    const uint8_t *(*plane)(const struct heif_image *, enum heif_channel, int *);
    void (*image_release)(const struct heif_image *);
    struct heif_error (*nclx)(const struct heif_image_handle *, struct heif_color_profile_nclx **);
    void (*nclx_free)(struct heif_color_profile_nclx *);
    int (*luma_bits)(const struct heif_image_handle *);
    int (*bits_range)(const struct heif_image *, enum heif_channel);
} api;

static pxview_library library = PXVIEW_LIBRARY_INIT("libheif");

static void load(void) {
    static const char *const names[] = {"libheif.so.1", "libheif.so"};
    void *handle = pxview_dlopen_first(names, 2, library.error, sizeof library.error, "libheif");
    if (!handle) return;
    PXVIEW_RESOLVE(handle, api, context_alloc, "heif_context_alloc", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, context_free, "heif_context_free", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, read_from_memory, "heif_context_read_from_memory_without_copy", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, set_max_threads, "heif_context_set_max_decoding_threads", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, primary_handle, "heif_context_get_primary_image_handle", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, handle_release, "heif_image_handle_release", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, handle_width, "heif_image_handle_get_width", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, handle_height, "heif_image_handle_get_height", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, thumbnail_count, "heif_image_handle_get_number_of_thumbnails", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, thumbnail_ids, "heif_image_handle_get_list_of_thumbnail_IDs", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, thumbnail, "heif_image_handle_get_thumbnail", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, options_alloc, "heif_decoding_options_alloc", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, options_free, "heif_decoding_options_free", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, decode, "heif_decode_image", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, image_width, "heif_image_get_width", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, image_height, "heif_image_get_height", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, plane, "heif_image_get_plane_readonly", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, image_release, "heif_image_release", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, nclx, "heif_image_handle_get_nclx_color_profile", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, nclx_free, "heif_nclx_color_profile_free", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, luma_bits, "heif_image_handle_get_luma_bits_per_pixel", library.error, "libheif");
    PXVIEW_RESOLVE(handle, api, bits_range, "heif_image_get_bits_per_pixel_range", library.error, "libheif");
    library.status = 0;
}

typedef struct heif_decoder {
    struct heif_context *context;
    struct heif_image_handle *handle;
    /// The primary image's first thumbnail (phones write one of about 320x240), or NULL.
    struct heif_image_handle *thumbnail;
    unsigned width, height;
    int done;
} heif_decoder;

static pxview_codec_status heif_status(struct heif_error error, pxview_codec_info *info) {
    if (error.code == heif_error_Ok) return PXVIEW_CODEC_OK;
    pxview_codec_message(info, error.message);
    if (error.subcode == heif_suberror_End_of_data) return PXVIEW_CODEC_TRUNCATED;
    switch (error.code) {
    case heif_error_Memory_allocation_error: return PXVIEW_CODEC_NO_MEMORY;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature: return PXVIEW_CODEC_UNSUPPORTED;
    default: return PXVIEW_CODEC_CORRUPT;
    }
}

void pxview_heif_close(void *handle) {
    heif_decoder *decoder = handle;
    if (!decoder) return;
    if (decoder->thumbnail) api.handle_release(decoder->thumbnail);
    if (decoder->handle) api.handle_release(decoder->handle);
    if (decoder->context) api.context_free(decoder->context);
    free(decoder);
}

pxview_codec_status pxview_heif_open(const unsigned char *data, size_t size, pxview_codec_info *info, void **out) {
    pxview_codec_clear(info);
    *out = NULL;
    pxview_codec_status ready = pxview_library_ready(&library, load, info);
    if (ready != PXVIEW_CODEC_OK) return ready;
    heif_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return PXVIEW_CODEC_NO_MEMORY;
    decoder->context = api.context_alloc();
    if (!decoder->context) {
        free(decoder);
        return PXVIEW_CODEC_NO_MEMORY;
    }
    // Two threads: the machines pxview is measured on have two cores.
    api.set_max_threads(decoder->context, 2);
    pxview_codec_status status = heif_status(api.read_from_memory(decoder->context, data, size, NULL), info);
    if (status == PXVIEW_CODEC_OK) status = heif_status(api.primary_handle(decoder->context, &decoder->handle), info);
    if (status != PXVIEW_CODEC_OK) {
        pxview_heif_close(decoder);
        return status;
    }
    int width = api.handle_width(decoder->handle);
    int height = api.handle_height(decoder->handle);
    info->width = decoder->width = width > 0 ? (unsigned)width : 0;
    info->height = decoder->height = height > 0 ? (unsigned)height : 0;
    heif_item_id id;
    if (api.thumbnail_count(decoder->handle) > 0 && api.thumbnail_ids(decoder->handle, &id, 1) == 1 &&
        api.thumbnail(decoder->handle, id, &decoder->thumbnail).code == heif_error_Ok) {
        int preview_width = api.handle_width(decoder->thumbnail);
        int preview_height = api.handle_height(decoder->thumbnail);
        if (preview_width > 0 && preview_height > 0 && (unsigned)preview_width < info->width) {
            info->preview_width = (unsigned)preview_width;
            info->preview_height = (unsigned)preview_height;
        }
    }
    *out = decoder;
    return PXVIEW_CODEC_OK;
}

pxview_codec_status pxview_heif_frame(void *handle, unsigned char *out, unsigned out_width, unsigned out_height,
                                      unsigned *delay_ms, pxview_codec_info *info) {
    heif_decoder *d = handle;
    *delay_ms = 0;
    if (d->done) return PXVIEW_CODEC_END;
    d->done = 1;
    struct heif_decoding_options *options = api.options_alloc();
    if (!options) return PXVIEW_CODEC_NO_MEMORY;
    // The thumbnail when exactly its size is asked for (see info->preview_width).
    int preview = d->thumbnail && (out_width != d->width || out_height != d->height);
    const struct heif_image_handle *source = preview ? d->thumbnail : d->handle;
    // HDR (PQ or HLG above 8 bits): decoded at its own depth and tone-mapped
    // here, as AVIF's is (libheif's own 8-bit conversion keeps the code values).
    int transfer = 0, primaries = 0;
    struct heif_color_profile_nclx *nclx = NULL;
    int read = api.nclx(source, &nclx).code == heif_error_Ok;
    if (read && nclx) {
        transfer = (int)nclx->transfer_characteristics;
        primaries = (int)nclx->color_primaries;
    }
    // libheif 1.15 hands out the profile even when it reports an invalid code
    // point (found by the fuzzer: 52 bytes a file): freed either way.
    if (nclx) api.nclx_free(nclx);
    int hdr = (transfer == 16 || transfer == 18) && api.luma_bits(source) > 8;
    options->ignore_transformations = 0;
    options->convert_hdr_to_8bit = hdr ? 0 : 1;
    struct heif_image *image = NULL;
    pxview_codec_status status = heif_status(
        api.decode(source, &image, heif_colorspace_RGB,
                   hdr ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA, options),
        info);
    api.options_free(options);
    if (status != PXVIEW_CODEC_OK) return status;
    int stride = 0;
    const uint8_t *plane = api.plane(image, heif_channel_interleaved, &stride);
    int width = api.image_width(image, heif_channel_interleaved);
    int height = api.image_height(image, heif_channel_interleaved);
    if (!plane || width != (int)out_width || height != (int)out_height || stride < width * (hdr ? 8 : 4)) {
        api.image_release(image);
        pxview_codec_message(info, "the decoded image's size differs from the header's");
        return PXVIEW_CODEC_CORRUPT;
    }
    if (hdr) {
        int bits = api.bits_range(image, heif_channel_interleaved);
        unsigned top = bits > 8 && bits <= 16 ? (1u << bits) - 1 : 65535;
        uint16_t *row = malloc((size_t)out_width * 8);
        if (!row) {
            api.image_release(image);
            return PXVIEW_CODEC_NO_MEMORY;
        }
        for (unsigned y = 0; y < out_height; y++) {
            const uint8_t *in = plane + (size_t)y * stride;
            for (unsigned x = 0; x < out_width * 4; x++) {
                unsigned v = (unsigned)in[2 * x] | (unsigned)in[2 * x + 1] << 8;
                row[x] = (uint16_t)((v > top ? top : v) * 65535u / top);
            }
            pxview_hdr_to_srgb8(row, out + (size_t)y * out_width * 4, out_width, transfer, primaries, 1000);
        }
        free(row);
        snprintf(info->tone_mapped_from, sizeof info->tone_mapped_from, "%s %s",
                 primaries == 1 ? "BT.709" : primaries == 12 ? "Display P3" : "BT.2020", transfer == 16 ? "PQ" : "HLG");
    } else {
        for (unsigned y = 0; y < out_height; y++)
            memcpy(out + (size_t)y * out_width * 4, plane + (size_t)y * stride, (size_t)out_width * 4);
    }
    api.image_release(image);
    return PXVIEW_CODEC_OK;
}
