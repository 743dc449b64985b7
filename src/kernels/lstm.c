#include "kernels/lstm.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/gemm.h"

size_t nn_lstm_scratch_floats(const nn_lstm_cell *cell, size_t batch)
{
    /* 4 gate blocks, one product buffer, the unprojected output. */
    return batch * (6 * cell->n_cell) + 16;
}

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

/* dst[b][u] (+)= src[b] · w[u] for batch rows; w may be NULL (no term). */
static void add_product(size_t batch, size_t n_cell, size_t k, const float *src, size_t ld,
                        const float *w, float *dst, float *tmp, int first)
{
    if (w == NULL || src == NULL)
        return;
    if (first) {
        nn_sgemm(batch, n_cell, k, src, ld, w, k, NULL, -INFINITY, INFINITY, dst, n_cell);
        return;
    }
    nn_sgemm(batch, n_cell, k, src, ld, w, k, NULL, -INFINITY, INFINITY, tmp, n_cell);
    for (size_t i = 0; i < batch * n_cell; i++)
        dst[i] += tmp[i];
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

void nn_lstm_step(const nn_lstm_cell *cell, size_t batch, const float *x, size_t ldx,
                  const float *aux, size_t ld_aux, const float *h_in, size_t ld_hin,
                  const float *c_in, float *h_out, size_t ld_hout, float *c_out, float *scratch)
{
    size_t U = cell->n_cell, P = cell->n_output, BU = batch * U;
    bool cifg = cell->w_x[0] == NULL;
    float *gate[4];
    for (int g = 0; g < 4; g++)
        gate[g] = scratch + (size_t)g * BU;
    float *tmp = scratch + 4 * BU, *hid = scratch + 5 * BU;

    for (int g = 0; g < 4; g++) {
        if (g == 0 && cifg)
            continue;
        add_product(batch, U, cell->n_input, x, ldx, cell->w_x[g], gate[g], tmp, 1);
        add_product(batch, U, cell->n_aux, aux, ld_aux, cell->w_aux[g], gate[g], tmp, 0);
        add_product(batch, U, P, h_in, ld_hin, cell->w_h[g], gate[g], tmp, 0);
    }
    for (size_t b = 0; b < batch; b++) {
        const float *cp = c_in + b * U;
        float *gi = gate[0] + b * U, *gf = gate[1] + b * U, *gc = gate[2] + b * U;
        float *go = gate[3] + b * U, *cn = c_out + b * U, *hb = hid + b * U;
        /* Peephole terms of the input and forget gates read the old state. */
        for (size_t u = 0; u < U; u++) {
            if (!cifg && cell->peep[0])
                gi[u] += cell->peep[0][u] * cp[u];
            if (cell->peep[1])
                gf[u] += cell->peep[1][u] * cp[u];
        }
        float *rows[3] = {gi, gf, gc};
        for (int g = 0; g < 3; g++) {
            if (g == 0 && cifg)
                continue;
            if (cell->ln[g])
                layer_norm(rows[g], U, cell->ln[g]);
            if (cell->bias[g])
                for (size_t u = 0; u < U; u++)
                    rows[g][u] += cell->bias[g][u];
        }
        for (size_t u = 0; u < U; u++) {
            float f = sigmoid(gf[u]);
            float i = cifg ? 1.0f - f : sigmoid(gi[u]);
            float c = f * cp[u] + i * activate(cell->activation, gc[u]);
            cn[u] = clip(c, cell->cell_clip);
        }
        if (cell->peep[2])
            for (size_t u = 0; u < U; u++)
                go[u] += cell->peep[2][u] * cn[u];
        if (cell->ln[3])
            layer_norm(go, U, cell->ln[3]);
        if (cell->bias[3])
            for (size_t u = 0; u < U; u++)
                go[u] += cell->bias[3][u];
        for (size_t u = 0; u < U; u++)
            hb[u] = sigmoid(go[u]) * activate(cell->activation, cn[u]);
    }
    if (cell->w_proj != NULL) {
        float lim = cell->proj_clip;
        float lo = lim > 0.0f ? -lim : -INFINITY, hi = lim > 0.0f ? lim : INFINITY;
        nn_sgemm(batch, P, U, hid, U, cell->w_proj, U, cell->b_proj, lo, hi, h_out, ld_hout);
    } else {
        for (size_t b = 0; b < batch; b++)
            memcpy(h_out + b * ld_hout, hid + b * U, U * sizeof(float));
    }
}
