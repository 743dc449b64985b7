/*
 * Every vector kernel of every level this CPU runs against the portable
 * one, called directly on random and edge-case data: the integer kernels
 * (int8 GEMM, requantization, quantized depthwise) must match bit for bit,
 * the float ones within rounding (fused multiply-adds, other sum orders).
 * The conformance runs check each level end to end; this checks the parts
 * the CTS tolerances would let through.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/depthwise_internal.h"
#include "kernels/gemm_internal.h"
#include "kernels/isa.h"
#include "kernels/quant.h"
#include "test_util.h"

typedef struct level {
    const char *name;
    unsigned needs; /* NN_CPU_* bits */
    size_t s_mr;
    nn_sgemm_kernel_fn skernel;
    size_t q_mr;
    nn_qgemm_kernel_fn qkernel;
    nn_qgemm_requant_fn requant; /* NULL: none at this level */
    nn_dw_f32_fn dw_f32;
    nn_dw_q8_fn dw_q8;
} level;

static const level levels[] = {
#if defined(NN_KERNELS_X86_64)
    {"avx2", NN_CPU_AVX2, NN_SGEMM_MR_AVX2, nn_sgemm_kernel_avx2, NN_QGEMM_MR_AVX2,
     nn_qgemm_kernel_avx2, NULL, nn_dw_tile_f32_avx2, nn_dw_tile_q8_avx2},
    {"avx512", NN_CPU_AVX512, NN_SGEMM_MR_AVX512, nn_sgemm_kernel_avx512, NN_QGEMM_MR_AVX512,
     nn_qgemm_kernel_avx512, nn_qgemm_requant_avx512, nn_dw_tile_f32_avx512,
     nn_dw_tile_q8_avx512},
#elif defined(NN_KERNELS_AARCH64)
    {"neon", NN_CPU_ASIMD, NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon, NN_QGEMM_MR_NEON,
     nn_qgemm_kernel_neon, nn_qgemm_requant_neon, nn_dw_tile_f32_neon, nn_dw_tile_q8_neon},
    {"neondot", NN_CPU_ASIMD | NN_CPU_ASIMDDP, NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon,
     NN_QGEMM_MR_NEONDOT, nn_qgemm_kernel_neondot, nn_qgemm_requant_neon, nn_dw_tile_f32_neon,
     nn_dw_tile_q8_neon},
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

/* Bytes that are mostly random, sometimes the extremes. */
static uint8_t rnd_byte(void)
{
    uint32_t r = rnd();
    return (r & 7) == 0 ? ((r >> 3) & 1 ? 0xff : 0x80) : (uint8_t)(r >> 8);
}

static void check_qgemm(const level *L)
{
    static const size_t kqs[] = {1, 3, 64, 256};
    /* Packed panels are 64-byte aligned (gemm.c), as some kernels assume. */
    _Alignas(64) uint32_t apack[256 * NN_GEMM_MAX_MR];
    _Alignas(64) int32_t b[256 * NN_GEMM_NR];
    int32_t want[NN_GEMM_MAX_MR * NN_GEMM_NR], got[NN_GEMM_MAX_MR * NN_GEMM_NR];
    int bad = 0;
    for (size_t t = 0; t < sizeof kqs / sizeof kqs[0]; t++)
        for (size_t mr = 1; mr <= L->q_mr; mr++)
            for (int init = 0; init < 2; init++) {
                size_t kq = kqs[t];
                for (size_t i = 0; i < kq * mr; i++)
                    apack[i] = rnd_byte() | rnd_byte() << 8 | rnd_byte() << 16 | (uint32_t)rnd_byte() << 24;
                for (size_t i = 0; i < kq * NN_GEMM_NR; i++)
                    b[i] = (int32_t)(rnd_byte() | rnd_byte() << 8 | rnd_byte() << 16 | (uint32_t)rnd_byte() << 24);
                for (size_t i = 0; i < mr * NN_GEMM_NR; i++)
                    want[i] = got[i] = (int32_t)rnd();
                /* The portable kernel takes at most its own MR rows at a time. */
                for (size_t i0 = 0; i0 < mr; i0 += NN_QGEMM_MR_C) {
                    size_t rows = mr - i0 < NN_QGEMM_MR_C ? mr - i0 : NN_QGEMM_MR_C;
                    uint32_t sub[256 * NN_QGEMM_MR_C];
                    for (size_t g = 0; g < kq; g++)
                        for (size_t i = 0; i < rows; i++)
                            sub[g * rows + i] = apack[g * mr + i0 + i];
                    nn_qgemm_kernel_c(rows, kq, sub, rows, b, want + i0 * NN_GEMM_NR, init);
                }
                L->qkernel(mr, kq, apack, mr, b, got, init);
                if (memcmp(want, got, mr * NN_GEMM_NR * sizeof *got) != 0)
                    bad++;
            }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: int8 GEMM kernel differs from the portable one in %d cases\n",
                L->name, bad);
}

static void check_requant(const level *L)
{
    if (!L->requant)
        return;
    int bad = 0;
    for (int t = 0; t < 4000; t++) {
        size_t cols = 1 + rnd() % NN_GEMM_NR;
        int32_t acc[NN_GEMM_NR], col[NN_GEMM_NR], mult[NN_GEMM_NR], rshift[NN_GEMM_NR];
        int32_t row = (int32_t)(rnd() % 20001) - 10000;
        for (size_t j = 0; j < cols; j++) {
            /* Small sums hit the rounding ties; a few are extreme. */
            acc[j] = t % 3 ? (int32_t)(rnd() % 4001) - 2000 : (int32_t)rnd();
            col[j] = (int32_t)(rnd() % 2001) - 1000;
            mult[j] = t % 5 == 0 ? (int32_t)1 << 30 : (int32_t)((1u << 30) + rnd() % (1u << 30));
            rshift[j] = (int32_t)(rnd() % 32);
        }
        bool out_signed = t & 1;
        int32_t zero = out_signed ? (int32_t)(rnd() % 256) - 128 : (int32_t)(rnd() % 256);
        int32_t lo = out_signed ? -128 : 0, hi = out_signed ? 127 : 255;
        uint8_t want[NN_GEMM_NR + 1], got[NN_GEMM_NR + 1];
        got[cols] = want[cols] = 0xa5;
        for (size_t j = 0; j < cols; j++) {
            int32_t v = nn_wrapping_add_i32(nn_wrapping_add_i32(acc[j], row), col[j]);
            int32_t q = nn_clamp_i32(zero + nn_mul_by_quant_mult(v, mult[j], -rshift[j]), lo, hi);
            want[j] = (uint8_t)q;
        }
        L->requant(cols, acc, row, col, mult, rshift, zero, lo, hi, out_signed, got);
        if (memcmp(want, got, cols + 1) != 0)
            bad++;
    }
    if (!CHECK(bad == 0))
        fprintf(stderr, "    %s: requantization differs from quant.h in %d rows\n", L->name, bad);
}

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
    static uint8_t in8[IN_MAX];
    static float inf[IN_MAX], filt[9 * 67], bias[67];
    int32_t want[NN_DW_PX_MAX * 67], got[NN_DW_PX_MAX * 67];
    float fwant[NN_DW_PX_MAX * 67], fgot[NN_DW_PX_MAX * 67];
    int bad_q = 0, bad_f = 0;
    for (size_t a = 0; a < sizeof ncs / sizeof ncs[0]; a++)
        for (size_t p = 0; p < sizeof pxs / sizeof pxs[0]; p++)
            for (int sgn = 0; sgn < 2; sgn++) {
                nn_dw_tile t = dw_geometry(ncs[a]);
                for (size_t i = 0; i < IN_MAX; i++) {
                    in8[i] = rnd_byte();
                    inf[i] = rnd_f();
                }
                for (size_t i = 0; i < 9 * ncs[a]; i++)
                    filt[i] = (float)((int)(rnd() % 511) - 255);
                int32_t zero = sgn ? (int32_t)(rnd() % 256) - 128 : (int32_t)(rnd() % 256);
                nn_dw_tile_q8_c(&t, pxs[p], in8, sgn, zero, filt, want);
                L->dw_q8(&t, pxs[p], in8, sgn, zero, filt, got);
                for (size_t i = 0; i < pxs[p]; i++)
                    if (memcmp(want + i * t.out_px, got + i * t.out_px, t.nc * sizeof *got) != 0)
                        bad_q++;
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
    if (!CHECK(bad_q == 0))
        fprintf(stderr, "    %s: quantized depthwise differs in %d pixels\n", L->name, bad_q);
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
    for (size_t mr = 1; mr <= L->s_mr; mr++)
        for (unsigned flags = 0; flags < 4; flags++) {
            memcpy(c, start, sizeof c);
            L->skernel(mr, KC, a, LD, b, c, NN_GEMM_NR, bias, flags, -1.0f, 1.5f);
            for (size_t i = 0; i < mr; i++)
                for (size_t j = 0; j < NN_GEMM_NR; j++) {
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
        check_qgemm(L);
        check_requant(L);
        check_depthwise(L);
        check_sgemm(L);
        printf("%s: checked\n", L->name);
    }
    if (sizeof levels / sizeof levels[0] == 0)
        printf("no vector kernels on this architecture: nothing to compare\n");
    return nt_summary();
}
