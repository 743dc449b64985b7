/*
 * The multiply-add peak of one core, the yardstick of the kernels: long
 * chains of independent multiply-add instructions (12 accumulators, more
 * than latency x throughput on the CPUs we run), timed in the thread's CPU
 * time so that other processes' time slices do not count.
 *   int8, AVX-512 VNNI: vpdpbusd zmm, 64 uint8 x int8 multiply-adds each.
 *   int8, AVX2: vpmaddwd ymm + vpaddd, 16 int16 multiply-adds per pair (the
 *         form the AVX2 GEMM uses: bytes widened to int16, which cannot
 *         saturate).
 *   float, AVX-512: vfmadd231ps zmm, 16 fused multiply-adds; AVX2: ymm, 8.
 * Rates are in GOP/s, 2 operations per multiply-add. Shared by
 * bench_int8_peak and bench_mobilenet (x86-64 only).
 */
#ifndef NN_BENCH_PEAK_H
#define NN_BENCH_PEAK_H
#if defined(__x86_64__)

#include <immintrin.h>
#include <stdint.h>
#include <time.h>

#include "bench_util.h"

#define PEAK_ACCS 12
#define PEAK_INNER 20 /* rounds of PEAK_ACCS instructions per outer iteration */

/* Named accumulators, so that they stay in registers at any optimisation level. */
#define PEAK_ACC_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

__attribute__((target("avx512f,avx512vnni"))) static double peak_vnni_loop(long iters, int32_t seed)
{
    __m512i a = _mm512_set1_epi32(seed), b = _mm512_set1_epi32(seed * 3 + 1);
#define DECL(i) __m512i acc##i = _mm512_set1_epi32(i);
    PEAK_ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < PEAK_INNER; r++) {
#define STEP(i) acc##i = _mm512_dpbusd_epi32(acc##i, a, b);
            PEAK_ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+v"(a));
    }
    __m512i s = _mm512_setzero_si512();
#define SUM(i) s = _mm512_add_epi32(s, acc##i);
    PEAK_ACC_LIST(SUM)
#undef SUM
    return (double)_mm512_reduce_add_epi32(s);
}

__attribute__((target("avx2"))) static double peak_madd_loop(long iters, int32_t seed)
{
    __m256i a = _mm256_set1_epi32(seed), b = _mm256_set1_epi32(seed * 3 + 1);
#define DECL(i) __m256i acc##i = _mm256_set1_epi32(i);
    PEAK_ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < PEAK_INNER; r++) {
#define STEP(i) acc##i = _mm256_add_epi32(acc##i, _mm256_madd_epi16(a, b));
            PEAK_ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+x"(a));
    }
    __m256i s = _mm256_setzero_si256();
#define SUM(i) s = _mm256_add_epi32(s, acc##i);
    PEAK_ACC_LIST(SUM)
#undef SUM
    return (double)_mm256_extract_epi32(s, 0);
}

__attribute__((target("avx512f"))) static double peak_fma512_loop(long iters, int32_t seed)
{
    __m512 a = _mm512_set1_ps(1e-3f * (float)seed), b = _mm512_set1_ps(1e-3f);
#define DECL(i) __m512 acc##i = _mm512_set1_ps((float)i);
    PEAK_ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < PEAK_INNER; r++) {
#define STEP(i) acc##i = _mm512_fmadd_ps(a, b, acc##i);
            PEAK_ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+v"(a));
    }
    __m512 s = _mm512_setzero_ps();
#define SUM(i) s = _mm512_add_ps(s, acc##i);
    PEAK_ACC_LIST(SUM)
#undef SUM
    return (double)_mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static double peak_fma256_loop(long iters, int32_t seed)
{
    __m256 a = _mm256_set1_ps(1e-3f * (float)seed), b = _mm256_set1_ps(1e-3f);
#define DECL(i) __m256 acc##i = _mm256_set1_ps((float)i);
    PEAK_ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < PEAK_INNER; r++) {
#define STEP(i) acc##i = _mm256_fmadd_ps(a, b, acc##i);
            PEAK_ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+x"(a));
    }
    __m256 s = _mm256_setzero_ps();
#define SUM(i) s = _mm256_add_ps(s, acc##i);
    PEAK_ACC_LIST(SUM)
#undef SUM
    return (double)_mm_cvtss_f32(_mm256_castps256_ps128(s));
}

typedef double (*peak_loop_fn)(long, int32_t);

/* GOP/s of loop fn (macs multiply-adds per instruction), timed for at least
 * seconds; *sink keeps the result alive. */
static double peak_rate(peak_loop_fn fn, double macs, double seconds, double *sink)
{
    long iters = 1000;
    double dt;
    for (;;) {
        double t0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        *sink += fn(iters, 7);
        dt = bench_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
        if (dt >= seconds)
            break;
        iters *= 2;
    }
    return 2.0 * (double)iters * PEAK_INNER * PEAK_ACCS * macs / dt * 1e-9;
}

#endif /* __x86_64__ */
#endif
