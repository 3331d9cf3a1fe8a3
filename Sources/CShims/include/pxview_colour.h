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
    /// 1 for a CMYK profile's transform: CMYK8 samples in (`pxview_colour_apply_cmyk`).
    int cmyk;
} pxview_colour_info;

/// A transform from this ICC profile (its bytes are copied by lcms2), or
/// NULL: not a usable RGB or CMYK profile, or no lcms2 (`info` says which).
void *pxview_colour_from_icc(const unsigned char *icc, size_t size, pxview_colour_info *info);

/// A transform from RGB primaries and white (CIE xy: red, green, blue,
/// white, each x then y) and a transfer curve: `curve` 0 a pure power
/// `gamma`, 1 sRGB's.
void *pxview_colour_from_primaries(const double xy[8], int curve, double gamma, pxview_colour_info *info);

/// Converts `count` RGBA8 pixels in place (nothing for a CMYK profile's transform).
void pxview_colour_apply(void *transform, unsigned char *pixels, size_t count);

/// Converts `count` CMYK8 pixels (ink amounts; `inverted`: stored as
/// 255 - ink, as Adobe writes them) to opaque RGBA8 in place, with a CMYK
/// profile's transform (nothing for an RGB one's).
void pxview_colour_apply_cmyk(void *transform, unsigned char *pixels, size_t count, int inverted);

void pxview_colour_free(void *transform);

/// HDR to SDR sRGB (BT.2408: SDR white at 203 cd/m²), from 16-bit RGBA
/// (`count` pixels, full range) whose transfer is `transfer` (16: PQ,
/// 18: HLG, ITU-T H.273) and primaries `primaries` (1: BT.709, 9: BT.2020,
/// 12: Display P3; others are taken as BT.2020), into RGBA8. Light past SDR
/// white up to `peak_nits` is rolled off into the top of the range
/// (`pxview_tone_map`); colours outside sRGB are clipped.
void pxview_hdr_to_srgb8(const uint16_t *in, unsigned char *out, size_t count, int transfer, int primaries,
                         double peak_nits);

/// The tone curve on light relative to SDR white (1.0 = 203 cd/m²): the
/// identity up to 0.8, then an extended Reinhard shoulder whose slope is
/// continuous there and which reaches 1.0 at `peak` (relative), above which
/// it stays 1.0. With `peak` at most 1: a clip at 1.
double pxview_tone_map(double x, double peak);

/// zlib's inflate of `data` into at most `capacity` bytes of `out`;
/// the bytes written, or -1 when the data is broken or does not fit.
long pxview_inflate(const unsigned char *data, size_t size, unsigned char *out, size_t capacity);
#endif
