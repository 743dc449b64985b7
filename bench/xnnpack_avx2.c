/*
 * LD_PRELOAD shim for the benchmarks: hides AVX-512 from XNNPACK, which has
 * no setting of its own to narrow its kernels (Debian's XNNPACK and cpuinfo
 * read no environment variable), so that ours at NNAPI_LINUX_ISA=avx2 can
 * be compared with XNNPACK's AVX2 kernels on an AVX-512 machine:
 *   NNAPI_LINUX_ISA=avx2 LD_PRELOAD=build/bench/libxnnpack_avx2.so \
 *       build/bench/bench_mobilenet ...
 * XNNPACK picks its kernels from cpuinfo's feature flags, filled by
 * cpuinfo_initialize: this one runs the real one, then clears them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <cpuinfo.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>

bool cpuinfo_initialize(void)
{
    bool (*real)(void) = (bool (*)(void))dlsym(RTLD_NEXT, "cpuinfo_initialize");
    bool ok = real != NULL && real();
    struct cpuinfo_x86_isa *isa = &cpuinfo_isa;
    isa->avx512f = isa->avx512pf = isa->avx512er = isa->avx512cd = isa->avx512dq = false;
    isa->avx512bw = isa->avx512vl = isa->avx512ifma = isa->avx512vbmi = isa->avx512vbmi2 = false;
    isa->avx512bitalg = isa->avx512vpopcntdq = isa->avx512vnni = isa->avx512bf16 = false;
    isa->avx512vp2intersect = isa->avx512_4vnniw = isa->avx512_4fmaps = false;
    static bool said;
    if (!said) {
        said = true;
        fprintf(stderr, "xnnpack_avx2: AVX-512 hidden from XNNPACK (cpuinfo)\n");
    }
    return ok;
}
