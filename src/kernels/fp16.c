#include "kernels/fp16.h"

void nn_f16_to_f32_array(const uint16_t *src, float *dst, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = nn_f16_to_f32(src[i]);
}

void nn_f32_to_f16_array(const float *src, uint16_t *dst, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = nn_f32_to_f16(src[i]);
}
