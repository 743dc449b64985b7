/* Portable quantized lookup, pooling, resize and sum kernels, and the per-ISA choice (qops.h). */
#include "kernels/qops.h"

#include <math.h>

#include "kernels/isa.h"
#include "kernels/quant.h"

void nn_q8_lookup_c(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = table[in[i]];
}

static int32_t byte_at(const nn_q8_window *w, size_t off)
{
    return w->is_signed ? (int32_t)(int8_t)w->in[off] : (int32_t)w->in[off];
}

void nn_q8_pool_max_c(const nn_q8_window *w, uint8_t *out)
{
    for (size_t c = 0; c < w->nc; c++) {
        int32_t m = INT32_MIN;
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++) {
                int32_t v = byte_at(w, y * w->row_step + x * w->col_step + c);
                m = v > m ? v : m;
            }
        if (w->rows == 0 || w->cols == 0)
            m = 0;
        out[c] = (uint8_t)nn_clamp_i32(m, w->lo, w->hi);
    }
}

void nn_q8_pool_avg_c(const nn_q8_window *w, uint8_t *out)
{
    /* 64 bits: a window of any size sums without overflow. */
    const int64_t cnt = (int64_t)w->rows * (int64_t)w->cols;
    for (size_t c = 0; c < w->nc; c++) {
        int64_t sum = 0;
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++)
                sum += byte_at(w, y * w->row_step + x * w->col_step + c);
        int32_t v = cnt ? (int32_t)(sum >= 0 ? (sum + cnt / 2) / cnt : (sum - cnt / 2) / cnt) : 0;
        out[c] = (uint8_t)nn_clamp_i32(v, w->lo, w->hi);
    }
}

static float q8_value(const uint8_t *p, size_t c, bool is_signed)
{
    return is_signed ? (float)(int8_t)p[c] : (float)p[c];
}

void nn_q8_resize_bilinear_c(const nn_q8_bilinear *b, uint8_t *out)
{
    const bool sgn = b->is_signed;
    for (size_t c = 0; c < b->nc; c++) {
        float v = q8_value(b->p00, c, sgn) * b->w00 + q8_value(b->p10, c, sgn) * b->w10 +
                  q8_value(b->p01, c, sgn) * b->w01 + q8_value(b->p11, c, sgn) * b->w11;
        if (sgn)
            out[c] = (uint8_t)(int8_t)(v < -128.0f ? -128.0f : (v > 127.0f ? 127.0f : v));
        else
            out[c] = (uint8_t)(v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
    }
}

void nn_q8_accumulate_c(const uint8_t *in, bool is_signed, int32_t *acc, size_t n)
{
    if (is_signed)
        for (size_t i = 0; i < n; i++)
            acc[i] += (int8_t)in[i];
    else
        for (size_t i = 0; i < n; i++)
            acc[i] += in[i];
}

int64_t nn_q8_sum_c(const uint8_t *in, bool is_signed, size_t n)
{
    int64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += is_signed ? (int8_t)in[i] : in[i];
    return s;
}

int32_t nn_q8_max_c(const uint8_t *in, bool is_signed, size_t n)
{
    int32_t m = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        int32_t v = is_signed ? (int8_t)in[i] : in[i];
        m = v > m ? v : m;
    }
    return m;
}

void nn_q8_softmax_out_c(const float *e, float inv, const uint8_t *in, bool is_signed,
                         int32_t out_zero, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float p = e[is_signed ? (int8_t)in[i] : in[i]] * inv;
        /* bounded before the conversion so that no scale can overflow int32 */
        p = p < 512.0f ? p : 512.0f;
        int32_t q = is_signed ? (int32_t)roundf(p) + out_zero : (int32_t)(p + 0.5f);
        q = nn_clamp_i32(q, is_signed ? -128 : 0, is_signed ? 127 : 255);
        out[i] = (uint8_t)q;
    }
}

static const nn_q8_kernels isa_c = {"c",
                                    nn_q8_lookup_c,
                                    nn_q8_pool_max_c,
                                    nn_q8_pool_avg_c,
                                    nn_q8_resize_bilinear_c,
                                    nn_q8_accumulate_c,
                                    nn_q8_sum_c,
                                    nn_q8_max_c,
                                    nn_q8_softmax_out_c};
#if defined(NN_KERNELS_X86_64)
static const nn_q8_kernels isa_avx2 = {"avx2",
                                       nn_q8_lookup_avx2,
                                       nn_q8_pool_max_avx2,
                                       nn_q8_pool_avg_avx2,
                                       nn_q8_resize_bilinear_avx2,
                                       nn_q8_accumulate_avx2,
                                       nn_q8_sum_avx2,
                                       nn_q8_max_avx2,
                                       nn_q8_softmax_out_avx2};
static const nn_q8_kernels isa_avx512 = {"avx512",
                                         nn_q8_lookup_avx512,
                                         nn_q8_pool_max_avx512,
                                         nn_q8_pool_avg_avx512,
                                         nn_q8_resize_bilinear_avx512,
                                         nn_q8_accumulate_avx512,
                                         nn_q8_sum_avx512,
                                         nn_q8_max_avx512,
                                         nn_q8_softmax_out_avx512};
#endif

const nn_q8_kernels *nn_q8_kernels_for(nn_isa isa)
{
    switch (isa) {
    case NN_ISA_C:
        return &isa_c;
#if defined(NN_KERNELS_X86_64)
    case NN_ISA_AVX512:
        return &isa_avx512;
    case NN_ISA_AVX2:
        return &isa_avx2;
#endif
    default:
        return NULL;
    }
}

static const nn_q8_kernels *qops_isa_get(void)
{
    const nn_q8_kernels *k = nn_q8_kernels_for(nn_isa_current());
    return k ? k : &isa_c;
}

void nn_q8_lookup(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n)
{
    qops_isa_get()->lookup(table, in, out, n);
}

void nn_q8_pool_max(const nn_q8_window *w, uint8_t *out)
{
    qops_isa_get()->pool_max(w, out);
}

void nn_q8_pool_avg(const nn_q8_window *w, uint8_t *out)
{
    if ((uint64_t)w->rows * w->cols >= NN_Q8_POOL_VECTOR_MAX)
        nn_q8_pool_avg_c(w, out);
    else
        qops_isa_get()->pool_avg(w, out);
}

void nn_q8_resize_bilinear(const nn_q8_bilinear *b, uint8_t *out)
{
    qops_isa_get()->bilinear(b, out);
}

void nn_q8_accumulate(const uint8_t *in, bool is_signed, int32_t *acc, size_t n)
{
    qops_isa_get()->accumulate(in, is_signed, acc, n);
}

int64_t nn_q8_sum(const uint8_t *in, bool is_signed, size_t n)
{
    return qops_isa_get()->sum(in, is_signed, n);
}

int32_t nn_q8_max(const uint8_t *in, bool is_signed, size_t n)
{
    return qops_isa_get()->max(in, is_signed, n);
}

void nn_q8_softmax_out(const float *e, float inv, const uint8_t *in, bool is_signed,
                       int32_t out_zero, uint8_t *out, size_t n)
{
    qops_isa_get()->softmax_out(e, inv, in, is_signed, out_zero, out, n);
}
