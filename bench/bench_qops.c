/*
 * The quantized lookup and pooling kernels (kernels/qops.h): each ISA
 * version this CPU runs against the portable one, alternating, on
 * MobileNet-sized tensors; medians of the thread's CPU time.
 *   lookup: 112x112x96 bytes (a LOGISTIC or TANH, a requantizing concat);
 *   max pool 3x3 stride 2 over 56x56x64 -> 28x28x64;
 *   average pool 7x7 over 7x7x1280 (MobileNet v2's global pool) and 3x3
 *   stride 1 over 28x28x192.
 * Usage: bench_qops [runs]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/isa.h"
#include "kernels/qops.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct version {
    const char *name;
    void (*lookup)(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
    void (*pool_max)(const nn_q8_window *w, uint8_t *out);
    void (*pool_avg)(const nn_q8_window *w, uint8_t *out);
} version;

typedef struct pool_shape {
    const char *name;
    size_t h, w, c, k, stride;
    int avg;
} pool_shape;

static uint8_t table[256], *in, *out;

/* One pass of case id with version v. */
static void run_case(int id, const version *v, const pool_shape *p)
{
    if (id == 0) {
        v->lookup(table, in, out, 112 * 112 * 96);
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
    version c = {"c", nn_q8_lookup_c, nn_q8_pool_max_c, nn_q8_pool_avg_c};
    version vec[2];
    int nvec = 0;
#if defined(NN_KERNELS_X86_64)
    unsigned f = nn_cpu_features();
    if (f & NN_CPU_AVX2)
        vec[nvec++] = (version){"avx2", nn_q8_lookup_avx2, nn_q8_pool_max_avx2, nn_q8_pool_avg_avx2};
    if (f & NN_CPU_AVX512)
        vec[nvec++] = (version){"avx512", nn_q8_lookup_avx512, nn_q8_pool_max_avx512,
                                nn_q8_pool_avg_avx512};
#endif
    static const pool_shape shapes[] = {
        {"lookup 112x112x96", 0, 0, 0, 0, 0, 0},
        {"max pool 3x3/2 56x56x64", 56, 56, 64, 3, 2, 0},
        {"avg pool 7x7 7x7x1280", 7, 7, 1280, 7, 1, 1},
        {"avg pool 3x3/1 28x28x192", 28, 28, 192, 3, 1, 1},
    };
    printf("median ms of %d runs (thread CPU time), int8; the portable C version alternating\n", runs);
    for (int s = 0; s < 4; s++)
        for (int v = 0; v < nvec; v++) {
            for (int r = 0; r < runs; r++) {
                double t0 = now();
                run_case(s, &c, &shapes[s]);
                double t1 = now();
                run_case(s, &vec[v], &shapes[s]);
                double t2 = now();
                t[r] = t1 - t0;
                t[runs + r] = t2 - t1;
            }
            qsort(t, (size_t)runs, sizeof *t, cmp_double);
            qsort(t + runs, (size_t)runs, sizeof *t, cmp_double);
            double mc = t[runs / 2] * 1e3, mv = t[runs + runs / 2] * 1e3;
            printf("%-26s %-7s %8.3f ms   c %8.3f ms   %5.1fx\n", shapes[s].name, vec[v].name, mv,
                   mc, mc / mv);
        }
    free(in);
    free(out);
    free(t);
    return 0;
}
