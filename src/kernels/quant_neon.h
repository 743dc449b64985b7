/*
 * nn_requantize (kernels/quant.h) on aarch64 Advanced SIMD lanes, bit for
 * bit, 4 lanes per vector, each with its own multiplier in [0, 2^31) and
 * shift in [-31, 31]: the lane arithmetic the NEON int8 kernels fuse into
 * their output stages (gemm_neon.c, depthwise_neon.c) and nn_requant_row_neon.
 * NEON has an instruction for each step of TFLite's two-step rounding:
 *  - sshl by the left shift wraps as TFLite's int32 arithmetic does;
 *  - sqrdmulh is nn_srdhm exactly: (2 x m + 2^31) >> 32, ties upward,
 *    saturating only INT32_MIN * INT32_MIN (m < 2^31 never reaches it);
 *  - srshl by minus the right shift computes floor((x + 2^(e-1)) / 2^e) in
 *    full precision: the division with ties upward (NN_ROUND_UP);
 *  - ties away from zero differ only for negative values: one less before
 *    the same rounding shift turns their ties downward and changes nothing
 *    else (x is an integer). It saturates at INT32_MIN, whose quotient is
 *    exact either way. Lanes with no right shift take no fix-up.
 * A kernel prepares the per-lane constants once per tile (nn_rq_neon_init)
 * and applies them to every row.
 */
#ifndef NN_KERNELS_QUANT_NEON_H
#define NN_KERNELS_QUANT_NEON_H

#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/quant.h"

typedef struct nn_rq_neon {
    int32x4_t mult;
    int32x4_t left;      /* max(shift, 0) */
    int32x4_t neg_right; /* min(shift, 0): srshl shifts right by its magnitude */
    int32x4_t away;      /* all ones where ties go away from zero and a right shift is done */
} nn_rq_neon;

static inline __attribute__((always_inline)) nn_rq_neon
nn_rq_neon_init(int32x4_t mult, int32x4_t shift, nn_rounding rounding)
{
    const int32x4_t zero = vdupq_n_s32(0);
    nn_rq_neon p;
    p.mult = mult;
    p.left = vmaxq_s32(shift, zero);
    p.neg_right = vminq_s32(shift, zero);
    p.away = rounding == NN_ROUND_AWAY ? vreinterpretq_s32_u32(vcltzq_s32(shift)) : zero;
    return p;
}

static inline __attribute__((always_inline)) int32x4_t nn_rq_neon_apply(const nn_rq_neon *p,
                                                                        int32x4_t x)
{
    int32x4_t high = vqrdmulhq_s32(vshlq_s32(x, p->left), p->mult);
    /* -1 for negative lanes that round ties away, else 0. */
    int32x4_t fix = vandq_s32(vshrq_n_s32(high, 31), p->away);
    return vrshlq_s32(vqaddq_s32(high, fix), p->neg_right);
}

/* clamp(zero + requant(acc), lo, hi) per lane, the zero point wrapping. */
static inline __attribute__((always_inline)) int32x4_t
nn_rq_neon_output(const nn_rq_neon *p, int32x4_t acc, int32x4_t zero, int32x4_t lo, int32x4_t hi)
{
    int32x4_t v = vaddq_s32(nn_rq_neon_apply(p, acc), zero);
    return vminq_s32(vmaxq_s32(v, lo), hi);
}

/* 8 clamped int32 lanes (already within the 8-bit range) to 8 bytes: the
 * low byte of each is its int8 or uint8 value, so plain narrowing serves
 * both signednesses. */
static inline __attribute__((always_inline)) uint8x8_t nn_pack8_neon(int32x4_t lo, int32x4_t hi)
{
    int16x8_t h = vcombine_s16(vmovn_s32(lo), vmovn_s32(hi));
    return vreinterpret_u8_s8(vmovn_s16(h));
}

#endif
