/* AVX2 depthwise tiles: 8 channels per vector, one accumulator per pixel
 * (the pixels' multiply-add chains overlap and share each filter load);
 * channels past the last full vector go to the portable tile. Then the
 * quantized 3x3 runs (nn_dw_q8_run_fn). */
#include <immintrin.h>

#include "kernels/depthwise_internal.h"
#include "kernels/quant_x86.h"

/* The channels [done, nc) of a tile, by the portable kernels. */
static nn_dw_tile tail_of(const nn_dw_tile *t, size_t done)
{
    nn_dw_tile r = *t;
    r.nc = t->nc - done;
    return r;
}

/* PX pixels by CV vectors of 8 channels from channel c: PX * CV
 * accumulators. TAPS: 0, the tile's rectangle of taps; 3, a 3x3 one, its
 * loops unrolled. STRIDE: 0, pixels t->in_px apart; 1 or 2, that many
 * filter columns apart, so that the pixels' shared input columns are
 * loaded once. */
static inline __attribute__((always_inline)) void
f32_block(const int PX, const int CV, const int TAPS, const int STRIDE, const nn_dw_tile *t,
          size_t c, const float *in, const float *f, const float *bias, __m256 vlo, __m256 vhi,
          float *out)
{
    const size_t rows = TAPS ? (size_t)TAPS : t->rows, cols = TAPS ? (size_t)TAPS : t->cols;
    __m256 acc[NN_DW_PX_MAX];
#pragma GCC unroll 4
    for (int v = 0; v < CV; v++) {
        const __m256 b = bias ? _mm256_loadu_ps(bias + c + 8 * v) : _mm256_setzero_ps();
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++)
            acc[p * CV + v] = b;
    }
#pragma GCC unroll 3
    for (size_t r = 0; r < rows; r++) {
        const float *ir = in + r * t->in_row + c, *fr = f + r * t->f_row + c;
#pragma GCC unroll 3
        for (size_t j = 0; j < cols; j++) {
#pragma GCC unroll 4
            for (int v = 0; v < CV; v++) {
                const __m256 fv = _mm256_loadu_ps(fr + j * t->f_col + 8 * v);
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++) {
                    const float *x = STRIDE ? ir + (STRIDE * (size_t)p + j) * t->in_col
                                            : ir + j * t->in_col + p * t->in_px;
                    acc[p * CV + v] = _mm256_fmadd_ps(_mm256_loadu_ps(x + 8 * v), fv,
                                                      acc[p * CV + v]);
                }
            }
        }
    }
#pragma GCC unroll 4
    for (int v = 0; v < CV; v++)
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++)
            _mm256_storeu_ps(out + p * t->out_px + c + 8 * v,
                             _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc[p * CV + v])));
}

/* Channels [0, nv): tiles of fewer pixels take more vectors of channels at
 * once, for at least 4 independent multiply-add chains. */
static inline __attribute__((always_inline)) void f32_blocks(const int PX, const int TAPS,
                                                             const int STRIDE, const nn_dw_tile *t,
                                                             size_t nv, const float *in,
                                                             const float *f, const float *bias,
                                                             float lo, float hi, float *out)
{
    const int WIDE = PX >= 8 ? 1 : PX >= 4 ? 2 : 4;
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    size_t c = 0;
    for (; c + 8 * (size_t)WIDE <= nv; c += 8 * (size_t)WIDE)
        f32_block(PX, WIDE, TAPS, STRIDE, t, c, in, f, bias, vlo, vhi, out);
    for (; c < nv; c += 8)
        f32_block(PX, 1, TAPS, STRIDE, t, c, in, f, bias, vlo, vhi, out);
}

static inline __attribute__((always_inline)) void f32_tile(const int PX, const nn_dw_tile *t,
                                                           size_t nv, const float *in,
                                                           const float *f, const float *bias,
                                                           float lo, float hi, float *out)
{
    const bool k3 = t->rows == 3 && t->cols == 3;
    if (k3 && t->in_px == t->in_col)
        f32_blocks(PX, 3, 1, t, nv, in, f, bias, lo, hi, out);
    else if (k3 && t->in_px == 2 * t->in_col)
        f32_blocks(PX, 3, 2, t, nv, in, f, bias, lo, hi, out);
    else
        f32_blocks(PX, 0, 0, t, nv, in, f, bias, lo, hi, out);
}

void nn_dw_tile_f32_avx2(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out)
{
    size_t nv = t->nc & ~(size_t)7;
    switch (px) {
    case 8:
        f32_tile(8, t, nv, in, f, bias, lo, hi, out);
        break;
    case 4:
        f32_tile(4, t, nv, in, f, bias, lo, hi, out);
        break;
    case 2:
        f32_tile(2, t, nv, in, f, bias, lo, hi, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            f32_tile(1, t, nv, in + p * t->in_px, f, bias, lo, hi, out + p * t->out_px);
    }
    if (nv < t->nc) {
        nn_dw_tile r = tail_of(t, nv);
        nn_dw_tile_f32_c(&r, px, in + nv, f + nv, bias ? bias + nv : NULL, lo, hi, out + nv);
    }
}

static inline __attribute__((always_inline)) __m256i load_q8(const bool SIGNED, const uint8_t *p)
{
    __m128i raw = _mm_loadl_epi64((const __m128i *)(const void *)p);
    return SIGNED ? _mm256_cvtepi8_epi32(raw) : _mm256_cvtepu8_epi32(raw);
}

/* 8 clamped int32 lanes (within the 8-bit range) to 8 bytes at p. */
static inline void store8(uint8_t *p, __m256i v, bool out_signed)
{
    __m256i w = _mm256_packs_epi32(v, v);
    __m128i a = _mm256_castsi256_si128(w), b = _mm256_extracti128_si256(w, 1);
    __m128i bytes = out_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
    /* bytes: lanes 0-3 of a, 0-3 of a again, then those of b. */
    _mm_storel_epi64((__m128i *)(void *)p, _mm_unpacklo_epi32(bytes, _mm_srli_si128(bytes, 8)));
}

/* The input zero point is taken out once per vector at the end:
 * sum (x - z) f = sum x f - z sum f, exact in 32 bits for the taps allowed. */
static inline __attribute__((always_inline)) void q8_tile(const int PX, const bool SIGNED,
                                                          const nn_dw_tile *t, size_t nv,
                                                          const uint8_t *in, int32_t in_zero,
                                                          const int32_t *f, const nn_dw_out *o,
                                                          uint8_t *out)
{
    const __m256i zin = _mm256_set1_epi32(in_zero);
    const __m256i oz = _mm256_set1_epi32(o->out_zero);
    const __m256i lo = _mm256_set1_epi32(o->lo), hi = _mm256_set1_epi32(o->hi);
    const bool out_signed = o->lo < 0;
    for (size_t c = 0; c < nv; c += 8) {
        __m256i acc[NN_DW_PX_MAX], fsum = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++)
            acc[p] = _mm256_setzero_si256();
        for (size_t r = 0; r < t->rows; r++) {
            const uint8_t *ir = in + r * t->in_row + c;
            const int32_t *fr = f + r * t->f_row + c;
            for (size_t j = 0; j < t->cols; j++) {
                const __m256i fv = _mm256_loadu_si256((const __m256i *)(const void *)(fr + j * t->f_col));
                fsum = _mm256_add_epi32(fsum, fv);
                const uint8_t *ij = ir + j * t->in_col;
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++)
                    acc[p] = _mm256_add_epi32(acc[p], _mm256_mullo_epi32(load_q8(SIGNED, ij + p * t->in_px), fv));
            }
        }
        __m256i base = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(o->bias + c)),
                                        _mm256_mullo_epi32(fsum, zin));
        const nn_rq_avx2 rq = nn_rq_avx2_init(
            _mm256_loadu_si256((const __m256i *)(const void *)(o->mult + c)),
            _mm256_loadu_si256((const __m256i *)(const void *)(o->shift + c)), NN_DW_ROUNDING);
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            __m256i x = nn_rq_avx2_output(&rq, _mm256_add_epi32(acc[p], base), oz, lo, hi);
            store8(out + p * t->out_px + c, x, out_signed);
        }
    }
}

static inline __attribute__((always_inline)) void q8_tiles(const bool SIGNED, const nn_dw_tile *t,
                                                           size_t px, size_t nv, const uint8_t *in,
                                                           int32_t in_zero, const int32_t *f,
                                                           const nn_dw_out *o, uint8_t *out)
{
    switch (px) {
    case 8:
        q8_tile(8, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    case 4:
        q8_tile(4, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    case 2:
        q8_tile(2, SIGNED, t, nv, in, in_zero, f, o, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            q8_tile(1, SIGNED, t, nv, in + p * t->in_px, in_zero, f, o, out + p * t->out_px);
    }
}

void nn_dw_tile_q8_avx2(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    size_t nv = t->nc & ~(size_t)7;
    if (in_signed)
        q8_tiles(true, t, px, nv, in, in_zero, f, o, out);
    else
        q8_tiles(false, t, px, nv, in, in_zero, f, o, out);
    if (nv < t->nc) {
        nn_dw_tile r = tail_of(t, nv);
        nn_dw_out tail = {o->bias + nv, o->mult + nv, o->shift + nv, o->out_zero, o->lo, o->hi};
        nn_dw_tile_q8_c(&r, px, in + nv, in_signed, in_zero, f + nv, &tail, out + nv);
    }
}

/* ---- runs (nn_dw_q8_run_fn) ---- */

/* 4 pixels' 8 channels of zero + requant (unclamped) to bytes, clamped to
 * [lo, hi] (inside the range the packs saturate to: signed bytes when
 * lo < 0, which only int8 has): pixel p's 8 bytes are the p-th 64 bits. */
static inline __attribute__((always_inline)) __m256i bytes4(bool out_signed, __m256i a, __m256i b,
                                                            __m256i c, __m256i d, __m256i lo,
                                                            __m256i hi)
{
    __m256i w = out_signed ? _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d))
                           : _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
    w = out_signed ? _mm256_min_epi8(_mm256_max_epi8(w, lo), hi)
                   : _mm256_min_epu8(_mm256_max_epu8(w, lo), hi);
    /* 128-bit lane l held channels 4l..4l+3 of a, b, c, d in turn. */
    return _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

static inline void store_lo(uint8_t *p, __m128i v) { _mm_storel_epi64((__m128i *)(void *)p, v); }
static inline void store_hi(uint8_t *p, __m128i v)
{
    _mm_storeh_pi((__m64 *)(void *)p, _mm_castsi128_ps(v));
}

/* 8 channels of two input rows (a second one row apart) interleaved: in
 * each 32-bit lane the first row's value in the low 16 bits, the second's
 * in the high ones. */
static inline __attribute__((always_inline)) __m256i load_pair_q8(const bool SIGNED,
                                                                  const uint8_t *p, size_t row)
{
    __m128i v = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)p),
                                  _mm_loadl_epi64((const __m128i *)(const void *)(p + row)));
    return SIGNED ? _mm256_cvtepi8_epi16(v) : _mm256_cvtepu8_epi16(v);
}

/* One input row (ir: the first pixel's column 1) into PX pixels'
 * accumulators by the filter columns fc, or with PAIR two rows at once
 * against filter columns holding both rows' values (16 bits each): each
 * input column is widened once and multiplied into every pixel it
 * reaches, one 16-bit multiply-add pair per product (or per two with
 * PAIR). With lead, the first pixel's column 0 lies outside the input,
 * with trail the last pixel's column 2: they read z, the input zero point
 * in the layout of the rest. */
static inline __attribute__((always_inline)) void
run_cols(const int PX, const int S, const bool SIGNED, const bool PAIR, bool lead, bool trail,
         const nn_dw_tile *t, const uint8_t *ir, __m256i z, const __m256i *fc, __m256i *acc)
{
    const int last = S * (PX - 1) + 2;
#pragma GCC unroll 9
    for (int q = 0; q <= last; q++) {
        __m256i x;
        if ((q == 0 && lead) || (q == last && trail)) {
            x = z;
        } else {
            const uint8_t *p = q == 0 ? ir - t->in_col : ir + (size_t)(q - 1) * t->in_col;
            x = PAIR ? load_pair_q8(SIGNED, p, t->in_row) : load_q8(SIGNED, p);
        }
#pragma GCC unroll 3
        for (int j = 0; j < 3; j++) {
            const int p = (q - j) / S;
            if (q >= j && (q - j) % S == 0 && p < PX)
                acc[p] = _mm256_add_epi32(acc[p], _mm256_madd_epi16(x, fc[j]));
        }
    }
}

/* PX (4, 2 or 1) pixels of 8 channels over ROWS filter rows, S input
 * columns apart (run_cols), rows 0 and 1 in pairs: fv holds rows 0 and 1
 * paired (filter columns 0 to 2), then row 2. zin is the input zero point
 * in 32 bits, zpair in both 16-bit halves. */
static inline __attribute__((always_inline)) void
run_chunk(const int PX, const int S, const int ROWS, const bool SIGNED, bool lead, bool trail,
          const nn_dw_tile *t, const uint8_t *in1, __m256i zin, __m256i zpair, const __m256i *fv,
          __m256i bias, const nn_rq_avx2 *rq, bool out_signed, __m256i lo, __m256i hi,
          __m256i blo, __m256i bhi, uint8_t *out)
{
    __m256i acc[4];
#pragma GCC unroll 4
    for (int p = 0; p < PX; p++)
        acc[p] = bias;
    if (ROWS == 1) {
        run_cols(PX, S, SIGNED, false, lead, trail, t, in1, zin, fv, acc);
    } else {
        run_cols(PX, S, SIGNED, true, lead, trail, t, in1, zpair, fv, acc);
        if (ROWS == 3)
            run_cols(PX, S, SIGNED, false, lead, trail, t, in1 + 2 * t->in_row, zin, fv + 6, acc);
    }
    if (PX == 1) {
        __m256i v = _mm256_min_epi32(_mm256_max_epi32(nn_rq_avx2_apply(rq, acc[0]), lo), hi);
        store8(out, v, out_signed);
        return;
    }
    if (PX == 2) {
        __m256i v0 = nn_rq_avx2_apply(rq, acc[0]), v1 = nn_rq_avx2_apply(rq, acc[1]);
        __m128i ab = _mm256_castsi256_si128(bytes4(out_signed, v0, v1, v0, v1, blo, bhi));
        store_lo(out, ab);
        store_hi(out + t->out_px, ab);
        return;
    }
    __m256i w = bytes4(out_signed, nn_rq_avx2_apply(rq, acc[0]), nn_rq_avx2_apply(rq, acc[1]),
                       nn_rq_avx2_apply(rq, acc[2]), nn_rq_avx2_apply(rq, acc[3]), blo, bhi);
    __m128i ab = _mm256_castsi256_si128(w), cd = _mm256_extracti128_si256(w, 1);
    store_lo(out, ab);
    store_hi(out + t->out_px, ab);
    store_lo(out + 2 * t->out_px, cd);
    store_hi(out + 3 * t->out_px, cd);
}

static inline __attribute__((always_inline)) void
run_all(const int S, const int ROWS, const bool SIGNED, const nn_dw_tile *t, const nn_dw_run *run,
        size_t nv, const uint8_t *in, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
        uint8_t *out)
{
    const size_t px = run->px;
    const bool lead = run->lead, trail = run->trail;
    const __m256i zin = _mm256_set1_epi32(in_zero), zpair = _mm256_set1_epi16((short)in_zero);
    const __m256i lo = _mm256_set1_epi32(o->lo), hi = _mm256_set1_epi32(o->hi);
    const __m256i blo = _mm256_set1_epi8((char)o->lo), bhi = _mm256_set1_epi8((char)o->hi);
    const bool out_signed = o->lo < 0;
    const size_t step = (size_t)S * t->in_col;
    for (size_t c = 0; c < nv; c += 8) {
        __m256i fv[9];
#pragma GCC unroll 3
        for (int r = 0; r < ROWS; r++)
#pragma GCC unroll 3
            for (int j = 0; j < 3; j++)
                fv[r * 3 + j] = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(f + (size_t)r * t->f_row + (size_t)j * t->f_col + c));
        /* Rows 0 and 1 paired: row 1's 16 bits above row 0's. */
        if (ROWS >= 2)
#pragma GCC unroll 3
            for (int j = 0; j < 3; j++)
                fv[j] = _mm256_or_si256(fv[j], _mm256_slli_epi32(fv[3 + j], 16));
        const __m256i bias = _mm256_loadu_si256((const __m256i *)(const void *)(o->bias + c));
        nn_rq_avx2 rq = nn_rq_avx2_init(_mm256_loadu_si256((const __m256i *)(const void *)(o->mult + c)),
                                        _mm256_loadu_si256((const __m256i *)(const void *)(o->shift + c)),
                                        NN_DW_ROUNDING);
        nn_rq_avx2_fold(&rq, o->out_zero);
        for (size_t y = 0; y < run->rows_out; y++) {
            /* The first pixel's column 1: in itself with lead. */
            const uint8_t *in1 = in + y * run->in_step + c + (lead ? 0 : t->in_col);
            uint8_t *orow = out + y * run->out_step + c;
            for (size_t p = 0; p < px;) {
                const size_t n = px - p;
                const bool l = lead && p == 0;
                const uint8_t *ip = in1 + p * step;
                uint8_t *op = orow + p * t->out_px;
#define CHUNK(PX) \
    run_chunk(PX, S, ROWS, SIGNED, l, trail && n == PX, t, ip, zin, zpair, fv, bias, &rq, out_signed, \
              lo, hi, blo, bhi, op)
                if (n >= 4) {
                    CHUNK(4);
                    p += 4;
                } else if (n >= 2) {
                    CHUNK(2);
                    p += 2;
                } else {
                    CHUNK(1);
                    p += 1;
                }
#undef CHUNK
            }
        }
    }
}

static inline __attribute__((always_inline)) void
run_rows(const int S, const bool SIGNED, const nn_dw_tile *t, const nn_dw_run *run, size_t nv,
         const uint8_t *in, int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    switch (t->rows) {
    case 3:
        run_all(S, 3, SIGNED, t, run, nv, in, in_zero, f, o, out);
        break;
    case 2:
        run_all(S, 2, SIGNED, t, run, nv, in, in_zero, f, o, out);
        break;
    default:
        run_all(S, 1, SIGNED, t, run, nv, in, in_zero, f, o, out);
    }
}

void nn_dw_run_q8_avx2(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                       bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                       uint8_t *out)
{
    size_t nv = t->nc & ~(size_t)7;
    const bool two = t->in_px != t->in_col;
    if (in_signed && two)
        run_rows(2, true, t, run, nv, in, in_zero, f, o, out);
    else if (in_signed)
        run_rows(1, true, t, run, nv, in, in_zero, f, o, out);
    else if (two)
        run_rows(2, false, t, run, nv, in, in_zero, f, o, out);
    else
        run_rows(1, false, t, run, nv, in, in_zero, f, o, out);
    if (nv < t->nc) {
        nn_dw_tile r = tail_of(t, nv);
        nn_dw_out tail = {o->bias + nv, o->mult + nv, o->shift + nv, o->out_zero, o->lo, o->hi};
        nn_dw_run_q8_c(&r, run, in + nv, in_signed, in_zero, f + nv, &tail, out + nv);
    }
}
