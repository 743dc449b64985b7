/*
 * The quantized lookup and pooling kernels (kernels/qops.h) against an
 * independent scalar model, at the ISA level in use (NNAPI_LINUX_ISA
 * selects it; CTest runs this test on every level) and, in every run, each
 * vector version the CPU has called directly. Every output byte must be
 * equal.
 *   - lookups: every byte value, every length up to 200 (vector tails),
 *     in place and not, random tables;
 *   - pooling: int8/uint8, windows from empty and 1x1 to the largest the
 *     vector averages take (65535 pixels: the float quotient's limit) and
 *     beyond, channel counts around the vector widths, constant inputs at
 *     the extremes, sums exactly halfway (ties away from zero), random
 *     clamp ranges;
 *   - bilinear resize pixels: channel counts around the vector widths,
 *     random and exact fractions (0, 1/2, just below 1), extreme pixels
 *     (sums that meet the clamps after rounding), against a model with one
 *     float rounding per product and sum;
 *   - MEAN's sums: every length up to 300 (vector tails), int8 and uint8,
 *     constant extremes.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/isa.h"
#include "kernels/qops.h"
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

typedef nn_q8_kernels variant;

/* The dispatched kernels first, then each version this CPU runs. */
static size_t variants(variant *v)
{
    size_t n = 0;
    v[n++] = (variant){"dispatched", nn_q8_lookup, nn_q8_pool_max, nn_q8_pool_avg,
                       nn_q8_resize_bilinear, nn_q8_accumulate, nn_q8_sum, nn_q8_max,
                       nn_q8_softmax_out};
    v[n++] = *nn_q8_kernels_for(NN_ISA_C);
#if defined(NN_KERNELS_X86_64)
    unsigned f = nn_cpu_features();
    if (f & NN_CPU_AVX2)
        v[n++] = *nn_q8_kernels_for(NN_ISA_AVX2);
    if (f & NN_CPU_AVX512)
        v[n++] = *nn_q8_kernels_for(NN_ISA_AVX512);
#endif
    return n;
}

static void lookups(const variant *v, size_t nv)
{
    uint8_t table[256], in[256], out[256], want[256];
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 256; i++)
            table[i] = (uint8_t)rnd(256);
        for (size_t len = 0; len <= 200; len++) {
            for (size_t i = 0; i < len; i++)
                in[i] = round == 0 ? (uint8_t)i : (uint8_t)rnd(256);
            for (size_t i = 0; i < len; i++)
                want[i] = table[in[i]];
            for (size_t k = 0; k < nv; k++) {
                memset(out, 0xa5, sizeof out);
                v[k].lookup(table, in, out, len);
                bool ok = memcmp(out, want, len) == 0 && out[len] == 0xa5;
                check(ok, v[k].name, ok, 1);
            }
        }
        /* All 256 values, in place. */
        for (size_t k = 0; k < nv; k++) {
            for (int i = 0; i < 256; i++)
                out[i] = (uint8_t)(255 - i);
            v[k].lookup(table, out, out, 256);
            for (int i = 0; i < 256; i++)
                check(out[i] == table[255 - i], v[k].name, out[i], table[255 - i]);
        }
    }
    printf("lookups: %zu versions\n", nv);
}

static int32_t value(const uint8_t *p, bool is_signed)
{
    return is_signed ? (int32_t)(int8_t)*p : (int32_t)*p;
}

/* Rounded to nearest, ties away from zero, in exact integer arithmetic. */
static int32_t model_avg(int64_t sum, int64_t cnt)
{
    int64_t mag = sum < 0 ? -sum : sum;
    int64_t q = mag / cnt, twice_rem = 2 * (mag - q * cnt);
    if (twice_rem >= cnt)
        q++;
    return (int32_t)(sum < 0 ? -q : q);
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void pool_case(const variant *v, size_t nv, size_t rows, size_t cols, size_t nc,
                      bool is_signed, int fill)
{
    size_t row_step = cols * nc + rnd(3) * nc, col_step = nc;
    size_t bytes = rows ? (rows - 1) * row_step + cols * col_step : 1;
    uint8_t *in = malloc(bytes + 1), *out = malloc(nc + 1);
    int32_t *want_max = malloc(nc * sizeof(int32_t)), *want_avg = malloc(nc * sizeof(int32_t));
    if (!in || !out || !want_max || !want_avg) {
        check(0, "allocation", 0, 1);
        exit(1);
    }
    for (size_t i = 0; i < bytes; i++)
        in[i] = fill < 0 ? (uint8_t)rnd(256) : (uint8_t)fill;
    int32_t qlo = is_signed ? -128 : 0, qhi = is_signed ? 127 : 255;
    int32_t lo = qlo, hi = qhi;
    if (rnd(3) == 0) {
        lo += (int32_t)rnd(100);
        hi -= (int32_t)rnd(100);
    }
    for (size_t c = 0; c < nc; c++) {
        int64_t sum = 0;
        int32_t m = 0;
        for (size_t y = 0; y < rows; y++)
            for (size_t x = 0; x < cols; x++) {
                int32_t q = value(in + y * row_step + x * col_step + c, is_signed);
                m = (y | x) == 0 || q > m ? q : m;
                sum += q;
            }
        int64_t cnt = (int64_t)rows * (int64_t)cols;
        want_max[c] = clamp(m, lo, hi);
        want_avg[c] = clamp(cnt ? model_avg(sum, cnt) : 0, lo, hi);
    }
    nn_q8_window w = {.in = in, .rows = rows, .cols = cols, .row_step = row_step,
                      .col_step = col_step, .nc = nc, .is_signed = is_signed, .lo = lo, .hi = hi};
    for (size_t k = 0; k < nv; k++) {
        /* The vector averages take windows below NN_Q8_POOL_VECTOR_MAX only. */
        bool avg_ok = k == 0 || k == 1 || rows * cols < NN_Q8_POOL_VECTOR_MAX;
        for (int kind = 0; kind < 2; kind++) {
            if (kind == 1 && !avg_ok)
                continue;
            out[nc] = 0xa5;
            (kind ? v[k].pool_avg : v[k].pool_max)(&w, out);
            for (size_t c = 0; c < nc; c++) {
                int32_t got = value(out + c, is_signed), want = kind ? want_avg[c] : want_max[c];
                check(got == want, kind ? "average pool" : "max pool", got, want);
            }
            check(out[nc] == 0xa5, "pool wrote past the channels", out[nc], 0xa5);
        }
    }
    free(in);
    free(out);
    free(want_max);
    free(want_avg);
}

static void pools(const variant *v, size_t nv)
{
    int cases = 0;
    for (int t = 0; t < 3000; t++, cases++) {
        size_t rows = rnd(8) == 0 ? 0 : 1 + rnd(7), cols = 1 + rnd(7);
        size_t nc = 1 + rnd(140);
        pool_case(v, nv, rows, cols, nc, rnd(2), rnd(10) == 0 ? (int)rnd(256) : -1);
    }
    /* Ties: two pixels whose sum is odd, of either sign. */
    for (int t = 0; t < 500; t++, cases++)
        pool_case(v, nv, 1, 2, 1 + rnd(70), rnd(2), -1);
    /* The largest windows, at the extremes: 65535 pixels (the vector
     * averages' limit), 65536 and more (the portable path). */
    static const size_t big[][2] = {{255, 257}, {256, 256}, {1, 65535}, {300, 300}};
    static const int fills[] = {0, 255, 128, 127, 1, -1};
    for (size_t b = 0; b < sizeof big / sizeof big[0]; b++)
        for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++, cases++)
            pool_case(v, nv, big[b][0], big[b][1], 1 + rnd(20), f % 2 == 0, fills[f]);
    printf("pooling windows: %d\n", cases);
}

/* The bilinear weights of fractions ty, tx, as RESIZE_BILINEAR forms them. */
static void bilinear_weights(float ty, float tx, nn_q8_bilinear *b)
{
    b->w00 = (1 - ty) * (1 - tx);
    b->w10 = ty * (1 - tx);
    b->w01 = (1 - ty) * tx;
    b->w11 = ty * tx;
}

/* The model: one rounding per product and per sum, in the operation's
 * order (separate statements, so no compiler contracts them). */
static int32_t model_bilinear(const nn_q8_bilinear *b, size_t c)
{
    bool sgn = b->is_signed;
    float m00 = (float)value(b->p00 + c, sgn) * b->w00;
    float m10 = (float)value(b->p10 + c, sgn) * b->w10;
    float m01 = (float)value(b->p01 + c, sgn) * b->w01;
    float m11 = (float)value(b->p11 + c, sgn) * b->w11;
    float s = m00 + m10;
    s = s + m01;
    s = s + m11;
    float lo = sgn ? -128.0f : 0.0f, hi = sgn ? 127.0f : 255.0f;
    s = s < lo ? lo : (s > hi ? hi : s);
    return (int32_t)s; /* toward zero */
}

static void bilinears(const variant *v, size_t nv)
{
    enum { MAXC = 150 };
    uint8_t px[4][MAXC], out[MAXC + 1];
    int cases = 0;
    for (int t = 0; t < 4000; t++, cases++) {
        size_t nc = 1 + rnd(t < 2000 ? 40 : MAXC);
        nn_q8_bilinear b = {.p00 = px[0], .p01 = px[1], .p10 = px[2], .p11 = px[3], .nc = nc,
                            .is_signed = rnd(2)};
        /* Extreme pixels make the sums meet the clamps after rounding. */
        int fill = rnd(6) == 0 ? (int)rnd(256) : -1;
        for (int k = 0; k < 4; k++)
            for (size_t c = 0; c < nc; c++)
                px[k][c] = fill < 0 ? (uint8_t)rnd(256) : (uint8_t)fill;
        static const float fractions[] = {0.0f, 0.5f, 0.25f, 0.99999994f, 0.33333334f};
        float ty = rnd(3) ? (float)rnd(1u << 24) / 16777216.0f : fractions[rnd(5)];
        float tx = rnd(3) ? (float)rnd(1u << 24) / 16777216.0f : fractions[rnd(5)];
        bilinear_weights(ty, tx, &b);
        for (size_t k = 0; k < nv; k++) {
            out[nc] = 0xa5;
            v[k].bilinear(&b, out);
            for (size_t c = 0; c < nc; c++) {
                int32_t got = value(out + c, b.is_signed), want = model_bilinear(&b, c);
                check(got == want, v[k].name, got, want);
            }
            check(out[nc] == 0xa5, "bilinear wrote past the channels", out[nc], 0xa5);
        }
    }
    printf("bilinear pixels: %d\n", cases);
}

static void sums(const variant *v, size_t nv)
{
    enum { MAXN = 300 };
    uint8_t in[MAXN];
    int32_t acc[MAXN + 1], want[MAXN];
    int cases = 0;
    for (int t = 0; t < 3000; t++, cases++) {
        size_t n = t < 600 ? (size_t)t % (MAXN + 1) : rnd(MAXN + 1);
        bool sgn = rnd(2);
        int fill = rnd(5) == 0 ? (int)rnd(256) : -1;
        for (size_t i = 0; i < n; i++)
            in[i] = fill < 0 ? (uint8_t)rnd(256) : (uint8_t)fill;
        int64_t total = 0;
        int32_t start[MAXN];
        for (size_t i = 0; i < n; i++) {
            start[i] = (int32_t)rnd(1u << 20) - (1 << 19);
            want[i] = start[i] + value(in + i, sgn);
            total += value(in + i, sgn);
        }
        for (size_t k = 0; k < nv; k++) {
            memcpy(acc, start, n * sizeof acc[0]);
            acc[n] = 0x5a5a5a5a;
            v[k].accumulate(in, sgn, acc, n);
            check(memcmp(acc, want, n * sizeof acc[0]) == 0, v[k].name, 0, 0);
            check(acc[n] == 0x5a5a5a5a, "accumulate wrote past the end", acc[n], 0x5a5a5a5a);
            int64_t got = v[k].sum(in, sgn, n);
            check(got == total, v[k].name, got, total);
        }
    }
    printf("sums: %d\n", cases);
}

/* TFLite's last pass of the quantized softmax for one value, written out
 * independently of the kernels. */
static uint8_t model_softmax(const float *e, float inv, uint8_t x, bool sgn, int32_t zero)
{
    float p = e[sgn ? (int8_t)x : x] * inv;
    if (p > 512.0f)
        p = 512.0f;
    double r = sgn ? floor((double)p + 0.5) + zero : floor((double)p + 0.5);
    int32_t q = (int32_t)r;
    if (!sgn)
        q = (int32_t)(p + 0.5f); /* uint8 adds one half in float32 and truncates */
    return (uint8_t)clamp(q, sgn ? -128 : 0, sgn ? 127 : 255);
}

/* The maximum and the softmax outputs of rows of every length up to MAXN,
 * over tables of exponentials and of exact halves (ties), values just
 * below one half, and values past the 512 bound. */
static void softmaxes(const variant *v, size_t nv)
{
    enum { MAXN = 200 };
    uint8_t in[MAXN], want[MAXN + 1], got[MAXN + 1];
    float table[256];
    int cases = 0;
    for (int t = 0; t < 2000; t++, cases++) {
        size_t n = t < 400 ? 1 + (size_t)t % MAXN : 1 + rnd(MAXN);
        bool sgn = rnd(2);
        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)rnd(256);
        int32_t mx = INT32_MIN;
        for (size_t i = 0; i < n; i++)
            mx = value(in + i, sgn) > mx ? value(in + i, sgn) : mx;
        int kind = (int)rnd(3);
        float inv = kind == 0 ? 256.0f / (1.0f + (float)rnd(1000)) : kind == 1 ? 1.0f : 0.75f;
        for (int d = 0; d < 256; d++) {
            if (kind == 0)
                table[d] = expf(-0.05f * (float)(255 - d));
            else if (rnd(4) == 0)
                table[d] = nextafterf(0.5f + (float)rnd(300), 0.0f);
            else
                table[d] = (float)rnd(1400) / 2.0f;
        }
        const float *e = table + 255 - mx;
        int32_t zero = sgn ? (int32_t)rnd(256) - 128 : 0;
        for (size_t i = 0; i < n; i++)
            want[i] = model_softmax(e, inv, in[i], sgn, zero);
        for (size_t k = 0; k < nv; k++) {
            int32_t m = v[k].max(in, sgn, n);
            check(m == mx, v[k].name, m, mx);
            got[n] = 0x5a;
            v[k].softmax_out(e, inv, in, sgn, zero, got, n);
            check(memcmp(got, want, n) == 0, v[k].name, 0, 0);
            check(got[n] == 0x5a, "softmax wrote past the end", got[n], 0x5a);
        }
    }
    printf("softmax rows: %d\n", cases);
}

int main(void)
{
    nn_rng_init(&rng, 20261201, 1);
    printf("ISA: %s\n", nn_isa_name(nn_isa_current()));
    variant v[4];
    size_t nv = variants(v);
    lookups(v, nv);
    pools(v, nv);
    bilinears(v, nv);
    sums(v, nv);
    softmaxes(v, nv);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
