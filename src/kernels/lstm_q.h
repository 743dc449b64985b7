/*
 * 16-bit fixed-point arithmetic of the quantized LSTM cells. A value with
 * `ib` integer bits is an int16 raw r meaning r * 2^(ib - 15). The
 * transcendental functions reproduce the reference fixed-point algorithms
 * bit for bit (the conformance vectors depend on their exact rounding).
 */
#ifndef NN_KERNELS_LSTM_Q_H
#define NN_KERNELS_LSTM_Q_H

#include <stdint.h>

/* round(a * b / 2^15) with the single overflow case saturated. */
int16_t nn_q16_mul(int16_t a, int16_t b);
/* a + b clamped to int16. */
int16_t nn_q16_sat_add(int16_t a, int16_t b);
/* x / 2^e rounded to nearest, ties away from zero (e >= 0). */
int16_t nn_q16_rdiv_pot(int16_t x, int e);
/* logistic of a value with ib integer bits, result with 0 integer bits. */
int16_t nn_q16_logistic(int16_t a, int ib);
/* tanh of a value with ib integer bits, result with 0 integer bits. */
int16_t nn_q16_tanh(int16_t a, int ib);

/* 1 / sqrt(v) as a Q31 multiplier and left shift, with v's integer value
 * as input (the reference's fixed-point Newton iteration); v <= 1 gives
 * the largest multiplier. */
void nn_q_inv_sqrt(int32_t v, int32_t *mult, int *shift);

#endif
