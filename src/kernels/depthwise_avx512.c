/* AVX-512 depthwise tiles: 16 channels per vector, one accumulator per
 * pixel so the pixels' multiply-add chains overlap and share each filter
 * load. Then the quantized 3x3 runs (nn_dw_q8_run_fn), on VNNI's vpdpwssd. */
#include <immintrin.h>

#include "kernels/depthwise_internal.h"
#include "kernels/quant_x86.h"

static inline __mmask16 lanes(size_t n)
{
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* PX pixels by CV vectors of channels from channel c: PX * CV accumulators.
 * TAPS: 0, the tile's rectangle of taps; 3, a 3x3 one, its loops unrolled.
 * STRIDE: 0, pixels t->in_px apart; 1 or 2, that many filter columns apart,
 * so that the pixels' shared input columns are loaded once. */
static inline __attribute__((always_inline)) void f32_block(const int PX, const int CV,
                                                            const int TAPS, const int STRIDE,
                                                            const nn_dw_tile *t,
                                                            size_t c, __mmask16 k, const float *in,
                                                            const float *f, const float *bias,
                                                            __m512 vlo, __m512 vhi, float *out)
{
    const size_t rows = TAPS ? (size_t)TAPS : t->rows, cols = TAPS ? (size_t)TAPS : t->cols;
    __m512 acc[NN_DW_PX_MAX * 2];
#pragma GCC unroll 4
    for (int v = 0; v < CV; v++) {
        const __m512 b = bias ? _mm512_maskz_loadu_ps(k, bias + c + 16 * v) : _mm512_setzero_ps();
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
                const __m512 fv = _mm512_maskz_loadu_ps(k, fr + j * t->f_col + 16 * v);
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++) {
                    const float *x = STRIDE ? ir + (STRIDE * (size_t)p + j) * t->in_col
                                            : ir + j * t->in_col + p * t->in_px;
                    acc[p * CV + v] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, x + 16 * v), fv,
                                                      acc[p * CV + v]);
                }
            }
        }
    }
#pragma GCC unroll 4
    for (int v = 0; v < CV; v++)
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++)
            _mm512_mask_storeu_ps(out + p * t->out_px + c + 16 * v, k,
                                  _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc[p * CV + v])));
}

/* A tile over all its channels, in blocks of PX pixels by 1, 2 or 4 vectors. */
static inline __attribute__((always_inline)) void f32_tile(const int PX, const nn_dw_tile *t,
                                                           const float *in, const float *f,
                                                           const float *bias, float lo, float hi,
                                                           float *out)
{
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    size_t c = 0;
    const int stride = t->in_px == t->in_col ? 1 : t->in_px == 2 * t->in_col ? 2 : 0;
    /* Tiles of fewer pixels take more vectors of channels at once, for at
     * least 4 independent multiply-add chains. */
    const int WIDE = PX >= 8 ? 1 : PX >= 4 ? 2 : 4;
#define BLOCKS(TAPS, STRIDE) \
    do { \
        for (; WIDE > 1 && c + 16 * (size_t)WIDE <= t->nc; c += 16 * (size_t)WIDE) \
            f32_block(PX, WIDE, TAPS, STRIDE, t, c, (__mmask16)0xffff, in, f, bias, vlo, vhi, \
                      out); \
        for (; c < t->nc; c += 16) \
            f32_block(PX, 1, TAPS, STRIDE, t, c, lanes(t->nc - c), in, f, bias, vlo, vhi, out); \
    } while (0)
    if (t->rows == 3 && t->cols == 3 && stride == 1)
        BLOCKS(3, 1);
    else if (t->rows == 3 && t->cols == 3 && stride == 2)
        BLOCKS(3, 2);
    else
        BLOCKS(0, 0);
#undef BLOCKS
}

void nn_dw_tile_f32_avx512(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                           const float *bias, float lo, float hi, float *out)
{
    switch (px) {
    case 8:
        f32_tile(8, t, in, f, bias, lo, hi, out);
        break;
    case 4:
        f32_tile(4, t, in, f, bias, lo, hi, out);
        break;
    case 2:
        f32_tile(2, t, in, f, bias, lo, hi, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            f32_tile(1, t, in + p * t->in_px, f, bias, lo, hi, out + p * t->out_px);
    }
}

static inline __attribute__((always_inline)) __m512i load_q8(const bool SIGNED, __mmask16 k,
                                                              const uint8_t *p)
{
    __m128i raw = _mm_maskz_loadu_epi8(k, p);
    return SIGNED ? _mm512_cvtepi8_epi32(raw) : _mm512_cvtepu8_epi32(raw);
}

/* PX pixels by CV vectors of channels. The input zero point is taken out
 * once per vector at the end: sum (x - z) f = sum x f - z sum f, exact in
 * 32 bits for the taps allowed. */
static inline __attribute__((always_inline)) void q8_block(const int PX, const int CV,
                                                           const bool SIGNED, const nn_dw_tile *t,
                                                           size_t c, __mmask16 k,
                                                           const uint8_t *in, __m512i zin,
                                                           const int32_t *f, const nn_dw_out *o,
                                                           uint8_t *out)
{
    __m512i acc[NN_DW_PX_MAX * 2], fsum[2];
#pragma GCC unroll 16
    for (int i = 0; i < PX * CV; i++)
        acc[i] = _mm512_setzero_si512();
#pragma GCC unroll 2
    for (int v = 0; v < CV; v++)
        fsum[v] = _mm512_setzero_si512();
    for (size_t r = 0; r < t->rows; r++) {
        const uint8_t *ir = in + r * t->in_row + c;
        const int32_t *fr = f + r * t->f_row + c;
        for (size_t j = 0; j < t->cols; j++) {
            const uint8_t *ij = ir + j * t->in_col;
#pragma GCC unroll 2
            for (int v = 0; v < CV; v++) {
                const __m512i fv = _mm512_maskz_loadu_epi32(k, fr + j * t->f_col + 16 * v);
                fsum[v] = _mm512_add_epi32(fsum[v], fv);
#pragma GCC unroll 8
                for (int p = 0; p < PX; p++)
                    acc[p * CV + v] = _mm512_add_epi32(
                        acc[p * CV + v],
                        _mm512_mullo_epi32(load_q8(SIGNED, k, ij + p * t->in_px + 16 * v), fv));
            }
        }
    }
    const __m512i oz = _mm512_set1_epi32(o->out_zero);
    const __m512i lo = _mm512_set1_epi32(o->lo), hi = _mm512_set1_epi32(o->hi);
#pragma GCC unroll 2
    for (int v = 0; v < CV; v++) {
        size_t cv = c + 16 * (size_t)v;
        __m512i base = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(k, o->bias + cv),
                                        _mm512_mullo_epi32(fsum[v], zin));
        const nn_rq_avx512 rq = nn_rq_avx512_init(_mm512_maskz_loadu_epi32(k, o->mult + cv),
                                                  _mm512_maskz_loadu_epi32(k, o->shift + cv),
                                                  NN_DW_ROUNDING);
#pragma GCC unroll 8
        for (int p = 0; p < PX; p++) {
            __m512i x = nn_rq_avx512_output(&rq, _mm512_add_epi32(acc[p * CV + v], base), oz, lo, hi);
            _mm_mask_storeu_epi8(out + p * t->out_px + cv, k, _mm512_cvtepi32_epi8(x));
        }
    }
}

/* As f32_tile: up to 4 pixels take two vectors of channels at a time. */
static inline __attribute__((always_inline)) void q8_tile(const int PX, const bool SIGNED,
                                                          const nn_dw_tile *t, const uint8_t *in,
                                                          int32_t in_zero, const int32_t *f,
                                                          const nn_dw_out *o, uint8_t *out)
{
    const __m512i zin = _mm512_set1_epi32(in_zero);
    size_t c = 0;
    if (PX <= 4)
        for (; c + 32 <= t->nc; c += 32)
            q8_block(PX, 2, SIGNED, t, c, (__mmask16)0xffff, in, zin, f, o, out);
    for (; c < t->nc; c += 16)
        q8_block(PX, 1, SIGNED, t, c, lanes(t->nc - c), in, zin, f, o, out);
}

static inline __attribute__((always_inline)) void q8_tiles(const bool SIGNED, const nn_dw_tile *t,
                                                           size_t px, const uint8_t *in,
                                                           int32_t in_zero, const int32_t *f,
                                                           const nn_dw_out *o, uint8_t *out)
{
    switch (px) {
    case 8:
        q8_tile(8, SIGNED, t, in, in_zero, f, o, out);
        break;
    case 4:
        q8_tile(4, SIGNED, t, in, in_zero, f, o, out);
        break;
    case 2:
        q8_tile(2, SIGNED, t, in, in_zero, f, o, out);
        break;
    default:
        for (size_t p = 0; p < px; p++)
            q8_tile(1, SIGNED, t, in + p * t->in_px, in_zero, f, o, out + p * t->out_px);
    }
}

void nn_dw_tile_q8_avx512(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                          int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    if (in_signed)
        q8_tiles(true, t, px, in, in_zero, f, o, out);
    else
        q8_tiles(false, t, px, in, in_zero, f, o, out);
}

/* ---- runs (nn_dw_q8_run_fn) ---- */

/* zero + requant(acc) of one pixel's 16 channels, unclamped: with the zero
 * point folded into the rounding terms when FOLDED (every lane's shift in
 * [-NN_RQ_FOLD_MAX_RIGHT, 0]). */
static inline __attribute__((always_inline)) __m512i run_requant(const bool FOLDED,
                                                                const nn_rq_avx512 *rq,
                                                                __m512i zero, __m512i acc)
{
    return FOLDED ? nn_rq_avx512_folded(rq, false, acc)
                  : _mm512_add_epi32(nn_rq_avx512_apply(rq, acc), zero);
}

/* Bytes clamped to [lo, hi], which lies inside the range the narrowing
 * saturated to: signed bytes when lo < 0 (only int8 has such values). */
static inline __attribute__((always_inline)) __m512i clamp_bytes(bool out_signed, __m512i v,
                                                                 __m512i lo, __m512i hi)
{
    return out_signed ? _mm512_min_epi8(_mm512_max_epi8(v, lo), hi)
                      : _mm512_min_epu8(_mm512_max_epu8(v, lo), hi);
}

/* PX pixels (8, 4, 2 or 1) of 16 channels from channel c over ROWS filter
 * rows, the pixels S input columns apart: each input column is widened
 * once and multiplied into every pixel it reaches (at most 3). A product
 * takes one 16-bit multiply-add pair: the input's low 16 bits times the
 * filter value, its high 16 bits (0 or the sign) times 0. in1 is the first
 * pixel's column 1. With lead, the first pixel's column 0 lies outside the
 * input, with trail the last pixel's column 2: they read the input zero
 * point zin. */
static inline __attribute__((always_inline)) void
run_chunk(const int PX, const int S, const int ROWS, const bool SIGNED, const bool FOLDED,
          bool lead, bool trail, const nn_dw_tile *t, __mmask16 k, const uint8_t *in1,
          __m512i zin, const __m512i *fv, __m512i bias, const nn_rq_avx512 *rq, __m512i zero,
          bool out_signed, __m512i blo, __m512i bhi, __m512i lo, __m512i hi, uint8_t *out)
{
    const int last = S * (PX - 1) + 2;
    __m512i acc[8];
#pragma GCC unroll 8
    for (int p = 0; p < PX; p++)
        acc[p] = bias;
#pragma GCC unroll 3
    for (int r = 0; r < ROWS; r++) {
        const uint8_t *ir = in1 + (size_t)r * t->in_row;
#pragma GCC unroll 17
        for (int q = 0; q <= last; q++) {
            __m512i x;
            if (q == 0)
                x = lead ? zin : load_q8(SIGNED, k, ir - t->in_col);
            else if (q == last && trail)
                x = zin;
            else
                x = load_q8(SIGNED, k, ir + (size_t)(q - 1) * t->in_col);
#pragma GCC unroll 3
            for (int j = 0; j < 3; j++) {
                const int p = (q - j) / S;
                if (q >= j && (q - j) % S == 0 && p < PX)
                    acc[p] = _mm512_dpwssd_epi32(acc[p], x, fv[r * 3 + j]);
            }
        }
    }
    if (PX == 1) {
        __m512i v = _mm512_min_epi32(_mm512_max_epi32(run_requant(FOLDED, rq, zero, acc[0]), lo), hi);
        _mm_mask_storeu_epi8(out, k, _mm512_cvtepi32_epi8(v));
        return;
    }
    if (PX == 2) {
        __m512i v0 = run_requant(FOLDED, rq, zero, acc[0]), v1 = run_requant(FOLDED, rq, zero, acc[1]);
        __m512i b = clamp_bytes(out_signed, nn_narrow4_avx512(v0, v1, v0, v1, out_signed), blo, bhi);
        _mm_mask_storeu_epi8(out, k, _mm512_castsi512_si128(b));
        _mm_mask_storeu_epi8(out + t->out_px, k, _mm512_extracti32x4_epi32(b, 1));
        return;
    }
#pragma GCC unroll 2
    for (int p = 0; p < PX; p += 4) {
        __m512i b = nn_narrow4_avx512(run_requant(FOLDED, rq, zero, acc[p]),
                                      run_requant(FOLDED, rq, zero, acc[p + 1]),
                                      run_requant(FOLDED, rq, zero, acc[p + 2]),
                                      run_requant(FOLDED, rq, zero, acc[p + 3]), out_signed);
        b = clamp_bytes(out_signed, b, blo, bhi);
        _mm_mask_storeu_epi8(out + (size_t)p * t->out_px, k, _mm512_castsi512_si128(b));
        _mm_mask_storeu_epi8(out + (size_t)(p + 1) * t->out_px, k, _mm512_extracti32x4_epi32(b, 1));
        _mm_mask_storeu_epi8(out + (size_t)(p + 2) * t->out_px, k, _mm512_extracti32x4_epi32(b, 2));
        _mm_mask_storeu_epi8(out + (size_t)(p + 3) * t->out_px, k, _mm512_extracti32x4_epi32(b, 3));
    }
}

/* Every pixel of the run for the 16 channels from c: the filter and the
 * requantization constants are set up once for all its rows. */
static inline __attribute__((always_inline)) void
run_block(const int S, const int ROWS, const bool SIGNED, const bool FOLDED, const nn_dw_tile *t,
          const nn_dw_run *run, size_t c, __mmask16 k, const uint8_t *in, __m512i zin,
          const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    const size_t px = run->px;
    const bool lead = run->lead, trail = run->trail;
    __m512i fv[9];
#pragma GCC unroll 3
    for (int r = 0; r < ROWS; r++)
#pragma GCC unroll 3
        for (int j = 0; j < 3; j++)
            fv[r * 3 + j] = _mm512_maskz_loadu_epi32(k, f + (size_t)r * t->f_row + (size_t)j * t->f_col + c);
    const __m512i bias = _mm512_maskz_loadu_epi32(k, o->bias + c);
    nn_rq_avx512 rq = nn_rq_avx512_init(_mm512_maskz_loadu_epi32(k, o->mult + c),
                                        _mm512_maskz_loadu_epi32(k, o->shift + c), NN_DW_ROUNDING);
    if (FOLDED)
        nn_rq_avx512_fold(&rq, o->out_zero);
    const __m512i zero = _mm512_set1_epi32(o->out_zero);
    const __m512i lo = _mm512_set1_epi32(o->lo), hi = _mm512_set1_epi32(o->hi);
    const bool out_signed = o->lo < 0;
    const __m512i blo = _mm512_set1_epi8((char)o->lo), bhi = _mm512_set1_epi8((char)o->hi);
    const size_t step = (size_t)S * t->in_col;
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
    run_chunk(PX, S, ROWS, SIGNED, FOLDED, l, trail && n == PX, t, k, ip, zin, fv, bias, &rq, \
              zero, out_signed, blo, bhi, lo, hi, op)
            if (n >= 8) {
                CHUNK(8);
                p += 8;
            } else if (n >= 4) {
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

static inline __attribute__((always_inline)) void
run_all(const int S, const int ROWS, const bool SIGNED, const nn_dw_tile *t, const nn_dw_run *run,
        const uint8_t *in, int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    const __m512i zero = _mm512_setzero_si512(), zin = _mm512_set1_epi32(in_zero);
    const __m512i most = _mm512_set1_epi32(-NN_RQ_FOLD_MAX_RIGHT);
    for (size_t c = 0; c < t->nc; c += 16) {
        const __mmask16 k = lanes(t->nc - c);
        const __m512i sh = _mm512_maskz_loadu_epi32(k, o->shift + c);
        if (_mm512_cmpgt_epi32_mask(sh, zero) == 0 && _mm512_cmplt_epi32_mask(sh, most) == 0)
            run_block(S, ROWS, SIGNED, true, t, run, c, k, in, zin, f, o, out);
        else
            run_block(S, ROWS, SIGNED, false, t, run, c, k, in, zin, f, o, out);
    }
}

static inline __attribute__((always_inline)) void
run_rows(const int S, const bool SIGNED, const nn_dw_tile *t, const nn_dw_run *run,
         const uint8_t *in, int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    switch (t->rows) {
    case 3:
        run_all(S, 3, SIGNED, t, run, in, in_zero, f, o, out);
        break;
    case 2:
        run_all(S, 2, SIGNED, t, run, in, in_zero, f, o, out);
        break;
    default:
        run_all(S, 1, SIGNED, t, run, in, in_zero, f, o, out);
    }
}

void nn_dw_run_q8_avx512(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                         bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                         uint8_t *out)
{
    const bool two = t->in_px != t->in_col;
    if (in_signed && two)
        run_rows(2, true, t, run, in, in_zero, f, o, out);
    else if (in_signed)
        run_rows(1, true, t, run, in, in_zero, f, o, out);
    else if (two)
        run_rows(2, false, t, run, in, in_zero, f, o, out);
    else
        run_rows(1, false, t, run, in, in_zero, f, o, out);
}
