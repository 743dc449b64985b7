/* float_ops_impl.h compiled for AVX2. */
#define FOPS_SUFFIX avx2
#include "kernels/float_ops_impl.h"
