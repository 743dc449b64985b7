#include "kernels/quant.h"

#include <math.h>

#include "android/NeuralNetworksTypes.h"

void nn_quantize_multiplier(double m, int32_t *mult, int *shift)
{
    if (m <= 0.0 || !isfinite(m)) {
        *mult = 0;
        *shift = 0;
        return;
    }
    int exp;
    double frac = frexp(m, &exp);
    int64_t q = (int64_t)llround(frac * (double)(1LL << 31));
    if (q == (1LL << 31)) {
        q /= 2;
        exp++;
    }
    /* Multipliers too small to matter collapse to zero rather than shifting
     * past the width of the accumulator. */
    if (exp < -31) {
        exp = 0;
        q = 0;
    }
    /* Multipliers of 2^31 and more (absurd scales) saturate every non-zero
     * accumulator; capping keeps the shift inside the 32-bit lanes. */
    if (exp > 31) {
        exp = 31;
        q = INT32_MAX;
    }
    *mult = (int32_t)q;
    *shift = exp;
}

void nn_requant_row(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                    nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi, bool out_signed,
                    void *out)
{
    for (size_t j = 0; j < n; j++) {
        int32_t v = nn_requant_output(acc[j], mult[j], shift[j], rounding, zero, lo, hi);
        if (out_signed)
            ((int8_t *)out)[j] = (int8_t)v;
        else
            ((uint8_t *)out)[j] = (uint8_t)v;
    }
}

void nn_quant8_range(int32_t type, int32_t *qmin, int32_t *qmax)
{
    if (type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM) {
        *qmin = 0;
        *qmax = 255;
    } else {
        *qmin = -128;
        *qmax = 127;
    }
}

int32_t nn_quantize_value(float v, float scale, int32_t zero_point, int32_t qmin, int32_t qmax)
{
    float q = roundf(v / scale) + (float)zero_point;
    if (!(q >= (float)qmin))
        return qmin;
    if (q > (float)qmax)
        return qmax;
    return (int32_t)q;
}

void nn_quant_activation_range(int32_t fuse, int32_t type, float scale, int32_t zero_point,
                               int32_t *lo, int32_t *hi)
{
    int32_t qmin, qmax;
    nn_quant8_range(type, &qmin, &qmax);
    *lo = qmin;
    *hi = qmax;
    if (fuse == ANEURALNETWORKS_FUSED_RELU) {
        *lo = nn_quantize_value(0.0f, scale, zero_point, qmin, qmax);
    } else if (fuse == ANEURALNETWORKS_FUSED_RELU1) {
        *lo = nn_quantize_value(-1.0f, scale, zero_point, qmin, qmax);
        *hi = nn_quantize_value(1.0f, scale, zero_point, qmin, qmax);
    } else if (fuse == ANEURALNETWORKS_FUSED_RELU6) {
        *lo = nn_quantize_value(0.0f, scale, zero_point, qmin, qmax);
        *hi = nn_quantize_value(6.0f, scale, zero_point, qmin, qmax);
    }
}

void nn_float_activation_range(int32_t fuse, float *lo, float *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (fuse == ANEURALNETWORKS_FUSED_RELU) {
        *lo = 0.0f;
    } else if (fuse == ANEURALNETWORKS_FUSED_RELU1) {
        *lo = -1.0f;
        *hi = 1.0f;
    } else if (fuse == ANEURALNETWORKS_FUSED_RELU6) {
        *lo = 0.0f;
        *hi = 6.0f;
    }
}
