#include "kernels/rng.h"

#include <stdint.h>
#include <sys/random.h>
#include <time.h>

/* Multipliers and key increments of Philox4x32 (Salmon et al., SC'11). */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static void philox_block(const uint32_t ctr[4], const uint32_t key_in[2], uint32_t out[4])
{
    uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
    uint32_t k0 = key_in[0], k1 = key_in[1];
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)PHILOX_M0 * x0;
        uint64_t p1 = (uint64_t)PHILOX_M1 * x2;
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0;
        uint32_t y1 = (uint32_t)p1;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1;
        uint32_t y3 = (uint32_t)p0;
        x0 = y0;
        x1 = y1;
        x2 = y2;
        x3 = y3;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
}

void nn_rng_init(nn_rng *r, uint64_t key, uint64_t stream)
{
    r->key[0] = (uint32_t)key;
    r->key[1] = (uint32_t)(key >> 32);
    r->ctr[0] = 0;
    r->ctr[1] = 0;
    r->ctr[2] = (uint32_t)stream;
    r->ctr[3] = (uint32_t)(stream >> 32);
    r->avail = 0;
}

uint64_t nn_rng_entropy(void)
{
    uint64_t v;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v)
        return v;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uintptr_t addr = (uintptr_t)&ts;
    return ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)addr << 16);
}

uint32_t nn_rng_u32(nn_rng *r)
{
    if (r->avail == 0) {
        philox_block(r->ctr, r->key, r->buf);
        /* 64-bit block counter in ctr[0..1]. */
        if (++r->ctr[0] == 0)
            r->ctr[1]++;
        r->avail = 4;
    }
    return r->buf[4 - r->avail--];
}

double nn_rng_uniform(nn_rng *r)
{
    uint64_t hi = nn_rng_u32(r) >> 5, lo = nn_rng_u32(r) >> 6;
    return (double)(hi * 67108864u + lo) / 9007199254740992.0;
}
