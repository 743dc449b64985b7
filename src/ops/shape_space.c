/* Padding and space/depth/batch rearrangements: PAD, PAD_V2,
 * SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH. */
#include <string.h>

#include "kernels/copy.h"
#include "kernels/fp16.h"
#include "kernels/quant.h"
#include "ops/shape_common.h"

static int pad_prepare(nn_op_call *c);
static int d2s_prepare(nn_op_call *c);
static int s2b_prepare(nn_op_call *c);

#define FL1_TYPES SHP_TYPES({T_F32, FL1}, {T_QA8, FL1}, {T_F16, FL3}, {T_QA8S, FL4})
#define FL2_TYPES SHP_TYPES({T_F32, FL2}, {T_QA8, FL2}, {T_F16, FL3}, {T_QA8S, FL4})
#define PADV2_TYPES SHP_TYPES({T_F32, FL3}, {T_QA8, FL3}, {T_F16, FL3}, {T_QA8S, FL4})

/* The element holding real zero: the zero point for quant8, else all bits 0. */
static void zero_value(const nn_tensor *t, unsigned char *v)
{
    memset(v, 0, 4);
    if (t->type == T_QA8)
        v[0] = (unsigned char)t->zero_point;
    else if (t->type == T_QA8S)
        v[0] = (unsigned char)(int8_t)t->zero_point;
}

/* Strides, in elements, of the logical N, H, W, C axes of a 4-D tensor. */
typedef struct st4 {
    ptrdiff_t n, h, w, c;
} st4;

static st4 strides4(shp_nhwc s, bool nchw)
{
    st4 r;
    if (nchw) {
        r.w = 1;
        r.h = s.w;
        r.c = (ptrdiff_t)s.h * s.w;
        r.n = r.c * s.c;
    } else {
        r.c = 1;
        r.w = s.c;
        r.h = (ptrdiff_t)s.w * s.c;
        r.n = r.h * s.h;
    }
    return r;
}

static ptrdiff_t offset4(st4 s, ptrdiff_t n, ptrdiff_t h, ptrdiff_t w, ptrdiff_t c)
{
    return n * s.n + h * s.h + w * s.w + c * s.c;
}

/* Copies a box of logical size `box`, axes listed in memory order so
 * contiguous rows merge into memcpy calls. */
static void copy_box4(const nn_tensor *t, char *dst, st4 ds, const char *src, st4 ss, shp_nhwc box,
                      bool nchw)
{
    size_t elem = nn_type_size(t->type);
    uint32_t dims[4];
    ptrdiff_t d[4], s[4];
    if (nchw) {
        uint32_t bd[4] = {box.n, box.c, box.h, box.w};
        ptrdiff_t dd[4] = {ds.n, ds.c, ds.h, ds.w}, sd[4] = {ss.n, ss.c, ss.h, ss.w};
        memcpy(dims, bd, sizeof dims);
        memcpy(d, dd, sizeof d);
        memcpy(s, sd, sizeof s);
    } else {
        uint32_t bd[4] = {box.n, box.h, box.w, box.c};
        ptrdiff_t dd[4] = {ds.n, ds.h, ds.w, ds.c}, sd[4] = {ss.n, ss.h, ss.w, ss.c};
        memcpy(dims, bd, sizeof dims);
        memcpy(d, dd, sizeof d);
        memcpy(s, sd, sizeof s);
    }
    nn_copy_strided(dst, d, src, s, dims, 4, elem);
}

static char *at(const nn_tensor *t, ptrdiff_t off)
{
    return (char *)t->data + off * (ptrdiff_t)nn_type_size(t->type);
}

/* ---- PAD, PAD_V2 ---- */

/* Android's validation checks only the type of the paddings; their shape
 * ([rank of input, 2]) is checked when computing. */
static int pad_check_paddings(const nn_op_call *c, const nn_tensor *in, const nn_tensor *p)
{
    if (nn_check_type(p, T_I32))
        return NN_BAD;
    bool ok = p->rank == 0 ||
              (p->rank == 2 && (!p->dims[1] || p->dims[1] == 2) &&
               (!in->rank || !p->dims[0] || p->dims[0] == in->rank));
    return nn_check_value(c, ok, "paddings of rank %u, expected [%u, 2]", p->rank, in->rank);
}

static int pad_validate(const nn_op_call *c)
{
    bool v2 = c->op_type == ANEURALNETWORKS_PAD_V2;
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, v2 ? 3 : 2, v2 ? 3 : 2, 1) ||
        shp_check_type(c, in->type, v2 ? PADV2_TYPES : FL2_TYPES) || !shp_rank_in(in, 1, 4) ||
        pad_check_paddings(c, in, c->in[1]) || shp_check_same_q(in, c->out[0]))
        return NN_BAD;
    if (v2) {
        int32_t vt = in->type == T_F32   ? ANEURALNETWORKS_FLOAT32
                     : in->type == T_F16 ? ANEURALNETWORKS_FLOAT16
                                         : ANEURALNETWORKS_INT32;
        if (nn_expect_type(c, false, 2, vt))
            return NN_BAD;
    }
    return shp_validate_shapes(c, pad_prepare);
}

static int pad_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *p = c->in[1];
    if (shp_check_rank_at_prepare(in, 4))
        return NN_BAD;
    if (!shp_i32_ready(p))
        return NN_OK;
    if (nn_tensor_count(p) != 2 * (size_t)in->rank)
        return NN_BAD;
    for (uint32_t i = 0; i < in->rank; i++) {
        int32_t lo = shp_i32(p, 2 * i), hi = shp_i32(p, 2 * i + 1);
        uint64_t d = (uint64_t)in->dims[i] + (uint64_t)(lo < 0 ? 0 : lo) + (uint64_t)(hi < 0 ? 0 : hi);
        if (lo < 0 || hi < 0 || d > UINT32_MAX)
            return shp_value_error(p);
    }
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, in->rank);
    if (rc != NN_OK)
        return rc;
    for (uint32_t i = 0; i < in->rank; i++)
        out->dims[i] = in->dims[i] + (uint32_t)shp_i32(p, 2 * i) + (uint32_t)shp_i32(p, 2 * i + 1);
    return shp_check_elements(out);
}

static int pad_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *p = c->in[1];
    nn_tensor *out = c->out[0];
    unsigned char value[4];
    zero_value(in, value);
    if (c->op_type == ANEURALNETWORKS_PAD_V2) {
        const nn_tensor *pv = c->in[2];
        if (in->type == T_F32 || in->type == T_F16) {
            memcpy(value, pv->data, nn_type_size(in->type));
        } else {
            int32_t qmin, qmax;
            nn_quant8_range(in->type, &qmin, &qmax);
            int32_t q = nn_clamp_i32(nn_scalar_i32(pv), qmin, qmax);
            value[0] = in->type == T_QA8 ? (unsigned char)q : (unsigned char)(int8_t)q;
        }
    }
    size_t elem = nn_type_size(in->type);
    nn_fill_elems(out->data, nn_tensor_count(out), value, elem);
    if (nn_tensor_count(in) == 0)
        return NN_OK;
    nn_rank_buf buf;
    int rc = nn_rank_buf_get(&buf, 2 * sizeof(ptrdiff_t) * in->rank);
    if (rc == NN_OK) {
        ptrdiff_t *is = buf.p, *os = is + in->rank, off = 0;
        nn_row_major_strides(in->dims, in->rank, is);
        nn_row_major_strides(out->dims, out->rank, os);
        for (uint32_t i = 0; i < in->rank; i++)
            off += (ptrdiff_t)shp_i32(p, 2 * i) * os[i];
        nn_copy_strided(at(out, off), os, in->data, is, in->dims, in->rank, elem);
    }
    nn_rank_buf_free(&buf);
    return rc;
}

const nn_op_def nn_op_PAD = {
    .code = ANEURALNETWORKS_PAD,
    .name = "PAD",
    .validate = pad_validate,
    .prepare = pad_prepare,
    .execute = pad_execute,
};

const nn_op_def nn_op_PAD_V2 = {
    .code = ANEURALNETWORKS_PAD_V2,
    .name = "PAD_V2",
    .validate = pad_validate,
    .prepare = pad_prepare,
    .execute = pad_execute,
};

/* ---- shared validation of the 4-D layout operations ---- */

static int layout_validate(const nn_op_call *c, uint32_t n_fixed, const shp_type_level *types)
{
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, n_fixed, n_fixed + 1, 1) || shp_check_type(c, in->type, types) ||
        !shp_rank_in(in, 4, 4) || shp_check_same_q(in, c->out[0]) ||
        shp_check_opt_scalar(c, n_fixed, ANEURALNETWORKS_BOOL, FL3))
        return NN_BAD;
    return NN_OK;
}

/* ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH ---- */

static int d2s_validate(const nn_op_call *c)
{
    if (layout_validate(c, 2, FL1_TYPES) || nn_check_type(c->in[1], ANEURALNETWORKS_INT32))
        return NN_BAD;
    /* Android checks the block size when it prepares the operation. */
    if (c->in[1]->data &&
        nn_check_value(c, nn_scalar_i32(c->in[1]) >= 1, "input 1 (block size) %d is below 1",
                       nn_scalar_i32(c->in[1])))
        return NN_BAD;
    return shp_validate_shapes(c, d2s_prepare);
}

static int d2s_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (c->in[1]->data == NULL)
        return NN_OK;
    bool nchw = shp_opt_bool(c, 2);
    int32_t bs = nn_scalar_i32(c->in[1]);
    shp_nhwc s = shp_get_nhwc(in, nchw);
    if (bs < 1)
        return NN_BAD;
    uint64_t b = (uint64_t)bs;
    if (c->op_type == ANEURALNETWORKS_DEPTH_TO_SPACE) {
        if (s.c % (b * b) != 0 || s.h * b > UINT32_MAX || s.w * b > UINT32_MAX)
            return NN_BAD;
        s.c = (uint32_t)(s.c / (b * b));
        s.h = (uint32_t)(s.h * b);
        s.w = (uint32_t)(s.w * b);
    } else {
        if (s.h % b != 0 || s.w % b != 0 || (s.c != 0 && b * b > UINT32_MAX / s.c))
            return NN_BAD;
        s.c = (uint32_t)(s.c * b * b);
        s.h = (uint32_t)(s.h / b);
        s.w = (uint32_t)(s.w / b);
    }
    shp_set_nhwc(c->out[0], nchw, s);
    return shp_set_shape(c->out[0], 4, c->out[0]->dims);
}

static int d2s_execute(nn_op_call *c)
{
    bool nchw = shp_opt_bool(c, 2);
    uint32_t bs = (uint32_t)nn_scalar_i32(c->in[1]);
    bool to_space = c->op_type == ANEURALNETWORKS_DEPTH_TO_SPACE;
    const nn_tensor *deep = to_space ? c->in[0] : c->out[0];
    const nn_tensor *wide = to_space ? c->out[0] : c->in[0];
    shp_nhwc ds = shp_get_nhwc(deep, nchw), ws = shp_get_nhwc(wide, nchw);
    st4 dst4 = strides4(ds, nchw), wst4 = strides4(ws, nchw);
    /* Each (i, j) of the block is a box of the deep tensor's spatial grid
     * and a channel range of size C_wide. */
    st4 wblock = wst4;
    wblock.h *= bs;
    wblock.w *= bs;
    shp_nhwc box = {ds.n, ds.h, ds.w, ws.c};
    for (uint32_t i = 0; i < bs; i++) {
        for (uint32_t j = 0; j < bs; j++) {
            char *dp = at(deep, offset4(dst4, 0, 0, 0, (ptrdiff_t)(i * bs + j) * ws.c));
            char *wp = at(wide, offset4(wst4, 0, i, j, 0));
            if (to_space)
                copy_box4(deep, wp, wblock, dp, dst4, box, nchw);
            else
                copy_box4(deep, dp, dst4, wp, wblock, box, nchw);
        }
    }
    return NN_OK;
}

const nn_op_def nn_op_DEPTH_TO_SPACE = {
    .code = ANEURALNETWORKS_DEPTH_TO_SPACE,
    .name = "DEPTH_TO_SPACE",
    .validate = d2s_validate,
    .prepare = d2s_prepare,
    .execute = d2s_execute,
};

const nn_op_def nn_op_SPACE_TO_DEPTH = {
    .code = ANEURALNETWORKS_SPACE_TO_DEPTH,
    .name = "SPACE_TO_DEPTH",
    .validate = d2s_validate,
    .prepare = d2s_prepare,
    .execute = d2s_execute,
};

/* ---- SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND ---- */

static int block_check(const nn_op_call *c, const nn_tensor *b)
{
    if (nn_check_type(b, T_I32) || !shp_rank_in(b, 1, 1) ||
        (b->rank == 1 && b->dims[0] && b->dims[0] != 2))
        return NN_BAD;
    /* Block sizes are values: Android checks them when it prepares. */
    if (shp_i32_ready(b) && nn_tensor_count(b) == 2 &&
        nn_check_value(c, shp_i32(b, 0) >= 1 && shp_i32(b, 1) >= 1,
                       "input 1 (block sizes) %d, %d: each must be at least 1", shp_i32(b, 0),
                       shp_i32(b, 1)))
        return NN_BAD;
    return NN_OK;
}

static int s2b_validate(const nn_op_call *c)
{
    bool s2b = c->op_type == ANEURALNETWORKS_SPACE_TO_BATCH_ND;
    if (layout_validate(c, s2b ? 3 : 2, FL2_TYPES) || block_check(c, c->in[1]))
        return NN_BAD;
    if (s2b) {
        const nn_tensor *p = c->in[2];
        /* As for PAD, only the type is checked before computing. */
        bool ok = p->rank == 0 || (p->rank == 2 && (!p->dims[0] || p->dims[0] == 2) &&
                                   (!p->dims[1] || p->dims[1] == 2));
        if (nn_check_type(p, T_I32) ||
            nn_check_value(c, ok, "paddings of rank %u, expected [2, 2]", p->rank))
            return NN_BAD;
    }
    return shp_validate_shapes(c, s2b_prepare);
}

typedef struct s2b_params {
    uint32_t bh, bw;
    uint32_t pt, pb, pl, pr;
    bool nchw;
} s2b_params;

static int s2b_read(const nn_op_call *c, s2b_params *p, bool *known)
{
    bool s2b = c->op_type == ANEURALNETWORKS_SPACE_TO_BATCH_ND;
    const nn_tensor *b = c->in[1], *pad = s2b ? c->in[2] : NULL;
    *known = shp_i32_ready(b) && (!s2b || shp_i32_ready(pad));
    if (!*known)
        return NN_OK;
    if (nn_tensor_count(b) != 2 || shp_i32(b, 0) < 1 || shp_i32(b, 1) < 1)
        return shp_value_error(b);
    p->bh = (uint32_t)shp_i32(b, 0);
    p->bw = (uint32_t)shp_i32(b, 1);
    p->pt = p->pb = p->pl = p->pr = 0;
    if (s2b) {
        if (nn_tensor_count(pad) != 4)
            return shp_value_error(pad);
        int32_t v[4];
        for (int i = 0; i < 4; i++) {
            v[i] = shp_i32(pad, (size_t)i);
            if (v[i] < 0)
                return shp_value_error(pad);
        }
        p->pt = (uint32_t)v[0];
        p->pb = (uint32_t)v[1];
        p->pl = (uint32_t)v[2];
        p->pr = (uint32_t)v[3];
    }
    p->nchw = shp_opt_bool(c, s2b ? 3 : 2);
    return NN_OK;
}

static int s2b_prepare(nn_op_call *c)
{
    s2b_params p;
    bool known;
    int err = s2b_read(c, &p, &known);
    if (err || !known)
        return err;
    shp_nhwc s = shp_get_nhwc(c->in[0], p.nchw);
    uint64_t blocks = (uint64_t)p.bh * p.bw;
    if (c->op_type == ANEURALNETWORKS_SPACE_TO_BATCH_ND) {
        uint64_t h = (uint64_t)s.h + p.pt + p.pb, w = (uint64_t)s.w + p.pl + p.pr;
        if (h % p.bh || w % p.bw || (s.n != 0 && blocks > UINT32_MAX / s.n))
            return shp_value_error(c->in[1]);
        s.n = (uint32_t)(s.n * blocks);
        s.h = (uint32_t)(h / p.bh);
        s.w = (uint32_t)(w / p.bw);
    } else {
        if (s.n % blocks || (uint64_t)s.h * p.bh > UINT32_MAX || (uint64_t)s.w * p.bw > UINT32_MAX)
            return shp_value_error(c->in[1]);
        s.n = (uint32_t)(s.n / blocks);
        s.h *= p.bh;
        s.w *= p.bw;
    }
    shp_set_nhwc(c->out[0], p.nchw, s);
    return shp_set_shape(c->out[0], 4, c->out[0]->dims);
}

/* Range [lo, hi) of block rows h with 0 <= h*b + i - pad < size, h < n. */
static void block_range(uint32_t i, uint32_t b, uint32_t pad, uint32_t size, uint32_t n,
                        uint32_t *lo, uint32_t *hi)
{
    int64_t first = (int64_t)pad - i, end = (int64_t)size + pad - i;
    int64_t l = first <= 0 ? 0 : (first + b - 1) / b;
    int64_t h = end <= 0 ? 0 : (end + b - 1) / b;
    if (h > n)
        h = n;
    *lo = (uint32_t)l;
    *hi = (uint32_t)(h > l ? h : l);
}

static int s2b_execute(nn_op_call *c)
{
    s2b_params p;
    bool known;
    if (s2b_read(c, &p, &known) || !known)
        return ANEURALNETWORKS_OP_FAILED;
    bool s2b = c->op_type == ANEURALNETWORKS_SPACE_TO_BATCH_ND;
    /* "space" is the tensor with the large spatial grid, "batch" the other. */
    const nn_tensor *space = s2b ? c->in[0] : c->out[0];
    const nn_tensor *batch = s2b ? c->out[0] : c->in[0];
    shp_nhwc ss = shp_get_nhwc(space, p.nchw), bsz = shp_get_nhwc(batch, p.nchw);
    st4 sst = strides4(ss, p.nchw), bst = strides4(bsz, p.nchw);
    if (s2b) {
        unsigned char zero[4];
        zero_value(space, zero);
        nn_fill_elems(batch->data, nn_tensor_count(batch), zero, nn_type_size(batch->type));
    }
    st4 sblock = sst;
    sblock.h *= p.bh;
    sblock.w *= p.bw;
    for (uint32_t i = 0; i < p.bh; i++) {
        uint32_t h0, h1;
        block_range(i, p.bh, p.pt, ss.h, bsz.h, &h0, &h1);
        for (uint32_t j = 0; j < p.bw; j++) {
            uint32_t w0, w1;
            block_range(j, p.bw, p.pl, ss.w, bsz.w, &w0, &w1);
            if (h0 == h1 || w0 == w1 || ss.n == 0)
                continue;
            ptrdiff_t sh = (ptrdiff_t)h0 * p.bh + i - p.pt, sw = (ptrdiff_t)w0 * p.bw + j - p.pl;
            char *sp = at(space, offset4(sst, 0, sh, sw, 0));
            char *bp = at(batch, offset4(bst, (ptrdiff_t)(i * p.bw + j) * ss.n, h0, w0, 0));
            shp_nhwc box = {ss.n, h1 - h0, w1 - w0, ss.c};
            if (s2b)
                copy_box4(space, bp, bst, sp, sblock, box, p.nchw);
            else
                copy_box4(space, sp, sblock, bp, bst, box, p.nchw);
        }
    }
    return NN_OK;
}

const nn_op_def nn_op_SPACE_TO_BATCH_ND = {
    .code = ANEURALNETWORKS_SPACE_TO_BATCH_ND,
    .name = "SPACE_TO_BATCH_ND",
    .validate = s2b_validate,
    .prepare = s2b_prepare,
    .execute = s2b_execute,
};

const nn_op_def nn_op_BATCH_TO_SPACE_ND = {
    .code = ANEURALNETWORKS_BATCH_TO_SPACE_ND,
    .name = "BATCH_TO_SPACE_ND",
    .validate = s2b_validate,
    .prepare = s2b_prepare,
    .execute = s2b_execute,
};
