#ifndef PXVIEW_RESAMPLE_H
#define PXVIEW_RESAMPLE_H
#include <stdint.h>

/// The horizontal pass of the resampler's opaque path (Scaling's
/// `SeparablePass`): output pixel x is the sum over its taps t of
/// `row[starts[x] - first_column + t] * weight(x, t)` (four floats a
/// pixel, summed in tap order exactly as the Swift code did), rounded to
/// the nearest byte (ties to even) and clamped to 0...255. `weights` holds
/// each weight four times over: weight(x, t) at `4 * (x * stride + t)`.
void pxview_resample_row_opaque(
    const float *row, long first_column, const long *starts, const long *counts, const float *weights, long stride,
    long width, uint8_t *out);

#endif
