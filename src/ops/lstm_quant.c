/*
 * QUANTIZED_16BIT_LSTM: one LSTM step with 8-bit activations and weights
 * and a 16-bit cell state, in integer arithmetic only. Gate
 * pre-activations are int16 with 3 integer bits (scale 2^-12), the cell
 * state int16 with 4 integer bits (scale 2^-11), inputs and outputs uint8
 * with scale 1/128 and zero point 128.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm.h"
#include "kernels/lstm_q.h"
#include "kernels/quant.h"
#include "ops/detection_common.h"

#define T_QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define T_QS16 ANEURALNETWORKS_TENSOR_QUANT16_SYMM
#define T_I32 ANEURALNETWORKS_TENSOR_INT32

enum { Q_X = 0, Q_W = 1, Q_R = 5, Q_BIAS = 9, Q_C = 13, Q_H = 14 };

/* The fixed quantizations of the operation's activations and state: values
 * Android's runtime checks when computing (nn_check_value). */
static int check_act_q(const nn_op_call *c, const nn_tensor *t, const char *what)
{
    if (t->type != T_QA8)
        return nn_invalid("%s of type %s, expected TENSOR_QUANT8_ASYMM", what,
                          nn_type_name(t->type));
    return nn_check_value(c, t->scale == 1.0f / 128.0f && t->zero_point == 128,
                          "%s scale %g zero point %d, expected 1/128 and 128", what,
                          (double)t->scale, t->zero_point);
}

static int check_state_q(const nn_op_call *c, const nn_tensor *t, const char *what)
{
    if (t->type != T_QS16)
        return nn_invalid("%s of type %s, expected TENSOR_QUANT16_SYMM", what,
                          nn_type_name(t->type));
    return nn_check_value(c, t->scale == 1.0f / 2048.0f && t->zero_point == 0,
                          "%s scale %g zero point %d, expected 1/2048 and 0", what,
                          (double)t->scale, t->zero_point);
}

static int q16_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 15, 15, 2) || c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_3)
        return SEQ_BAD;
    const nn_tensor *x = c->in[Q_X], *w0 = c->in[Q_W];
    if (check_act_q(c, x, "input") || nn_check_rank(x, 2, 2) ||
        check_act_q(c, c->in[Q_H], "previous output") || nn_check_rank(c->in[Q_H], 2, 2) ||
        check_state_q(c, c->in[Q_C], "previous cell state") || nn_check_rank(c->in[Q_C], 2, 2))
        return SEQ_BAD;
    /* All eight weight tensors share one quantization. */
    for (int i = Q_W; i < Q_BIAS; i++) {
        const nn_tensor *w = c->in[i];
        if (w->omitted || seq_check_tensor(w, T_QA8, 2) ||
            nn_check_value(c, w->scale == w0->scale && w->zero_point == w0->zero_point,
                           "input %d quantization differs from input 1's", i))
            return SEQ_BAD;
    }
    for (int i = Q_BIAS; i < Q_C; i++) {
        const nn_tensor *b = c->in[i];
        if (b->omitted || seq_check_tensor(b, T_I32, 1) || b->zero_point != 0 ||
            nn_check_value(c, fabsf(b->scale - x->scale * w0->scale) <= 1e-6f * b->scale + 1e-12f,
                           "input %d (bias) scale %g != input scale * weights scale %g", i,
                           (double)b->scale, (double)(x->scale * w0->scale)))
            return SEQ_BAD;
    }
    if (check_state_q(c, c->out[0], "cell state output") || check_act_q(c, c->out[1], "output"))
        return SEQ_BAD;
    return SEQ_OK;
}

static int q16_prepare(nn_op_call *c)
{
    const nn_tensor *x = c->in[Q_X];
    if (x->rank != 2 || c->in[Q_W]->rank != 2)
        return SEQ_BAD;
    uint32_t B = x->dims[0], I = x->dims[1], O = c->in[Q_W]->dims[0];
    for (int g = 0; g < 4; g++) {
        const nn_tensor *w = c->in[Q_W + g], *r = c->in[Q_R + g], *b = c->in[Q_BIAS + g];
        if (w->rank != 2 || w->dims[0] != O || w->dims[1] != I || r->rank != 2 ||
            r->dims[0] != O || r->dims[1] != O || b->rank != 1 || b->dims[0] != O)
            return SEQ_BAD;
    }
    const nn_tensor *cs = c->in[Q_C], *h = c->in[Q_H];
    if (cs->rank != 2 || cs->dims[0] != B || cs->dims[1] != O || h->rank != 2 ||
        h->dims[0] != B || h->dims[1] != O)
        return SEQ_BAD;
    for (int i = 0; i < 2; i++) {
        nn_tensor_set_small_rank(c->out[i], 2);
        c->out[i]->dims[0] = B;
        c->out[i]->dims[1] = O;
    }
    if (B > 0 && (I >= 65536 || O >= 65536))
        return SEQ_BAD;
    return SEQ_OK;
}

/*
 * The four gates' weights stacked into one packed [4 * O, I + O] matrix and
 * their biases into one vector. The reference multiplies the concatenation
 * [x, h] by weight rows laid out as [recurrent | input]: when inputSize !=
 * outputSize the columns do not line up with their meaning, and the
 * conformance vectors encode exactly that product, so it is reproduced here.
 */
typedef struct q16_weights {
    nn_qgemm_packed *w;
    int32_t *bias;
} q16_weights;

static void q16_weights_free(q16_weights *qw)
{
    if (qw == NULL)
        return;
    nn_qgemm_packed_free(qw->w);
    free(qw->bias);
    free(qw);
}

static void q16_release(void *state)
{
    q16_weights_free(state);
}

static int q16_weights_build(const nn_op_call *c, q16_weights **out)
{
    *out = NULL;
    size_t I = c->in[Q_W]->dims[1], O = c->in[Q_W]->dims[0], K = I + O;
    q16_weights *qw = calloc(1, sizeof *qw);
    uint8_t *wcat = malloc(4 * O * K + 1);
    int rc = qw && wcat ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == SEQ_OK) {
        for (int g = 0; g < 4; g++) {
            const uint8_t *w = c->in[Q_W + g]->data, *r = c->in[Q_R + g]->data;
            for (size_t o = 0; o < O; o++) {
                uint8_t *row = wcat + ((size_t)g * O + o) * K;
                memcpy(row, r + o * O, O);
                memcpy(row + O, w + o * I, I);
            }
        }
        nn_q8_matrix wm = {wcat, K, false, c->in[Q_W]->zero_point, false};
        qw->w = nn_qgemm_pack(4 * O, K, &wm);
        qw->bias = malloc(4 * O * sizeof(int32_t) + 1);
        if (qw->w == NULL || qw->bias == NULL)
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        for (int g = 0; g < 4 && rc == SEQ_OK; g++)
            memcpy(qw->bias + (size_t)g * O, c->in[Q_BIAS + g]->data, O * sizeof(int32_t));
    }
    free(wcat);
    if (rc != SEQ_OK) {
        q16_weights_free(qw);
        return rc;
    }
    *out = qw;
    return SEQ_OK;
}

/* Packs constant weights once; other cases build them per execution. */
static int q16_plan(nn_op_call *c, void **state)
{
    *state = NULL;
    const nn_tensor *w0 = c->in[Q_W];
    if (w0->rank != 2)
        return SEQ_OK;
    uint32_t O = w0->dims[0], I = w0->dims[1];
    for (int i = Q_W; i < Q_C; i++) {
        const nn_tensor *t = c->in[i];
        bool bias = i >= Q_BIAS;
        uint32_t cols = bias ? 0 : (i < Q_R ? I : O);
        if (!t->constant || t->data == NULL || t->rank != (bias ? 1u : 2u) || t->dims[0] != O ||
            (!bias && t->dims[1] != cols))
            return SEQ_OK;
    }
    if (O == 0 || I >= 65536 || O >= 65536)
        return SEQ_OK;
    q16_weights *qw;
    int rc = q16_weights_build(c, &qw);
    if (rc == SEQ_OK)
        *state = qw;
    return rc;
}

static int q16_execute(nn_op_call *c)
{
    const nn_tensor *x = c->in[Q_X];
    size_t B = x->dims[0], I = x->dims[1], O = c->in[Q_W]->dims[0], K = I + O;
    /* Accumulators (scale s_x * s_w) to int16 with 3 integer bits. */
    int32_t mult;
    int shift;
    nn_quantize_multiplier((double)x->scale * c->in[Q_W]->scale * 4096.0, &mult, &shift);
    q16_weights *own = NULL;
    const q16_weights *qw = c->state;
    int rc = SEQ_OK;
    if (qw == NULL) {
        rc = q16_weights_build(c, &own);
        qw = own;
    }
    int32_t *acc = malloc((4 * B * O + 1) * sizeof(int32_t));
    uint8_t *cat = malloc(B * K + 1);
    if (rc == SEQ_OK && (acc == NULL || cat == NULL))
        rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc != SEQ_OK) {
        q16_weights_free(own);
        free(acc);
        free(cat);
        return rc;
    }
    const uint8_t *xd = x->data, *hd = c->in[Q_H]->data;
    for (size_t b = 0; b < B; b++) {
        memcpy(cat + b * K, xd + b * I, I);
        memcpy(cat + b * K + I, hd + b * O, O);
    }
    /* acc row b: the four gates' accumulators side by side. */
    nn_q8_matrix ca = {cat, K, false, 128, false};
    nn_qgemm_prepacked_i32(B, &ca, qw->w, qw->bias, acc, 4 * O);
    for (size_t i = 0; i < 4 * B * O; i++) {
        int32_t v = nn_mul_by_quant_mult(acc[i], mult, shift);
        acc[i] = nn_clamp_i32(v, INT16_MIN, INT16_MAX);
    }
    const int16_t *c_in = c->in[Q_C]->data;
    int16_t *c_out = c->out[0]->data;
    uint8_t *h_out = c->out[1]->data;
    for (size_t i = 0; i < B * O; i++) {
        const int32_t *a = acc + (i / O) * 4 * O + i % O;
        int16_t in_gate = nn_q16_logistic((int16_t)a[0], 3);
        int16_t forget = nn_q16_logistic((int16_t)a[O], 3);
        int16_t modulation = nn_q16_tanh((int16_t)a[2 * O], 3);
        int16_t out_gate = nn_q16_logistic((int16_t)a[3 * O], 3);
        int16_t in_mod = nn_q16_mul(in_gate, modulation);
        int16_t kept = nn_q16_mul(forget, c_in[i]);
        /* in_mod has 0 integer bits: to the state's 4 by dividing by 16. */
        int16_t state = nn_q16_sat_add(nn_q16_rdiv_pot(in_mod, 4), kept);
        /* tanh reads the state rescaled to 3 integer bits (saturating). */
        int32_t s3 = nn_clamp_i32((int32_t)state * 2, INT16_MIN, INT16_MAX);
        int16_t out = nn_q16_mul(out_gate, nn_q16_tanh((int16_t)s3, 3));
        int32_t q = nn_q16_rdiv_pot(out, 8) + 128;
        if (c_out)
            c_out[i] = state;
        if (h_out)
            h_out[i] = (uint8_t)nn_clamp_i32(q, 0, 255);
    }
    q16_weights_free(own);
    free(acc);
    free(cat);
    return SEQ_OK;
}

const nn_op_def nn_op_QUANTIZED_16BIT_LSTM = {
    .code = ANEURALNETWORKS_QUANTIZED_16BIT_LSTM,
    .name = "QUANTIZED_16BIT_LSTM",
    .validate = q16_validate,
    .prepare = q16_prepare,
    .execute = q16_execute,
    .plan = q16_plan,
    .release = q16_release,
};

/* ------------------------------------------------------------------ */
/* QUANTIZED_LSTM                                                      */
/*
 * Integer LSTM step: int8 input/output (asymmetric), int8 symmetric
 * weights, int16 gates and cell state. Each gate's matmul results are
 * requantized to the gate's intermediate scale (inputs 26..29) as int16,
 * optionally layer-normalised, then squashed to Q0.15.
 */

enum {
    QL_X = 0, QL_W = 1, QL_R = 5, QL_PEEP = 9, QL_BIAS = 12, QL_PROJ = 16, QL_PROJ_B = 17,
    QL_H = 18, QL_C = 19, QL_LN = 20, QL_CELL_CLIP = 24, QL_PROJ_CLIP = 25, QL_ISCALE = 26,
    QL_HZP = 30, QL_HSCALE = 31, QL_N_IN = 32
};

#define T_QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define T_QS8 ANEURALNETWORKS_TENSOR_QUANT8_SYMM

static bool ql_has(const nn_op_call *c, int i)
{
    return !c->in[i]->omitted;
}

static int ql_validate(const nn_op_call *c)
{
    if (c->n_in != QL_N_IN || c->n_out != 3 || c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_4)
        return SEQ_BAD;
    if (seq_check_tensor(c->in[QL_X], T_QA8S, 2) || seq_check_tensor(c->in[QL_H], T_QA8S, 2) ||
        seq_check_tensor(c->in[QL_C], T_QS16, 2))
        return SEQ_BAD;
    for (int g = 0; g < 4; g++) {
        bool opt = g == 0;
        int idx[4] = {QL_W + g, QL_R + g, QL_BIAS + g, QL_LN + g};
        int32_t types[4] = {T_QS8, T_QS8, T_I32, T_QS16};
        for (int k = 0; k < 4; k++) {
            const nn_tensor *t = c->in[idx[k]];
            if (t->omitted) {
                if (!opt && k < 3)
                    return SEQ_BAD;
                continue;
            }
            if (seq_check_tensor(t, types[k], 0))
                return SEQ_BAD;
        }
    }
    for (int g = 0; g < 3; g++)
        if (ql_has(c, QL_PEEP + g) && seq_check_tensor(c->in[QL_PEEP + g], T_QS16, 0))
            return SEQ_BAD;
    if ((ql_has(c, QL_PROJ) && seq_check_tensor(c->in[QL_PROJ], T_QS8, 0)) ||
        (ql_has(c, QL_PROJ_B) && seq_check_tensor(c->in[QL_PROJ_B], T_I32, 0)))
        return SEQ_BAD;
    /* Optional groups, on what is known before execution. */
    int bad = 0;
    int g_cifg[3] = {QL_W, QL_R, QL_BIAS};
    int input_gate = seq_group(c, g_cifg, 3, &bad);
    int g_ln[3] = {QL_LN + 1, QL_LN + 2, QL_LN + 3};
    int ln = seq_group(c, g_ln, 3, &bad);
    int ln_i = seq_presence(c, QL_LN);
    if (ln_i != SEQ_UNKNOWN && ln != SEQ_UNKNOWN && input_gate != SEQ_UNKNOWN &&
        (ln_i == SEQ_PRESENT) != (ln == SEQ_PRESENT && input_gate == SEQ_PRESENT))
        bad = 1;
    int g_peep[2] = {QL_PEEP + 1, QL_PEEP + 2};
    int peep = seq_group(c, g_peep, 2, &bad);
    int peep_i = seq_presence(c, QL_PEEP);
    if (peep_i != SEQ_UNKNOWN && peep != SEQ_UNKNOWN && input_gate != SEQ_UNKNOWN &&
        (peep_i == SEQ_PRESENT) != (peep == SEQ_PRESENT && input_gate == SEQ_PRESENT))
        bad = 1;
    if (seq_presence(c, QL_PROJ_B) == SEQ_PRESENT && seq_presence(c, QL_PROJ) == SEQ_ABSENT)
        bad = 1;
    if (bad)
        return nn_invalid("optional weights given in part: a group (CIFG, peephole, layer norm "
                          "or projection) must be all present or all omitted");
    for (int i = QL_CELL_CLIP; i <= QL_PROJ_CLIP; i++)
        if (ql_has(c, i) && (c->in[i]->type != ANEURALNETWORKS_FLOAT32 ||
                             (c->in[i]->data && nn_scalar_f32(c->in[i]) < 0.0f)))
            return SEQ_BAD;
    for (int i = QL_ISCALE; i < QL_HZP; i++)
        if (seq_check_scalar(c->in[i], ANEURALNETWORKS_FLOAT32))
            return SEQ_BAD;
    if (seq_check_scalar(c->in[QL_HZP], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[QL_HSCALE], ANEURALNETWORKS_FLOAT32))
        return SEQ_BAD;
    if (c->out[0]->type != T_QA8S || c->out[1]->type != T_QS16 || c->out[2]->type != T_QA8S)
        return SEQ_BAD;
    return SEQ_OK;
}

/* The cell state scale must be (close to) a power of two 2^shift. */
static bool ql_cell_shift(float scale, int *shift)
{
    *shift = 0;
    if (!(scale > 0.0f))
        return false;
    double lg = log2((double)scale);
    double r = round(lg);
    *shift = (int)r;
    return fabs(lg - r) < 1e-3;
}

static int ql_prepare(nn_op_call *c)
{
    const nn_tensor *x = c->in[QL_X], *wf = c->in[QL_W + 1], *rf = c->in[QL_R + 1];
    const nn_tensor *h = c->in[QL_H], *cs = c->in[QL_C];
    if (x->rank != 2 || wf->rank != 2 || rf->rank != 2 || h->rank != 2 || cs->rank != 2)
        return SEQ_BAD;
    uint32_t B = x->dims[0], I = x->dims[1], U = wf->dims[0], P = rf->dims[1];
    if (wf->dims[1] != I || rf->dims[0] != U || h->dims[0] != B || h->dims[1] != P ||
        cs->dims[0] != B || cs->dims[1] != U)
        return SEQ_BAD;
    for (int g = 0; g < 4; g++) {
        const nn_tensor *w = c->in[QL_W + g], *r = c->in[QL_R + g];
        if (ql_has(c, QL_W + g) && (w->rank != 2 || w->dims[0] != U || w->dims[1] != I))
            return SEQ_BAD;
        if (ql_has(c, QL_R + g) && (r->rank != 2 || r->dims[0] != U || r->dims[1] != P))
            return SEQ_BAD;
    }
    if (ql_has(c, QL_PROJ)) {
        const nn_tensor *p = c->in[QL_PROJ];
        if (p->rank != 2 || p->dims[0] != P || p->dims[1] != U)
            return SEQ_BAD;
    } else if (P != U) {
        return SEQ_BAD;
    }
    int shift;
    if (!ql_cell_shift(cs->scale, &shift))
        return SEQ_BAD;
    for (uint32_t i = 0; i < 3; i++)
        nn_tensor_set_small_rank(c->out[i], 2);
    c->out[0]->dims[0] = c->out[1]->dims[0] = c->out[2]->dims[0] = B;
    c->out[0]->dims[1] = c->out[2]->dims[1] = P;
    c->out[1]->dims[1] = U;
    return SEQ_OK;
}

/* The weight matrices packed for the GEMM: per gate the input and the
 * recurrent weights (NULL for the input gate with CIFG), the projection. */
typedef struct ql_weights {
    nn_qgemm_packed *w[4], *r[4], *proj;
} ql_weights;

static void ql_weights_free(ql_weights *qw)
{
    if (qw == NULL)
        return;
    for (int g = 0; g < 4; g++) {
        nn_qgemm_packed_free(qw->w[g]);
        nn_qgemm_packed_free(qw->r[g]);
    }
    nn_qgemm_packed_free(qw->proj);
    free(qw);
}

static void ql_release(void *state)
{
    ql_weights_free(state);
}

/* Packs the present weight tensor idx (int8 symmetric [rows, cols]). */
static int ql_pack(const nn_op_call *c, int idx, nn_qgemm_packed **p)
{
    *p = NULL;
    if (!ql_has(c, idx))
        return SEQ_OK;
    const nn_tensor *t = c->in[idx];
    nn_q8_matrix m = {t->data, t->dims[1], true, 0, false};
    *p = nn_qgemm_pack(t->dims[0], t->dims[1], &m);
    return *p ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
}

static int ql_weights_build(const nn_op_call *c, ql_weights **out)
{
    *out = NULL;
    ql_weights *qw = calloc(1, sizeof *qw);
    if (qw == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = ql_pack(c, QL_PROJ, &qw->proj);
    for (int g = 0; g < 4 && rc == SEQ_OK; g++) {
        rc = ql_pack(c, QL_W + g, &qw->w[g]);
        if (rc == SEQ_OK)
            rc = ql_pack(c, QL_R + g, &qw->r[g]);
    }
    if (rc != SEQ_OK) {
        ql_weights_free(qw);
        return rc;
    }
    *out = qw;
    return SEQ_OK;
}

/* Packs constant weights once (shapes as prepare checks them); other cases
 * build them per execution. */
static int ql_plan(nn_op_call *c, void **state)
{
    *state = NULL;
    const nn_tensor *wf = c->in[QL_W + 1], *rf = c->in[QL_R + 1];
    if (wf->rank != 2 || rf->rank != 2)
        return SEQ_OK;
    uint32_t I = wf->dims[1], U = wf->dims[0], P = rf->dims[1];
    for (int g = 0; g < 4; g++) {
        const nn_tensor *w = c->in[QL_W + g], *r = c->in[QL_R + g];
        if (ql_has(c, QL_W + g) && (!w->constant || !w->data || w->rank != 2 ||
                                    w->dims[0] != U || w->dims[1] != I))
            return SEQ_OK;
        if (ql_has(c, QL_R + g) && (!r->constant || !r->data || r->rank != 2 ||
                                    r->dims[0] != U || r->dims[1] != P))
            return SEQ_OK;
    }
    const nn_tensor *p = c->in[QL_PROJ];
    if (ql_has(c, QL_PROJ) &&
        (!p->constant || !p->data || p->rank != 2 || p->dims[0] != P || p->dims[1] != U))
        return SEQ_OK;
    ql_weights *qw;
    int rc = ql_weights_build(c, &qw);
    if (rc == SEQ_OK)
        *state = qw;
    return rc;
}

/* Adds the requantized product (a - a_zero)·Wᵀ (+ bias) into the int16
 * gate buffer g with saturation. */
static void ql_matmul_acc(size_t B, size_t U, size_t K, const int8_t *a, int32_t a_zero,
                          const nn_qgemm_packed *w, const int32_t *bias, double scale, int16_t *g,
                          int32_t *acc)
{
    int32_t mult;
    int shift;
    nn_quantize_multiplier(scale, &mult, &shift);
    nn_q8_matrix am = {a, K, true, a_zero, false};
    nn_qgemm_prepacked_i32(B, &am, w, bias, acc, U);
    for (size_t i = 0; i < B * U; i++) {
        int32_t v = nn_wrapping_add_i32(nn_mul_by_quant_mult(acc[i], mult, shift), g[i]);
        g[i] = (int16_t)nn_clamp_i32(v, INT16_MIN, INT16_MAX);
    }
}

/* Adds the requantized peephole product w ⊙ cell into g. */
static void ql_peephole(size_t B, size_t U, const int16_t *w, const int16_t *cell, double scale,
                        int16_t *g)
{
    int32_t mult;
    int shift;
    nn_quantize_multiplier(scale, &mult, &shift);
    for (size_t b = 0; b < B; b++)
        for (size_t u = 0; u < U; u++) {
            int32_t p = nn_mul_by_quant_mult((int32_t)w[u] * cell[b * U + u], mult, shift);
            g[b * U + u] = (int16_t)nn_clamp_i32(p + g[b * U + u], INT16_MIN, INT16_MAX);
        }
}

/* Integer layer normalisation of each row of g (reference arithmetic). */
static void ql_layer_norm(size_t B, size_t U, int16_t *g, const int16_t *w, const int32_t *bias,
                          double w_scale)
{
    int32_t ln_mult;
    int ln_shift;
    nn_quantize_multiplier(w_scale, &ln_mult, &ln_shift);
    double lim = 10000.0 * w_scale;
    int32_t variance_limit = lim < 1.0 ? (int32_t)lim : 1;
    for (size_t b = 0; b < B; b++) {
        int16_t *row = g + b * U;
        int64_t sum = 0, sum_sq = 0;
        for (size_t u = 0; u < U; u++) {
            sum += row[u];
            sum_sq += (int64_t)row[u] * row[u];
        }
        int32_t mean = (int32_t)(sum * 1024 / (int64_t)U);
        int32_t temp = (int32_t)((1 << 20) / (int64_t)U);
        int64_t variance = sum_sq * temp - (int64_t)mean * mean;
        int32_t var2 = (int32_t)(variance / (1 << 20));
        if (var2 < 1)
            var2 = variance_limit;
        int32_t inv_mult;
        int inv_shift;
        nn_q_inv_sqrt(var2, &inv_mult, &inv_shift);
        for (size_t u = 0; u < U; u++) {
            int32_t shifted = 1024 * (int32_t)row[u] - mean;
            int32_t rescaled = nn_mul_by_quant_mult(shifted, inv_mult, inv_shift);
            int64_t v3 = (int64_t)rescaled * w[u] + (bias ? bias[u] : 0);
            int32_t v4 = (int32_t)((v3 > 0 ? v3 + 512 : v3 - 512) / 1024);
            int32_t v5 = nn_mul_by_quant_mult(v4, ln_mult, ln_shift + 12);
            row[u] = (int16_t)nn_clamp_i32(v5, INT16_MIN, INT16_MAX);
        }
    }
}

static int ql_execute(nn_op_call *c)
{
    const nn_tensor *x = c->in[QL_X], *h = c->in[QL_H], *cs = c->in[QL_C];
    size_t B = x->dims[0], I = x->dims[1], U = c->in[QL_W + 1]->dims[0];
    size_t P = c->in[QL_R + 1]->dims[1];
    bool cifg = !ql_has(c, QL_W);
    bool ln = ql_has(c, QL_LN + 1);
    int cell_shift = 0;
    if (!ql_cell_shift(cs->scale, &cell_shift))
        return SEQ_BAD;
    float hscale = nn_scalar_f32(c->in[QL_HSCALE]);
    int32_t hzp = nn_scalar_i32(c->in[QL_HZP]);
    size_t BU = B * U;
    ql_weights *own = NULL;
    const ql_weights *qw = c->state;
    if (qw == NULL) {
        int err = ql_weights_build(c, &own);
        if (err != SEQ_OK)
            return err;
        qw = own;
    }
    int16_t *gates = calloc(4 * BU + 1, sizeof(int16_t));
    int32_t *acc = malloc((B * (U > P ? U : P) + 1) * sizeof(int32_t));
    int8_t *hid = malloc(BU + 1);
    if (gates == NULL || acc == NULL || hid == NULL) {
        free(gates);
        free(acc);
        free(hid);
        ql_weights_free(own);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    int16_t *gate[4] = {gates, gates + BU, gates + 2 * BU, gates + 3 * BU};
    const int16_t *c_prev = cs->data;
    int16_t *c_new = c->out[1]->data;
    int16_t *c_tmp = NULL;
    if (c_new == NULL) {
        c_tmp = malloc(BU * sizeof(int16_t) + 1);
        c_new = c_tmp;
    }
    /* Gates in the reference's order: forget, cell, input, output. */
    static const int order[4] = {1, 2, 0, 3};
    for (int k = 0; k < 4 && c_new != NULL; k++) {
        int g = order[k];
        int16_t *gb = gate[g];
        if (g == 0 && cifg) {
            for (size_t i = 0; i < BU; i++)
                gb[i] = (int16_t)(32767 - gate[1][i]);
            continue;
        }
        if (g == 3) {
            /* The cell state update precedes the output gate. */
            for (size_t i = 0; i < BU; i++) {
                int32_t f = nn_rounding_shift_right((int32_t)gate[1][i] * c_prev[i], 15);
                int32_t ic = nn_rounding_shift_right((int32_t)gate[0][i] * gate[2][i],
                                                     30 + cell_shift);
                c_new[i] = (int16_t)nn_clamp_i32((int16_t)f + (int16_t)ic, INT16_MIN, INT16_MAX);
            }
            if (ql_has(c, QL_CELL_CLIP) && nn_scalar_f32(c->in[QL_CELL_CLIP]) > 0.0f) {
                float q = nn_scalar_f32(c->in[QL_CELL_CLIP]) / cs->scale;
                int32_t clip = (int32_t)(q > 32767.0f ? 32767.0f : q);
                for (size_t i = 0; i < BU; i++)
                    c_new[i] = (int16_t)nn_clamp_i32(c_new[i], -clip, clip);
            }
        }
        double iscale = nn_scalar_f32(c->in[QL_ISCALE + g]);
        const nn_tensor *w = c->in[QL_W + g], *r = c->in[QL_R + g];
        /* Without layer norm the bias joins the input product. */
        const int32_t *bias = ln ? NULL : c->in[QL_BIAS + g]->data;
        ql_matmul_acc(B, U, I, x->data, x->zero_point, qw->w[g], bias,
                      (double)w->scale * x->scale / iscale, gb, acc);
        ql_matmul_acc(B, U, P, h->data, h->zero_point, qw->r[g], NULL,
                      (double)r->scale * h->scale / iscale, gb, acc);
        if (g != 2 && ql_has(c, QL_PEEP + (g == 3 ? 2 : g))) {
            const nn_tensor *pw = c->in[QL_PEEP + (g == 3 ? 2 : g)];
            ql_peephole(B, U, pw->data, g == 3 ? c_new : c_prev,
                        ldexp(1.0, cell_shift) * pw->scale / iscale, gb);
        }
        if (ln)
            ql_layer_norm(B, U, gb, c->in[QL_LN + g]->data, c->in[QL_BIAS + g]->data,
                          c->in[QL_LN + g]->scale);
        for (size_t i = 0; i < BU; i++)
            gb[i] = g == 2 ? nn_q16_tanh(gb[i], 3) : nn_q16_logistic(gb[i], 3);
    }
    int rc = c_new ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == SEQ_OK) {
        /* Hidden state: o ⊙ tanh(c) requantized to the hidden scale, the
         * zero point subtracted, as TFLite's integer LSTM (and Android's
         * reference after it) does; the projection adds it back. */
        int32_t hm;
        int hs;
        nn_quantize_multiplier(ldexp(1.0, -30) / hscale, &hm, &hs);
        for (size_t i = 0; i < BU; i++) {
            int16_t t = nn_q16_tanh(c_new[i], 15 + cell_shift);
            int32_t v = nn_wrapping_add_i32(nn_mul_by_quant_mult((int32_t)gate[3][i] * t, hm, hs), -hzp);
            hid[i] = (int8_t)nn_clamp_i32(v, -128, 127);
        }
        int8_t *out = c->out[2]->data ? c->out[2]->data : c->out[0]->data;
        if (out != NULL) {
            const nn_tensor *pw = c->in[QL_PROJ];
            if (ql_has(c, QL_PROJ)) {
                int32_t pm;
                int ps;
                nn_quantize_multiplier((double)pw->scale * hscale / h->scale, &pm, &ps);
                nn_q8_matrix am = {hid, U, true, -hzp, false};
                const int32_t *pb = ql_has(c, QL_PROJ_B) ? c->in[QL_PROJ_B]->data : NULL;
                nn_qgemm_prepacked_i32(B, &am, qw->proj, pb, acc, P);
                int32_t clip = 0;
                if (ql_has(c, QL_PROJ_CLIP) && nn_scalar_f32(c->in[QL_PROJ_CLIP]) > 0.0f) {
                    float q = nn_scalar_f32(c->in[QL_PROJ_CLIP]) / pw->scale;
                    clip = (int32_t)(q > 127.0f ? 127.0f : q);
                }
                for (size_t i = 0; i < B * P; i++) {
                    int32_t v = nn_wrapping_add_i32(nn_mul_by_quant_mult(acc[i], pm, ps), h->zero_point);
                    v = nn_clamp_i32(v, -128, 127);
                    if (clip > 0)
                        v = nn_clamp_i32(v, -clip, clip);
                    out[i] = (int8_t)v;
                }
            } else {
                memcpy(out, hid, BU);
            }
            if (c->out[0]->data && c->out[0]->data != out)
                memcpy(c->out[0]->data, out, B * P);
        }
    }
    free(gates);
    free(acc);
    free(hid);
    free(c_tmp);
    ql_weights_free(own);
    return rc;
}

const nn_op_def nn_op_QUANTIZED_LSTM = {
    .code = ANEURALNETWORKS_QUANTIZED_LSTM,
    .name = "QUANTIZED_LSTM",
    .validate = ql_validate,
    .prepare = ql_prepare,
    .execute = ql_execute,
    .plan = ql_plan,
    .release = ql_release,
    .optional_inputs = true,
};
