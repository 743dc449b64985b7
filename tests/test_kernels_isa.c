/*
 * Every float vector kernel of every level this CPU runs against the
 * portable one, called directly on random data: they must match within
 * rounding (fused multiply-adds, other sum orders). The conformance runs
 * check each level end to end; this checks the parts the CTS tolerances
 * would let through. The int8 GEMM kernels (raw and fused with the output
 * stage) and the quantized depthwise tiles are compared bit for bit, called
 * directly with every way of reading A, partial panels, earlier k blocks'
 * sums and random output stages; test_qkernels checks the whole products
 * on the level NNAPI_LINUX_ISA selects.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/depthwise_internal.h"
#include "kernels/conv_direct.h"
#include "kernels/elementwise.h"
#include "kernels/float_ops.h"
#include "kernels/gemm_internal.h"
#include "kernels/isa.h"
#include "test_util.h"

/* The GEMM kernels come from gemm.c's table of the level; the float ones
 * are checked once per distinct kernel (neondot shares neon's). */
typedef struct level {
    const char *name;
    nn_isa isa;
    unsigned needs; /* NN_CPU_* bits */
    bool float_checked_before; /* neondot: the float kernels are neon's */
    size_t s_mr;
    nn_sgemm_kernel_fn skernel;
    bool s_cols;   /* takes NN_GEMM_COLS */
    nn_dw_f32_fn dw_f32;
    nn_sconv_direct_fn sconv_direct; /* NULL: the portable one serves */
    const nn_float_ops_isa *fops;    /* NULL: the portable one serves */
    nn_dw_q8_fn dw_q8;
} level;

static const level levels[] = {
#if defined(NN_KERNELS_X86_64)
    {"avx2", NN_ISA_AVX2, NN_CPU_AVX2, false, NN_SGEMM_MR_AVX2, nn_sgemm_kernel_avx2, false,
     nn_dw_tile_f32_avx2, nn_sconv_direct_row_avx2, &nn_float_ops_avx2, nn_dw_tile_q8_avx2},
    {"avx512", NN_ISA_AVX512, NN_CPU_AVX512, false, NN_SGEMM_MR_AVX512, nn_sgemm_kernel_avx512,
     true, nn_dw_tile_f32_avx512, nn_sconv_direct_row_avx512,
     &nn_float_ops_avx512, nn_dw_tile_q8_avx512},
#elif defined(NN_KERNELS_AARCH64)
    {"neon", NN_ISA_NEON, NN_CPU_ASIMD, false, NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon, false,
     nn_dw_tile_f32_neon, NULL, NULL, nn_dw_tile_q8_neon},
    {"neondot", NN_ISA_NEONDOT, NN_CPU_ASIMD | NN_CPU_ASIMDDP, true, NN_SGEMM_MR_NEON,
     nn_sgemm_kernel_neon, false, nn_dw_tile_f32_neon, NULL, NULL, nn_dw_tile_q8_neon},
#endif
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}
static float rnd_f(void) { return (float)(rnd() % 2001) / 1000.0f - 1.0f; }

/* A 3x3 tile over nc channels, px pixels at stride 2. */
static nn_dw_tile dw_geometry(size_t nc)
{
    nn_dw_tile t = {.rows = 3, .cols = 3, .nc = nc, .out_px = nc};
    t.in_col = nc;
    t.in_px = 2 * nc;
    t.in_row = 20 * nc;
    t.f_col = nc;
    t.f_row = 3 * nc;
    return t;
}

static void check_depthwise(const level *L)
{
    static const size_t ncs[] = {1, 8, 13, 32, 67};
    static const size_t pxs[] = {1, 2, 4, 8};
    enum { IN_MAX = 3 * 20 * 67 };
    static float inf[IN_MAX], filt[9 * 67], bias[67];
    float fwant[NN_DW_PX_MAX * 67], fgot[NN_DW_PX_MAX * 67];
    int bad_f = 0;
    for (size_t a = 0; a < sizeof ncs / sizeof ncs[0]; a++)
        for (size_t p = 0; p < sizeof pxs / sizeof pxs[0]; p++) {
            nn_dw_tile t = dw_geometry(ncs[a]);
            for (size_t i = 0; i < IN_MAX; i++)
                inf[i] = rnd_f();
            for (size_t i = 0; i < 9 * ncs[a]; i++)
                filt[i] = rnd_f();
            for (size_t i = 0; i < ncs[a]; i++)
                bias[i] = rnd_f();
            nn_dw_tile_f32_c(&t, pxs[p], inf, filt, bias, -0.5f, 2.0f, fwant);
            L->dw_f32(&t, pxs[p], inf, filt, bias, -0.5f, 2.0f, fgot);
            for (size_t i = 0; i < pxs[p] * t.nc; i++)
                if (fabsf(fwant[i] - fgot[i]) > 1e-5f)
                    bad_f++;
        }
    if (!CHECK(bad_f == 0))
        fprintf(stderr, "    %s: float depthwise off by more than 1e-5 in %d values\n", L->name,
                bad_f);
}

static void check_sgemm(const level *L)
{
    enum { KC = 37, LD = 40 };
    float a[NN_GEMM_MAX_MR * LD], bias[NN_GEMM_NR];
    _Alignas(64) float b[KC * NN_GEMM_NR];
    float c[NN_GEMM_MAX_MR * NN_GEMM_NR], start[NN_GEMM_MAX_MR * NN_GEMM_NR];
    int bad = 0;
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        a[i] = rnd_f();
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        b[i] = rnd_f();
    for (size_t j = 0; j < NN_GEMM_NR; j++)
        bias[j] = rnd_f();
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++)
        start[i] = rnd_f();
    const unsigned flag_end = 4;
    for (size_t mr = 1; mr <= L->s_mr; mr++)
        for (unsigned variant = 0; variant < flag_end * (L->s_cols ? 2 : 1); variant++) {
            /* The second half: 5 columns only (NN_GEMM_COLS). */
            unsigned cols = variant >= flag_end ? 5 : NN_GEMM_NR;
            unsigned flags = variant % flag_end | (cols < NN_GEMM_NR ? NN_GEMM_COLS(cols) : 0);
            memcpy(c, start, sizeof c);
            L->skernel(mr, KC, a, LD, b, c, NN_GEMM_NR, bias, flags, -1.0f, 1.5f);
            for (size_t i = 0; i < mr; i++)
                for (size_t j = 0; j < NN_GEMM_NR; j++) {
                    if (j >= cols) { /* untouched */
                        if (c[i * NN_GEMM_NR + j] != start[i * NN_GEMM_NR + j])
                            bad++;
                        continue;
                    }
                    double s = (flags & NN_GEMM_ACCUMULATE) ? start[i * NN_GEMM_NR + j] : bias[j];
                    for (size_t p = 0; p < KC; p++)
                        s += (double)a[i * LD + p] * b[p * NN_GEMM_NR + j];
                    if (flags & NN_GEMM_CLAMP)
                        s = s < -1.0 ? -1.0 : (s > 1.5 ? 1.5 : s);
                    if (fabs(s - c[i * NN_GEMM_NR + j]) > 1e-4)
                        bad++;
                }
        }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: float GEMM kernel off by more than 1e-4 in %d values\n",
                L->name, bad);
}

/* The multi-panel float kernel equals the one-panel kernel panel by panel,
 * bit for bit, with NN_GEMM_COLS (where the ISA takes it) on the last
 * panel only. */
static void check_sgemm_panels(const level *L, const nn_gemm_isa *K)
{
    enum { KC = 21, LD = 24, PANELS = 3, BSTRIDE = KC * NN_GEMM_NR + NN_GEMM_NR };
    enum { LDC = PANELS * NN_GEMM_NR + 3 };
    if (!K->spanels)
        return;
    float a[NN_GEMM_MAX_MR * LD], bias[PANELS * NN_GEMM_NR];
    _Alignas(64) float b[PANELS * BSTRIDE];
    float start[NN_GEMM_MAX_MR * LDC], want[NN_GEMM_MAX_MR * LDC], got[NN_GEMM_MAX_MR * LDC];
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        a[i] = rnd_f();
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        b[i] = rnd_f();
    for (size_t i = 0; i < sizeof bias / sizeof bias[0]; i++)
        bias[i] = rnd_f();
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++)
        start[i] = rnd_f();
    int bad = 0;
    for (size_t mr = 1; mr <= L->s_mr; mr++)
        for (unsigned variant = 0; variant < (L->s_cols ? 16u : 8u); variant++) {
            unsigned flags = variant & 3u;
            unsigned last = variant >= 8 ? 7 : NN_GEMM_NR;
            const float *bv = variant & 4u ? bias : NULL;
            memcpy(want, start, sizeof want);
            memcpy(got, start, sizeof got);
            for (size_t q = 0; q < PANELS; q++) {
                unsigned fq = flags | (q + 1 == PANELS && last < NN_GEMM_NR ? NN_GEMM_COLS(last) : 0);
                K->skernel(mr, KC, a, LD, b + q * BSTRIDE, want + q * NN_GEMM_NR, LDC,
                           bv ? bv + q * NN_GEMM_NR : NULL, fq, -1.0f, 1.5f);
            }
            K->spanels(mr, KC, a, LD, b, BSTRIDE, PANELS, got, LDC, bv,
                       flags | (last < NN_GEMM_NR ? NN_GEMM_COLS(last) : 0), -1.0f, 1.5f);
            if (memcmp(want, got, sizeof want) != 0)
                bad++;
        }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: multi-panel float GEMM kernel differs in %d cases\n", L->name,
                bad);
}

static int32_t rnd_range(int32_t lo, int32_t hi) /* inclusive, hi - lo < 2^32 - 1 */
{
    return (int32_t)((int64_t)lo + (int64_t)(rnd() % (uint32_t)((int64_t)hi - lo + 1)));
}
static int32_t rnd_i32(void) { return (int32_t)((rnd() << 16) ^ rnd()); }

/* Quantized depthwise tiles against the portable tile: same bytes. */
static void check_depthwise_q8(const level *L)
{
    static const size_t ncs[] = {1, 8, 13, 32, 67};
    static const size_t pxs[] = {1, 2, 4, 8};
    enum { IN_MAX = 3 * 20 * 67, NC_MAX = 67 };
    static uint8_t in[IN_MAX];
    static int32_t filt[9 * NC_MAX], bias[NC_MAX], mult[NC_MAX], shift[NC_MAX];
    uint8_t want[NN_DW_PX_MAX * NC_MAX], got[NN_DW_PX_MAX * NC_MAX];
    int bad = 0, cases = 0;
    for (int round = 0; round < 6; round++)
        for (size_t a = 0; a < sizeof ncs / sizeof ncs[0]; a++)
            for (size_t p = 0; p < sizeof pxs / sizeof pxs[0]; p++) {
                nn_dw_tile t = dw_geometry(ncs[a]);
                bool in_signed = round & 1, out_signed = round & 2;
                for (size_t i = 0; i < IN_MAX; i++)
                    in[i] = (uint8_t)rnd();
                for (size_t i = 0; i < 9 * ncs[a]; i++)
                    filt[i] = rnd_range(-255, 255);
                for (size_t c = 0; c < ncs[a]; c++) {
                    bias[c] = rnd_range(-300000, 300000);
                    mult[c] = rnd_range(1 << 30, INT32_MAX);
                    shift[c] = rnd() % 8 ? rnd_range(-14, -4) : rnd_range(-31, 31);
                }
                int32_t out_zero = out_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
                nn_dw_out o = {bias, mult, shift, out_zero, out_signed ? -128 : 0,
                               out_signed ? 127 : 255};
                if (round >= 4) /* a fused ReLU-like range */
                    o.lo = out_zero;
                int32_t in_zero = in_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
                memset(got, 0xA5, sizeof got);
                memset(want, 0xA5, sizeof want);
                nn_dw_tile_q8_c(&t, pxs[p], in, in_signed, in_zero, filt, &o, want);
                L->dw_q8(&t, pxs[p], in, in_signed, in_zero, filt, &o, got);
                bad += memcmp(want, got, sizeof got) != 0;
                cases++;
            }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: quantized depthwise tile differs in %d of %d cases\n", L->name,
                bad, cases);
}

enum { RUN_NC_MAX = 67, RUN_COLS = 30, RUN_PX_MAX = 13, RUN_ROWS_OUT = 3, RUN_IN_ROWS = 7 };

/* One case of check_depthwise_q8_runs: whether the run gives the portable
 * tile's bytes. round picks the signedness, clamp range and bias range. */
static bool dw_run_case(nn_dw_q8_run_fn fn, size_t nc, size_t px, size_t stride, size_t rows,
                        bool lead, bool trail, int round)
{
    static uint8_t in[RUN_IN_ROWS * RUN_COLS * RUN_NC_MAX];
    static int32_t filt[9 * RUN_NC_MAX], packed[9 * RUN_NC_MAX], bias[RUN_NC_MAX];
    static int32_t folded[RUN_NC_MAX], mult[RUN_NC_MAX], shift[RUN_NC_MAX];
    static uint8_t want[RUN_ROWS_OUT * RUN_PX_MAX * RUN_NC_MAX + 64];
    static uint8_t got[RUN_ROWS_OUT * RUN_PX_MAX * RUN_NC_MAX + 64];
    nn_dw_tile t = {.rows = rows, .cols = 3, .in_row = RUN_COLS * nc, .in_col = nc,
                    .in_px = stride * nc, .f_row = 3 * nc, .f_col = nc, .nc = nc, .out_px = nc};
    /* Output rows 1 or 2 input rows apart, stored px pixels apart. */
    nn_dw_run run = {.px = px, .rows_out = 1 + rnd() % RUN_ROWS_OUT,
                     .in_step = (1 + rnd() % 2) * t.in_row, .out_step = px * nc, .lead = lead,
                     .trail = trail};
    bool in_signed = round & 1, out_signed = round & 2;
    for (size_t i = 0; i < RUN_IN_ROWS * RUN_COLS * nc; i++)
        in[i] = (uint8_t)rnd();
    for (size_t i = 0; i < 9 * nc; i++) {
        filt[i] = rnd_range(-255, 255);
        packed[i] = nn_dw_pack16(filt[i]);
    }
    int32_t in_zero = in_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
    for (size_t c = 0; c < nc; c++) {
        bias[c] = round == 7 ? rnd_i32() : rnd_range(-300000, 300000);
        mult[c] = rnd_range(1 << 30, INT32_MAX);
        shift[c] = rnd() % 8 ? rnd_range(-14, -4) : rnd_range(-31, 31);
        int64_t sum = 0;
        for (size_t i = 0; i < 3 * rows; i++)
            sum += filt[i * nc + c];
        folded[c] = nn_wrapping_add_i32(bias[c], (int32_t)(uint32_t)(-(int64_t)in_zero * sum));
    }
    int32_t out_zero = out_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
    nn_dw_out o = {bias, mult, shift, out_zero, out_signed ? -128 : 0, out_signed ? 127 : 255};
    if (round >= 4) /* a fused ReLU-like range */
        o.lo = out_zero;
    if (round == 6) /* ReLU6-like: both ends inside the range */
        o.hi = o.lo + 100 < o.hi ? o.lo + 100 : o.hi;
    nn_dw_out of = o;
    of.bias = folded;
    memset(got, 0xA5, sizeof got);
    memset(want, 0xA5, sizeof want);
    /* Pixel q's column 0 is input column stride * q - lead: the lead and
     * trail pixels are tiles of their 2 columns inside the input. */
    size_t mid = px - lead - trail;
    nn_dw_tile two = t;
    two.cols = 2;
    for (size_t y = 0; y < run.rows_out; y++) {
        const uint8_t *iy = in + y * run.in_step;
        uint8_t *wy = want + y * run.out_step;
        if (lead)
            nn_dw_tile_q8_c(&two, 1, iy, in_signed, in_zero, filt + nc, &o, wy);
        if (mid)
            nn_dw_tile_q8_c(&t, mid, iy + (stride * lead - lead) * nc, in_signed, in_zero, filt, &o,
                            wy + lead * nc);
        if (trail)
            nn_dw_tile_q8_c(&two, 1, iy + (stride * (px - 1) - lead) * nc, in_signed, in_zero, filt,
                            &o, wy + (px - 1) * nc);
    }
    fn(&t, &run, in, in_signed, in_zero, packed, &of, got);
    return memcmp(want, got, sizeof got) == 0;
}

/* The quantized depthwise runs (nn_dw_q8_run_fn: packed filter, the input
 * zero point folded into the bias) against the portable tile on the same
 * taps: same bytes, over channel tails, strides 1 and 2, 1 to 3 filter
 * rows, 1 to 3 output rows, run lengths crossing every chunk size, with and
 * without a first pixel missing its column 0 (lead) and a last one missing
 * its column 2 (trail), int8 and uint8 with non-zero zero points, clamp
 * ranges, any shift and extreme biases. */
static void check_depthwise_q8_runs(void)
{
    static const struct {
        const char *name;
        unsigned needs;
        nn_dw_q8_run_fn run;
    } runs[] = {
        {"portable", 0, nn_dw_run_q8_c},
#if defined(NN_KERNELS_X86_64)
        {"avx2", NN_CPU_AVX2, nn_dw_run_q8_avx2},
        {"avx512", NN_CPU_AVX512, nn_dw_run_q8_avx512},
#endif
    };
    static const size_t ncs[] = {1, 8, 13, 16, 32, 67};
    static const size_t pxs[] = {1, 2, 3, 4, 5, 8, 9, 13};
    unsigned cpu = nn_cpu_features();
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        if ((cpu & runs[k].needs) != runs[k].needs) {
            printf("%s depthwise runs: not run, this CPU lacks it\n", runs[k].name);
            continue;
        }
        int bad = 0, cases = 0;
        for (int round = 0; round < 8; round++)
            for (size_t a = 0; a < sizeof ncs / sizeof ncs[0]; a++)
                for (size_t p = 0; p < sizeof pxs / sizeof pxs[0]; p++)
                    for (size_t stride = 1; stride <= 2; stride++)
                        for (size_t rows = 1; rows <= 3; rows++)
                            for (int edges = 0; edges < 4; edges++) {
                                bool lead = edges & 1, trail = edges & 2;
                                if (lead && trail && pxs[p] < 2)
                                    continue;
                                bad += !dw_run_case(runs[k].run, ncs[a], pxs[p], stride, rows, lead,
                                                    trail, round);
                                cases++;
                            }
        if (!CHECK(bad == 0))
            fprintf(stderr, "    %s: quantized depthwise run differs in %d of %d cases\n",
                    runs[k].name, bad, cases);
        printf("%s depthwise runs: %d cases checked\n", runs[k].name, cases);
    }
}

/* The portable kernels take at most NN_QGEMM_MR_C rows: the reference runs
 * in chunks of them (row r of A is at base + r * row in every layout). */
static void ref_qkernel(size_t rows, size_t kq, const nn_q8_rows *a, const int32_t *b,
                        int32_t *acc, bool init)
{
    for (size_t r0 = 0; r0 < rows; r0 += NN_QGEMM_MR_C) {
        size_t n = rows - r0 < NN_QGEMM_MR_C ? rows - r0 : NN_QGEMM_MR_C;
        nn_q8_rows part = {a->base + r0 * a->row, a->row, a->group, a->flip};
        nn_qgemm_kernel_c(n, kq, &part, b, acc + r0 * NN_GEMM_NR, init);
    }
}

static void ref_qfused(size_t rows, size_t kq, const nn_q8_rows *a, const int32_t *b,
                       const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc)
{
    for (size_t r0 = 0; r0 < rows; r0 += NN_QGEMM_MR_C) {
        size_t n = rows - r0 < NN_QGEMM_MR_C ? rows - r0 : NN_QGEMM_MR_C;
        nn_q8_rows part = {a->base + r0 * a->row, a->row, a->group, a->flip};
        nn_qgemm_epilogue pe = *e;
        if (e->row_term)
            pe.row_term = e->row_term + r0;
        nn_qgemm_fused_c(n, kq, &part, b, acc_in ? acc_in + r0 * NN_GEMM_NR : NULL, &pe,
                         c + r0 * ldc, ldc);
    }
}

/* Operands of case `cases`: random bytes, or (one case in four) A's bytes
 * all 255 (flipped or not) against B all -128 or all 127, the products'
 * largest magnitudes (a kernel whose pair sums saturated int16 fails). */
static void fill_operands(int cases, uint8_t *a, size_t a_bytes, int8_t *b, size_t b_bytes)
{
    const int mode = cases % 8 == 3 ? 1 : (cases % 8 == 7 ? 2 : 0);
    for (size_t i = 0; i < a_bytes; i++)
        a[i] = mode ? 0xFF : (uint8_t)rnd();
    for (size_t i = 0; i < b_bytes; i++)
        b[i] = mode == 1 ? -128 : (mode == 2 ? 127 : (int8_t)rnd());
}

/* An output zero point, the type's extremes one time in four. */
static int32_t rnd_out_zero(bool out_signed)
{
    if (rnd() % 4 == 0)
        return rnd() & 1 ? (out_signed ? -128 : 0) : (out_signed ? 127 : 255);
    return out_signed ? rnd_range(-128, 127) : rnd_range(0, 255);
}

/* The int16 copy of one panel of kq words that q_wide_b kernels read. */
static void widen_panel(const int8_t *panel, int16_t *wide, size_t kq)
{
#if defined(NN_KERNELS_X86_64)
    nn_widen_i8_avx2(panel, wide, 1, kq);
#else
    for (size_t i = 0; i < kq * 4 * NN_GEMM_NR; i++)
        wide[i] = panel[i];
#endif
}

/* How a kernel is handed A (nn_q8_rows): gemm.c's two ways, and one with
 * other steps that the contract allows too. */
enum { A_PACKED, A_IN_PLACE, A_STRIDED, A_LAYOUTS };

/* int8 GEMM kernels of level K against the portable ones, bit for bit. */
static void check_qgemm(const level *L, const nn_gemm_isa *K)
{
    /* Up to past a k block of gemm.c (256 words), which kernels that copy
     * A by blocks take in several. */
    enum { KQ_MAX = 300, ACC = NN_GEMM_MAX_MR * NN_GEMM_NR };
    static const size_t kqs[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 70, KQ_MAX};
    _Alignas(64) static int8_t panel[KQ_MAX * 4 * NN_GEMM_NR];
    _Alignas(64) static int16_t wide[KQ_MAX * 4 * NN_GEMM_NR];
    int32_t start[ACC], acc_in[ACC], want[ACC], got[ACC], row_term[NN_GEMM_MAX_MR];
    int32_t col_term[NN_GEMM_NR], mult[NN_GEMM_NR], shift[NN_GEMM_NR];
    enum { LDC = NN_GEMM_NR + 3 };
    uint8_t cwant[NN_GEMM_MAX_MR * LDC], cgot[NN_GEMM_MAX_MR * LDC];
    int bad_raw = 0, bad_fused = 0, cases = 0;
    for (size_t ki = 0; ki < sizeof kqs / sizeof kqs[0]; ki++)
        for (size_t rows = 1; rows <= K->q_mr; rows++)
            for (int layout = 0; layout < A_LAYOUTS; layout++) {
                const size_t kq = kqs[ki];
                const int32_t *b = K->q_wide_b ? (const int32_t *)(const void *)wide
                                               : (const int32_t *)(const void *)panel;
                /* Word (i, g) at i * row + g * group; packed keeps the
                 * kernel's q_mr rows per group even when fewer are used. */
                size_t row, group;
                if (layout == A_PACKED) {
                    row = 4;
                    group = 4 * K->q_mr;
                } else if (layout == A_IN_PLACE) {
                    row = 4 * kq + 4 * (rnd() % 3);
                    group = 4;
                } else {
                    row = 8 * kq + 12;
                    group = 8;
                }
                /* Exactly the bytes the contract lets the kernel read. */
                size_t bytes = (rows - 1) * row + (kq - 1) * group + 4;
                uint8_t *abuf = malloc(bytes);
                if (!abuf) {
                    CHECK(!"allocation");
                    return;
                }
                fill_operands(cases, abuf, bytes, panel, kq * 4 * NN_GEMM_NR);
                widen_panel(panel, wide, kq);
                nn_q8_rows a = {abuf, row, group, rnd() & 1 ? 0x80808080u : 0};
                for (size_t i = 0; i < ACC; i++) {
                    start[i] = rnd_i32();
                    acc_in[i] = rnd() % 2 ? rnd_i32() : rnd_range(-(1 << 20), 1 << 20);
                }
                /* Raw accumulators, from zero and on top of earlier sums. */
                for (int init = 0; init < 2; init++) {
                    memcpy(want, start, sizeof want);
                    memcpy(got, start, sizeof got);
                    ref_qkernel(rows, kq, &a, (const int32_t *)(const void *)panel, want, init);
                    K->qkernel(rows, kq, &a, b, got, init);
                    bad_raw += memcmp(want, got, rows * NN_GEMM_NR * sizeof(int32_t)) != 0;
                }
                /* Fused: a random output stage; a partial panel every third case. */
                for (int rep = 0; rep < 2; rep++) {
                    bool out_signed = rnd() & 1;
                    for (size_t j = 0; j < NN_GEMM_NR; j++) {
                        col_term[j] = rnd() % 4 ? rnd_range(-(1 << 22), 1 << 22) : rnd_i32();
                        mult[j] = rnd() % 6 ? rnd_range(1 << 30, INT32_MAX) : rnd_range(0, INT32_MAX);
                        /* The fused kernels' range (gemm_internal.h). */
                        shift[j] = rnd() % 5 ? rnd_range(-22, -6)
                                             : rnd_range(-NN_QGEMM_FUSED_MAX_RIGHT, 31);
                    }
                    for (size_t i = 0; i < NN_GEMM_MAX_MR; i++)
                        row_term[i] = rnd_range(-(1 << 22), 1 << 22);
                    nn_qgemm_epilogue e = {
                        .col_term = col_term, .mult = mult, .shift = shift,
                        .rounding = rnd() & 1 ? NN_ROUND_UP : NN_ROUND_AWAY,
                        .row_term = rnd() & 1 ? row_term : NULL,
                        /* Every width of a partial panel in turn. */
                        .cols = cases % 2 == 0 ? 1 + (size_t)(cases / 2) % NN_GEMM_NR : NN_GEMM_NR,
                        .out_zero = rnd_out_zero(out_signed),
                        .lo = out_signed ? -128 : 0, .hi = out_signed ? 127 : 255,
                        .out_signed = out_signed};
                    if (rnd() & 1)
                        e.lo = e.out_zero;
                    /* An upper clamp below the type's (ReLU6, ReLU1): the
                     * kernels that narrow with saturation clamp bytes. */
                    if (rnd() % 3 == 0)
                        e.hi = rnd_range(e.lo, out_signed ? 127 : 255);
                    const int32_t *in = rep ? acc_in : NULL;
                    memset(cwant, 0x5A, sizeof cwant);
                    memset(cgot, 0x5A, sizeof cgot);
                    ref_qfused(rows, kq, &a, (const int32_t *)(const void *)panel, in, &e, cwant, LDC);
                    K->qfused(rows, kq, &a, b, in, &e, cgot, LDC);
                    bad_fused += memcmp(cwant, cgot, sizeof cgot) != 0;
                }
                free(abuf);
                cases++;
            }
    if (!CHECK(bad_raw == 0))
        fprintf(stderr, "    %s: int8 kernel differs in %d cases\n", L->name, bad_raw);
    if (!CHECK(bad_fused == 0))
        fprintf(stderr, "    %s: fused int8 kernel differs in %d cases\n", L->name, bad_fused);
    printf("%s: %d int8 kernel cases\n", L->name, cases);
}

/* The multi-panel fused kernel against the portable one panel by panel,
 * bit for bit: A in place (flipped or not) and strided, k from one word to
 * a whole k block, a partial last panel, one rounding for every panel. */
static void check_qgemm_panels(const level *L, const nn_gemm_isa *K)
{
    /* k from one word to a whole k block of gemm.c (256), and past it. */
    enum { PANELS = 3, KQ_MAX = 300, BSTRIDE = KQ_MAX * NN_GEMM_NR + NN_GEMM_NR };
    enum { LDC = PANELS * NN_GEMM_NR + 5 };
    static const size_t kqs[] = {1, 2, 4, 5, 9, 16, 17, 33, 64, 255, 256, KQ_MAX};
    if (!K->qpanels)
        return;
    _Alignas(64) static int8_t b[PANELS * BSTRIDE * 4];
    _Alignas(64) static int16_t wide[PANELS * BSTRIDE * 4];
    static uint8_t abuf[NN_GEMM_MAX_MR * (8 * KQ_MAX + 12)];
    int32_t col_term[PANELS][NN_GEMM_NR], mult[PANELS][NN_GEMM_NR], shift[PANELS][NN_GEMM_NR];
    int32_t row_term[NN_GEMM_MAX_MR];
    uint8_t cwant[NN_GEMM_MAX_MR * LDC], cgot[NN_GEMM_MAX_MR * LDC];
    int bad = 0, cases = 0;
    for (size_t ki = 0; ki < sizeof kqs / sizeof kqs[0]; ki++)
        for (size_t rows = 1; rows <= K->q_mr; rows++)
            for (size_t panels = 1; panels <= PANELS; panels++) {
                const size_t kq = kqs[ki];
                if (kq > 64 && rows % 5 != 1)
                    continue; /* long k: a few heights suffice */
                fill_operands(cases, abuf, sizeof abuf, b, sizeof b);
                for (size_t q = 0; q < PANELS; q++)
                    widen_panel(b + 4 * q * BSTRIDE, wide + 4 * q * BSTRIDE, kq);
                bool strided = rnd() % 4 == 0;
                size_t row = strided ? 8 * kq + 12 : 4 * kq + 4 * (rnd() % 3);
                nn_q8_rows a = {abuf, row, strided ? 8 : 4, rnd() & 1 ? 0x80808080u : 0};
                bool out_signed = rnd() & 1;
                nn_rounding rounding = rnd() & 1 ? NN_ROUND_UP : NN_ROUND_AWAY;
                int32_t out_zero = rnd_out_zero(out_signed);
                int32_t lo = rnd() & 1 ? out_zero : (out_signed ? -128 : 0);
                int32_t hi = rnd() % 3 == 0 ? rnd_range(lo, out_signed ? 127 : 255)
                                            : (out_signed ? 127 : 255);
                for (size_t i = 0; i < NN_GEMM_MAX_MR; i++)
                    row_term[i] = rnd_range(-(1 << 22), 1 << 22);
                bool rows_too = rnd() & 1;
                nn_qgemm_epilogue e[PANELS];
                for (size_t q = 0; q < panels; q++) {
                    for (size_t j = 0; j < NN_GEMM_NR; j++) {
                        col_term[q][j] = rnd() % 4 ? rnd_range(-(1 << 22), 1 << 22) : rnd_i32();
                        mult[q][j] = rnd() % 6 ? rnd_range(1 << 30, INT32_MAX) : rnd_range(0, INT32_MAX);
                        shift[q][j] = rnd() % 5 ? rnd_range(-22, -6)
                                                : rnd_range(-NN_QGEMM_FUSED_MAX_RIGHT, 31);
                    }
                    /* Every width of a partial last panel in turn. */
                    size_t cols = q + 1 == panels && cases % 2 == 0
                                          ? 1 + (size_t)(cases / 2) % NN_GEMM_NR
                                          : NN_GEMM_NR;
                    e[q] = (nn_qgemm_epilogue){
                        .col_term = col_term[q], .mult = mult[q], .shift = shift[q],
                        .rounding = rounding, .row_term = rows_too ? row_term : NULL,
                        .cols = cols, .out_zero = out_zero, .lo = lo, .hi = hi,
                        .out_signed = out_signed};
                }
                memset(cwant, 0x5A, sizeof cwant);
                memset(cgot, 0x5A, sizeof cgot);
                for (size_t q = 0; q < panels; q++)
                    ref_qfused(rows, kq, &a, (const int32_t *)(const void *)(b + 4 * q * BSTRIDE),
                               NULL, &e[q], cwant + q * NN_GEMM_NR, LDC);
                /* q_wide_b: the same panels as int16, twice the stride in words. */
                if (K->q_wide_b)
                    K->qpanels(rows, kq, &a, (const int32_t *)(const void *)wide, 2 * BSTRIDE,
                               panels, e, cgot, LDC);
                else
                    K->qpanels(rows, kq, &a, (const int32_t *)(const void *)b, BSTRIDE, panels, e,
                               cgot, LDC);
                bad += memcmp(cwant, cgot, sizeof cgot) != 0;
                cases++;
            }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: multi-panel fused int8 kernel differs in %d of %d cases\n",
                L->name, bad, cases);
    printf("%s: %d multi-panel int8 kernel cases\n", L->name, cases);
}

#if defined(NN_KERNELS_AARCH64)
/* The portable rows' arithmetic, written out (kernels/elementwise.c). */
static float ew_ref(nn_ew_arith op, float x, float y)
{
    switch (op) {
    case NN_EW_ADD:
        return x + y;
    case NN_EW_SUB:
        return x - y;
    case NN_EW_MUL:
        return x * y;
    case NN_EW_DIV:
        return x / y;
    case NN_EW_MAX:
        return x > y ? x : y;
    case NN_EW_MIN:
        return x < y ? x : y;
    default:
        return x >= 0.0f ? x : x * y;
    }
}

static float unary_ref(nn_ew_unary op, float x)
{
    switch (op) {
    case NN_EW_ABS:
        return fabsf(x);
    case NN_EW_NEG:
        return -x;
    case NN_EW_RELU:
        return x < 0.0f ? 0.0f : x;
    case NN_EW_RELU1:
        return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
    default:
        return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
    }
}

/* Same bits, or both NaN (payloads are not compared). */
static bool same_float(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Random values with signed zeros, infinities, NaN and values at the
 * clamps' edges among them. */
static float rnd_special(void)
{
    static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 6.0f, INFINITY, -INFINITY, NAN};
    return rnd() % 4 ? rnd_f() * 8.0f : specials[rnd() % (sizeof specials / sizeof specials[0])];
}

static void check_elementwise_neon(void)
{
    enum { N_MAX = 37 };
    static const nn_ew_arith ops[] = {NN_EW_ADD, NN_EW_SUB, NN_EW_MUL, NN_EW_DIV,
                                      NN_EW_MAX, NN_EW_MIN, NN_EW_PRELU};
    static const nn_ew_unary uops[] = {NN_EW_ABS, NN_EW_NEG, NN_EW_RELU, NN_EW_RELU1, NN_EW_RELU6};
    float a[N_MAX], b[N_MAX], got[N_MAX + 1];
    int bad = 0, values = 0;
    for (int round = 0; round < 40; round++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            nn_ew_row_fn fn = nn_ew_f32_row_neon(ops[o]);
            if (!CHECK(fn != NULL))
                return;
            nn_ew_fparams p = {-INFINITY, INFINITY};
            if (round % 3 == 1)
                p = (nn_ew_fparams){0.0f, 6.0f};
            else if (round % 3 == 2)
                p = (nn_ew_fparams){-1.0f, 1.0f};
            for (size_t i = 0; i < N_MAX; i++) {
                a[i] = rnd_special();
                b[i] = rnd_special();
            }
            size_t n = rnd() % (N_MAX + 1);
            for (int s = 0; s < 4; s++) {
                size_t sa = s & 1, sb = s >> 1;
                got[n] = 12345.0f; /* nothing may be written past n */
                fn(&p, a, b, got, n, sa, sb);
                bad += got[n] != 12345.0f;
                for (size_t i = 0; i < n; i++) {
                    float r = ew_ref(ops[o], a[sa ? i : 0], b[sb ? i : 0]);
                    r = r < p.lo ? p.lo : (r > p.hi ? p.hi : r);
                    bad += !same_float(got[i], r);
                    values++;
                }
            }
        }
    for (int round = 0; round < 40; round++)
        for (size_t o = 0; o < sizeof uops / sizeof uops[0]; o++) {
            size_t n = rnd() % (N_MAX + 1);
            for (size_t i = 0; i < N_MAX; i++)
                a[i] = rnd_special();
            got[n] = 12345.0f;
            bool done = nn_ew_unary_f32_neon(uops[o], a, got, n);
            bad += !done || got[n] != 12345.0f;
            for (size_t i = 0; i < n; i++, values++)
                bad += !same_float(got[i], unary_ref(uops[o], a[i]));
        }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    neon: element-wise rows differ from the portable arithmetic in %d "
                        "of %d values\n", bad, values);
    printf("neon: %d element-wise values\n", values);
}
#endif

/* The direct convolution row against the portable one: every pixel count
 * of a tile and its remainders, a partial channel block, and a clamp. */
static void check_sconv_direct(const level *L)
{
    enum { F_H = 3, TAPS_W = 9, STEP = 6, ROW = 200, OC = 37, OCP = 48, MAXPIX = 30 };
    static float in[F_H * ROW + MAXPIX * STEP + TAPS_W];
    _Alignas(64) static float w[F_H * TAPS_W * OCP], bias[OCP];
    static float want[MAXPIX * OC], got[MAXPIX * OC];
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        in[i] = rnd_f();
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        w[i] = i % OCP < OC ? rnd_f() : 0.0f;
    for (size_t j = 0; j < OCP; j++)
        bias[j] = j < OC ? rnd_f() : 0.0f;
    int bad = 0;
    for (size_t npix = 1; npix <= MAXPIX; npix++)
        for (int clamp = 0; clamp < 2; clamp++) {
            float lo = clamp ? -0.5f : -INFINITY, hi = clamp ? 0.75f : INFINITY;
            nn_sconv_direct_row_c(npix, in, STEP, ROW, F_H, TAPS_W, w, OCP, bias, lo, hi, want, OC);
            for (size_t i = 0; i < sizeof got / sizeof got[0]; i++)
                got[i] = 1234.0f;
            L->sconv_direct(npix, in, STEP, ROW, F_H, TAPS_W, w, OCP, bias, lo, hi, got, OC);
            for (size_t i = 0; i < MAXPIX * OC; i++)
                if (i < npix * OC ? fabsf(got[i] - want[i]) > 1e-4f : got[i] != 1234.0f)
                    bad++;
        }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: direct convolution row differs in %d values\n", L->name, bad);
}

/* Softmax rows and pooling pixels: the same bits as the portable build
 * (no contraction in any build), and softmax within 1e-6 of double. */
static void check_float_ops(const level *L)
{
    enum { LEN = 1001, H = 5, W = 6, CH = 70 };
    static float x[LEN], got[LEN], want[LEN], img[H * W * CH];
    for (size_t i = 0; i < LEN; i++)
        x[i] = rnd_f() * 20.0f - 5.0f;
    for (size_t i = 0; i < sizeof img / sizeof img[0]; i++)
        img[i] = rnd_f() * 4.0f - 2.0f;
    int bad = 0, bad_bits = 0;
    for (size_t len = 1; len <= LEN; len += len < 40 ? 1 : 97)
        for (int lg = 0; lg < 2; lg++) {
            float mx = x[0];
            for (size_t i = 0; i < len; i++)
                mx = x[i] > mx ? x[i] : mx;
            nn_float_ops_c.softmax_row(x, want, len, 0.7f, mx, lg);
            L->fops->softmax_row(x, got, len, 0.7f, mx, lg);
            /* The reference takes the kernels' float z = (x - max) * beta:
             * its rounding alone moves exp(z) by |z| * 6e-8. */
            double sum = 0;
            for (size_t i = 0; i < len; i++)
                sum += exp((double)((x[i] - mx) * 0.7f));
            for (size_t i = 0; i < len; i++) {
                double z = (double)((x[i] - mx) * 0.7f);
                double ref = lg ? z - log(sum) : exp(z) / sum;
                if (memcmp(&got[i], &want[i], sizeof got[i]) != 0)
                    bad_bits++;
                if (fabs(got[i] - ref) > 1e-6 * (lg ? fabs(ref) + 1.0 : ref + 1e-30))
                    bad++;
            }
        }
    for (int kind = NN_POOL_F32_AVG; kind <= NN_POOL_F32_L2; kind++)
        for (size_t y0 = 0; y0 < 2; y0++)
            for (size_t x1 = 1; x1 <= W; x1++) {
                float a[CH], b[CH];
                nn_float_ops_c.pool_pixel(kind, img, W * CH, CH, y0, H, 0, x1, -1.5f, 1.75f, a);
                L->fops->pool_pixel(kind, img, W * CH, CH, y0, H, 0, x1, -1.5f, 1.75f, b);
                bad_bits += memcmp(a, b, sizeof a) != 0;
            }
    if (!CHECK(bad == 0 && bad_bits == 0))
        fprintf(stderr, "    %s: float softmax off by more than 1e-6 in %d values; %d values or "
                "pixels differ from the portable build\n", L->name, bad, bad_bits);
}

int main(void)
{
    unsigned cpu = nn_cpu_features();
    static const struct {
        unsigned bit;
        const char *name;
    } features[] = {{NN_CPU_AVX2, "avx2"},       {NN_CPU_AVX512, "avx512"}, {NN_CPU_ASIMD, "asimd"},
                    {NN_CPU_ASIMDDP, "asimddp"}, {NN_CPU_I8MM, "i8mm"},     {NN_CPU_FP16, "fp16"}};
    printf("detected level %s; features:", nn_isa_name(nn_isa_detected()));
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (cpu & features[i].bit)
            printf(" %s", features[i].name);
    printf("\n");
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        const level *L = &levels[i];
        if ((cpu & L->needs) != L->needs) {
            printf("%s: not run, this CPU lacks it\n", L->name);
            continue;
        }
        const nn_gemm_isa *K = nn_gemm_isa_of(L->isa);
        if (!CHECK(K != NULL))
            continue;
        if (!L->float_checked_before) {
            check_depthwise(L);
            check_sgemm(L);
            check_sgemm_panels(L, K);
            if (L->sconv_direct)
                check_sconv_direct(L);
            if (L->fops)
                check_float_ops(L);
        }
        check_depthwise_q8(L);
        check_qgemm(L, K);
        check_qgemm_panels(L, K);
        printf("%s: checked\n", L->name);
    }
    check_depthwise_q8_runs();
#if defined(NN_KERNELS_AARCH64)
    if (cpu & NN_CPU_ASIMD)
        check_elementwise_neon();
    else
        printf("neon element-wise rows: not run, this CPU lacks ASIMD\n");
#endif
    if (sizeof levels / sizeof levels[0] == 0)
        printf("no vector kernels on this architecture: nothing to compare\n");
    return nt_summary();
}
