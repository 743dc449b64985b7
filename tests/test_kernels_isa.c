/*
 * Every float vector kernel of every level this CPU runs against the
 * portable one, called directly on random data: they must match within
 * rounding (fused multiply-adds, other sum orders). The conformance runs
 * check each level end to end; this checks the parts the CTS tolerances
 * would let through. The int8 kernels are checked bit for bit by
 * test_qkernels on every level.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/depthwise_internal.h"
#include "kernels/conv_direct.h"
#include "kernels/float_ops.h"
#include "kernels/gemm_internal.h"
#include "kernels/isa.h"
#include "test_util.h"

typedef struct level {
    const char *name;
    unsigned needs; /* NN_CPU_* bits */
    size_t s_mr;
    nn_sgemm_kernel_fn skernel;
    /* NULL, or the packing of A for NN_GEMM_PACKED_A */
    void (*s_pack_a)(size_t rows, size_t kc, const float *a, size_t lda, float *apack);
    bool s_cols;   /* takes NN_GEMM_COLS */
    nn_dw_f32_fn dw_f32;
    nn_sconv_direct_fn sconv_direct; /* NULL: the portable one serves */
    const nn_float_ops_isa *fops;    /* NULL: the portable one serves */
} level;

static const level levels[] = {
#if defined(NN_KERNELS_X86_64)
    {"avx2", NN_CPU_AVX2, NN_SGEMM_MR_AVX2, nn_sgemm_kernel_avx2, NULL, false, nn_dw_tile_f32_avx2,
     nn_sconv_direct_row_avx2, &nn_float_ops_avx2},
    {"avx512", NN_CPU_AVX512, NN_SGEMM_MR_AVX512, nn_sgemm_kernel_avx512,
     nn_sgemm_pack_a_avx512, true,
     nn_dw_tile_f32_avx512, nn_sconv_direct_row_avx512, &nn_float_ops_avx512},
#elif defined(NN_KERNELS_AARCH64)
    {"neon", NN_CPU_ASIMD, NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon, NULL, false,
     nn_dw_tile_f32_neon, NULL, NULL},
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
    /* The same rows packed: element (i, p) at apack[p * s_mr + i]. */
    float apack[KC * NN_GEMM_MAX_MR];
    for (size_t p = 0; p < KC; p++)
        for (size_t i = 0; i < L->s_mr; i++)
            apack[p * L->s_mr + i] = a[i * LD + p];
    if (L->s_pack_a) {
        /* The ISA's packing gives the same layout, zeros past the rows. */
        float packed[KC * NN_GEMM_MAX_MR];
        for (size_t rows = 1; rows <= L->s_mr; rows++) {
            memset(packed, 0x7f, sizeof packed);
            L->s_pack_a(rows, KC, a, LD, packed);
            for (size_t p = 0; p < KC; p++)
                for (size_t i = 0; i < L->s_mr; i++)
                    if (packed[p * L->s_mr + i] != (i < rows ? apack[p * L->s_mr + i] : 0.0f))
                        bad++;
        }
    }
    unsigned flag_end = L->s_pack_a ? 8 : 4;
    for (size_t mr = 1; mr <= L->s_mr; mr++)
        for (unsigned variant = 0; variant < flag_end * (L->s_cols ? 2 : 1); variant++) {
            /* The second half: 5 columns only (NN_GEMM_COLS). */
            unsigned cols = variant >= flag_end ? 5 : NN_GEMM_NR;
            unsigned flags = variant % flag_end | (cols < NN_GEMM_NR ? NN_GEMM_COLS(cols) : 0);
            memcpy(c, start, sizeof c);
            if (flags & NN_GEMM_PACKED_A)
                L->skernel(mr, KC, apack, 0, b, c, NN_GEMM_NR, bias, flags, -1.0f, 1.5f);
            else
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
        check_depthwise(L);
        check_sgemm(L);
        if (L->sconv_direct)
            check_sconv_direct(L);
        if (L->fops)
            check_float_ops(L);
        printf("%s: checked\n", L->name);
    }
    if (sizeof levels / sizeof levels[0] == 0)
        printf("no vector kernels on this architecture: nothing to compare\n");
    return nt_summary();
}
