#include "kernels/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static nn_isa isa_cpu;
static nn_isa isa_in_use;

static const char *const isa_names[] = {"c", "avx2", "avx512"};

const char *nn_isa_name(nn_isa isa)
{
    return (unsigned)isa < sizeof isa_names / sizeof isa_names[0] ? isa_names[isa] : "?";
}

/* F16C is not asked for: clang 14 cannot name it, and every x86 CPU with
 * AVX2 and FMA has it. */
static nn_isa detect(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("fma"))
        return NN_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return NN_ISA_AVX2;
#endif
    return NN_ISA_C;
}

/* A request the CPU cannot honour, or a name we do not know, is said once on
 * stderr and replaced by the nearest level that works. */
static void isa_init(void)
{
    isa_cpu = detect();
    isa_in_use = isa_cpu;
    const char *want = getenv("NNAPI_LINUX_ISA");
    if (!want || !want[0])
        return;
    for (unsigned i = 0; i < sizeof isa_names / sizeof isa_names[0]; i++) {
        if (strcmp(want, isa_names[i]) != 0)
            continue;
        if ((nn_isa)i <= isa_cpu) {
            isa_in_use = (nn_isa)i;
        } else {
            fprintf(stderr,
                    "nnapi-linux: NNAPI_LINUX_ISA=%s: this CPU does not support it; using %s\n",
                    want, nn_isa_name(isa_cpu));
        }
        return;
    }
    fprintf(stderr, "nnapi-linux: NNAPI_LINUX_ISA=%s is not one of c, avx2, avx512; using %s\n",
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
