#ifndef PXVIEW_CGIF_SHIM_H
#define PXVIEW_CGIF_SHIM_H
#include <gif_lib.h>
#endif
