/*
 * The CPU's multiply-add peak of one core (bench/peak.h has the method),
 * the yardstick of the quantized GEMM: int8 (VNNI and AVX2) and, for the
 * float kernels, FMA, printed in GMAC/s and GOP/s (2 ops per multiply-add).
 * Usage: bench_int8_peak [seconds per case]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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
