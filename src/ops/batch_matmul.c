/*
 * BATCH_MATMUL (feature level 6): out[..., i, j] = sum_p X'[..., i, p] * Y'[..., p, j]
 * where X' / Y' are the last two dimensions of input 0 / 1, transposed
 * first when adj_x / adj_y is set. Both inputs have the same rank (2 to 4);
 * each leading (batch) dimension is equal on both sides or 1 on one side,
 * which is repeated over the other, as TensorFlow's BatchMatMul does.
 *
 * float32 and float16 (through float32) run on nn_sgemm, int8 on nn_qgemm;
 * both want the right operand as rows of p, so Y is transposed into scratch
 * unless adj_y already gives that layout, and X only when adj_x is set.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/fp16.h"
#include "kernels/gemm.h"
#include "kernels/quant.h"
#include "ops/shape_common.h"

/* nn_qgemm keeps int32 accumulators exact only below this depth. */
#define QGEMM_MAX_K 65535u

/* Inputs of rank 2 to 4. */
#define BMM_MAX_RANK 4

typedef struct bmm_shape {
    uint32_t batch_rank;
    uint32_t out_batch[BMM_MAX_RANK - 2], x_batch[BMM_MAX_RANK - 2], y_batch[BMM_MAX_RANK - 2];
    size_t batches;
    size_t m, n, k;
    size_t x_rows, x_cols, y_rows, y_cols;
    bool adj_x, adj_y;
} bmm_shape;

static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

static bool bmm_type_ok(int32_t t)
{
    return t == T_F32 || t == T_F16 || t == T_I32 || t == T_QA8S;
}

static int bmm_shape_of(const nn_op_call *c, bmm_shape *s)
{
    const nn_tensor *x = c->in[0], *y = c->in[1];
    uint32_t r = x->rank;
    if (r < 2 || r > BMM_MAX_RANK || y->rank != r)
        return NN_BAD;
    s->adj_x = shp_opt_bool(c, 2);
    s->adj_y = shp_opt_bool(c, 3);
    s->x_rows = x->dims[r - 2];
    s->x_cols = x->dims[r - 1];
    s->y_rows = y->dims[r - 2];
    s->y_cols = y->dims[r - 1];
    s->m = s->adj_x ? s->x_cols : s->x_rows;
    s->k = s->adj_x ? s->x_rows : s->x_cols;
    s->n = s->adj_y ? s->y_rows : s->y_cols;
    if ((s->adj_y ? s->y_cols : s->y_rows) != s->k)
        return NN_BAD;
    s->batch_rank = r - 2;
    s->batches = 1;
    for (uint32_t i = 0; i < s->batch_rank; i++) {
        uint32_t a = x->dims[i], b = y->dims[i];
        if (a != b && a != 1 && b != 1)
            return NN_BAD;
        s->x_batch[i] = a;
        s->y_batch[i] = b;
        s->out_batch[i] = a == 1 ? b : a;
        s->batches *= s->out_batch[i];
    }
    return NN_OK;
}

/* Offsets (in matrices) of the X and Y slices that output batch b uses. */
static void bmm_slices(const bmm_shape *s, size_t b, size_t *xi, size_t *yi)
{
    size_t x = 0, y = 0, xs = 1, ys = 1;
    for (uint32_t i = s->batch_rank; i-- > 0;) {
        size_t coord = b % s->out_batch[i];
        b /= s->out_batch[i];
        x += (s->x_batch[i] == 1 ? 0 : coord) * xs;
        y += (s->y_batch[i] == 1 ? 0 : coord) * ys;
        xs *= s->x_batch[i];
        ys *= s->y_batch[i];
    }
    *xi = x;
    *yi = y;
}

static int bmm_prepare(nn_op_call *c);

static int bmm_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 4, 1))
        return NN_BAD;
    if (c->feature_level < FL6)
        return nn_invalid("BATCH_MATMUL needs feature level 6");
    const nn_tensor *x = c->in[0], *y = c->in[1], *out = c->out[0];
    if (!bmm_type_ok(x->type))
        return nn_invalid("the operation does not take %s", nn_type_name(x->type));
    if (nn_expect_type(c, false, 1, x->type) || nn_expect_type(c, true, 0, x->type))
        return NN_BAD;
    if (!shp_rank_in(x, 2, 4) || !shp_rank_in(y, 2, 4) || !shp_rank_in(out, 2, 4))
        return NN_BAD;
    if (x->rank && y->rank && x->rank != y->rank)
        return nn_invalid("inputs of ranks %u and %u, expected equal ranks", x->rank, y->rank);
    if (x->type == T_QA8S && (nn_check_quant(x) || nn_check_quant(y) || nn_check_quant(out)))
        return NN_BAD;
    for (uint32_t i = 2; i < c->n_in; i++)
        if (!c->in[i]->omitted && nn_check_type(c->in[i], ANEURALNETWORKS_BOOL))
            return NN_BAD;
    return shp_validate_shapes(c, bmm_prepare);
}

static int bmm_prepare(nn_op_call *c)
{
    /* adj_x / adj_y given at execution: the shape waits for their values. */
    for (uint32_t i = 2; i < c->n_in; i++)
        if (shp_present(c, i) && c->in[i]->data == NULL)
            return NN_OK;
    bmm_shape s;
    if (bmm_shape_of(c, &s))
        return NN_BAD;
    uint32_t dims[BMM_MAX_RANK];
    memcpy(dims, s.out_batch, s.batch_rank * sizeof dims[0]);
    dims[s.batch_rank] = (uint32_t)s.m;
    dims[s.batch_rank + 1] = (uint32_t)s.n;
    int err = shp_set_shape(c->out[0], s.batch_rank + 2, dims);
    if (err)
        return err;
    size_t esize = c->in[0]->type == T_QA8S ? 1 : sizeof(float);
    size_t bytes = 0;
    if (c->in[0]->type == T_F16) /* both inputs and the output as float32 */
        bytes = align64(nn_tensor_count(c->in[0]) * 4) + align64(nn_tensor_count(c->in[1]) * 4) +
                align64(nn_tensor_count(c->out[0]) * 4);
    if (c->in[0]->type != T_I32) /* one transposed slice of each input */
        bytes += align64(s.m * s.k * esize) + align64(s.n * s.k * esize);
    c->scratch_bytes = bytes;
    return NN_OK;
}

/* dst (cols x rows) = transpose of src (rows x cols); elements of esize bytes. */
static void transpose_slice(const void *src, size_t rows, size_t cols, size_t esize, void *dst)
{
    const uint8_t *s = src;
    uint8_t *d = dst;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            memcpy(d + (j * rows + i) * esize, s + (i * cols + j) * esize, esize);
}

/* Pointers to A (m rows of k) and B (n rows of k) for one batch: the input
 * slices themselves or their transposes in scratch. */
static void bmm_operands(const bmm_shape *s, const uint8_t *xs, const uint8_t *ys, size_t esize,
                         uint8_t *scratch, const void **a, const void **b)
{
    uint8_t *ta = scratch, *tb = scratch + align64(s->m * s->k * esize);
    *a = xs;
    *b = ys;
    if (s->adj_x) {
        transpose_slice(xs, s->x_rows, s->x_cols, esize, ta);
        *a = ta;
    }
    if (!s->adj_y) {
        transpose_slice(ys, s->y_rows, s->y_cols, esize, tb);
        *b = tb;
    }
}

static int bmm_float(const bmm_shape *s, const float *x, const float *y, float *out,
                     uint8_t *scratch)
{
    for (size_t b = 0; b < s->batches; b++) {
        size_t xi, yi;
        bmm_slices(s, b, &xi, &yi);
        const void *a, *bt;
        bmm_operands(s, (const uint8_t *)(x + xi * s->m * s->k),
                     (const uint8_t *)(y + yi * s->n * s->k), sizeof(float), scratch, &a, &bt);
        int err = nn_sgemm(s->m, s->n, s->k, a, s->k, bt, s->k, NULL, -INFINITY, INFINITY,
                           out + b * s->m * s->n, s->n);
        if (err)
            return err;
    }
    return NN_OK;
}

/* Scalar int8 product for depths the int32 GEMM accumulators cannot hold:
 * wrapping int32 sums as the reference kernels' accumulators. */
static void bmm_q8_deep(const bmm_shape *s, const int8_t *a, const int8_t *b, int32_t za,
                        int32_t zb, const nn_requant *rq, int8_t *out)
{
    for (size_t i = 0; i < s->m; i++)
        for (size_t j = 0; j < s->n; j++) {
            int32_t acc = 0;
            for (size_t p = 0; p < s->k; p++)
                acc = nn_wrapping_add_i32(acc, (a[i * s->k + p] - za) * (b[j * s->k + p] - zb));
            int32_t v = rq->out_zero + nn_mul_by_quant_mult(acc, rq->mult[0], rq->shift[0]);
            out[i * s->n + j] = (int8_t)nn_clamp_i32(v, rq->lo, rq->hi);
        }
}

static int bmm_q8(const nn_op_call *c, const bmm_shape *s)
{
    const nn_tensor *x = c->in[0], *y = c->in[1];
    nn_tensor *out = c->out[0];
    int32_t mult;
    int shift;
    nn_quantize_multiplier((double)x->scale * y->scale / out->scale, &mult, &shift);
    int32_t shift32 = shift;
    nn_requant rq = {.mult = &mult, .shift = &shift32, .per_channel = false,
                     .out_zero = out->zero_point, .lo = -128, .hi = 127, .out_signed = true};
    for (size_t b = 0; b < s->batches; b++) {
        size_t xi, yi;
        bmm_slices(s, b, &xi, &yi);
        const void *a, *bt;
        bmm_operands(s, (const uint8_t *)x->data + xi * s->m * s->k,
                     (const uint8_t *)y->data + yi * s->n * s->k, 1, c->scratch, &a, &bt);
        int8_t *o = (int8_t *)out->data + b * s->m * s->n;
        if (s->k > QGEMM_MAX_K) {
            bmm_q8_deep(s, a, bt, x->zero_point, y->zero_point, &rq, o);
            continue;
        }
        nn_q8_matrix qa = {.data = a, .ld = s->k, .is_signed = true, .zero = x->zero_point};
        nn_q8_matrix qb = {.data = bt, .ld = s->k, .is_signed = true, .zero = y->zero_point};
        int err = nn_qgemm(s->m, s->n, s->k, &qa, &qb, NULL, &rq, o, s->n);
        if (err)
            return err;
    }
    return NN_OK;
}

/* No integer GEMM kernel exists for int32: a plain loop, sums wrapping. */
static void bmm_i32(const bmm_shape *s, const int32_t *x, const int32_t *y, int32_t *out)
{
    for (size_t b = 0; b < s->batches; b++) {
        size_t xi, yi;
        bmm_slices(s, b, &xi, &yi);
        const int32_t *xs = x + xi * s->m * s->k, *ys = y + yi * s->n * s->k;
        int32_t *o = out + b * s->m * s->n;
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++) {
                uint32_t acc = 0;
                for (size_t p = 0; p < s->k; p++) {
                    int32_t xv = s->adj_x ? xs[p * s->x_cols + i] : xs[i * s->x_cols + p];
                    int32_t yv = s->adj_y ? ys[j * s->y_cols + p] : ys[p * s->y_cols + j];
                    acc += (uint32_t)xv * (uint32_t)yv;
                }
                o[i * s->n + j] = (int32_t)acc;
            }
    }
}

static int bmm_execute(nn_op_call *c)
{
    bmm_shape s;
    if (bmm_shape_of(c, &s))
        return NN_BAD;
    const nn_tensor *x = c->in[0], *y = c->in[1];
    nn_tensor *out = c->out[0];
    switch (x->type) {
    case T_F32:
        return bmm_float(&s, x->data, y->data, out->data, c->scratch);
    case T_F16: {
        size_t nx = nn_tensor_count(x), ny = nn_tensor_count(y), no = nn_tensor_count(out);
        float *fx = c->scratch;
        float *fy = (float *)((uint8_t *)fx + align64(nx * 4));
        float *fo = (float *)((uint8_t *)fy + align64(ny * 4));
        uint8_t *rest = (uint8_t *)fo + align64(no * 4);
        nn_f16_to_f32_array(x->data, fx, nx);
        nn_f16_to_f32_array(y->data, fy, ny);
        int err = bmm_float(&s, fx, fy, fo, rest);
        if (!err)
            nn_f32_to_f16_array(fo, out->data, no);
        return err;
    }
    case T_QA8S:
        return bmm_q8(c, &s);
    default:
        bmm_i32(&s, x->data, y->data, out->data);
        return NN_OK;
    }
}

const nn_op_def nn_op_BATCH_MATMUL = {
    .code = ANEURALNETWORKS_BATCH_MATMUL,
    .name = "BATCH_MATMUL",
    .validate = bmm_validate,
    .prepare = bmm_prepare,
    .execute = bmm_execute,
    .optional_inputs = true,
};
