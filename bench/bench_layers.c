/*
 * Times MobileNet-v1-shaped layers (3x3 convolution, depthwise 3x3, 1x1
 * convolution, fully connected) in float32 and quant8 through the public
 * NNAPI, one single-operation model per layer, and prints the time per
 * execution and the arithmetic rate. Usage: bench_layers [seconds per layer]
 * [name substring: only the layers whose name contains it]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "android/NeuralNetworks.h"
#include "bench_util.h"

enum { L_CONV, L_DW, L_FC };

typedef struct layer {
    const char *name;
    int kind;
    uint32_t h, w, cin, cout, k, stride;
} layer;

static const layer layers[] = {
    {"conv3x3 s2 224x224x3->32", L_CONV, 224, 224, 3, 32, 3, 2},
    {"dw3x3 s1 112x112x32", L_DW, 112, 112, 32, 32, 3, 1},
    {"conv1x1 112x112x32->64", L_CONV, 112, 112, 32, 64, 1, 1},
    {"dw3x3 s2 112x112x64", L_DW, 112, 112, 64, 64, 3, 2},
    {"conv1x1 56x56x128->128", L_CONV, 56, 56, 128, 128, 1, 1},
    {"conv3x3 s1 56x56x64->64", L_CONV, 56, 56, 64, 64, 3, 1},
    {"dw3x3 s1 28x28x256", L_DW, 28, 28, 256, 256, 3, 1},
    {"conv1x1 28x28x256->256", L_CONV, 28, 28, 256, 256, 1, 1},
    {"conv1x1 14x14x512->512", L_CONV, 14, 14, 512, 512, 1, 1},
    {"dw3x3 s1 14x14x512", L_DW, 14, 14, 512, 512, 3, 1},
    {"conv1x1 7x7x1024->1024", L_CONV, 7, 7, 1024, 1024, 1, 1},
    {"fc 1024->1000 batch 1", L_FC, 1, 1, 1024, 1000, 1, 1},
    {"fc 1024->1000 batch 64", L_FC, 64, 1, 1024, 1000, 1, 1},
};

static uint32_t add_operand(ANeuralNetworksModel *m, uint32_t *next, int32_t type, uint32_t rank,
                            const uint32_t *dims, float scale, int32_t zp)
{
    ANeuralNetworksOperandType t = {.type = type, .dimensionCount = rank, .dimensions = dims,
                                    .scale = scale, .zeroPoint = zp};
    CHECK(ANeuralNetworksModel_addOperand(m, &t));
    return (*next)++;
}

static uint32_t add_i32(ANeuralNetworksModel *m, uint32_t *next, int32_t v)
{
    uint32_t idx = add_operand(m, next, ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0);
    CHECK(ANeuralNetworksModel_setOperandValue(m, idx, &v, sizeof v));
    return idx;
}

static void bench(const layer *L, bool quant, double seconds)
{
    const int32_t tt = quant ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM : ANEURALNETWORKS_TENSOR_FLOAT32;
    const size_t es = quant ? 1 : 4;
    const float s_in = 0.02f, s_f = 0.01f, s_out = 0.05f;
    ANeuralNetworksModel *m;
    CHECK(ANeuralNetworksModel_create(&m));
    uint32_t next = 0, ops[16], nops = 0;
    uint32_t in_dims[4] = {1, L->h, L->w, L->cin};
    uint32_t in_rank = 4;
    if (L->kind == L_FC) {
        in_dims[0] = L->h;
        in_dims[1] = L->cin;
        in_rank = 2;
    }
    uint32_t input = add_operand(m, &next, tt, in_rank, in_dims, quant ? s_in : 0.0f, quant ? 128 : 0);
    uint32_t fdims[4], frank = 4;
    if (L->kind == L_CONV) {
        fdims[0] = L->cout, fdims[1] = fdims[2] = L->k, fdims[3] = L->cin;
    } else if (L->kind == L_DW) {
        fdims[0] = 1, fdims[1] = fdims[2] = L->k, fdims[3] = L->cout;
    } else {
        fdims[0] = L->cout, fdims[1] = L->cin, frank = 2;
    }
    size_t fcount = 1;
    for (uint32_t i = 0; i < frank; i++)
        fcount *= fdims[i];
    uint32_t filter = add_operand(m, &next, tt, frank, fdims, quant ? s_f : 0.0f, quant ? 120 : 0);
    void *fdata = malloc(fcount * es);
    for (size_t i = 0; i < fcount; i++) {
        if (quant)
            ((uint8_t *)fdata)[i] = (uint8_t)(rand() & 255);
        else
            ((float *)fdata)[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    }
    CHECK(ANeuralNetworksModel_setOperandValue(m, filter, fdata, fcount * es));
    uint32_t bdims[1] = {L->cout};
    uint32_t bias = add_operand(m, &next, quant ? ANEURALNETWORKS_TENSOR_INT32 : ANEURALNETWORKS_TENSOR_FLOAT32,
                                1, bdims, quant ? s_in * s_f : 0.0f, 0);
    void *bdata = calloc(L->cout, 4);
    CHECK(ANeuralNetworksModel_setOperandValue(m, bias, bdata, (size_t)L->cout * 4));
    ops[nops++] = input;
    ops[nops++] = filter;
    ops[nops++] = bias;
    uint32_t oh = (L->h + L->stride - 1) / L->stride, ow = (L->w + L->stride - 1) / L->stride;
    uint32_t out_dims[4] = {1, oh, ow, L->cout}, out_rank = 4;
    int32_t opcode;
    if (L->kind == L_FC) {
        out_dims[0] = L->h;
        out_dims[1] = L->cout;
        out_rank = 2;
        ops[nops++] = add_i32(m, &next, ANEURALNETWORKS_FUSED_NONE);
        opcode = ANEURALNETWORKS_FULLY_CONNECTED;
    } else {
        ops[nops++] = add_i32(m, &next, ANEURALNETWORKS_PADDING_SAME);
        ops[nops++] = add_i32(m, &next, (int32_t)L->stride);
        ops[nops++] = add_i32(m, &next, (int32_t)L->stride);
        if (L->kind == L_DW)
            ops[nops++] = add_i32(m, &next, 1);
        ops[nops++] = add_i32(m, &next, ANEURALNETWORKS_FUSED_RELU6);
        opcode = L->kind == L_DW ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D;
    }
    uint32_t output = add_operand(m, &next, tt, out_rank, out_dims, quant ? s_out : 0.0f, quant ? 128 : 0);
    CHECK(ANeuralNetworksModel_addOperation(m, opcode, nops, ops, 1, &output));
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &output));
    CHECK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksCompilation *comp;
    CHECK(ANeuralNetworksCompilation_create(m, &comp));
    CHECK(ANeuralNetworksCompilation_setPreference(comp, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED));
    CHECK(ANeuralNetworksCompilation_finish(comp));

    size_t in_count = (size_t)in_dims[0] * in_dims[1] * (in_rank == 4 ? (size_t)in_dims[2] * in_dims[3] : 1);
    size_t out_count = (size_t)out_dims[0] * out_dims[1] * (out_rank == 4 ? (size_t)out_dims[2] * out_dims[3] : 1);
    void *inbuf = malloc(in_count * es), *outbuf = malloc(out_count * es);
    for (size_t i = 0; i < in_count; i++) {
        if (quant)
            ((uint8_t *)inbuf)[i] = (uint8_t)(rand() & 255);
        else
            ((float *)inbuf)[i] = (float)rand() / (float)RAND_MAX;
    }
    double flops;
    if (L->kind == L_CONV)
        flops = 2.0 * oh * ow * L->cout * L->k * L->k * L->cin;
    else if (L->kind == L_DW)
        flops = 2.0 * oh * ow * L->cout * L->k * L->k;
    else
        flops = 2.0 * L->h * L->cout * L->cin;

    int runs = 0;
    double best = 1e30, total = 0.0;
    while (total < seconds || runs < 3) {
        ANeuralNetworksExecution *e;
        CHECK(ANeuralNetworksExecution_create(comp, &e));
        CHECK(ANeuralNetworksExecution_setInput(e, 0, NULL, inbuf, in_count * es));
        CHECK(ANeuralNetworksExecution_setOutput(e, 0, NULL, outbuf, out_count * es));
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
    printf("%-8s %-28s %9.3f ms %8.1f GFLOP/s (best %7.3f ms)\n", quant ? "quant8" : "float32", L->name,
           total / (runs - 1) * 1e3, flops / (total / (runs - 1)) * 1e-9, best * 1e3);
    free(inbuf);
    free(outbuf);
    free(fdata);
    free(bdata);
    ANeuralNetworksCompilation_free(comp);
    ANeuralNetworksModel_free(m);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.3;
    const char *only = argc > 2 ? argv[2] : NULL;
    srand(7);
    for (int q = 0; q < 2; q++)
        for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
            if (!only || strstr(layers[i].name, only))
                bench(&layers[i], q == 1, seconds);
    return 0;
}
