#include "kernels/lstm.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "kernels/gemm.h"

struct nn_lstm_weights {
    size_t n_input, n_aux, n_cell, n_output;
    bool cifg;
    size_t gates;            /* 3 (CIFG) or 4 */
    nn_sgemm_packed *wx;     /* [gates * n_cell, n_input + n_aux] */
    nn_sgemm_packed *wh;     /* [gates * n_cell, n_output] */
    nn_sgemm_packed *proj;   /* [n_output, n_cell], NULL without projection */
    float *x_bias;           /* [gates * n_cell] for the input product, NULL with layer norm */
    const float *peep[3], *bias[4], *ln[4]; /* into vec, NULL when absent */
    float *vec;
    float *b_proj;           /* [n_output], NULL when absent */
};

static float sigmoid(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

static float activate(int act, float v)
{
    switch (act) {
    case 1:
        return v > 0.0f ? v : 0.0f;
    case 3:
        return v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
    case 4:
        return tanhf(v);
    case 6:
        return sigmoid(v);
    default:
        return v;
    }
}

static float clip(float v, float lim)
{
    if (lim > 0.0f)
        return v < -lim ? -lim : (v > lim ? lim : v);
    return v;
}

/* Normalises one row to zero mean and unit variance, scales by ln. */
static void layer_norm(float *row, size_t n, const float *ln)
{
    float mean = 0.0f, var = 0.0f;
    for (size_t i = 0; i < n; i++)
        mean += row[i];
    mean /= (float)n;
    for (size_t i = 0; i < n; i++)
        var += (row[i] - mean) * (row[i] - mean);
    var /= (float)n;
    float inv = 1.0f / sqrtf(var + 1e-8f);
    for (size_t i = 0; i < n; i++)
        row[i] = (row[i] - mean) * inv * ln[i];
}

size_t nn_lstm_gate_width(const nn_lstm_weights *w)
{
    return w->gates * w->n_cell;
}

void nn_lstm_weights_free(nn_lstm_weights *w)
{
    if (w == NULL)
        return;
    nn_sgemm_packed_free(w->wx);
    nn_sgemm_packed_free(w->wh);
    nn_sgemm_packed_free(w->proj);
    free(w->x_bias);
    free(w->vec);
    free(w->b_proj);
    free(w);
}

/* Copies the present vectors of n floats into one block; *dst[i] points into it. */
static int copy_vectors(nn_lstm_weights *w, const float *const *src, const float **dst[],
                        size_t count, size_t n)
{
    size_t present = 0;
    for (size_t i = 0; i < count; i++)
        present += src[i] != NULL;
    if (n && present > SIZE_MAX / sizeof(float) / n)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    w->vec = malloc(present * n * sizeof(float) + 1);
    if (w->vec == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    float *p = w->vec;
    for (size_t i = 0; i < count; i++) {
        *dst[i] = NULL;
        if (src[i] == NULL)
            continue;
        memcpy(p, src[i], n * sizeof(float));
        *dst[i] = p;
        p += n;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_lstm_weights_build(const nn_lstm_cell *cell, nn_lstm_weights **out)
{
    *out = NULL;
    nn_lstm_weights *w = calloc(1, sizeof *w);
    if (w == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    size_t I = cell->n_input, A = cell->n_aux, U = cell->n_cell, P = cell->n_output;
    w->n_input = I;
    w->n_aux = cell->w_aux[1] ? A : 0;
    w->n_cell = U;
    w->n_output = P;
    w->cifg = cell->w_x[0] == NULL;
    w->gates = w->cifg ? 3 : 4;
    size_t K = I + w->n_aux, GU = w->gates * U, rows = GU > P ? GU : P;
    size_t cols = K > P ? K : P;
    cols = cols > U ? cols : U;
    /* The stacked matrices go through one staging buffer before packing. */
    float *stage = NULL;
    if (!(cols && rows > SIZE_MAX / sizeof(float) / cols))
        stage = malloc(rows * cols * sizeof(float) + 1);
    int rc = stage ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        for (size_t g = w->cifg, r = 0; g < 4; g++, r += U)
            for (size_t u = 0; u < U; u++) {
                memcpy(stage + (r + u) * K, cell->w_x[g] + u * I, I * sizeof(float));
                if (w->n_aux)
                    memcpy(stage + (r + u) * K + I, cell->w_aux[g] + u * w->n_aux,
                           w->n_aux * sizeof(float));
            }
        w->wx = nn_sgemm_pack(GU, K, stage, K);
        for (size_t g = w->cifg, r = 0; g < 4; g++, r += U)
            memcpy(stage + r * P, cell->w_h[g], U * P * sizeof(float));
        w->wh = nn_sgemm_pack(GU, P, stage, P);
        if (cell->w_proj)
            w->proj = nn_sgemm_pack(P, U, cell->w_proj, U);
        if (!w->wx || !w->wh || (cell->w_proj && !w->proj))
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    free(stage);
    bool ln = cell->ln[1] != NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR && !ln) {
        w->x_bias = malloc(GU * sizeof(float) + 1);
        if (w->x_bias == NULL)
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        for (size_t g = w->cifg, r = 0; w->x_bias && g < 4; g++, r += U)
            memcpy(w->x_bias + r, cell->bias[g], U * sizeof(float));
    }
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        const float *src[11] = {cell->peep[0], cell->peep[1], cell->peep[2], cell->bias[0],
                                cell->bias[1], cell->bias[2], cell->bias[3], cell->ln[0],
                                cell->ln[1], cell->ln[2], cell->ln[3]};
        const float **dst[11] = {&w->peep[0], &w->peep[1], &w->peep[2], &w->bias[0],
                                 &w->bias[1], &w->bias[2], &w->bias[3], &w->ln[0],
                                 &w->ln[1], &w->ln[2], &w->ln[3]};
        rc = copy_vectors(w, src, dst, 11, U);
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && cell->w_proj && cell->b_proj) {
        w->b_proj = malloc(P * sizeof(float) + 1);
        if (w->b_proj == NULL)
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        else
            memcpy(w->b_proj, cell->b_proj, P * sizeof(float));
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_lstm_weights_free(w);
        return rc;
    }
    *out = w;
    return rc;
}

int nn_lstm_input_product(const nn_lstm_weights *w, size_t rows, const float *x, size_t ldx,
                          const float *aux, size_t ld_aux, float *out)
{
    size_t I = w->n_input, A = w->n_aux, K = I + A, GU = nn_lstm_gate_width(w);
    if (A == 0) {
        nn_sgemm_prepacked(rows, x, ldx, w->wx, w->x_bias, -INFINITY, INFINITY, out, GU);
        return ANEURALNETWORKS_NO_ERROR;
    }
    /* With aux weights the two inputs sit side by side, as their weights do. */
    if (aux == NULL)
        return ANEURALNETWORKS_BAD_DATA;
    if (K && rows > SIZE_MAX / sizeof(float) / K)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    float *cat = malloc(rows * K * sizeof(float) + 1);
    if (cat == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (size_t r = 0; r < rows; r++) {
        memcpy(cat + r * K, x + r * ldx, I * sizeof(float));
        memcpy(cat + r * K + I, aux + r * ld_aux, A * sizeof(float));
    }
    nn_sgemm_prepacked(rows, cat, K, w->wx, w->x_bias, -INFINITY, INFINITY, out, GU);
    free(cat);
    return ANEURALNETWORKS_NO_ERROR;
}

size_t nn_lstm_scratch_floats(const nn_lstm_weights *w, size_t batch)
{
    /* The gate rows and the unprojected output. */
    return batch * (nn_lstm_gate_width(w) + w->n_cell) + 16;
}

void nn_lstm_step(const nn_lstm_weights *w, const nn_lstm_params *p, size_t batch,
                  const float *xg, size_t ld_xg, const float *h_in, size_t ld_hin,
                  const float *c_in, float *h_out, size_t ld_hout, float *c_out, float *scratch)
{
    size_t U = w->n_cell, GU = nn_lstm_gate_width(w);
    bool cifg = w->cifg;
    float *gates = scratch, *hid = scratch + batch * GU;
    nn_sgemm_prepacked(batch, h_in, ld_hin, w->wh, NULL, -INFINITY, INFINITY, gates, GU);
    for (size_t b = 0; b < batch; b++) {
        float *row = gates + b * GU;
        const float *xr = xg + b * ld_xg;
        for (size_t i = 0; i < GU; i++)
            row[i] += xr[i];
    }
    for (size_t b = 0; b < batch; b++) {
        const float *cp = c_in + b * U;
        /* Without an input gate the row starts at the forget gate. */
        float *gf = gates + b * GU + (cifg ? 0 : U);
        float *gi = cifg ? NULL : gf - U, *gc = gf + U, *go = gf + 2 * U;
        float *cn = c_out + b * U, *hb = hid + b * U;
        /* Peephole terms of the input and forget gates read the old state. */
        for (size_t u = 0; u < U; u++) {
            if (!cifg && w->peep[0])
                gi[u] += w->peep[0][u] * cp[u];
            if (w->peep[1])
                gf[u] += w->peep[1][u] * cp[u];
        }
        /* Without layer norm the biases came with the input product. */
        float *rows[3] = {gi, gf, gc};
        for (int g = cifg ? 1 : 0; g < 3 && w->ln[1]; g++) {
            layer_norm(rows[g], U, w->ln[g]);
            for (size_t u = 0; u < U; u++)
                rows[g][u] += w->bias[g][u];
        }
        for (size_t u = 0; u < U; u++) {
            float f = sigmoid(gf[u]);
            float i = cifg ? 1.0f - f : sigmoid(gi[u]);
            float c = f * cp[u] + i * activate(p->activation, gc[u]);
            cn[u] = clip(c, p->cell_clip);
        }
        if (w->peep[2])
            for (size_t u = 0; u < U; u++)
                go[u] += w->peep[2][u] * cn[u];
        if (w->ln[3]) {
            layer_norm(go, U, w->ln[3]);
            for (size_t u = 0; u < U; u++)
                go[u] += w->bias[3][u];
        }
        for (size_t u = 0; u < U; u++)
            hb[u] = sigmoid(go[u]) * activate(p->activation, cn[u]);
    }
    if (w->proj != NULL) {
        float lim = p->proj_clip;
        float lo = lim > 0.0f ? -lim : -INFINITY, hi = lim > 0.0f ? lim : INFINITY;
        nn_sgemm_prepacked(batch, hid, U, w->proj, w->b_proj, lo, hi, h_out, ld_hout);
    } else {
        for (size_t b = 0; b < batch; b++)
            memcpy(h_out + b * ld_hout, hid + b * U, U * sizeof(float));
    }
}
