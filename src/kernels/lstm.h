/*
 * The float32 LSTM cell shared by LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
 * BIDIRECTIONAL_SEQUENCE_LSTM. Gate order everywhere: input, forget,
 * cell, output. Optional parts are NULL pointers:
 *   CIFG          w_x[0], w_h[0], bias[0] NULL: input gate = 1 - forget gate
 *   peephole      peep[1], peep[2] (and peep[0] without CIFG)
 *   layer norm    ln[1..3] (and ln[0] without CIFG): each gate's
 *                 pre-activation is normalised over the cell, scaled by ln,
 *                 then the bias is added
 *   projection    w_proj (b_proj optional)
 *   auxiliary     w_aux[] with an aux input row
 */
#ifndef NN_KERNELS_LSTM_H
#define NN_KERNELS_LSTM_H

#include <stddef.h>

typedef struct nn_lstm_cell {
    size_t n_input, n_aux, n_cell, n_output;
    const float *w_x[4];   /* [n_cell, n_input] */
    const float *w_aux[4]; /* [n_cell, n_aux] */
    const float *w_h[4];   /* [n_cell, n_output] */
    const float *peep[3];  /* [n_cell] for input, forget, output */
    const float *bias[4];  /* [n_cell] */
    const float *ln[4];    /* [n_cell] */
    const float *w_proj;   /* [n_output, n_cell] */
    const float *b_proj;   /* [n_output] */
} nn_lstm_cell;

/*
 * The cell's weights prepared for repeated steps: the gate matrices stacked
 * ([input,] forget, cell, output rows; the input and aux weights side by
 * side along k) and packed for the GEMM, vectors copied. Built once per
 * compilation for constant weights, else once per execution; it does not
 * keep pointers into the cell.
 */
typedef struct nn_lstm_weights nn_lstm_weights;

/* NO_ERROR or OUT_OF_MEMORY (*out NULL then). */
int nn_lstm_weights_build(const nn_lstm_cell *cell, nn_lstm_weights **out);
void nn_lstm_weights_free(nn_lstm_weights *w);
/* Width of a row of gate pre-activations: 3 or 4 (CIFG) times n_cell. */
size_t nn_lstm_gate_width(const nn_lstm_weights *w);

/*
 * The input part of the gate pre-activations of `rows` rows at once (a whole
 * block of time steps): out[r] = x[r]·Wxᵀ + aux[r]·Waᵀ, plus the gate biases
 * when the cell has no layer normalisation. Row r of x is x + r * ldx (aux
 * likewise; aux NULL without aux weights); out rows are gate_width apart.
 * NO_ERROR or OUT_OF_MEMORY.
 */
int nn_lstm_input_product(const nn_lstm_weights *w, size_t rows, const float *x, size_t ldx,
                          const float *aux, size_t ld_aux, float *out);

/* The scalar parameters of the cell (not part of the weights). */
typedef struct nn_lstm_params {
    int activation;             /* 0 none, 1 relu, 3 relu6, 4 tanh, 6 sigmoid */
    float cell_clip, proj_clip; /* 0 = off */
} nn_lstm_params;

/* Floats of scratch nn_lstm_step needs for `batch` rows. */
size_t nn_lstm_scratch_floats(const nn_lstm_weights *w, size_t batch);

/*
 * One time step for `batch` rows. Row b of the input part xg (from
 * nn_lstm_input_product) is xg + b * ld_xg, of h_in h_in + b * ld_hin, of
 * c_in c_in + b * n_cell. Writes h_out (rows ld_hout apart) and c_out
 * ([batch, n_cell]); c_out may equal c_in, h_out must not overlap h_in.
 * scratch holds nn_lstm_scratch_floats floats.
 */
void nn_lstm_step(const nn_lstm_weights *w, const nn_lstm_params *p, size_t batch,
                  const float *xg, size_t ld_xg, const float *h_in, size_t ld_hin,
                  const float *c_in, float *h_out, size_t ld_hout, float *c_out, float *scratch);

#endif
