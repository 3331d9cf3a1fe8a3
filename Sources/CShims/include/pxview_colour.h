#ifndef PXVIEW_COLOUR_H
#define PXVIEW_COLOUR_H
#include <stddef.h>
#include <stdint.h>

/// The colour step: a file's colour description to sRGB (what sixel and the
/// kitty protocol mean by RGB), through lcms2 2.14, loaded on first use as
/// the newer codecs are. A transform converts RGBA8 to RGBA8, alpha copied,
/// and may be used from several threads at once (no lcms pixel cache).

/// What building a transform says.
typedef struct pxview_colour_info {
    /// The profile's own description ("Adobe RGB (1998)"), or what was built.
    char name[96];
    /// Why no transform was built ("lcms2 is not installed", "not an RGB profile").
    char message[160];
} pxview_colour_info;

/// A transform from this ICC profile (its bytes are copied by lcms2), or
/// NULL: not a usable RGB profile, or no lcms2 (`info` says which).
void *pxview_colour_from_icc(const unsigned char *icc, size_t size, pxview_colour_info *info);

/// A transform from RGB primaries and white (CIE xy: red, green, blue,
/// white, each x then y) and a transfer curve: `curve` 0 a pure power
/// `gamma`, 1 sRGB's.
void *pxview_colour_from_primaries(const double xy[8], int curve, double gamma, pxview_colour_info *info);

/// Converts `count` RGBA8 pixels in place.
void pxview_colour_apply(void *transform, unsigned char *pixels, size_t count);

void pxview_colour_free(void *transform);

/// zlib's inflate of `data` into at most `capacity` bytes of `out`;
/// the bytes written, or -1 when the data is broken or does not fit.
long pxview_inflate(const unsigned char *data, size_t size, unsigned char *out, size_t capacity);
#endif
