/* AVX-512 micro-kernels (one zmm per row of 16 columns; VNNI for int8). */
#include <immintrin.h>
#include <string.h>

#include "kernels/gemm_internal.h"
#include "kernels/quant_x86.h"

/* A: MR rows of stride lda, read in place. */
static inline __attribute__((always_inline)) void
skern(const size_t MR, size_t kc, const float *a, size_t lda, const float *b,
      float *c, size_t ldc, const float *bias, unsigned flags, float lo, float hi)
{
    /* NN_GEMM_COLS: only the first columns of c and bias exist. */
    const unsigned cols = NN_GEMM_COLS_OF(flags);
    const __mmask16 m = cols ? (__mmask16)((1u << cols) - 1u) : (__mmask16)0xffff;
    __m512 acc[NN_SGEMM_MR_AVX512];
    __m512 init = bias ? _mm512_maskz_loadu_ps(m, bias) : _mm512_setzero_ps();
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = (flags & NN_GEMM_ACCUMULATE) ? _mm512_maskz_loadu_ps(m, c + i * ldc) : init;
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
        _mm512_mask_storeu_ps(c + i * ldc, m, acc[i]);
}

void nn_sgemm_kernel_avx512(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                            float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                            float hi)
{
    switch (mr) {
#define CASE(n) \
    case n: skern(n, kc, a, lda, b, c, ldc, bias, flags, lo, hi); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
#undef CASE
    default: break;
    }
}

/* skernel over `panels` consecutive panels (b_stride floats apart), the
 * tile of A reused from L1: one call and one dispatch per row tile instead
 * of one per panel, which cost a tenth of products with k <= 64. */
void nn_sgemm_kernel_panels_avx512(size_t mr, size_t kc, const float *a, size_t lda,
                                   const float *b, size_t b_stride, size_t panels, float *c,
                                   size_t ldc, const float *bias, unsigned flags, float lo,
                                   float hi)
{
    const unsigned full = flags & ~NN_GEMM_COLS(15);
    switch (mr) {
#define CASE(n) \
    case n: \
        for (size_t q = 0; q < panels; q++) \
            skern(n, kc, a, lda, b + q * b_stride, c + q * NN_GEMM_NR, ldc, \
                  bias ? bias + q * NN_GEMM_NR : NULL, q + 1 == panels ? flags : full, lo, hi); \
        break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
#undef CASE
    default: break;
    }
}

/* The row stride of the multi-panel kernel's copy of A: a k block (KQ in
 * gemm.c) has at most this many bytes. */
#define QROW 1088

/* The broadcast word of row i, group g (see nn_q8_rows); FLIP: XOR it. */
static inline __attribute__((always_inline)) __m512i a_word(const bool FLIP, const uint8_t *ag,
                                                             size_t row, size_t i, __m512i flip)
{
    int32_t w;
    memcpy(&w, ag + i * row, 4);
    __m512i v = _mm512_set1_epi32(w);
    return FLIP ? _mm512_xor_si512(v, flip) : v;
}

/* PACKED: a is the multi-panel kernel's copy (row QROW, group 4, flip 0),
 * whose constant steps make every broadcast address an immediate offset,
 * where 16 row addresses of A in place spill the general registers. */
static inline __attribute__((always_inline)) void
qsums(const size_t MR, const bool FLIP, const bool PACKED, size_t kq, const nn_q8_rows *a,
      const int32_t *b, __m512i acc[NN_QGEMM_MR_AVX512])
{
    const __m512i flip = _mm512_set1_epi32((int)a->flip);
    const uint8_t *ag = a->base;
    const size_t row = PACKED ? QROW : a->row, group = PACKED ? 4 : a->group;
    for (size_t g = 0; g < kq; g++, ag += group) {
        __m512i bv = _mm512_load_si512(b + g * NN_GEMM_NR);
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_dpbusd_epi32(acc[i], a_word(FLIP && !PACKED, ag, row, i, flip), bv);
    }
}

/* qsums for a panel of at most 8 valid columns: ymm dot products, which
 * cost half a zmm one on CPUs that split 512-bit operations in two. */
static inline __attribute__((always_inline)) void
qsums_half(const size_t MR, const bool FLIP, const bool PACKED, size_t kq, const nn_q8_rows *a,
           const int32_t *b, __m512i acc[NN_QGEMM_MR_AVX512])
{
    const __m256i flip = _mm256_set1_epi32((int)a->flip);
    const uint8_t *ag = a->base;
    const size_t row = PACKED ? QROW : a->row, group = PACKED ? 4 : a->group;
    __m256i h[NN_QGEMM_MR_AVX512];
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        h[i] = _mm512_castsi512_si256(acc[i]);
    for (size_t g = 0; g < kq; g++, ag += group) {
        __m256i bv = _mm256_load_si256((const __m256i *)(const void *)(b + g * NN_GEMM_NR));
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++) {
            int32_t w;
            memcpy(&w, ag + i * row, 4);
            __m256i v = _mm256_set1_epi32(w);
            h[i] = _mm256_dpbusd_epi32(h[i], FLIP && !PACKED ? _mm256_xor_si256(v, flip) : v, bv);
        }
    }
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = _mm512_zextsi256_si512(h[i]);
}

static inline __attribute__((always_inline)) void
qkern(const size_t MR, const bool FLIP, size_t kq, const nn_q8_rows *a, const int32_t *b,
      int32_t *acc_out, bool init)
{
    __m512i acc[NN_QGEMM_MR_AVX512];
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = init ? _mm512_setzero_si512() : _mm512_loadu_si512(acc_out + i * NN_GEMM_NR);
    qsums(MR, FLIP, false, kq, a, b, acc);
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        _mm512_storeu_si512(acc_out + i * NN_GEMM_NR, acc[i]);
}

void nn_qgemm_kernel_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                            int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: \
        if (a->flip) \
            qkern(n, true, kq, a, b, acc, init); \
        else \
            qkern(n, false, kq, a, b, acc, init); \
        break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
        CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12)
        CASE(13) CASE(14) CASE(15) CASE(16)
#undef CASE
    default: break;
    }
}

/* The per-panel constants of the output stage (e->prepared). */
typedef struct fused_consts {
    nn_rq_avx512 rq;   /* the output zero point folded in */
    __m512i col;
    __m512i lo8, hi8;  /* the clamp range in bytes */
    bool left;         /* some lane shifts left */
    bool clamp;        /* [lo, hi] is narrower than the type's range */
} fused_consts;

_Static_assert(sizeof(fused_consts) <= NN_QGEMM_PREPARED_BYTES, "prepared epilogue too large");
_Static_assert(NN_QGEMM_FUSED_MAX_RIGHT <= NN_RQ_FOLD_MAX_RIGHT, "the zero point cannot be folded");

static inline __attribute__((always_inline)) void prepare(const nn_qgemm_epilogue *e,
                                                          fused_consts *f)
{
    const __mmask16 k = (__mmask16)((1u << e->cols) - 1u);
    f->rq = nn_rq_avx512_init(_mm512_maskz_loadu_epi32(k, e->mult),
                              _mm512_maskz_loadu_epi32(k, e->shift), e->rounding);
    nn_rq_avx512_fold(&f->rq, e->out_zero);
    f->left = _mm512_mask_cmpgt_epi32_mask(k, _mm512_maskz_loadu_epi32(k, e->shift),
                                           _mm512_setzero_si512()) != 0;
    f->col = _mm512_maskz_loadu_epi32(k, e->col_term);
    f->lo8 = _mm512_set1_epi8((char)e->lo);
    f->hi8 = _mm512_set1_epi8((char)e->hi);
    f->clamp = e->out_signed ? e->lo > -128 || e->hi < 127 : e->lo > 0 || e->hi < 255;
}

void nn_qgemm_prepare_avx512(const nn_qgemm_epilogue *e, void *prepared)
{
    prepare(e, prepared);
}

/* Requantizes MR rows of accumulators (shifted left already) and stores
 * their bytes: four rows at a time are narrowed together. Row r of four is
 * 128-bit lane r of the narrowed bytes, which a 64-byte store masked to
 * that lane, 16r bytes before the row, puts in place without an extract
 * (ldc >= 16 keeps that address within row 0 of the tile or after it). */
static inline __attribute__((always_inline)) void
store_rows(const size_t MR, const bool SIGNED, const nn_rq_avx512 *rq, const __m512i *acc,
           bool clamp, __m512i lo8, __m512i hi8, __mmask16 k, uint8_t *c, size_t ldc)
{
    const bool in_lanes = ldc >= NN_GEMM_NR;
    const __mmask64 lane_mask[4] = {k, (__mmask64)k << 16, (__mmask64)k << 32, (__mmask64)k << 48};
#pragma GCC unroll 4
    for (size_t i0 = 0; i0 < MR; i0 += 4) {
        __m512i v[4];
#pragma GCC unroll 4
        for (size_t r = 0; r < 4; r++)
            v[r] = i0 + r < MR ? nn_rq_avx512_folded(rq, false, acc[i0 + r]) : _mm512_setzero_si512();
        __m512i bytes = nn_narrow4_avx512(v[0], v[1], v[2], v[3], SIGNED);
        if (clamp)
            bytes = SIGNED ? _mm512_min_epi8(_mm512_max_epi8(bytes, lo8), hi8)
                           : _mm512_min_epu8(_mm512_max_epu8(bytes, lo8), hi8);
        if (in_lanes) {
#pragma GCC unroll 4
            for (size_t r = 0; r < 4; r++)
                if (i0 + r < MR)
                    _mm512_mask_storeu_epi8(c + (i0 + r) * ldc - NN_GEMM_NR * r, lane_mask[r], bytes);
        } else {
            /* Rows narrower than a panel (n < 16): the rare case, kept short. */
            _Alignas(64) uint8_t four[4 * NN_GEMM_NR];
            _mm512_store_si512(four, bytes);
            for (size_t r = 0; r < 4 && i0 + r < MR; r++)
                memcpy(c + (i0 + r) * ldc, four + NN_GEMM_NR * r, (size_t)__builtin_popcount(k));
        }
    }
}

/* qkern with the output stage applied to the registers: the accumulators
 * never go to memory. Rows are requantized and narrowed four at a time. */
static inline __attribute__((always_inline)) void
qfused(const size_t MR, const bool FLIP, const bool PACKED, const nn_rounding ROUNDING, size_t kq,
       const nn_q8_rows *a, const int32_t *b, const int32_t *acc_in, const nn_qgemm_epilogue *e,
       uint8_t *c, size_t ldc)
{
    const __mmask16 k = (__mmask16)((1u << e->cols) - 1u);
    fused_consts local;
    if (!e->prepared)
        prepare(e, &local);
    /* Register copies: the byte stores below could alias *e and its arrays. */
    const fused_consts *fc = e->prepared ? e->prepared : &local;
    nn_rq_avx512 rq = fc->rq;
    rq.away = ROUNDING == NN_ROUND_AWAY;
    const __m512i col = fc->col, lo8 = fc->lo8, hi8 = fc->hi8;
    /* PACKED: the multi-panel kernel, which sends panels with left shifts
     * elsewhere (the shift's register would spill the accumulators). */
    const bool left = !PACKED && fc->left, clamp = fc->clamp, out_signed = e->out_signed;
    __m512i acc[NN_QGEMM_MR_AVX512];
#pragma GCC unroll 16
    for (size_t i = 0; i < MR; i++)
        acc[i] = acc_in ? _mm512_add_epi32(col, _mm512_loadu_si512(acc_in + i * NN_GEMM_NR)) : col;
    if (e->cols <= 8)
        qsums_half(MR, FLIP, PACKED, kq, a, b, acc);
    else
        qsums(MR, FLIP, PACKED, kq, a, b, acc);
    /* Each runtime choice is taken once for the tile, outside the rows. */
    if (e->row_term) {
        int32_t rows[NN_QGEMM_MR_AVX512];
        memcpy(rows, e->row_term, MR * sizeof rows[0]);
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_add_epi32(acc[i], _mm512_set1_epi32(rows[i]));
    }
    if (left) {
#pragma GCC unroll 16
        for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_sllv_epi32(acc[i], rq.left);
    }
    if (out_signed)
        store_rows(MR, true, &rq, acc, clamp, lo8, hi8, k, c, ldc);
    else
        store_rows(MR, false, &rq, acc, clamp, lo8, hi8, k, c, ldc);
}

void nn_qgemm_fused_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                           const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                           size_t ldc)
{
    switch (mr) {
#define CASE(n) \
    case n: \
        if (e->rounding == NN_ROUND_UP) { \
            if (a->flip) \
                qfused(n, true, false, NN_ROUND_UP, kq, a, b, acc_in, e, c, ldc); \
            else \
                qfused(n, false, false, NN_ROUND_UP, kq, a, b, acc_in, e, c, ldc); \
        } else if (a->flip) { \
            qfused(n, true, false, NN_ROUND_AWAY, kq, a, b, acc_in, e, c, ldc); \
        } else { \
            qfused(n, false, false, NN_ROUND_AWAY, kq, a, b, acc_in, e, c, ldc); \
        } \
        break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
        CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12)
        CASE(13) CASE(14) CASE(15) CASE(16)
#undef CASE
    default: break;
    }
}

/* Copies the mr x 4kq bytes of A to dst (row stride QROW), flipped: one
 * pass for all the panels instead of an XOR on every broadcast. */
static void copy_a(size_t mr, size_t kq, const nn_q8_rows *a, uint8_t *dst)
{
    const __m512i flip = _mm512_set1_epi32((int)a->flip);
    for (size_t i = 0; i < mr; i++) {
        const uint8_t *src = a->base + i * a->row;
        uint8_t *d = dst + i * QROW;
        if (a->group == 4) {
            for (size_t g = 0; g < kq; g += 16) {
                __mmask16 m = kq - g >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (kq - g)) - 1u);
                __m512i w = _mm512_maskz_loadu_epi32(m, src + 4 * g);
                _mm512_mask_storeu_epi32(d + 4 * g, m, _mm512_xor_si512(w, flip));
            }
        } else {
            for (size_t g = 0; g < kq; g++) {
                uint32_t w;
                memcpy(&w, src + g * a->group, 4);
                w ^= a->flip;
                memcpy(d + 4 * g, &w, 4);
            }
        }
    }
}

/* Whether some column of e's panel shifts left (multipliers above 1). */
static bool panel_left(const nn_qgemm_epilogue *e)
{
    if (e->prepared)
        return ((const fused_consts *)e->prepared)->left;
    for (size_t j = 0; j < e->cols; j++)
        if (e->shift[j] > 0)
            return true;
    return false;
}

/* qfused for the panels q < panels of one row tile (B at b + q * b_stride,
 * C at column q * NR, output stage e[q]), A from copy_a's copy: one call
 * per row tile rather than one per panel, whose setup cost as much as the
 * dot products of a panel at k <= 32. */
static inline __attribute__((always_inline)) void
qpanels(const size_t MR, const nn_rounding ROUNDING, size_t kq, const nn_q8_rows *a,
        const int32_t *b, size_t b_stride, size_t panels, const nn_qgemm_epilogue *e, uint8_t *c,
        size_t ldc)
{
    for (size_t q = 0; q < panels; q++) {
        if (panel_left(&e[q]))
            nn_qgemm_fused_avx512(MR, kq, a, b + q * b_stride, NULL, &e[q], c + q * NN_GEMM_NR, ldc);
        else
            qfused(MR, false, true, ROUNDING, kq, a, b + q * b_stride, NULL, &e[q],
                   c + q * NN_GEMM_NR, ldc);
    }
}

void nn_qgemm_fused_panels_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                  size_t b_stride, size_t panels, const nn_qgemm_epilogue *e,
                                  uint8_t *c, size_t ldc)
{
    /* Tiles of 9 to 16 rows (gemm.c's equal heights give those but for
     * products of a few rows) and the GEMM operations' rounding: each
     * instantiation of the unrolled kernel costs GCC's ASan build seconds. */
    const bool inlined = mr > 8 && e->rounding == NN_ROUND_UP;
    if (panels == 1 || kq > 256 || !inlined) {
        /* One panel reads A once anyway. */
        for (size_t q = 0; q < panels; q++)
            nn_qgemm_fused_avx512(mr, kq, a, b + q * b_stride, NULL, &e[q], c + q * NN_GEMM_NR, ldc);
        return;
    }
    _Alignas(64) uint8_t copy[NN_QGEMM_MR_AVX512 * QROW];
    copy_a(mr, kq, a, copy);
    const nn_q8_rows packed = {copy, QROW, 4, 0};
    switch (mr) {
#define CASE(n) \
    case n: qpanels(n, NN_ROUND_UP, kq, &packed, b, b_stride, panels, e, c, ldc); break;
        CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
#undef CASE
    default: break;
    }
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
