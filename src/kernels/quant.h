/*
 * Integer-only quantized arithmetic shared by every quantized operation.
 * A real multiplier m > 0 is represented as a Q31 fixed-point value in
 * [0.5, 1) and a power-of-two exponent: m = mult * 2^(shift - 31).
 */
#ifndef NN_KERNELS_QUANT_H
#define NN_KERNELS_QUANT_H

#include <stdbool.h>
#include <stdint.h>

/* Splits m (>= 0) into a Q31 multiplier and a shift (positive = left). */
void nn_quantize_multiplier(double m, int32_t *mult, int *shift);

/* round(a * b / 2^31) with saturation of the single overflowing case. */
static inline int32_t nn_srdhm(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    int64_t ab = (int64_t)a * (int64_t)b;
    int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
    int64_t q = (ab + nudge) / ((int64_t)1 << 31);
    return (int32_t)q;
}

/* x / 2^exponent rounded to nearest, ties away from zero. */
static inline int32_t nn_rounding_shift_right(int32_t x, int exponent)
{
    if (exponent <= 0)
        return x;
    int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x * mult * 2^(shift - 31), rounded as the reference kernels do. */
static inline int32_t nn_mul_by_quant_mult(int32_t x, int32_t mult, int shift)
{
    /* Beyond 31 the shifted value saturates anyway. */
    int left = shift > 0 ? (shift > 31 ? 31 : shift) : 0;
    int right = shift > 0 ? 0 : -shift;
    int64_t shifted = (int64_t)x * ((int64_t)1 << left);
    if (shifted > INT32_MAX)
        shifted = INT32_MAX;
    if (shifted < INT32_MIN)
        shifted = INT32_MIN;
    return nn_rounding_shift_right(nn_srdhm((int32_t)shifted, mult), right);
}

/* a + b wrapping around as the vector units' 32-bit lanes do: the portable
 * kernels must give their results, and signed overflow would be undefined. */
static inline int32_t nn_wrapping_add_i32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

static inline int32_t nn_clamp_i32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Value range of a quant8 type: [0,255] or [-128,127]. */
void nn_quant8_range(int32_t type, int32_t *qmin, int32_t *qmax);

/* Clamp range in the quantized domain of a fused activation (FuseCode) for
 * an output of the given type, scale and zero point. */
void nn_quant_activation_range(int32_t fuse, int32_t type, float scale, int32_t zero_point,
                               int32_t *lo, int32_t *hi);

/* Clamp range in float of a fused activation. */
void nn_float_activation_range(int32_t fuse, float *lo, float *hi);

/* Quantizes a real value: clamp(round(v / scale) + zp). */
int32_t nn_quantize_value(float v, float scale, int32_t zero_point, int32_t qmin, int32_t qmax);

#endif
