/*
 * Basic recurrent cells: RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
 * BIDIRECTIONAL_SEQUENCE_RNN and SVDF. Float16 operands are computed in
 * float32. Matrix products go through the shared GEMM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gemm.h"
#include "kernels/quant.h"
#include "ops/detection_common.h"

#define T_F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define T_F16 ANEURALNETWORKS_TENSOR_FLOAT16

static bool float_type_ok(const nn_op_call *c, int32_t t)
{
    return t == T_F32 || (t == T_F16 && c->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_3);
}

static int check_t(const nn_tensor *t, int32_t type, uint32_t rank)
{
    return seq_check_tensor(t, type, rank);
}

static int check_fuse(const nn_op_call *c, const nn_tensor *t)
{
    if (seq_check_scalar(t, ANEURALNETWORKS_INT32))
        return SEQ_BAD;
    if (t->data != NULL && nn_check_fuse_code(c, nn_scalar_i32(t)) != ANEURALNETWORKS_NO_ERROR)
        return SEQ_BAD;
    return SEQ_OK;
}

/*
 * One direction's weights packed for the GEMM, bias copied (float16
 * converted): built once per compilation when they are constant, else per
 * execution.
 */
typedef struct rnn_cell {
    size_t I, A, U;
    nn_sgemm_packed *W, *Wa, *R; /* Wa NULL without aux weights */
    float *bias;
} rnn_cell;

static void rnn_cell_free(rnn_cell *k)
{
    if (k == NULL)
        return;
    nn_sgemm_packed_free(k->W);
    nn_sgemm_packed_free(k->Wa);
    nn_sgemm_packed_free(k->R);
    free(k->bias);
    free(k);
}

/* W [U, I], R [U, U], bias [U], Wa [U, A] (NULL when absent). */
static int rnn_cell_build(const nn_tensor *W, const nn_tensor *R, const nn_tensor *bias,
                          const nn_tensor *Wa, rnn_cell **out)
{
    *out = NULL;
    rnn_cell *k = calloc(1, sizeof *k);
    if (k == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    k->U = W->dims[0];
    k->I = W->dims[1];
    k->A = Wa ? Wa->dims[1] : 0;
    seq_fview v[4];
    memset(v, 0, sizeof v);
    const nn_tensor *src[4] = {W, R, bias, Wa};
    int rc = SEQ_OK;
    for (int i = 0; i < 4 && rc == SEQ_OK; i++)
        rc = seq_view(src[i], &v[i]);
    if (rc == SEQ_OK) {
        k->W = nn_sgemm_pack(k->U, k->I, v[0].p, k->I);
        k->R = nn_sgemm_pack(k->U, k->U, v[1].p, k->U);
        k->Wa = Wa ? nn_sgemm_pack(k->U, k->A, v[3].p, k->A) : NULL;
        k->bias = malloc(k->U * sizeof(float) + 1);
        if (!k->W || !k->R || (Wa && !k->Wa) || !k->bias)
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        else
            memcpy(k->bias, v[2].p, k->U * sizeof(float));
    }
    for (int i = 0; i < 4; i++)
        seq_view_free(&v[i]);
    if (rc != SEQ_OK) {
        rnn_cell_free(k);
        return rc;
    }
    *out = k;
    return SEQ_OK;
}

static bool const_known(const nn_tensor *t)
{
    return t->constant && t->data != NULL && nn_tensor_shape_known(t);
}

/* The aux weights of a cell's operand indices (W, R, bias, aux), or NULL. */
static const nn_tensor *aux_weights(const nn_op_call *c, const int idx[4])
{
    return idx[3] >= 0 && !c->in[idx[3]]->omitted ? c->in[idx[3]] : NULL;
}

/* Per-compilation state: the packed cells (forward, backward). */
typedef struct rnn_state {
    rnn_cell *cell[2];
} rnn_state;

static void rnn_release(void *state)
{
    rnn_state *st = state;
    if (st == NULL)
        return;
    rnn_cell_free(st->cell[0]);
    rnn_cell_free(st->cell[1]);
    free(st);
}

/*
 * Packs the cells whose operands (input index W, R, bias, aux weights; aux
 * -1 for none) are all constant with consistent shapes; otherwise leaves no
 * state and execution builds them.
 */
static int rnn_plan_cells(const nn_op_call *c, const int idx[][4], int n, void **state)
{
    *state = NULL;
    for (int i = 0; i < n; i++) {
        const nn_tensor *W = c->in[idx[i][0]], *R = c->in[idx[i][1]], *b = c->in[idx[i][2]];
        const nn_tensor *Wa = aux_weights(c, idx[i]);
        if (!const_known(W) || !const_known(R) || !const_known(b) || (Wa && !const_known(Wa)))
            return SEQ_OK;
        if (W->rank != 2 || R->rank != 2 || b->rank != 1 || R->dims[0] != W->dims[0] ||
            R->dims[1] != W->dims[0] || b->dims[0] != W->dims[0] ||
            (Wa && (Wa->rank != 2 || Wa->dims[0] != W->dims[0])))
            return SEQ_OK;
    }
    rnn_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = SEQ_OK;
    for (int i = 0; i < n && rc == SEQ_OK; i++) {
        const nn_tensor *Wa = aux_weights(c, idx[i]);
        rc = rnn_cell_build(c->in[idx[i][0]], c->in[idx[i][1]], c->in[idx[i][2]], Wa, &st->cell[i]);
    }
    if (rc != SEQ_OK) {
        rnn_release(st);
        return rc;
    }
    *state = st;
    return SEQ_OK;
}

/* The planned cell i, or one built now into *own (freed by the caller). */
static int rnn_cell_for(const nn_op_call *c, int i, const int idx[4], rnn_cell **own,
                        const rnn_cell **k)
{
    const rnn_state *st = c->state;
    *own = NULL;
    if (st != NULL && st->cell[i] != NULL) {
        *k = st->cell[i];
        return SEQ_OK;
    }
    const nn_tensor *Wa = aux_weights(c, idx);
    int rc = rnn_cell_build(c->in[idx[0]], c->in[idx[1]], c->in[idx[2]], Wa, own);
    *k = *own;
    return rc;
}

/* Row (t, b) of a [T, B, n] (time-major) or [B, T, n] sequence. */
static size_t seq_row(bool time_major, size_t T, size_t B, size_t t, size_t b)
{
    return time_major ? t * B + b : b * T + t;
}

/* Rows of one time step are ld apart: n for time-major, T * n otherwise. */
static size_t seq_step_ld(bool time_major, size_t T, size_t n)
{
    return time_major ? n : T * n;
}

/*
 * Runs one direction of an RNN over the sequence:
 * out = clamp(x·Wᵀ + aux·Waᵀ + h·Rᵀ + bias, lo, hi) per step. in/aux: the
 * sequence views ([T, B, n] time-major, else [B, T, n]; aux used only with
 * aux weights), out: destination with row width out_w and the cell's
 * columns starting at out_off. h0: initial state [B, U]; the final state is
 * copied into h_final when not NULL. tmp holds B * U floats.
 */
static void rnn_run(const rnn_cell *k, const float *h0, bool time_major, bool reverse, size_t T,
                    size_t B, const float *in, const float *aux, float *out, size_t out_w,
                    size_t out_off, float lo, float hi, float *tmp, float *h_final)
{
    size_t U = k->U;
    /* The input products of every step at once: rows of in and out match. */
    nn_sgemm_prepacked(T * B, in, k->I, k->W, k->bias, -INFINITY, INFINITY, out + out_off, out_w);
    const float *h = h0;
    size_t ldh = U;
    for (size_t s = 0; s < T; s++) {
        size_t t = reverse ? T - 1 - s : s;
        size_t r0 = seq_row(time_major, T, B, t, 0);
        float *o = out + r0 * out_w + out_off;
        size_t ldo = seq_step_ld(time_major, T, out_w);
        if (aux != NULL && k->Wa != NULL) {
            nn_sgemm_prepacked(B, aux + r0 * k->A, seq_step_ld(time_major, T, k->A), k->Wa, NULL,
                               -INFINITY, INFINITY, tmp, U);
            for (size_t b = 0; b < B; b++)
                for (size_t u = 0; u < U; u++)
                    o[b * ldo + u] += tmp[b * U + u];
        }
        nn_sgemm_prepacked(B, h, ldh, k->R, NULL, -INFINITY, INFINITY, tmp, U);
        for (size_t b = 0; b < B; b++)
            for (size_t u = 0; u < U; u++) {
                float v = o[b * ldo + u] + tmp[b * U + u];
                o[b * ldo + u] = v < lo ? lo : (v > hi ? hi : v);
            }
        h = o;
        ldh = ldo;
    }
    if (h_final != NULL)
        for (size_t b = 0; b < B; b++)
            memcpy(h_final + b * U, h + b * ldh, U * sizeof(float));
}

/* ------------------------------------------------------------------ */
/* RNN                                                                 */

static int rnn_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 6, 6, 2))
        return SEQ_BAD;
    int32_t t = c->in[0]->type;
    if (!float_type_ok(c, t) || check_t(c->in[0], t, 2) || check_t(c->in[1], t, 2) ||
        check_t(c->in[2], t, 2) || check_t(c->in[3], t, 1) || check_t(c->in[4], t, 2) ||
        check_fuse(c, c->in[5]) || c->out[0]->type != t || c->out[1]->type != t)
        return SEQ_BAD;
    return SEQ_OK;
}

static int rnn_prepare(nn_op_call *c)
{
    const nn_tensor *x = c->in[0], *w = c->in[1], *r = c->in[2], *b = c->in[3], *h = c->in[4];
    if (x->rank != 2 || w->rank != 2 || r->rank != 2 || b->rank != 1 || h->rank != 2)
        return SEQ_BAD;
    uint32_t B = x->dims[0], I = x->dims[1], U = w->dims[0];
    if (w->dims[1] != I || r->dims[0] != U || r->dims[1] != U || b->dims[0] != U ||
        h->dims[0] != B || h->dims[1] != U)
        return SEQ_BAD;
    for (int i = 0; i < 2; i++) {
        nn_tensor_set_small_rank(c->out[i], 2);
        c->out[i]->dims[0] = B;
        c->out[i]->dims[1] = U;
    }
    return SEQ_OK;
}

static const int rnn_idx[1][4] = {{1, 2, 3, -1}};

static int rnn_plan(nn_op_call *c, void **state)
{
    return rnn_plan_cells(c, rnn_idx, 1, state);
}

static int rnn_execute(nn_op_call *c)
{
    size_t B = c->in[0]->dims[0], U = c->in[1]->dims[0];
    float lo, hi;
    nn_float_activation_range(nn_scalar_i32(c->in[5]), &lo, &hi);
    seq_fview v[5];
    memset(v, 0, sizeof v);
    seq_fout o0 = {0}, o1 = {0};
    rnn_cell *own;
    const rnn_cell *k;
    float *tmp = malloc((B * U + 1) * sizeof(float));
    int rc = tmp ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == SEQ_OK)
        rc = rnn_cell_for(c, 0, rnn_idx[0], &own, &k);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[0], &v[0]);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[4], &v[4]);
    if (rc == SEQ_OK)
        rc = seq_out_open(c->out[0], &o0);
    if (rc == SEQ_OK)
        rc = seq_out_open(c->out[1], &o1);
    if (rc == SEQ_OK) {
        float *dst = o1.p ? o1.p : o0.p;
        if (dst != NULL) {
            rnn_run(k, v[4].p, true, false, 1, B, v[0].p, NULL, dst, U, 0, lo, hi, tmp, NULL);
            if (o0.p != NULL && o0.p != dst)
                memcpy(o0.p, dst, B * U * sizeof(float));
        }
    }
    seq_out_close(&o0, rc == SEQ_OK);
    seq_out_close(&o1, rc == SEQ_OK);
    for (int i = 0; i < 5; i++)
        seq_view_free(&v[i]);
    rnn_cell_free(own);
    free(tmp);
    return rc;
}

const nn_op_def nn_op_RNN = {
    .code = ANEURALNETWORKS_RNN,
    .name = "RNN",
    .validate = rnn_validate,
    .prepare = rnn_prepare,
    .execute = rnn_execute,
    .plan = rnn_plan,
    .release = rnn_release,
};

/* ------------------------------------------------------------------ */
/* UNIDIRECTIONAL_SEQUENCE_RNN                                         */

static int urnn_validate(const nn_op_call *c)
{
    if (c->n_in != 7 || c->n_out < 1 || c->n_out > 2)
        return nn_invalid("%u inputs and %u outputs, expected 7 and 1 or 2", c->n_in, c->n_out);
    if (c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_3 ||
        (c->n_out == 2 && c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_4))
        return nn_invalid("the operation (with %u outputs) needs a higher feature level",
                          c->n_out);
    int32_t t = c->in[0]->type;
    if (!float_type_ok(c, t) || check_t(c->in[0], t, 3) || check_t(c->in[1], t, 2) ||
        check_t(c->in[2], t, 2) || check_t(c->in[3], t, 1) || check_t(c->in[4], t, 2) ||
        check_fuse(c, c->in[5]) || seq_check_scalar(c->in[6], ANEURALNETWORKS_INT32))
        return SEQ_BAD;
    /* Android's UNIDIRECTIONAL_SEQUENCE_RNN checks time_major in prepare. */
    if (c->in[6]->data != NULL &&
        nn_check_value(c, nn_scalar_i32(c->in[6]) == 0 || nn_scalar_i32(c->in[6]) == 1,
                       "input 6 (time_major) %d, expected 0 or 1", nn_scalar_i32(c->in[6])))
        return SEQ_BAD;
    for (uint32_t i = 0; i < c->n_out; i++)
        if (nn_expect_type(c, true, i, t))
            return SEQ_BAD;
    return SEQ_OK;
}

static int urnn_prepare(nn_op_call *c)
{
    const nn_tensor *x = c->in[0], *w = c->in[1], *r = c->in[2], *b = c->in[3], *h = c->in[4];
    if (x->rank != 3 || w->rank != 2 || r->rank != 2 || b->rank != 1 || h->rank != 2)
        return SEQ_BAD;
    if (c->in[6]->data == NULL)
        return SEQ_OK;
    if (nn_scalar_i32(c->in[6]) != 0 && nn_scalar_i32(c->in[6]) != 1)
        return nn_invalid("input 6 (time_major) %d, expected 0 or 1", nn_scalar_i32(c->in[6]));
    bool tm = nn_scalar_i32(c->in[6]) != 0;
    uint32_t B = tm ? x->dims[1] : x->dims[0];
    uint32_t I = x->dims[2], U = w->dims[0];
    if (w->dims[1] != I || r->dims[0] != U || r->dims[1] != U || b->dims[0] != U ||
        h->dims[0] != B || h->dims[1] != U)
        return SEQ_BAD;
    nn_tensor *o = c->out[0];
    nn_tensor_set_small_rank(o, 3);
    o->dims[0] = x->dims[0];
    o->dims[1] = x->dims[1];
    o->dims[2] = U;
    if (c->n_out == 2) {
        nn_tensor_set_small_rank(c->out[1], 2);
        c->out[1]->dims[0] = B;
        c->out[1]->dims[1] = U;
    }
    return SEQ_OK;
}

static int urnn_execute(nn_op_call *c)
{
    const nn_tensor *x = c->in[0];
    bool tm = nn_scalar_i32(c->in[6]) != 0;
    size_t T = tm ? x->dims[0] : x->dims[1], B = tm ? x->dims[1] : x->dims[0];
    size_t U = c->in[1]->dims[0];
    float lo, hi;
    nn_float_activation_range(nn_scalar_i32(c->in[5]), &lo, &hi);
    seq_fview v[5];
    memset(v, 0, sizeof v);
    seq_fout o0 = {0}, o1 = {0};
    rnn_cell *own = NULL;
    const rnn_cell *k = NULL;
    size_t n_out = T * B * U;
    float *tmp = malloc((B * U + 1) * sizeof(float));
    /* The sequence output doubles as the state; a scratch one when only
     * the final state is wanted. */
    float *seq_buf = c->out[0]->data == NULL ? malloc((n_out + 1) * sizeof(float)) : NULL;
    int rc = tmp && (c->out[0]->data || seq_buf) ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == SEQ_OK)
        rc = rnn_cell_for(c, 0, rnn_idx[0], &own, &k);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[0], &v[0]);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[4], &v[4]);
    if (rc == SEQ_OK)
        rc = seq_out_open(c->out[0], &o0);
    if (rc == SEQ_OK && c->n_out == 2)
        rc = seq_out_open(c->out[1], &o1);
    if (rc == SEQ_OK) {
        float *out = o0.p ? o0.p : seq_buf;
        rnn_run(k, v[4].p, tm, false, T, B, v[0].p, NULL, out, U, 0, lo, hi, tmp, o1.p);
    }
    seq_out_close(&o0, rc == SEQ_OK);
    seq_out_close(&o1, rc == SEQ_OK);
    for (int i = 0; i < 5; i++)
        seq_view_free(&v[i]);
    rnn_cell_free(own);
    free(tmp);
    free(seq_buf);
    return rc;
}

const nn_op_def nn_op_UNIDIRECTIONAL_SEQUENCE_RNN = {
    .code = ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
    .name = "UNIDIRECTIONAL_SEQUENCE_RNN",
    .validate = urnn_validate,
    .prepare = urnn_prepare,
    .execute = urnn_execute,
    .plan = rnn_plan,
    .release = rnn_release,
};

/* ------------------------------------------------------------------ */
/* BIDIRECTIONAL_SEQUENCE_RNN                                          */

enum {
    BR_IN = 0, BR_FW_W, BR_FW_R, BR_FW_B, BR_FW_H, BR_BW_W, BR_BW_R, BR_BW_B, BR_BW_H,
    BR_AUX, BR_FW_AW, BR_BW_AW, BR_ACT, BR_TIME_MAJOR, BR_MERGE, BR_N_IN
};

/* Output counts: 2 separate / 1 merged, plus two final states (FL4). */
static bool brnn_counts_ok(const nn_op_call *c, bool merge)
{
    uint32_t base = merge ? 1 : 2;
    if (c->n_out == base)
        return true;
    return c->n_out == base + 2 && c->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_4;
}

static int brnn_validate(const nn_op_call *c)
{
    if (c->n_in != BR_N_IN || c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_3)
        return SEQ_BAD;
    int32_t t = c->in[BR_IN]->type;
    if (!float_type_ok(c, t) || check_t(c->in[BR_IN], t, 3))
        return SEQ_BAD;
    static const uint8_t ranks[] = {0, 2, 2, 1, 2, 2, 2, 1, 2};
    for (uint32_t i = 1; i <= BR_BW_H; i++)
        if (c->in[i]->omitted || check_t(c->in[i], t, ranks[i]))
            return SEQ_BAD;
    for (uint32_t i = BR_AUX; i <= BR_BW_AW; i++)
        if (!c->in[i]->omitted && check_t(c->in[i], t, 0))
            return SEQ_BAD;
    /* Aux weights need the aux input and come for both directions; aux
     * input alone (parallel linking) is FL4+. Only what is known before
     * execution is checked here: a model input may still be omitted. */
    int aux = seq_presence(c, BR_AUX);
    int fw_aw = seq_presence(c, BR_FW_AW), bw_aw = seq_presence(c, BR_BW_AW);
    if ((fw_aw == SEQ_PRESENT && bw_aw == SEQ_ABSENT) ||
        (fw_aw == SEQ_ABSENT && bw_aw == SEQ_PRESENT) ||
        (fw_aw == SEQ_PRESENT && aux == SEQ_ABSENT))
        return SEQ_BAD;
    if (aux == SEQ_PRESENT && fw_aw == SEQ_ABSENT &&
        c->feature_level < ANEURALNETWORKS_FEATURE_LEVEL_4)
        return SEQ_BAD;
    if (check_fuse(c, c->in[BR_ACT]) || seq_check_scalar(c->in[BR_TIME_MAJOR], ANEURALNETWORKS_BOOL) ||
        seq_check_scalar(c->in[BR_MERGE], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    if (c->in[BR_MERGE]->data != NULL) {
        if (!brnn_counts_ok(c, nn_scalar_bool(c->in[BR_MERGE])))
            return nn_invalid("%u outputs do not fit merge_outputs %d", c->n_out,
                              nn_scalar_bool(c->in[BR_MERGE]));
    } else if (!brnn_counts_ok(c, true) && !brnn_counts_ok(c, false)) {
        return SEQ_BAD;
    }
    for (uint32_t i = 0; i < c->n_out; i++)
        if (c->out[i]->type != t)
            return SEQ_BAD;
    return SEQ_OK;
}

typedef struct brnn_dims {
    bool tm, merge, aux, aux_w;
    size_t T, B, I, A, fwU, bwU;
} brnn_dims;

static int brnn_dims_of(const nn_op_call *c, brnn_dims *d)
{
    const nn_tensor *x = c->in[BR_IN];
    for (uint32_t i = 0; i <= BR_BW_H; i++)
        if (c->in[i]->rank == 0)
            return SEQ_BAD;
    d->tm = nn_scalar_bool(c->in[BR_TIME_MAJOR]);
    d->merge = nn_scalar_bool(c->in[BR_MERGE]);
    d->aux = !c->in[BR_AUX]->omitted;
    d->aux_w = !c->in[BR_FW_AW]->omitted;
    d->T = d->tm ? x->dims[0] : x->dims[1];
    d->B = d->tm ? x->dims[1] : x->dims[0];
    d->I = x->dims[2];
    d->fwU = c->in[BR_FW_W]->dims[0];
    d->bwU = c->in[BR_BW_W]->dims[0];
    d->A = 0;
    const nn_tensor *fw_w = c->in[BR_FW_W], *fw_r = c->in[BR_FW_R], *fw_b = c->in[BR_FW_B];
    const nn_tensor *fw_h = c->in[BR_FW_H], *bw_w = c->in[BR_BW_W], *bw_r = c->in[BR_BW_R];
    const nn_tensor *bw_b = c->in[BR_BW_B], *bw_h = c->in[BR_BW_H];
    if (fw_w->dims[1] != d->I || fw_r->dims[0] != d->fwU || fw_r->dims[1] != d->fwU ||
        fw_b->dims[0] != d->fwU || fw_h->dims[0] != d->B || fw_h->dims[1] != d->fwU)
        return SEQ_BAD;
    if (bw_r->dims[0] != d->bwU || bw_r->dims[1] != d->bwU || bw_b->dims[0] != d->bwU ||
        bw_h->dims[0] != d->B || bw_h->dims[1] != d->bwU)
        return SEQ_BAD;
    if (d->aux) {
        const nn_tensor *ax = c->in[BR_AUX];
        if (ax->rank != 3 || ax->dims[0] != x->dims[0] || ax->dims[1] != x->dims[1])
            return SEQ_BAD;
        d->A = ax->dims[2];
        if (d->aux_w) {
            const nn_tensor *fa = c->in[BR_FW_AW], *ba = c->in[BR_BW_AW];
            if (fa->rank != 2 || ba->rank != 2 || fa->dims[0] != d->fwU || fa->dims[1] != d->A ||
                ba->dims[0] != d->bwU || ba->dims[1] != d->A)
                return SEQ_BAD;
        } else if (bw_w->dims[1] != d->A) {
            return SEQ_BAD;
        }
    } else if (bw_w->dims[1] != d->I) {
        return SEQ_BAD;
    }
    if (!brnn_counts_ok(c, d->merge))
        return SEQ_BAD;
    return SEQ_OK;
}

static void set3(nn_tensor *t, size_t a, size_t b, size_t c)
{
    nn_tensor_set_small_rank(t, 3);
    t->dims[0] = (uint32_t)a;
    t->dims[1] = (uint32_t)b;
    t->dims[2] = (uint32_t)c;
}

static void set2(nn_tensor *t, size_t a, size_t b)
{
    nn_tensor_set_small_rank(t, 2);
    t->dims[0] = (uint32_t)a;
    t->dims[1] = (uint32_t)b;
}

static int brnn_prepare(nn_op_call *c)
{
    if (c->in[BR_TIME_MAJOR]->data == NULL || c->in[BR_MERGE]->data == NULL)
        return SEQ_OK;
    brnn_dims d;
    if (brnn_dims_of(c, &d))
        return SEQ_BAD;
    size_t d0 = d.tm ? d.T : d.B, d1 = d.tm ? d.B : d.T;
    uint32_t k = 0;
    set3(c->out[k++], d0, d1, d.merge ? d.fwU + d.bwU : d.fwU);
    if (!d.merge)
        set3(c->out[k++], d0, d1, d.bwU);
    if (c->n_out > k) {
        set2(c->out[k], d.B, d.fwU);
        set2(c->out[k + 1], d.B, d.bwU);
    }
    return SEQ_OK;
}

static const int brnn_idx[2][4] = {{BR_FW_W, BR_FW_R, BR_FW_B, BR_FW_AW},
                                    {BR_BW_W, BR_BW_R, BR_BW_B, BR_BW_AW}};

static int brnn_plan(nn_op_call *c, void **state)
{
    return rnn_plan_cells(c, brnn_idx, 2, state);
}

static int brnn_execute(nn_op_call *c)
{
    brnn_dims d;
    if (brnn_dims_of(c, &d))
        return SEQ_BAD;
    float lo, hi;
    nn_float_activation_range(nn_scalar_i32(c->in[BR_ACT]), &lo, &hi);
    seq_fview v[BR_BW_AW + 1];
    memset(v, 0, sizeof v);
    seq_fout o[4];
    memset(o, 0, sizeof o);
    size_t umax = d.fwU > d.bwU ? d.fwU : d.bwU;
    size_t fw_w = d.merge ? d.fwU + d.bwU : d.fwU;
    size_t n_fw = d.T * d.B * fw_w, n_bw = d.T * d.B * d.bwU;
    float *tmp = malloc((d.B * umax + 1) * sizeof(float));
    /* Missing sequence outputs (only final states wanted) go to scratch. */
    float *fw_buf = NULL, *bw_buf = NULL;
    rnn_cell *own_fw = NULL, *own_bw = NULL;
    const rnn_cell *fw = NULL, *bw = NULL;
    int rc = tmp ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == SEQ_OK)
        rc = rnn_cell_for(c, 0, brnn_idx[0], &own_fw, &fw);
    if (rc == SEQ_OK)
        rc = rnn_cell_for(c, 1, brnn_idx[1], &own_bw, &bw);
    static const int seq_in[4] = {BR_IN, BR_FW_H, BR_BW_H, BR_AUX};
    for (int i = 0; i < 4 && rc == SEQ_OK; i++)
        rc = seq_view(c->in[seq_in[i]], &v[seq_in[i]]);
    for (uint32_t i = 0; i < c->n_out && rc == SEQ_OK; i++)
        rc = seq_out_open(c->out[i], &o[i]);
    if (rc != SEQ_OK)
        goto done;
    float *fw_out = o[0].p, *bw_out = d.merge ? o[0].p : o[1].p;
    size_t bw_w = d.merge ? fw_w : d.bwU, bw_off = d.merge ? d.fwU : 0;
    if (fw_out == NULL) {
        fw_buf = malloc((n_fw + 1) * sizeof(float));
        fw_out = fw_buf;
        if (d.merge)
            bw_out = fw_buf;
    }
    if (bw_out == NULL) {
        bw_buf = malloc((n_bw + 1) * sizeof(float));
        bw_out = bw_buf;
    }
    if (fw_out == NULL || bw_out == NULL) {
        rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        goto done;
    }
    uint32_t st = d.merge ? 1 : 2;
    float *fw_hf = c->n_out > st ? o[st].p : NULL;
    float *bw_hf = c->n_out > st ? o[st + 1].p : NULL;
    /* Linking: with aux weights both cells also read the aux input; with
     * aux input alone the backward cell reads it instead of the input. */
    const float *bw_in = v[BR_IN].p, *aux = NULL;
    if (d.aux && d.aux_w)
        aux = v[BR_AUX].p;
    else if (d.aux)
        bw_in = v[BR_AUX].p;
    rnn_run(fw, v[BR_FW_H].p, d.tm, false, d.T, d.B, v[BR_IN].p, aux, fw_out, fw_w, 0, lo, hi,
            tmp, fw_hf);
    rnn_run(bw, v[BR_BW_H].p, d.tm, true, d.T, d.B, bw_in, aux, bw_out, bw_w, bw_off, lo, hi,
            tmp, bw_hf);
done:
    for (uint32_t i = 0; i < 4; i++)
        seq_out_close(&o[i], rc == SEQ_OK);
    for (uint32_t i = 0; i <= BR_BW_AW; i++)
        seq_view_free(&v[i]);
    rnn_cell_free(own_fw);
    rnn_cell_free(own_bw);
    free(tmp);
    free(fw_buf);
    free(bw_buf);
    return rc;
}

const nn_op_def nn_op_BIDIRECTIONAL_SEQUENCE_RNN = {
    .code = ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN,
    .name = "BIDIRECTIONAL_SEQUENCE_RNN",
    .validate = brnn_validate,
    .prepare = brnn_prepare,
    .execute = brnn_execute,
    .plan = brnn_plan,
    .release = rnn_release,
    .optional_inputs = true,
};

/* ------------------------------------------------------------------ */
/* SVDF                                                                */

static int svdf_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 7, 7, 2))
        return SEQ_BAD;
    int32_t t = c->in[0]->type;
    if (!float_type_ok(c, t) || check_t(c->in[0], t, 2) || check_t(c->in[1], t, 2) ||
        check_t(c->in[2], t, 2) || check_t(c->in[4], t, 2) ||
        (!c->in[3]->omitted && check_t(c->in[3], t, 0)) ||
        seq_check_scalar(c->in[5], ANEURALNETWORKS_INT32) || check_fuse(c, c->in[6]) ||
        c->out[0]->type != t || c->out[1]->type != t)
        return SEQ_BAD;
    if (c->in[5]->data != NULL && nn_scalar_i32(c->in[5]) <= 0)
        return nn_invalid("input 5 (rank) %d is not positive", nn_scalar_i32(c->in[5]));
    return SEQ_OK;
}

static int svdf_prepare(nn_op_call *c)
{
    const nn_tensor *x = c->in[0], *wf = c->in[1], *wt = c->in[2], *bias = c->in[3];
    const nn_tensor *st = c->in[4];
    if (x->rank != 2 || wf->rank != 2 || wt->rank != 2 || st->rank != 2)
        return SEQ_BAD;
    if (c->in[5]->data == NULL)
        return SEQ_OK;
    uint32_t rank = (uint32_t)nn_scalar_i32(c->in[5]);
    uint32_t B = x->dims[0], I = x->dims[1], F = wf->dims[0], M = wt->dims[1];
    if (rank == 0 || F % rank != 0 || wf->dims[1] != I || wt->dims[0] != F ||
        st->dims[0] != B || (uint64_t)st->dims[1] != (uint64_t)F * M)
        return SEQ_BAD;
    uint32_t U = F / rank;
    if (!bias->omitted && (bias->rank != 1 || bias->dims[0] != U))
        return SEQ_BAD;
    if (nn_tensor_copy_shape(c->out[0], st) != SEQ_OK)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    set2(c->out[1], B, U);
    return SEQ_OK;
}

static int svdf_execute(nn_op_call *c)
{
    size_t B = c->in[0]->dims[0], I = c->in[0]->dims[1], F = c->in[1]->dims[0];
    size_t M = c->in[2]->dims[1], rank = (size_t)nn_scalar_i32(c->in[5]), U = F / rank;
    float lo, hi;
    nn_float_activation_range(nn_scalar_i32(c->in[6]), &lo, &hi);
    seq_fview v[5];
    memset(v, 0, sizeof v);
    seq_fout o0 = {0}, o1 = {0};
    float *state = malloc((B * F * M + 1) * sizeof(float));
    float *act = malloc((B * F + 1) * sizeof(float));
    int rc = state && act ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    for (int i = 0; i < 5 && rc == SEQ_OK; i++)
        rc = seq_view(c->in[i], &v[i]);
    if (rc == SEQ_OK)
        rc = seq_out_open(c->out[0], &o0);
    if (rc == SEQ_OK)
        rc = seq_out_open(c->out[1], &o1);
    if (rc != SEQ_OK)
        goto done;
    /* Feature filter of the new input: act[b][f] = x[b]·wf[f]. */
    rc = nn_sgemm(B, F, I, v[0].p, I, v[1].p, I, NULL, -INFINITY, INFINITY, act, F);
    if (rc != SEQ_OK)
        goto done;
    memcpy(state, v[4].p, B * F * M * sizeof(float));
    for (size_t b = 0; b < B; b++)
        for (size_t f = 0; f < F; f++)
            state[(b * F + f) * M + M - 1] = act[b * F + f];
    for (size_t b = 0; b < B; b++) {
        for (size_t f = 0; f < F; f++) {
            const float *s = state + (b * F + f) * M, *w = v[2].p + f * M;
            float sum = 0.0f;
            for (size_t m = 0; m < M; m++)
                sum += s[m] * w[m];
            act[b * F + f] = sum;
        }
        for (size_t u = 0; u < U; u++) {
            float sum = v[3].p ? v[3].p[u] : 0.0f;
            for (size_t r = 0; r < rank; r++)
                sum += act[b * F + u * rank + r];
            if (o1.p)
                o1.p[b * U + u] = sum < lo ? lo : (sum > hi ? hi : sum);
        }
    }
    /* The memory moves one step: oldest entry out, a zero slot in front
     * of the next input. */
    if (o0.p)
        for (size_t i = 0; i < B * F; i++) {
            float *dst = o0.p + i * M;
            const float *src = state + i * M;
            if (M > 0) {
                memmove(dst, src + 1, (M - 1) * sizeof(float));
                dst[M - 1] = 0.0f;
            }
        }
done:
    seq_out_close(&o0, rc == SEQ_OK);
    seq_out_close(&o1, rc == SEQ_OK);
    for (int i = 0; i < 5; i++)
        seq_view_free(&v[i]);
    free(state);
    free(act);
    return rc;
}

const nn_op_def nn_op_SVDF = {
    .code = ANEURALNETWORKS_SVDF,
    .name = "SVDF",
    .validate = svdf_validate,
    .prepare = svdf_prepare,
    .execute = svdf_execute,
    .optional_inputs = true,
};
