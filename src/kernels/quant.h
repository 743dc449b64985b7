/*
 * Integer-only quantized arithmetic shared by every quantized operation.
 * A real multiplier m > 0 is represented as a Q31 fixed-point value in
 * [0.5, 1) and a power-of-two exponent: m = mult * 2^(shift - 31).
 */
#ifndef NN_KERNELS_QUANT_H
#define NN_KERNELS_QUANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Splits m (>= 0) into a Q31 multiplier and a shift (positive = left) as
 * TFLite's QuantizeMultiplier does; shift is in [-31, 31]. */
void nn_quantize_multiplier(double m, int32_t *mult, int *shift);

/* How the final division by a power of two rounds its ties. TensorFlow Lite
 * has two conventions and each operation follows the one TFLite uses for it:
 *  - NN_ROUND_AWAY: ties away from zero (gemmlowp's RoundingDivideByPOT,
 *    TFLite's MultiplyByQuantizedMultiplier): depthwise convolution,
 *    element-wise operations, pooling, LSTM and everything else;
 *  - NN_ROUND_UP: ties toward +infinity: TFLite's CONV_2D and
 *    FULLY_CONNECTED, whose GEMM (ruy, on every CPU TFLite supports with
 *    vector units) applies the multiplier that way.
 * The two differ only for negative values exactly halfway between two
 * results, which is why convolutions followed by ReLU never show it. The
 * NNAPI specification prescribes neither (its conformance vectors allow one
 * step either way). */
typedef enum nn_rounding {
    NN_ROUND_AWAY = 0,
    NN_ROUND_UP = 1,
} nn_rounding;

/* round(a * b / 2^31), ties toward +infinity, saturating the single case
 * that overflows (a = b = INT32_MIN): gemmlowp's and TFLite's
 * SaturatingRoundingDoublingHighMul (whose nudge for negative products
 * rounds ties upward too) and ruy's fixed-point multiplication alike. */
static inline int32_t nn_srdhm(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    int64_t ab = (int64_t)a * (int64_t)b;
    return (int32_t)((ab + ((int64_t)1 << 30)) >> 31);
}

/* x / 2^exponent rounded to nearest, ties away from zero; exponent in
 * [0, 31]. */
static inline int32_t nn_rounding_shift_right(int32_t x, int exponent)
{
    if (exponent <= 0)
        return x;
    int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    int32_t remainder = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x / 2^exponent rounded to nearest, ties toward +infinity; exponent in
 * [0, 31]. The bit below the cut decides, so nothing can overflow. */
static inline int32_t nn_rounding_shift_right_up(int32_t x, int exponent)
{
    if (exponent <= 0)
        return x;
    return (x >> exponent) + ((x >> (exponent - 1)) & 1);
}

/* x * 2^left in 32-bit two's complement, as TFLite's int32 arithmetic and
 * the vector shifts (which give 0 from 32 on) compute it: an accumulator
 * that overflows here was out of the output's range already. */
static inline int32_t nn_shift_left_i32(int32_t x, int left)
{
    return left >= 32 ? 0 : (int32_t)((uint32_t)x << left);
}

/* The requantization: x * mult * 2^(shift - 31) with TFLite's two-step
 * rounding (high multiply, then a rounding right shift), for a Q31 mult in
 * [0, 2^31) and shift in [-31, 31] as nn_quantize_multiplier gives them.
 * Every quantized kernel and every vector path computes exactly this. Any
 * other int32 values (a forged cache entry's, whose hashes were recomputed)
 * give some result without undefined behaviour: a right shift past 31 is
 * taken as 31. */
static inline int32_t nn_requantize(int32_t x, int32_t mult, int shift, nn_rounding rounding)
{
    int left = shift > 0 ? shift : 0;
    int right = shift > 0 ? 0 : (shift < -31 ? 31 : -shift);
    int32_t high = nn_srdhm(nn_shift_left_i32(x, left), mult);
    return rounding == NN_ROUND_UP ? nn_rounding_shift_right_up(high, right)
                                   : nn_rounding_shift_right(high, right);
}

/* TFLite's MultiplyByQuantizedMultiplier: nn_requantize with ties away from
 * zero, the convention of every operation outside the GEMM ones. */
static inline int32_t nn_mul_by_quant_mult(int32_t x, int32_t mult, int shift)
{
    return nn_requantize(x, mult, shift, NN_ROUND_AWAY);
}

/* a + b wrapping around as the vector units' 32-bit lanes do: the portable
 * kernels must give their results, and signed overflow would be undefined. */
static inline int32_t nn_wrapping_add_i32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* a * b wrapping around as a 32-bit lane's multiply does: for filter values
 * that come from a cache entry (any int32) the product is defined too. */
static inline int32_t nn_wrapping_mul_i32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a * (uint32_t)b);
}

static inline int32_t nn_clamp_i32(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Accumulator to an 8-bit output value: clamp(zero + requant(acc), lo, hi). */
static inline int32_t nn_requant_output(int32_t acc, int32_t mult, int shift, nn_rounding rounding,
                                        int32_t zero, int32_t lo, int32_t hi)
{
    return nn_clamp_i32(nn_wrapping_add_i32(nn_requantize(acc, mult, shift, rounding), zero), lo, hi);
}

/* nn_requant_output of n accumulators with per-element mult[j]/shift[j],
 * stored as int8 (out_signed) or uint8. The portable definition the vector
 * versions (nn_requant_row_avx2/_avx512, quant_x86.h) reproduce bit for bit. */
void nn_requant_row(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                    nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi, bool out_signed,
                    void *out);

/* The same on AVX2 and AVX-512 lanes (kernels/quant_x86.h), for CPUs that
 * have them (kernels/isa.h). */
void nn_requant_row_avx2(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                         nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi,
                         bool out_signed, void *out);
void nn_requant_row_avx512(size_t n, const int32_t *acc, const int32_t *mult,
                           const int32_t *shift, nn_rounding rounding, int32_t zero, int32_t lo,
                           int32_t hi, bool out_signed, void *out);

/* The same on aarch64 Advanced SIMD lanes (kernels/quant_neon.h). */
void nn_requant_row_neon(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                         nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi,
                         bool out_signed, void *out);

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
