/*
 * The CPU's int8 multiply-add peak, the yardstick of the quantized GEMM:
 * one core runs long chains of independent dot-product instructions
 * (12 accumulators, more than latency x throughput) and the rate is printed
 * in GMAC/s and GOP/s (2 ops per multiply-add).
 *   x86-64:
 *     AVX-512 VNNI: vpdpbusd zmm, 64 uint8 x int8 multiply-adds each.
 *     AVX2: vpmaddwd ymm + vpaddd, 16 int16 multiply-adds each (the form the
 *           AVX2 GEMM uses: bytes widened to int16, which cannot saturate).
 *   aarch64 (the instructions of the neondot and neon int8 kernels):
 *     SDOT: sdot v.4s, 16 int8 x int8 multiply-adds each (Armv8.2 DotProd).
 *     SMLAL: smlal v.4s by element, 4 int16 multiply-adds each.
 * Usage: bench_int8_peak [seconds per case]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

/* The thread's CPU time: other processes' time slices do not count. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ACCS 12
#define INNER 20 /* rounds of ACCS instructions per outer iteration */

/* Named accumulators, so that they stay in registers at any optimisation level. */
#define ACC_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512vnni"))) static int32_t vnni_loop(long iters, int32_t seed)
{
    __m512i a = _mm512_set1_epi32(seed), b = _mm512_set1_epi32(seed * 3 + 1);
#define DECL(i) __m512i acc##i = _mm512_set1_epi32(i);
    ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < INNER; r++) {
#define STEP(i) acc##i = _mm512_dpbusd_epi32(acc##i, a, b);
            ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+v"(a));
    }
    __m512i s = _mm512_setzero_si512();
#define SUM(i) s = _mm512_add_epi32(s, acc##i);
    ACC_LIST(SUM)
#undef SUM
    return _mm512_reduce_add_epi32(s);
}

__attribute__((target("avx2"))) static int32_t avx2_loop(long iters, int32_t seed)
{
    __m256i a = _mm256_set1_epi32(seed), b = _mm256_set1_epi32(seed * 3 + 1);
#define DECL(i) __m256i acc##i = _mm256_set1_epi32(i);
    ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < INNER; r++) {
#define STEP(i) acc##i = _mm256_add_epi32(acc##i, _mm256_madd_epi16(a, b));
            ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+x"(a));
    }
    __m256i s = _mm256_setzero_si256();
#define SUM(i) s = _mm256_add_epi32(s, acc##i);
    ACC_LIST(SUM)
#undef SUM
    return _mm256_extract_epi32(s, 0);
}
#elif defined(__aarch64__)
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
#endif

typedef int32_t (*loop_fn)(long, int32_t);

static void run(const char *name, loop_fn fn, double macs_per_insn, double seconds)
{
    long iters = 1000;
    double dt;
    int32_t sink = 0;
    for (;;) {
        double t0 = now();
        sink += fn(iters, 7);
        dt = now() - t0;
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
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512vnni"))
        run("AVX-512 VNNI vpdpbusd zmm", vnni_loop, 64.0, seconds);
    else
        printf("AVX-512 VNNI: not supported by this CPU\n");
    if (__builtin_cpu_supports("avx2"))
        run("AVX2 vpmaddwd+vpaddd ymm", avx2_loop, 16.0, seconds);
    else
        printf("AVX2: not supported by this CPU\n");
#elif defined(__aarch64__)
    if (getauxval(AT_HWCAP) & HWCAP_ASIMDDP)
        run("NEON sdot v.4s (DotProd)", sdot_loop, 16.0, seconds);
    else
        printf("SDOT: not supported by this CPU (no ASIMDDP)\n");
    run("NEON smlal v.4s by element", smlal_loop, 4.0, seconds);
#else
    (void)seconds;
    (void)run;
    printf("no int8 vector instructions measured on this architecture\n");
#endif
    return 0;
}
