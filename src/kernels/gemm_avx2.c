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

/* int8. B comes widened to int16 (q_wide_b, laid out as nn_widen_i8_avx2
 * says): a group of a half panel (8 columns x 4 k-steps) is 2 vectors,
 * vector v holding the half's columns 4v..4v+3. A is widened
 * too, once per call, into a copy (wide_a) whose words a 64-bit broadcast
 * reads straight from memory: a load, where widening and broadcasting each
 * word in place took three shuffles per row and group from the pipes the
 * multiply-adds need. vpmaddwd multiplies int16 pairs, which cannot
 * saturate (vpmaddubsw's pair sums of uint8 x int8 can: 2 x 255 x -128),
 * and leaves two partial sums per column, folded once at the end. A panel
 * is done in two halves of 8 columns: the 6 rows x 2 vectors of
 * accumulators, the half's 2 B vectors and the broadcast fit the 16
 * registers, and each B vector loaded serves 6 rows. */
#define QMR NN_QGEMM_MR_AVX2
/* Groups per copy of A and per block of the wide B: a k block of gemm.c. */
#define QGROUPS NN_QGEMM_WIDE_BLOCK
/* int16 per row of the copy, with a cache line between rows' ends. */
#define QROW16 (4 * QGROUPS + 32)

/* Words [g0, g0 + kq) (kq <= QGROUPS) of rows i < mr of a, flipped and
 * widened: dst[i * QROW16 + 4 (g - g0) + t] is byte t of word (i, g). */
static void wide_a(size_t mr, size_t g0, size_t kq, const nn_q8_rows *a, int16_t *dst)
{
    const __m128i flip = _mm_set1_epi32((int)a->flip);
    for (size_t i = 0; i < mr; i++) {
        const uint8_t *src = a->base + i * a->row + g0 * a->group;
        int16_t *d = dst + i * QROW16;
        size_t g = 0;
        if (a->group == 4)
            for (; g + 4 <= kq; g += 4) {
                __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * g));
                _mm256_storeu_si256((__m256i *)(void *)(d + 4 * g),
                                    _mm256_cvtepu8_epi16(_mm_xor_si128(w, flip)));
            }
        for (; g < kq; g++) {
            uint32_t w;
            memcpy(&w, src + g * a->group, 4);
            _mm_storel_epi64((__m128i *)(void *)(d + 4 * g),
                             _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)(w ^ a->flip))));
        }
    }
}

/* The word of A as the 64-bit broadcast reads it. */
typedef int64_t __attribute__((may_alias)) a_word;

/* acc0 += bcast(*aw) . b0 and acc1 += bcast(*aw) . b1 (vpmaddwd, vpaddd).
 * In asm because GCC 12, given the 12 accumulators as intrinsics, copies
 * each one on every step and spills the rest to the stack. */
static inline __attribute__((always_inline)) void madd2(__m256i *acc0, __m256i *acc1,
                                                        const int16_t *aw, __m256i b0, __m256i b1)
{
    __m256i av, t;
    __asm__("vpbroadcastq %[aw], %[av]\n\t"
            "vpmaddwd %[b0], %[av], %[t]\n\t"
            "vpaddd %[t], %[x], %[x]\n\t"
            "vpmaddwd %[b1], %[av], %[t]\n\t"
            "vpaddd %[t], %[y], %[y]"
            : [x] "+x"(*acc0), [y] "+x"(*acc1), [t] "=&x"(t), [av] "=&x"(av)
            : [aw] "m"(*(const a_word *)(const void *)aw), [b0] "x"(b0), [b1] "x"(b1));
}

/* sum[i] += the dot products of rows i < MR of the copy a16 with the 8
 * columns of B at bw (a half panel's run of kq groups, 2 vectors each). */
static inline __attribute__((always_inline)) void
half_sums(const size_t MR, size_t kq, const int16_t *a16, const int16_t *bw, __m256i *sum)
{
    __m256i acc[QMR][2];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
        acc[i][0] = acc[i][1] = _mm256_setzero_si256();
    for (size_t g = 0; g < kq; g++, a16 += 4, bw += 2 * NN_GEMM_NR) {
        const __m256i b0 = _mm256_load_si256((const __m256i *)(const void *)bw);
        const __m256i b1 = _mm256_load_si256((const __m256i *)(const void *)(bw + 16));
#pragma GCC unroll 6
        for (size_t i = 0; i < MR; i++)
            madd2(&acc[i][0], &acc[i][1], a16 + i * QROW16, b0, b1);
    }
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
        sum[i] = _mm256_add_epi32(
                sum[i], _mm256_permute4x64_epi64(_mm256_hadd_epi32(acc[i][0], acc[i][1]), 0xd8));
}

/* half_sums for halves h < halves of the k block of kq groups at bw
 * (sum[h]). */
static void tile_sums(size_t mr, size_t halves, size_t kq, const int16_t *a16, const int16_t *bw,
                      __m256i sum[2][QMR])
{
    for (size_t h = 0; h < halves; h++) {
        const int16_t *b = bw + 2 * NN_GEMM_NR * kq * h;
        switch (mr) {
#define CASE(n) \
    case n: half_sums(n, kq, a16, b, sum[h]); break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
#undef CASE
        default: break;
        }
    }
}

/* tile_sums over any kq, A copied QGROUPS at a time into copy. */
static void k_sums(size_t mr, size_t halves, size_t kq, const nn_q8_rows *a, const int16_t *bw,
                   __m256i sum[2][QMR], int16_t *copy)
{
    for (size_t g0 = 0; g0 < kq; g0 += QGROUPS) {
        size_t n = kq - g0 < QGROUPS ? kq - g0 : QGROUPS;
        wide_a(mr, g0, n, a, copy);
        tile_sums(mr, halves, n, copy, bw + g0 * 4 * NN_GEMM_NR, sum);
    }
}

static void qkern(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b, int32_t *acc,
                  bool init)
{
    _Alignas(32) int16_t copy[QMR * QROW16];
    __m256i sum[2][QMR];
    for (size_t i = 0; i < mr; i++)
        for (size_t h = 0; h < 2; h++)
            sum[h][i] = init ? _mm256_setzero_si256()
                             : _mm256_loadu_si256((const __m256i *)(const void *)(acc + i * NN_GEMM_NR + 8 * h));
    k_sums(mr, 2, kq, a, (const int16_t *)(const void *)b, sum, copy);
    for (size_t i = 0; i < mr; i++)
        for (size_t h = 0; h < 2; h++)
            _mm256_storeu_si256((__m256i *)(void *)(acc + i * NN_GEMM_NR + 8 * h), sum[h][i]);
}

/* The per-panel constants of the output stage (e->prepared), two halves
 * of 8 columns. */
typedef struct fused_consts {
    nn_rq_avx2 rq[2]; /* the output zero point folded in */
    __m256i col[2];
    __m128i lo8, hi8; /* the clamp range in bytes */
    bool left;        /* some lane shifts left */
    bool clamp;       /* [lo, hi] is narrower than the type's range */
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
    f->lo8 = _mm_set1_epi8((char)e->lo);
    f->hi8 = _mm_set1_epi8((char)e->hi);
    f->clamp = e->out_signed ? e->lo > -128 || e->hi < 127 : e->lo > 0 || e->hi < 255;
}

void nn_qgemm_prepare_avx2(const nn_qgemm_epilogue *e, void *prepared)
{
    prepare(e, prepared);
}

/* The starting sums of a fused tile: column and row terms, and acc_in. */
static void fused_init(size_t mr, size_t halves, const fused_consts *fc,
                       const nn_qgemm_epilogue *e, const int32_t *acc_in, __m256i sum[2][QMR])
{
    for (size_t h = 0; h < halves; h++)
        for (size_t i = 0; i < mr; i++) {
            __m256i s = _mm256_add_epi32(fc->col[h], _mm256_set1_epi32(e->row_term ? e->row_term[i] : 0));
            if (acc_in)
                s = _mm256_add_epi32(s, _mm256_loadu_si256((const __m256i *)(const void *)(acc_in + i * NN_GEMM_NR + 8 * h)));
            sum[h][i] = s;
        }
}

/* Rows i < mr of a half panel requantized into the cols (<= 8) bytes of
 * each row at c, two rows in one vector of bytes. */
static inline __attribute__((always_inline)) void
half_store(const bool LEFT, const bool SIGNED, const nn_rq_avx2 *rq, size_t mr, const __m256i *sum,
           bool clamp, __m128i lo8, __m128i hi8, uint8_t *c, size_t ldc, size_t cols)
{
    for (size_t i = 0; i < mr; i += 2) {
        const bool pair = i + 1 < mr;
        __m256i v0 = nn_rq_avx2_folded(rq, LEFT, sum[i]);
        __m256i v1 = pair ? nn_rq_avx2_folded(rq, LEFT, sum[i + 1]) : v0;
        /* Saturation is the clamp to the type's range. */
        __m128i bytes = nn_pack16_avx2(v0, v1, SIGNED);
        if (clamp)
            bytes = SIGNED ? _mm_min_epi8(_mm_max_epi8(bytes, lo8), hi8)
                           : _mm_min_epu8(_mm_max_epu8(bytes, lo8), hi8);
        const __m128i high = _mm_unpackhi_epi64(bytes, bytes);
        if (cols == 8) {
            _mm_storel_epi64((__m128i *)(void *)(c + i * ldc), bytes);
            if (pair)
                _mm_storel_epi64((__m128i *)(void *)(c + (i + 1) * ldc), high);
        } else {
            uint64_t r0 = (uint64_t)_mm_cvtsi128_si64(bytes), r1 = (uint64_t)_mm_cvtsi128_si64(high);
            memcpy(c + i * ldc, &r0, cols);
            if (pair)
                memcpy(c + (i + 1) * ldc, &r1, cols);
        }
    }
}

/* Half h of the sums' output stage for the panel of e into c. */
static inline __attribute__((always_inline)) void
fused_half(const nn_rounding ROUNDING, const bool SIGNED, size_t h, size_t mr,
           const fused_consts *fc, size_t cols, const __m256i *sum, uint8_t *c, size_t ldc)
{
    /* A copy: the byte stores could alias *fc. */
    nn_rq_avx2 rq = fc->rq[h];
    rq.away = ROUNDING == NN_ROUND_AWAY;
    const bool clamp = fc->clamp;
    const __m128i lo8 = fc->lo8, hi8 = fc->hi8;
    if (fc->left)
        half_store(true, SIGNED, &rq, mr, sum, clamp, lo8, hi8, c, ldc, cols);
    else
        half_store(false, SIGNED, &rq, mr, sum, clamp, lo8, hi8, c, ldc, cols);
}

static inline __attribute__((always_inline)) void
fused_store(const nn_rounding ROUNDING, const bool SIGNED, size_t mr, const fused_consts *fc,
            size_t cols, __m256i sum[2][QMR], uint8_t *c, size_t ldc)
{
    fused_half(ROUNDING, SIGNED, 0, mr, fc, cols < 8 ? cols : 8, sum[0], c, ldc);
    if (cols > 8)
        fused_half(ROUNDING, SIGNED, 1, mr, fc, cols - 8, sum[1], c + 8, ldc);
}

/* fused_store for the panel of e, one instantiation per rounding and type. */
static void fused_store_any(size_t mr, const fused_consts *fc, const nn_qgemm_epilogue *e,
                            __m256i sum[2][QMR], uint8_t *c, size_t ldc)
{
    const size_t cols = e->cols;
    if (e->rounding == NN_ROUND_UP) {
        if (e->out_signed)
            fused_store(NN_ROUND_UP, true, mr, fc, cols, sum, c, ldc);
        else
            fused_store(NN_ROUND_UP, false, mr, fc, cols, sum, c, ldc);
    } else if (e->out_signed) {
        fused_store(NN_ROUND_AWAY, true, mr, fc, cols, sum, c, ldc);
    } else {
        fused_store(NN_ROUND_AWAY, false, mr, fc, cols, sum, c, ldc);
    }
}

void nn_qgemm_fused_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc)
{
    if (mr == 0 || mr > QMR)
        return;
    fused_consts local;
    if (!e->prepared)
        prepare(e, &local);
    const fused_consts *fc = e->prepared ? e->prepared : &local;
    const size_t halves = e->cols > 8 ? 2 : 1;
    _Alignas(32) int16_t copy[QMR * QROW16];
    __m256i sum[2][QMR];
    fused_init(mr, halves, fc, e, acc_in, sum);
    k_sums(mr, halves, kq, a, (const int16_t *)(const void *)b, sum, copy);
    fused_store_any(mr, fc, e, sum, c, ldc);
}

/* qfused for the panels of one row tile, A copied once for all of them. */
void nn_qgemm_fused_panels_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                size_t b_stride, size_t panels, const nn_qgemm_epilogue *e,
                                uint8_t *c, size_t ldc)
{
    if (kq > QGROUPS) {
        for (size_t q = 0; q < panels; q++)
            nn_qgemm_fused_avx2(mr, kq, a, b + q * b_stride, NULL, &e[q], c + q * NN_GEMM_NR, ldc);
        return;
    }
    if (mr == 0 || mr > QMR)
        return;
    _Alignas(32) int16_t copy[QMR * QROW16];
    wide_a(mr, 0, kq, a, copy);
    for (size_t q = 0; q < panels; q++) {
        const nn_qgemm_epilogue *eq = &e[q];
        fused_consts local;
        if (!eq->prepared)
            prepare(eq, &local);
        const fused_consts *fc = eq->prepared ? eq->prepared : &local;
        const size_t halves = eq->cols > 8 ? 2 : 1;
        __m256i sum[2][QMR];
        fused_init(mr, halves, fc, eq, NULL, sum);
        tile_sums(mr, halves, kq, copy, (const int16_t *)(const void *)(b + q * b_stride), sum);
        fused_store_any(mr, fc, eq, sum, c + q * NN_GEMM_NR, ldc);
    }
}

void nn_qgemm_kernel_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init)
{
    if (mr > 0 && mr <= QMR)
        qkern(mr, kq, a, b, acc, init);
}

void nn_widen_i8_avx2(const int8_t *src, int16_t *dst, size_t panels, size_t kq)
{
    for (size_t p = 0; p < panels; p++)
        for (size_t g0 = 0; g0 < kq; g0 += QGROUPS) {
            const size_t n = kq - g0 < QGROUPS ? kq - g0 : QGROUPS;
            int16_t *block = dst + (p * kq + g0) * 4 * NN_GEMM_NR;
            for (size_t h = 0; h < 2; h++)
                for (size_t g = 0; g < n; g++) {
                    const int8_t *s = src + ((p * kq + g0 + g) * NN_GEMM_NR + 8 * h) * 4;
                    int16_t *d = block + (h * n + g) * 2 * NN_GEMM_NR;
                    for (size_t v = 0; v < 2; v++)
                        _mm256_storeu_si256((__m256i *)(void *)(d + 16 * v),
                                            _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(s + 16 * v))));
                }
        }
}
