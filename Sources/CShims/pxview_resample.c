#include "pxview_resample.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Separate multiplies and adds, never fused: the plain C path must round
// as the Swift code does (an FMA, as on aarch64, would not).
#pragma STDC FP_CONTRACT OFF

/// Four floats a pixel, one SSE register: the same IEEE multiplies and adds
/// in the same order as the Swift `SIMD4<Float>` code it replaces, so the
/// bytes do not change. Converting with the current rounding mode (nearest,
/// ties to even) and packing with saturation is the clamp-and-round of the
/// Swift code in three instructions; Swift's per-channel clamps took most of
/// the pass's 75 instructions a pixel.
void pxview_resample_row_opaque(
    const float *row, long first_column, const long *starts, const long *counts, const float *weights, long stride,
    long width, uint8_t *out) {
    for (long x = 0; x < width; x++) {
        const float *pixels = row + 4 * (starts[x] - first_column);
        const float *w = weights + 4 * x * stride;
        long taps = counts[x];
#if defined(__SSE2__)
        __m128 sum = _mm_mul_ps(_mm_loadu_ps(pixels), _mm_loadu_ps(w));
        if (taps == 4) {  // Catmull-Rom: straight code, no loop to set up per pixel
            sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(pixels + 4), _mm_loadu_ps(w + 4)));
            sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(pixels + 8), _mm_loadu_ps(w + 8)));
            sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(pixels + 12), _mm_loadu_ps(w + 12)));
        } else {
            for (long t = 1; t < taps; t++) {
                sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(pixels + 4 * t), _mm_loadu_ps(w + 4 * t)));
            }
        }
        __m128i words = _mm_cvtps_epi32(sum);
        __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(words, words), _mm_setzero_si128());
        uint32_t pixel = (uint32_t)_mm_cvtsi128_si32(bytes);
        __builtin_memcpy(out + 4 * x, &pixel, 4);
#else
        float sum[4];
        for (int c = 0; c < 4; c++) sum[c] = pixels[c] * w[c];
        for (long t = 1; t < taps; t++) {
            for (int c = 0; c < 4; c++) sum[c] += pixels[4 * t + c] * w[4 * t + c];
        }
        for (int c = 0; c < 4; c++) {
            float v = sum[c] > 0 ? (sum[c] < 255 ? sum[c] : 255) : 0;
            out[4 * x + c] = (uint8_t)__builtin_nearbyintf(v);
        }
#endif
    }
}
