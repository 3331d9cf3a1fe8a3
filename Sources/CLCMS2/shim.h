#ifndef PXVIEW_CLCMS2_SHIM_H
#define PXVIEW_CLCMS2_SHIM_H
/// lcms2's types only: its functions are reached through CShims'
/// pxview_colour.c, which loads the library on first use (see pxview_colour.h).
#include <lcms2.h>
#endif
