/* aarch64 Advanced SIMD depthwise tiles: 8 channels (two vectors) per step,
 * one accumulator pair per pixel, so the pixels' multiply-add chains overlap
 * and share each filter load; channels past the last full block of 8 go to
 * the portable tile. The quantized tile multiplies int16 inputs by int16
 * filter values (both fit: |f - zero| <= 255) with smlal into 32-bit lanes,
 * exact as the portable tile's sums, and requantizes in NEON lanes
 * (kernels/quant_neon.h). */
#include <arm_neon.h>

#include "kernels/depthwise_internal.h"
#include "kernels/quant_neon.h"

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

/* The input zero point is taken out once per 8 channels at the end:
 * sum (x - z) f = sum x f - z sum f, the same modulo 2^32. */
static inline __attribute__((always_inline)) void q8_tile(const int PX, const bool SIGNED,
                                                          const nn_dw_tile *t, size_t nv,
                                                          const uint8_t *in, int32_t in_zero,
                                                          const int32_t *f, const nn_dw_out *o,
                                                          uint8_t *out)
{
    const int32x4_t oz = vdupq_n_s32(o->out_zero);
    const int32x4_t lo = vdupq_n_s32(o->lo), hi = vdupq_n_s32(o->hi);
    for (size_t c = 0; c < nv; c += 8) {
        int32x4_t acc0[NN_DW_PX_MAX], acc1[NN_DW_PX_MAX];
        int32x4_t fsum0 = vdupq_n_s32(0), fsum1 = vdupq_n_s32(0);
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            acc0[p] = vdupq_n_s32(0);
            acc1[p] = vdupq_n_s32(0);
        }
        for (size_t r = 0; r < t->rows; r++) {
            const uint8_t *ir = in + r * t->in_row + c;
            const int32_t *fr = f + r * t->f_row + c;
            for (size_t j = 0; j < t->cols; j++) {
                const int32x4_t f0 = vld1q_s32(fr + j * t->f_col);
                const int32x4_t f1 = vld1q_s32(fr + j * t->f_col + 4);
                fsum0 = vaddq_s32(fsum0, f0);
                fsum1 = vaddq_s32(fsum1, f1);
                const int16x8_t fv = vcombine_s16(vmovn_s32(f0), vmovn_s32(f1));
                const uint8_t *ij = ir + j * t->in_col;
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++) {
                    const uint8_t *x8 = ij + p * t->in_px;
                    const int16x8_t x = SIGNED ? vmovl_s8(vld1_s8((const int8_t *)x8))
                                               : vreinterpretq_s16_u16(vmovl_u8(vld1_u8(x8)));
                    acc0[p] = vmlal_s16(acc0[p], vget_low_s16(x), vget_low_s16(fv));
                    acc1[p] = vmlal_high_s16(acc1[p], x, fv);
                }
            }
        }
        const int32x4_t base0 = vmlsq_n_s32(vld1q_s32(o->bias + c), fsum0, in_zero);
        const int32x4_t base1 = vmlsq_n_s32(vld1q_s32(o->bias + c + 4), fsum1, in_zero);
        const nn_rq_neon rq0 = nn_rq_neon_init(vld1q_s32(o->mult + c), vld1q_s32(o->shift + c),
                                               NN_DW_ROUNDING);
        const nn_rq_neon rq1 = nn_rq_neon_init(vld1q_s32(o->mult + c + 4),
                                               vld1q_s32(o->shift + c + 4), NN_DW_ROUNDING);
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            int32x4_t v0 = nn_rq_neon_output(&rq0, vaddq_s32(acc0[p], base0), oz, lo, hi);
            int32x4_t v1 = nn_rq_neon_output(&rq1, vaddq_s32(acc1[p], base1), oz, lo, hi);
            vst1_u8(out + p * t->out_px + c, nn_pack8_neon(v0, v1));
        }
    }
}

static inline __attribute__((always_inline)) void q8_tiles(const bool SIGNED, const nn_dw_tile *t,
                                                           size_t px, size_t nv, const uint8_t *in,
                                                           int32_t in_zero, const int32_t *f,
                                                           const nn_dw_out *o, uint8_t *out)
{
    switch (px) {
    case 8:
        q8_tile(8, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    case 4:
        q8_tile(4, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    case 2:
        q8_tile(2, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            q8_tile(1, SIGNED, t, nv, in + p * t->in_px, in_zero, f, o, out + p * t->out_px);
    }
}

void nn_dw_tile_q8_neon(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    size_t nv = t->nc & ~(size_t)7;
    if (in_signed)
        q8_tiles(true, t, px, nv, in, in_zero, f, o, out);
    else
        q8_tiles(false, t, px, nv, in, in_zero, f, o, out);
    if (nv < t->nc) {
        nn_dw_tile r = tail_of(t, nv);
        nn_dw_out tail = {o->bias + nv, o->mult + nv, o->shift + nv, o->out_zero, o->lo, o->hi};
        nn_dw_tile_q8_c(&r, px, in + nv, in_signed, in_zero, f + nv, &tail, out + nv);
    }
}
