/*
 * The body of float_ops.h's kernels, included by float_ops.c (portable),
 * float_ops_avx2.c and float_ops_avx512.c with FOPS_SUFFIX set; the build
 * compiles each file for its instruction set, and the loops below are
 * written so that the compiler vectorizes them (no calls, no branches on
 * the elements). The build turns multiply-add contraction off for these
 * files, so every build gives the same bits.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/float_ops.h"

#define FOPS_CAT2(a, b) a##_##b
#define FOPS_CAT(a, b) FOPS_CAT2(a, b)
#define FOPS(name) FOPS_CAT(name, FOPS_SUFFIX)

/* exp(x) for x <= 0 (x - max times a positive beta): x = n ln2 + r with
 * |r| <= ln2 / 2, exp(r) by a degree-6 polynomial (relative error below
 * 2e-7), times 2^n built in the exponent bits. x is clamped at -87 (exp
 * 1.6e-38, next to a sum of at least 1): no branch, so the loops vectorize. */
static inline float FOPS(exp_nonpos)(float x)
{
    const float log2e = 1.44269504f, ln2_hi = 0.693145752f, ln2_lo = 1.42860677e-6f;
    /* max(x, -87) on the bits: for x <= 0 a larger magnitude is a larger
     * unsigned pattern, and an integer minimum vectorizes where GCC keeps a
     * float comparison as a branch. */
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    const uint32_t minus_87 = 0xC2AE0000u;
    u = u < minus_87 ? u : minus_87;
    float xc;
    memcpy(&xc, &u, sizeof xc);
    float n = (float)(int32_t)(xc * log2e - 0.5f);
    float r = (xc - n * ln2_hi) - n * ln2_lo;
    float p = 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    int32_t bits = ((int32_t)n + 127) * (1 << 23);
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

static void FOPS(softmax_row)(const float *x, float *out, size_t len, float beta, float mx,
                              bool log_softmax)
{
    for (size_t i = 0; i < len; i++)
        out[i] = FOPS(exp_nonpos)((x[i] - mx) * beta);
    /* Sums in 16 lanes, added in a fixed order: the same on every ISA. */
    float part[16] = {0};
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        for (size_t l = 0; l < 16; l++)
            part[l] += out[i + l];
    for (; i < len; i++)
        part[i % 16] += out[i];
    float sum = 0.0f;
    for (size_t l = 0; l < 16; l++)
        sum += part[l];
    if (log_softmax) {
        float lsum = logf(sum);
        for (i = 0; i < len; i++)
            out[i] = (x[i] - mx) * beta - lsum;
        return;
    }
    float inv = 1.0f / sum;
    for (i = 0; i < len; i++)
        out[i] *= inv;
}

static void FOPS(pool_pixel)(int kind, const float *in, size_t row_stride, size_t ch, size_t y0,
                             size_t y1, size_t x0, size_t x1, float lo, float hi, float *out)
{
    const float count = (float)((y1 - y0) * (x1 - x0));
    for (size_t c0 = 0; c0 < ch; c0 += 64) {
        size_t nc = ch - c0 < 64 ? ch - c0 : 64;
        float acc[64];
        for (size_t c = 0; c < nc; c++)
            acc[c] = kind == NN_POOL_F32_MAX ? -INFINITY : 0.0f;
        for (size_t y = y0; y < y1; y++)
            for (size_t xx = x0; xx < x1; xx++) {
                const float *p = in + y * row_stride + xx * ch + c0;
                if (kind == NN_POOL_F32_MAX)
                    for (size_t c = 0; c < nc; c++)
                        acc[c] = p[c] > acc[c] ? p[c] : acc[c];
                else if (kind == NN_POOL_F32_AVG)
                    for (size_t c = 0; c < nc; c++)
                        acc[c] += p[c];
                else
                    for (size_t c = 0; c < nc; c++)
                        acc[c] += p[c] * p[c];
            }
        for (size_t c = 0; c < nc; c++) {
            float v = acc[c];
            if (kind == NN_POOL_F32_AVG)
                v = v / count;
            else if (kind == NN_POOL_F32_L2)
                v = sqrtf(v / count);
            out[c0 + c] = v < lo ? lo : (v > hi ? hi : v);
        }
    }
}

const nn_float_ops_isa FOPS(nn_float_ops) = {FOPS(softmax_row), FOPS(pool_pixel)};
