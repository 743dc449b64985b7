/*
 * Counter-based pseudo-random numbers (Philox4x32-10): a generator is a
 * small value owned by its caller, so concurrent executions never share
 * state. The same key gives the same stream.
 */
#ifndef NN_KERNELS_RNG_H
#define NN_KERNELS_RNG_H

#include <stdint.h>

typedef struct nn_rng {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t buf[4];
    int avail; /* unread words left in buf */
} nn_rng;

/* Stream for a 64-bit key; `stream` selects an independent sub-stream. */
void nn_rng_init(nn_rng *r, uint64_t key, uint64_t stream);
/* A key from the operating system's entropy (or the clock if unavailable). */
uint64_t nn_rng_entropy(void);
uint32_t nn_rng_u32(nn_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double nn_rng_uniform(nn_rng *r);

#endif
