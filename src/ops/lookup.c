/* Index lookups: GATHER, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP. */
#include <string.h>

#include "ops/shape_common.h"

static int gather_prepare(nn_op_call *c);
static int embed_prepare(nn_op_call *c);
static int hash_prepare(nn_op_call *c);

#define GATHER_TYPES \
    SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_I32, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})
#define EMBED_TYPES \
    SHP_TYPES({T_F32, FL1}, {T_I32, FL3}, {T_QA8, FL3}, {T_F16, FL4}, {T_QA8S, FL4})
#define HASH_TYPES SHP_TYPES({T_F32, FL1}, {T_I32, FL1}, {T_QA8, FL1})

/* ---- GATHER ---- */

static int gather_validate(const nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, 3, 3, 1) || shp_check_type(c, in->type, GATHER_TYPES) ||
        !shp_rank_in(in, 1, NN_ANY_RANK) || nn_check_type(c->in[1], ANEURALNETWORKS_INT32) ||
        nn_check_type(c->in[2], T_I32) || shp_check_same_q(in, c->out[0]))
        return NN_BAD;
    if (shp_check_axis_value(c, 1, in->rank))
        return NN_BAD;
    return shp_validate_shapes(c, gather_prepare);
}

static int gather_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *idx = c->in[2];
    if (c->in[1]->data == NULL)
        return NN_OK;
    uint32_t a;
    uint64_t rank = (uint64_t)in->rank + idx->rank - 1;
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a) || rank > UINT32_MAX)
        return NN_BAD;
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, rank ? (uint32_t)rank : 1);
    if (rc != NN_OK)
        return rc;
    uint32_t r = 0;
    for (uint32_t i = 0; i < a; i++)
        out->dims[r++] = in->dims[i];
    for (uint32_t i = 0; i < idx->rank; i++)
        out->dims[r++] = idx->dims[i];
    for (uint32_t i = a + 1; i < in->rank; i++)
        out->dims[r++] = in->dims[i];
    if (r == 0)
        out->dims[0] = 1;
    return shp_check_elements(out);
}

static int gather_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *idx = c->in[2];
    uint32_t a;
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a))
        return ANEURALNETWORKS_OP_FAILED;
    size_t elem = nn_type_size(in->type);
    size_t outer = nn_dims_product(in, 0, a);
    size_t block = nn_dims_product(in, a + 1, in->rank) * elem;
    size_t n_idx = nn_tensor_count(idx);
    uint32_t dim = in->dims[a];
    const char *src = in->data;
    char *dst = c->out[0]->data;
    for (size_t i = 0; i < n_idx; i++) {
        int32_t v = shp_i32(idx, i);
        if (v < 0 || (uint32_t)v >= dim)
            return ANEURALNETWORKS_OP_FAILED;
    }
    for (size_t o = 0; o < outer; o++) {
        const char *base = src + o * dim * block;
        for (size_t i = 0; i < n_idx; i++, dst += block)
            memcpy(dst, base + (size_t)shp_i32(idx, i) * block, block);
    }
    return NN_OK;
}

const nn_op_def nn_op_GATHER = {
    .code = ANEURALNETWORKS_GATHER,
    .name = "GATHER",
    .validate = gather_validate,
    .prepare = gather_prepare,
    .execute = gather_execute,
};

/* ---- EMBEDDING_LOOKUP ---- */

static int embed_validate(const nn_op_call *c)
{
    const nn_tensor *values = c->in[1];
    if (nn_check_counts(c, 2, 2, 1) || nn_check_type(c->in[0], T_I32) ||
        !shp_rank_in(c->in[0], 1, 1) || shp_check_type(c, values->type, EMBED_TYPES) ||
        !shp_rank_in(values, 2, NN_ANY_RANK) || shp_check_same_q(values, c->out[0]))
        return NN_BAD;
    return shp_validate_shapes(c, embed_prepare);
}

static int embed_prepare(nn_op_call *c)
{
    const nn_tensor *values = c->in[1];
    if (values->rank == 0 || c->in[0]->rank != 1)
        return NN_BAD;
    int rc = nn_tensor_copy_shape(c->out[0], values);
    if (rc != NN_OK)
        return rc;
    c->out[0]->dims[0] = c->in[0]->dims[0];
    return shp_check_elements(c->out[0]);
}

static int embed_execute(nn_op_call *c)
{
    const nn_tensor *lookups = c->in[0], *values = c->in[1];
    size_t row = nn_dims_product(values, 1, values->rank) * nn_type_size(values->type);
    size_t n = lookups->dims[0];
    for (size_t i = 0; i < n; i++) {
        int32_t v = shp_i32(lookups, i);
        if (v < 0 || (uint32_t)v >= values->dims[0])
            return ANEURALNETWORKS_OP_FAILED;
        memcpy((char *)c->out[0]->data + i * row, (const char *)values->data + (size_t)v * row,
               row);
    }
    return NN_OK;
}

const nn_op_def nn_op_EMBEDDING_LOOKUP = {
    .code = ANEURALNETWORKS_EMBEDDING_LOOKUP,
    .name = "EMBEDDING_LOOKUP",
    .validate = embed_validate,
    .prepare = embed_prepare,
    .execute = embed_execute,
};

/* ---- HASHTABLE_LOOKUP ---- */

static int hash_validate(const nn_op_call *c)
{
    const nn_tensor *keys = c->in[1], *values = c->in[2];
    if (nn_check_counts(c, 3, 3, 2) || nn_check_type(c->in[0], T_I32) ||
        !shp_rank_in(c->in[0], 1, 1) || nn_check_type(keys, T_I32) || !shp_rank_in(keys, 1, 1) ||
        shp_check_type(c, values->type, HASH_TYPES) || !shp_rank_in(values, 1, NN_ANY_RANK) ||
        shp_check_same_q(values, c->out[0]) || nn_check_type(c->out[1], T_QA8))
        return NN_BAD;
    if (keys->rank && values->rank && keys->dims[0] && values->dims[0] &&
        keys->dims[0] != values->dims[0])
        return nn_invalid("%u keys for %u values", keys->dims[0], values->dims[0]);
    return shp_validate_shapes(c, hash_prepare);
}

static int hash_prepare(nn_op_call *c)
{
    const nn_tensor *values = c->in[2];
    if (values->rank == 0 || c->in[0]->rank != 1 || c->in[1]->rank != 1 ||
        c->in[1]->dims[0] != values->dims[0])
        return NN_BAD;
    int err = nn_tensor_copy_shape(c->out[0], values);
    if (err)
        return err;
    c->out[0]->dims[0] = c->in[0]->dims[0];
    err = shp_check_elements(c->out[0]);
    if (err)
        return err;
    return shp_set_shape(c->out[1], 1, c->in[0]->dims);
}

static int hash_execute(nn_op_call *c)
{
    const nn_tensor *lookups = c->in[0], *keys = c->in[1], *values = c->in[2];
    size_t row = nn_dims_product(values, 1, values->rank) * nn_type_size(values->type);
    size_t n = lookups->dims[0];
    uint8_t *hits = c->out[1]->data;
    char *out = c->out[0]->data;
    for (size_t i = 0; i < n; i++) {
        int32_t key = shp_i32(lookups, i);
        /* Keys are sorted ascending: binary search. */
        size_t lo = 0, hi = keys->dims[0];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (shp_i32(keys, mid) < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        bool hit = lo < keys->dims[0] && shp_i32(keys, lo) == key;
        if (out) {
            if (hit)
                memcpy(out + i * row, (const char *)values->data + lo * row, row);
            else
                memset(out + i * row, 0, row);
        }
        if (hits)
            hits[i] = hit ? 1 : 0;
    }
    return NN_OK;
}

const nn_op_def nn_op_HASHTABLE_LOOKUP = {
    .code = ANEURALNETWORKS_HASHTABLE_LOOKUP,
    .name = "HASHTABLE_LOOKUP",
    .validate = hash_validate,
    .prepare = hash_prepare,
    .execute = hash_execute,
};
