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
    unsigned char *rgba;     ///< output buffer, freed on error
    png_bytep *rows;         ///< row pointers into rgba, always freed
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
        free(reader->rows);
        reader->rows = NULL;
        if (reader->rows_complete) {
            // Only what follows the pixels (a missing IEND, a damaged text
            // chunk) is bad: like browsers, keep the picture and say so.
            result->rgba = reader->rgba;
            result->trailing_damage = 1;
            return PXVIEW_PNG_OK;
        }
        free(reader->rgba);
        reader->rgba = NULL;
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

    reader->rgba = malloc(row_bytes * height);
    reader->rows = malloc(sizeof(png_bytep) * height);
    if (!reader->rgba || !reader->rows) {
        png_destroy_read_struct(&png, &info, NULL);
        free(reader->rows);
        free(reader->rgba);
        reader->rows = NULL;
        reader->rgba = NULL;
        return PXVIEW_PNG_NO_MEMORY;
    }
    for (png_uint_32 y = 0; y < height; y++) reader->rows[y] = reader->rgba + (size_t)y * row_bytes;

    png_read_image(png, reader->rows);
    reader->rows_complete = 1;
    png_read_end(png, NULL);

    png_destroy_read_struct(&png, &info, NULL);
    free(reader->rows);
    reader->rows = NULL;
    result->rgba = reader->rgba;
    return PXVIEW_PNG_OK;
}

pxview_png_status pxview_png_decode(const unsigned char *data, size_t size, size_t max_pixels,
                                    pxview_png_result *result) {
    result->rgba = NULL;
    result->width = 0;
    result->height = 0;
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
    if (result->width == 0 || result->height == 0) return PXVIEW_PNG_ZERO_SIZE;
    if ((uint64_t)result->width * (uint64_t)result->height > (uint64_t)max_pixels) return PXVIEW_PNG_TOO_LARGE;

    png_reader reader = {
        .data = data, .size = size, .offset = 0, .ran_out = 0, .rows_complete = 0, .rgba = NULL, .rows = NULL,
        .message = result->message, .message_len = sizeof result->message,
    };
    return run_libpng(&reader, max_pixels, result);
}

void pxview_png_free(unsigned char *rgba) { free(rgba); }
