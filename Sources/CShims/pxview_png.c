#include "pxview_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// State shared with libpng's callbacks. Anything that must survive a
/// longjmp lives here rather than in (non-volatile) locals.
typedef struct png_reader {
    const unsigned char *data;
    size_t size;
    size_t offset;
    int ran_out;             ///< set when libpng asked for bytes past the end
    int rows_complete;       ///< every pixel row has been read
    unsigned char *out;      ///< the caller's buffer, ceil(w/f) x ceil(h/f) RGBA
    unsigned factor;         ///< output pixel = factor x factor block of input
    unsigned char *full;     ///< whole-image buffer when one is needed (interlaced + factor > 1), always freed
    unsigned char *row;      ///< one input row (row by row reduction), always freed
    uint64_t *sums;          ///< per output column: alpha-weighted R, G, B and alpha, always freed
    png_bytep *rows;         ///< row pointers, always freed
    char *message;
    size_t message_len;
} png_reader;

static void copy_message(png_reader *reader, const char *text) {
    if (reader->message_len == 0) return;
    strncpy(reader->message, text ? text : "", reader->message_len - 1);
    reader->message[reader->message_len - 1] = '\0';
}

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    png_reader *reader = (png_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        reader->ran_out = 1;
        png_error(png, "unexpected end of data");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

static void on_error(png_structp png, png_const_charp text) {
    png_reader *reader = (png_reader *)png_get_error_ptr(png);
    copy_message(reader, text);
    png_longjmp(png, 1);
}

/// libpng warns about harmless things (odd iCCP profiles, bad CRCs in
/// ancillary chunks it then skips); none of them affect the pixels we return.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static uint32_t read_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void free_scratch(png_reader *reader) {
    free(reader->rows);
    free(reader->full);
    free(reader->row);
    free(reader->sums);
    reader->rows = NULL;
    reader->full = NULL;
    reader->row = NULL;
    reader->sums = NULL;
}

/// Adds one RGBA input row into the per-column sums (alpha-weighted colour,
/// so transparent pixels do not darken their neighbours).
static void accumulate_row(uint64_t *sums, const unsigned char *row, png_uint_32 width, unsigned factor) {
    for (png_uint_32 x = 0; x < width; x++) {
        const unsigned char *p = row + (size_t)x * 4;
        uint64_t *s = sums + (size_t)(x / factor) * 4;
        uint64_t a = p[3];
        s[0] += p[0] * a;
        s[1] += p[1] * a;
        s[2] += p[2] * a;
        s[3] += a;
    }
}

/// Writes output row `oy` from the sums of `block_rows` input rows, then clears them.
static void emit_row(png_reader *reader, uint64_t *sums, png_uint_32 width, png_uint_32 oy, unsigned block_rows) {
    unsigned factor = reader->factor;
    png_uint_32 out_width = (width + factor - 1) / factor;
    unsigned char *dst = reader->out + (size_t)oy * out_width * 4;
    for (png_uint_32 ox = 0; ox < out_width; ox++) {
        uint64_t *s = sums + (size_t)ox * 4;
        png_uint_32 columns = (ox + 1) * factor <= width ? factor : width - ox * factor;
        uint64_t count = (uint64_t)columns * block_rows;
        if (s[3] == 0) {
            dst[ox * 4] = dst[ox * 4 + 1] = dst[ox * 4 + 2] = dst[ox * 4 + 3] = 0;
        } else {
            dst[ox * 4] = (unsigned char)((s[0] + s[3] / 2) / s[3]);
            dst[ox * 4 + 1] = (unsigned char)((s[1] + s[3] / 2) / s[3]);
            dst[ox * 4 + 2] = (unsigned char)((s[2] + s[3] / 2) / s[3]);
            dst[ox * 4 + 3] = (unsigned char)((s[3] + count / 2) / count);
        }
        s[0] = s[1] = s[2] = s[3] = 0;
    }
}

/// Runs libpng over `reader`. All state that a longjmp must not lose lives in
/// *reader (not in locals of this function, which setjmp would make indeterminate).
static pxview_png_status run_libpng(png_reader *reader, size_t max_pixels, pxview_png_result *result) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (!png) return PXVIEW_PNG_NO_MEMORY;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return PXVIEW_PNG_NO_MEMORY;
    }

    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free_scratch(reader);
        if (reader->rows_complete) {
            // Only what follows the pixels (a missing IEND, a damaged text
            // chunk) is bad: like browsers, keep the picture and say so.
            result->trailing_damage = 1;
            return PXVIEW_PNG_OK;
        }
        return reader->ran_out ? PXVIEW_PNG_TRUNCATED : PXVIEW_PNG_CORRUPT;
    }

    // Each side may be as long as the pixel budget allows (the other is >= 1);
    // libpng's own default caps are 1,000,000 per side.
    png_uint_32 side_limit = max_pixels > 0x7fffffffu ? 0x7fffffffu : (png_uint_32)max_pixels;
    png_set_user_limits(png, side_limit, side_limit);
    png_set_read_fn(png, reader, read_from_memory);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (has_trns) png_set_tRNS_to_alpha(png);
    // Keep the high byte, as most viewers (and PIL) do: at most 1/255 off exact rounding.
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)width * 4) png_error(png, "unexpected row layout after transformations");

    unsigned factor = reader->factor;
    if (factor <= 1) {
        // Straight into the caller's buffer: the one copy that is kept.
        reader->rows = malloc(sizeof(png_bytep) * height);
        if (!reader->rows) goto no_memory;
        for (png_uint_32 y = 0; y < height; y++) reader->rows[y] = reader->out + (size_t)y * row_bytes;
        png_read_image(png, reader->rows);
    } else {
        png_uint_32 out_width = (width + factor - 1) / factor;
        reader->sums = calloc((size_t)out_width * 4, sizeof(uint64_t));
        if (!reader->sums) goto no_memory;
        if (interlace == PNG_INTERLACE_NONE) {
            // Row by row: never more than one input row in memory.
            reader->row = malloc(row_bytes);
            if (!reader->row) goto no_memory;
            unsigned block = 0;
            for (png_uint_32 y = 0; y < height; y++) {
                png_read_row(png, reader->row, NULL);
                accumulate_row(reader->sums, reader->row, width, factor);
                if (++block == factor || y + 1 == height) {
                    emit_row(reader, reader->sums, width, y / factor, block);
                    block = 0;
                }
            }
        } else {
            // Adam7 needs the whole image before any row is final.
            reader->full = malloc(row_bytes * height);
            reader->rows = malloc(sizeof(png_bytep) * height);
            if (!reader->full || !reader->rows) goto no_memory;
            for (png_uint_32 y = 0; y < height; y++) reader->rows[y] = reader->full + (size_t)y * row_bytes;
            png_read_image(png, reader->rows);
            unsigned block = 0;
            for (png_uint_32 y = 0; y < height; y++) {
                accumulate_row(reader->sums, reader->rows[y], width, factor);
                if (++block == factor || y + 1 == height) {
                    emit_row(reader, reader->sums, width, y / factor, block);
                    block = 0;
                }
            }
        }
    }
    reader->rows_complete = 1;
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free_scratch(reader);
    return PXVIEW_PNG_OK;

no_memory:
    png_destroy_read_struct(&png, &info, NULL);
    free_scratch(reader);
    return PXVIEW_PNG_NO_MEMORY;
}

pxview_png_status pxview_png_header(const unsigned char *data, size_t size, size_t max_pixels,
                                    pxview_png_result *result) {
    result->width = 0;
    result->height = 0;
    result->interlaced = 0;
    result->trailing_damage = 0;
    result->message[0] = '\0';

    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return PXVIEW_PNG_NOT_PNG;

    // Read the IHDR size ourselves first: libpng rejects oversized or empty
    // headers with a generic error before telling us the dimensions, and the
    // caller wants them for its message.
    if (size < 8 + 8 + 13) return PXVIEW_PNG_TRUNCATED;
    if (memcmp(data + 12, "IHDR", 4) != 0) {
        strncpy(result->message, "first chunk is not IHDR", sizeof result->message - 1);
        return PXVIEW_PNG_CORRUPT;
    }
    result->width = read_be32(data + 16);
    result->height = read_be32(data + 20);
    result->interlaced = data[28] != 0;
    if (result->width == 0 || result->height == 0) return PXVIEW_PNG_ZERO_SIZE;
    if ((uint64_t)result->width * (uint64_t)result->height > (uint64_t)max_pixels) return PXVIEW_PNG_TOO_LARGE;
    return PXVIEW_PNG_OK;
}

pxview_png_status pxview_png_decode_into(const unsigned char *data, size_t size, size_t max_pixels, unsigned factor,
                                         unsigned char *out, pxview_png_result *result) {
    pxview_png_status header = pxview_png_header(data, size, max_pixels, result);
    if (header != PXVIEW_PNG_OK) return header;
    png_reader reader = {
        .data = data, .size = size, .offset = 0, .ran_out = 0, .rows_complete = 0, .out = out,
        .factor = factor == 0 ? 1 : factor, .full = NULL, .row = NULL, .sums = NULL, .rows = NULL,
        .message = result->message, .message_len = sizeof result->message,
    };
    return run_libpng(&reader, max_pixels, result);
}
