#ifndef PXVIEW_JPEG_H
#define PXVIEW_JPEG_H
#include <stddef.h>

/// The libjpeg API of libjpeg-turbo (libjpeg62-turbo), for the JPEGs that
/// TurboJPEG 2.1's header call refuses: chroma samplings it cannot name
/// (3x2, 1x4, 4x2, 2x4, 1x3, 3x1, mixed per component such as 2x2,2x1,1x1).
/// The library decodes them; only TurboJPEG's subsampling check says no.

typedef enum pxview_jpeg_status {
    PXVIEW_JPEG_OK = 0,
    PXVIEW_JPEG_CORRUPT = 1,      ///< libjpeg refused the data (message says why)
    PXVIEW_JPEG_UNSUPPORTED = 2,  ///< 12-bit samples, arithmetic coding it lacks, ...
    PXVIEW_JPEG_NO_MEMORY = 3
} pxview_jpeg_status;

typedef struct pxview_jpeg_result {
    /// The stored size (before EXIF orientation).
    unsigned width;
    unsigned height;
    /// The size `scale_num/scale_denom` gives (n/8), as libjpeg computes it.
    unsigned output_width;
    unsigned output_height;
    /// 1 when the output is CMYK (4 bytes per pixel, converted by the caller).
    int cmyk;
    /// libjpeg warnings (corrupt data it recovered from, data that ended early).
    int warnings;
    /// The first warning's or the error's message, NUL-terminated ("" when none).
    char message[200];
} pxview_jpeg_result;

/// Reads the header: sizes and the output colour space at `scale_num/scale_denom`.
pxview_jpeg_status pxview_jpeg_header(const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                                      pxview_jpeg_result *result);

/// Decodes into `out` (output_width x output_height x 4 bytes, allocated by
/// the caller from pxview_jpeg_header's answer): RGBA8, or CMYK when
/// `result->cmyk`. Rows the data does not reach are left as libjpeg pads them.
pxview_jpeg_status pxview_jpeg_decode_into(const unsigned char *data, size_t size, unsigned scale_num,
                                           unsigned scale_denom, unsigned char *out, pxview_jpeg_result *result);

/// pxview_jpeg_decode_into for an RGB JPEG whose profile is converted to
/// sRGB with `colour` (a pxview_colour transform) as it decodes: bands of
/// rows go to a second thread as libjpeg finishes them, and the decoding
/// thread helps with what is left at the end. A CMYK JPEG is not converted.
pxview_jpeg_status pxview_jpeg_decode_converting(const unsigned char *data, size_t size, unsigned scale_num,
                                                 unsigned scale_denom, unsigned char *out, void *colour,
                                                 pxview_jpeg_result *result);

#endif
