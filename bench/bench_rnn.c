/*
 * Times recurrent operations through the public NNAPI: a sequence LSTM
 * (UNIDIRECTIONAL_SEQUENCE_LSTM, as the trained_lstm model uses) and a
 * sequence RNN, with constant weights, in float32 and float16, printing the
 * time per execution. Usage: bench_rnn [seconds per case]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "android/NeuralNetworks.h"
#include "bench_util.h"

enum { K_LSTM, K_RNN };

typedef struct rcase {
    const char *name;
    int kind;
    bool half;
    uint32_t batch, steps, input, units;
} rcase;

static const rcase cases[] = {
    {"seq LSTM 1024 units, 16 steps, batch 1", K_LSTM, false, 1, 16, 1024, 1024},
    {"seq LSTM 1024 units, 16 steps, batch 8", K_LSTM, false, 8, 16, 1024, 1024},
    {"seq LSTM 256 units, 28 steps, batch 1", K_LSTM, false, 1, 28, 28, 256},
    {"seq LSTM 1024 units, 16 steps, batch 8", K_LSTM, true, 8, 16, 1024, 1024},
    {"seq RNN 1024 units, 16 steps, batch 1", K_RNN, false, 1, 16, 1024, 1024},
    {"seq RNN 1024 units, 16 steps, batch 8", K_RNN, false, 8, 16, 1024, 1024},
};

/* float to IEEE half, truncating (benchmark data only; no subnormals). */
static uint16_t to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    int32_t e = (int32_t)((x >> 23) & 0xffu) - 127 + 15;
    if (e <= 0)
        return sign;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | ((uint32_t)e << 10) | ((x & 0x7fffffu) >> 13));
}

typedef struct builder {
    ANeuralNetworksModel *m;
    uint32_t next;
    int32_t ttype;
    size_t es;
    void *blobs[64];
    int n_blobs;
} builder;

static uint32_t operand(builder *b, int32_t type, uint32_t rank, const uint32_t *dims)
{
    ANeuralNetworksOperandType t = {.type = type, .dimensionCount = rank, .dimensions = dims};
    CHECK(ANeuralNetworksModel_addOperand(b->m, &t));
    return b->next++;
}

/* A constant tensor of small random values (the tensor type of the case). */
static uint32_t weights(builder *b, uint32_t rank, uint32_t d0, uint32_t d1)
{
    uint32_t dims[2] = {d0, d1};
    uint32_t idx = operand(b, b->ttype, rank, dims);
    size_t n = rank == 1 ? d0 : (size_t)d0 * d1;
    void *p = malloc(n * b->es);
    for (size_t i = 0; i < n; i++) {
        float v = ((float)rand() / (float)RAND_MAX - 0.5f) * 0.1f;
        if (b->es == 2) {
            ((uint16_t *)p)[i] = to_half(v);
        } else {
            ((float *)p)[i] = v;
        }
    }
    CHECK(ANeuralNetworksModel_setOperandValue(b->m, idx, p, n * b->es));
    b->blobs[b->n_blobs++] = p;
    return idx;
}

static uint32_t omitted(builder *b, uint32_t rank)
{
    uint32_t dims[2] = {0, 0};
    uint32_t idx = operand(b, b->ttype, rank, dims);
    CHECK(ANeuralNetworksModel_setOperandValue(b->m, idx, NULL, 0));
    return idx;
}

static uint32_t scalar(builder *b, int32_t type, const void *v, size_t bytes)
{
    uint32_t idx = operand(b, type, 0, NULL);
    CHECK(ANeuralNetworksModel_setOperandValue(b->m, idx, v, bytes));
    return idx;
}

static void bench(const rcase *C, double seconds)
{
    builder b = {.ttype = C->half ? ANEURALNETWORKS_TENSOR_FLOAT16 : ANEURALNETWORKS_TENSOR_FLOAT32,
                 .es = C->half ? 2 : 4};
    CHECK(ANeuralNetworksModel_create(&b.m));
    uint32_t B = C->batch, T = C->steps, I = C->input, U = C->units;
    uint32_t xd[3] = {B, T, I}, sd[2] = {B, U}, od[3] = {B, T, U};
    uint32_t ins[24], n_in = 0, model_in[3], n_model_in = 0;
    uint32_t x = operand(&b, b.ttype, 3, xd);
    ins[n_in++] = model_in[n_model_in++] = x;
    int32_t tanh_act = 4, no_act = 0;
    if (C->kind == K_LSTM) {
        for (int g = 0; g < 4; g++)
            ins[n_in++] = weights(&b, 2, U, I);
        for (int g = 0; g < 4; g++)
            ins[n_in++] = weights(&b, 2, U, U);
        for (int g = 0; g < 3; g++)
            ins[n_in++] = omitted(&b, 1);
        for (int g = 0; g < 4; g++)
            ins[n_in++] = weights(&b, 1, U, 0);
        ins[n_in++] = omitted(&b, 2);
        ins[n_in++] = omitted(&b, 1);
        ins[n_in++] = model_in[n_model_in++] = operand(&b, b.ttype, 2, sd);
        ins[n_in++] = model_in[n_model_in++] = operand(&b, b.ttype, 2, sd);
        ins[n_in++] = scalar(&b, ANEURALNETWORKS_INT32, &tanh_act, 4);
        /* The clips have the tensors' float type (a FLOAT16 scalar for a
         * FLOAT16 LSTM); zero is the same bit pattern in both. */
        float clip = 0.0f;
        int32_t clip_type = C->half ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
        ins[n_in++] = scalar(&b, clip_type, &clip, b.es);
        ins[n_in++] = scalar(&b, clip_type, &clip, b.es);
        bool tm = false;
        ins[n_in++] = scalar(&b, ANEURALNETWORKS_BOOL, &tm, 1);
    } else {
        ins[n_in++] = weights(&b, 2, U, I);
        ins[n_in++] = weights(&b, 2, U, U);
        ins[n_in++] = weights(&b, 1, U, 0);
        ins[n_in++] = model_in[n_model_in++] = operand(&b, b.ttype, 2, sd);
        ins[n_in++] = scalar(&b, ANEURALNETWORKS_INT32, &no_act, 4);
        int32_t tm = 0;
        ins[n_in++] = scalar(&b, ANEURALNETWORKS_INT32, &tm, 4);
    }
    uint32_t out = operand(&b, b.ttype, 3, od);
    int32_t code = C->kind == K_LSTM ? ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM
                                     : ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN;
    CHECK(ANeuralNetworksModel_addOperation(b.m, code, n_in, ins, 1, &out));
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(b.m, n_model_in, model_in, 1, &out));
    CHECK(ANeuralNetworksModel_finish(b.m));
    ANeuralNetworksCompilation *comp;
    CHECK(ANeuralNetworksCompilation_create(b.m, &comp));
    CHECK(ANeuralNetworksCompilation_finish(comp));

    size_t xn = (size_t)B * T * I, sn = (size_t)B * U, on = (size_t)B * T * U;
    void *xbuf = calloc(xn, b.es), *sbuf = calloc(sn, b.es), *obuf = malloc(on * b.es);
    for (size_t i = 0; i < xn; i++) {
        float v = (float)rand() / (float)RAND_MAX - 0.5f;
        if (b.es == 2) {
            ((uint16_t *)xbuf)[i] = to_half(v);
        } else {
            ((float *)xbuf)[i] = v;
        }
    }
    int runs = 0;
    double best = 1e30, total = 0.0;
    while (total < seconds || runs < 4) {
        ANeuralNetworksExecution *e;
        CHECK(ANeuralNetworksExecution_create(comp, &e));
        CHECK(ANeuralNetworksExecution_setInput(e, 0, NULL, xbuf, xn * b.es));
        for (uint32_t i = 1; i < n_model_in; i++)
            CHECK(ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, sbuf, sn * b.es));
        CHECK(ANeuralNetworksExecution_setOutput(e, 0, NULL, obuf, on * b.es));
        double t0 = bench_seconds(CLOCK_MONOTONIC);
        CHECK(ANeuralNetworksExecution_compute(e));
        double dt = bench_seconds(CLOCK_MONOTONIC) - t0;
        ANeuralNetworksExecution_free(e);
        if (runs > 0) { /* the first run warms caches and the thread pool */
            total += dt;
            best = dt < best ? dt : best;
        }
        runs++;
    }
    printf("%-8s %-40s %9.3f ms per run (best %8.3f ms)\n", C->half ? "float16" : "float32",
           C->name, total / (runs - 1) * 1e3, best * 1e3);
    free(xbuf);
    free(sbuf);
    free(obuf);
    for (int i = 0; i < b.n_blobs; i++)
        free(b.blobs[i]);
    ANeuralNetworksCompilation_free(comp);
    ANeuralNetworksModel_free(b.m);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    srand(7);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bench(&cases[i], seconds);
    return 0;
}
