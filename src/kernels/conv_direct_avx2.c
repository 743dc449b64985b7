/* AVX2 direct float convolution row (see conv_direct.h): up to 6 pixels
 * x 16 channels or 8 pixels x 8 channels in registers (more would spill:
 * 16 registers), one broadcast per pixel and tap. */
#include <immintrin.h>

#include "kernels/conv_direct.h"

#define PIX 8

/* The clamped vector to out, its first cols (<= 8) lanes only. */
static inline __attribute__((always_inline)) void store(float *out, __m256 v, size_t cols)
{
    if (cols >= 8) {
        _mm256_storeu_ps(out, v);
        return;
    }
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    _mm256_maskstore_ps(out, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)cols), lane), v);
}

/* P pixels by CV vectors of 8 channels: each broadcast feeds CV
 * multiply-adds. */
static inline __attribute__((always_inline)) void
tile(const size_t P, const size_t CV, const float *in, size_t step, size_t row, size_t f_h,
     size_t taps_w, const float *w, size_t ocp, const float *bias, __m256 vlo, __m256 vhi,
     size_t cols, float *out, size_t oc)
{
    __m256 acc[PIX * 2];
#pragma GCC unroll 2
    for (size_t v = 0; v < CV; v++) {
        const __m256 b = _mm256_load_ps(bias + 8 * v);
#pragma GCC unroll 8
        for (size_t p = 0; p < P; p++)
            acc[p * CV + v] = b;
    }
    /* One loop over all taps (rows of the filter one after another): with
     * nested loops GCC kept the accumulators in memory. */
    const float *x = in, *wt = w;
    for (size_t q = 0, t = 0; q < f_h * taps_w; q++, wt += ocp) {
        __m256 wv[2];
#pragma GCC unroll 2
        for (size_t v = 0; v < CV; v++)
            wv[v] = _mm256_load_ps(wt + 8 * v);
#pragma GCC unroll 8
        for (size_t p = 0; p < P; p++) {
            const __m256 xv = _mm256_broadcast_ss(x + p * step + t);
#pragma GCC unroll 2
            for (size_t v = 0; v < CV; v++)
                acc[p * CV + v] = _mm256_fmadd_ps(xv, wv[v], acc[p * CV + v]);
        }
        if (++t == taps_w) {
            t = 0;
            x += row;
        }
    }
    /* Unrolled as every loop over acc: an indexed access would keep the
     * accumulators in memory. */
#pragma GCC unroll 2
    for (size_t v = 0; v < CV; v++)
#pragma GCC unroll 8
        for (size_t p = 0; p < P; p++)
            store(out + p * oc + 8 * v, _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p * CV + v])),
                  cols - 8 * v);
}

void nn_sconv_direct_row_avx2(size_t npix, const float *in, size_t step, size_t row, size_t f_h,
                              size_t taps_w, const float *w, size_t ocp, const float *bias,
                              float lo, float hi, float *out, size_t oc)
{
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    size_t j = 0;
    for (; j + 16 <= ocp && j + 8 < oc; j += 16) {
        size_t p = 0;
        for (; p + 6 <= npix; p += 6)
            tile(6, 2, in + p * step, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi,
                 oc - j, out + p * oc + j, oc);
        switch (npix - p) {
#define CASE(k) \
    case k: \
        tile(k, 2, in + p * step, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi, \
             oc - j, out + p * oc + j, oc); \
        break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5)
#undef CASE
        default:
            break;
        }
    }
    for (; j < oc; j += 8) {
        size_t p = 0;
        for (; p + PIX <= npix; p += PIX)
            tile(PIX, 1, in + p * step, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi,
                 oc - j, out + p * oc + j, oc);
        switch (npix - p) {
#define CASE(k) \
    case k: \
        tile(k, 1, in + p * step, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi, \
             oc - j, out + p * oc + j, oc); \
        break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
#undef CASE
        default:
            break;
        }
    }
}
