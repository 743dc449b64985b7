/* float_ops_impl.h compiled for AVX-512. */
#define FOPS_SUFFIX avx512
#include "kernels/float_ops_impl.h"
