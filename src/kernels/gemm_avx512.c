/* AVX-512 micro-kernels (one zmm per row of 16 columns; VNNI for int8). */
#include <immintrin.h>

#include "kernels/gemm_internal.h"
#include "kernels/quant_x86.h"

static inline __attribute__((always_inline)) void
skern(const size_t MR, size_t kc, const float *a, size_t lda, const float *b, float *c,
      size_t ldc, const float *bias, unsigned flags, float lo, float hi)
{
    __m512 acc[NN_SGEMM_MR_AVX512];
    __m512 init = bias ? _mm512_loadu_ps(bias) : _mm512_setzero_ps();
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = (flags & NN_GEMM_ACCUMULATE) ? _mm512_loadu_ps(c + i * ldc) : init;
    for (size_t p = 0; p < kc; p++) {
        __m512 bv = _mm512_load_ps(b + p * NN_GEMM_NR);
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i * lda + p]), bv, acc[i]);
    }
    if (flags & NN_GEMM_CLAMP) {
        __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[i]));
    }
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        _mm512_storeu_ps(c + i * ldc, acc[i]);
}

void nn_sgemm_kernel_avx512(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                            float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                            float hi)
{
    switch (mr) {
#define CASE(n) \
    case n: skern(n, kc, a, lda, b, c, ldc, bias, flags, lo, hi); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
        CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14)
#undef CASE
    default: break;
    }
}

static inline __attribute__((always_inline)) void
qkern(const size_t MR, size_t kq, const uint32_t *apack, size_t mr_stride, const int32_t *b,
      int32_t *acc_out, bool init)
{
    __m512i acc[NN_QGEMM_MR_AVX512];
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = init ? _mm512_setzero_si512() : _mm512_loadu_si512(acc_out + i * NN_GEMM_NR);
    for (size_t g = 0; g < kq; g++) {
        __m512i bv = _mm512_load_si512(b + g * NN_GEMM_NR);
        const uint32_t *ag = apack + g * mr_stride;
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_dpbusd_epi32(acc[i], _mm512_set1_epi32((int)ag[i]), bv);
    }
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        _mm512_storeu_si512(acc_out + i * NN_GEMM_NR, acc[i]);
}

void nn_qgemm_kernel_avx512(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                            const int32_t *b, int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: qkern(n, kq, apack, mr_stride, b, acc, init); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
        CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12)
#undef CASE
    default: break;
    }
}

void nn_qgemm_requant_avx512(size_t cols, const int32_t *acc, int32_t row_term,
                             const int32_t *col_term, const int32_t *mult, const int32_t *shift,
                             nn_rounding rounding, int32_t out_zero, int32_t lo, int32_t hi,
                             bool out_signed, void *out)
{
    __mmask16 k = (__mmask16)((1u << cols) - 1u);
    __m512i v = _mm512_maskz_loadu_epi32(k, acc);
    v = _mm512_add_epi32(v, _mm512_set1_epi32(row_term));
    v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(k, col_term));
    v = nn_requant_output_avx512(v, _mm512_maskz_loadu_epi32(k, mult),
                                 _mm512_maskz_loadu_epi32(k, shift), rounding, out_zero, lo, hi);
    if (out_signed)
        _mm512_mask_cvtsepi32_storeu_epi8(out, k, v);
    else
        _mm512_mask_cvtusepi32_storeu_epi8(out, k, v);
}

/* Dot products of a few A rows with rows [j0, j1) of B (unpacked). */
void nn_sgemm_dot_avx512(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                         const float *b, size_t ldb, const float *bias, float lo, float hi,
                         bool clamp, float *c, size_t ldc)
{
    const size_t kv = k & ~(size_t)15;
    const __mmask16 tail = (__mmask16)((1u << (k - kv)) - 1u);
    for (size_t j = j0; j < j1; j++) {
        const float *bj = b + j * ldb;
        for (size_t i = 0; i < m; i++) {
            const float *ai = a + i * lda;
            __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
            size_t p = 0;
            for (; p + 32 <= kv; p += 32) {
                s0 = _mm512_fmadd_ps(_mm512_loadu_ps(ai + p), _mm512_loadu_ps(bj + p), s0);
                s1 = _mm512_fmadd_ps(_mm512_loadu_ps(ai + p + 16), _mm512_loadu_ps(bj + p + 16), s1);
            }
            for (; p < kv; p += 16)
                s0 = _mm512_fmadd_ps(_mm512_loadu_ps(ai + p), _mm512_loadu_ps(bj + p), s0);
            if (tail)
                s1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, ai + kv), _mm512_maskz_loadu_ps(tail, bj + kv), s1);
            float v = _mm512_reduce_add_ps(_mm512_add_ps(s0, s1)) + (bias ? bias[j] : 0.0f);
            if (clamp)
                v = v < lo ? lo : (v > hi ? hi : v);
            c[i * ldc + j] = v;
        }
    }
}
