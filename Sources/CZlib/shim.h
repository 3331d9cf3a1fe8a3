#ifndef PXVIEW_CZLIB_SHIM_H
#define PXVIEW_CZLIB_SHIM_H
#include <zlib.h>
#endif
