/* AVX-512 direct float convolution row (see conv_direct.h): up to 12
 * pixels x 32 channels in registers, one broadcast per pixel and tap
 * shared by the channel vectors. */
#include <immintrin.h>

#include "kernels/conv_direct.h"

#define PIX 12

static inline __mmask16 lanes(size_t n)
{
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* P pixels by CV vectors of 16 channels. */
static inline __attribute__((always_inline)) void
tile(const size_t P, const size_t CV, const float *in, size_t step, size_t row, size_t f_h,
     size_t taps_w, const float *w, size_t ocp, const float *bias, __m512 vlo, __m512 vhi,
     size_t cols, float *out, size_t oc)
{
    __m512 acc[PIX * 2];
#pragma GCC unroll 2
    for (size_t v = 0; v < CV; v++) {
        const __m512 b = _mm512_load_ps(bias + 16 * v);
#pragma GCC unroll 12
        for (size_t p = 0; p < P; p++)
            acc[p * CV + v] = b;
    }
    /* One loop over all taps (rows of the filter one after another): with
     * nested loops GCC kept the accumulators in memory. */
    const float *x = in, *wt = w;
    for (size_t q = 0, t = 0; q < f_h * taps_w; q++, wt += ocp) {
        __m512 wv[2];
#pragma GCC unroll 2
        for (size_t v = 0; v < CV; v++)
            wv[v] = _mm512_load_ps(wt + 16 * v);
#pragma GCC unroll 12
        for (size_t p = 0; p < P; p++) {
            const __m512 xv = _mm512_set1_ps(x[p * step + t]);
#pragma GCC unroll 2
            for (size_t v = 0; v < CV; v++)
                acc[p * CV + v] = _mm512_fmadd_ps(xv, wv[v], acc[p * CV + v]);
        }
        if (++t == taps_w) {
            t = 0;
            x += row;
        }
    }
#pragma GCC unroll 2
    for (size_t v = 0; v < CV; v++) {
        const __mmask16 mask = lanes(cols - 16 * v);
#pragma GCC unroll 12
        for (size_t p = 0; p < P; p++)
            _mm512_mask_storeu_ps(out + p * oc + 16 * v, mask,
                                  _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[p * CV + v])));
    }
}

static inline __attribute__((always_inline)) void
pixels(const size_t CV, size_t npix, const float *in, size_t step, size_t row, size_t f_h,
       size_t taps_w, const float *w, size_t ocp, const float *bias, __m512 vlo, __m512 vhi,
       size_t cols, float *out, size_t oc)
{
    size_t p = 0;
    for (; p + PIX <= npix; p += PIX)
        tile(PIX, CV, in + p * step, step, row, f_h, taps_w, w, ocp, bias, vlo, vhi, cols,
             out + p * oc, oc);
    switch (npix - p) {
#define CASE(k) \
    case k: \
        tile(k, CV, in + p * step, step, row, f_h, taps_w, w, ocp, bias, vlo, vhi, cols, \
             out + p * oc, oc); \
        break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10)
        CASE(11)
#undef CASE
    default:
        break;
    }
}

void nn_sconv_direct_row_avx512(size_t npix, const float *in, size_t step, size_t row,
                                size_t f_h, size_t taps_w, const float *w, size_t ocp,
                                const float *bias, float lo, float hi, float *out, size_t oc)
{
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    size_t j = 0;
    /* Two vectors of channels at a time: each broadcast input value feeds
     * two multiply-adds, each pass over the input row covers 32 channels. */
    for (; j + 32 <= ocp; j += 32)
        pixels(2, npix, in, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi, oc - j,
               out + j, oc);
    if (j < ocp)
        pixels(1, npix, in, step, row, f_h, taps_w, w + j, ocp, bias + j, vlo, vhi, oc - j,
               out + j, oc);
}
