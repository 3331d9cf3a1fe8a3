#ifndef PXVIEW_CSHIMS_H
#define PXVIEW_CSHIMS_H
/// Tiny C where Swift cannot go: libpng and libjpeg with setjmp, libcurl loaded on demand,
/// the GIF, WebP, AVIF, HEIF and JPEG XL libraries behind one decoder shape, the
/// PNG encoder of kitty transmissions (bit packing Swift would check at every step)
/// the resampler's innermost loop (SSE2 where Swift's SIMD types did not inline) and
/// the colour step through lcms2, loaded on demand.
#include "pxview_png.h"
#include "pxview_kitty_png.h"
#include "pxview_resample.h"
#include "pxview_jpeg.h"
#include "pxview_curl.h"
#include "pxview_codec.h"
#include "pxview_colour.h"
#endif
