#ifndef PXVIEW_CHEIF_SHIM_H
#define PXVIEW_CHEIF_SHIM_H
/// libheif's types only: its functions are reached through CShims'
/// pxview_heif.c, which loads the library on first use (see pxview_codec.h).
#include <libheif/heif.h>
#endif
