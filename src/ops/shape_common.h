/* Helpers shared by the shape, lookup, resize and reduce operations. */
#ifndef NN_OPS_SHAPE_COMMON_H
#define NN_OPS_SHAPE_COMMON_H

#include <string.h>

#include "ops/op.h"

#define FL1 ANEURALNETWORKS_FEATURE_LEVEL_1
#define FL2 ANEURALNETWORKS_FEATURE_LEVEL_2
#define FL3 ANEURALNETWORKS_FEATURE_LEVEL_3
#define FL4 ANEURALNETWORKS_FEATURE_LEVEL_4
#define FL6 ANEURALNETWORKS_FEATURE_LEVEL_6
#define FL7 ANEURALNETWORKS_FEATURE_LEVEL_7

#define T_F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define T_F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define T_I32 ANEURALNETWORKS_TENSOR_INT32
#define T_QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define T_QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define T_B8 ANEURALNETWORKS_TENSOR_BOOL8

#define NN_OK ANEURALNETWORKS_NO_ERROR
#define NN_BAD ANEURALNETWORKS_BAD_DATA

/* A tensor type and the feature level that introduced it for an operation. */
typedef struct shp_type_level {
    int32_t type;
    int32_t level;
} shp_type_level;

#define SHP_TYPES(...) ((const shp_type_level[]){__VA_ARGS__, {-1, 0}})

/* BAD_DATA unless type is in the {-1}-terminated list at the call's level. */
int shp_check_type(const nn_op_call *c, int32_t type, const shp_type_level *list);

/* Optional scalar input idx (e.g. a layout flag): absent, omitted, or of
 * the given type at a feature level of at least `level`. */
int shp_check_opt_scalar(const nn_op_call *c, uint32_t idx, int32_t type, int32_t level);

/* Value of optional BOOL input idx; false when absent or omitted. */
bool shp_opt_bool(const nn_op_call *c, uint32_t idx);

/* True when input idx is present and has a value. */
static inline bool shp_present(const nn_op_call *c, uint32_t idx)
{
    return idx < c->n_in && !c->in[idx]->omitted;
}

/* Output is the input type with, for quant8, the same scale and zero point. */
int shp_check_same_q(const nn_tensor *in, const nn_tensor *out);

/* Maps axis in [-rank, rank) to [0, rank); false when out of range. */
static inline bool shp_axis(int32_t axis, uint32_t rank, uint32_t *out)
{
    int64_t a = axis < 0 ? (int64_t)axis + rank : axis;
    if (a < 0 || a >= (int64_t)rank)
        return false;
    *out = (uint32_t)a;
    return true;
}

/* A constant axis (INT32 input idx) for a tensor of the given rank, when
 * both are known, through nn_check_value: Android's operations check axis
 * values when they prepare, so a model with one out of range builds and
 * computing it fails. */
int shp_check_axis_value(const nn_op_call *c, uint32_t idx, uint32_t rank);

/* Element i of an INT32 tensor (data may be unaligned). */
static inline int32_t shp_i32(const nn_tensor *t, size_t i)
{
    int32_t v;
    memcpy(&v, (const char *)t->data + i * sizeof v, sizeof v);
    return v;
}

/* True when the INT32 tensor holds data for all of its elements. */
bool shp_i32_ready(const nn_tensor *t);

/* 4-D tensor dims as NHWC whatever the layout. */
typedef struct shp_nhwc {
    uint32_t n, h, w, c;
} shp_nhwc;

static inline shp_nhwc shp_get_nhwc(const nn_tensor *t, bool nchw)
{
    shp_nhwc s = {t->dims[0], nchw ? t->dims[2] : t->dims[1], nchw ? t->dims[3] : t->dims[2],
                  nchw ? t->dims[1] : t->dims[3]};
    return s;
}

static inline void shp_set_nhwc(nn_tensor *t, bool nchw, shp_nhwc s)
{
    nn_tensor_set_small_rank(t, 4);
    t->dims[0] = s.n;
    t->dims[nchw ? 2 : 1] = s.h;
    t->dims[nchw ? 3 : 2] = s.w;
    t->dims[nchw ? 1 : 3] = s.c;
}

/* Error for a bad value read from t's data: BAD_DATA when t is a constant
 * (the model is invalid), OP_FAILED when it came in at execution. */
static inline int shp_value_error(const nn_tensor *t)
{
    return t->constant ? NN_BAD : ANEURALNETWORKS_OP_FAILED;
}

/* Sets an output shape; BAD_DATA when an element count overflows. */
int shp_set_shape(nn_tensor *t, uint32_t rank, const uint32_t *dims);
/* BAD_DATA when t has more elements than 32-bit indices reach. */
int shp_check_elements(const nn_tensor *t);

/* A tensor declared with unspecified rank gets its rank at execution: an
 * operation limited to max_rank checks it then, and computing fails, as
 * Android's CPU operations do (BAD_DATA here, OP_FAILED from compute). */
static inline int shp_check_rank_at_prepare(const nn_tensor *t, uint32_t max_rank)
{
    return t->rank <= max_rank
                   ? NN_OK
                   : nn_invalid("a tensor of rank %u, the operation takes rank %u at most",
                                t->rank, max_rank);
}

/* Whether input 0's rank is acceptable: unknown or in [lo, hi]. */
static inline bool shp_rank_in(const nn_tensor *t, uint32_t lo, uint32_t hi)
{
    return nn_check_rank(t, lo, hi) == NN_OK;
}

/* Reads the reduction axes input (1-D INT32) into a per-dim mask. */
int shp_axes_mask(const nn_tensor *axes, uint32_t rank, bool *mask);

/* Shape of a reduction: reduced dims become 1 (keep_dims) or go away;
 * with nothing left the shape is [1]. */
int shp_reduced_shape(const nn_tensor *in, const bool *mask, bool keep_dims, nn_tensor *out);

#define NN_MAX_OUTPUTS 16

/* End of a validate: when every input shape is known, runs prepare on
 * copies of the outputs so shape conflicts and bad constant values are
 * BAD_DATA at addOperation. */
int shp_validate_shapes(const nn_op_call *c, int (*prepare)(nn_op_call *));

#endif
