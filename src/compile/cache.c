/* Compilation caching on disk: see cache.h for the entry format. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compile/cache.h"
#include "kernels/blob.h"
#include "kernels/isa.h"
#include "util/threadpool.h"

#ifndef NN_LIBRARY_VERSION
#define NN_LIBRARY_VERSION "unversioned"
#endif

#define NN_CACHE_BYTE_ORDER 0x01020304u
static const char cache_magic[8] = {'N', 'N', 'L', 'X', 'C', 'A', 'C', 'H'};

/* ------------------------------------------------------------------ hash */

/*
 * A fast 128-bit hash, fast enough that hashing every constant of a model on
 * each cached compilation costs little next to loading it: eight 64-bit
 * lanes, each taking one word of a 64-byte block as the product of its keyed
 * halves plus the raw word four lanes away (so that no bit of the input is
 * lost when a half is zero), scrambled every 1 KiB, folded by 128-bit
 * products at the end. Each of the 16 blocks of a 1 KiB group has keys of
 * its own: with one key for all, the sums of a group did not depend on the
 * order of its blocks, and a constant whose 64-byte blocks were permuted
 * (channels reordered) hashed the same. The lanes map onto vector
 * registers: on x86-64 the blocks run four lanes per AVX2 instruction or all
 * eight per AVX-512 one, with the same result on every path (an entry's
 * model hash does not depend on the ISA, only its packed weights do). It is
 * no defence against someone who can write the cache directory (who could
 * write any packed weights anyway): it keeps stale and accidentally
 * colliding entries from ever being used.
 */
static const uint64_t block_key[16][8] = {
    {0xbb00ed234a444b96ull, 0x3f4e2bbf14be1c91ull, 0xefc253daf673608aull, 0x63948274fb8e0551ull,
     0x15e9c9a9be9f03f5ull, 0xba74f90da81126d8ull, 0xad6007d17183726cull, 0x2dac7bb7d80ac70dull},
    {0x9667401f2ea1cd36ull, 0xce606c9c73329ed4ull, 0xbb4a69217f958edaull, 0xa4d858b4b6dd45d4ull,
     0x769411615cadc4fdull, 0xe8ed374c989b9f83ull, 0x2e08141b22f41aa9ull, 0x45ab413e77e1f8b0ull},
    {0xc1f68111132a6581ull, 0x07eafca8afda978bull, 0xdeecb3680a489d71ull, 0x253001cbb918fa36ull,
     0x3e30f968141d7a65ull, 0xbda5e4bde2dfe66full, 0x49dc311e5b9cf9e4ull, 0x8770d98391d5ec44ull},
    {0xcc0d2f5e9e1bfa6aull, 0xd759f1150f9ccedfull, 0x2b153c715fff82b4ull, 0x57e3c86698ef3bc8ull,
     0x39dd68d2c47c30e4ull, 0x122b07aa51d99b0dull, 0x43ae28c5d0534228ull, 0x6da92d4d72c4eb44ull},
    {0x0f8b363bf99b0428ull, 0xcbbb0beeb9885d40ull, 0xdbe2c0256732decfull, 0x926eebb7511e7a2cull,
     0xa7b262a19d36a36aull, 0x2c98dc2c9c982dbcull, 0x2fea004db545bac7ull, 0xb61b55c24ac5b5b7ull},
    {0x8ee9740a7c892aacull, 0x56080deb94d6c9ecull, 0xc89d30f8de414558ull, 0xcb6535f573551854ull,
     0xfe81a91481b66a21ull, 0xc08f66e665e87633ull, 0x3d215d0d5fbe10cfull, 0x5eba23e77d735917ull},
    {0x6bc7e67940af88fcull, 0x2cf62df26ee8217dull, 0xf2eb65902e22e184ull, 0x19c99d6cbcb1ddeeull,
     0xf906b5956297b48dull, 0x96b8a9cb4445a243ull, 0x49c0616ade0c3b3aull, 0x78af318e7e8ff1e0ull},
    {0x06167d7c4136b231ull, 0x470fc42cac9a1865ull, 0xd2d65f9a2827ecbaull, 0xe25f3023015374b5ull,
     0x2501418cb971e035ull, 0xa1a611ec02cbe75bull, 0xc581571888c66868ull, 0x6a2d5cbb91ab7149ull},
    {0x48b0442ff68028e5ull, 0x25826c177e6d80e1ull, 0x1f104a8f853a97fdull, 0x57fadb7252f068a5ull,
     0x851f15438425d9cfull, 0xcf7b1950f38d1bfdull, 0x21536e50dea74c38ull, 0x94505bb3670a9f72ull},
    {0xfde1d8e3c9cb29beull, 0x450c00b4e73109c5ull, 0x4a388a09bfeb3befull, 0x058722f3768c3caaull,
     0x68a23066f61b2f5dull, 0x88d79656291e986bull, 0x6c135848853d4d8dull, 0x8ff6124a530d4945ull},
    {0xbea5106ab501c4c5ull, 0xaf6590808003edc2ull, 0x0abdf596b8d36b2bull, 0x52e47bb3bd0baff1ull,
     0xfcabf9f3c5817560ull, 0xd81917846252e31bull, 0x9bbb3efb8914b1a0ull, 0x06ea18719f3c569bull},
    {0x6e3f78ab56ba5a28ull, 0x25487210b4ba9697ull, 0x2358434f41c7da78ull, 0x9fac97b5dc102f03ull,
     0xbdc0e4e4fbc95ea3ull, 0x1097af7a71077733ull, 0x70db791ce9dead8cull, 0x32aafe343feed0d0ull},
    {0x3cc4af1c688f72a5ull, 0xb619f86b68931d01ull, 0xcea52205666a5783ull, 0x48747ff1b9c2ec38ull,
     0xba315c92126eb27dull, 0x492a911be4696c0eull, 0x283e519d794ce4edull, 0x60fcf6caf729b6ebull},
    {0x9f5afdb41a690b94ull, 0xd4262d36002e76eeull, 0x4faf6ee9da856fe5ull, 0xb64d384faabe53d0ull,
     0x3f60355de3dd5f8eull, 0xe1aec74244fa6d35ull, 0x33aa47ac19206cffull, 0x8043b2aea03b9608ull},
    {0xa9d6e9830885133aull, 0x022fb4b059fb9168ull, 0xaba9bc4b720315fcull, 0xc18386625058cb96ull,
     0x35d70c2a4ac8d7b8ull, 0xdbe2d0bbff6e10bbull, 0x541495aaf7cb83ffull, 0x1054c15c8d9cb482ull},
    {0x59d9543ca157a545ull, 0x5b2b0c094e7c4f98ull, 0xe744d1072a2d4400ull, 0x3144af223a30973cull,
     0xea1cf28843cea3fdull, 0xba867437519a8b65ull, 0xb79fa58f19937150ull, 0x7e8f8579fbb9614dull},
};
static const uint64_t scramble_key[8] = {0x3ee5789041c98ac3ull, 0xf3b8488c368cb0a6ull,
                                         0x657eecdd3cb13d09ull, 0xc2d326e0055bdef6ull,
                                         0x8621a03fe0bbdb7bull, 0x8e1f7555983aa92full,
                                         0xb54e0f1600cc4d19ull, 0x84bb3f97971d80abull};
static const uint64_t fold_key[8] = {0x7d29825c75521255ull, 0xc3cf17102b7f7f86ull,
                                     0x3466e9a083914f64ull, 0xd81a8d2b5a4485acull,
                                     0xdb01602b100b9ed7ull, 0xa9038a921825f10dull,
                                     0xedf5f1d90dca2f6aull, 0x54496ad67bd2634cull};

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void hash_block(uint64_t acc[8], const uint8_t *p, const uint64_t key[8])
{
    uint64_t word[8];
    for (int i = 0; i < 8; i++)
        word[i] = load64(p + 8 * i);
    for (int i = 0; i < 8; i++) {
        uint64_t v = word[i] ^ key[i];
        acc[i] += (v & 0xffffffffu) * (v >> 32) + word[i ^ 4];
    }
}

static inline void hash_scramble(uint64_t acc[8])
{
    for (int i = 0; i < 8; i++) {
        uint64_t a = acc[i] ^ (acc[i] >> 47) ^ scramble_key[i];
        acc[i] = a * 0x9e3779b1u;
    }
}

/* Blocks [0, n) in groups of 16 followed by a scramble, starting `done`
 * blocks into a group; returns the blocks into the last group. */
static uint32_t hash_blocks_c(uint64_t acc[8], const uint8_t *p, size_t n, uint32_t done)
{
    for (size_t b = 0; b < n; b++) {
        hash_block(acc, p + 64 * b, block_key[done]);
        if (++done == 16) {
            hash_scramble(acc);
            done = 0;
        }
    }
    return done;
}

#if defined(__x86_64__)
#include <immintrin.h>

/* (x & 0xffffffff) * (x >> 32) per 64-bit lane is one vpmuludq; a 64-bit
 * product by the 32-bit scramble constant is vpmuludq of both halves. */
__attribute__((target("avx2"))) static inline __m256i scramble_avx2(__m256i a, __m256i key)
{
    a = _mm256_xor_si256(_mm256_xor_si256(a, _mm256_srli_epi64(a, 47)), key);
    const __m256i prime = _mm256_set1_epi64x(0x9e3779b1u);
    __m256i lo = _mm256_mul_epu32(a, prime);
    __m256i hi = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), prime);
    return _mm256_add_epi64(lo, _mm256_slli_epi64(hi, 32));
}

__attribute__((target("avx2"))) static uint32_t hash_blocks_avx2(uint64_t acc[8], const uint8_t *p,
                                                                 size_t n, uint32_t done)
{
    __m256i a0 = _mm256_loadu_si256((const __m256i *)acc);
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(acc + 4));
    for (size_t b = 0; b < n; b++) {
        __m256i w0 = _mm256_loadu_si256((const __m256i *)(p + 64 * b));
        __m256i w1 = _mm256_loadu_si256((const __m256i *)(p + 64 * b + 32));
        __m256i v0 = _mm256_xor_si256(w0, _mm256_loadu_si256((const __m256i *)block_key[done]));
        __m256i v1 = _mm256_xor_si256(w1, _mm256_loadu_si256((const __m256i *)(block_key[done] + 4)));
        a0 = _mm256_add_epi64(a0, _mm256_add_epi64(_mm256_mul_epu32(v0, _mm256_srli_epi64(v0, 32)), w1));
        a1 = _mm256_add_epi64(a1, _mm256_add_epi64(_mm256_mul_epu32(v1, _mm256_srli_epi64(v1, 32)), w0));
        if (++done == 16) {
            a0 = scramble_avx2(a0, _mm256_loadu_si256((const __m256i *)scramble_key));
            a1 = scramble_avx2(a1, _mm256_loadu_si256((const __m256i *)(scramble_key + 4)));
            done = 0;
        }
    }
    _mm256_storeu_si256((__m256i *)acc, a0);
    _mm256_storeu_si256((__m256i *)(acc + 4), a1);
    return done;
}

/* The eight lanes in one register. The raw words go to a second sum,
 * whose 256-bit halves are swapped once per group (word i ^ 4 of a block
 * joins lane i): the sums are the same as adding each block's swapped
 * words, without a cross-lane shuffle per block. */
__attribute__((target("avx512f"))) static inline void block_avx512(__m512i *products, __m512i *words,
                                                                  const uint8_t *p, __m512i key)
{
    __m512i w = _mm512_loadu_si512((const void *)p);
    __m512i v = _mm512_xor_si512(w, key);
    *products = _mm512_add_epi64(*products, _mm512_mul_epu32(v, _mm512_srli_epi64(v, 32)));
    *words = _mm512_add_epi64(*words, w);
}

__attribute__((target("avx512f"))) static inline __m512i join_avx512(__m512i products, __m512i words)
{
    return _mm512_add_epi64(products, _mm512_shuffle_i64x2(words, words, 0x4e));
}

__attribute__((target("avx512f"))) static uint32_t hash_blocks_avx512(uint64_t acc[8],
                                                                     const uint8_t *p, size_t n,
                                                                     uint32_t done)
{
    __m512i a = _mm512_loadu_si512((const void *)acc), words = _mm512_setzero_si512();
    const __m512i scramble = _mm512_loadu_si512((const void *)scramble_key);
    const __m512i prime = _mm512_set1_epi64(0x9e3779b1u);
    /* The keys stay in registers for whole groups: a 512-bit load a cycle
     * is what Zen 4 does, and loading each block's key beside its data
     * halved the rate. A call of fewer blocks (most updates of a model
     * walk are one) loads only the keys it uses. */
    __m512i key[16];
    if (n >= 16)
        for (int i = 0; i < 16; i++)
            key[i] = _mm512_loadu_si512(block_key[i]);
    size_t b = 0;
    while (b < n) {
        /* Whole groups of 16 blocks run without a count per block. */
        if (done == 0 && n - b >= 16) {
#pragma GCC unroll 16
            for (int i = 0; i < 16; i++)
                block_avx512(&a, &words, p + 64 * (b + i), key[i]);
            b += 16;
        } else {
            block_avx512(&a, &words, p + 64 * b, _mm512_loadu_si512(block_key[done]));
            b++;
            if (++done < 16)
                continue;
        }
        done = 0;
        a = join_avx512(a, words);
        words = _mm512_setzero_si512();
        a = _mm512_xor_si512(_mm512_xor_si512(a, _mm512_srli_epi64(a, 47)), scramble);
        __m512i lo = _mm512_mul_epu32(a, prime);
        __m512i hi = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), prime);
        a = _mm512_add_epi64(lo, _mm512_slli_epi64(hi, 32));
    }
    a = join_avx512(a, words);
    _mm512_storeu_si512((void *)acc, a);
    return done;
}
#endif

static inline uint64_t fold128(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t avalanche(uint64_t h)
{
    h ^= h >> 37;
    h *= 0x165667919e3779f9ull;
    h ^= h >> 32;
    return h;
}

void nn_hash_init(nn_hasher *h, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    for (int i = 0; i < 8; i++)
        h->acc[i] = block_key[0][(i + 3) & 7] ^ (seed * (uint64_t)(2 * i + 1));
}

static void hash_blocks(nn_hasher *h, const uint8_t *p, size_t n_blocks, nn_isa isa)
{
#if defined(__x86_64__)
    if (isa == NN_ISA_AVX512) {
        h->blocks = hash_blocks_avx512(h->acc, p, n_blocks, h->blocks);
        return;
    }
    if (isa == NN_ISA_AVX2) {
        h->blocks = hash_blocks_avx2(h->acc, p, n_blocks, h->blocks);
        return;
    }
#endif
    (void)isa;
    h->blocks = hash_blocks_c(h->acc, p, n_blocks, h->blocks);
}

void nn_hash_update_on(nn_hasher *h, const void *data, size_t bytes, nn_isa isa)
{
    if (bytes == 0)
        return; /* data may then be NULL (an empty list) */
    const uint8_t *p = data;
    if (h->fill) {
        size_t take = 64 - h->fill < bytes ? 64 - h->fill : bytes;
        memcpy(h->buf + h->fill, p, take);
        h->fill += take;
        p += take;
        bytes -= take;
        if (h->fill < 64)
            return;
        hash_blocks(h, h->buf, 1, isa);
        h->fill = 0;
        h->hashed += 64;
    }
    hash_blocks(h, p, bytes / 64, isa);
    h->hashed += bytes / 64 * 64;
    p += bytes / 64 * 64;
    bytes %= 64;
    memcpy(h->buf, p, bytes);
    h->fill = bytes;
}

void nn_hash_update(nn_hasher *h, const void *data, size_t bytes)
{
    /* Most updates of a model walk are a few bytes that stay in the buffer. */
    if (bytes < 64 - h->fill) {
        if (bytes)
            memcpy(h->buf + h->fill, data, bytes);
        h->fill += bytes;
        return;
    }
    nn_hash_update_on(h, data, bytes, nn_isa_current());
}

void nn_hash_final(nn_hasher *h, uint8_t out[NN_CACHE_HASH_BYTES])
{
    /* The tail is padded with zeros and the length folded in, so inputs
     * that differ only by trailing zeros differ. */
    memset(h->buf + h->fill, 0, 64 - h->fill);
    hash_block(h->acc, h->buf, block_key[h->blocks]);
    hash_scramble(h->acc);
    uint64_t total = h->hashed + h->fill;
    uint64_t lo = total * 0x9e3779b97f4a7c15ull, hi = ~total * 0xc2b2ae3d27d4eb4full;
    for (int i = 0; i < 8; i += 2) {
        lo += fold128(h->acc[i] ^ fold_key[i], h->acc[i + 1] ^ fold_key[i + 1]);
        hi += fold128(h->acc[i] ^ fold_key[(i + 3) & 7], h->acc[i + 1] ^ fold_key[(i + 6) & 7]);
    }
    lo = avalanche(lo);
    hi = avalanche(hi ^ lo);
    memcpy(out, &lo, 8);
    memcpy(out + 8, &hi, 8);
}

/* A field of a fixed size (bytes is a constant once inlined), so that a
 * field that fits the buffer is one store (and one count: the block count
 * is kept apart from the fill, so that no wide load of the two waits on the
 * narrow store of one). */
static inline void hash_field(nn_hasher *h, const void *v, size_t bytes)
{
    if (h->fill + bytes < 64) {
        memcpy(h->buf + h->fill, v, bytes);
        h->fill += bytes;
    } else {
        nn_hash_update_on(h, v, bytes, nn_isa_current());
    }
}

static inline void hash_u32(nn_hasher *h, uint32_t v) { hash_field(h, &v, sizeof v); }
static inline void hash_u64(nn_hasher *h, uint64_t v) { hash_field(h, &v, sizeof v); }

static void hash_bytes(const void *data, size_t bytes, uint64_t seed, uint8_t out[NN_CACHE_HASH_BYTES])
{
    nn_hasher h;
    nn_hash_init(&h, seed);
    nn_hash_update_on(&h, data, bytes, nn_isa_current());
    nn_hash_final(&h, out);
}

/*
 * Large buffers (constants, packed weights) are cut into pieces of a fixed
 * size that are hashed on the thread pool, all of a compilation's in one
 * loop (the model's constants and the entry's blobs together, so that both
 * cores read memory at once); their digests are then hashed in order. The
 * cut depends only on the sizes, so the result does not depend on the
 * number of threads. Smaller buffers are hashed inline.
 */
#define PIECE_MIN_BYTES ((size_t)4096)
#define PIECE_BYTES ((size_t)64 << 10)
#define SEED_PIECE 0x7069656365ull

typedef struct hash_piece {
    const uint8_t *data;
    size_t bytes;
    uint8_t digest[NN_CACHE_HASH_BYTES];
} hash_piece;

typedef struct piece_list {
    hash_piece *items;
    size_t n, cap;
} piece_list;

static bool is_pieced(size_t bytes) { return bytes >= PIECE_MIN_BYTES; }

/* OUT_OF_MEMORY or NO_ERROR. */
static int pieces_add(piece_list *l, const uint8_t *data, size_t bytes)
{
    size_t need = (bytes + PIECE_BYTES - 1) / PIECE_BYTES;
    if (need > l->cap - l->n) {
        size_t cap = l->cap * 2 > l->n + need ? l->cap * 2 : l->n + need + 64;
        hash_piece *items = realloc(l->items, cap * sizeof *items);
        if (items == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        l->items = items;
        l->cap = cap;
    }
    for (size_t at = 0; at < bytes; at += PIECE_BYTES)
        l->items[l->n++] = (hash_piece){.data = data + at,
                                        .bytes = bytes - at < PIECE_BYTES ? bytes - at : PIECE_BYTES};
    return ANEURALNETWORKS_NO_ERROR;
}

static void hash_piece_range(void *arg, size_t begin, size_t end)
{
    hash_piece *p = arg;
    for (size_t i = begin; i < end; i++)
        hash_bytes(p[i].data, p[i].bytes, SEED_PIECE, p[i].digest);
}

static void pieces_hash(piece_list *l) { nn_parallel_for(l->n, 2, hash_piece_range, l->items); }

/* Feeds the digests of the pieces of a buffer of `bytes` from *cursor on. */
static void feed_pieces(nn_hasher *h, const piece_list *l, size_t *cursor, size_t bytes)
{
    for (size_t at = 0; at < bytes; at += PIECE_BYTES)
        nn_hash_update(h, l->items[(*cursor)++].digest, NN_CACHE_HASH_BYTES);
}

/* ------------------------------------------------------------ model hash */

typedef struct model_set {
    const ANeuralNetworksModel **items;
    uint32_t n, cap;
} model_set;

static int model_set_index(const model_set *s, const ANeuralNetworksModel *m)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->items[i] == m)
            return (int)i;
    return -1;
}

/* The walk over a model and the models it references: what is hashed
 * inline, the large constants as pieces (in the same order), and whether a
 * constant lives in a memory object. */
typedef struct model_walk {
    nn_hasher meta;
    piece_list *pieces;
    model_set set;
    bool uses_memory;
} model_walk;

/* Everything of an operand that can change what is computed or how, but the
 * values of its large constants (pieces). A referenced model is named by
 * its position in the order of first use, and hashed itself once. */
static void hash_operand(model_walk *w, const nn_operand *o)
{
    nn_hasher *h = &w->meta;
    hash_u32(h, (uint32_t)o->type);
    hash_u32(h, o->rank);
    nn_hash_update(h, o->dims, o->rank * sizeof *o->dims);
    _Static_assert(sizeof o->scale == sizeof(uint32_t), "a float scale is 32 bits");
    uint32_t scale_bits;
    memcpy(&scale_bits, &o->scale, sizeof scale_bits);
    hash_u32(h, scale_bits);
    hash_u32(h, (uint32_t)o->zero_point);
    hash_u32(h, (uint32_t)o->lifetime);
    hash_u32(h, o->has_channel_quant);
    if (o->has_channel_quant) {
        hash_u32(h, o->channel_quant.channel_dim);
        hash_u32(h, o->channel_quant.scale_count);
        nn_hash_update(h, o->channel_quant.scales,
                       o->channel_quant.scale_count * sizeof *o->channel_quant.scales);
    }
    if (o->lifetime == NN_LIFETIME_CONSTANT) {
        size_t bytes = o->value ? o->length : 0;
        hash_u64(h, bytes);
        if (!is_pieced(bytes))
            nn_hash_update(h, o->value, bytes);
    } else if (o->lifetime == NN_LIFETIME_SUBGRAPH) {
        hash_u32(h, (uint32_t)model_set_index(&w->set, o->subgraph));
    }
}

static void hash_model(model_walk *w, const ANeuralNetworksModel *m)
{
    /* The small constants and the dimensions are scattered over the heap,
     * and out of the caches after the computations that ran since the model
     * was made: their first lines are asked for all at once, not one by one
     * as the walk comes to them. */
    for (uint32_t i = 0; i < m->n_operands; i++) {
        const nn_operand *o = &m->operands[i];
        __builtin_prefetch(o->dims);
        if (o->lifetime == NN_LIFETIME_CONSTANT && o->value && !is_pieced(o->length))
            __builtin_prefetch(o->value);
    }
    nn_hasher *h = &w->meta;
    hash_u32(h, m->n_operands);
    for (uint32_t i = 0; i < m->n_operands; i++)
        hash_operand(w, &m->operands[i]);
    hash_u32(h, m->n_operations);
    for (uint32_t i = 0; i < m->n_operations; i++) {
        const nn_operation *op = &m->operations[i];
        hash_u32(h, (uint32_t)op->type);
        hash_u32(h, op->n_in);
        nn_hash_update(h, op->in, op->n_in * sizeof *op->in);
        hash_u32(h, op->n_out);
        nn_hash_update(h, op->out, op->n_out * sizeof *op->out);
    }
    hash_u32(h, m->n_inputs);
    nn_hash_update(h, m->inputs, m->n_inputs * sizeof *m->inputs);
    hash_u32(h, m->n_outputs);
    nn_hash_update(h, m->outputs, m->n_outputs * sizeof *m->outputs);
    hash_u32(h, m->relaxed);
}

/* The models' large constants, in the order hash_model comes to them, and
 * the referenced models in the order of first use (the set grows while it
 * is walked). OUT_OF_MEMORY or NO_ERROR. */
static int collect_constants(model_walk *w)
{
    model_set *set = &w->set;
    for (uint32_t k = 0; k < set->n; k++) {
        const ANeuralNetworksModel *m = set->items[k];
        for (uint32_t i = 0; i < m->n_operands; i++) {
            const nn_operand *o = &m->operands[i];
            if (o->lifetime == NN_LIFETIME_CONSTANT) {
                w->uses_memory |= o->memory != NULL;
                size_t bytes = o->value ? o->length : 0;
                if (is_pieced(bytes) &&
                    pieces_add(w->pieces, o->value, bytes) != ANEURALNETWORKS_NO_ERROR)
                    return ANEURALNETWORKS_OUT_OF_MEMORY;
            } else if (o->lifetime == NN_LIFETIME_SUBGRAPH &&
                       model_set_index(set, o->subgraph) < 0) {
                if (set->n == set->cap) {
                    uint32_t cap = set->cap * 2;
                    const ANeuralNetworksModel **items = realloc(set->items, cap * sizeof *items);
                    if (items == NULL)
                        return ANEURALNETWORKS_OUT_OF_MEMORY;
                    set->items = items;
                    set->cap = cap;
                }
                set->items[set->n++] = o->subgraph;
            }
        }
    }
    return ANEURALNETWORKS_NO_ERROR;
}

/* The models' part of the hash, in three steps around the hashing of the
 * pieces: model_begin lists the large constants as pieces, model_meta
 * hashes everything else (it may run while the pieces are hashed),
 * model_end takes their digests. */
typedef struct model_hash_job {
    const ANeuralNetworksCompilation *c;
    model_walk walk;
    size_t first_piece, n_pieces;
    bool remembered; /* the model's hash was kept by an earlier compilation */
    uint8_t models[NN_CACHE_HASH_BYTES];
} model_hash_job;

#define SEED_MODEL 0x6e6e6170692d6c78ull
#define MEMO_NONE 0
#define MEMO_WRITING 1
#define MEMO_READY 2

static void model_job_free(model_hash_job *j)
{
    free(j->walk.set.items);
    j->walk.set.items = NULL;
}

/* OUT_OF_MEMORY or NO_ERROR; model_job_free frees what it made either way. */
static int model_begin(model_hash_job *j, const ANeuralNetworksCompilation *c, piece_list *pieces)
{
    memset(j, 0, sizeof *j);
    j->c = c;
    ANeuralNetworksModel *m = c->model;
    if (atomic_load_explicit(&m->cache_hash_state, memory_order_acquire) == MEMO_READY) {
        memcpy(j->models, m->cache_hash, sizeof j->models);
        j->remembered = true;
        return ANEURALNETWORKS_NO_ERROR;
    }
    model_walk *w = &j->walk;
    w->pieces = pieces;
    j->first_piece = pieces->n;
    w->set.items = malloc(8 * sizeof *w->set.items);
    if (w->set.items == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    w->set.cap = 8;
    w->set.items[w->set.n++] = m;
    int rc = collect_constants(w);
    j->n_pieces = pieces->n - j->first_piece;
    return rc;
}

static void model_meta(model_hash_job *j)
{
    if (j->remembered)
        return;
    model_walk *w = &j->walk;
    nn_hash_init(&w->meta, SEED_MODEL);
    for (uint32_t k = 0; k < w->set.n; k++)
        hash_model(w, w->set.items[k]);
}

/*
 * A finished model cannot change, and the values of its constants must not
 * change either while it is in use ("modifying the data after this call
 * yields undefined results"; Android's runtime copies the values set by
 * pointer when the model is finished). But a memory object's content may be
 * changed once the executions that use the model are done, and Android's
 * drivers read it again at each compilation: a model with a constant in a
 * memory object is hashed in full every time, any other keeps its hash.
 */
static void model_end(model_hash_job *j, const piece_list *pieces, uint8_t out[NN_CACHE_HASH_BYTES])
{
    ANeuralNetworksModel *m = j->c->model;
    if (!j->remembered) {
        uint8_t meta[NN_CACHE_HASH_BYTES];
        nn_hash_final(&j->walk.meta, meta);
        nn_hasher h;
        nn_hash_init(&h, SEED_MODEL + 1);
        nn_hash_update(&h, meta, sizeof meta);
        hash_u64(&h, j->n_pieces);
        for (size_t i = 0; i < j->n_pieces; i++)
            nn_hash_update(&h, pieces->items[j->first_piece + i].digest, NN_CACHE_HASH_BYTES);
        nn_hash_final(&h, j->models);
        int none = MEMO_NONE;
        if (!j->walk.uses_memory &&
            atomic_compare_exchange_strong(&m->cache_hash_state, &none, MEMO_WRITING)) {
            memcpy(m->cache_hash, j->models, sizeof m->cache_hash);
            atomic_store_explicit(&m->cache_hash_state, MEMO_READY, memory_order_release);
        }
    }
    /* Only CPU plans are cached (a partitioned compilation is not): the
     * device list does not change them. */
    nn_hasher h;
    nn_hash_init(&h, SEED_MODEL + 2);
    nn_hash_update(&h, j->models, sizeof j->models);
    hash_u32(&h, (uint32_t)j->c->preference);
    nn_hash_final(&h, out);
}

int nn_cache_model_hash(const ANeuralNetworksCompilation *c, uint8_t out[NN_CACHE_HASH_BYTES])
{
    piece_list pieces = {0};
    model_hash_job job;
    int rc = model_begin(&job, c, &pieces);
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        model_meta(&job);
        pieces_hash(&pieces);
        model_end(&job, &pieces, out);
    }
    model_job_free(&job);
    free(pieces.items);
    return rc;
}

/* --------------------------------------------------------- entry format */


#define HEADER_SPAN NN_CACHE_HEADER_SPAN

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static char library_id[96];

typedef struct build_id_search {
    uintptr_t address;
    char *out;
    size_t out_size;
} build_id_search;

/* The GNU build id of the object this code is linked into (the shared
 * library, or the program that linked the static one): any change to the
 * code, packings included, changes it. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    build_id_search *s = arg;
    bool contains = false;
    for (int i = 0; i < info->dlpi_phnum && !contains; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        contains = ph->p_type == PT_LOAD && s->address >= start && s->address - start < ph->p_memsz;
    }
    if (!contains)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        size_t left = ph->p_memsz;
        while (left >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)p;
            size_t name = (note->n_namesz + 3u) & ~3u, desc = (note->n_descsz + 3u) & ~3u;
            if (sizeof *note + name + desc > left)
                break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                memcmp(p + sizeof *note, "GNU", 4) == 0) {
                const uint8_t *id = p + sizeof *note + name;
                size_t used = strlen(s->out);
                for (uint32_t b = 0; b < note->n_descsz && used + 3 < s->out_size; b++, used += 2)
                    snprintf(s->out + used, s->out_size - used, "%02x", id[b]);
                return 1;
            }
            p += sizeof *note + name + desc;
            left -= sizeof *note + name + desc;
        }
    }
    return 1;
}

static void library_init(void)
{
    snprintf(library_id, sizeof library_id, "%s ", NN_LIBRARY_VERSION);
    build_id_search s = {(uintptr_t)&library_init, library_id, sizeof library_id};
    dl_iterate_phdr(find_build_id, &s);
}

static void header_identity(cache_header *hd, const uint8_t *token, const uint8_t *model_hash)
{
    pthread_once(&library_once, library_init);
    memcpy(hd->magic, cache_magic, sizeof hd->magic);
    hd->format = NN_CACHE_FORMAT;
    hd->header_bytes = sizeof *hd;
    memset(hd->library, 0, sizeof hd->library);
    memcpy(hd->library, library_id, strlen(library_id));
    hd->isa = (uint32_t)nn_isa_current();
    hd->byte_order = NN_CACHE_BYTE_ORDER;
    hd->pointer_bytes = sizeof(void *);
    memcpy(hd->token, token, sizeof hd->token);
    memcpy(hd->model_hash, model_hash, sizeof hd->model_hash);
}

#define SEED_HEADER 0x68656164u
#define SEED_PAYLOAD 0x7061796cu

void nn_cache_seal_header(cache_header *hd)
{
    hash_bytes(hd, offsetof(cache_header, header_hash), SEED_HEADER, hd->header_hash);
}

char *nn_cache_entry_path(const char *dir, const uint8_t *token)
{
    size_t len = strlen(dir);
    char *path = malloc(len + 1 + 12 + 2 * ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN + 7);
    if (path == NULL)
        return NULL;
    char *p = path + sprintf(path, "%s/nnapi-linux-", dir);
    for (int i = 0; i < ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN; i++)
        p += sprintf(p, "%02x", token[i]);
    strcpy(p, ".cache");
    return path;
}

typedef struct recorded_blob {
    cache_blob key;
    void *data;
} recorded_blob;

/* The entry's payload hash in two steps around the hashing of the pieces:
 * the blob table and each blob (from the image, or from the recorded blobs
 * when rec is not NULL); the padding between blobs is never read, so it is
 * not covered. */
static int payload_begin(const cache_blob *table, uint32_t n, const uint8_t *image,
                         const recorded_blob *rec, piece_list *pieces)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *data = rec ? (const uint8_t *)rec[i].data : image + table[i].offset;
        if (is_pieced(table[i].bytes) &&
            pieces_add(pieces, data, table[i].bytes) != ANEURALNETWORKS_NO_ERROR)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static void payload_end(const cache_blob *table, uint32_t n, const uint8_t *image,
                        const recorded_blob *rec, const piece_list *pieces, size_t first_piece,
                        uint8_t out[NN_CACHE_HASH_BYTES])
{
    nn_hasher h;
    nn_hash_init(&h, SEED_PAYLOAD);
    nn_hash_update(&h, table, (size_t)n * sizeof *table);
    size_t cursor = first_piece;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *data = rec ? (const uint8_t *)rec[i].data : image + table[i].offset;
        if (is_pieced(table[i].bytes))
            feed_pieces(&h, pieces, &cursor, table[i].bytes);
        else
            nn_hash_update(&h, data, table[i].bytes);
    }
    nn_hash_final(&h, out);
}

static int hash_payload(const cache_blob *table, uint32_t n, const uint8_t *image,
                        const recorded_blob *rec, uint8_t out[NN_CACHE_HASH_BYTES])
{
    piece_list pieces = {0};
    int rc = payload_begin(table, n, image, rec, &pieces);
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        pieces_hash(&pieces);
        payload_end(table, n, image, rec, &pieces, 0, out);
    }
    free(pieces.items);
    return rc;
}

/* Whether the table of n blobs and the blobs lie inside the image. */
static bool blobs_inside(const uint8_t *image, size_t bytes, uint32_t n)
{
    if (bytes < HEADER_SPAN || n > (bytes - HEADER_SPAN) / sizeof(cache_blob))
        return false;
    const cache_blob *t = (const cache_blob *)(image + HEADER_SPAN);
    size_t data_start = HEADER_SPAN + (size_t)n * sizeof(cache_blob);
    for (uint32_t i = 0; i < n; i++)
        if (t[i].offset % NN_CACHE_ALIGN != 0 || t[i].offset < data_start ||
            t[i].offset > bytes || t[i].bytes > bytes - t[i].offset)
            return false;
    return true;
}

void nn_cache_forge_identity(uint8_t *image, size_t bytes, const uint8_t *token,
                             const uint8_t *model_hash, bool fix_payload_hash)
{
    if (bytes < sizeof(cache_header))
        return;
    cache_header hd;
    memcpy(&hd, image, sizeof hd);
    header_identity(&hd, token, model_hash);
    if (fix_payload_hash) {
        hd.file_bytes = bytes;
        if (blobs_inside(image, bytes, hd.n_blobs))
            hash_payload((const cache_blob *)(image + HEADER_SPAN), hd.n_blobs, image, NULL,
                         hd.payload_hash);
    }
    nn_cache_seal_header(&hd);
    memcpy(image, &hd, sizeof hd);
}

/* ------------------------------------------------------- mapped entries */

/*
 * A checked entry, and the entry a miss just wrote, stays mapped for the
 * next compilations of the process that use it: while its file is the same
 * one, unchanged (device, inode, size, modification and change times), its
 * payload is not hashed again. Only a file whose modification time was
 * settled when it was checked (see mtime_settled) is kept: a change to it
 * would not go unseen.
 * The model always is, unless it kept its hash. An entry replaced (renamed
 * over) or written in place is another file, checked in full. Mappings no
 * compilation uses are kept, the most recently used, up to KEPT_UNUSED of
 * them and KEPT_UNUSED_BYTES in all; those of an older file of the same
 * name go first. The slots are static: keeping an entry allocates nothing.
 */
#define MAPPED_SLOTS 16
#define KEPT_UNUSED 8
#define KEPT_UNUSED_BYTES ((size_t)256 << 20)

typedef struct file_identity {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    bool settled; /* any later change to its content changes mtime */
} file_identity;

typedef struct mapped_entry {
    bool taken;
    uint32_t users;     /* compilations using it */
    uint64_t last_use;
    uint64_t path_hash; /* of the name it was found under */
    file_identity id;
    const uint8_t *map;
    size_t bytes;
    cache_header hd;
} mapped_entry;

static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static mapped_entry mapped[MAPPED_SLOTS];
static uint64_t mapped_clock;
static pthread_once_t mapped_once = PTHREAD_ONCE_INIT;

/* A child forked while another thread held the lock must not inherit it held. */
static void mapped_prepare(void) { pthread_mutex_lock(&mapped_lock); }
static void mapped_resume(void) { pthread_mutex_unlock(&mapped_lock); }
static void mapped_init(void) { pthread_atfork(mapped_prepare, mapped_resume, mapped_resume); }

static void mapped_lock_take(void)
{
    pthread_once(&mapped_once, mapped_init);
    pthread_mutex_lock(&mapped_lock);
}

/*
 * Whether a change made from now on to the content of a file of this
 * modification time is sure to give it another one (every write, truncation
 * or hole punched sets it; only metadata changes set the change time alone).
 * The kernel stamps a change with its coarse clock (a tick of 1 to 10 ms; or
 * a finer time, never earlier), cut to the file system's resolution: with a
 * resolution of 1 us or finer, once that clock has passed the time. A time in
 * whole milliseconds is taken for a coarser file system (FAT keeps 2 s),
 * which gets two seconds.
 */
static bool mtime_settled(const struct timespec *mtime)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME_COARSE, &now) != 0)
        return false;
    if (mtime->tv_nsec % 1000000 == 0)
        return now.tv_sec >= mtime->tv_sec + 2;
    int64_t ahead_ns =
        ((int64_t)now.tv_sec - mtime->tv_sec) * 1000000000 + now.tv_nsec - mtime->tv_nsec;
    return ahead_ns >= 1000;
}

static void identity_of(const struct stat *st, file_identity *id)
{
    *id = (file_identity){.dev = st->st_dev, .ino = st->st_ino, .size = st->st_size,
                          .mtime = st->st_mtim, .ctime = st->st_ctim,
                          .settled = mtime_settled(&st->st_mtim)};
}

static bool same_identity(const file_identity *a, const file_identity *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
           a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

static uint64_t path_hash_of(const char *path)
{
    uint8_t h[NN_CACHE_HASH_BYTES];
    hash_bytes(path, strlen(path), 0x70617468u, h);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return v;
}

/* With mapped_lock held. */
static void mapped_evict_locked(mapped_entry *e)
{
    munmap((void *)e->map, e->bytes);
    memset(e, 0, sizeof *e);
}

/* Unmaps the unused entries beyond the bounds, least recently used first;
 * with mapped_lock held. */
static void mapped_trim_locked(void)
{
    for (;;) {
        uint32_t unused = 0;
        size_t unused_bytes = 0;
        mapped_entry *oldest = NULL;
        for (int i = 0; i < MAPPED_SLOTS; i++) {
            mapped_entry *e = &mapped[i];
            if (!e->taken || e->users)
                continue;
            unused++;
            unused_bytes += e->bytes;
            if (oldest == NULL || e->last_use < oldest->last_use)
                oldest = e;
        }
        if (unused <= KEPT_UNUSED && unused_bytes <= KEPT_UNUSED_BYTES)
            return;
        mapped_evict_locked(oldest);
    }
}

/* Unmaps the unused entries found under path_hash other than the file id
 * (NULL: all of them); with mapped_lock held. */
static void mapped_forget_locked(uint64_t path_hash, const file_identity *id)
{
    for (int i = 0; i < MAPPED_SLOTS; i++) {
        mapped_entry *e = &mapped[i];
        if (e->taken && !e->users && e->path_hash == path_hash &&
            (id == NULL || !same_identity(&e->id, id)))
            mapped_evict_locked(e);
    }
}

/* Before a writer replaces the entry at path: the last mapping of the old
 * file is what frees it, which can take long (discarding its blocks), and
 * is better done by the writer than by the next hit. */
static void mapped_forget(const char *path)
{
    uint64_t h = path_hash_of(path);
    mapped_lock_take();
    mapped_forget_locked(h, NULL);
    pthread_mutex_unlock(&mapped_lock);
}

/* The kept entry of the file st describes, found at path, with one more
 * user; NULL if there is none. */
static mapped_entry *mapped_find(const char *path, const struct stat *st)
{
    file_identity id;
    identity_of(st, &id);
    uint64_t h = path_hash_of(path);
    mapped_lock_take();
    mapped_forget_locked(h, &id);
    mapped_entry *found = NULL;
    for (int i = 0; i < MAPPED_SLOTS && found == NULL; i++)
        if (mapped[i].taken && same_identity(&mapped[i].id, &id))
            found = &mapped[i];
    if (found) {
        found->users++;
        found->last_use = ++mapped_clock;
    }
    pthread_mutex_unlock(&mapped_lock);
    return found;
}

/* Keeps a checked mapping of the file id found at path, used once; NULL
 * (the caller keeps the mapping) when every slot is in use, or when a change
 * to the file could leave its identity as it is (id not settled when the
 * file was opened). */
static mapped_entry *mapped_add(const char *path, const file_identity *id, const uint8_t *map,
                                size_t bytes, const cache_header *hd)
{
    if (!id->settled)
        return NULL;
    uint64_t h = path_hash_of(path);
    mapped_lock_take();
    mapped_forget_locked(h, id);
    mapped_entry *slot = NULL, *oldest = NULL;
    for (int i = 0; i < MAPPED_SLOTS && slot == NULL; i++) {
        mapped_entry *e = &mapped[i];
        if (!e->taken)
            slot = e;
        else if (!e->users && (oldest == NULL || e->last_use < oldest->last_use))
            oldest = e;
    }
    if (slot == NULL && oldest != NULL) {
        mapped_evict_locked(oldest);
        slot = oldest;
    }
    if (slot) {
        *slot = (mapped_entry){.taken = true, .users = 1, .last_use = ++mapped_clock,
                               .path_hash = h, .id = *id, .map = map, .bytes = bytes, .hd = *hd};
        mapped_trim_locked();
    }
    pthread_mutex_unlock(&mapped_lock);
    return slot;
}

bool nn_cache_entry_kept(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    file_identity id;
    identity_of(&st, &id);
    mapped_lock_take();
    bool kept = false;
    for (int i = 0; i < MAPPED_SLOTS && !kept; i++)
        kept = mapped[i].taken && same_identity(&mapped[i].id, &id);
    pthread_mutex_unlock(&mapped_lock);
    return kept;
}

static void mapped_release(mapped_entry *e)
{
    mapped_lock_take();
    e->users--;
    e->last_use = ++mapped_clock;
    mapped_trim_locked();
    pthread_mutex_unlock(&mapped_lock);
}

/* ------------------------------------------------------------- the store */


struct nn_cache {
    atomic_uint refs;
    /* hit: the mapped entry (kept for others, or this compilation's own) and its table */
    mapped_entry *kept;
    const uint8_t *map;
    size_t map_bytes;
    const cache_blob *table;
    uint32_t n_table;
    uint32_t cursor;          /* blobs are asked for in the order they were written */
    uint32_t mismatches;
    /* miss: blobs to write, owned */
    recorded_blob *recorded;
    uint32_t n_recorded, cap_recorded;
    bool recording;
    /* the step whose plan hook runs */
    uint32_t subplan, op_index, seq;
};

/* The store of the compilation whose plan this thread builds. */
static _Thread_local nn_cache *building;

void nn_blob_step(uint32_t subplan, uint32_t op_index)
{
    nn_cache *s = building;
    if (s == NULL)
        return;
    s->subplan = subplan;
    s->op_index = op_index;
    s->seq = 0;
}

static void *aligned_bytes(size_t bytes)
{
    size_t rounded = (bytes + NN_CACHE_ALIGN - 1) & ~(size_t)(NN_CACHE_ALIGN - 1);
    if (rounded < bytes)
        return NULL;
    return aligned_alloc(NN_CACHE_ALIGN, rounded ? rounded : NN_CACHE_ALIGN);
}

void *nn_blob_acquire(size_t bytes, bool *filled, bool *owned)
{
    *filled = false;
    *owned = true;
    nn_cache *s = building;
    if (s == NULL || bytes == 0)
        return aligned_bytes(bytes);
    cache_blob key = {.subplan = s->subplan, .op_index = s->op_index, .seq = s->seq++,
                      .bytes = bytes};
    if (!s->recording) {
        if (s->cursor < s->n_table) {
            const cache_blob *b = &s->table[s->cursor];
            if (b->subplan == key.subplan && b->op_index == key.op_index && b->seq == key.seq &&
                b->bytes == key.bytes) {
                s->cursor++;
                *filled = true;
                *owned = false;
                return (void *)(s->map + b->offset);
            }
        }
        /* An entry for another model (its hash is checked while the plan
         * is built) or a forged one can get here: the packing is made
         * again rather than trusted. */
        s->mismatches++;
        return aligned_bytes(bytes);
    }
    if (s->n_recorded == s->cap_recorded) {
        uint32_t cap = s->cap_recorded ? s->cap_recorded * 2 : 64;
        recorded_blob *r = realloc(s->recorded, cap * sizeof *r);
        if (r == NULL)
            return NULL;
        s->recorded = r;
        s->cap_recorded = cap;
    }
    void *data = aligned_bytes(bytes);
    if (data == NULL)
        return NULL;
    s->recorded[s->n_recorded++] = (recorded_blob){key, data};
    *owned = false;
    return data;
}

bool nn_cache_is_hit(const nn_cache *s)
{
    return s != NULL && s->map != NULL;
}

void nn_cache_release(nn_cache *s)
{
    if (s == NULL || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    if (s->kept)
        mapped_release(s->kept);
    else if (s->map)
        munmap((void *)s->map, s->map_bytes);
    for (uint32_t i = 0; i < s->n_recorded; i++)
        free(s->recorded[i].data);
    free(s->recorded);
    free(s);
}

/* ------------------------------------------------------------ load, save */

/* Checks an entry image up to its hashes of the model and of the payload,
 * which the caller checks: every offset and size is checked against the
 * image before it is used. Returns NULL when it may be usable, else why
 * not; *hd is the header. */
static const char *check_header(const uint8_t *image, size_t bytes, const cache_header *want,
                                cache_header *hd)
{
    if (bytes == 0)
        return "empty";
    if (bytes < HEADER_SPAN)
        return "truncated header";
    memcpy(hd, image, sizeof *hd);
    if (memcmp(hd->magic, cache_magic, sizeof hd->magic) != 0)
        return "not a cache entry (magic)";
    uint8_t sum[NN_CACHE_HASH_BYTES];
    hash_bytes(hd, offsetof(cache_header, header_hash), SEED_HEADER, sum);
    if (memcmp(sum, hd->header_hash, sizeof sum) != 0)
        return "corrupt header";
    if (hd->format != NN_CACHE_FORMAT || hd->header_bytes != sizeof *hd)
        return "another format version";
    if (memcmp(hd->library, want->library, sizeof hd->library) != 0)
        return "written by another library version";
    if (hd->isa != want->isa || hd->byte_order != want->byte_order ||
        hd->pointer_bytes != want->pointer_bytes)
        return "written for another ISA";
    if (memcmp(hd->token, want->token, sizeof hd->token) != 0)
        return "another token";
    if (hd->file_bytes != bytes)
        return "truncated or extended";
    if (!blobs_inside(image, bytes, hd->n_blobs))
        return "a blob outside the entry";
    return NULL;
}

/* Maps the entry at path; NULL with *why set when it is not usable, NULL
 * with *why NULL when there is none. */
static const uint8_t *map_entry(const char *path, size_t *bytes, file_identity *id,
                                const char **why)
{
    *why = NULL;
    /* Non-blocking: a FIFO at the entry's name must not hang the open. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno != ENOENT)
            nn_vlog("compilation cache: cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    const uint8_t *map = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a readable regular file";
    } else if (st.st_size == 0) {
        *why = "empty";
    } else if ((uint64_t)st.st_size > SIZE_MAX) {
        *why = "too large";
    } else {
        *bytes = (size_t)st.st_size;
        identity_of(&st, id);
        /* Not populated: its pages are mapped by the threads that hash
         * them, in parallel. */
        void *m = mmap(NULL, *bytes, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED)
            *why = "cannot be mapped";
        else
            map = m;
    }
    close(fd);
    return map;
}

static bool write_all(int fd, const void *data, size_t bytes)
{
    const uint8_t *p = data;
    while (bytes > 0) {
        ssize_t w = write(fd, p, bytes);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        bytes -= (size_t)w;
    }
    return true;
}

static const uint8_t zeros[NN_CACHE_ALIGN];

#define TEMP_PREFIX ".nnapi-linux-"
/* A writer renames its temporary file within milliseconds; one this old was
 * left by a process that died while writing. */
#define STALE_TEMP_SECONDS 600

/* Removes the temporary files of dead writers from dir: they are the only
 * files the cache could leave behind that nothing ever replaces. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strncmp(e->d_name, TEMP_PREFIX, strlen(TEMP_PREFIX)) != 0 ||
            strlen(e->d_name) != strlen(TEMP_PREFIX) + 6 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            now - st.st_mtime < STALE_TEMP_SECONDS)
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0)
            nn_vlog("compilation cache: removed %s/%s, left by a writer that died", dir, e->d_name);
    }
    closedir(d);
}

/* Sets the modification time of the file just written two seconds back, so
 * that any change to it from now on gives it another one (the writes of a
 * file written within one clock tick leave it with the current tick's). The
 * temporary file is this writer's alone: its name is random, its mode 0600. */
static bool settle_mtime(int fd)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME_COARSE, &now) != 0)
        return false;
    const struct timespec times[2] = {{.tv_nsec = UTIME_OMIT},
                                      {.tv_sec = now.tv_sec - 2, .tv_nsec = now.tv_nsec}};
    return futimens(fd, times) == 0;
}

/*
 * Keeps the entry this process just wrote (fd; `written` taken after its
 * last write, when its modification time was settled) mapped as a checked
 * one, as a hit would, so that the process's next hit does not hash its
 * payload again: its bytes are the ones whose payload hash was written. Only
 * if the file is still the one written: a change after `written` would have
 * given it another modification time.
 */
static void keep_written(const char *path, int fd, const struct stat *written, size_t bytes,
                         const cache_header *hd)
{
    struct stat now;
    if (fstat(fd, &now) != 0 || now.st_ino != written->st_ino || now.st_dev != written->st_dev ||
        now.st_size != written->st_size || (uint64_t)now.st_size != bytes ||
        now.st_mtim.tv_sec != written->st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != written->st_mtim.tv_nsec)
        return;
    file_identity id;
    identity_of(&now, &id);
    void *map = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
        return;
    mapped_entry *kept = mapped_add(path, &id, map, bytes, hd);
    if (kept)
        mapped_release(kept);
    else
        munmap(map, bytes);
}

/* Writes the recorded blobs as the entry at path: to a temporary file of the
 * same directory, synced, then renamed over the entry, so that readers and
 * other writers only ever see a whole entry. */
static void save_entry(const char *dir, const char *path, const nn_cache *s, cache_header *hd)
{
    size_t table_bytes = (size_t)s->n_recorded * sizeof(cache_blob);
    cache_blob *table = malloc(table_bytes ? table_bytes : 1);
    if (table == NULL) {
        nn_vlog("compilation cache: not writing %s: out of memory", path);
        return;
    }
    size_t offset = HEADER_SPAN + table_bytes;
    for (uint32_t i = 0; i < s->n_recorded; i++) {
        offset = (offset + NN_CACHE_ALIGN - 1) & ~(size_t)(NN_CACHE_ALIGN - 1);
        table[i] = s->recorded[i].key;
        table[i].offset = offset;
        offset += table[i].bytes;
    }
    hd->n_blobs = s->n_recorded;
    hd->file_bytes = offset;
    if (hash_payload(table, s->n_recorded, NULL, s->recorded, hd->payload_hash) !=
        ANEURALNETWORKS_NO_ERROR) {
        free(table);
        nn_vlog("compilation cache: not writing %s: out of memory", path);
        return;
    }
    nn_cache_seal_header(hd);

    size_t dlen = strlen(dir);
    char *tmp = malloc(dlen + 32);
    if (tmp == NULL) {
        free(table);
        nn_vlog("compilation cache: not writing %s: out of memory", path);
        return;
    }
    remove_stale_temporaries(dir);
    snprintf(tmp, dlen + 32, "%s/" TEMP_PREFIX "XXXXXX", dir);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        nn_vlog("compilation cache: cannot write in %s (%s): compiled without caching", dir,
                strerror(errno));
        free(tmp);
        free(table);
        return;
    }
    uint8_t head[HEADER_SPAN] = {0};
    memcpy(head, hd, sizeof *hd);
    bool ok = write_all(fd, head, sizeof head) && write_all(fd, table, table_bytes);
    size_t at = HEADER_SPAN + table_bytes;
    for (uint32_t i = 0; ok && i < s->n_recorded; i++) {
        ok = write_all(fd, zeros, table[i].offset - at) &&
             write_all(fd, s->recorded[i].data, table[i].bytes);
        at = table[i].offset + table[i].bytes;
    }
    /* Entries are shared between users of the directory only as its
     * permissions allow; the mode of mkostemp (0600) stays. */
    ok = ok && fsync(fd) == 0;
    struct stat written;
    bool settled = ok && fstat(fd, &written) == 0 &&
                   (mtime_settled(&written.st_mtim) ||
                    (settle_mtime(fd) && fstat(fd, &written) == 0 &&
                     mtime_settled(&written.st_mtim)));
    if (ok)
        mapped_forget(path);
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        nn_vlog("compilation cache: cannot write %s (%s): compiled without caching", path,
                strerror(errno));
        unlink(tmp);
    } else {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        nn_vlog("compilation cache: wrote %s (%u blobs, %zu bytes)", path, s->n_recorded, at);
        if (settled)
            keep_written(path, fd, &written, hd->file_bytes, hd);
    }
    /* After fsync, which reported any write error: the entry is in place. */
    close(fd);
    free(tmp);
    free(table);
}

/* Lets go of an entry found by find_entry. */
static void drop_entry(mapped_entry **kept, const uint8_t **map, size_t bytes)
{
    if (*kept)
        mapped_release(*kept);
    else if (*map)
        munmap((void *)*map, bytes);
    *kept = NULL;
    *map = NULL;
}

/* The entry at path, kept mapped (*kept) or mapped anew, when its header
 * fits (*map, *bytes, *hd); *map is NULL when there is none that may be
 * usable. Its model and payload hashes are still to be checked. */
static void find_entry(const char *path, const cache_header *want, mapped_entry **kept,
                       const uint8_t **map, size_t *bytes, file_identity *id, cache_header *hd)
{
    const char *why = NULL;
    struct stat st;
    *kept = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? mapped_find(path, &st) : NULL;
    if (*kept) {
        *map = (*kept)->map;
        *bytes = (*kept)->bytes;
    } else {
        *map = map_entry(path, bytes, id, &why);
    }
    if (*map != NULL && (why = check_header(*map, *bytes, want, hd)) != NULL)
        drop_entry(kept, map, *bytes);
    if (why != NULL)
        nn_vlog("compilation cache: ignoring %s: %s", path, why);
}

/* A plan build with the blobs of store (nn_plan_build's result in rc). */
typedef struct plan_job {
    const ANeuralNetworksModel *model;
    nn_cache *store;
    nn_plan *plan;
    int rc;
} plan_job;

static void build_with_store(plan_job *j)
{
    building = j->store;
    j->rc = nn_plan_build(j->model, &j->plan);
    building = NULL;
}

/* What the calling thread does while the pieces are hashed: the rest of the
 * model's hash, then, with an entry to try, the plan. */
typedef struct beside_job {
    model_hash_job *hash;
    plan_job *build; /* NULL: none yet */
} beside_job;

static void hash_rest_then_build(void *arg)
{
    beside_job *j = arg;
    model_meta(j->hash);
    if (j->build)
        build_with_store(j->build);
}

/* Makes s a miss that records its blobs, forgetting a hit's entry. */
static void make_recording(nn_cache *s)
{
    s->kept = NULL;
    s->map = NULL;
    s->map_bytes = 0;
    s->table = NULL;
    s->n_table = s->cursor = s->mismatches = 0;
    s->recording = true;
}

/*
 * The workers hash the model's large constants (and the payload of an entry
 * mapped anew) while this thread hashes the rest of the model and, with an
 * entry whose header fits, builds the plan with its blobs: a hit costs
 * about half of the two. Blobs are only
 * pointed to while a plan is built, never read, so an entry that turns out
 * to be for another model, or corrupt, costs only the plan built in vain,
 * which is freed before the entry is let go; the plan is then built anew
 * with recorded blobs and the entry rewritten. Without an entry the hash
 * comes first, so that packing has the workers.
 */
int nn_cache_build_plan(const ANeuralNetworksCompilation *c, nn_plan **plan, nn_cache **cache)
{
    *cache = NULL;
    *plan = NULL;
    /* Sleeping workers wake while the entry is looked up and the model
     * walked, not when the hash loop asks for them. */
    nn_pool_wake();
    char *path = nn_cache_entry_path(c->cache_dir, c->cache_token);
    nn_cache *s = path ? calloc(1, sizeof *s) : NULL;
    if (s == NULL) {
        free(path);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    atomic_init(&s->refs, 1);
    static const uint8_t unknown_yet[NN_CACHE_HASH_BYTES];
    cache_header want = {0}, hd = {0};
    header_identity(&want, c->cache_token, unknown_yet);
    const uint8_t *map;
    mapped_entry *kept;
    size_t bytes = 0;
    file_identity id = {0};
    find_entry(path, &want, &kept, &map, &bytes, &id, &hd);
    bool check_payload = map != NULL && kept == NULL;
    piece_list pieces = {0};
    model_hash_job job;
    int rc = model_begin(&job, c, &pieces);
    size_t payload_first = pieces.n;
    const cache_blob *table = map ? (const cache_blob *)(map + HEADER_SPAN) : NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR && check_payload)
        rc = payload_begin(table, hd.n_blobs, map, NULL, &pieces);
    plan_job build = {.model = c->model, .store = s};
    const char *why = NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR && map != NULL) {
        s->map = map;
        s->map_bytes = bytes;
        s->table = table;
        s->n_table = hd.n_blobs;
        beside_job beside = {&job, &build};
        nn_parallel_for_beside(pieces.n, 2, hash_piece_range, pieces.items, hash_rest_then_build,
                               &beside);
        model_end(&job, &pieces, want.model_hash);
        if (memcmp(hd.model_hash, want.model_hash, sizeof hd.model_hash) != 0) {
            why = "another model";
        } else if (check_payload) {
            uint8_t sum[NN_CACHE_HASH_BYTES];
            payload_end(table, hd.n_blobs, map, NULL, &pieces, payload_first, sum);
            if (memcmp(sum, hd.payload_hash, sizeof sum) != 0)
                why = "corrupt payload";
        }
        if (why != NULL) {
            nn_vlog("compilation cache: ignoring %s: %s", path, why);
            nn_plan_free(build.plan);
            build.plan = NULL;
            make_recording(s);
            drop_entry(&kept, &map, bytes);
        }
    } else if (rc == ANEURALNETWORKS_NO_ERROR) {
        beside_job beside = {&job, NULL};
        nn_parallel_for_beside(pieces.n, 2, hash_piece_range, pieces.items, hash_rest_then_build,
                               &beside);
        model_end(&job, &pieces, want.model_hash);
    }
    model_job_free(&job);
    free(pieces.items);
    if (rc == ANEURALNETWORKS_NO_ERROR && map == NULL) {
        s->recording = true;
        build_with_store(&build);
        rc = build.rc;
    } else if (rc == ANEURALNETWORKS_NO_ERROR) {
        rc = build.rc;
        if (rc == ANEURALNETWORKS_NO_ERROR && kept == NULL)
            kept = mapped_add(path, &id, map, bytes, &hd);
        s->kept = kept;
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_plan_free(build.plan);
        if (map != NULL) {
            make_recording(s);
            drop_entry(&kept, &map, bytes);
        }
        nn_cache_release(s);
        free(path);
        return rc;
    }
    if (map && (s->mismatches || s->cursor != s->n_table))
        nn_vlog("compilation cache: %s did not fit the plan (%u of %u blobs used, %u repacked)",
                path, s->cursor, s->n_table, s->mismatches);
    else if (map)
        nn_vlog("compilation cache: loaded %s (%u blobs)", path, s->n_table);
    if (!map)
        save_entry(c->cache_dir, path, s, &want);
    free(path);
    *plan = build.plan;
    *cache = s;
    return ANEURALNETWORKS_NO_ERROR;
}
