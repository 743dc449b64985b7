/*
 * The quantized GEMM (kernels/gemm.h) and depthwise (kernels/depthwise.h)
 * kernels of the ISA level in use (NNAPI_LINUX_ISA selects it; CTest runs
 * this test on every level) against an independent scalar model: 64-bit
 * sums of (a - za)(b - zb) plus bias, then TFLite's requantization written
 * out in 64-bit arithmetic (model_requant, not kernels/quant.h), the output
 * zero point and the clamp. Every output byte must be equal.
 *   - requantization edge cases through the GEMM output stages (k = 1,
 *     the bias carries the value): ties of both signs with either rounding,
 *     shifts of every size left and right, extreme multipliers, wrapping
 *     left shifts; half of them within the fused kernels' exponents;
 *   - random products: shapes around the micro-tile and panel edges and
 *     across a k block, uint8/int8 operands with any zero points, A rows
 *     read in place, packed, or padded to whole words with random bytes,
 *     per-tensor and per-channel multipliers, int32 output;
 *   - depthwise convolutions: uint8/int8, strides, padding, dilation,
 *     multipliers, per-channel shifts;
 *   - the 64 KiB pair tables of binary 8-bit operations against their row
 *     functions, for random scales, zero points and clamps;
 *   - the vector quant8 ADD/SUB/MUL rows of every level the CPU has against
 *     the portable rows: every byte pair and random rows of every length
 *     up to 100, each operand advancing or broadcast.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/depthwise.h"
#include "kernels/elementwise.h"
#include "kernels/gemm.h"
#include "kernels/isa.h"
#include "kernels/quant.h"
#include "kernels/rng.h"

static int passed, failed;

static void check(int ok, const char *what, long long got, long long want)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 20)
        fprintf(stderr, "FAIL %s: got %lld, want %lld\n", what, got, want);
}

static nn_rng rng;

static uint32_t rnd(uint32_t n) { return n ? nn_rng_u32(&rng) % n : 0; }
static int32_t rnd_range(int32_t lo, int32_t hi) { return lo + (int32_t)rnd((uint32_t)(hi - lo + 1)); }

static int64_t floor_div(int64_t n, int64_t d) /* d > 0 */
{
    int64_t q = n / d;
    return q * d > n ? q - 1 : q;
}

static int32_t wrap32(int64_t v)
{
    uint32_t u = (uint32_t)v;
    return u > INT32_MAX ? (int32_t)(u - 0x80000000u) + INT32_MIN : (int32_t)u;
}

/* x * mult * 2^(shift - 31) as TFLite computes it: x * 2^left wrapping to
 * 32 bits, the doubling high product rounded to nearest with ties upward,
 * then the division by 2^right rounded to nearest with ties up or away
 * from zero. mult < 2^31, so the high product cannot saturate. */
static int32_t model_requant(int32_t x, int32_t mult, int32_t shift, nn_rounding r)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    int32_t xs = left >= 32 ? 0 : wrap32((int64_t)((uint64_t)(uint32_t)x << left));
    int64_t high = floor_div((int64_t)xs * mult + ((int64_t)1 << 30), (int64_t)1 << 31);
    int64_t d = (int64_t)1 << right, q = floor_div(high, d), twice_rem = 2 * (high - q * d);
    if (twice_rem > d || (twice_rem == d && (r == NN_ROUND_UP || high > 0)))
        q++;
    return (int32_t)q;
}

static int32_t model_out(int64_t acc, int32_t mult, int32_t shift, nn_rounding r, int32_t zero,
                         int32_t lo, int32_t hi)
{
    int32_t v = acc > INT32_MAX ? INT32_MAX : (acc < INT32_MIN ? INT32_MIN : (int32_t)acc);
    v = wrap32((int64_t)model_requant(v, mult, shift, r) + zero);
    return v < lo ? lo : (v > hi ? hi : v);
}

static nn_rounding rnd_rounding(void) { return rnd(2) ? NN_ROUND_UP : NN_ROUND_AWAY; }

/* A random Q31 multiplier: extremes or anything in [2^30, 2^31). */
static int32_t rnd_mult(void)
{
    switch (rnd(6)) {
    case 0:
        return 1 << 30;
    case 1:
        return INT32_MAX;
    default:
        return (int32_t)((1u << 30) + rnd(1u << 30));
    }
}

/* One column per (x, mult, shift) through the fused output stage: A = 1,
 * B = 1, k = 1, bias = x - 1. */
static void requant_edges(void)
{
    enum { N = 64 };
    int32_t bias[N], mult[N], shift[N];
    uint8_t a = 1, b[N], out[N];
    int count = 0;
    for (int round = 0; round < 4000; round++) {
        /* Odd rounds keep to the exponents the fused kernels take (gemm.c
         * sends the other panels to its scalar output stage), so that both
         * stages meet the edges. */
        bool fused = round % 2;
        for (int j = 0; j < N; j++) {
            int s = fused ? rnd_range(-22, 12) : rnd_range(-31, 12);
            int right = s < 0 ? -s : 0;
            int64_t x;
            int32_t m = rnd_mult();
            if (rnd(3) == 0) {
                /* Anything, wrapping left shifts included. */
                x = (int32_t)nn_rng_u32(&rng);
            } else {
                /* Near a tie of the final shift, small enough to stay in range. */
                int64_t target = rnd_range(-300, 300);
                int64_t unit = (int64_t)1 << right;
                int64_t half = unit / 2;
                /* In double: the product would overflow 64 bits; clamped
                 * before the conversion. */
                double want = (double)(target * unit + half + rnd_range(-2, 2)) * 2147483648.0 / m;
                if (s > 0)
                    want /= (double)((int64_t)1 << s);
                if (rnd(2))
                    want = -want;
                x = want > INT32_MAX ? INT32_MAX : (want < INT32_MIN + 1 ? INT32_MIN + 1 : (int64_t)want);
            }
            if (x < INT32_MIN + 1)
                x = INT32_MIN + 1;
            bias[j] = (int32_t)(x - 1);
            mult[j] = m;
            shift[j] = s;
            b[j] = 1;
        }
        nn_q8_matrix am = {.data = &a, .ld = 1, .is_signed = false, .zero = 0};
        nn_q8_matrix bm = {.data = b, .ld = 1, .is_signed = true, .zero = 0};
        int32_t zero = rnd_range(-128, 127);
        nn_rounding r = rnd_rounding();
        nn_requant rq = {.mult = mult, .shift = shift, .rounding = r, .per_channel = true,
                         .out_zero = zero, .lo = -128, .hi = 127, .out_signed = true};
        if (nn_qgemm(1, N, 1, &am, &bm, bias, &rq, out, N) != 0) {
            check(0, "nn_qgemm edges", 1, 0);
            return;
        }
        for (int j = 0; j < N; j++) {
            int32_t want = model_out((int64_t)bias[j] + 1, mult[j], shift[j], r, zero, -128, 127);
            check((int8_t)out[j] == want, "requantization edge", (int8_t)out[j], want);
            count++;
        }
    }
    printf("requantization edge cases: %d values\n", count);
}

static int32_t elem(const uint8_t *p, size_t i, bool is_signed)
{
    return is_signed ? (int8_t)p[i] : p[i];
}

static void random_gemm(int cases)
{
    for (int t = 0; t < cases; t++) {
        size_t m = 1 + rnd(40), n = 1 + rnd(70);
        size_t k = rnd(8) == 0 ? 1000 + rnd(100) : rnd(8) == 0 ? 0 : 1 + rnd(300);
        bool as = rnd(2), bs = rnd(2), os = rnd(2), per_channel = rnd(2), i32 = rnd(6) == 0;
        int32_t za = as ? rnd_range(-128, 127) : rnd_range(0, 255);
        int32_t zb = bs ? (rnd(2) ? 0 : rnd_range(-128, 127)) : rnd_range(0, 255);
        size_t lda = k + rnd(5), ldb = k + rnd(5), ldc = n + rnd(5);
        /* Rows readable to whole words, with random bytes past k. */
        bool padded = rnd(2);
        if (padded)
            lda = ((k + 3) & ~(size_t)3) + rnd(3);
        uint8_t *a = malloc(m * lda + 1), *b = malloc(n * ldb + 1), *c = malloc(m * ldc * 4 + 1);
        int32_t *bias = malloc(n * 4), *mult = malloc(n * 4), *shift = malloc(n * 4);
        if (!a || !b || !c || !bias || !mult || !shift) {
            check(0, "allocation", 0, 1);
            return;
        }
        for (size_t i = 0; i < m * lda; i++)
            a[i] = (uint8_t)rnd(256);
        for (size_t i = 0; i < n * ldb; i++)
            b[i] = (uint8_t)rnd(256);
        for (size_t j = 0; j < n; j++) {
            bias[j] = rnd_range(-100000, 100000);
            mult[j] = rnd_mult();
            /* Mostly the shifts that bring k-sized sums to 8 bits. */
            shift[j] = rnd(10) == 0 ? rnd_range(1, 4) : rnd_range(-20, -6);
        }
        int32_t zero = os ? rnd_range(-128, 127) : rnd_range(0, 255);
        int32_t lo = os ? -128 : 0, hi = os ? 127 : 255;
        if (rnd(2)) {
            lo += (int32_t)rnd(30);
            hi -= (int32_t)rnd(30);
        }
        nn_q8_matrix am = {.data = a, .ld = lda, .is_signed = as, .zero = za, .padded = padded};
        nn_q8_matrix bm = {.data = b, .ld = ldb, .is_signed = bs, .zero = zb};
        nn_requant rq = {.mult = mult, .shift = shift, .rounding = rnd_rounding(),
                         .per_channel = per_channel, .out_zero = zero, .lo = lo, .hi = hi,
                         .out_signed = os};
        int rc = i32 ? nn_qgemm_i32(m, n, k, &am, &bm, bias, (int32_t *)c, ldc)
                     : nn_qgemm(m, n, k, &am, &bm, bias, &rq, c, ldc);
        check(rc == 0, "nn_qgemm rc", rc, 0);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                int64_t acc = bias[j];
                for (size_t p = 0; p < k; p++)
                    acc += (int64_t)(elem(a, i * lda + p, as) - za) * (elem(b, j * ldb + p, bs) - zb);
                size_t ch = per_channel ? j : 0;
                if (i32) {
                    int32_t got = ((int32_t *)c)[i * ldc + j];
                    check(got == (int32_t)acc, "int32 accumulator", got, acc);
                    continue;
                }
                int32_t want = model_out(acc, mult[ch], shift[ch], rq.rounding, zero, lo, hi);
                int32_t got = elem(c, i * ldc + j, os);
                check(got == want, "qgemm output", got, want);
            }
        free(a);
        free(b);
        free(c);
        free(bias);
        free(mult);
        free(shift);
    }
    printf("random products: %d\n", cases);
}

static void random_depthwise(int cases)
{
    for (int t = 0; t < cases; t++) {
        nn_dw_geom g = {0};
        g.n = 1 + rnd(2);
        g.in_h = 1 + rnd(20);
        g.in_w = 1 + rnd(20);
        g.in_c = 1 + rnd(70);
        g.multiplier = rnd(4) == 0 ? 1 + rnd(3) : 1;
        g.out_c = g.in_c * g.multiplier;
        g.f_h = 1 + rnd(5);
        g.f_w = 1 + rnd(5);
        g.stride_h = 1 + (int32_t)rnd(2);
        g.stride_w = 1 + (int32_t)rnd(2);
        g.dil_h = rnd(5) == 0 ? 2 : 1;
        g.dil_w = rnd(5) == 0 ? 2 : 1;
        g.pad_t = (int32_t)rnd(3);
        g.pad_l = (int32_t)rnd(3);
        int32_t eh = (int32_t)(g.f_h - 1) * g.dil_h + 1, ew = (int32_t)(g.f_w - 1) * g.dil_w + 1;
        int32_t ph = (int32_t)g.in_h + 2 * g.pad_t - eh, pw = (int32_t)g.in_w + 2 * g.pad_l - ew;
        if (ph < 0 || pw < 0) {
            t--;
            continue;
        }
        g.out_h = (uint32_t)(ph / g.stride_h + 1);
        g.out_w = (uint32_t)(pw / g.stride_w + 1);
        nn_dw_quant q = {0};
        q.in_signed = rnd(2);
        q.filter_signed = q.in_signed ? true : rnd(2);
        q.out_signed = q.in_signed;
        q.in_zero = q.in_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
        q.filter_zero = q.filter_signed ? (rnd(2) ? 0 : rnd_range(-128, 127)) : rnd_range(0, 255);
        q.out_zero = q.out_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
        q.lo = q.out_signed ? -128 : 0;
        q.hi = q.out_signed ? 127 : 255;
        size_t in_n = (size_t)g.n * g.in_h * g.in_w * g.in_c;
        size_t f_n = (size_t)g.f_h * g.f_w * g.out_c;
        size_t out_n = (size_t)g.n * g.out_h * g.out_w * g.out_c;
        uint8_t *in = malloc(in_n), *f = malloc(f_n), *out = malloc(out_n);
        int32_t *bias = malloc(g.out_c * 4), *mult = malloc(g.out_c * 4), *shift = malloc(g.out_c * 4);
        if (!in || !f || !out || !bias || !mult || !shift) {
            check(0, "allocation", 0, 1);
            return;
        }
        for (size_t i = 0; i < in_n; i++)
            in[i] = (uint8_t)rnd(256);
        for (size_t i = 0; i < f_n; i++)
            f[i] = (uint8_t)rnd(256);
        for (size_t c = 0; c < g.out_c; c++) {
            bias[c] = rnd_range(-50000, 50000);
            mult[c] = rnd_mult();
            shift[c] = rnd(10) == 0 ? rnd_range(0, 3) : rnd_range(-14, -4);
        }
        q.bias = rnd(5) ? bias : NULL;
        q.mult = mult;
        q.shift = shift;
        int rc = nn_depthwise_q8(&g, in, f, &q, out);
        check(rc == 0, "nn_depthwise_q8 rc", rc, 0);
        for (size_t b = 0; b < g.n; b++)
            for (size_t oy = 0; oy < g.out_h; oy++)
                for (size_t ox = 0; ox < g.out_w; ox++)
                    for (size_t c = 0; c < g.out_c; c++) {
                        int64_t acc = q.bias ? q.bias[c] : 0;
                        for (size_t i = 0; i < g.f_h; i++)
                            for (size_t j = 0; j < g.f_w; j++) {
                                int64_t y = (int64_t)oy * g.stride_h + (int64_t)i * g.dil_h - g.pad_t;
                                int64_t x = (int64_t)ox * g.stride_w + (int64_t)j * g.dil_w - g.pad_l;
                                if (y < 0 || y >= g.in_h || x < 0 || x >= g.in_w)
                                    continue;
                                size_t ii = ((b * g.in_h + (size_t)y) * g.in_w + (size_t)x) * g.in_c +
                                            c / g.multiplier;
                                acc += (int64_t)(elem(in, ii, q.in_signed) - q.in_zero) *
                                       (elem(f, (i * g.f_w + j) * g.out_c + c, q.filter_signed) -
                                        q.filter_zero);
                            }
                        /* TFLite's depthwise rounds ties away from zero. */
                        int32_t want = model_out(acc, mult[c], shift[c], NN_ROUND_AWAY, q.out_zero,
                                                 q.lo, q.hi);
                        size_t oi = ((b * g.out_h + oy) * g.out_w + ox) * g.out_c + c;
                        int32_t got = elem(out, oi, q.out_signed);
                        check(got == want, "depthwise output", got, want);
                    }
        free(in);
        free(f);
        free(out);
        free(bias);
        free(mult);
        free(shift);
    }
    printf("random depthwise convolutions: %d\n", cases);
}

/* Every entry of a pair table is the row function's result for that pair. */
static void pair_tables(int cases)
{
    static const nn_ew_arith ops[] = {NN_EW_ADD, NN_EW_SUB, NN_EW_MUL,
                                      NN_EW_MAX, NN_EW_MIN, NN_EW_PRELU};
    uint8_t *table = malloc(NN_EW_PAIR_TABLE_SIZE), bytes[256], row[256];
    if (!table) {
        check(0, "pair table memory", 0, 1);
        return;
    }
    for (int i = 0; i < 256; i++)
        bytes[i] = (uint8_t)i;
    for (int n = 0; n < cases; n++) {
        nn_ew_arith op = ops[n % 6];
        bool is_signed = (n / 6) % 2;
        int32_t base = is_signed ? -128 : 0;
        float sa = 0.001f + (float)rnd(1000) / 97.0f, sb = 0.001f + (float)rnd(1000) / 89.0f;
        float so = 0.001f + (float)rnd(1000) / 53.0f;
        int32_t lo = base + rnd_range(0, 60), hi = base + rnd_range(190, 255);
        nn_ew_qparams p;
        nn_ew_qparams_init(&p, op, sa, base + rnd_range(0, 255), sb, base + rnd_range(0, 255), so,
                           base + rnd_range(0, 255), lo, hi);
        nn_ew_q8_pair_table(op, is_signed, &p, table);
        nn_ew_row_fn fn = nn_ew_q8_row(op, is_signed);
        int bad = 0;
        for (int a = 0; a < 256; a++) {
            fn(&p, &bytes[a], bytes, row, 256, 0, 1);
            bad += memcmp(row, table + a * 256, 256) != 0;
        }
        check(bad == 0, "pair table rows equal to the row function", bad, 0);
    }
    free(table);
    printf("pair tables: %d\n", cases);
}

/* The vector ADD, SUB and MUL rows this CPU runs against the portable
 * rows: every pair of bytes (one operand broadcast), and random rows of
 * every length up to 100 with each operand advancing or broadcast. */
static void vector_rows(int cases)
{
    typedef nn_ew_row_fn (*rows_of)(nn_ew_arith, bool);
    rows_of levels[2];
    const char *names[2];
    size_t nl = 0;
#if defined(NN_KERNELS_X86_64)
    unsigned f = nn_cpu_features();
    if (f & NN_CPU_AVX2) {
        names[nl] = "avx2";
        levels[nl++] = nn_ew_q8_row_avx2;
    }
    if (f & NN_CPU_AVX512) {
        names[nl] = "avx512";
        levels[nl++] = nn_ew_q8_row_avx512;
    }
#endif
    static const nn_ew_arith ops[] = {NN_EW_ADD, NN_EW_SUB, NN_EW_MUL};
    uint8_t bytes[256], a[100], b[100], want[256], got[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (uint8_t)i;
    int rows = 0;
    for (int n = 0; n < cases; n++) {
        nn_ew_arith op = ops[n % 3];
        bool is_signed = (n / 3) % 2;
        int32_t base = is_signed ? -128 : 0;
        /* Scales from 1/1000 to 10: MUL's multiplier is above 1 (a left
         * shift) for some. */
        float sa = 0.001f + (float)rnd(1000) / 97.0f, sb = 0.001f + (float)rnd(1000) / 89.0f;
        float so = 0.001f + (float)rnd(1000) / 53.0f;
        int32_t lo = base + rnd_range(0, 60), hi = base + rnd_range(190, 255);
        nn_ew_qparams p;
        nn_ew_qparams_init(&p, op, sa, base + rnd_range(0, 255), sb, base + rnd_range(0, 255), so,
                           base + rnd_range(0, 255), lo, hi);
        nn_ew_row_fn ref = nn_ew_q8_row_c(op, is_signed);
        for (size_t l = 0; l < nl; l++) {
            nn_ew_row_fn vec = levels[l](op, is_signed);
            int bad = 0;
            for (int x = 0; x < 256; x++) {
                ref(&p, &bytes[x], bytes, want, 256, 0, 1);
                vec(&p, &bytes[x], bytes, got, 256, 0, 1);
                bad += memcmp(want, got, 256) != 0;
                ref(&p, bytes, &bytes[x], want, 256, 1, 0);
                vec(&p, bytes, &bytes[x], got, 256, 1, 0);
                bad += memcmp(want, got, 256) != 0;
            }
            for (size_t len = 0; len <= 100; len++, rows++) {
                for (size_t i = 0; i < len; i++) {
                    a[i] = (uint8_t)rnd(256);
                    b[i] = (uint8_t)rnd(256);
                }
                size_t sa_ = rnd(4) != 0, sb_ = rnd(4) != 0;
                memset(want, 0xa5, sizeof want);
                memset(got, 0xa5, sizeof got);
                ref(&p, a, b, want, len, sa_, sb_);
                vec(&p, a, b, got, len, sa_, sb_);
                bad += memcmp(want, got, len + 1) != 0;
            }
            check(bad == 0, names[l], bad, 0);
        }
    }
    printf("vector quant8 ADD/SUB/MUL rows: %d cases, %d random rows, %zu vector levels\n", cases,
           rows, nl);
}

int main(void)
{
    nn_rng_init(&rng, 20261201, 0);
    printf("ISA: %s\n", nn_isa_name(nn_isa_current()));
    requant_edges();
    random_gemm(400);
    random_depthwise(300);
    pair_tables(120);
    vector_rows(120);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
