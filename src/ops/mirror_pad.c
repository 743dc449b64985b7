/*
 * MIRROR_PAD (feature level 7): pads each dimension i with paddings[i][0]
 * elements before and paddings[i][1] after, mirroring the input across its
 * edge. Mode 0 (REFLECT) leaves the edge element out of the mirror, so each
 * padding is < the dimension; mode 1 (SYMMETRIC) repeats it, padding <= dim.
 *
 * The input goes to the centre of the output; then dimension by dimension
 * the pads are copied, reversed, from the part already filled: after
 * dimension d every dimension up to d spans the whole output, so the slab
 * that the next dimension mirrors is complete.
 */
#include <stdint.h>

#include "kernels/copy.h"
#include "ops/shape_common.h"

#define MIRROR_PAD_TYPES \
    SHP_TYPES({T_F32, FL7}, {T_F16, FL7}, {T_I32, FL7}, {T_QA8, FL7}, {T_QA8S, FL7})

enum { MODE_REFLECT = 0, MODE_SYMMETRIC = 1 };

static int mirror_pad_prepare(nn_op_call *c);

static int mirror_pad_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 1))
        return NN_BAD;
    const nn_tensor *in = c->in[0], *pads = c->in[1], *mode = c->in[2], *out = c->out[0];
    if (shp_check_type(c, in->type, MIRROR_PAD_TYPES) || shp_check_same_q(in, out) ||
        !shp_rank_in(in, 1, NN_ANY_RANK) || !shp_rank_in(out, 1, NN_ANY_RANK) ||
        nn_check_type(pads, T_I32) || !shp_rank_in(pads, 2, 2) ||
        nn_check_type(mode, ANEURALNETWORKS_INT32))
        return NN_BAD;
    if (pads->rank == 2 && pads->dims[1] && pads->dims[1] != 2)
        return NN_BAD;
    if (in->rank && pads->rank == 2 && pads->dims[0] && pads->dims[0] != in->rank)
        return NN_BAD;
    if (mode->data) {
        int32_t m = nn_scalar_i32(mode);
        if (m != MODE_REFLECT && m != MODE_SYMMETRIC)
            return NN_BAD;
    }
    return shp_validate_shapes(c, mirror_pad_prepare);
}

/* Reads and checks the paddings; false (with *err set only for bad values)
 * when they are not known yet. */
static bool mirror_pad_amounts(const nn_op_call *c, uint32_t *before, uint32_t *after, int *err)
{
    const nn_tensor *in = c->in[0], *pads = c->in[1], *mode = c->in[2];
    *err = NN_OK;
    if (mode->data == NULL || !shp_i32_ready(pads))
        return false;
    int32_t m = nn_scalar_i32(mode);
    if ((m != MODE_REFLECT && m != MODE_SYMMETRIC) || pads->rank != 2 || pads->dims[1] != 2 ||
        pads->dims[0] != in->rank) {
        *err = NN_BAD;
        return false;
    }
    for (uint32_t i = 0; i < in->rank; i++) {
        int32_t b = shp_i32(pads, 2 * i), a = shp_i32(pads, 2 * i + 1);
        int64_t limit = m == MODE_REFLECT ? (int64_t)in->dims[i] - 1 : in->dims[i];
        if (b < 0 || a < 0 || b > limit || a > limit) {
            *err = shp_value_error(pads);
            return false;
        }
        before[i] = (uint32_t)b;
        after[i] = (uint32_t)a;
    }
    return true;
}

static int mirror_pad_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_rank_buf buf;
    int err = nn_rank_buf_get(&buf, 2 * sizeof(uint32_t) * in->rank);
    uint32_t *before = buf.p, *after = err == NN_OK ? before + in->rank : before;
    bool known = err == NN_OK && mirror_pad_amounts(c, before, after, &err);
    if (known)
        err = nn_tensor_set_rank(c->out[0], in->rank);
    if (known && err == NN_OK) {
        for (uint32_t i = 0; i < in->rank; i++)
            c->out[0]->dims[i] = in->dims[i] + before[i] + after[i];
        err = shp_check_elements(c->out[0]);
    }
    nn_rank_buf_free(&buf);
    return err;
}

/* Copies a box of the output onto another part of the output with
 * dimension d read backwards from src_start[d]. */
static void mirror_copy(uint8_t *out, const ptrdiff_t *strides, uint32_t rank, size_t esize,
                        const uint32_t *dst_start, const uint32_t *src_start, const uint32_t *box,
                        uint32_t d, ptrdiff_t *src_strides)
{
    ptrdiff_t dst_off = 0, src_off = 0;
    for (uint32_t i = 0; i < rank; i++) {
        dst_off += (ptrdiff_t)dst_start[i] * strides[i];
        src_off += (ptrdiff_t)src_start[i] * strides[i];
        src_strides[i] = i == d ? -strides[i] : strides[i];
    }
    nn_copy_strided(out + dst_off * (ptrdiff_t)esize, strides, out + src_off * (ptrdiff_t)esize,
                    src_strides, box, rank, esize);
}

static int mirror_pad_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    uint32_t r = in->rank;
    nn_rank_buf buf;
    int err = nn_rank_buf_get(&buf, (size_t)r * (3 * sizeof(ptrdiff_t) + 5 * sizeof(uint32_t)));
    if (err != NN_OK) {
        nn_rank_buf_free(&buf);
        return err;
    }
    ptrdiff_t *out_strides = buf.p, *in_strides = out_strides + r, *src_strides = in_strides + r;
    uint32_t *box = (uint32_t *)(src_strides + r), *dst = box + r, *src = dst + r;
    uint32_t *before = src + r, *after = before + r;
    if (!mirror_pad_amounts(c, before, after, &err)) {
        nn_rank_buf_free(&buf);
        return err ? err : ANEURALNETWORKS_OP_FAILED;
    }
    size_t esize = nn_type_size(in->type);
    /* SYMMETRIC starts the mirror at the edge element, REFLECT one past it. */
    uint32_t skip = nn_scalar_i32(c->in[2]) == MODE_REFLECT ? 1 : 0;
    nn_row_major_strides(out->dims, r, out_strides);
    nn_row_major_strides(in->dims, r, in_strides);
    if (nn_tensor_count(in) == 0) {
        nn_rank_buf_free(&buf);
        return NN_OK;
    }
    ptrdiff_t centre = 0;
    for (uint32_t i = 0; i < r; i++)
        centre += (ptrdiff_t)before[i] * out_strides[i];
    uint8_t *o = out->data;
    nn_copy_strided(o + centre * (ptrdiff_t)esize, out_strides, in->data, in_strides, in->dims, r,
                    esize);
    for (uint32_t i = 0; i < r; i++) {
        box[i] = in->dims[i];
        dst[i] = src[i] = before[i];
    }
    for (uint32_t d = 0; d < r; d++) {
        if (before[d]) {
            box[d] = before[d];
            dst[d] = 0;
            src[d] = 2 * before[d] - 1 + skip;
            mirror_copy(o, out_strides, r, esize, dst, src, box, d, src_strides);
        }
        if (after[d]) {
            box[d] = after[d];
            dst[d] = before[d] + in->dims[d];
            src[d] = before[d] + in->dims[d] - 1 - skip;
            mirror_copy(o, out_strides, r, esize, dst, src, box, d, src_strides);
        }
        /* Dimension d is complete over the whole output from now on. */
        box[d] = out->dims[d];
        dst[d] = src[d] = 0;
    }
    nn_rank_buf_free(&buf);
    return NN_OK;
}

const nn_op_def nn_op_MIRROR_PAD = {
    .code = ANEURALNETWORKS_MIRROR_PAD,
    .name = "MIRROR_PAD",
    .validate = mirror_pad_validate,
    .prepare = mirror_pad_prepare,
    .execute = mirror_pad_execute,
};
