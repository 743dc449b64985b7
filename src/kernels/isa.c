#include "kernels/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static nn_isa isa_cpu;
static nn_isa isa_in_use;
static unsigned cpu_features;

static const char *const isa_names[] = {"c", "avx2", "avx512", "neon", "neondot"};
#define ISA_COUNT (sizeof isa_names / sizeof isa_names[0])

const char *nn_isa_name(nn_isa isa)
{
    return (unsigned)isa < ISA_COUNT ? isa_names[isa] : "?";
}

/* F16C is not asked for: clang 14 cannot name it, and every x86 CPU with
 * AVX2 and FMA has it. */
static unsigned detect_features(void)
{
    unsigned f = 0;
#if defined(NN_KERNELS_X86_64)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        f |= NN_CPU_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("fma"))
        f |= NN_CPU_AVX512;
#elif defined(__aarch64__)
    /* The kernel publishes what user space may run; reading the ID registers
     * directly would trap on older kernels. */
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    if (hw & HWCAP_ASIMD)
        f |= NN_CPU_ASIMD;
    if (hw & HWCAP_ASIMDDP)
        f |= NN_CPU_ASIMDDP;
    if ((hw & HWCAP_FPHP) && (hw & HWCAP_ASIMDHP))
        f |= NN_CPU_FP16;
#ifdef HWCAP2_I8MM
    if (hw2 & HWCAP2_I8MM)
        f |= NN_CPU_I8MM;
#else
    (void)hw2;
#endif
#endif
    return f;
}

/* The widest level whose kernels this build holds and this CPU runs. */
static nn_isa widest(unsigned f)
{
#if defined(NN_KERNELS_X86_64)
    if (f & NN_CPU_AVX512)
        return NN_ISA_AVX512;
    if (f & NN_CPU_AVX2)
        return NN_ISA_AVX2;
#elif defined(NN_KERNELS_AARCH64)
    if ((f & NN_CPU_ASIMD) && (f & NN_CPU_ASIMDDP))
        return NN_ISA_NEONDOT;
    if (f & NN_CPU_ASIMD)
        return NN_ISA_NEON;
#endif
    (void)f;
    return NN_ISA_C;
}

/* Whether `want` can stand in for the detected level `cpu`: the portable
 * one always, otherwise a level of the same architecture, no wider. */
static bool runs_on(nn_isa want, nn_isa cpu)
{
    if (want == NN_ISA_C)
        return true;
    bool want_x86 = want == NN_ISA_AVX2 || want == NN_ISA_AVX512;
    bool cpu_x86 = cpu == NN_ISA_AVX2 || cpu == NN_ISA_AVX512;
    bool want_arm = want == NN_ISA_NEON || want == NN_ISA_NEONDOT;
    bool cpu_arm = cpu == NN_ISA_NEON || cpu == NN_ISA_NEONDOT;
    return ((want_x86 && cpu_x86) || (want_arm && cpu_arm)) && want <= cpu;
}

/* A request the CPU cannot honour, or a name we do not know, is said once on
 * stderr and replaced by the nearest level that works. */
static void isa_init(void)
{
    cpu_features = detect_features();
    isa_cpu = widest(cpu_features);
    isa_in_use = isa_cpu;
    const char *want = getenv("NNAPI_LINUX_ISA");
    if (!want || !want[0])
        return;
    for (unsigned i = 0; i < ISA_COUNT; i++) {
        if (strcmp(want, isa_names[i]) != 0)
            continue;
        if (runs_on((nn_isa)i, isa_cpu)) {
            isa_in_use = (nn_isa)i;
        } else {
            fprintf(stderr,
                    "nnapi-linux: NNAPI_LINUX_ISA=%s: this CPU does not support it; using %s\n",
                    want, nn_isa_name(isa_cpu));
        }
        return;
    }
    fprintf(stderr,
            "nnapi-linux: NNAPI_LINUX_ISA=%s is not one of c, avx2, avx512, neon, neondot; "
            "using %s\n",
            want, nn_isa_name(isa_cpu));
}

nn_isa nn_isa_current(void)
{
    pthread_once(&isa_once, isa_init);
    return isa_in_use;
}

nn_isa nn_isa_detected(void)
{
    pthread_once(&isa_once, isa_init);
    return isa_cpu;
}

unsigned nn_cpu_features(void)
{
    pthread_once(&isa_once, isa_init);
    return cpu_features;
}
