/*
 * Float LSTM operations: LSTM (one step), UNIDIRECTIONAL_SEQUENCE_LSTM and
 * BIDIRECTIONAL_SEQUENCE_LSTM, all on the cell of kernels/lstm.h. Float16
 * operands are computed in float32.
 *
 * A cell's operands are located by an lstm_layout (index of each group in
 * the operation's input list), so validation, shape inference and weight
 * loading are shared by the three operations and both directions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/lstm.h"
#include "ops/detection_common.h"

#define T_F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define T_F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define FL3 ANEURALNETWORKS_FEATURE_LEVEL_3
#define FL4 ANEURALNETWORKS_FEATURE_LEVEL_4

typedef struct lstm_layout {
    int w_x;    /* 4 input-to-gate weights */
    int w_h;    /* 4 recurrent weights */
    int peep;   /* 3 peephole weights */
    int bias;   /* 4 biases */
    int proj;   /* projection weights, then bias */
    int ln;     /* 4 layer-norm weights, -1 if the op has none */
    int w_aux;  /* 4 aux weights, -1 if none */
} lstm_layout;

static const lstm_layout layout_step = {1, 5, 9, 12, 16, 23, -1};
static const lstm_layout layout_uni = {1, 5, 9, 12, 16, 24, -1};
static const lstm_layout layout_fw = {1, 5, 9, 12, 16, 53, 40};
static const lstm_layout layout_bw = {18, 22, 26, 29, 33, 57, 44};

static bool present(const nn_op_call *c, int i)
{
    return i >= 0 && (uint32_t)i < c->n_in && !c->in[i]->omitted;
}

/* An optional group with an input-gate member at first_idx (peephole,
 * layer norm, aux weights): the input-gate member is present exactly when
 * the rest of the group is and the cell has an input gate (no CIFG). */
static bool optional_gate_bad(const nn_op_call *c, int rest, int first_idx, int input_gate)
{
    int first = seq_presence(c, first_idx);
    if (first == SEQ_UNKNOWN || rest == SEQ_UNKNOWN)
        return false;
    if (rest == SEQ_ABSENT) {
        if (first == SEQ_PRESENT)
            nn_reason("input %d is given without the rest of its group", first_idx);
        return first == SEQ_PRESENT;
    }
    if (input_gate == SEQ_UNKNOWN)
        return false;
    if ((first == SEQ_PRESENT) != (input_gate == SEQ_PRESENT))
        nn_reason("input %d (the input gate's) is %s but the input gate (CIFG) weights are %s",
                  first_idx, first == SEQ_PRESENT ? "given" : "omitted",
                  input_gate == SEQ_PRESENT ? "given" : "omitted");
    return (first == SEQ_PRESENT) != (input_gate == SEQ_PRESENT);
}

/* Validates one cell's operands: types and the optional-group rules. */
static int cell_validate(const nn_op_call *c, const lstm_layout *l, int32_t t)
{
    /* Forget, cell and output gate weights and biases are mandatory. */
    for (int g = 1; g < 4; g++)
        if (!present(c, l->w_x + g) || !present(c, l->w_h + g) || !present(c, l->bias + g))
            return SEQ_BAD;
    for (int i = 0; i < 4; i++) {
        int groups[] = {l->w_x + i, l->w_h + i, l->bias + i};
        for (int g = 0; g < 3; g++)
            if (present(c, groups[g]) &&
                seq_check_tensor(c->in[groups[g]], t, i == 0 ? 0 : (g == 2 ? 1 : 2)))
                return SEQ_BAD;
        if (l->ln >= 0 && present(c, l->ln + i) && seq_check_tensor(c->in[l->ln + i], t, 0))
            return SEQ_BAD;
        if (l->w_aux >= 0 && present(c, l->w_aux + i) &&
            seq_check_tensor(c->in[l->w_aux + i], t, 0))
            return SEQ_BAD;
    }
    for (int i = 0; i < 3; i++)
        if (present(c, l->peep + i) && seq_check_tensor(c->in[l->peep + i], t, 0))
            return SEQ_BAD;
    if ((present(c, l->proj) && seq_check_tensor(c->in[l->proj], t, 0)) ||
        (present(c, l->proj + 1) && seq_check_tensor(c->in[l->proj + 1], t, 0)))
        return SEQ_BAD;
    /* The group rules are checked on what is known: before execution a
     * non-constant optional input may still turn out omitted. */
    int bad = 0;
    int g_cifg[3] = {l->w_x, l->w_h, l->bias};
    int input_gate = seq_group(c, g_cifg, 3, &bad);
    int g_peep[2] = {l->peep + 1, l->peep + 2};
    if (optional_gate_bad(c, seq_group(c, g_peep, 2, &bad), l->peep, input_gate))
        return SEQ_BAD;
    if (seq_presence(c, l->proj + 1) == SEQ_PRESENT && seq_presence(c, l->proj) == SEQ_ABSENT)
        return nn_invalid("a projection bias (input %d) without projection weights", l->proj + 1);
    if (l->ln >= 0) {
        int g_ln[3] = {l->ln + 1, l->ln + 2, l->ln + 3};
        if (optional_gate_bad(c, seq_group(c, g_ln, 3, &bad), l->ln, input_gate))
            return SEQ_BAD;
    }
    if (l->w_aux >= 0) {
        int g_aux[3] = {l->w_aux + 1, l->w_aux + 2, l->w_aux + 3};
        if (optional_gate_bad(c, seq_group(c, g_aux, 3, &bad), l->w_aux, input_gate))
            return SEQ_BAD;
    }
    if (bad)
        return nn_invalid("optional weights given in part: a group (CIFG, peephole or layer "
                          "norm) must be all present or all omitted");
    return SEQ_OK;
}

/* Sizes of one cell from its weights; BAD_DATA on inconsistent shapes. */
typedef struct cell_dims {
    size_t I, A, U, P;
} cell_dims;

static bool dims_are(const nn_tensor *t, uint32_t rank, size_t d0, size_t d1)
{
    if (t->rank != rank || t->dims[0] != d0)
        return false;
    return rank == 1 || t->dims[1] == d1;
}

static int cell_dims_of(const nn_op_call *c, const lstm_layout *l, size_t n_aux, cell_dims *d)
{
    const nn_tensor *wf = c->in[l->w_x + 1], *rf = c->in[l->w_h + 1];
    if (wf->rank != 2 || rf->rank != 2)
        return SEQ_BAD;
    d->U = wf->dims[0];
    d->I = wf->dims[1];
    d->P = rf->dims[1];
    d->A = n_aux;
    for (int g = 0; g < 4; g++) {
        if (present(c, l->w_x + g) && !dims_are(c->in[l->w_x + g], 2, d->U, d->I))
            return SEQ_BAD;
        if (present(c, l->w_h + g) && !dims_are(c->in[l->w_h + g], 2, d->U, d->P))
            return SEQ_BAD;
        if (present(c, l->bias + g) && !dims_are(c->in[l->bias + g], 1, d->U, 0))
            return SEQ_BAD;
        if (l->ln >= 0 && present(c, l->ln + g) && !dims_are(c->in[l->ln + g], 1, d->U, 0))
            return SEQ_BAD;
        if (l->w_aux >= 0 && present(c, l->w_aux + g) &&
            !dims_are(c->in[l->w_aux + g], 2, d->U, d->A))
            return SEQ_BAD;
    }
    for (int g = 0; g < 3; g++)
        if (present(c, l->peep + g) && !dims_are(c->in[l->peep + g], 1, d->U, 0))
            return SEQ_BAD;
    if (present(c, l->proj)) {
        if (!dims_are(c->in[l->proj], 2, d->P, d->U))
            return SEQ_BAD;
        if (present(c, l->proj + 1) && !dims_are(c->in[l->proj + 1], 1, d->P, 0))
            return SEQ_BAD;
    } else if (d->P != d->U) {
        return SEQ_BAD;
    }
    return SEQ_OK;
}

/* The float views of one cell's weights while its packed form is built. */
typedef struct cell_load {
    seq_fview v[32];
    int n;
    nn_lstm_cell cell;
} cell_load;

static const float *load_one(const nn_op_call *c, cell_load *cl, int idx, int *rc)
{
    if (!present(c, idx) || *rc != SEQ_OK)
        return NULL;
    seq_fview *v = &cl->v[cl->n++];
    *rc = seq_view(c->in[idx], v);
    return v->p;
}

static int cell_load_all(const nn_op_call *c, const lstm_layout *l, const cell_dims *d,
                         cell_load *cl)
{
    memset(cl, 0, sizeof *cl);
    int rc = SEQ_OK;
    nn_lstm_cell *k = &cl->cell;
    k->n_input = d->I;
    k->n_aux = d->A;
    k->n_cell = d->U;
    k->n_output = d->P;
    for (int g = 0; g < 4; g++) {
        k->w_x[g] = load_one(c, cl, l->w_x + g, &rc);
        k->w_h[g] = load_one(c, cl, l->w_h + g, &rc);
        k->bias[g] = load_one(c, cl, l->bias + g, &rc);
        k->ln[g] = l->ln >= 0 ? load_one(c, cl, l->ln + g, &rc) : NULL;
        k->w_aux[g] = l->w_aux >= 0 ? load_one(c, cl, l->w_aux + g, &rc) : NULL;
    }
    for (int g = 0; g < 3; g++)
        k->peep[g] = load_one(c, cl, l->peep + g, &rc);
    k->w_proj = load_one(c, cl, l->proj, &rc);
    k->b_proj = k->w_proj ? load_one(c, cl, l->proj + 1, &rc) : NULL;
    return rc;
}

static void cell_unload(cell_load *cl)
{
    for (int i = 0; i < cl->n; i++)
        seq_view_free(&cl->v[i]);
    cl->n = 0;
}

/* The packed weights of one cell (float16 converted once, here). */
static int cell_weights(const nn_op_call *c, const lstm_layout *l, const cell_dims *d,
                        nn_lstm_weights **w)
{
    *w = NULL;
    cell_load cl;
    int rc = cell_load_all(c, l, d, &cl);
    if (rc == SEQ_OK)
        rc = nn_lstm_weights_build(&cl.cell, w);
    cell_unload(&cl);
    return rc;
}

/* True when every present weight and vector of the cell is constant. */
static bool cell_constant(const nn_op_call *c, const lstm_layout *l)
{
    int groups[][2] = {{l->w_x, 4}, {l->w_h, 4}, {l->peep, 3}, {l->bias, 4}, {l->proj, 2},
                       {l->ln, 4}, {l->w_aux, 4}};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (int i = 0; i < groups[g][1] && groups[g][0] >= 0; i++) {
            int idx = groups[g][0] + i;
            if (present(c, idx) && (!c->in[idx]->constant || c->in[idx]->data == NULL ||
                                    !nn_tensor_shape_known(c->in[idx])))
                return false;
        }
    return true;
}

/* Per-compilation state: the packed cells (forward, backward). */
typedef struct lstm_state {
    nn_lstm_weights *w[2];
} lstm_state;

static void lstm_release(void *state)
{
    lstm_state *st = state;
    if (st == NULL)
        return;
    nn_lstm_weights_free(st->w[0]);
    nn_lstm_weights_free(st->w[1]);
    free(st);
}

/*
 * Packs the constant cells of the layouts. n_aux: the aux width, taken from
 * the aux weights (the aux input's shape may not be known yet). Shapes that
 * do not fit leave no state: execution reports them.
 */
static int lstm_plan_cells(nn_op_call *c, const lstm_layout *const *l, int n, void **state)
{
    *state = NULL;
    cell_dims d[2];
    for (int i = 0; i < n; i++) {
        if (!present(c, l[i]->w_x + 1) || !present(c, l[i]->w_h + 1) || !cell_constant(c, l[i]))
            return SEQ_OK;
        size_t n_aux = 0;
        if (l[i]->w_aux >= 0 && present(c, l[i]->w_aux + 1)) {
            if (c->in[l[i]->w_aux + 1]->rank != 2)
                return SEQ_OK;
            n_aux = c->in[l[i]->w_aux + 1]->dims[1];
        }
        if (cell_dims_of(c, l[i], n_aux, &d[i]))
            return SEQ_OK;
    }
    lstm_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = SEQ_OK;
    for (int i = 0; i < n && rc == SEQ_OK; i++)
        rc = cell_weights(c, l[i], &d[i], &st->w[i]);
    if (rc != SEQ_OK) {
        lstm_release(st);
        return rc;
    }
    *state = st;
    return SEQ_OK;
}

/* The planned cell i, or one built now into *own (freed by the caller). */
static int cell_weights_for(const nn_op_call *c, int i, const lstm_layout *l, const cell_dims *d,
                            nn_lstm_weights **own, const nn_lstm_weights **w)
{
    const lstm_state *st = c->state;
    *own = NULL;
    if (st != NULL && st->w[i] != NULL) {
        *w = st->w[i];
        return SEQ_OK;
    }
    int rc = cell_weights(c, l, d, own);
    *w = *own;
    return rc;
}

static nn_lstm_params params_of(const nn_op_call *c, int act, int clip)
{
    nn_lstm_params p = {nn_scalar_i32(c->in[act]), nn_scalar_f32(c->in[clip]),
                        nn_scalar_f32(c->in[clip + 1])};
    return p;
}

static bool float_type_ok(const nn_op_call *c, int32_t t)
{
    if (t == T_F32 || (t == T_F16 && c->feature_level >= FL3))
        return true;
    nn_reason("input of type %s, expected TENSOR_FLOAT32 or TENSOR_FLOAT16", nn_type_name(t));
    return false;
}

/* Activation (INT32: 0, 1, 3, 4, 6) and the two clip scalars. */
static int params_validate(const nn_op_call *c, int act, int clip, int32_t t)
{
    const nn_tensor *a = c->in[act];
    if (seq_check_scalar(a, ANEURALNETWORKS_INT32))
        return SEQ_BAD;
    if (a->data != NULL) {
        int32_t v = nn_scalar_i32(a);
        /* A constant like any fused activation: checked when computing. */
        if (nn_check_value(c, v == 0 || v == 1 || v == 3 || v == 4 || v == 6,
                           "input %d (activation) is %d, expected 0, 1, 3, 4 or 6", act, v))
            return SEQ_BAD;
    }
    int32_t ft = seq_scalar_type_for(t);
    /* Android's validation wants FLOAT16 clips on a float16 LSTM and
     * UNIDIRECTIONAL_SEQUENCE_LSTM; BIDIRECTIONAL_SEQUENCE_LSTM also takes
     * FLOAT32 ones. */
    bool f32_ok = c->op_type == ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM;
    for (int i = clip; i <= clip + 1; i++) {
        const nn_tensor *s = c->in[i];
        if (s->omitted || (s->type != ft && !(f32_ok && s->type == ANEURALNETWORKS_FLOAT32)))
            return nn_invalid("input %d (clip) of type %s, expected %s", i, nn_type_name(s->type),
                              nn_type_name(ft));
        if (s->data != NULL && nn_scalar_f32(s) < 0.0f)
            return SEQ_BAD;
    }
    return SEQ_OK;
}

static void set2(nn_tensor *t, size_t a, size_t b)
{
    nn_tensor_set_small_rank(t, 2);
    t->dims[0] = (uint32_t)a;
    t->dims[1] = (uint32_t)b;
}

static void set3(nn_tensor *t, size_t a, size_t b, size_t c)
{
    nn_tensor_set_small_rank(t, 3);
    t->dims[0] = (uint32_t)a;
    t->dims[1] = (uint32_t)b;
    t->dims[2] = (uint32_t)c;
}

/* ------------------------------------------------------------------ */
/* LSTM                                                                */

enum { L_X = 0, L_H = 18, L_C = 19, L_ACT = 20, L_CLIP = 21 };

static int lstm_validate(const nn_op_call *c)
{
    if ((c->n_in != 23 && c->n_in != 27) || c->n_out != 4)
        return SEQ_BAD;
    if (c->n_in == 27 && c->feature_level < FL3)
        return SEQ_BAD;
    int32_t t = c->in[L_X]->type;
    if (!float_type_ok(c, t) || seq_check_tensor(c->in[L_X], t, 2) ||
        seq_check_tensor(c->in[L_H], t, 2) || seq_check_tensor(c->in[L_C], t, 2))
        return SEQ_BAD;
    if (cell_validate(c, &layout_step, t) || params_validate(c, L_ACT, L_CLIP, t))
        return SEQ_BAD;
    for (int i = 0; i < 4; i++)
        if (c->out[i]->type != t)
            return SEQ_BAD;
    return SEQ_OK;
}

static int lstm_prepare(nn_op_call *c)
{
    cell_dims d;
    const nn_tensor *x = c->in[L_X], *h = c->in[L_H], *cs = c->in[L_C];
    if (x->rank != 2 || cell_dims_of(c, &layout_step, 0, &d))
        return SEQ_BAD;
    size_t B = x->dims[0];
    if (x->dims[1] != d.I || !dims_are(h, 2, B, d.P) || !dims_are(cs, 2, B, d.U))
        return SEQ_BAD;
    /* The scratch width depends on CIFG, unknown before execution while the
     * input-to-input weights are a model input that may still be omitted. */
    int w_x = seq_presence(c, layout_step.w_x);
    if (w_x != SEQ_UNKNOWN)
        set2(c->out[0], B, (w_x == SEQ_PRESENT ? 4 : 3) * d.U);
    set2(c->out[1], B, d.P);
    set2(c->out[2], B, d.U);
    set2(c->out[3], B, d.P);
    return SEQ_OK;
}

static int lstm_execute(nn_op_call *c)
{
    cell_dims d;
    if (cell_dims_of(c, &layout_step, 0, &d))
        return SEQ_BAD;
    size_t B = c->in[L_X]->dims[0];
    nn_lstm_weights *own;
    const nn_lstm_weights *w;
    seq_fview x = {0}, h = {0}, cs = {0};
    seq_fout o[4];
    memset(o, 0, sizeof o);
    float *scratch = NULL, *hbuf = NULL, *cbuf = NULL, *xg = NULL;
    int rc = cell_weights_for(c, 0, &layout_step, &d, &own, &w);
    if (rc == SEQ_OK) {
        scratch = malloc(nn_lstm_scratch_floats(w, B) * sizeof(float));
        xg = malloc((B * nn_lstm_gate_width(w) + 1) * sizeof(float));
        hbuf = malloc((B * d.P + 1) * sizeof(float));
        cbuf = malloc((B * d.U + 1) * sizeof(float));
        if (scratch == NULL || xg == NULL || hbuf == NULL || cbuf == NULL)
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    if (rc == SEQ_OK)
        rc = seq_view(c->in[L_X], &x);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[L_H], &h);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[L_C], &cs);
    for (int i = 0; i < 4 && rc == SEQ_OK; i++)
        rc = seq_out_open(c->out[i], &o[i]);
    if (rc == SEQ_OK)
        rc = nn_lstm_input_product(w, B, x.p, d.I, NULL, 0, xg);
    if (rc == SEQ_OK) {
        nn_lstm_params p = params_of(c, L_ACT, L_CLIP);
        nn_lstm_step(w, &p, B, xg, nn_lstm_gate_width(w), h.p, d.P, cs.p, hbuf, d.P, cbuf,
                     scratch);
        /* The scratch-buffer output carries no specified values. */
        if (o[0].p)
            memset(o[0].p, 0, nn_tensor_count(c->out[0]) * sizeof(float));
        if (o[1].p)
            memcpy(o[1].p, hbuf, B * d.P * sizeof(float));
        if (o[2].p)
            memcpy(o[2].p, cbuf, B * d.U * sizeof(float));
        if (o[3].p)
            memcpy(o[3].p, hbuf, B * d.P * sizeof(float));
    }
    for (int i = 0; i < 4; i++)
        seq_out_close(&o[i], rc == SEQ_OK);
    seq_view_free(&x);
    seq_view_free(&h);
    seq_view_free(&cs);
    nn_lstm_weights_free(own);
    free(scratch);
    free(xg);
    free(hbuf);
    free(cbuf);
    return rc;
}

static int lstm_plan(nn_op_call *c, void **state)
{
    const lstm_layout *l[1] = {&layout_step};
    return lstm_plan_cells(c, l, 1, state);
}

const nn_op_def nn_op_LSTM = {
    .code = ANEURALNETWORKS_LSTM,
    .name = "LSTM",
    .validate = lstm_validate,
    .prepare = lstm_prepare,
    .execute = lstm_execute,
    .plan = lstm_plan,
    .release = lstm_release,
    .optional_inputs = true,
};

/* ------------------------------------------------------------------ */
/* Sequence runner shared by the uni- and bidirectional operations      */

/*
 * Runs one direction over the sequence. in/aux: sequences with row widths
 * n_in/n_aux ([T, B, n] time-major, else [B, T, n]); out: sequence with row
 * width out_w, this cell's columns at out_off (may be NULL). h0/c0:
 * initial states. The final states go to h_final/c_final when not NULL.
 */
typedef struct dir_run {
    const nn_lstm_weights *w;
    const nn_lstm_params *p;
    bool time_major, reverse;
    size_t T, B;
    const float *in, *aux;
    float *out;
    size_t out_w, out_off;
    const float *h0, *c0;
    float *h_final, *c_final;
    size_t n_in, n_aux, n_cell, n_out; /* input/aux row widths (aux 0 unless weighted) */
} dir_run;

static size_t row_of(const dir_run *r, size_t t, size_t b)
{
    return r->time_major ? t * r->B + b : b * r->T + t;
}

/* Time steps whose input products are computed in one block. */
#define STEP_BLOCK 16

/*
 * Input products of the steps t0 .. t0 + n - 1 into xg: row (t, b) at
 * ((t - t0) * B + b) * GU time-major, (b * n + t - t0) * GU batch-major,
 * so each layout's rows are contiguous in both the input and xg.
 */
static int dir_input_block(const dir_run *r, size_t t0, size_t n, float *xg)
{
    const nn_lstm_weights *w = r->w;
    size_t I = r->n_in, A = r->n_aux, GU = nn_lstm_gate_width(w);
    if (r->time_major || r->B == 1) {
        size_t r0 = row_of(r, t0, 0);
        return nn_lstm_input_product(w, n * r->B, r->in + r0 * I, I,
                                     r->aux ? r->aux + r0 * A : NULL, A, xg);
    }
    for (size_t b = 0; b < r->B; b++) {
        size_t r0 = row_of(r, t0, b);
        int rc = nn_lstm_input_product(w, n, r->in + r0 * I, I, r->aux ? r->aux + r0 * A : NULL,
                                       A, xg + b * n * GU);
        if (rc != SEQ_OK)
            return rc;
    }
    return SEQ_OK;
}

static int dir_execute(const dir_run *r)
{
    const nn_lstm_weights *w = r->w;
    size_t B = r->B, T = r->T, U = r->n_cell, P = r->n_out, GU = nn_lstm_gate_width(w);
    size_t blk = T < STEP_BLOCK ? T : STEP_BLOCK;
    float *scratch = malloc(nn_lstm_scratch_floats(w, B) * sizeof(float));
    float *xg = malloc((blk * B * GU + 1) * sizeof(float));
    float *h = malloc((2 * B * P + 1) * sizeof(float));
    float *cs = malloc((B * U + 1) * sizeof(float));
    int rc = scratch && xg && h && cs ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
    float *h_prev = h, *h_next = h + B * P;
    if (rc == SEQ_OK) {
        memcpy(h_prev, r->h0, B * P * sizeof(float));
        memcpy(cs, r->c0, B * U * sizeof(float));
    }
    size_t t0 = 0, n = 0; /* the block of steps in xg */
    for (size_t s = 0; s < T && rc == SEQ_OK; s++) {
        size_t t = r->reverse ? T - 1 - s : s;
        if (s % blk == 0) {
            n = T - s < blk ? T - s : blk;
            t0 = r->reverse ? t + 1 - n : t;
            rc = dir_input_block(r, t0, n, xg);
            if (rc != SEQ_OK)
                break;
        }
        bool tm = r->time_major || B == 1;
        const float *x = xg + (tm ? (t - t0) * B : t - t0) * GU;
        nn_lstm_step(w, r->p, B, x, tm ? GU : n * GU, h_prev, P, cs, h_next, P, cs, scratch);
        if (r->out != NULL)
            for (size_t b = 0; b < B; b++)
                memcpy(r->out + row_of(r, t, b) * r->out_w + r->out_off, h_next + b * P,
                       P * sizeof(float));
        float *sw = h_prev;
        h_prev = h_next;
        h_next = sw;
    }
    if (rc == SEQ_OK && r->h_final)
        memcpy(r->h_final, h_prev, B * P * sizeof(float));
    if (rc == SEQ_OK && r->c_final)
        memcpy(r->c_final, cs, B * U * sizeof(float));
    free(scratch);
    free(xg);
    free(h);
    free(cs);
    return rc;
}

/* ------------------------------------------------------------------ */
/* UNIDIRECTIONAL_SEQUENCE_LSTM                                        */

enum { U_X = 0, U_H = 18, U_C = 19, U_ACT = 20, U_CLIP = 21, U_TIME_MAJOR = 23 };

static int ulstm_validate(const nn_op_call *c)
{
    if ((c->n_in != 24 && c->n_in != 28) || (c->n_out != 1 && c->n_out != 3) ||
        c->feature_level < FL3)
        return SEQ_BAD;
    if (c->n_out == 3 && c->feature_level < FL4)
        return SEQ_BAD;
    int32_t t = c->in[U_X]->type;
    if (!float_type_ok(c, t) || seq_check_tensor(c->in[U_X], t, 3) ||
        seq_check_tensor(c->in[U_H], t, 2) || seq_check_tensor(c->in[U_C], t, 2))
        return SEQ_BAD;
    if (cell_validate(c, &layout_uni, t) || params_validate(c, U_ACT, U_CLIP, t) ||
        seq_check_scalar(c->in[U_TIME_MAJOR], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    for (uint32_t i = 0; i < c->n_out; i++)
        if (c->out[i]->type != t)
            return SEQ_BAD;
    return SEQ_OK;
}

static int ulstm_shape(const nn_op_call *c, cell_dims *d, bool *tm, size_t *T, size_t *B)
{
    const nn_tensor *x = c->in[U_X];
    if (x->rank != 3 || cell_dims_of(c, &layout_uni, 0, d))
        return SEQ_BAD;
    *tm = nn_scalar_bool(c->in[U_TIME_MAJOR]);
    *T = *tm ? x->dims[0] : x->dims[1];
    *B = *tm ? x->dims[1] : x->dims[0];
    if (x->dims[2] != d->I || !dims_are(c->in[U_H], 2, *B, d->P) ||
        !dims_are(c->in[U_C], 2, *B, d->U))
        return SEQ_BAD;
    return SEQ_OK;
}

static int ulstm_prepare(nn_op_call *c)
{
    if (c->in[U_TIME_MAJOR]->data == NULL)
        return SEQ_OK;
    cell_dims d;
    bool tm;
    size_t T, B;
    if (ulstm_shape(c, &d, &tm, &T, &B))
        return SEQ_BAD;
    set3(c->out[0], c->in[U_X]->dims[0], c->in[U_X]->dims[1], d.P);
    if (c->n_out == 3) {
        set2(c->out[1], B, d.P);
        set2(c->out[2], B, d.U);
    }
    return SEQ_OK;
}

static int ulstm_execute(nn_op_call *c)
{
    cell_dims d;
    bool tm;
    size_t T, B;
    if (ulstm_shape(c, &d, &tm, &T, &B))
        return SEQ_BAD;
    nn_lstm_weights *own;
    const nn_lstm_weights *w;
    seq_fview x = {0}, h = {0}, cs = {0};
    seq_fout o[3];
    memset(o, 0, sizeof o);
    int rc = cell_weights_for(c, 0, &layout_uni, &d, &own, &w);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[U_X], &x);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[U_H], &h);
    if (rc == SEQ_OK)
        rc = seq_view(c->in[U_C], &cs);
    for (uint32_t i = 0; i < c->n_out && rc == SEQ_OK; i++)
        rc = seq_out_open(c->out[i], &o[i]);
    if (rc == SEQ_OK) {
        nn_lstm_params p = params_of(c, U_ACT, U_CLIP);
        dir_run r = {.w = w, .p = &p, .time_major = tm, .T = T, .B = B, .in = x.p,
                     .out = o[0].p, .out_w = d.P, .h0 = h.p, .c0 = cs.p, .h_final = o[1].p,
                     .c_final = o[2].p, .n_in = d.I, .n_cell = d.U, .n_out = d.P};
        rc = dir_execute(&r);
    }
    for (int i = 0; i < 3; i++)
        seq_out_close(&o[i], rc == SEQ_OK);
    seq_view_free(&x);
    seq_view_free(&h);
    seq_view_free(&cs);
    nn_lstm_weights_free(own);
    return rc;
}

static int ulstm_plan(nn_op_call *c, void **state)
{
    const lstm_layout *l[1] = {&layout_uni};
    return lstm_plan_cells(c, l, 1, state);
}

const nn_op_def nn_op_UNIDIRECTIONAL_SEQUENCE_LSTM = {
    .code = ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM,
    .name = "UNIDIRECTIONAL_SEQUENCE_LSTM",
    .validate = ulstm_validate,
    .prepare = ulstm_prepare,
    .execute = ulstm_execute,
    .plan = ulstm_plan,
    .release = lstm_release,
    .optional_inputs = true,
};

/* ------------------------------------------------------------------ */
/* BIDIRECTIONAL_SEQUENCE_LSTM                                         */

enum {
    B_X = 0, B_FW_H = 35, B_FW_C = 36, B_BW_H = 37, B_BW_C = 38, B_AUX = 39, B_ACT = 48,
    B_CLIP = 49, B_MERGE = 51, B_TIME_MAJOR = 52, B_N_IN = 61
};

static bool blstm_counts_ok(const nn_op_call *c, bool merge)
{
    uint32_t base = merge ? 1 : 2;
    if (c->n_out == base)
        return true;
    return c->n_out == base + 4 && c->feature_level >= FL4;
}

/* Aux weights need the aux input and come for both directions; aux input
 * without weights (parallel linking) is FL4+. */
static bool aux_linking_bad(const nn_op_call *c, int aux_idx, int fw_w, int bw_w)
{
    int aux = seq_presence(c, aux_idx);
    int fw = seq_presence(c, fw_w), bw = seq_presence(c, bw_w);
    if ((fw == SEQ_PRESENT && bw == SEQ_ABSENT) || (fw == SEQ_ABSENT && bw == SEQ_PRESENT))
        return true;
    if (fw == SEQ_PRESENT && aux == SEQ_ABSENT)
        return true;
    return aux == SEQ_PRESENT && fw == SEQ_ABSENT && c->feature_level < FL4;
}

static int blstm_validate(const nn_op_call *c)
{
    if (c->n_in != B_N_IN || c->feature_level < FL3)
        return SEQ_BAD;
    int32_t t = c->in[B_X]->type;
    if (!float_type_ok(c, t) || seq_check_tensor(c->in[B_X], t, 3))
        return SEQ_BAD;
    for (int i = B_FW_H; i <= B_BW_C; i++) {
        if (!present(c, i) || seq_check_tensor(c->in[i], t, i == B_FW_C ? 0 : 2))
            return SEQ_BAD;
        /* Android's validation checks only the type of the forward cell
         * state; its rank is checked when computing. */
        const nn_tensor *s = c->in[i];
        if (i == B_FW_C && nn_check_value(c, s->rank == 0 || s->rank == 2,
                                          "input %d (forward cell state) of rank %u, expected 2",
                                          i, s->rank))
            return SEQ_BAD;
    }
    if (cell_validate(c, &layout_fw, t) || cell_validate(c, &layout_bw, t) ||
        params_validate(c, B_ACT, B_CLIP, t) ||
        seq_check_scalar(c->in[B_MERGE], ANEURALNETWORKS_BOOL) ||
        seq_check_scalar(c->in[B_TIME_MAJOR], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    if (present(c, B_AUX) && seq_check_tensor(c->in[B_AUX], t, 0))
        return SEQ_BAD;
    if (aux_linking_bad(c, B_AUX, layout_fw.w_aux + 1, layout_bw.w_aux + 1))
        return nn_invalid("the auxiliary input and auxiliary weights are not given together");
    if (c->in[B_MERGE]->data != NULL) {
        if (!blstm_counts_ok(c, nn_scalar_bool(c->in[B_MERGE])))
            return nn_invalid("%u outputs do not fit merge_outputs %d", c->n_out,
                              nn_scalar_bool(c->in[B_MERGE]));
    } else if (!blstm_counts_ok(c, true) && !blstm_counts_ok(c, false)) {
        return SEQ_BAD;
    }
    for (uint32_t i = 0; i < c->n_out; i++)
        if (c->out[i]->type != t)
            return SEQ_BAD;
    return SEQ_OK;
}

typedef struct blstm_dims {
    bool tm, merge, aux, aux_w;
    size_t T, B, A;
    cell_dims fw, bw;
} blstm_dims;

static int blstm_shape(const nn_op_call *c, blstm_dims *d)
{
    const nn_tensor *x = c->in[B_X];
    if (x->rank != 3)
        return SEQ_BAD;
    d->tm = nn_scalar_bool(c->in[B_TIME_MAJOR]);
    d->merge = nn_scalar_bool(c->in[B_MERGE]);
    d->T = d->tm ? x->dims[0] : x->dims[1];
    d->B = d->tm ? x->dims[1] : x->dims[0];
    d->aux = present(c, B_AUX);
    d->aux_w = present(c, layout_fw.w_aux + 1);
    d->A = 0;
    if (d->aux) {
        const nn_tensor *ax = c->in[B_AUX];
        if (ax->rank != 3 || ax->dims[0] != x->dims[0] || ax->dims[1] != x->dims[1])
            return SEQ_BAD;
        d->A = ax->dims[2];
    }
    size_t aux_n = d->aux_w ? d->A : 0;
    if (cell_dims_of(c, &layout_fw, aux_n, &d->fw) || cell_dims_of(c, &layout_bw, aux_n, &d->bw))
        return SEQ_BAD;
    /* Parallel linking: the backward cell reads the aux input. */
    size_t bw_in = d->aux && !d->aux_w ? d->A : x->dims[2];
    if (d->fw.I != x->dims[2] || d->bw.I != bw_in)
        return SEQ_BAD;
    if (!dims_are(c->in[B_FW_H], 2, d->B, d->fw.P) || !dims_are(c->in[B_FW_C], 2, d->B, d->fw.U) ||
        !dims_are(c->in[B_BW_H], 2, d->B, d->bw.P) || !dims_are(c->in[B_BW_C], 2, d->B, d->bw.U))
        return SEQ_BAD;
    if (!blstm_counts_ok(c, d->merge))
        return SEQ_BAD;
    return SEQ_OK;
}

static int blstm_prepare(nn_op_call *c)
{
    if (c->in[B_MERGE]->data == NULL || c->in[B_TIME_MAJOR]->data == NULL)
        return SEQ_OK;
    blstm_dims d;
    if (blstm_shape(c, &d))
        return SEQ_BAD;
    uint32_t d0 = c->in[B_X]->dims[0], d1 = c->in[B_X]->dims[1];
    uint32_t k = 0;
    set3(c->out[k++], d0, d1, d.merge ? d.fw.P + d.bw.P : d.fw.P);
    if (!d.merge)
        set3(c->out[k++], d0, d1, d.bw.P);
    if (c->n_out > k) {
        set2(c->out[k], d.B, d.fw.P);
        set2(c->out[k + 1], d.B, d.fw.U);
        set2(c->out[k + 2], d.B, d.bw.P);
        set2(c->out[k + 3], d.B, d.bw.U);
    }
    return SEQ_OK;
}

static int blstm_execute(nn_op_call *c)
{
    blstm_dims d;
    if (blstm_shape(c, &d))
        return SEQ_BAD;
    nn_lstm_params p = params_of(c, B_ACT, B_CLIP);
    nn_lstm_weights *own_fw = NULL, *own_bw = NULL;
    const nn_lstm_weights *fw = NULL, *bw = NULL;
    seq_fview v[5];
    memset(v, 0, sizeof v);
    seq_fout o[6];
    memset(o, 0, sizeof o);
    int rc = cell_weights_for(c, 0, &layout_fw, &d.fw, &own_fw, &fw);
    if (rc == SEQ_OK)
        rc = cell_weights_for(c, 1, &layout_bw, &d.bw, &own_bw, &bw);
    static const int seq_in[5] = {B_X, B_FW_H, B_FW_C, B_BW_H, B_BW_C};
    for (int i = 0; i < 5 && rc == SEQ_OK; i++)
        rc = seq_view(c->in[seq_in[i]], &v[i]);
    seq_fview aux = {0};
    if (rc == SEQ_OK && d.aux)
        rc = seq_view(c->in[B_AUX], &aux);
    for (uint32_t i = 0; i < c->n_out && rc == SEQ_OK; i++)
        rc = seq_out_open(c->out[i], &o[i]);
    if (rc == SEQ_OK) {
        uint32_t st = d.merge ? 1 : 2;
        bool states = c->n_out > st;
        size_t fw_w = d.merge ? d.fw.P + d.bw.P : d.fw.P;
        float *bw_out = d.merge ? o[0].p : o[1].p;
        const float *bw_in = d.aux && !d.aux_w ? aux.p : v[0].p;
        const float *cross = d.aux_w ? aux.p : NULL;
        dir_run f = {.w = fw, .p = &p, .time_major = d.tm, .T = d.T, .B = d.B, .in = v[0].p,
                     .aux = cross, .out = o[0].p, .out_w = fw_w, .h0 = v[1].p, .c0 = v[2].p,
                     .h_final = states ? o[st].p : NULL, .c_final = states ? o[st + 1].p : NULL,
                     .n_in = d.fw.I, .n_aux = d.fw.A, .n_cell = d.fw.U, .n_out = d.fw.P};
        dir_run b = {.w = bw, .p = &p, .time_major = d.tm, .reverse = true, .T = d.T, .B = d.B,
                     .in = bw_in, .aux = cross, .out = bw_out, .out_w = d.merge ? fw_w : d.bw.P,
                     .out_off = d.merge ? d.fw.P : 0, .h0 = v[3].p, .c0 = v[4].p,
                     .h_final = states ? o[st + 2].p : NULL,
                     .c_final = states ? o[st + 3].p : NULL, .n_in = d.bw.I, .n_aux = d.bw.A,
                     .n_cell = d.bw.U, .n_out = d.bw.P};
        rc = dir_execute(&f);
        if (rc == SEQ_OK)
            rc = dir_execute(&b);
    }
    for (int i = 0; i < 6; i++)
        seq_out_close(&o[i], rc == SEQ_OK);
    for (int i = 0; i < 5; i++)
        seq_view_free(&v[i]);
    seq_view_free(&aux);
    nn_lstm_weights_free(own_fw);
    nn_lstm_weights_free(own_bw);
    return rc;
}

static int blstm_plan(nn_op_call *c, void **state)
{
    const lstm_layout *l[2] = {&layout_fw, &layout_bw};
    return lstm_plan_cells(c, l, 2, state);
}

const nn_op_def nn_op_BIDIRECTIONAL_SEQUENCE_LSTM = {
    .code = ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM,
    .name = "BIDIRECTIONAL_SEQUENCE_LSTM",
    .validate = blstm_validate,
    .prepare = blstm_prepare,
    .execute = blstm_execute,
    .plan = blstm_plan,
    .release = lstm_release,
    .optional_inputs = true,
};
