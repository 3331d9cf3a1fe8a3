#ifndef PXVIEW_CWEBP_SHIM_H
#define PXVIEW_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#endif
