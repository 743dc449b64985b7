/*
 * RANDOM_MULTINOMIAL: independent draws from softmax(logits) per row.
 * Non-zero seeds make the draws reproducible; both seeds zero take a key
 * from the system's entropy. Each row has its own Philox sub-stream.
 */
#include <math.h>
#include <stdlib.h>

#include "kernels/rng.h"
#include "ops/detection_common.h"

static int rm_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 1))
        return SEQ_BAD;
    if (c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_3)
        return nn_invalid("RANDOM_MULTINOMIAL needs feature level 3");
    const nn_tensor *logits = c->in[0];
    if (logits->type != ANEURALNETWORKS_TENSOR_FLOAT32 &&
        logits->type != ANEURALNETWORKS_TENSOR_FLOAT16)
        return nn_invalid("input 0 (logits) of type %s", nn_type_name(logits->type));
    if (nn_check_rank(logits, 2, 2) || seq_check_scalar(c->in[1], ANEURALNETWORKS_INT32) ||
        seq_check_tensor(c->in[2], ANEURALNETWORKS_TENSOR_INT32, 1) ||
        nn_expect_type(c, true, 0, ANEURALNETWORKS_TENSOR_INT32))
        return SEQ_BAD;
    /* Android's validation checks types only; a sample count that gives
     * no output fails the computation. */
    if (c->in[1]->data != NULL &&
        nn_check_value(c, nn_scalar_i32(c->in[1]) > 0, "input 1 (samples) %d is not positive",
                       nn_scalar_i32(c->in[1])))
        return SEQ_BAD;
    if (c->in[2]->rank == 1 && c->in[2]->dims[0] != 0 && c->in[2]->dims[0] != 2)
        return nn_invalid("input 2 (seeds) of %u elements, expected 2", c->in[2]->dims[0]);
    return SEQ_OK;
}

static int rm_prepare(nn_op_call *c)
{
    const nn_tensor *logits = c->in[0], *seeds = c->in[2];
    if (logits->rank != 2 || seeds->rank != 1 || seeds->dims[0] != 2)
        return SEQ_BAD;
    if (c->in[1]->data == NULL)
        return SEQ_OK;
    int32_t n = nn_scalar_i32(c->in[1]);
    if (n <= 0)
        return SEQ_BAD;
    nn_tensor *out = c->out[0];
    nn_tensor_set_small_rank(out, 2);
    out->dims[0] = logits->dims[0];
    out->dims[1] = (uint32_t)n;
    return SEQ_OK;
}

static int rm_execute(nn_op_call *c)
{
    const nn_tensor *lt = c->in[0];
    size_t rows = lt->dims[0], classes = lt->dims[1];
    size_t samples = (size_t)nn_scalar_i32(c->in[1]);
    const int32_t *seeds = c->in[2]->data;
    int32_t *out = c->out[0]->data;
    if (classes == 0)
        return ANEURALNETWORKS_OP_FAILED;
    uint64_t key = ((uint64_t)(uint32_t)seeds[0] << 32) | (uint32_t)seeds[1];
    if (key == 0)
        key = nn_rng_entropy();
    float *logits = seq_load_alloc(lt);
    double *cdf = malloc(classes * sizeof *cdf);
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (logits == NULL || cdf == NULL)
        goto done;
    for (size_t r = 0; r < rows; r++) {
        const float *l = logits + r * classes;
        float mx = -INFINITY;
        for (size_t k = 0; k < classes; k++)
            mx = fmaxf(mx, l[k]);
        double total = 0.0;
        for (size_t k = 0; k < classes; k++) {
            /* exp(-inf - -inf) would be NaN: an all -inf row is uniform. */
            total += isinf(mx) && mx < 0 ? 1.0 : exp((double)l[k] - (double)mx);
            cdf[k] = total;
        }
        nn_rng rng;
        nn_rng_init(&rng, key, r);
        for (size_t s = 0; s < samples; s++) {
            double u = nn_rng_uniform(&rng) * total;
            size_t lo = 0, hi = classes - 1;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (cdf[mid] > u)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            out[r * samples + s] = (int32_t)lo;
        }
    }
    rc = SEQ_OK;
done:
    free(logits);
    free(cdf);
    return rc;
}

const nn_op_def nn_op_RANDOM_MULTINOMIAL = {
    .code = ANEURALNETWORKS_RANDOM_MULTINOMIAL,
    .name = "RANDOM_MULTINOMIAL",
    .validate = rm_validate,
    .prepare = rm_prepare,
    .execute = rm_execute,
};
