/*
 * The library's requantization (kernels/quant.h, its AVX2/AVX-512 lanes in
 * kernels/quant_x86.h and NEON lanes in kernels/quant_neon.h, and the output stages of the quantized GEMM and
 * depthwise kernels) against an independent model of TensorFlow Lite's
 * integer arithmetic, written here from the definitions:
 *  - QuantizeMultiplier: m = q * 2^(e - 31), q = round(m / 2^e * 2^31) with
 *    m / 2^e in [0.5, 1), renormalized when q reaches 2^31;
 *  - the left shift of the accumulator in 32-bit two's complement;
 *  - SaturatingRoundingDoublingHighMul as gemmlowp defines it (nudge
 *    2^30 or 1 - 2^30 by the product's sign, then division truncating
 *    toward zero) and as ruy computes it (floor((a*b + 2^30) / 2^31));
 *  - the power-of-two division rounding ties away from zero (gemmlowp's
 *    RoundingDivideByPOT) or upward (ruy's rounding right shift), both
 *    taken from exact 64-bit quotients;
 *  - zero point, clamp, 8-bit store;
 *  - quantized SOFTMAX: exp(-s * beta * (max - x)) from a float32 table,
 *    summed in order in float32, times 1 / (sum * output scale), rounded
 *    (uint8: plus one half, truncated).
 * Edge cases are exhaustive over every shift; random cases run by the
 * million, on the scalar definition and on every vector path this CPU (and
 * NNAPI_LINUX_ISA) allows.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "kernels/depthwise.h"
#include "kernels/gemm.h"
#include "kernels/isa.h"
#include "kernels/quant.h"

static long passed, failed;

static void check(bool ok, const char *what, long long a, long long b, long long c, long long d)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 20)
        fprintf(stderr, "FAIL %s (%lld, %lld, %lld) -> %lld\n", what, a, b, c, d);
}

/* ---- the model ---- */

static int64_t floor_div(int64_t n, int64_t d) /* d > 0 */
{
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

static int32_t wrap32(int64_t v)
{
    uint64_t u = (uint64_t)v & 0xffffffffu;
    return u >= 0x80000000u ? (int32_t)(int64_t)(u - 0x100000000u) : (int32_t)u;
}

static int32_t model_srdhm_gemmlowp(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
        return INT32_MAX;
    int64_t ab = (int64_t)a * b;
    int64_t nudge = ab >= 0 ? (1LL << 30) : 1 - (1LL << 30);
    return (int32_t)((ab + nudge) / (1LL << 31)); /* C division truncates */
}

static int32_t model_srdhm_ruy(int32_t a, int32_t b)
{
    return (int32_t)floor_div((int64_t)a * b + (1LL << 30), 1LL << 31);
}

static int32_t model_divide_pot(int32_t x, int e, nn_rounding r)
{
    if (e == 0)
        return x;
    int64_t d = 1LL << e, half = 1LL << (e - 1);
    if (r == NN_ROUND_UP)
        return (int32_t)floor_div((int64_t)x + half, d);
    int64_t mag = x < 0 ? -(int64_t)x : x;
    int64_t q = (mag + half) / d;
    return (int32_t)(x < 0 ? -q : q);
}

static int32_t model_requant(int32_t x, int32_t mult, int shift, nn_rounding r)
{
    int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
    int32_t v = wrap32((int64_t)x * ((int64_t)1 << left));
    return model_divide_pot(model_srdhm_gemmlowp(v, mult), right, r);
}

static int32_t model_output(int32_t acc, int32_t mult, int shift, nn_rounding r, int32_t zero,
                            int32_t lo, int32_t hi)
{
    int32_t v = wrap32((int64_t)model_requant(acc, mult, shift, r) + zero);
    return v < lo ? lo : (v > hi ? hi : v);
}

static void model_quantize_multiplier(double m, int32_t *q, int *e)
{
    *q = 0;
    *e = 0;
    if (!(m > 0) || !isfinite(m))
        return;
    int exp = 0;
    double frac = m;
    while (frac >= 1.0) {
        frac /= 2;
        exp++;
    }
    while (frac < 0.5) {
        frac *= 2;
        exp--;
    }
    int64_t fixed = (int64_t)floor(frac * 2147483648.0 + 0.5);
    if (fixed == (1LL << 31)) {
        fixed = 1LL << 30;
        exp++;
    }
    if (exp < -31) /* too small to matter: zero, as TFLite */
        return;
    if (exp > 31) { /* the library's cap (TFLite leaves it undefined) */
        *q = INT32_MAX;
        *e = 31;
        return;
    }
    *q = (int32_t)fixed;
    *e = exp;
}

/* ---- random numbers (xorshift64*, fixed seed) ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717u) >> 32);
}

static int32_t rnd_range(int32_t lo, int32_t hi) /* inclusive */
{
    return (int32_t)((int64_t)lo + (int64_t)(rnd() % (uint32_t)((int64_t)hi - lo + 1)));
}

/* Accumulators as kernels see them: full range, around zero, powers of two. */
static int32_t rnd_acc(void)
{
    switch (rnd() % 4) {
    case 0:
        return (int32_t)rnd();
    case 1:
        return rnd_range(-(1 << 20), 1 << 20);
    case 2:
        return rnd_range(-4096, 4096);
    default: {
        int32_t p = (int32_t)(1u << (rnd() % 31));
        return (rnd() & 1 ? -p : p) + rnd_range(-1, 1);
    }
    }
}

static int32_t rnd_mult(void)
{
    return rnd() % 8 ? rnd_range(1 << 30, INT32_MAX) : rnd_range(0, INT32_MAX);
}

static int rnd_shift(void)
{
    return rnd() % 4 ? rnd_range(-31, 0) : rnd_range(-31, 31);
}

/* ---- the library's paths ---- */

typedef void (*row_fn)(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                       nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi,
                       bool out_signed, void *out);

typedef struct {
    const char *name;
    row_fn fn;
} row_path;

static row_path paths[3];
static int npaths;

static void find_paths(void)
{
    nn_isa isa = nn_isa_current();
    paths[npaths++] = (row_path){"scalar", nn_requant_row};
#if defined(NN_KERNELS_X86_64)
    if (isa == NN_ISA_AVX2 || isa == NN_ISA_AVX512)
        paths[npaths++] = (row_path){"avx2", nn_requant_row_avx2};
    else
        printf("avx2 lanes not run: ISA level %s\n", nn_isa_name(isa));
    if (isa == NN_ISA_AVX512)
        paths[npaths++] = (row_path){"avx512", nn_requant_row_avx512};
    else
        printf("avx512 lanes not run: ISA level %s\n", nn_isa_name(isa));
#elif defined(NN_KERNELS_AARCH64)
    if (isa == NN_ISA_NEON || isa == NN_ISA_NEONDOT)
        paths[npaths++] = (row_path){"neon", nn_requant_row_neon};
    else
        printf("neon lanes not run: ISA level %s\n", nn_isa_name(isa));
#else
    printf("no vector requantization rows at ISA level %s: scalar only\n", nn_isa_name(isa));
#endif
}

/* One row through every path, compared element by element with the model. */
#define ROW_MAX 64
static void check_row(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                      nn_rounding r, int32_t zero, bool out_signed)
{
    int32_t lo = out_signed ? -128 : 0, hi = out_signed ? 127 : 255;
    int32_t want[ROW_MAX];
    for (size_t j = 0; j < n; j++)
        want[j] = model_output(acc[j], mult[j], shift[j], r, zero, lo, hi);
    for (int p = 0; p < npaths; p++) {
        uint8_t out[ROW_MAX + 1];
        out[n] = 0xA5; /* nothing may be written past n */
        paths[p].fn(n, acc, mult, shift, r, zero, lo, hi, out_signed, out);
        bool ok = out[n] == 0xA5;
        size_t bad = 0;
        for (size_t j = 0; j < n && ok; j++) {
            int32_t got = out_signed ? (int8_t)out[j] : out[j];
            if (got != want[j]) {
                ok = false;
                bad = j;
            }
        }
        char what[64];
        snprintf(what, sizeof what, "%s row (acc, mult, shift) -> want", paths[p].name);
        check(ok, what, acc[bad], mult[bad], shift[bad], want[bad]);
    }
}

/* ---- edge cases ---- */

static size_t edge_values(int32_t *v)
{
    size_t n = 0;
    v[n++] = 0;
    v[n++] = INT32_MIN;
    v[n++] = INT32_MIN + 1;
    v[n++] = INT32_MAX;
    v[n++] = INT32_MAX - 1;
    for (int k = 0; k < 31; k++) {
        int32_t p = (int32_t)(1u << k);
        v[n++] = p;
        v[n++] = -p;
        v[n++] = p + 1;
        v[n++] = -p - 1;
        v[n++] = p - 1;
        v[n++] = -p + 1;
    }
    return n;
}

static void test_scalar_edges(void)
{
    int32_t xs[256], ms[256];
    size_t nx = edge_values(xs), nm = 0;
    ms[nm++] = 0;
    ms[nm++] = 1;
    ms[nm++] = 1 << 30;
    ms[nm++] = (1 << 30) + 1;
    ms[nm++] = INT32_MAX;
    ms[nm++] = INT32_MAX - 1;
    ms[nm++] = 1518500250; /* ~ 2^30.5 */
    for (int i = 0; i < 8; i++)
        ms[nm++] = rnd_mult();
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < nx; j++) {
            int32_t a = xs[i], b = xs[j];
            int32_t got = nn_srdhm(a, b);
            check(got == model_srdhm_gemmlowp(a, b), "srdhm vs gemmlowp", a, b, 0, got);
            if (!(a == INT32_MIN && b == INT32_MIN))
                check(got == model_srdhm_ruy(a, b), "srdhm vs ruy", a, b, 0, got);
        }
    for (int e = 0; e <= 31; e++)
        for (size_t i = 0; i < nx; i++) {
            int32_t x = xs[i];
            check(nn_rounding_shift_right(x, e) == model_divide_pot(x, e, NN_ROUND_AWAY),
                  "shift right away", x, e, 0, nn_rounding_shift_right(x, e));
            check(nn_rounding_shift_right_up(x, e) == model_divide_pot(x, e, NN_ROUND_UP),
                  "shift right up", x, e, 0, nn_rounding_shift_right_up(x, e));
        }
    for (int shift = -31; shift <= 31; shift++)
        for (size_t i = 0; i < nx; i++)
            for (size_t j = 0; j < nm; j++)
                for (int r = 0; r < 2; r++) {
                    int32_t got = nn_requantize(xs[i], ms[j], shift, (nn_rounding)r);
                    check(got == model_requant(xs[i], ms[j], shift, (nn_rounding)r), "requantize",
                          xs[i], ms[j], shift, got);
                }
}

/* Shifts outside [-31, 31] (a forged cache entry's, with its hashes
 * recomputed, can hold any int32) are defined: a right shift past 31 acts as
 * 31, a left shift from 32 on gives 0. UBSan builds run this. */
static void test_scalar_foreign_shifts(void)
{
    int32_t xs[256], ms[4] = {0, 1 << 30, INT32_MAX, INT32_MIN};
    const int shifts[] = {INT32_MIN, INT32_MIN + 1, -1000, -64, -33, -32,
                          32, 33, 64, 1000, INT32_MAX};
    size_t nx = edge_values(xs);
    for (size_t s = 0; s < sizeof shifts / sizeof *shifts; s++)
        for (size_t i = 0; i < nx; i++)
            for (size_t j = 0; j < 4; j++)
                for (int r = 0; r < 2; r++) {
                    int shift = shifts[s];
                    int32_t got = nn_requantize(xs[i], ms[j], shift, (nn_rounding)r);
                    int32_t want = shift < 0 ? nn_requantize(xs[i], ms[j], -31, (nn_rounding)r) : 0;
                    check(got == want, "requantize, shift outside [-31, 31]", xs[i], ms[j], shift,
                          got);
                }
    check(nn_wrapping_mul_i32(INT32_MAX, 19) == 2147483629, "wrapping mul",
          INT32_MAX, 19, 0, nn_wrapping_mul_i32(INT32_MAX, 19));
    check(nn_wrapping_mul_i32(-510, 4) == -2040, "wrapping mul", -510, 4, 0,
          nn_wrapping_mul_i32(-510, 4));
}

/* Exact ties of both roundings, both signs, every shift: with mult = 2^30
 * the high multiply gives floor((x + 1) / 2), so x = 2h reaches any h, and
 * h = k * 2^e + 2^(e-1) is halfway. Odd x are ties of the multiply itself. */
static void test_ties(void)
{
    int ties = 0;
    for (int e = 1; e <= 29; e++)
        for (int i = 0; i < 200; i++) {
            int64_t k = rnd_range(-(1 << 20), 1 << 20) >> (e > 10 ? e - 10 : 0);
            int64_t h = k * (1LL << e) + (1LL << (e - 1));
            if (2 * h < INT32_MIN || 2 * h > INT32_MAX)
                continue;
            int32_t x = (int32_t)(2 * h);
            int32_t away = nn_requantize(x, 1 << 30, -e, NN_ROUND_AWAY);
            int32_t up = nn_requantize(x, 1 << 30, -e, NN_ROUND_UP);
            check(away == model_requant(x, 1 << 30, -e, NN_ROUND_AWAY), "tie away", x, e, 0, away);
            check(up == model_requant(x, 1 << 30, -e, NN_ROUND_UP), "tie up", x, e, 0, up);
            /* The two conventions must differ exactly on negative ties. */
            check((away != up) == (h < 0), "ties differ only when negative", x, e, away, up);
            ties++;
        }
    for (int32_t x = -1001; x <= 1001; x += 2)
        check(nn_srdhm(x, 1 << 30) == model_srdhm_gemmlowp(x, 1 << 30), "srdhm tie", x, 0, 0,
              nn_srdhm(x, 1 << 30));
    printf("%d exact ties\n", ties);
}

static void test_quantize_multiplier(void)
{
    double ms[4096];
    size_t n = 0;
    ms[n++] = 0.0;
    ms[n++] = -1.0;
    ms[n++] = INFINITY;
    ms[n++] = NAN;
    ms[n++] = 1.0;
    ms[n++] = nextafter(1.0, 0.0);
    ms[n++] = 1.0 - ldexp(1.0, -32); /* rounds to 2^31: renormalized */
    ms[n++] = 1.0 - ldexp(1.0, -33);
    for (int k = -45; k <= 45; k++) {
        double p = ldexp(1.0, k);
        ms[n++] = p;
        ms[n++] = nextafter(p, 0.0);
        ms[n++] = nextafter(p, INFINITY);
        ms[n++] = p * (1.0 - ldexp(1.0, -32));
        ms[n++] = p * 0.75;
    }
    while (n < sizeof ms / sizeof ms[0])
        ms[n++] = ldexp(0.5 + (double)rnd() / 8589934592.0, rnd_range(-40, 40));
    for (size_t i = 0; i < n; i++) {
        int32_t q, wq;
        int e, we;
        nn_quantize_multiplier(ms[i], &q, &e);
        model_quantize_multiplier(ms[i], &wq, &we);
        /* m * 2^40 names m in a failure; an infinite m (whose conversion
         * would be undefined) is named as -1. */
        double named = ms[i] * 1099511627776.0;
        check(q == wq && e == we, "quantize multiplier (m*2^40, q, e)",
              named < 9e18 ? (long long)named : -1, q, e, wq);
        check(e >= -31 && e <= 31 && q >= 0, "multiplier in range", q, e, 0, 0);
    }
}

/* Every vector lane against the model: each shift in every lane position,
 * edge accumulators, both signednesses, both roundings. */
static void test_rows_edges(void)
{
    int32_t xs[256];
    size_t nx = edge_values(xs);
    int32_t acc[ROW_MAX], mult[ROW_MAX], shift[ROW_MAX];
    for (int base = -31; base <= 31; base++)
        for (size_t start = 0; start < nx; start += 17) {
            size_t n = 1 + (size_t)(base + 31) % ROW_MAX;
            for (size_t j = 0; j < n; j++) {
                acc[j] = xs[(start + j) % nx];
                mult[j] = j % 3 ? rnd_mult() : (j % 2 ? INT32_MAX : 1 << 30);
                shift[j] = -31 + (int)((base + 31 + (int)j) % 63);
            }
            for (int r = 0; r < 2; r++) {
                check_row(n, acc, mult, shift, (nn_rounding)r, rnd_range(-128, 255), false);
                check_row(n, acc, mult, shift, (nn_rounding)r, rnd_range(-128, 127), true);
            }
        }
}

static void test_rows_random(long values)
{
    int32_t acc[ROW_MAX], mult[ROW_MAX], shift[ROW_MAX];
    long done = 0;
    while (done < values) {
        size_t n = 1 + rnd() % ROW_MAX;
        bool per_channel = rnd() & 1;
        int32_t m0 = rnd_mult();
        int s0 = rnd_shift();
        for (size_t j = 0; j < n; j++) {
            acc[j] = rnd_acc();
            mult[j] = per_channel ? rnd_mult() : m0;
            shift[j] = per_channel ? rnd_shift() : s0;
        }
        bool sgn = rnd() & 1;
        int32_t zero = sgn ? rnd_range(-128, 127) : rnd_range(0, 255);
        check_row(n, acc, mult, shift, (nn_rounding)(rnd() & 1), zero, sgn);
        done += (long)n;
    }
    printf("%ld random values per path\n", values);
}

static void test_scalar_random(long values)
{
    for (long i = 0; i < values; i++) {
        int32_t x = rnd_acc(), m = rnd_mult();
        int s = rnd_shift();
        nn_rounding r = (nn_rounding)(rnd() & 1);
        int32_t got = nn_requantize(x, m, s, r);
        check(got == model_requant(x, m, s, r), "requantize random", x, m, s, got);
    }
}

/* The quantized GEMM's output stage (vector or scalar, per ISA level), per
 * channel, both roundings, uint8/int8, against accumulate-then-model. */
static void test_gemm(void)
{
    enum { M = 19, N = 37, K = 21 };
    uint8_t a[M * K], b[N * K], c[M * N];
    int32_t bias[N], mult[N], shift[N];
    for (int round = 0; round < 400; round++) {
        bool a_signed = rnd() & 1, b_signed = rnd() & 1, out_signed = rnd() & 1;
        int32_t za = a_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
        int32_t zb = b_signed ? 0 : rnd_range(0, 255);
        for (size_t i = 0; i < sizeof a; i++)
            a[i] = (uint8_t)rnd();
        for (size_t i = 0; i < sizeof b; i++)
            b[i] = (uint8_t)rnd();
        for (int j = 0; j < N; j++) {
            bias[j] = rnd_range(-100000, 100000);
            /* Scales that put the output in range half the time. */
            nn_quantize_multiplier(ldexp(0.5 + (double)(rnd() % 1000) / 2000.0,
                                         -rnd_range(6, 16)),
                                   &mult[j], &shift[j]);
            if (round % 10 == 0)
                shift[j] = rnd_range(-3, 3);
        }
        nn_rounding r = (nn_rounding)(round & 1);
        nn_requant rq = {.mult = mult, .shift = shift, .rounding = r, .per_channel = true,
                         .out_zero = out_signed ? rnd_range(-128, 127) : rnd_range(0, 255),
                         .lo = out_signed ? -128 : 0, .hi = out_signed ? 127 : 255,
                         .out_signed = out_signed};
        if (round % 3 == 0) { /* a fused ReLU-like range */
            rq.lo = rq.out_zero;
        }
        nn_q8_matrix am = {.data = a, .ld = K, .is_signed = a_signed, .zero = za};
        nn_q8_matrix bm = {.data = b, .ld = K, .is_signed = b_signed, .zero = zb};
        if (nn_qgemm(M, N, K, &am, &bm, bias, &rq, c, N) != ANEURALNETWORKS_NO_ERROR) {
            check(false, "nn_qgemm", 0, 0, 0, 0);
            continue;
        }
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int32_t acc = bias[j];
                for (int p = 0; p < K; p++) {
                    int32_t av = a_signed ? (int8_t)a[i * K + p] : a[i * K + p];
                    int32_t bv = b_signed ? (int8_t)b[j * K + p] : b[j * K + p];
                    acc += (av - za) * (bv - zb);
                }
                int32_t want = model_output(acc, mult[j], shift[j], r, rq.out_zero, rq.lo, rq.hi);
                int32_t got = out_signed ? (int8_t)c[i * N + j] : c[i * N + j];
                check(got == want, "qgemm element (acc, mult, shift) -> got", acc, mult[j],
                      shift[j], got);
            }
    }
}

/* The depthwise kernel's output stage (ties away from zero, as TFLite's
 * DEPTHWISE_CONV_2D), per channel, against accumulate-then-model. */
static void test_depthwise(void)
{
    enum { H = 7, W = 9, C = 40, F = 3 };
    uint8_t in[H * W * C], filt[F * F * C], out[H * W * C];
    int32_t bias[C], mult[C], shift[C];
    nn_dw_geom g = {.n = 1, .in_h = H, .in_w = W, .in_c = C, .out_h = H, .out_w = W,
                    .out_c = C, .f_h = F, .f_w = F, .multiplier = 1, .pad_t = 1, .pad_l = 1,
                    .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1};
    for (int round = 0; round < 100; round++) {
        bool sgn = round & 1;
        for (size_t i = 0; i < sizeof in; i++)
            in[i] = (uint8_t)rnd();
        for (size_t i = 0; i < sizeof filt; i++)
            filt[i] = (uint8_t)rnd();
        for (int c = 0; c < C; c++) {
            bias[c] = rnd_range(-20000, 20000);
            nn_quantize_multiplier(ldexp(0.5 + (double)(rnd() % 1000) / 2000.0, -rnd_range(5, 12)),
                                   &mult[c], &shift[c]);
            if (round % 10 == 0)
                shift[c] = rnd_range(-2, 2);
        }
        nn_dw_quant q = {.in_signed = sgn, .filter_signed = sgn, .out_signed = sgn,
                         .in_zero = sgn ? rnd_range(-128, 127) : rnd_range(0, 255),
                         .filter_zero = sgn ? 0 : rnd_range(0, 255),
                         .out_zero = sgn ? rnd_range(-128, 127) : rnd_range(0, 255),
                         .lo = sgn ? -128 : 0, .hi = sgn ? 127 : 255,
                         .bias = bias, .mult = mult, .shift = shift};
        if (nn_depthwise_q8(&g, in, filt, &q, out) != ANEURALNETWORKS_NO_ERROR) {
            check(false, "nn_depthwise_q8", 0, 0, 0, 0);
            continue;
        }
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < C; c++) {
                    int32_t acc = bias[c];
                    for (int i = 0; i < F; i++)
                        for (int j = 0; j < F; j++) {
                            int iy = y + i - 1, ix = x + j - 1;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                continue;
                            uint8_t xv = in[(iy * W + ix) * C + c], fv = filt[(i * F + j) * C + c];
                            int32_t xi = sgn ? (int8_t)xv : xv, fi = sgn ? (int8_t)fv : fv;
                            acc += (xi - q.in_zero) * (fi - q.filter_zero);
                        }
                    int32_t want = model_output(acc, mult[c], shift[c], NN_ROUND_AWAY,
                                                q.out_zero, q.lo, q.hi);
                    uint8_t o = out[(y * W + x) * C + c];
                    int32_t got = sgn ? (int8_t)o : o;
                    check(got == want, "depthwise element (acc, mult, shift) -> got", acc,
                          mult[c], shift[c], got);
                }
    }
}

/* ---- quantized SOFTMAX through the public API ---- */

static void model_softmax(const uint8_t *in, size_t n, bool sgn, float s_in, float beta,
                          int32_t zo, uint8_t *out)
{
    float table[256];
    for (int d = 0; d < 256; d++)
        table[255 - d] = expf(-s_in * beta * (float)d);
    int32_t mx = sgn ? -128 : 0;
    for (size_t i = 0; i < n; i++) {
        int32_t v = sgn ? (int8_t)in[i] : in[i];
        mx = v > mx ? v : mx;
    }
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++)
        sum += table[255 - (mx - (sgn ? (int8_t)in[i] : in[i]))];
    float inv = 1.0f / (sum * (1.0f / 256.0f));
    for (size_t i = 0; i < n; i++) {
        float p = table[255 - (mx - (sgn ? (int8_t)in[i] : in[i]))] * inv;
        int32_t q = sgn ? (int32_t)roundf(p) + zo : (int32_t)(p + 0.5f);
        int32_t lo = sgn ? -128 : 0, hi = sgn ? 127 : 255;
        q = q < lo ? lo : (q > hi ? hi : q);
        out[i] = (uint8_t)q;
    }
}

/* SOFTMAX of [rows, n] through NNAPI; false if any call fails. */
static bool run_softmax(const uint8_t *in, uint32_t rows, uint32_t n, bool sgn, float s_in,
                        int32_t z_in, float beta, int32_t zo, uint8_t *out)
{
    int32_t type = sgn ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                       : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    uint32_t dims[2] = {rows, n};
    ANeuralNetworksOperandType tin = {type, 2, dims, s_in, z_in};
    ANeuralNetworksOperandType tout = {type, 2, dims, 1.0f / 256.0f, zo};
    ANeuralNetworksOperandType tbeta = {ANEURALNETWORKS_FLOAT32, 0, NULL, 0.0f, 0};
    ANeuralNetworksModel *model = NULL;
    ANeuralNetworksCompilation *comp = NULL;
    ANeuralNetworksExecution *exec = NULL;
    uint32_t ins[2] = {0, 1}, outs[1] = {2};
    bool ok = ANeuralNetworksModel_create(&model) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_addOperand(model, &tin) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_addOperand(model, &tbeta) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_addOperand(model, &tout) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_setOperandValue(model, 1, &beta, sizeof beta) ==
                  ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_SOFTMAX, 2, ins, 1, outs) ==
                  ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, ins, 1, outs) ==
                  ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksModel_finish(model) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksCompilation_create(model, &comp) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksCompilation_finish(comp) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksExecution_create(comp, &exec) == ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksExecution_setInput(exec, 0, NULL, in, (size_t)rows * n) ==
                  ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksExecution_setOutput(exec, 0, NULL, out, (size_t)rows * n) ==
                  ANEURALNETWORKS_NO_ERROR &&
              ANeuralNetworksExecution_compute(exec) == ANEURALNETWORKS_NO_ERROR;
    ANeuralNetworksExecution_free(exec);
    ANeuralNetworksCompilation_free(comp);
    ANeuralNetworksModel_free(model);
    return ok;
}

/* Rows of close logits (few classes) and of classifier-like logits (1001
 * classes, a long tail below a few winners): about one value in 10^5 lands
 * so near a rounding boundary that only TFLite's own float arithmetic gives
 * its step, so millions are run. */
static void test_softmax(void)
{
    enum { ROUNDS = 300, VALUES = 10010 };
    static uint8_t in[VALUES], got[VALUES], want[VALUES];
    long diff = 0, values = 0;
    for (int round = 0; round < ROUNDS; round++) {
        bool sgn = round & 1, classifier = round % 3 == 0;
        uint32_t n = classifier ? 1001 : 2 + rnd() % 100, rows = VALUES / n;
        float s_in = 0.02f + 0.3f * (float)(rnd() % 1000) / 1000.0f;
        float beta = round % 4 < 2 ? 1.0f : 0.25f + (float)(rnd() % 100) / 25.0f;
        for (uint32_t r = 0; r < rows; r++) {
            int32_t center = rnd_range(100, 200);
            for (uint32_t i = 0; i < n; i++) {
                int32_t v = center + rnd_range(-20, 20);
                if (classifier)
                    v = center + (int32_t)floor(10.0 * log((double)(rnd() % 10000 + 1) / 10001.0));
                v = nn_clamp_i32(v, 0, 255);
                in[r * n + i] = sgn ? (uint8_t)(int8_t)(v - 128) : (uint8_t)v;
            }
        }
        int32_t zo = sgn ? -128 : 0;
        int32_t zi = sgn ? rnd_range(-128, 127) : rnd_range(0, 255);
        if (!run_softmax(in, rows, n, sgn, s_in, zi, beta, zo, got)) {
            check(false, "softmax model runs", round, 0, 0, 0);
            continue;
        }
        for (uint32_t r = 0; r < rows; r++) {
            model_softmax(in + r * n, n, sgn, s_in, beta, zo, want);
            for (uint32_t i = 0; i < n; i++) {
                check(got[r * n + i] == want[i], "softmax element (round, row, i) -> got", round,
                      r, i, got[r * n + i]);
                diff += got[r * n + i] != want[i];
            }
        }
        values += (long)rows * n;
    }
    printf("softmax: %ld values, %ld differ\n", values, diff);
}

/* Two classes at every distance for a dense range of input scales: the
 * probabilities sweep (0, 1) finely enough to land next to the rounding
 * boundaries, where only the same float arithmetic gives the same step. */
static void test_softmax_pairs(void)
{
    uint8_t in[256 * 2], got[256 * 2], want[2];
    long diff = 0, values = 0;
    for (int k = 0; k < 1500; k++) {
        bool sgn = k & 1;
        float s_in = 0.002f + 0.0001f * (float)k;
        for (int d = 0; d < 256; d++) {
            in[2 * d] = sgn ? (uint8_t)(int8_t)-128 : 0;
            in[2 * d + 1] = sgn ? (uint8_t)(int8_t)(d - 128) : (uint8_t)d;
        }
        int32_t zo = sgn ? -128 : 0;
        if (!run_softmax(in, 256, 2, sgn, s_in, 0, 1.0f, zo, got)) {
            check(false, "softmax pairs model runs", k, 0, 0, 0);
            continue;
        }
        for (int d = 0; d < 256; d++) {
            model_softmax(in + 2 * d, 2, sgn, s_in, 1.0f, zo, want);
            for (int i = 0; i < 2; i++) {
                check(got[2 * d + i] == want[i], "softmax pair (k, d, i) -> got", k, d, i,
                      got[2 * d + i]);
                diff += got[2 * d + i] != want[i];
            }
        }
        values += 512;
    }
    printf("softmax pairs: %ld values, %ld differ\n", values, diff);
}

int main(int argc, char **argv)
{
    long random_values = argc > 1 ? atol(argv[1]) : 4000000;
    find_paths();
    printf("ISA level %s; paths:", nn_isa_name(nn_isa_current()));
    for (int p = 0; p < npaths; p++)
        printf(" %s", paths[p].name);
    printf("\n");
    test_quantize_multiplier();
    test_scalar_edges();
    test_scalar_foreign_shifts();
    test_ties();
    test_rows_edges();
    test_scalar_random(random_values);
    test_rows_random(random_values);
    test_gemm();
    test_depthwise();
    test_softmax();
    test_softmax_pairs();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
