/* Reductions: MEAN, REDUCE_{SUM,PROD,MAX,MIN,ANY,ALL}, ARGMAX, ARGMIN, TOPK_V2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fp16.h"
#include "kernels/qops.h"
#include "kernels/quant.h"
#include "ops/shape_common.h"
#include "runtime.h"

static int reduce_prepare(nn_op_call *c);
static int arg_prepare(nn_op_call *c);
static int topk_prepare(nn_op_call *c);

/* Raw element value: the number itself for floats and integers, the
 * quantized integer for quant8 (comparisons and same-q means need no scale). */
static double load(const void *data, size_t i, int32_t type)
{
    switch (type) {
    case T_F32:
        return ((const float *)data)[i];
    case T_F16:
        return nn_f16_to_f32(((const uint16_t *)data)[i]);
    case T_I32:
        return ((const int32_t *)data)[i];
    case T_QA8:
    case T_B8:
        return ((const uint8_t *)data)[i];
    default:
        return ((const int8_t *)data)[i];
    }
}

static void store(void *data, size_t i, int32_t type, double v)
{
    switch (type) {
    case T_F32:
        ((float *)data)[i] = (float)v;
        break;
    case T_F16:
        ((uint16_t *)data)[i] = nn_f32_to_f16((float)v);
        break;
    case T_I32:
        ((int32_t *)data)[i] = (int32_t)v;
        break;
    case T_B8:
        ((uint8_t *)data)[i] = v != 0.0;
        break;
    case T_QA8:
        ((uint8_t *)data)[i] = (uint8_t)nn_clamp_i32((int32_t)v, 0, 255);
        break;
    default:
        ((int8_t *)data)[i] = (int8_t)nn_clamp_i32((int32_t)v, -128, 127);
        break;
    }
}

/* ---- MEAN and REDUCE_* ---- */

static const shp_type_level mean_types[] = {
    {T_F32, FL2}, {T_QA8, FL2}, {T_F16, FL3}, {T_QA8S, FL4}, {-1, 0}};
static const shp_type_level sum_types[] = {{T_F32, FL3}, {T_F16, FL3}, {-1, 0}};
static const shp_type_level minmax_types[] = {
    {T_F32, FL3}, {T_F16, FL3}, {T_QA8, FL3}, {T_QA8S, FL4}, {-1, 0}};
static const shp_type_level bool_types[] = {{T_B8, FL3}, {-1, 0}};

static const shp_type_level *reduce_types(int32_t op)
{
    switch (op) {
    case ANEURALNETWORKS_MEAN:
        return mean_types;
    case ANEURALNETWORKS_REDUCE_SUM:
    case ANEURALNETWORKS_REDUCE_PROD:
        return sum_types;
    case ANEURALNETWORKS_REDUCE_MAX:
    case ANEURALNETWORKS_REDUCE_MIN:
        return minmax_types;
    default:
        return bool_types;
    }
}

static int reduce_validate(const nn_op_call *c)
{
    bool mean = c->op_type == ANEURALNETWORKS_MEAN;
    const nn_tensor *in = c->in[0], *axes = c->in[1];
    if (nn_check_counts(c, 3, 3, 1) || shp_check_type(c, in->type, reduce_types(c->op_type)) ||
        !shp_rank_in(in, 1, 4) || nn_check_type(axes, T_I32) || !shp_rank_in(axes, 1, 1) ||
        nn_check_type(c->in[2], mean ? ANEURALNETWORKS_INT32 : ANEURALNETWORKS_BOOL) ||
        shp_check_same_q(in, c->out[0]))
        return NN_BAD;
    /* Axis values: Android's reductions check them when they prepare. */
    bool mask[4]; /* the rank is at most 4 here */
    if (in->rank && shp_i32_ready(axes) &&
        nn_check_value(c, shp_axes_mask(axes, in->rank, mask) == NN_OK,
                       "input 1 (axes) has a value outside [-%u, %u)", in->rank, in->rank))
        return NN_BAD;
    return shp_validate_shapes(c, reduce_prepare);
}

static bool reduce_keep_dims(const nn_op_call *c)
{
    if (c->op_type == ANEURALNETWORKS_MEAN)
        return nn_scalar_i32(c->in[2]) > 0;
    return nn_scalar_bool(c->in[2]);
}

static int reduce_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *axes = c->in[1];
    if (shp_check_rank_at_prepare(in, 4))
        return NN_BAD;
    if (!shp_i32_ready(axes) || c->in[2]->data == NULL)
        return NN_OK;
    nn_rank_buf buf;
    int err = nn_rank_buf_get(&buf, in->rank * sizeof(bool));
    if (err == NN_OK && shp_axes_mask(axes, in->rank, buf.p))
        err = shp_value_error(axes);
    if (err == NN_OK)
        err = shp_reduced_shape(in, buf.p, reduce_keep_dims(c), c->out[0]);
    nn_rank_buf_free(&buf);
    if (err)
        return err;
    size_t row = in->rank ? in->dims[in->rank - 1] : 0, n_out = nn_tensor_count(c->out[0]);
    c->scratch_bytes = (n_out + row) * sizeof(double);
    if (c->op_type == ANEURALNETWORKS_MEAN && nn_type_is_quant8(in->type))
        c->scratch_bytes += n_out * sizeof(int32_t); /* q8_mean_sums */
    return NN_OK;
}

static double reduce_init(int32_t op)
{
    switch (op) {
    case ANEURALNETWORKS_REDUCE_PROD:
    case ANEURALNETWORKS_REDUCE_ALL:
        return 1.0;
    case ANEURALNETWORKS_REDUCE_MAX:
        return -INFINITY;
    case ANEURALNETWORKS_REDUCE_MIN:
        return INFINITY;
    default:
        return 0.0;
    }
}

/* Converts n elements starting at element `start` to double. */
static void load_row(const void *data, size_t start, size_t n, int32_t type, double *dst)
{
    switch (type) {
    case T_F32: {
        const float *p = (const float *)data + start;
        for (size_t i = 0; i < n; i++)
            dst[i] = p[i];
        break;
    }
    case T_F16: {
        const uint16_t *p = (const uint16_t *)data + start;
        for (size_t i = 0; i < n; i++)
            dst[i] = nn_f16_to_f32(p[i]);
        break;
    }
    case T_QA8:
    case T_B8: {
        const uint8_t *p = (const uint8_t *)data + start;
        for (size_t i = 0; i < n; i++)
            dst[i] = p[i];
        break;
    }
    default: {
        const int8_t *p = (const int8_t *)data + start;
        for (size_t i = 0; i < n; i++)
            dst[i] = p[i];
        break;
    }
    }
}

/* Folds a row v[0..n) into acc: into acc[0] when the row's dim is reduced
 * (step 0), element-wise into acc[0..n) otherwise. */
#define FOLD_ROW(name, expr)                                                                       \
    static void name(double *acc, size_t step, const double *v, size_t n)                          \
    {                                                                                              \
        if (step == 0) {                                                                           \
            double a = acc[0];                                                                     \
            for (size_t i = 0; i < n; i++) {                                                       \
                double x = v[i];                                                                   \
                a = (expr);                                                                        \
            }                                                                                      \
            acc[0] = a;                                                                            \
            return;                                                                                \
        }                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            double a = acc[i], x = v[i];                                                           \
            acc[i] = (expr);                                                                       \
        }                                                                                          \
    }

FOLD_ROW(fold_sum, a + x)
FOLD_ROW(fold_prod, a * x)
FOLD_ROW(fold_max, x > a ? x : a)
FOLD_ROW(fold_min, x < a ? x : a)
FOLD_ROW(fold_any, (a != 0.0 || x != 0.0) ? 1.0 : 0.0)
FOLD_ROW(fold_all, (a != 0.0 && x != 0.0) ? 1.0 : 0.0)

typedef void (*fold_fn)(double *acc, size_t step, const double *v, size_t n);

static fold_fn reduce_fold(int32_t op)
{
    switch (op) {
    case ANEURALNETWORKS_REDUCE_PROD:
        return fold_prod;
    case ANEURALNETWORKS_REDUCE_MAX:
        return fold_max;
    case ANEURALNETWORKS_REDUCE_MIN:
        return fold_min;
    case ANEURALNETWORKS_REDUCE_ANY:
        return fold_any;
    case ANEURALNETWORKS_REDUCE_ALL:
        return fold_all;
    default:
        return fold_sum;
    }
}

/* The sums of a quantized MEAN in int32 (exact: count * 255 < 2^31 for
 * each), into acc as doubles, the same values the double folds give;
 * sums32 holds n_out entries. The innermost rows go to the vector kernels
 * (kernels/qops.h). */
static void q8_mean_sums(const nn_tensor *in, const size_t *ostride, uint32_t *idx, size_t n_out,
                         int32_t *sums32, double *acc)
{
    const uint32_t rank = in->rank, last = rank - 1, row_len = in->dims[last];
    const bool sgn = in->type == T_QA8S;
    const uint8_t *data = in->data;
    memset(sums32, 0, n_out * sizeof *sums32);
    size_t n_in = nn_tensor_count(in), o = 0;
    for (size_t start = 0; start < n_in && row_len > 0; start += row_len) {
        if (ostride[last] == 0)
            sums32[o] += (int32_t)nn_q8_sum(data + start, sgn, row_len);
        else
            nn_q8_accumulate(data + start, sgn, sums32 + o, row_len);
        for (uint32_t d = last; d-- > 0;) {
            o += ostride[d];
            if (++idx[d] < in->dims[d])
                break;
            o -= ostride[d] * in->dims[d];
            idx[d] = 0;
        }
    }
    for (size_t i = 0; i < n_out; i++)
        acc[i] = sums32[i];
}

static int reduce_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    uint32_t rank = in->rank;
    if (rank == 0)
        return ANEURALNETWORKS_OP_FAILED;
    uint32_t last = rank - 1, row_len = in->dims[last];
    size_t n_out = nn_tensor_count(out);
    double *acc = c->scratch, *row = acc + n_out;
    if (acc == NULL || c->scratch_bytes < (n_out + row_len) * sizeof(double))
        return ANEURALNETWORKS_OP_FAILED;
    nn_rank_buf buf;
    int err = nn_rank_buf_get(&buf, rank * (sizeof(size_t) + sizeof(uint32_t) + sizeof(bool)));
    if (err != NN_OK) {
        nn_rank_buf_free(&buf);
        return err;
    }
    size_t *ostride = buf.p;
    uint32_t *idx = (uint32_t *)(ostride + rank);
    bool *mask = (bool *)(idx + rank);
    if (shp_axes_mask(c->in[1], rank, mask)) {
        nn_rank_buf_free(&buf);
        return ANEURALNETWORKS_OP_FAILED;
    }
    memset(idx, 0, rank * sizeof *idx);
    int32_t op = c->op_type;
    double init = reduce_init(op);
    for (size_t i = 0; i < n_out; i++)
        acc[i] = init;
    /* Output strides over the input's dims, 0 on reduced dims. */
    size_t s = 1;
    for (uint32_t d = rank; d-- > 0;) {
        ostride[d] = mask[d] ? 0 : s;
        if (!mask[d])
            s *= in->dims[d];
    }
    fold_fn fold = reduce_fold(op);
    size_t n_in = nn_tensor_count(in), o = 0;
    bool q8_sums = op == ANEURALNETWORKS_MEAN && nn_type_is_quant8(in->type) && n_out > 0 &&
                   n_in / n_out <= INT32_MAX / 255 &&
                   c->scratch_bytes >= (n_out + row_len) * sizeof(double) + n_out * sizeof(int32_t);
    if (q8_sums)
        q8_mean_sums(in, ostride, idx, n_out, (int32_t *)(void *)(row + row_len), acc);
    /* One innermost row at a time, the outer dims walked as an odometer. */
    for (size_t start = 0; !q8_sums && start < n_in && row_len > 0; start += row_len) {
        load_row(in->data, start, row_len, in->type, row);
        fold(acc + o, ostride[last], row, row_len);
        for (uint32_t d = last; d-- > 0;) {
            o += ostride[d];
            if (++idx[d] < in->dims[d])
                break;
            o -= ostride[d] * in->dims[d];
            idx[d] = 0;
        }
    }
    size_t count = n_out ? n_in / n_out : 0;
    for (size_t i = 0; i < n_out; i++) {
        double v = acc[i];
        if (op == ANEURALNETWORKS_MEAN) {
            /* Quant8 means truncate toward zero as the reference kernels do. */
            if (nn_type_is_quant8(in->type))
                v = count ? trunc(v / (double)count) : (double)in->zero_point;
            else
                v = count ? v / (double)count : NAN;
        }
        store(out->data, i, out->type, v);
    }
    nn_rank_buf_free(&buf);
    return NN_OK;
}

#define REDUCE_DEF(NAME)                                                                           \
    const nn_op_def nn_op_##NAME = {                                                               \
        .code = ANEURALNETWORKS_##NAME,                                                            \
        .name = #NAME,                                                                             \
        .validate = reduce_validate,                                                               \
        .prepare = reduce_prepare,                                                                 \
        .execute = reduce_execute,                                                                 \
    };

REDUCE_DEF(MEAN)
REDUCE_DEF(REDUCE_SUM)
REDUCE_DEF(REDUCE_PROD)
REDUCE_DEF(REDUCE_MAX)
REDUCE_DEF(REDUCE_MIN)
REDUCE_DEF(REDUCE_ANY)
REDUCE_DEF(REDUCE_ALL)

/* ---- ARGMAX, ARGMIN ---- */

#define ARG_TYPES SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_I32, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})

static int arg_validate(const nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, 2, 2, 1) || shp_check_type(c, in->type, ARG_TYPES) ||
        nn_check_quant(in) || nn_check_type(c->in[1], ANEURALNETWORKS_INT32) ||
        nn_check_type(c->out[0], T_I32))
        return NN_BAD;
    if (shp_check_axis_value(c, 1, in->rank))
        return NN_BAD;
    return shp_validate_shapes(c, arg_prepare);
}

static int arg_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (c->in[1]->data == NULL)
        return NN_OK;
    uint32_t a;
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a))
        return shp_value_error(c->in[1]);
    int err = nn_tensor_set_rank(c->out[0], in->rank > 1 ? in->rank - 1 : 1);
    if (err)
        return err;
    for (uint32_t i = 0, r = 0; i < in->rank; i++)
        if (i != a)
            c->out[0]->dims[r++] = in->dims[i];
    if (in->rank == 1)
        c->out[0]->dims[0] = 1;
    return NN_OK;
}

static int arg_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t a;
    if (!shp_axis(nn_scalar_i32(c->in[1]), in->rank, &a) || in->dims[a] == 0)
        return ANEURALNETWORKS_OP_FAILED;
    if (!nn_index_fits_i32(in->dims[a])) {
        nn_vlog("%s: %u elements along the axis: an index would not fit the int32 output",
                c->op_type == ANEURALNETWORKS_ARGMAX ? "ARGMAX" : "ARGMIN", in->dims[a]);
        return ANEURALNETWORKS_OP_FAILED;
    }
    bool is_max = c->op_type == ANEURALNETWORKS_ARGMAX;
    size_t outer = nn_dims_product(in, 0, a), inner = nn_dims_product(in, a + 1, in->rank);
    uint32_t len = in->dims[a];
    int32_t *out = c->out[0]->data;
    for (size_t o = 0; o < outer; o++) {
        for (size_t i = 0; i < inner; i++) {
            size_t base = o * len * inner + i;
            double best = load(in->data, base, in->type);
            int32_t bi = 0;
            for (uint32_t k = 1; k < len; k++) {
                double v = load(in->data, base + k * inner, in->type);
                if (is_max ? v > best : v < best) {
                    best = v;
                    bi = (int32_t)k;
                }
            }
            out[o * inner + i] = bi;
        }
    }
    return NN_OK;
}

const nn_op_def nn_op_ARGMAX = {
    .code = ANEURALNETWORKS_ARGMAX,
    .name = "ARGMAX",
    .validate = arg_validate,
    .prepare = arg_prepare,
    .execute = arg_execute,
};

const nn_op_def nn_op_ARGMIN = {
    .code = ANEURALNETWORKS_ARGMIN,
    .name = "ARGMIN",
    .validate = arg_validate,
    .prepare = arg_prepare,
    .execute = arg_execute,
};

/* ---- TOPK_V2 ---- */

typedef struct topk_item {
    double v;
    int32_t i;
} topk_item;

static int topk_validate(const nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, 2, 2, 2) || shp_check_type(c, in->type, ARG_TYPES) ||
        nn_check_type(c->in[1], ANEURALNETWORKS_INT32) || shp_check_same_q(in, c->out[0]) ||
        nn_check_type(c->out[1], T_I32))
        return NN_BAD;
    /* Android's TOPK_V2 checks k when it prepares. */
    if (c->in[1]->data &&
        nn_check_value(c, nn_scalar_i32(c->in[1]) >= 1, "input 1 (k) %d is below 1",
                       nn_scalar_i32(c->in[1])))
        return NN_BAD;
    return shp_validate_shapes(c, topk_prepare);
}

static int topk_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (c->in[1]->data == NULL)
        return NN_OK;
    int32_t k = nn_scalar_i32(c->in[1]);
    if (in->rank == 0 || k < 1 || (uint32_t)k > in->dims[in->rank - 1])
        return shp_value_error(c->in[1]);
    for (uint32_t i = 0; i < 2; i++) {
        int err = nn_tensor_copy_shape(c->out[i], in);
        if (err)
            return err;
        c->out[i]->dims[in->rank - 1] = (uint32_t)k;
    }
    /* Rows too long for int32 indices fail in execute: ask no scratch. */
    uint32_t len = in->dims[in->rank - 1];
    c->scratch_bytes = nn_index_fits_i32(len) ? len * sizeof(topk_item) : 0;
    return NN_OK;
}

/* Descending by value; equal values put the larger index first. NaN sorts
 * above everything so the order stays total. */
static int topk_cmp(const void *pa, const void *pb)
{
    const topk_item *a = pa, *b = pb;
    bool an = isnan(a->v), bn = isnan(b->v);
    if (an != bn)
        return an ? -1 : 1;
    if (!an && a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return a->i > b->i ? -1 : (a->i < b->i);
}

static int topk_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t len = in->dims[in->rank - 1];
    uint32_t k = (uint32_t)nn_scalar_i32(c->in[1]);
    topk_item *items = c->scratch;
    if (!nn_index_fits_i32(len)) {
        nn_vlog("TOPK_V2: %u elements per row: an index would not fit the int32 output", len);
        return ANEURALNETWORKS_OP_FAILED;
    }
    if (items == NULL || c->scratch_bytes < len * sizeof *items || k > len)
        return ANEURALNETWORKS_OP_FAILED;
    size_t rows = nn_dims_product(in, 0, in->rank - 1);
    int32_t *idx = c->out[1]->data;
    for (size_t r = 0; r < rows; r++) {
        for (uint32_t i = 0; i < len; i++) {
            items[i].v = load(in->data, r * len + i, in->type);
            items[i].i = (int32_t)i;
        }
        qsort(items, len, sizeof *items, topk_cmp);
        for (uint32_t i = 0; i < k; i++) {
            /* Copy the element bits so values pass through unchanged. */
            size_t elem = nn_type_size(in->type);
            memcpy((char *)c->out[0]->data + (r * k + i) * elem,
                   (const char *)in->data + (r * len + (size_t)items[i].i) * elem, elem);
            idx[r * k + i] = items[i].i;
        }
    }
    return NN_OK;
}

const nn_op_def nn_op_TOPK_V2 = {
    .code = ANEURALNETWORKS_TOPK_V2,
    .name = "TOPK_V2",
    .validate = topk_validate,
    .prepare = topk_prepare,
    .execute = topk_execute,
};
