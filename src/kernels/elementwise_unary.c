#include <math.h>

#include "kernels/elementwise.h"
#include "kernels/fp16.h"
#include "kernels/isa.h"
#include "kernels/qops.h"
#include "kernels/quant.h"
#include "util/threadpool.h"

/* Transcendental functions cost tens of cycles per element, so smaller
 * chunks than for memory-bound loops are already worth a thread. */
#define UNARY_GRAIN 8192
#define F16_BLOCK 256

static inline float relu1(float x)
{
    return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
}

static inline float relu6(float x)
{
    return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
}

static inline float elu(float x, float alpha)
{
    return x > 0.0f ? x : alpha * (expf(x) - 1.0f);
}

static inline float hard_swish(float x)
{
    return x * relu6(x + 3.0f) / 6.0f;
}

float nn_ew_unary_value(nn_ew_unary op, float x, float param)
{
    switch (op) {
    case NN_EW_ABS:
        return fabsf(x);
    case NN_EW_EXP:
        return expf(x);
    case NN_EW_LOG:
        return logf(x);
    case NN_EW_NEG:
        return -x;
    case NN_EW_RSQRT:
        return 1.0f / sqrtf(x);
    case NN_EW_SIN:
        return sinf(x);
    case NN_EW_SQRT:
        return sqrtf(x);
    case NN_EW_FLOOR:
        return floorf(x);
    case NN_EW_RELU:
        return x < 0.0f ? 0.0f : x;
    case NN_EW_RELU1:
        return relu1(x);
    case NN_EW_RELU6:
        return relu6(x);
    case NN_EW_LOGISTIC:
        return 1.0f / (1.0f + expf(-x));
    case NN_EW_TANH:
        return tanhf(x);
    case NN_EW_ELU:
        return elu(x, param);
    case NN_EW_HARD_SWISH:
        return hard_swish(x);
    case NN_EW_NOT:
        return x == 0.0f ? 1.0f : 0.0f;
    }
    return x;
}

/* One loop per operation so that the loop body holds no switch. */
#define UNARY_CASE(OP, EXPR)                                                                   \
    case OP:                                                                                   \
        for (size_t i = 0; i < n; i++) {                                                       \
            const float x = in[i];                                                             \
            out[i] = (EXPR);                                                                   \
        }                                                                                      \
        break;

static void unary_f32(nn_ew_unary op, float param, const float *restrict in,
                      float *restrict out, size_t n)
{
#if defined(NN_KERNELS_AARCH64)
    if (nn_isa_current() != NN_ISA_C && nn_ew_unary_f32_neon(op, in, out, n))
        return;
#endif
    switch (op) {
        UNARY_CASE(NN_EW_ABS, fabsf(x))
        UNARY_CASE(NN_EW_EXP, expf(x))
        UNARY_CASE(NN_EW_LOG, logf(x))
        UNARY_CASE(NN_EW_NEG, -x)
        UNARY_CASE(NN_EW_RSQRT, 1.0f / sqrtf(x))
        UNARY_CASE(NN_EW_SIN, sinf(x))
        UNARY_CASE(NN_EW_SQRT, sqrtf(x))
        UNARY_CASE(NN_EW_FLOOR, floorf(x))
        UNARY_CASE(NN_EW_RELU, x < 0.0f ? 0.0f : x)
        UNARY_CASE(NN_EW_RELU1, relu1(x))
        UNARY_CASE(NN_EW_RELU6, relu6(x))
        UNARY_CASE(NN_EW_LOGISTIC, 1.0f / (1.0f + expf(-x)))
        UNARY_CASE(NN_EW_TANH, tanhf(x))
        UNARY_CASE(NN_EW_ELU, elu(x, param))
        UNARY_CASE(NN_EW_HARD_SWISH, hard_swish(x))
        UNARY_CASE(NN_EW_NOT, x == 0.0f ? 1.0f : 0.0f)
    }
}

typedef struct unary_ctx {
    nn_ew_unary op;
    float param;
    const void *in;
    void *out;
} unary_ctx;

static void f32_range(void *arg, size_t begin, size_t end)
{
    const unary_ctx *c = arg;
    unary_f32(c->op, c->param, (const float *)c->in + begin, (float *)c->out + begin,
              end - begin);
}

static void f16_range(void *arg, size_t begin, size_t end)
{
    const unary_ctx *c = arg;
    const uint16_t *in = c->in;
    uint16_t *out = c->out;
    float t[F16_BLOCK], r[F16_BLOCK];
    for (size_t off = begin; off < end; off += F16_BLOCK) {
        size_t m = end - off < F16_BLOCK ? end - off : F16_BLOCK;
        nn_f16_to_f32_array(in + off, t, m);
        unary_f32(c->op, c->param, t, r, m);
        nn_f32_to_f16_array(r, out + off, m);
    }
}

void nn_ew_unary_f32(nn_ew_unary op, float param, const float *in, float *out, size_t n)
{
    unary_ctx c = {op, param, in, out};
    nn_parallel_for(n, UNARY_GRAIN, f32_range, &c);
}

void nn_ew_unary_f16(nn_ew_unary op, float param, const uint16_t *in, uint16_t *out, size_t n)
{
    unary_ctx c = {op, param, in, out};
    nn_parallel_for(n, UNARY_GRAIN, f16_range, &c);
}

void nn_ew_unary_i32(nn_ew_unary op, const int32_t *restrict in, int32_t *restrict out, size_t n)
{
    /* Through uint32 so that INT32_MIN wraps to itself instead of overflowing. */
    if (op == NN_EW_NEG) {
        for (size_t i = 0; i < n; i++)
            out[i] = (int32_t)(0u - (uint32_t)in[i]);
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = in[i] < 0 ? (int32_t)(0u - (uint32_t)in[i]) : in[i];
    }
}

void nn_ew_not_bool8(const uint8_t *restrict in, uint8_t *restrict out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] == 0;
}

static int32_t byte_value(int i, bool is_signed)
{
    return is_signed ? (int32_t)(int8_t)(uint8_t)i : i;
}

void nn_ew_unary_q8_table(nn_ew_unary op, float param, bool is_signed, float s_in, int32_t z_in,
                          float s_out, int32_t z_out, uint8_t table[256])
{
    int32_t qmin = is_signed ? -128 : 0, qmax = is_signed ? 127 : 255;
    for (int i = 0; i < 256; i++) {
        float x = (float)(byte_value(i, is_signed) - z_in) * s_in;
        float y = nn_ew_unary_value(op, x, param);
        table[i] = (uint8_t)nn_quantize_value(y, s_out, z_out, qmin, qmax);
    }
}

void nn_ew_requant_q8_table(bool is_signed, float s_in, int32_t z_in, float s_out, int32_t z_out,
                            uint8_t table[256])
{
    int32_t qmin = is_signed ? -128 : 0, qmax = is_signed ? 127 : 255;
    int32_t mult;
    int shift;
    nn_quantize_multiplier((double)s_in / (double)s_out, &mult, &shift);
    for (int i = 0; i < 256; i++) {
        int32_t q = byte_value(i, is_signed);
        table[i] = (uint8_t)nn_requant_output(q - z_in, mult, shift, NN_ROUND_AWAY, z_out, qmin,
                                              qmax);
    }
}

void nn_ew_lookup8(const uint8_t table[256], const uint8_t *restrict in, uint8_t *restrict out,
                   size_t n)
{
    nn_q8_lookup(table, in, out, n);
}

#define SELECT_LOOP(T)                                                                         \
    do {                                                                                       \
        const T *restrict xs = x;                                                              \
        const T *restrict ys = y;                                                              \
        T *restrict os = out;                                                                  \
        for (size_t i = 0; i < n; i++)                                                         \
            os[i] = mask[i] ? xs[i] : ys[i];                                                   \
    } while (0)

void nn_ew_select(const uint8_t *restrict mask, const void *x, const void *y, void *out,
                  size_t n, size_t elem_size)
{
    if (elem_size == 4)
        SELECT_LOOP(uint32_t);
    else if (elem_size == 2)
        SELECT_LOOP(uint16_t);
    else
        SELECT_LOOP(uint8_t);
}

void nn_ew_select_q8(const uint8_t *restrict mask, const uint8_t *restrict x,
                     const uint8_t tx[256], const uint8_t *restrict y, const uint8_t ty[256],
                     uint8_t *restrict out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = mask[i] ? tx[x[i]] : ty[y[i]];
}
