#ifndef PXVIEW_PNG_H
#define PXVIEW_PNG_H
#include <stddef.h>

/// Outcome of pxview_png_decode. Swift maps each to a DecodeError kind.
typedef enum pxview_png_status {
    PXVIEW_PNG_OK = 0,
    PXVIEW_PNG_NOT_PNG = 1,     ///< no PNG signature
    PXVIEW_PNG_TRUNCATED = 2,   ///< data ended before the image did
    PXVIEW_PNG_CORRUPT = 3,     ///< libpng refused the data (CRC error, bad chunk, bad zlib stream, ...)
    PXVIEW_PNG_TOO_LARGE = 4,   ///< width*height over max_pixels; width/height are still reported
    PXVIEW_PNG_ZERO_SIZE = 5,   ///< IHDR says 0 wide or 0 high
    PXVIEW_PNG_NO_MEMORY = 6    ///< the pixel buffer could not be allocated
} pxview_png_status;

/// What the header says, and what went wrong.
typedef struct pxview_png_result {
    unsigned width;
    unsigned height;
    /// Adam7: the whole image must be in memory before any row is final.
    int interlaced;
    /// Set when every pixel was read but the data after them (IEND, trailing
    /// chunks) is missing or damaged; the image is still returned.
    int trailing_damage;
    /// libpng's message for a failure or trailing damage, NUL-terminated ("" when none).
    char message[200];
} pxview_png_result;

/// Reads the IHDR: size (checked against `max_pixels`) and interlacing.
pxview_png_status pxview_png_header(const unsigned char *data, size_t size, size_t max_pixels,
                                    pxview_png_result *result);

/// Decodes a whole PNG held in memory to RGBA8 with libpng's classic API,
/// into `out`: ceil(width / factor) x ceil(height / factor) pixels of RGBA8,
/// straight alpha, no row padding, allocated by the caller. With factor 1
/// libpng writes the rows straight into `out`; a larger factor averages
/// factor x factor blocks (alpha-weighted), reading a non-interlaced image
/// row by row so the full-size image is never in memory.
///
/// Every PNG colour type and bit depth comes out as 8-bit RGBA: palettes are
/// expanded, tRNS becomes alpha, 1/2/4-bit gray is scaled up, 16-bit samples
/// keep their high byte, gray becomes RGB, opaque images get alpha 0xFF, and
/// Adam7 interlacing is undone. The IHDR size is checked against `max_pixels`
/// before any pixel memory is allocated, so decompression bombs cost nothing.
pxview_png_status pxview_png_decode_into(const unsigned char *data, size_t size, size_t max_pixels, unsigned factor,
                                         unsigned char *out, pxview_png_result *result);

#endif
