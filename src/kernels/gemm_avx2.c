/* AVX2/FMA float micro-kernel: two ymm per row of 16 columns. */
#include <immintrin.h>

#include "kernels/gemm_internal.h"
#include "kernels/quant_x86.h"

static inline __attribute__((always_inline)) void
skern(const size_t MR, size_t kc, const float *a, size_t lda, const float *b, float *c,
      size_t ldc, const float *bias, unsigned flags, float lo, float hi)
{
    __m256 acc0[NN_SGEMM_MR_AVX2], acc1[NN_SGEMM_MR_AVX2];
    __m256 init0 = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
    __m256 init1 = bias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
#pragma GCC unroll 8
    for (size_t i = 0; i < MR; i++) {
        acc0[i] = (flags & NN_GEMM_ACCUMULATE) ? _mm256_loadu_ps(c + i * ldc) : init0;
        acc1[i] = (flags & NN_GEMM_ACCUMULATE) ? _mm256_loadu_ps(c + i * ldc + 8) : init1;
    }
    for (size_t p = 0; p < kc; p++) {
        __m256 b0 = _mm256_load_ps(b + p * NN_GEMM_NR);
        __m256 b1 = _mm256_load_ps(b + p * NN_GEMM_NR + 8);
#pragma GCC unroll 8
        for (size_t i = 0; i < MR; i++) {
            __m256 av = _mm256_broadcast_ss(a + i * lda + p);
            acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);
            acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);
        }
    }
    if (flags & NN_GEMM_CLAMP) {
        __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
#pragma GCC unroll 8
        for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc0[i]));
            acc1[i] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc1[i]));
        }
    }
#pragma GCC unroll 8
    for (size_t i = 0; i < MR; i++) {
        _mm256_storeu_ps(c + i * ldc, acc0[i]);
        _mm256_storeu_ps(c + i * ldc + 8, acc1[i]);
    }
}

void nn_sgemm_kernel_avx2(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi)
{
    switch (mr) {
#define CASE(n) \
    case n: skern(n, kc, a, lda, b, c, ldc, bias, flags, lo, hi); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
#undef CASE
    default: break;
    }
}

/* int8: the 4 bytes of each (row, group) word are widened to int16 and
 * multiplied with 4 columns' int16 weights by vpmaddwd, which leaves two
 * partial sums per column; they are folded when the tile is stored. */
static inline __attribute__((always_inline)) void
qkern(const size_t MR, size_t kq, const uint32_t *apack, size_t mr_stride, const int32_t *b,
      int32_t *acc_out, bool init)
{
    __m256i acc[NN_QGEMM_MR_AVX2][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
        for (int q = 0; q < 4; q++)
            acc[i][q] = _mm256_setzero_si256();
    for (size_t g = 0; g < kq; g++) {
        const __m128i *bg = (const __m128i *)(b + g * NN_GEMM_NR);
        __m256i bw[4];
        for (int q = 0; q < 4; q++)
            bw[q] = _mm256_cvtepi8_epi16(_mm_loadu_si128(bg + q));
        const uint32_t *ag = apack + g * mr_stride;
#pragma GCC unroll 4
        for (size_t i = 0; i < MR; i++) {
            __m128i a16 = _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)ag[i]));
            __m256i av = _mm256_broadcastq_epi64(a16);
            for (int q = 0; q < 4; q++)
                acc[i][q] = _mm256_add_epi32(acc[i][q], _mm256_madd_epi16(av, bw[q]));
        }
    }
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++) {
        __m256i lo = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[i][0], acc[i][1]), 0xd8);
        __m256i hi = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[i][2], acc[i][3]), 0xd8);
        __m256i *dst = (__m256i *)(acc_out + i * NN_GEMM_NR);
        if (!init) {
            lo = _mm256_add_epi32(lo, _mm256_loadu_si256(dst));
            hi = _mm256_add_epi32(hi, _mm256_loadu_si256(dst + 1));
        }
        _mm256_storeu_si256(dst, lo);
        _mm256_storeu_si256(dst + 1, hi);
    }
}

void nn_qgemm_kernel_avx2(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                          const int32_t *b, int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: qkern(n, kq, apack, mr_stride, b, acc, init); break;
        CASE(1) CASE(2) CASE(3)
#undef CASE
    default: break;
    }
}

void nn_qgemm_requant_avx2(size_t cols, const int32_t *acc, int32_t row_term,
                           const int32_t *col_term, const int32_t *mult, const int32_t *shift,
                           nn_rounding rounding, int32_t out_zero, int32_t lo, int32_t hi,
                           bool out_signed, void *out)
{
    int32_t sum[NN_GEMM_NR];
    for (size_t j = 0; j < cols; j++)
        sum[j] = nn_wrapping_add_i32(nn_wrapping_add_i32(acc[j], row_term), col_term[j]);
    nn_requant_row_avx2(cols, sum, mult, shift, rounding, out_zero, lo, hi, out_signed, out);
}
