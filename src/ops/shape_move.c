/* Data movement: TRANSPOSE, TILE, CHANNEL_SHUFFLE, SLICE, STRIDED_SLICE,
 * CONCATENATION, SPLIT. All copies go through nn_copy_strided. */
#include <math.h>
#include <string.h>

#include "kernels/copy.h"
#include "kernels/qops.h"
#include "kernels/quant.h"
#include "ops/shape_common.h"
#include "util/threadpool.h"

static int transpose_prepare(nn_op_call *c);
static int tile_prepare(nn_op_call *c);
static int shuffle_prepare(nn_op_call *c);
static int slice_prepare(nn_op_call *c);
static int sslice_prepare(nn_op_call *c);
static int concat_prepare(nn_op_call *c);
static int split_prepare(nn_op_call *c);

#define FL2_TYPES SHP_TYPES({T_F32, FL2}, {T_QA8, FL2}, {T_F16, FL3}, {T_QA8S, FL4})
#define FL3_TYPES \
    SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_I32, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})
#define SHUFFLE_TYPES SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})
#define CONCAT_TYPES SHP_TYPES({T_F32, FL1}, {T_QA8, FL1}, {T_F16, FL3}, {T_QA8S, FL4})

static int check_1d_i32(const nn_tensor *t)
{
    return nn_check_type(t, T_I32) || !shp_rank_in(t, 1, 1) ? NN_BAD : NN_OK;
}

/* ---- TRANSPOSE ---- */

static int transpose_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 1, 2, 1) || shp_check_type(c, c->in[0]->type, FL2_TYPES) ||
        !shp_rank_in(c->in[0], 1, 4) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    if (shp_present(c, 1) && check_1d_i32(c->in[1]))
        return NN_BAD;
    return shp_validate_shapes(c, transpose_prepare);
}

/* Fills perm (rank entries; seen is rank bytes of scratch); *known false
 * when the perm input is not known yet. */
static int transpose_perm(const nn_op_call *c, uint32_t *perm, uint8_t *seen, bool *known)
{
    uint32_t rank = c->in[0]->rank;
    *known = true;
    if (!shp_present(c, 1)) {
        for (uint32_t i = 0; i < rank; i++)
            perm[i] = rank - 1 - i;
        return NN_OK;
    }
    const nn_tensor *p = c->in[1];
    if (!shp_i32_ready(p)) {
        *known = false;
        return NN_OK;
    }
    if (nn_tensor_count(p) != rank)
        return shp_value_error(p);
    memset(seen, 0, rank);
    for (uint32_t i = 0; i < rank; i++) {
        int32_t v = shp_i32(p, i);
        if (v < 0 || (uint32_t)v >= rank || seen[v])
            return shp_value_error(p);
        seen[v] = 1;
        perm[i] = (uint32_t)v;
    }
    return NN_OK;
}

/* Room for transpose_perm's perm and seen, and three stride arrays. */
static int transpose_buf(nn_rank_buf *buf, uint32_t rank)
{
    return nn_rank_buf_get(buf, (size_t)rank * (3 * sizeof(ptrdiff_t) + sizeof(uint32_t) + 1));
}

static int transpose_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (shp_check_rank_at_prepare(in, 4))
        return NN_BAD;
    nn_rank_buf buf;
    int err = transpose_buf(&buf, in->rank);
    uint32_t *perm = buf.p;
    bool known = false;
    if (err == NN_OK)
        err = transpose_perm(c, perm, (uint8_t *)(perm + in->rank), &known);
    if (err == NN_OK && known)
        err = nn_tensor_set_rank(c->out[0], in->rank);
    if (err == NN_OK && known)
        for (uint32_t i = 0; i < in->rank; i++)
            c->out[0]->dims[i] = in->dims[perm[i]];
    nn_rank_buf_free(&buf);
    return err;
}

static int transpose_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    /* Omitted inputs get here for the optional perm; an omitted input 0 of
     * unknown rank has no data but counts an element. */
    if (in->omitted)
        return nn_because(ANEURALNETWORKS_OP_FAILED, "input 0 is omitted: it has no data");
    uint32_t rank = in->rank;
    nn_rank_buf buf;
    int err = transpose_buf(&buf, rank);
    if (err != NN_OK) {
        nn_rank_buf_free(&buf);
        return err;
    }
    ptrdiff_t *is = buf.p, *ss = is + rank, *os = ss + rank;
    uint32_t *perm = (uint32_t *)(os + rank);
    bool known;
    err = transpose_perm(c, perm, (uint8_t *)(perm + rank), &known);
    if (err == NN_OK && known) {
        nn_row_major_strides(in->dims, rank, is);
        nn_row_major_strides(out->dims, out->rank, os);
        for (uint32_t i = 0; i < rank; i++)
            ss[i] = is[perm[i]];
        nn_copy_strided(out->data, os, in->data, ss, out->dims, out->rank,
                        nn_type_size(in->type));
    }
    nn_rank_buf_free(&buf);
    return err || !known ? ANEURALNETWORKS_OP_FAILED : NN_OK;
}

const nn_op_def nn_op_TRANSPOSE = {
    .code = ANEURALNETWORKS_TRANSPOSE,
    .name = "TRANSPOSE",
    .validate = transpose_validate,
    .prepare = transpose_prepare,
    .execute = transpose_execute,
    .optional_inputs = true,
};

/* ---- TILE ---- */

static int tile_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 2, 1) || shp_check_type(c, c->in[0]->type, FL3_TYPES) ||
        check_1d_i32(c->in[1]) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    const nn_tensor *in = c->in[0], *m = c->in[1];
    if (in->rank > 0 && m->rank == 1 && m->dims[0] != 0 && m->dims[0] != in->rank)
        return nn_invalid("input 1 (multiples) of %u elements for an input of rank %u",
                          m->dims[0], in->rank);
    return shp_validate_shapes(c, tile_prepare);
}

static int tile_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *m = c->in[1];
    if (!shp_i32_ready(m))
        return NN_OK;
    if (nn_tensor_count(m) != in->rank)
        return shp_value_error(m);
    for (uint32_t i = 0; i < in->rank; i++) {
        int32_t v = shp_i32(m, i);
        if (v < 0 || (uint64_t)in->dims[i] * (uint64_t)v > UINT32_MAX)
            return shp_value_error(m);
    }
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, in->rank);
    if (rc != NN_OK)
        return rc;
    for (uint32_t i = 0; i < in->rank; i++)
        out->dims[i] = in->dims[i] * (uint32_t)shp_i32(m, i);
    return shp_check_elements(out);
}

static int tile_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    uint32_t rank = in->rank;
    if (nn_tensor_count(in) == 0 || rank == 0)
        return ANEURALNETWORKS_OP_FAILED;
    nn_rank_buf buf;
    int rc = nn_rank_buf_get(&buf, (size_t)rank * (2 * sizeof(ptrdiff_t) + 2 * sizeof(uint32_t)));
    if (rc != NN_OK) {
        nn_rank_buf_free(&buf);
        return rc;
    }
    ptrdiff_t *is = buf.p, *os = is + rank;
    uint32_t *reps = (uint32_t *)(os + rank), *idx = reps + rank;
    memset(idx, 0, rank * sizeof *idx);
    nn_row_major_strides(in->dims, rank, is);
    nn_row_major_strides(out->dims, rank, os);
    for (uint32_t i = 0; i < rank; i++)
        reps[i] = out->dims[i] / in->dims[i];
    size_t elem = nn_type_size(in->type);
    /* One strided copy of the whole input per tile position. */
    for (;;) {
        ptrdiff_t off = 0;
        for (uint32_t i = 0; i < rank; i++)
            off += (ptrdiff_t)idx[i] * (ptrdiff_t)in->dims[i] * os[i];
        nn_copy_strided((char *)out->data + off * (ptrdiff_t)elem, os, in->data, is, in->dims,
                        rank, elem);
        uint32_t k = rank;
        while (k > 0) {
            k--;
            if (++idx[k] < reps[k])
                break;
            idx[k] = 0;
            if (k == 0) {
                nn_rank_buf_free(&buf);
                return NN_OK;
            }
        }
    }
}

const nn_op_def nn_op_TILE = {
    .code = ANEURALNETWORKS_TILE,
    .name = "TILE",
    .validate = tile_validate,
    .prepare = tile_prepare,
    .execute = tile_execute,
};

/* ---- CHANNEL_SHUFFLE ---- */

static int shuffle_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 1) || shp_check_type(c, c->in[0]->type, SHUFFLE_TYPES) ||
        !shp_rank_in(c->in[0], 1, 4) || nn_check_type(c->in[1], ANEURALNETWORKS_INT32) ||
        nn_check_type(c->in[2], ANEURALNETWORKS_INT32) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    /* Android's CHANNEL_SHUFFLE checks groups and axis when it prepares. */
    if (c->in[1]->data &&
        nn_check_value(c, nn_scalar_i32(c->in[1]) > 0, "input 1 (groups) %d is not positive",
                       nn_scalar_i32(c->in[1])))
        return NN_BAD;
    if (shp_check_axis_value(c, 2, c->in[0]->rank))
        return NN_BAD;
    return shp_validate_shapes(c, shuffle_prepare);
}

static int shuffle_params(const nn_op_call *c, uint32_t *groups, uint32_t *axis)
{
    const nn_tensor *in = c->in[0];
    int32_t g = nn_scalar_i32(c->in[1]);
    if (g <= 0 || !shp_axis(nn_scalar_i32(c->in[2]), in->rank, axis) ||
        in->dims[*axis] % (uint32_t)g != 0)
        return NN_BAD;
    *groups = (uint32_t)g;
    return NN_OK;
}

static int shuffle_prepare(nn_op_call *c)
{
    uint32_t g, a;
    if (c->in[1]->data == NULL || c->in[2]->data == NULL)
        return NN_OK;
    if (shuffle_params(c, &g, &a))
        return NN_BAD;
    return nn_tensor_copy_shape(c->out[0], c->in[0]);
}

static int shuffle_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t g, a;
    if (shuffle_params(c, &g, &a))
        return ANEURALNETWORKS_OP_FAILED;
    uint32_t outer = (uint32_t)nn_dims_product(in, 0, a);
    uint32_t inner = (uint32_t)nn_dims_product(in, a + 1, in->rank);
    uint32_t gs = in->dims[a] / g;
    /* out[.., k*G + g, ..] = in[.., g*gs + k, ..]: a [G, gs] -> [gs, G] transpose. */
    uint32_t dims[4] = {outer, gs, g, inner};
    ptrdiff_t os[4] = {(ptrdiff_t)in->dims[a] * inner, (ptrdiff_t)g * inner, inner, 1};
    ptrdiff_t ss[4] = {(ptrdiff_t)in->dims[a] * inner, inner, (ptrdiff_t)gs * inner, 1};
    nn_copy_strided(c->out[0]->data, os, in->data, ss, dims, 4, nn_type_size(in->type));
    return NN_OK;
}

const nn_op_def nn_op_CHANNEL_SHUFFLE = {
    .code = ANEURALNETWORKS_CHANNEL_SHUFFLE,
    .name = "CHANNEL_SHUFFLE",
    .validate = shuffle_validate,
    .prepare = shuffle_prepare,
    .execute = shuffle_execute,
};

/* ---- SLICE ---- */

static int slice_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 1) || shp_check_type(c, c->in[0]->type, FL3_TYPES) ||
        check_1d_i32(c->in[1]) || check_1d_i32(c->in[2]) ||
        shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    return shp_validate_shapes(c, slice_prepare);
}

/* begin and output dims of a slice (rank entries each); *known false while
 * begin/size are unknown. */
static int slice_params(const nn_op_call *c, uint32_t *begin, uint32_t *dims, bool *known)
{
    const nn_tensor *in = c->in[0], *b = c->in[1], *s = c->in[2];
    *known = shp_i32_ready(b) && shp_i32_ready(s);
    if (!*known)
        return NN_OK;
    if (nn_tensor_count(b) != in->rank || nn_tensor_count(s) != in->rank)
        return NN_BAD;
    for (uint32_t i = 0; i < in->rank; i++) {
        int32_t bv = shp_i32(b, i), sv = shp_i32(s, i);
        if (bv < 0 || (uint32_t)bv > in->dims[i])
            return shp_value_error(b);
        if (sv == -1)
            sv = (int32_t)(in->dims[i] - (uint32_t)bv);
        if (sv < 0 || (uint64_t)bv + (uint64_t)sv > in->dims[i])
            return shp_value_error(s);
        begin[i] = (uint32_t)bv;
        dims[i] = (uint32_t)sv;
    }
    return NN_OK;
}

/* Room for slice_params' begin and dims and two stride arrays. */
static int slice_buf(nn_rank_buf *buf, uint32_t rank)
{
    return nn_rank_buf_get(buf, (size_t)rank * (2 * sizeof(ptrdiff_t) + 2 * sizeof(uint32_t)));
}

static int slice_prepare(nn_op_call *c)
{
    uint32_t rank = c->in[0]->rank;
    nn_rank_buf buf;
    int err = slice_buf(&buf, rank);
    bool known = false;
    if (err == NN_OK) {
        uint32_t *begin = buf.p, *dims = begin + rank;
        err = slice_params(c, begin, dims, &known);
        if (err == NN_OK && known)
            err = shp_set_shape(c->out[0], rank, dims);
    }
    nn_rank_buf_free(&buf);
    return err;
}

static int slice_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t rank = in->rank;
    nn_rank_buf buf;
    int err = slice_buf(&buf, rank);
    if (err != NN_OK) {
        nn_rank_buf_free(&buf);
        return err;
    }
    ptrdiff_t *is = buf.p, *os = is + rank, off = 0;
    uint32_t *begin = (uint32_t *)(os + rank), *dims = begin + rank;
    bool known;
    if (slice_params(c, begin, dims, &known) || !known) {
        nn_rank_buf_free(&buf);
        return ANEURALNETWORKS_OP_FAILED;
    }
    nn_row_major_strides(in->dims, rank, is);
    nn_row_major_strides(dims, rank, os);
    for (uint32_t i = 0; i < rank; i++)
        off += (ptrdiff_t)begin[i] * is[i];
    size_t elem = nn_type_size(in->type);
    nn_copy_strided(c->out[0]->data, os, (const char *)in->data + off * (ptrdiff_t)elem, is, dims,
                    rank, elem);
    nn_rank_buf_free(&buf);
    return NN_OK;
}

const nn_op_def nn_op_SLICE = {
    .code = ANEURALNETWORKS_SLICE,
    .name = "SLICE",
    .validate = slice_validate,
    .prepare = slice_prepare,
    .execute = slice_execute,
};

/* ---- STRIDED_SLICE ---- */

static int sslice_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 7, 7, 1) || shp_check_type(c, c->in[0]->type, FL2_TYPES) ||
        !shp_rank_in(c->in[0], 1, 4) || check_1d_i32(c->in[1]) || check_1d_i32(c->in[2]) ||
        check_1d_i32(c->in[3]) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    for (uint32_t i = 4; i < 7; i++)
        if (nn_check_type(c->in[i], ANEURALNETWORKS_INT32))
            return NN_BAD;
    return shp_validate_shapes(c, sslice_prepare);
}

/* Index i of a dim of size dim, negative from the end, clamped to the range
 * a traversal in the stride's direction can start or stop at. */
static int32_t sslice_clamp(int32_t i, int32_t dim, bool forward)
{
    int64_t v = i < 0 ? (int64_t)i + dim : i;
    if (forward)
        return (int32_t)(v < 0 ? 0 : (v > dim ? dim : v));
    return (int32_t)(v < -1 ? -1 : (v > dim - 1 ? dim - 1 : v));
}

/* STRIDED_SLICE takes rank 1 to 4 (validate checks declared ranks; an
 * input of unspecified rank is checked when its shape comes). */
#define SSLICE_MAX_RANK 4

typedef struct sslice {
    int32_t begin[SSLICE_MAX_RANK];
    int32_t step[SSLICE_MAX_RANK];
    uint32_t dims[SSLICE_MAX_RANK];  /* per input dim, shrunk dims included */
    uint32_t out_dims[SSLICE_MAX_RANK];
    uint32_t out_rank;
} sslice;

static int sslice_params(const nn_op_call *c, sslice *p, bool *known)
{
    const nn_tensor *in = c->in[0], *b = c->in[1], *e = c->in[2], *s = c->in[3];
    *known = shp_i32_ready(b) && shp_i32_ready(e) && shp_i32_ready(s) && c->in[4]->data &&
             c->in[5]->data && c->in[6]->data;
    if (!*known)
        return NN_OK;
    uint32_t rank = in->rank;
    if (rank < 1 || rank > SSLICE_MAX_RANK)
        return nn_invalid("input 0 of rank %u, expected 1 to %d", rank, SSLICE_MAX_RANK);
    if (nn_tensor_count(b) != rank || nn_tensor_count(e) != rank || nn_tensor_count(s) != rank)
        return NN_BAD;
    int32_t bmask = nn_scalar_i32(c->in[4]), emask = nn_scalar_i32(c->in[5]);
    int32_t smask = nn_scalar_i32(c->in[6]);
    p->out_rank = 0;
    for (uint32_t i = 0; i < rank; i++) {
        int32_t dim = (int32_t)in->dims[i], st = shp_i32(s, i);
        if (st == 0 || st == INT32_MIN)
            return shp_value_error(s);
        bool fwd = st > 0;
        int32_t lo = (bmask >> i) & 1 ? (fwd ? 0 : dim - 1) : sslice_clamp(shp_i32(b, i), dim, fwd);
        int32_t hi = (emask >> i) & 1 ? (fwd ? dim : -1) : sslice_clamp(shp_i32(e, i), dim, fwd);
        int64_t span = fwd ? (int64_t)hi - lo : (int64_t)lo - hi;
        int64_t mag = fwd ? st : -(int64_t)st;
        uint32_t n = span > 0 ? (uint32_t)((span + mag - 1) / mag) : 0;
        if (dim == 0)
            n = 0;
        p->begin[i] = n ? lo : 0;
        p->step[i] = st;
        p->dims[i] = n;
        if ((smask >> i) & 1) {
            if (!fwd || n != 1)
                return shp_value_error(s);
        } else {
            p->out_dims[p->out_rank++] = n;
        }
    }
    if (p->out_rank == 0)
        p->out_dims[p->out_rank++] = 1;
    return NN_OK;
}

static int sslice_prepare(nn_op_call *c)
{
    sslice p;
    bool known;
    int err = sslice_params(c, &p, &known);
    if (err || !known)
        return err;
    return shp_set_shape(c->out[0], p.out_rank, p.out_dims);
}

static int sslice_execute(nn_op_call *c)
{
    sslice p;
    bool known;
    if (sslice_params(c, &p, &known) || !known)
        return ANEURALNETWORKS_OP_FAILED;
    const nn_tensor *in = c->in[0];
    uint32_t rank = in->rank;
    ptrdiff_t is[SSLICE_MAX_RANK], ss[SSLICE_MAX_RANK], os[SSLICE_MAX_RANK], off = 0;
    nn_row_major_strides(in->dims, rank, is);
    nn_row_major_strides(p.dims, rank, os);
    for (uint32_t i = 0; i < rank; i++) {
        off += (ptrdiff_t)p.begin[i] * is[i];
        ss[i] = is[i] * p.step[i];
    }
    size_t elem = nn_type_size(in->type);
    nn_copy_strided(c->out[0]->data, os, (const char *)in->data + off * (ptrdiff_t)elem, ss,
                    p.dims, rank, elem);
    return NN_OK;
}

const nn_op_def nn_op_STRIDED_SLICE = {
    .code = ANEURALNETWORKS_STRIDED_SLICE,
    .name = "STRIDED_SLICE",
    .validate = sslice_validate,
    .prepare = sslice_prepare,
    .execute = sslice_execute,
};

/* ---- CONCATENATION ---- */

static int concat_validate(const nn_op_call *c)
{
    if (c->n_in < 2 || c->n_out != 1)
        return nn_invalid("%u inputs and %u outputs, expected at least 2 inputs and 1 output",
                          c->n_in, c->n_out);
    uint32_t n = c->n_in - 1;
    const nn_tensor *in0 = c->in[0], *out = c->out[0], *axis = c->in[n];
    if (shp_check_type(c, in0->type, CONCAT_TYPES) || nn_expect_type(c, true, 0, in0->type) ||
        nn_check_type(axis, ANEURALNETWORKS_INT32) || nn_check_quant(out))
        return NN_BAD;
    for (uint32_t i = 0; i < n; i++) {
        const nn_tensor *t = c->in[i];
        if (nn_expect_type(c, false, i, in0->type) || !shp_rank_in(t, 1, 4) || nn_check_quant(t))
            return NN_BAD;
        if (t->rank && in0->rank && t->rank != in0->rank)
            return nn_invalid("input %u of rank %u, input 0 has rank %u", i, t->rank, in0->rank);
        /* Quant8 inputs were requantized only from FL3 on. */
        if (t->type == T_QA8 && c->feature_level < FL3 &&
            (t->scale != out->scale || t->zero_point != out->zero_point))
            return nn_invalid("input %u quantization differs from the output's before feature "
                              "level 3", i);
    }
    if (shp_check_axis_value(c, n, in0->rank))
        return NN_BAD;
    return shp_validate_shapes(c, concat_prepare);
}

static int concat_prepare(nn_op_call *c)
{
    uint32_t n = c->n_in - 1, a;
    const nn_tensor *in0 = c->in[0];
    if (c->in[n]->data == NULL)
        return NN_OK;
    if (!shp_axis(nn_scalar_i32(c->in[n]), in0->rank, &a))
        return NN_BAD;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const nn_tensor *t = c->in[i];
        if (t->rank != in0->rank || shp_check_rank_at_prepare(t, 4))
            return NN_BAD;
        for (uint32_t d = 0; d < t->rank; d++)
            if (d != a && t->dims[d] != in0->dims[d])
                return NN_BAD;
        total += t->dims[a];
    }
    if (total > UINT32_MAX)
        return NN_BAD;
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_copy_shape(out, in0);
    if (rc != NN_OK)
        return rc;
    out->dims[a] = (uint32_t)total;
    return shp_check_elements(out);
}

/* Copies rows of len elements, requantizing from in's parameters to out's:
 * each result depends on the input byte alone, so through a table of the
 * 256 (a vector lookup, kernels/qops.h). */
static void requant_rows(const nn_tensor *in, const nn_tensor *out, char *dst, size_t dst_pitch,
                         const char *src, size_t rows, size_t len)
{
    int32_t qmin, qmax;
    nn_quant8_range(out->type, &qmin, &qmax);
    /* As TFLite's CONCATENATION: times the output scale's inverse, in float. */
    float scale = in->scale * (1.0f / out->scale);
    float bias = -(float)in->zero_point * scale;
    bool is_signed = out->type == T_QA8S;
    uint8_t table[256];
    for (int b = 0; b < 256; b++) {
        int32_t q = is_signed ? (int32_t)(int8_t)b : b;
        /* Clamped as a float: extreme scale ratios give inf or NaN,
         * which cannot be converted to an integer. */
        float f = roundf((float)q * scale + bias) + (float)out->zero_point;
        int32_t v = f >= (float)qmin ? (f <= (float)qmax ? (int32_t)f : qmax) : qmin;
        table[b] = (uint8_t)v;
    }
    for (size_t r = 0; r < rows; r++, dst += dst_pitch, src += len)
        nn_q8_lookup(table, (const uint8_t *)src, (uint8_t *)dst, len);
}

typedef struct {
    const nn_op_call *c;
    uint32_t n, axis;
    size_t elem, inner, out_row;
} concat_job;

/* Outer rows [begin, end) of every input into the output. */
static void concat_rows(void *arg, size_t begin, size_t end)
{
    const concat_job *J = arg;
    const nn_op_call *c = J->c;
    nn_tensor *out = c->out[0];
    size_t pos = 0;
    for (uint32_t i = 0; i < J->n; i++) {
        const nn_tensor *t = c->in[i];
        size_t row = (size_t)t->dims[J->axis] * J->inner;
        char *dst = (char *)out->data + (begin * J->out_row + pos) * J->elem;
        const char *src = (const char *)t->data + begin * row * J->elem;
        pos += row;
        if (row == 0)
            continue;
        if (nn_type_is_quant8(t->type) &&
            (t->scale != out->scale || t->zero_point != out->zero_point)) {
            requant_rows(t, out, dst, J->out_row, src, end - begin, row);
            continue;
        }
        uint32_t dims[2] = {(uint32_t)(end - begin), (uint32_t)row};
        ptrdiff_t ds[2] = {(ptrdiff_t)J->out_row, 1}, ss[2] = {(ptrdiff_t)row, 1};
        nn_copy_strided(dst, ds, src, ss, dims, 2, J->elem);
    }
}

static int concat_execute(nn_op_call *c)
{
    uint32_t n = c->n_in - 1, a;
    nn_tensor *out = c->out[0];
    if (!shp_axis(nn_scalar_i32(c->in[n]), out->rank, &a))
        return ANEURALNETWORKS_OP_FAILED;
    concat_job J = {.c = c, .n = n, .axis = a, .elem = nn_type_size(out->type),
                    .inner = nn_dims_product(out, a + 1, out->rank)};
    size_t outer = nn_dims_product(out, 0, a);
    J.out_row = (size_t)out->dims[a] * J.inner;
    if (outer == 0 || J.out_row == 0)
        return NN_OK;
    /* Chunks of 64 KiB or more: a copy that small costs about a wake-up. */
    size_t row_bytes = J.out_row * J.elem;
    nn_parallel_for(outer, ((size_t)1 << 16) / row_bytes + 1, concat_rows, &J);
    return NN_OK;
}

const nn_op_def nn_op_CONCATENATION = {
    .code = ANEURALNETWORKS_CONCATENATION,
    .name = "CONCATENATION",
    .validate = concat_validate,
    .prepare = concat_prepare,
    .execute = concat_execute,
};

/* ---- SPLIT ---- */

static int split_validate(const nn_op_call *c)
{
    if (c->n_in != 3 || c->n_out < 1 || shp_check_type(c, c->in[0]->type, FL3_TYPES) ||
        nn_check_type(c->in[1], ANEURALNETWORKS_INT32) ||
        nn_check_type(c->in[2], ANEURALNETWORKS_INT32))
        return NN_BAD;
    for (uint32_t i = 0; i < c->n_out; i++)
        if (shp_check_same_q(c->in[0], c->out[i]))
            return NN_BAD;
    /* Android's CPU executor checks the split count and the axis when it
     * runs SPLIT. */
    if (c->in[2]->data &&
        nn_check_value(c, nn_scalar_i32(c->in[2]) == (int32_t)c->n_out,
                       "input 2 (num_splits) %d for %u outputs", nn_scalar_i32(c->in[2]),
                       c->n_out))
        return NN_BAD;
    if (shp_check_axis_value(c, 1, c->in[0]->rank))
        return NN_BAD;
    return shp_validate_shapes(c, split_prepare);
}

static int split_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (c->in[1]->data == NULL || c->in[2]->data == NULL)
        return NN_OK;
    uint32_t a;
    int32_t parts = nn_scalar_i32(c->in[2]);
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a) || parts != (int32_t)c->n_out ||
        in->dims[a] % c->n_out != 0)
        return NN_BAD;
    for (uint32_t i = 0; i < c->n_out; i++) {
        int err = nn_tensor_copy_shape(c->out[i], in);
        if (err)
            return err;
        c->out[i]->dims[a] /= c->n_out;
    }
    return NN_OK;
}

static int split_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t a;
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a))
        return ANEURALNETWORKS_OP_FAILED;
    size_t elem = nn_type_size(in->type);
    size_t outer = nn_dims_product(in, 0, a), inner = nn_dims_product(in, a + 1, in->rank);
    size_t in_row = (size_t)in->dims[a] * inner, row = in_row / c->n_out;
    uint32_t dims[2] = {(uint32_t)outer, (uint32_t)row};
    ptrdiff_t ds[2] = {(ptrdiff_t)row, 1}, ss[2] = {(ptrdiff_t)in_row, 1};
    for (uint32_t i = 0; i < c->n_out; i++) {
        if (c->out[i]->data == NULL)
            continue;
        nn_copy_strided(c->out[i]->data, ds, (const char *)in->data + i * row * elem, ss, dims, 2,
                        elem);
    }
    return NN_OK;
}

const nn_op_def nn_op_SPLIT = {
    .code = ANEURALNETWORKS_SPLIT,
    .name = "SPLIT",
    .validate = split_validate,
    .prepare = split_prepare,
    .execute = split_execute,
};
