#ifndef PXVIEW_CSHIMS_H
#define PXVIEW_CSHIMS_H
/// Tiny C where Swift cannot go: libpng and libjpeg with setjmp, libcurl loaded on demand,
/// and the GIF, WebP, AVIF, HEIF and JPEG XL libraries behind one decoder shape.
#include "pxview_png.h"
#include "pxview_jpeg.h"
#include "pxview_curl.h"
#include "pxview_codec.h"
#endif
