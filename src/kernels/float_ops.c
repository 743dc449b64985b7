/* The portable build of float_ops_impl.h and the choice of an ISA's. */
#define FOPS_SUFFIX c
#include "kernels/float_ops_impl.h"

#include "kernels/isa.h"

static const nn_float_ops_isa *float_ops(void)
{
    switch (nn_isa_current()) {
#if defined(NN_KERNELS_X86_64)
    case NN_ISA_AVX512:
        return &nn_float_ops_avx512;
    case NN_ISA_AVX2:
        return &nn_float_ops_avx2;
#endif
    default:
        return &nn_float_ops_c;
    }
}

bool nn_softmax_f32_row(const float *x, float *out, size_t len, float beta, bool log_softmax)
{
    if (!(beta > 0.0f) || isinf(beta) || len == 0)
        return false;
    float mx = x[0];
    bool finite = true;
    for (size_t i = 0; i < len; i++) {
        mx = x[i] > mx ? x[i] : mx;
        finite &= isfinite(x[i]) != 0;
    }
    if (!finite)
        return false;
    float_ops()->softmax_row(x, out, len, beta, mx, log_softmax);
    return true;
}

void nn_pool_f32_pixel(int kind, const float *in, size_t row_stride, size_t ch, size_t y0,
                       size_t y1, size_t x0, size_t x1, float lo, float hi, float *out)
{
    float_ops()->pool_pixel(kind, in, row_stride, ch, y0, y1, x0, x1, lo, hi, out);
}
