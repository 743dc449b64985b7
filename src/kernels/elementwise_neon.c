/*
 * aarch64 Advanced SIMD rows for the float32 element-wise operations most
 * models run (ADD, SUB, MUL, DIV, MAX, MIN, PRELU and the RELU family, ABS,
 * NEG), 8 elements per step. Each gives exactly the portable row's floats:
 * the same IEEE operation per element, and comparisons with selects where C
 * writes `x > y ? x : y` (fmax/fmin would differ on NaN and signed zeros),
 * the clamp included.
 */
#include <arm_neon.h>
#include <math.h>

#include "kernels/elementwise.h"

static inline __attribute__((always_inline)) float32x4_t sel(uint32x4_t m, float32x4_t a,
                                                             float32x4_t b)
{
    return vbslq_f32(m, a, b);
}

/* r < lo ? lo : (r > hi ? hi : r), as the portable rows clamp. */
static inline __attribute__((always_inline)) float32x4_t clamp4(float32x4_t r, float32x4_t lo,
                                                                float32x4_t hi)
{
    return sel(vcltq_f32(r, lo), lo, sel(vcgtq_f32(r, hi), hi, r));
}

static inline __attribute__((always_inline)) float clamp1(float r, float lo, float hi)
{
    return r < lo ? lo : (r > hi ? hi : r);
}

static inline __attribute__((always_inline)) float32x4_t arith4(const nn_ew_arith OP,
                                                                float32x4_t x, float32x4_t y)
{
    switch (OP) {
    case NN_EW_ADD:
        return vaddq_f32(x, y);
    case NN_EW_SUB:
        return vsubq_f32(x, y);
    case NN_EW_MUL:
        return vmulq_f32(x, y);
    case NN_EW_DIV:
        return vdivq_f32(x, y);
    case NN_EW_MAX:
        return sel(vcgtq_f32(x, y), x, y);
    case NN_EW_MIN:
        return sel(vcltq_f32(x, y), x, y);
    default: /* NN_EW_PRELU */
        return sel(vcgeq_f32(x, vdupq_n_f32(0.0f)), x, vmulq_f32(x, y));
    }
}

static inline __attribute__((always_inline)) float arith1(const nn_ew_arith OP, float x, float y)
{
    switch (OP) {
    case NN_EW_ADD:
        return x + y;
    case NN_EW_SUB:
        return x - y;
    case NN_EW_MUL:
        return x * y;
    case NN_EW_DIV:
        return x / y;
    case NN_EW_MAX:
        return x > y ? x : y;
    case NN_EW_MIN:
        return x < y ? x : y;
    default:
        return x >= 0.0f ? x : x * y;
    }
}

/* SA, SB: whether a and b advance (else one element broadcast). */
static inline __attribute__((always_inline)) void row(const nn_ew_arith OP, const bool SA,
                                                      const bool SB, const nn_ew_fparams *p,
                                                      const float *a, const float *b, float *o,
                                                      size_t n)
{
    const float32x4_t lo = vdupq_n_f32(p->lo), hi = vdupq_n_f32(p->hi);
    const float32x4_t a1 = vdupq_n_f32(a[0]), b1 = vdupq_n_f32(b[0]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        float32x4_t x0 = SA ? vld1q_f32(a + i) : a1, x1 = SA ? vld1q_f32(a + i + 4) : a1;
        float32x4_t y0 = SB ? vld1q_f32(b + i) : b1, y1 = SB ? vld1q_f32(b + i + 4) : b1;
        vst1q_f32(o + i, clamp4(arith4(OP, x0, y0), lo, hi));
        vst1q_f32(o + i + 4, clamp4(arith4(OP, x1, y1), lo, hi));
    }
    for (; i < n; i++)
        o[i] = clamp1(arith1(OP, a[SA ? i : 0], b[SB ? i : 0]), p->lo, p->hi);
}

#define ROW_FN(NAME, OP)                                                                     \
    static void NAME(const void *p, const void *a, const void *b, void *o, size_t n, size_t sa, \
                     size_t sb)                                                              \
    {                                                                                        \
        if (n == 0)                                                                          \
            return;                                                                          \
        if (sa && sb)                                                                        \
            row(OP, true, true, p, a, b, o, n);                                              \
        else if (sa)                                                                         \
            row(OP, true, false, p, a, b, o, n);                                             \
        else if (sb)                                                                         \
            row(OP, false, true, p, a, b, o, n);                                             \
        else                                                                                 \
            row(OP, false, false, p, a, b, o, n);                                            \
    }

ROW_FN(add_neon, NN_EW_ADD)
ROW_FN(sub_neon, NN_EW_SUB)
ROW_FN(mul_neon, NN_EW_MUL)
ROW_FN(div_neon, NN_EW_DIV)
ROW_FN(max_neon, NN_EW_MAX)
ROW_FN(min_neon, NN_EW_MIN)
ROW_FN(prelu_neon, NN_EW_PRELU)
#undef ROW_FN

nn_ew_row_fn nn_ew_f32_row_neon(nn_ew_arith op)
{
    switch (op) {
    case NN_EW_ADD:
        return add_neon;
    case NN_EW_SUB:
        return sub_neon;
    case NN_EW_MUL:
        return mul_neon;
    case NN_EW_DIV:
        return div_neon;
    case NN_EW_MAX:
        return max_neon;
    case NN_EW_MIN:
        return min_neon;
    case NN_EW_PRELU:
        return prelu_neon;
    default:
        return NULL;
    }
}

/* x clamped to [lo, hi] the way relu1/relu6 write it: below lo first. */
static inline __attribute__((always_inline)) float32x4_t unary4(const nn_ew_unary OP,
                                                                float32x4_t x)
{
    const float32x4_t zero = vdupq_n_f32(0.0f);
    switch (OP) {
    case NN_EW_ABS:
        return vabsq_f32(x);
    case NN_EW_NEG:
        return vnegq_f32(x);
    case NN_EW_RELU:
        return sel(vcltq_f32(x, zero), zero, x);
    case NN_EW_RELU1:
        return clamp4(x, vdupq_n_f32(-1.0f), vdupq_n_f32(1.0f));
    default: /* NN_EW_RELU6 */
        return clamp4(x, zero, vdupq_n_f32(6.0f));
    }
}

static inline __attribute__((always_inline)) float unary1(const nn_ew_unary OP, float x)
{
    switch (OP) {
    case NN_EW_ABS:
        return fabsf(x);
    case NN_EW_NEG:
        return -x;
    case NN_EW_RELU:
        return x < 0.0f ? 0.0f : x;
    case NN_EW_RELU1:
        return clamp1(x, -1.0f, 1.0f);
    default:
        return clamp1(x, 0.0f, 6.0f);
    }
}

static inline __attribute__((always_inline)) void unary_row(const nn_ew_unary OP, const float *in,
                                                            float *out, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        vst1q_f32(out + i, unary4(OP, vld1q_f32(in + i)));
        vst1q_f32(out + i + 4, unary4(OP, vld1q_f32(in + i + 4)));
    }
    for (; i < n; i++)
        out[i] = unary1(OP, in[i]);
}

bool nn_ew_unary_f32_neon(nn_ew_unary op, const float *in, float *out, size_t n)
{
    switch (op) {
    case NN_EW_ABS:
        unary_row(NN_EW_ABS, in, out, n);
        return true;
    case NN_EW_NEG:
        unary_row(NN_EW_NEG, in, out, n);
        return true;
    case NN_EW_RELU:
        unary_row(NN_EW_RELU, in, out, n);
        return true;
    case NN_EW_RELU1:
        unary_row(NN_EW_RELU1, in, out, n);
        return true;
    case NN_EW_RELU6:
        unary_row(NN_EW_RELU6, in, out, n);
        return true;
    default:
        return false;
    }
}
