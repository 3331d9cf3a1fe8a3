#ifndef PXVIEW_CPNG_SHIM_H
#define PXVIEW_CPNG_SHIM_H
#include <png.h>
#endif
