/* AVX2/FMA float micro-kernel: two ymm per row of 16 columns. */
#include <immintrin.h>
#include <string.h>

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

/* skernel over consecutive full panels (nn_sgemm_panels_fn without
 * NN_GEMM_COLS): one call and one dispatch per row tile. */
void nn_sgemm_kernel_panels_avx2(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                                 size_t b_stride, size_t panels, float *c, size_t ldc,
                                 const float *bias, unsigned flags, float lo, float hi)
{
    switch (mr) {
#define CASE(n) \
    case n: \
        for (size_t q = 0; q < panels; q++) \
            skern(n, kc, a, lda, b + q * b_stride, c + q * NN_GEMM_NR, ldc, \
                  bias ? bias + q * NN_GEMM_NR : NULL, flags, lo, hi); \
        break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
#undef CASE
    default: break;
    }
}

/* int8: B comes widened to int16 (q_wide_b): each group is 4 vectors of 4
 * columns x 4 k-steps. The row's 4 bytes, widened and repeated in every
 * 64-bit lane, meet them in vpmaddwd (products of int16 pairs, which cannot
 * saturate), leaving two partial sums per column; they are folded once, at
 * the end. 4 x MR accumulators and one A vector fit the 16 registers, B
 * is read from memory by the multiply-adds. */
static inline __attribute__((always_inline)) void
qsums(const size_t MR, size_t kq, const nn_q8_rows *a, const int32_t *b,
      __m256i lo[NN_QGEMM_MR_AVX2], __m256i hi[NN_QGEMM_MR_AVX2])
{
    __m256i acc[NN_QGEMM_MR_AVX2][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = _mm256_setzero_si256();
    const __m256i *bw = (const __m256i *)(const void *)b;
    const uint8_t *ag = a->base;
    size_t g = 0;
    if (a->group == 4) {
        /* Rows in place: two groups' words are 8 bytes in a row, widened
         * at once and broadcast half by half. */
        const uint64_t flip2 = (uint64_t)a->flip * 0x100000001ull;
        for (; g + 2 <= kq; g += 2, bw += 8, ag += 8) {
#pragma GCC unroll 4
            for (size_t i = 0; i < MR; i++) {
                uint64_t w;
                memcpy(&w, ag + i * a->row, 8);
                __m128i a16 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128((long long)(w ^ flip2)));
                __m256i av0 = _mm256_broadcastq_epi64(a16);
                __m256i av1 = _mm256_permute4x64_epi64(_mm256_castsi128_si256(a16), 0x55);
#pragma GCC unroll 4
                for (int q = 0; q < 4; q++)
                    acc[i][q] = _mm256_add_epi32(acc[i][q], _mm256_madd_epi16(av0, _mm256_load_si256(bw + q)));
#pragma GCC unroll 4
                for (int q = 0; q < 4; q++)
                    acc[i][q] = _mm256_add_epi32(acc[i][q], _mm256_madd_epi16(av1, _mm256_load_si256(bw + 4 + q)));
            }
        }
    }
    for (; g < kq; g++, bw += 4, ag += a->group) {
#pragma GCC unroll 4
        for (size_t i = 0; i < MR; i++) {
            uint32_t w;
            memcpy(&w, ag + i * a->row, 4);
            __m128i a16 = _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)(w ^ a->flip)));
            __m256i av = _mm256_broadcastq_epi64(a16);
#pragma GCC unroll 4
            for (int q = 0; q < 4; q++)
                acc[i][q] = _mm256_add_epi32(acc[i][q], _mm256_madd_epi16(av, _mm256_load_si256(bw + q)));
        }
    }
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++) {
        lo[i] = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[i][0], acc[i][1]), 0xd8);
        hi[i] = _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[i][2], acc[i][3]), 0xd8);
    }
}

static inline __attribute__((always_inline)) void
qkern(const size_t MR, size_t kq, const nn_q8_rows *a, const int32_t *b, int32_t *acc_out,
      bool init)
{
    __m256i lo[NN_QGEMM_MR_AVX2], hi[NN_QGEMM_MR_AVX2];
    qsums(MR, kq, a, b, lo, hi);
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++) {
        __m256i *dst = (__m256i *)(acc_out + i * NN_GEMM_NR);
        if (!init) {
            lo[i] = _mm256_add_epi32(lo[i], _mm256_loadu_si256(dst));
            hi[i] = _mm256_add_epi32(hi[i], _mm256_loadu_si256(dst + 1));
        }
        _mm256_storeu_si256(dst, lo[i]);
        _mm256_storeu_si256(dst + 1, hi[i]);
    }
}

/* The per-panel constants of the output stage (e->prepared), two halves
 * of 8 columns. */
typedef struct fused_consts {
    nn_rq_avx2 rq[2]; /* the output zero point folded in */
    __m256i col[2], lo, hi;
    bool left;        /* some lane shifts left */
} fused_consts;

_Static_assert(sizeof(fused_consts) <= NN_QGEMM_PREPARED_BYTES, "prepared epilogue too large");

static void prepare(const nn_qgemm_epilogue *e, fused_consts *f)
{
    /* Columns past e->cols hold zeros in the packed panel; their parameters
     * are read from a full copy so that every lane is defined. */
    int32_t par[3][NN_GEMM_NR] = {{0}};
    for (size_t j = 0; j < e->cols; j++) {
        par[0][j] = e->col_term[j];
        par[1][j] = e->mult[j];
        par[2][j] = e->shift[j];
    }
    for (int h = 0; h < 2; h++) {
        f->col[h] = _mm256_loadu_si256((const __m256i *)(const void *)(par[0] + 8 * h));
        f->rq[h] = nn_rq_avx2_init(_mm256_loadu_si256((const __m256i *)(const void *)(par[1] + 8 * h)),
                                   _mm256_loadu_si256((const __m256i *)(const void *)(par[2] + 8 * h)),
                                   e->rounding);
        nn_rq_avx2_fold(&f->rq[h], e->out_zero);
    }
    f->left = false;
    for (size_t j = 0; j < e->cols; j++)
        f->left = f->left || e->shift[j] > 0;
    f->lo = _mm256_set1_epi32(e->lo);
    f->hi = _mm256_set1_epi32(e->hi);
}

void nn_qgemm_prepare_avx2(const nn_qgemm_epilogue *e, void *prepared)
{
    prepare(e, prepared);
}

static inline __attribute__((always_inline)) void
qfused(const size_t MR, const nn_rounding ROUNDING, size_t kq, const nn_q8_rows *a, const int32_t *b,
       const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc)
{
    __m256i lo[NN_QGEMM_MR_AVX2], hi[NN_QGEMM_MR_AVX2];
    qsums(MR, kq, a, b, lo, hi);
    fused_consts local;
    if (!e->prepared)
        prepare(e, &local);
    /* Copies: the byte stores below could alias *e and its arrays. */
    const fused_consts *fc = e->prepared ? e->prepared : &local;
    nn_rq_avx2 rq[2] = {fc->rq[0], fc->rq[1]};
    rq[0].away = rq[1].away = ROUNDING == NN_ROUND_AWAY;
    const __m256i col[2] = {fc->col[0], fc->col[1]};
    int32_t rows[NN_QGEMM_MR_AVX2] = {0};
    if (e->row_term)
        memcpy(rows, e->row_term, MR * sizeof rows[0]);
    const __m256i vlo = fc->lo, vhi = fc->hi;
    const bool left = fc->left;
    const bool full = e->cols == NN_GEMM_NR, out_signed = e->out_signed;
    const size_t cols = e->cols;
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++) {
        __m256i v[2] = {lo[i], hi[i]};
        if (acc_in) {
            v[0] = _mm256_add_epi32(v[0], _mm256_loadu_si256((const __m256i *)(acc_in + i * NN_GEMM_NR)));
            v[1] = _mm256_add_epi32(v[1], _mm256_loadu_si256((const __m256i *)(acc_in + i * NN_GEMM_NR + 8)));
        }
        const __m256i row = _mm256_set1_epi32(rows[i]);
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            __m256i x = _mm256_add_epi32(_mm256_add_epi32(v[h], col[h]), row);
            v[h] = left ? nn_rq_avx2_output_folded(&rq[h], true, x, vlo, vhi)
                        : nn_rq_avx2_output_folded(&rq[h], false, x, vlo, vhi);
        }
        __m128i bytes = nn_pack16_avx2(v[0], v[1], out_signed);
        if (full) {
            _mm_storeu_si128((__m128i *)(c + i * ldc), bytes);
        } else {
            uint8_t tmp[NN_GEMM_NR];
            _mm_storeu_si128((__m128i *)tmp, bytes);
            for (size_t j = 0; j < cols; j++)
                c[i * ldc + j] = tmp[j];
        }
    }
}

void nn_qgemm_fused_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc)
{
    switch (mr) {
#define CASE(n) \
    case n: \
        if (e->rounding == NN_ROUND_UP) \
            qfused(n, NN_ROUND_UP, kq, a, b, acc_in, e, c, ldc); \
        else \
            qfused(n, NN_ROUND_AWAY, kq, a, b, acc_in, e, c, ldc); \
        break;
        CASE(1) CASE(2) CASE(3)
#undef CASE
    default: break;
    }
}

void nn_qgemm_kernel_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: qkern(n, kq, a, b, acc, init); break;
        CASE(1) CASE(2) CASE(3)
#undef CASE
    default: break;
    }
}

void nn_widen_i8_avx2(const int8_t *src, int16_t *dst, size_t n)
{
    for (size_t i = 0; i < n; i += 16)
        _mm256_storeu_si256((__m256i *)(dst + i),
                            _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(src + i))));
}
