/*
 * MobileNet v1 and v2 1.0/224 as graphs of layers with deterministic random
 * weights, and their NNAPI models: shared by bench_mobilenet and
 * bench_compile.
 */
#ifndef NN_BENCH_MOBILENET_NET_H
#define NN_BENCH_MOBILENET_NET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "android/NeuralNetworks.h"
#include "bench_util.h"

/* ---- graph description ---- */

typedef enum { N_CONV, N_DW, N_ADD, N_GAP, N_FC } node_kind;
typedef enum { T_INPUT, T_RELU6, T_LINEAR, T_SUM } act_kind;
typedef enum { D_F32, D_U8, D_I8 } dtype;
extern const char *const dtype_names[3];

typedef struct {
    uint32_t h, w, c;
    act_kind act;
} tensor_desc;

typedef struct {
    node_kind kind;
    uint32_t k, stride, cout;
    bool relu6;
    int in0, in1, out; /* tensor indices */
} node;

#define MAX_NODES 96
#define MAX_TENSORS 128

typedef struct {
    const char *name;
    node nodes[MAX_NODES];
    tensor_desc t[MAX_TENSORS];
    int n_nodes, n_tensors;
} net;

/* The weights of one node in every form both libraries take, derived from
 * one set of int8 codes and channel scales so that all dtypes share them. */
typedef struct {
    size_t count, channels;
    void *data;       /* f32, uint8 (zero 128) or int8 */
    float *scales;    /* per channel (int8 conv/dw), else scales[0] */
    int32_t *qbias;   /* channels */
    float *fbias;     /* channels */
    bool per_channel;
} weights;

void build_v1(net *g);
void build_v2(net *g);
/* Multiply-adds of one node. */
double node_macs(const net *g, const node *n);

/* The benchmarks' random numbers (xorshift), reseeded by setting rng_state. */
extern uint64_t rng_state;
uint32_t rng_next(void);
float rng_unit(void);

/* Quantization of an activation of the given kind. */
float act_scale(act_kind a);
int32_t act_zero(act_kind a, dtype d);

void weights_make(const net *g, const node *n, dtype d, weights *w);
void weights_free(weights *w);

/* The finished NNAPI model of nodes [first, last) of g (the input of
 * `first` is the model input), with the weights w[first .. last) (which must
 * outlive it). Exits on failure. */
ANeuralNetworksModel *mn_build_model(const net *g, int first, int last, dtype d, const weights *w);

#endif
