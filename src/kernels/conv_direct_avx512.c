/* AVX-512 direct float convolution row (see conv_direct.h): up to 12
 * pixels x 16 channels in registers, one broadcast per pixel and tap. */
#include <immintrin.h>

#include "kernels/conv_direct.h"

#define PIX 12

static inline __attribute__((always_inline)) void
tile(const size_t P, const float *in, size_t step, size_t row, size_t f_h, size_t taps_w,
     const float *w, size_t ocp, __m512 init, __m512 vlo, __m512 vhi, __mmask16 mask, float *out,
     size_t oc)
{
    __m512 acc[PIX];
#pragma GCC unroll 12
    for (size_t p = 0; p < P; p++)
        acc[p] = init;
    /* One loop over all taps (rows of the filter one after another): with
     * nested loops GCC kept the accumulators in memory. */
    const float *x = in, *wt = w;
    for (size_t q = 0, t = 0; q < f_h * taps_w; q++, wt += ocp) {
        __m512 wv = _mm512_load_ps(wt);
#pragma GCC unroll 12
        for (size_t p = 0; p < P; p++)
            acc[p] = _mm512_fmadd_ps(_mm512_set1_ps(x[p * step + t]), wv, acc[p]);
        if (++t == taps_w) {
            t = 0;
            x += row;
        }
    }
#pragma GCC unroll 12
    for (size_t p = 0; p < P; p++)
        _mm512_mask_storeu_ps(out + p * oc, mask, _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[p])));
}

void nn_sconv_direct_row_avx512(size_t npix, const float *in, size_t step, size_t row,
                                size_t f_h, size_t taps_w, const float *w, size_t ocp,
                                const float *bias, float lo, float hi, float *out, size_t oc)
{
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    for (size_t j = 0; j < ocp; j += 16) {
        size_t cols = oc - j < 16 ? oc - j : 16;
        __mmask16 mask = (__mmask16)((1u << cols) - 1u);
        __m512 init = _mm512_load_ps(bias + j);
        size_t p = 0;
        for (; p + PIX <= npix; p += PIX)
            tile(PIX, in + p * step, step, row, f_h, taps_w, w + j, ocp, init, vlo, vhi, mask,
                 out + p * oc + j, oc);
        switch (npix - p) {
#define CASE(k) \
    case k: \
        tile(k, in + p * step, step, row, f_h, taps_w, w + j, ocp, init, vlo, vhi, mask, \
             out + p * oc + j, oc); \
        break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10)
            CASE(11)
#undef CASE
        default:
            break;
        }
    }
}
