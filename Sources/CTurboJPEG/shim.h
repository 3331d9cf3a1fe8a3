#ifndef PXVIEW_CTURBOJPEG_SHIM_H
#define PXVIEW_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

/// TJSCALED is a function-like macro and does not import into Swift.
static inline int pxview_tjscaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}
#endif
