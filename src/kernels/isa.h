/*
 * The instruction-set level the kernels run at: detected once from the CPU
 * (cpuid on x86, since /proc/cpuinfo may hide features), narrowed by
 * NNAPI_LINUX_ISA for testing the other paths. Every per-ISA dispatch table
 * asks this one function, so all kernels of a process agree.
 */
#ifndef NN_KERNELS_ISA_H
#define NN_KERNELS_ISA_H

#include <stdbool.h>

typedef enum nn_isa {
    NN_ISA_C = 0,   /* portable C, any architecture */
    NN_ISA_AVX2,    /* x86-64 AVX2 + FMA + F16C */
    NN_ISA_AVX512,  /* x86-64 AVX-512 F/BW/VL/DQ + VNNI + FMA */
} nn_isa;

/* The level in use (the widest the CPU runs, unless NNAPI_LINUX_ISA asks for
 * a narrower one). Thread-safe; computed on first use. */
nn_isa nn_isa_current(void);

/* The widest level the CPU runs, ignoring NNAPI_LINUX_ISA. */
nn_isa nn_isa_detected(void);

/* "c", "avx2", "avx512". */
const char *nn_isa_name(nn_isa isa);

#endif
