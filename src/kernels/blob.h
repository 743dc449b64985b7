/*
 * Storage for constant data that plan hooks derive from a model (packed
 * weights). While a compilation with caching builds its plan, the storage
 * comes from the compilation cache (src/compile/cache.c): on a hit it is
 * already filled, read-only memory of the mapped cache entry, so the packing
 * is skipped; on a miss it is recorded and written to the entry. Outside of
 * such a build it is plain memory that the caller owns.
 */
#ifndef NN_KERNELS_BLOB_H
#define NN_KERNELS_BLOB_H

#include <stdbool.h>
#include <stddef.h>

/* 64-byte aligned memory for bytes of packed data, or NULL when out of
 * memory. *filled: it already holds the data a previous compilation of the
 * same model packed (never write to it then). *owned: the caller frees it
 * with free(); otherwise the compilation owns it. Packings must request
 * their blobs in an order that depends only on the model and the ISA, and
 * must not read a filled blob while the plan is built: on a hit the entry's
 * hashes are checked meanwhile, and only a plan that passes runs. */
void *nn_blob_acquire(size_t bytes, bool *filled, bool *owned);

#endif
