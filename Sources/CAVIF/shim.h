#ifndef PXVIEW_CAVIF_SHIM_H
#define PXVIEW_CAVIF_SHIM_H
/// libavif's types only: its functions are reached through CShims'
/// pxview_avif.c, which loads the library on first use (see pxview_codec.h).
#include <avif/avif.h>
#endif
