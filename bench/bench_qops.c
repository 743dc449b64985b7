/*
 * The quantized lookup and pooling kernels (kernels/qops.h): each ISA
 * version this CPU runs against the portable one, alternating, on
 * MobileNet-sized tensors; medians of the thread's CPU time.
 *   lookup: 112x112x96 bytes (a LOGISTIC or TANH, a requantizing concat);
 *   max pool 3x3 stride 2 over 56x56x64 -> 28x28x64;
 *   average pool 7x7 over 7x7x1280 (MobileNet v2's global pool) and 3x3
 *   stride 1 over 28x28x192.
 *   bilinear resize 14x14x256 -> 28x28x256 (whole images, the weights of
 *   every pixel computed as RESIZE_BILINEAR does);
 *   MEAN's sums over 7x7x1280 (a global mean).
 * Then the operations against XNNPACK's operators when the benchmark was
 * built with it (ours at the ISA in use, alternating): the bilinear resize,
 * the global mean (XNNPACK's global average pooling, which requantizes as
 * well), max pool 3x3/2, and ADD and MUL of two 56x56x24 tensors (ours: the
 * 64 KiB pair table of kernels/elementwise.h, one load per element).
 * Usage: bench_qops [runs]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/elementwise.h"
#include "bench_util.h"
#include "kernels/isa.h"
#include "kernels/qops.h"

#ifdef NN_BENCH_XNNPACK
#include <xnnpack.h>
#endif

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef nn_q8_kernels version;

typedef struct pool_shape {
    const char *name;
    size_t h, w, c, k, stride;
    int avg;
} pool_shape;

static uint8_t table[256], *in, *out;
static int32_t sums[1280];

/* RESIZE_BILINEAR's source coordinate of output index d (no half pixels,
 * no aligned corners): the two neighbours and the fraction. */
static void source(size_t d, size_t in_size, size_t out_size, size_t *lo, size_t *hi, float *t)
{
    float f = (float)d * ((float)in_size / (float)out_size);
    *lo = (size_t)f;
    *hi = *lo + 1 < in_size ? *lo + 1 : in_size - 1;
    *t = f - (float)*lo;
}

/* 14x14xC -> 28x28xC, every output pixel. */
static void resize_image(void (*bilinear)(const nn_q8_bilinear *b, uint8_t *out))
{
    enum { IH = 14, OH = 28, C = 256 };
    for (size_t y = 0; y < OH; y++) {
        size_t y0, y1, x0, x1;
        float ty, tx;
        source(y, IH, OH, &y0, &y1, &ty);
        for (size_t x = 0; x < OH; x++) {
            source(x, IH, OH, &x0, &x1, &tx);
            nn_q8_bilinear b = {.p00 = in + (y0 * IH + x0) * C, .p01 = in + (y0 * IH + x1) * C,
                                .p10 = in + (y1 * IH + x0) * C, .p11 = in + (y1 * IH + x1) * C,
                                .w00 = (1 - ty) * (1 - tx), .w01 = (1 - ty) * tx,
                                .w10 = ty * (1 - tx), .w11 = ty * tx, .nc = C, .is_signed = true};
            bilinear(&b, out + (y * OH + x) * C);
        }
    }
}

/* One pass of case id with version v. */
static void run_case(int id, const version *v, const pool_shape *p)
{
    if (id == 0) {
        v->lookup(table, in, out, 112 * 112 * 96);
        return;
    }
    if (id == 4) {
        resize_image(v->bilinear);
        return;
    }
    if (id == 5) {
        memset(sums, 0, sizeof sums);
        for (size_t i = 0; i < 49; i++)
            v->accumulate(in + i * 1280, true, sums, 1280);
        return;
    }
    size_t oh = (p->h - p->k) / p->stride + 1, ow = (p->w - p->k) / p->stride + 1;
    for (size_t y = 0; y < oh; y++)
        for (size_t x = 0; x < ow; x++) {
            nn_q8_window w = {.in = in + ((y * p->stride) * p->w + x * p->stride) * p->c,
                              .rows = p->k, .cols = p->k, .row_step = p->w * p->c,
                              .col_step = p->c, .nc = p->c, .is_signed = true, .lo = -128,
                              .hi = 127};
            (p->avg ? v->pool_avg : v->pool_max)(&w, out + (y * ow + x) * p->c);
        }
}

#ifdef NN_BENCH_XNNPACK
/* Ours (dispatched, at the ISA in use) against an XNNPACK operator, each
 * median of runs alternating; t holds 2 * runs. */
static void versus(const char *name, int runs, double *t, void (*ours)(void),
                   xnn_operator_t op)
{
    for (int r = 0; r < runs; r++) {
        double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        ours();
        double t1 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        if (xnn_run_operator(op, NULL) != xnn_status_success) {
            printf("%-26s XNNPACK failed to run\n", name);
            return;
        }
        double t2 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        t[r] = t1 - t0;
        t[runs + r] = t2 - t1;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    qsort(t + runs, (size_t)runs, sizeof *t, cmp_double);
    double mo = t[runs / 2] * 1e3, mx = t[runs + runs / 2] * 1e3;
    printf("%-26s ours %8.3f ms   XNNPACK %8.3f ms   ours/XNNPACK %5.2f\n", name, mo, mx, mo / mx);
}

static void ours_resize(void) { resize_image(nn_q8_resize_bilinear); }

static void ours_mean(void)
{
    memset(sums, 0, sizeof sums);
    for (size_t i = 0; i < 49; i++)
        nn_q8_accumulate(in + i * 1280, true, sums, 1280);
    for (size_t c = 0; c < 1280; c++)
        out[c] = (uint8_t)(int8_t)(sums[c] / 49);
}

static void ours_max_pool(void)
{
    for (size_t y = 0; y < 28; y++)
        for (size_t x = 0; x < 28; x++) {
            nn_q8_window w = {.in = in + ((y * 2) * 56 + x * 2) * 64, .rows = 3, .cols = 3,
                              .row_step = 56 * 64, .col_step = 64, .nc = 64, .is_signed = true,
                              .lo = -128, .hi = 127};
            nn_q8_pool_max(&w, out + (y * 28 + x) * 64);
        }
}

static uint8_t *pair_table;
static nn_ew_qparams pair_params;
static nn_ew_row_fn vector_row;
/* One row of 56x56x24 elements each: the pair table, and the vector row
 * at the ISA in use (kernels/elementwise.h). */
static void ours_pair(void)
{
    nn_ew_q8_table_row()(pair_table, in, in + 56 * 56 * 24, out, 56 * 56 * 24, 1, 1);
}

static void ours_vector(void)
{
    vector_row(&pair_params, in, in + 56 * 56 * 24, out, 56 * 56 * 24, 1, 1);
}

static void compare_xnnpack(int runs, double *t)
{
    if (xnn_initialize(NULL) != xnn_status_success) {
        printf("XNNPACK: initialization failed\n");
        return;
    }
    pair_table = malloc(NN_EW_PAIR_TABLE_SIZE);
    if (!pair_table)
        return;
    printf("operations against XNNPACK (int8, one thread, ours at the ISA in use):\n");
    xnn_operator_t op = NULL;
    const int8_t *i8 = (const int8_t *)in;
    int8_t *o8 = (int8_t *)out;
    if (xnn_create_resize_bilinear2d_nhwc_s8(256, 256, 256, XNN_FLAG_TENSORFLOW_LEGACY_MODE, &op) ==
            xnn_status_success &&
        xnn_setup_resize_bilinear2d_nhwc_s8(op, 1, 14, 14, 28, 28, i8, o8, NULL) == xnn_status_success)
        versus("bilinear 14x14->28x28x256", runs, t, ours_resize, op);
    xnn_delete_operator(op);
    op = NULL;
    if (xnn_create_global_average_pooling_nwc_qs8(1280, 1280, 1280, 0, 1.0f, 0, 1.0f, -128, 127, 0,
                                                  &op) == xnn_status_success &&
        xnn_setup_global_average_pooling_nwc_qs8(op, 1, 49, i8, o8, NULL) == xnn_status_success)
        versus("mean 7x7x1280", runs, t, ours_mean, op);
    xnn_delete_operator(op);
    op = NULL;
    if (xnn_create_max_pooling2d_nhwc_s8(0, 0, 0, 0, 3, 3, 2, 2, 1, 1, 64, 64, 64, -128, 127, 0, &op) ==
            xnn_status_success &&
        xnn_setup_max_pooling2d_nhwc_s8(op, 1, 56, 56, i8, o8, NULL) == xnn_status_success)
        versus("max pool 3x3/2 56x56x64", runs, t, ours_max_pool, op);
    xnn_delete_operator(op);
    const size_t shape[3] = {56, 56, 24};
    nn_ew_qparams_init(&pair_params, NN_EW_ADD, 0.05f, 3, 0.07f, -2, 0.09f, 1, -128, 127);
    nn_ew_q8_pair_table(NN_EW_ADD, true, &pair_params, pair_table);
    vector_row = nn_ew_q8_vector_row(NN_EW_ADD, true);
    op = NULL;
    if (xnn_create_add_nd_qs8(3, 0.05f, -2, 0.07f, 1, 0.09f, -128, 127, 0, &op) == xnn_status_success &&
        xnn_setup_add_nd_qs8(op, 3, shape, 3, shape, i8, i8 + 56 * 56 * 24, o8, NULL) ==
            xnn_status_success) {
        versus("add 56x56x24, pair table", runs, t, ours_pair, op);
        if (vector_row)
            versus("add 56x56x24, vector row", runs, t, ours_vector, op);
    }
    xnn_delete_operator(op);
    nn_ew_qparams_init(&pair_params, NN_EW_MUL, 0.05f, 3, 0.07f, -2, 0.09f, 1, -128, 127);
    nn_ew_q8_pair_table(NN_EW_MUL, true, &pair_params, pair_table);
    vector_row = nn_ew_q8_vector_row(NN_EW_MUL, true);
    op = NULL;
    if (xnn_create_multiply_nd_qs8(3, 0.05f, -2, 0.07f, 1, 0.09f, -128, 127, 0, &op) ==
            xnn_status_success &&
        xnn_setup_multiply_nd_qs8(op, 3, shape, 3, shape, i8, i8 + 56 * 56 * 24, o8, NULL) ==
            xnn_status_success) {
        versus("mul 56x56x24, pair table", runs, t, ours_pair, op);
        if (vector_row)
            versus("mul 56x56x24, vector row", runs, t, ours_vector, op);
    }
    xnn_delete_operator(op);
    free(pair_table);
}
#else
static void compare_xnnpack(int runs, double *t)
{
    (void)runs;
    (void)t;
    printf("XNNPACK: not found when the benchmark was built; no comparison\n");
}
#endif

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 31;
    if (runs < 1)
        runs = 1;
    in = malloc(112 * 112 * 96);
    out = malloc(112 * 112 * 96);
    double *t = malloc(2 * (size_t)runs * sizeof(double));
    if (!in || !out || !t)
        return 1;
    for (size_t i = 0; i < 112 * 112 * 96; i++)
        in[i] = (uint8_t)(i * 2654435761u >> 13);
    for (int i = 0; i < 256; i++)
        table[i] = (uint8_t)(255 - i);
    version c = *nn_q8_kernels_for(NN_ISA_C);
    version vec[2];
    int nvec = 0;
#if defined(NN_KERNELS_X86_64)
    unsigned f = nn_cpu_features();
    if (f & NN_CPU_AVX2)
        vec[nvec++] = *nn_q8_kernels_for(NN_ISA_AVX2);
    if (f & NN_CPU_AVX512)
        vec[nvec++] = *nn_q8_kernels_for(NN_ISA_AVX512);
#endif
    static const pool_shape shapes[] = {
        {"lookup 112x112x96", 0, 0, 0, 0, 0, 0},
        {"max pool 3x3/2 56x56x64", 56, 56, 64, 3, 2, 0},
        {"avg pool 7x7 7x7x1280", 7, 7, 1280, 7, 1, 1},
        {"avg pool 3x3/1 28x28x192", 28, 28, 192, 3, 1, 1},
        {"bilinear 14x14->28x28x256", 0, 0, 0, 0, 0, 0},
        {"mean sums 7x7x1280", 0, 0, 0, 0, 0, 0},
    };
    printf("median ms of %d runs (thread CPU time), int8; the portable C version alternating\n", runs);
    for (int s = 0; s < 6; s++)
        for (int v = 0; v < nvec; v++) {
            for (int r = 0; r < runs; r++) {
                double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
                run_case(s, &c, &shapes[s]);
                double t1 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
                run_case(s, &vec[v], &shapes[s]);
                double t2 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
                t[r] = t1 - t0;
                t[runs + r] = t2 - t1;
            }
            qsort(t, (size_t)runs, sizeof *t, cmp_double);
            qsort(t + runs, (size_t)runs, sizeof *t, cmp_double);
            double mc = t[runs / 2] * 1e3, mv = t[runs + runs / 2] * 1e3;
            printf("%-26s %-7s %8.3f ms   c %8.3f ms   %5.1fx\n", shapes[s].name, vec[v].name, mv,
                   mc, mc / mv);
        }
    compare_xnnpack(runs, t);
    free(in);
    free(out);
    free(t);
    return 0;
}
