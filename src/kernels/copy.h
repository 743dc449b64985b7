/*
 * Data movement shared by the shape operations: an n-d strided box copy
 * (transpose, slice, pad, concat, split, tile, depth/space/batch moves) and
 * a pattern fill. Strides are in elements and may be negative.
 */
#ifndef NN_KERNELS_COPY_H
#define NN_KERNELS_COPY_H

#include <stddef.h>
#include <stdint.h>

/* Dims of a box after dropping unit dims: each is at least 2 and their
 * product counts elements in memory, so a box of any rank fits. */
#define NN_COPY_MAX_RANK 64

/* Copies the box dims[0..rank) from src to dst, element (i0..) being at
 * src + sum(i_k * src_strides[k]) and dst + sum(i_k * dst_strides[k]).
 * elem is the element size in bytes (1, 2, 4 or any other). Dims that are
 * contiguous in both layouts are merged so whole rows go through memcpy. */
void nn_copy_strided(void *dst, const ptrdiff_t *dst_strides, const void *src,
                     const ptrdiff_t *src_strides, const uint32_t *dims, uint32_t rank, size_t elem);

/* Row-major element strides of a shape. */
void nn_row_major_strides(const uint32_t *dims, uint32_t rank, ptrdiff_t *strides);

/* Writes n copies of the elem-byte value at dst. */
void nn_fill_elems(void *dst, size_t n, const void *value, size_t elem);

#endif
