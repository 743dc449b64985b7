/* What the aarch64 int8 GEMM kernels (gemm_neon.c, gemm_neondot.c) share. */
#ifndef NN_KERNELS_GEMM_NEON_H
#define NN_KERNELS_GEMM_NEON_H

#include <arm_neon.h>

#include "kernels/gemm_internal.h"

/* The output stage of nn_qgemm_fused_fn on mr rows of 4 accumulator
 * vectors (columns 0-15, acc[4 * i + q] = columns 4q..4q+3 of row i). */
void nn_qgemm_neon_epilogue(size_t mr, const int32x4_t *acc, const nn_qgemm_epilogue *e,
                            uint8_t *c, size_t ldc);

#endif
