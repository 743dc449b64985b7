/* aarch64 Advanced SIMD depthwise tiles: 8 channels (two vectors) per step,
 * one accumulator pair per pixel, so the pixels' multiply-add chains overlap
 * and share each filter load; channels past the last full block of 8 go to
 * the portable tile. Quantized tiles are the portable ones on aarch64. */
#include <arm_neon.h>

#include "kernels/depthwise_internal.h"

/* The channels [done, nc) of a tile, by the portable kernels. */
static nn_dw_tile tail_of(const nn_dw_tile *t, size_t done)
{
    nn_dw_tile r = *t;
    r.nc = t->nc - done;
    return r;
}

static inline __attribute__((always_inline)) void f32_tile(const int PX, const nn_dw_tile *t,
                                                           size_t nv, const float *in,
                                                           const float *f, const float *bias,
                                                           float lo, float hi, float *out)
{
    const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
    for (size_t c = 0; c < nv; c += 8) {
        const float32x4_t b0 = bias ? vld1q_f32(bias + c) : vdupq_n_f32(0.0f);
        const float32x4_t b1 = bias ? vld1q_f32(bias + c + 4) : vdupq_n_f32(0.0f);
        float32x4_t acc0[NN_DW_PX_MAX], acc1[NN_DW_PX_MAX];
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            acc0[p] = b0;
            acc1[p] = b1;
        }
        for (size_t r = 0; r < t->rows; r++) {
            const float *ir = in + r * t->in_row + c, *fr = f + r * t->f_row + c;
            for (size_t j = 0; j < t->cols; j++) {
                const float32x4_t f0 = vld1q_f32(fr + j * t->f_col);
                const float32x4_t f1 = vld1q_f32(fr + j * t->f_col + 4);
                const float *ij = ir + j * t->in_col;
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++) {
                    acc0[p] = vfmaq_f32(acc0[p], vld1q_f32(ij + p * t->in_px), f0);
                    acc1[p] = vfmaq_f32(acc1[p], vld1q_f32(ij + p * t->in_px + 4), f1);
                }
            }
        }
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            vst1q_f32(out + p * t->out_px + c, vminq_f32(vhi, vmaxq_f32(vlo, acc0[p])));
            vst1q_f32(out + p * t->out_px + c + 4, vminq_f32(vhi, vmaxq_f32(vlo, acc1[p])));
        }
    }
}

void nn_dw_tile_f32_neon(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out)
{
    size_t nv = t->nc & ~(size_t)7;
    switch (px) {
    case 8:
        f32_tile(8, t, nv, in, f, bias, lo, hi, out);
        break;
    case 4:
        f32_tile(4, t, nv, in, f, bias, lo, hi, out);
        break;
    case 2:
        f32_tile(2, t, nv, in, f, bias, lo, hi, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            f32_tile(1, t, nv, in + p * t->in_px, f, bias, lo, hi, out + p * t->out_px);
    }
    if (nv < t->nc) {
        nn_dw_tile r = tail_of(t, nv);
        nn_dw_tile_f32_c(&r, px, in + nv, f + nv, bias ? bias + nv : NULL, lo, hi, out + nv);
    }
}
