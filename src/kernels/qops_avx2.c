/* AVX2 quantized lookup and pooling kernels (qops.h), 32 bytes at a time. */
#include <immintrin.h>
#include <string.h>

#include "kernels/qops.h"

/* 256 entries as 16 vpshufb tables of 16: the high nibble picks the table
 * (a compare and a blend each), the low nibble the entry. */
static inline __attribute__((always_inline)) __m256i lookup32(const __m256i tables[16], __m256i x)
{
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    __m256i lo = _mm256_and_si256(x, nibble);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    __m256i r = _mm256_setzero_si256();
#pragma GCC unroll 16
    for (int h = 0; h < 16; h++)
        r = _mm256_blendv_epi8(r, _mm256_shuffle_epi8(tables[h], lo),
                               _mm256_cmpeq_epi8(hi, _mm256_set1_epi8((char)h)));
    return r;
}

void nn_q8_lookup_avx2(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n)
{
    __m256i tables[16];
    for (int h = 0; h < 16; h++)
        tables[h] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(table + 16 * h)));
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(in + i));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), lookup32(tables, x));
    }
    if (i < n) {
        uint8_t buf[32] = {0};
        memcpy(buf, in + i, n - i);
        __m256i r = lookup32(tables, _mm256_loadu_si256((const __m256i *)(const void *)buf));
        _mm256_storeu_si256((__m256i *)(void *)buf, r);
        memcpy(out + i, buf, n - i);
    }
}

/* Up to 32 channels' bytes from p (n of them; the rest zero). */
static inline __m256i load_bytes(const uint8_t *p, size_t n)
{
    if (n == 32)
        return _mm256_loadu_si256((const __m256i *)(const void *)p);
    uint8_t buf[32] = {0};
    memcpy(buf, p, n);
    return _mm256_loadu_si256((const __m256i *)(const void *)buf);
}

static inline void store_bytes(uint8_t *p, __m256i v, size_t n)
{
    if (n == 32) {
        _mm256_storeu_si256((__m256i *)(void *)p, v);
        return;
    }
    uint8_t buf[32];
    _mm256_storeu_si256((__m256i *)(void *)buf, v);
    memcpy(p, buf, n);
}

void nn_q8_pool_max_avx2(const nn_q8_window *w, uint8_t *out)
{
    const bool sgn = w->is_signed;
    const bool empty = w->rows == 0 || w->cols == 0;
    /* Bytes compare in their own order: signed for int8, unsigned for uint8. */
    const __m256i lo = _mm256_set1_epi8((char)w->lo), hi = _mm256_set1_epi8((char)w->hi);
    for (size_t c = 0; c < w->nc; c += 32) {
        size_t n = w->nc - c < 32 ? w->nc - c : 32;
        __m256i m = _mm256_setzero_si256();
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++) {
                __m256i v = load_bytes(w->in + y * w->row_step + x * w->col_step + c, n);
                m = (y | x) == 0 ? v : (sgn ? _mm256_max_epi8(m, v) : _mm256_max_epu8(m, v));
            }
        if (empty)
            m = _mm256_setzero_si256();
        m = sgn ? _mm256_min_epi8(_mm256_max_epi8(m, lo), hi)
                : _mm256_min_epu8(_mm256_max_epu8(m, lo), hi);
        store_bytes(out + c, m, n);
    }
}

/* round-half-away(sum / cnt) for 8 int32 sums, by a float division that
 * is exact here (qops.h), then clamped. */
static inline __m256i average8(__m256i sum, __m256i half, __m256 cnt, __m256i lo, __m256i hi)
{
    __m256i mag = _mm256_add_epi32(_mm256_abs_epi32(sum), half);
    __m256i q = _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(mag), cnt));
    q = _mm256_sign_epi32(q, sum);
    return _mm256_min_epi32(_mm256_max_epi32(q, lo), hi);
}

void nn_q8_pool_avg_avx2(const nn_q8_window *w, uint8_t *out)
{
    const bool sgn = w->is_signed;
    const int32_t count = (int32_t)(w->rows * w->cols);
    const __m256i half = _mm256_set1_epi32(count / 2);
    const __m256 cnt = _mm256_set1_ps((float)(count ? count : 1));
    const __m256i lo = _mm256_set1_epi32(w->lo), hi = _mm256_set1_epi32(w->hi);
    for (size_t c = 0; c < w->nc; c += 32) {
        size_t n = w->nc - c < 32 ? w->nc - c : 32;
        __m256i s[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                        _mm256_setzero_si256()};
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++) {
                __m256i v = load_bytes(w->in + y * w->row_step + x * w->col_step + c, n);
                __m128i b0 = _mm256_castsi256_si128(v), b1 = _mm256_extracti128_si256(v, 1);
                __m128i q[4] = {b0, _mm_srli_si128(b0, 8), b1, _mm_srli_si128(b1, 8)};
#pragma GCC unroll 4
                for (int k = 0; k < 4; k++)
                    s[k] = _mm256_add_epi32(s[k], sgn ? _mm256_cvtepi8_epi32(q[k]) : _mm256_cvtepu8_epi32(q[k]));
            }
        __m256i r[4];
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++)
            r[k] = count ? average8(s[k], half, cnt, lo, hi)
                         : _mm256_min_epi32(_mm256_max_epi32(_mm256_setzero_si256(), lo), hi);
        /* The values are within the 8-bit range: the saturating packs keep
         * them; the permutes undo the packs' per-lane order. */
        __m256i w01 = _mm256_permute4x64_epi64(_mm256_packs_epi32(r[0], r[1]), 0xd8);
        __m256i w23 = _mm256_permute4x64_epi64(_mm256_packs_epi32(r[2], r[3]), 0xd8);
        __m256i b = sgn ? _mm256_packs_epi16(w01, w23) : _mm256_packus_epi16(w01, w23);
        store_bytes(out + c, _mm256_permute4x64_epi64(b, 0xd8), n);
    }
}

/* Up to 8 bytes at p as int32 lanes (the rest 0). */
static inline __attribute__((always_inline)) __m256i widen8(const uint8_t *p, size_t n, bool sgn)
{
    __m128i b;
    if (n >= 8) {
        b = _mm_loadl_epi64((const __m128i *)(const void *)p);
    } else {
        uint8_t buf[8] = {0};
        memcpy(buf, p, n);
        b = _mm_loadl_epi64((const __m128i *)(const void *)buf);
    }
    return sgn ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}

/* 8 channels at a time; separate multiplies and adds in the portable
 * loop's order (the file is built without contraction). */
void nn_q8_resize_bilinear_avx2(const nn_q8_bilinear *b, uint8_t *out)
{
    const bool sgn = b->is_signed;
    const __m256 w00 = _mm256_set1_ps(b->w00), w01 = _mm256_set1_ps(b->w01);
    const __m256 w10 = _mm256_set1_ps(b->w10), w11 = _mm256_set1_ps(b->w11);
    const __m256 lo = _mm256_set1_ps(sgn ? -128.0f : 0.0f), hi = _mm256_set1_ps(sgn ? 127.0f : 255.0f);
    for (size_t c = 0; c < b->nc; c += 8) {
        size_t n = b->nc - c < 8 ? b->nc - c : 8;
        __m256 v = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(widen8(b->p00 + c, n, sgn)), w00),
                                 _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(b->p10 + c, n, sgn)), w10));
        v = _mm256_add_ps(v, _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(b->p01 + c, n, sgn)), w01));
        v = _mm256_add_ps(v, _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(b->p11 + c, n, sgn)), w11));
        __m256i q = _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(v, lo), hi));
        /* In the type's range already: the saturating packs keep the values. */
        __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
        w = sgn ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
        if (n == 8) {
            _mm_storel_epi64((__m128i *)(void *)(out + c), w);
        } else {
            uint8_t buf[16];
            _mm_storeu_si128((__m128i *)(void *)buf, w);
            memcpy(out + c, buf, n);
        }
    }
}

void nn_q8_accumulate_avx2(const uint8_t *in, bool is_signed, int32_t *acc, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(acc + i));
        _mm256_storeu_si256((__m256i *)(void *)(acc + i), _mm256_add_epi32(a, widen8(in + i, 8, is_signed)));
    }
    for (; i < n; i++)
        acc[i] += is_signed ? (int8_t)in[i] : in[i];
}

/* Sums of absolute differences from zero add the bytes in 64-bit lanes;
 * int8 bytes are first made uint8 (x ^ 0x80 = x + 128). */
int64_t nn_q8_sum_avx2(const uint8_t *in, bool is_signed, size_t n)
{
    const __m256i flip = _mm256_set1_epi8(is_signed ? (char)0x80 : 0);
    __m256i s = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(in + i)), flip);
        s = _mm256_add_epi64(s, _mm256_sad_epu8(b, _mm256_setzero_si256()));
    }
    int64_t sum = _mm256_extract_epi64(s, 0) + _mm256_extract_epi64(s, 1) + _mm256_extract_epi64(s, 2) +
                  _mm256_extract_epi64(s, 3) - (is_signed ? 128 * (int64_t)i : 0);
    for (; i < n; i++)
        sum += is_signed ? (int8_t)in[i] : in[i];
    return sum;
}

int32_t nn_q8_max_avx2(const uint8_t *in, bool is_signed, size_t n)
{
    /* int8 bytes made uint8 (x ^ 0x80 = x + 128) keep their order. */
    const __m256i flip = _mm256_set1_epi8(is_signed ? (char)0x80 : 0);
    __m256i m = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        m = _mm256_max_epu8(m, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(in + i)), flip));
    uint8_t b[32];
    _mm256_storeu_si256((__m256i *)(void *)b, m);
    int32_t best = 0;
    for (int j = 0; j < 32; j++)
        best = b[j] > best ? b[j] : best;
    for (; i < n; i++) {
        int32_t v = in[i] ^ (is_signed ? 0x80 : 0);
        best = v > best ? v : best;
    }
    return is_signed ? best - 128 : best;
}

/* round(p) for p >= 0 (ties away from zero, as roundf): the truncation plus
 * one where the fraction, exact in float32, is at least one half. */
static inline __m256i round_away_nonneg(__m256 p)
{
    __m256 t = _mm256_round_ps(p, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m256i up = _mm256_castps_si256(_mm256_cmp_ps(_mm256_sub_ps(p, t), _mm256_set1_ps(0.5f), _CMP_GE_OQ));
    /* up is -1 where the fraction rounds up */
    return _mm256_sub_epi32(_mm256_cvttps_epi32(t), up);
}

void nn_q8_softmax_out_avx2(const float *e, float inv, const uint8_t *in, bool is_signed,
                            int32_t out_zero, uint8_t *out, size_t n)
{
    const __m256 vinv = _mm256_set1_ps(inv), most = _mm256_set1_ps(512.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i zero = _mm256_set1_epi32(out_zero);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i raw = _mm_loadl_epi64((const __m128i *)(const void *)(in + i));
        __m256i x = is_signed ? _mm256_cvtepi8_epi32(raw) : _mm256_cvtepu8_epi32(raw);
        __m256 p = _mm256_min_ps(_mm256_mul_ps(_mm256_i32gather_ps(e, x, 4), vinv), most);
        __m256i q = is_signed ? _mm256_add_epi32(round_away_nonneg(p), zero)
                              : _mm256_cvttps_epi32(_mm256_add_ps(p, half));
        /* The saturating packs are the clamps to the type's range. */
        __m256i w = _mm256_packs_epi32(q, q);
        __m128i w16 = _mm_unpacklo_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        __m128i b = is_signed ? _mm_packs_epi16(w16, w16) : _mm_packus_epi16(w16, w16);
        _mm_storel_epi64((__m128i *)(void *)(out + i), b);
    }
    if (i < n)
        nn_q8_softmax_out_c(e, inv, in + i, is_signed, out_zero, out + i, n - i);
}
