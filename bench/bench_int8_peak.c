/*
 * The CPU's multiply-add peak of one core, the yardstick of the quantized
 * GEMM, printed in GMAC/s and GOP/s (2 ops per multiply-add).
 *   x86-64 (bench/peak.h has the method): int8 (VNNI and AVX2) and, for the
 *     float kernels, FMA.
 *   aarch64: the instructions of the neondot and neon int8 kernels, in
 *     chains of 12 independent accumulators timed in the thread's CPU time:
 *     SDOT: sdot v.4s, 16 int8 x int8 multiply-adds each (Armv8.2 DotProd);
 *     SMLAL: smlal v.4s by element, 4 int16 multiply-adds each.
 * Usage: bench_int8_peak [seconds per case]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__x86_64__)
#include "peak.h"

static void run(const char *name, bool supported, peak_loop_fn fn, double macs, double seconds)
{
    if (!supported) {
        printf("%-28s not supported by this CPU\n", name);
        return;
    }
    double sink = 0.0;
    double gops = peak_rate(fn, macs, seconds, &sink);
    printf("%-28s %8.1f GMAC/s %8.1f GOP/s  (checksum %g)\n", name, gops / 2.0, gops, sink);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    __builtin_cpu_init();
    run("int8 AVX-512 VNNI vpdpbusd", __builtin_cpu_supports("avx512vnni"),
        peak_vnni_loop, 64.0, seconds);
    run("int8 AVX2 vpmaddwd+vpaddd", __builtin_cpu_supports("avx2"), peak_madd_loop,
        16.0, seconds);
    run("f32 AVX-512 vfmadd231ps zmm", __builtin_cpu_supports("avx512f"),
        peak_fma512_loop, 16.0, seconds);
    run("f32 AVX2 vfmadd231ps ymm", __builtin_cpu_supports("fma"), peak_fma256_loop,
        8.0, seconds);
    return 0;
}

#elif defined(__aarch64__)
#include <arm_neon.h>
#include <asm/hwcap.h>
#include <sys/auxv.h>
#include <time.h>

#include "bench_util.h"

#define ACCS 12
#define INNER 20 /* rounds of ACCS instructions per outer iteration */

/* Named accumulators, so that they stay in registers at any optimisation level. */
#define ACC_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

/* In int8_peak_sdot.c, which is compiled for Armv8.2 DotProd. */
int32_t nn_bench_sdot_loop(long iters, int32_t seed, int accs, int inner);

static int32_t sdot_loop(long iters, int32_t seed)
{
    return nn_bench_sdot_loop(iters, seed, ACCS, INNER);
}

static int32_t smlal_loop(long iters, int32_t seed)
{
    int16x8_t a = vreinterpretq_s16_s32(vdupq_n_s32(seed));
    int16x4_t b = vreinterpret_s16_s32(vdup_n_s32(seed * 3 + 1));
#define DECL(i) int32x4_t acc##i = vdupq_n_s32(i);
    ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < INNER; r++) {
#define STEP(i) acc##i = vmlal_laneq_s16(acc##i, b, a, (i) % 8);
            ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+w"(a));
    }
    int32x4_t s = vdupq_n_s32(0);
#define SUM(i) s = vaddq_s32(s, acc##i);
    ACC_LIST(SUM)
#undef SUM
    return vaddvq_s32(s);
}

typedef int32_t (*loop_fn)(long, int32_t);

static void run(const char *name, loop_fn fn, double macs_per_insn, double seconds)
{
    long iters = 1000;
    double dt;
    int32_t sink = 0;
    for (;;) {
        double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        sink += fn(iters, 7);
        dt = bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
        if (dt >= seconds)
            break;
        iters *= 2;
    }
    double insns = (double)iters * INNER * ACCS;
    printf("%-28s %8.1f GMAC/s %8.1f GOP/s  (%.2f G instructions/s, checksum %d)\n", name,
           insns * macs_per_insn / dt * 1e-9, 2.0 * insns * macs_per_insn / dt * 1e-9,
           insns / dt * 1e-9, (int)sink);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    if (getauxval(AT_HWCAP) & HWCAP_ASIMDDP)
        run("int8 NEON sdot v.4s", sdot_loop, 16.0, seconds);
    else
        printf("%-28s not supported by this CPU (no ASIMDDP)\n", "int8 NEON sdot v.4s");
    run("int8 NEON smlal v.4s (lane)", smlal_loop, 4.0, seconds);
    return 0;
}

#else
int main(void)
{
    printf("no multiply-add peak measured on this architecture\n");
    return 0;
}
#endif
