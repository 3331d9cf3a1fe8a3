#ifndef PXVIEW_CSHIMS_H
#define PXVIEW_CSHIMS_H
/// Tiny C where Swift cannot go: libpng and libjpeg with setjmp, libcurl loaded on demand,
/// the GIF, WebP, AVIF, HEIF and JPEG XL libraries behind one decoder shape, and the
/// PNG encoder of kitty transmissions (bit packing Swift would check at every step).
#include "pxview_png.h"
#include "pxview_kitty_png.h"
#include "pxview_jpeg.h"
#include "pxview_curl.h"
#include "pxview_codec.h"
#endif
