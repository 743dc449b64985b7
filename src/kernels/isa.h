/*
 * The instruction-set level the kernels run at: detected once from the CPU
 * (cpuid on x86-64, since /proc/cpuinfo may hide features; the kernel's
 * hardware capability bits on aarch64), narrowed by NNAPI_LINUX_ISA for
 * testing the other paths. Every per-ISA dispatch table asks this one
 * function, so all kernels of a process agree. A level of another
 * architecture is never chosen: its kernels are not even compiled in.
 */
#ifndef NN_KERNELS_ISA_H
#define NN_KERNELS_ISA_H

#include <stdbool.h>

typedef enum nn_isa {
    NN_ISA_C = 0,    /* portable C, any architecture */
    NN_ISA_AVX2,     /* x86-64 AVX2 + FMA + F16C */
    NN_ISA_AVX512,   /* x86-64 AVX-512 F/BW/VL/DQ + VNNI + FMA */
    NN_ISA_NEON,     /* aarch64 Advanced SIMD (ASIMD) */
    NN_ISA_NEONDOT,  /* aarch64 ASIMD + dot product (SDOT/UDOT, Armv8.2 DotProd) */
} nn_isa;

/* CPU features seen by the detector (nn_cpu_features), whether or not a
 * kernel uses them yet. */
#define NN_CPU_AVX2 (1u << 0)    /* with FMA */
#define NN_CPU_AVX512 (1u << 1)  /* F/BW/VL/DQ + VNNI */
#define NN_CPU_ASIMD (1u << 8)   /* HWCAP_ASIMD */
#define NN_CPU_ASIMDDP (1u << 9) /* HWCAP_ASIMDDP: SDOT/UDOT */
#define NN_CPU_I8MM (1u << 10)   /* HWCAP2_I8MM: SMMLA/USDOT */
#define NN_CPU_FP16 (1u << 11)   /* HWCAP_FPHP + HWCAP_ASIMDHP: half-precision arithmetic */

/* The level in use (the widest the CPU runs, unless NNAPI_LINUX_ISA asks for
 * a narrower one). Thread-safe; computed on first use. */
nn_isa nn_isa_current(void);

/* The widest level the CPU runs, ignoring NNAPI_LINUX_ISA. */
nn_isa nn_isa_detected(void);

/* The NN_CPU_* bits of this CPU. */
unsigned nn_cpu_features(void);

/* "c", "avx2", "avx512", "neon", "neondot". */
const char *nn_isa_name(nn_isa isa);

#endif
