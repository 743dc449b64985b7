/* AVX2 direct float convolution row (see conv_direct.h): up to 8 pixels
 * x 8 channels in registers (12 would spill: 16 registers), one broadcast
 * per pixel and tap. */
#include <immintrin.h>

#include "kernels/conv_direct.h"

#define PIX 8

static inline __attribute__((always_inline)) void
tile(const size_t P, const float *in, size_t step, size_t row, size_t f_h, size_t taps_w,
     const float *w, size_t ocp, __m256 init, __m256 vlo, __m256 vhi, size_t cols, float *out,
     size_t oc)
{
    __m256 acc[PIX];
#pragma GCC unroll 8
    for (size_t p = 0; p < P; p++)
        acc[p] = init;
    /* One loop over all taps (rows of the filter one after another): with
     * nested loops GCC kept the accumulators in memory. */
    const float *x = in, *wt = w;
    for (size_t q = 0, t = 0; q < f_h * taps_w; q++, wt += ocp) {
        __m256 wv = _mm256_load_ps(wt);
#pragma GCC unroll 8
        for (size_t p = 0; p < P; p++)
            acc[p] = _mm256_fmadd_ps(_mm256_broadcast_ss(x + p * step + t), wv, acc[p]);
        if (++t == taps_w) {
            t = 0;
            x += row;
        }
    }
    if (cols == 8) {
#pragma GCC unroll 8
        for (size_t p = 0; p < P; p++)
            _mm256_storeu_ps(out + p * oc, _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p])));
        return;
    }
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)cols), lane);
    /* Unrolled as every loop over acc: an indexed access would keep the
     * accumulators in memory. */
#pragma GCC unroll 8
    for (size_t p = 0; p < P; p++)
        _mm256_maskstore_ps(out + p * oc, mask, _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p])));
}

void nn_sconv_direct_row_avx2(size_t npix, const float *in, size_t step, size_t row, size_t f_h,
                              size_t taps_w, const float *w, size_t ocp, const float *bias,
                              float lo, float hi, float *out, size_t oc)
{
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    for (size_t j = 0; j < oc; j += 8) {
        size_t cols = oc - j < 8 ? oc - j : 8;
        __m256 init = _mm256_load_ps(bias + j);
        size_t p = 0;
        for (; p + PIX <= npix; p += PIX)
            tile(PIX, in + p * step, step, row, f_h, taps_w, w + j, ocp, init, vlo, vhi, cols,
                 out + p * oc + j, oc);
        switch (npix - p) {
#define CASE(k) \
    case k: \
        tile(k, in + p * step, step, row, f_h, taps_w, w + j, ocp, init, vlo, vhi, cols, \
             out + p * oc + j, oc); \
        break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
#undef CASE
        default:
            break;
        }
    }
}
