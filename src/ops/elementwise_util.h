/* Validation helpers shared by the element-wise operation families. */
#ifndef NN_OPS_ELEMENTWISE_UTIL_H
#define NN_OPS_ELEMENTWISE_UTIL_H

#include "ops/op.h"

#define NN_FL1 ANEURALNETWORKS_FEATURE_LEVEL_1
#define NN_FL2 ANEURALNETWORKS_FEATURE_LEVEL_2
#define NN_FL3 ANEURALNETWORKS_FEATURE_LEVEL_3
#define NN_FL4 ANEURALNETWORKS_FEATURE_LEVEL_4

/* A tensor type an operation accepts and the feature level it appeared at.
 * Lists end with an entry of level 0. */
typedef struct nn_ew_type_level {
    int32_t type;
    int32_t level;
} nn_ew_type_level;

/* NO_ERROR if type is in the list at the call's feature level. */
int nn_ew_check_type_level(const nn_op_call *c, int32_t type, const nn_ew_type_level *list);

/* A FuseCode operand: INT32 scalar; when its value is known, in [0, 3] and 0
 * for integer tensors. */
int nn_ew_check_fuse(const nn_op_call *c, const nn_tensor *act, bool integer_tensor);

/* Output 0 takes the broadcast shape of inputs 0 and 1 (rank <= max_rank). */
int nn_ew_prepare_broadcast(nn_op_call *c, uint32_t max_rank);

/* Output 0 takes the shape of input 0. */
int nn_ew_prepare_same_shape(nn_op_call *c);

/* True when both tensors carry the same quantization parameters. */
bool nn_ew_same_quant(const nn_tensor *a, const nn_tensor *b);

#endif
