/*
 * LSH_PROJECTION: locality-sensitive hashing of the input rows.
 * Each bit is the sign of sum_k w_k * fingerprint64(seed ‖ row_k), where
 * fingerprint64 is FarmHash's 64-bit fingerprint (the function the
 * reference uses: the expected outputs depend on it bit for bit).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fp16.h"
#include "ops/detection_common.h"

/* ---- FarmHash Fingerprint64 (little-endian loads) ---- */

static const uint64_t fh_k0 = 0xc3a5c85c97cb3127ULL;
static const uint64_t fh_k1 = 0xb492b66fbe98f273ULL;
static const uint64_t fh_k2 = 0x9ae16a3b2f90404fULL;

static uint64_t fh_load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t fh_load32(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static uint64_t fh_rot(uint64_t v, int s)
{
    return s == 0 ? v : (v >> s) | (v << (64 - s));
}

static uint64_t fh_mix(uint64_t v)
{
    return v ^ (v >> 47);
}

static uint64_t fh_len16(uint64_t u, uint64_t v, uint64_t mul)
{
    uint64_t a = (u ^ v) * mul;
    a ^= a >> 47;
    uint64_t b = (v ^ a) * mul;
    b ^= b >> 47;
    return b * mul;
}

static uint64_t fh_0to16(const uint8_t *s, size_t len)
{
    if (len >= 8) {
        uint64_t mul = fh_k2 + len * 2;
        uint64_t a = fh_load64(s) + fh_k2;
        uint64_t b = fh_load64(s + len - 8);
        uint64_t c = fh_rot(b, 37) * mul + a;
        uint64_t d = (fh_rot(a, 25) + b) * mul;
        return fh_len16(c, d, mul);
    }
    if (len >= 4) {
        uint64_t mul = fh_k2 + len * 2;
        uint64_t a = fh_load32(s);
        return fh_len16(len + (a << 3), fh_load32(s + len - 4), mul);
    }
    if (len > 0) {
        uint32_t y = (uint32_t)s[0] + ((uint32_t)s[len >> 1] << 8);
        uint32_t z = (uint32_t)len + ((uint32_t)s[len - 1] << 2);
        return fh_mix(y * fh_k2 ^ z * fh_k0) * fh_k2;
    }
    return fh_k2;
}

static uint64_t fh_17to32(const uint8_t *s, size_t len)
{
    uint64_t mul = fh_k2 + len * 2;
    uint64_t a = fh_load64(s) * fh_k1;
    uint64_t b = fh_load64(s + 8);
    uint64_t c = fh_load64(s + len - 8) * mul;
    uint64_t d = fh_load64(s + len - 16) * fh_k2;
    return fh_len16(fh_rot(a + b, 43) + fh_rot(c, 30) + d, a + fh_rot(b + fh_k2, 18) + c, mul);
}

static uint64_t fh_33to64(const uint8_t *s, size_t len)
{
    uint64_t mul = fh_k2 + len * 2;
    uint64_t a = fh_load64(s) * fh_k2;
    uint64_t b = fh_load64(s + 8);
    uint64_t c = fh_load64(s + len - 8) * mul;
    uint64_t d = fh_load64(s + len - 16) * fh_k2;
    uint64_t y = fh_rot(a + b, 43) + fh_rot(c, 30) + d;
    uint64_t z = fh_len16(y, a + fh_rot(b + fh_k2, 18) + c, mul);
    uint64_t e = fh_load64(s + 16) * mul;
    uint64_t f = fh_load64(s + 24);
    uint64_t g = (y + fh_load64(s + len - 32)) * mul;
    uint64_t h = (z + fh_load64(s + len - 24)) * mul;
    return fh_len16(fh_rot(e + f, 43) + fh_rot(g, 30) + h, e + fh_rot(f + a, 18) + g, mul);
}

typedef struct fh_pair {
    uint64_t a, b;
} fh_pair;

static fh_pair fh_weak32(const uint8_t *s, uint64_t a, uint64_t b)
{
    uint64_t w = fh_load64(s), x = fh_load64(s + 8);
    uint64_t y = fh_load64(s + 16), z = fh_load64(s + 24);
    a += w;
    b = fh_rot(b + a + z, 21);
    uint64_t c = a;
    a += x;
    a += y;
    b += fh_rot(a, 44);
    return (fh_pair){a + z, b + c};
}

static uint64_t fingerprint64(const uint8_t *s, size_t len)
{
    if (len <= 16)
        return fh_0to16(s, len);
    if (len <= 32)
        return fh_17to32(s, len);
    if (len <= 64)
        return fh_33to64(s, len);
    const uint64_t seed = 81;
    uint64_t x = seed, y = seed * fh_k1 + 113, z = fh_mix(y * fh_k2 + 113) * fh_k2;
    fh_pair v = {0, 0}, w = {0, 0};
    x = x * fh_k2 + fh_load64(s);
    const uint8_t *end = s + ((len - 1) / 64) * 64;
    const uint8_t *last64 = end + ((len - 1) & 63) - 63;
    do {
        x = fh_rot(x + y + v.a + fh_load64(s + 8), 37) * fh_k1;
        y = fh_rot(y + v.b + fh_load64(s + 48), 42) * fh_k1;
        x ^= w.b;
        y += v.a + fh_load64(s + 40);
        z = fh_rot(z + w.a, 33) * fh_k1;
        v = fh_weak32(s, v.b * fh_k1, x + w.a);
        w = fh_weak32(s + 32, z + w.b, y + fh_load64(s + 16));
        uint64_t t = z;
        z = x;
        x = t;
        s += 64;
    } while (s != end);
    uint64_t mul = fh_k1 + ((z & 0xff) << 1);
    s = last64;
    w.a += (len - 1) & 63;
    v.a += w.a;
    w.a += v.a;
    x = fh_rot(x + y + v.a + fh_load64(s + 8), 37) * mul;
    y = fh_rot(y + v.b + fh_load64(s + 48), 42) * mul;
    x ^= w.b * 9;
    y += v.a * 9 + fh_load64(s + 40);
    z = fh_rot(z + w.a, 33) * mul;
    v = fh_weak32(s, v.b * mul, x + w.a);
    w = fh_weak32(s + 32, z + w.b, y + fh_load64(s + 16));
    uint64_t t = z;
    z = x;
    x = t;
    return fh_len16(fh_len16(v.a, w.a, mul) + fh_mix(y) * fh_k0 + z,
                    fh_len16(v.b, w.b, mul) + x, mul);
}

/* ---- the operation ---- */

enum { LSH_SPARSE_DEPRECATED = 1, LSH_DENSE = 2, LSH_SPARSE = 3 };

static int lsh_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 4, 4, 1))
        return SEQ_BAD;
    const nn_tensor *hash = c->in[0], *in = c->in[1], *w = c->in[2], *type = c->in[3];
    bool f16_ok = c->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_3;
    if (hash->type != ANEURALNETWORKS_TENSOR_FLOAT32 &&
        !(hash->type == ANEURALNETWORKS_TENSOR_FLOAT16 && f16_ok))
        return nn_invalid("input 0 (hash functions) of type %s", nn_type_name(hash->type));
    if (nn_check_rank(hash, 2, 2))
        return SEQ_BAD;
    if (in->type != ANEURALNETWORKS_TENSOR_FLOAT32 && in->type != ANEURALNETWORKS_TENSOR_INT32 &&
        in->type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM &&
        !(in->type == ANEURALNETWORKS_TENSOR_FLOAT16 && f16_ok))
        return SEQ_BAD;
    if (in->rank == 0 && !nn_type_is_tensor(in->type))
        return SEQ_BAD;
    if (!w->omitted && w->type != hash->type)
        return SEQ_BAD;
    if (seq_check_scalar(type, ANEURALNETWORKS_INT32))
        return SEQ_BAD;
    if (type->data != NULL) {
        int32_t t = nn_scalar_i32(type);
        int32_t max = f16_ok ? LSH_SPARSE : LSH_DENSE;
        if (t < LSH_SPARSE_DEPRECATED || t > max)
            return nn_invalid("input 3 (projection type) %d, expected %d to %d", t,
                              LSH_SPARSE_DEPRECATED, max);
    }
    if (c->out[0]->type != ANEURALNETWORKS_TENSOR_INT32)
        return SEQ_BAD;
    if (hash->rank == 2 && hash->dims[1] > 32)
        return SEQ_BAD;
    return SEQ_OK;
}

static int lsh_prepare(nn_op_call *c)
{
    const nn_tensor *hash = c->in[0], *in = c->in[1], *w = c->in[2];
    if (hash->rank != 2 || in->rank < 1)
        return SEQ_BAD;
    uint32_t funcs = hash->dims[0], bits = hash->dims[1];
    if (bits > 32)
        return SEQ_BAD;
    if (!w->omitted && (w->rank != 1 || w->dims[0] != in->dims[0]))
        return SEQ_BAD;
    if (c->in[3]->data == NULL)
        return SEQ_OK;
    int32_t type = nn_scalar_i32(c->in[3]);
    nn_tensor *out = c->out[0];
    nn_tensor_set_small_rank(out, 1);
    if (type == LSH_DENSE) {
        uint64_t n = (uint64_t)funcs * bits;
        if (n > UINT32_MAX)
            return SEQ_BAD;
        out->dims[0] = (uint32_t)n;
    } else {
        /* Signatures of F functions must fit 32 bits with the offsets. */
        uint32_t lg = 0;
        while (lg < 32 && ((uint64_t)1 << lg) < funcs)
            lg++;
        if (type == LSH_SPARSE && bits + lg > 32)
            return SEQ_BAD;
        out->dims[0] = funcs;
    }
    return SEQ_OK;
}

static int lsh_execute(nn_op_call *c)
{
    const nn_tensor *hash_t = c->in[0], *in = c->in[1], *w_t = c->in[2];
    int32_t type = nn_scalar_i32(c->in[3]);
    size_t funcs = hash_t->dims[0], bits = hash_t->dims[1];
    size_t rows = in->dims[0];
    size_t row_bytes = rows ? nn_tensor_count(in) / rows * nn_type_size(in->type) : 0;
    float *hash = seq_load_alloc(hash_t);
    float *w = w_t->omitted ? NULL : seq_load_alloc(w_t);
    uint8_t *key = malloc(sizeof(float) + row_bytes);
    int32_t *out = c->out[0]->data;
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (hash == NULL || key == NULL || (!w_t->omitted && w == NULL))
        goto done;
    for (size_t f = 0; f < funcs; f++) {
        uint32_t sig = 0;
        for (size_t b = 0; b < bits; b++) {
            float seed = hash[f * bits + b];
            double score = 0.0;
            for (size_t r = 0; r < rows; r++) {
                memcpy(key, &seed, sizeof seed);
                memcpy(key + sizeof seed, (const uint8_t *)in->data + r * row_bytes, row_bytes);
                double v = (double)(int64_t)fingerprint64(key, sizeof seed + row_bytes);
                score += w != NULL ? (double)w[r] * v : v;
            }
            uint32_t bit = score > 0.0 ? 1u : 0u;
            if (type == LSH_DENSE)
                out[f * bits + b] = (int32_t)bit;
            else
                sig = (sig << 1) | bit;
        }
        if (type == LSH_SPARSE)
            sig += (uint32_t)((uint64_t)f << bits);
        if (type != LSH_DENSE)
            out[f] = (int32_t)sig;
    }
    rc = SEQ_OK;
done:
    free(hash);
    free(w);
    free(key);
    return rc;
}

const nn_op_def nn_op_LSH_PROJECTION = {
    .code = ANEURALNETWORKS_LSH_PROJECTION,
    .name = "LSH_PROJECTION",
    .validate = lsh_validate,
    .prepare = lsh_prepare,
    .execute = lsh_execute,
    .optional_inputs = true,
};
