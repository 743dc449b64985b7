/* MobileNet graphs and their NNAPI models: see mobilenet_net.h. */
#include "mobilenet_net.h"

#include <math.h>
#include <string.h>

const char *const dtype_names[3] = {"f32", "uint8", "int8"};

static int net_tensor(net *g, uint32_t h, uint32_t w, uint32_t c, act_kind act)
{
    g->t[g->n_tensors] = (tensor_desc){h, w, c, act};
    return g->n_tensors++;
}

/* Appends a node reading tensor `in` (and in1 for ADD); returns its output. */
static int net_add(net *g, node_kind kind, int in, int in1, uint32_t k, uint32_t stride,
                   uint32_t cout, bool relu6)
{
    const tensor_desc *x = &g->t[in];
    uint32_t oh = (x->h + stride - 1) / stride, ow = (x->w + stride - 1) / stride, oc = cout;
    act_kind act = relu6 ? T_RELU6 : T_LINEAR;
    if (kind == N_DW)
        oc = x->c;
    if (kind == N_ADD) {
        oc = x->c;
        act = T_SUM;
    }
    if (kind == N_GAP) {
        oh = ow = 1;
        oc = x->c;
        act = x->act;
    }
    if (kind == N_FC)
        oh = ow = 1;
    int out = net_tensor(g, oh, ow, oc, act);
    g->nodes[g->n_nodes++] = (node){kind, k, stride, oc, relu6, in, in1, out};
    return out;
}

void build_v1(net *g)
{
    static const uint32_t blocks[13][2] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
                                           {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
                                           {512, 1}, {1024, 2}, {1024, 1}};
    memset(g, 0, sizeof *g);
    g->name = "v1";
    int x = net_tensor(g, 224, 224, 3, T_INPUT);
    x = net_add(g, N_CONV, x, -1, 3, 2, 32, true);
    for (int b = 0; b < 13; b++) {
        x = net_add(g, N_DW, x, -1, 3, blocks[b][1], 0, true);
        x = net_add(g, N_CONV, x, -1, 1, 1, blocks[b][0], true);
    }
    x = net_add(g, N_GAP, x, -1, 0, 1, 0, false);
    net_add(g, N_FC, x, -1, 0, 1, 1000, false);
}

void build_v2(net *g)
{
    /* expansion, output channels, repeats, first stride */
    static const uint32_t stages[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2},
                                          {6, 64, 4, 2}, {6, 96, 3, 1},  {6, 160, 3, 2},
                                          {6, 320, 1, 1}};
    memset(g, 0, sizeof *g);
    g->name = "v2";
    int x = net_tensor(g, 224, 224, 3, T_INPUT);
    x = net_add(g, N_CONV, x, -1, 3, 2, 32, true);
    for (int s = 0; s < 7; s++) {
        for (uint32_t r = 0; r < stages[s][2]; r++) {
            uint32_t stride = r == 0 ? stages[s][3] : 1, cin = g->t[x].c, cout = stages[s][1];
            int y = x;
            if (stages[s][0] != 1)
                y = net_add(g, N_CONV, y, -1, 1, 1, cin * stages[s][0], true);
            y = net_add(g, N_DW, y, -1, 3, stride, 0, true);
            y = net_add(g, N_CONV, y, -1, 1, 1, cout, false);
            if (stride == 1 && cin == cout)
                y = net_add(g, N_ADD, x, y, 0, 1, 0, false);
            x = y;
        }
    }
    x = net_add(g, N_CONV, x, -1, 1, 1, 1280, true);
    x = net_add(g, N_GAP, x, -1, 0, 1, 0, false);
    net_add(g, N_FC, x, -1, 0, 1, 1000, false);
}

double node_macs(const net *g, const node *n)
{
    const tensor_desc *x = &g->t[n->in0], *y = &g->t[n->out];
    double px = (double)y->h * y->w;
    switch (n->kind) {
    case N_CONV:
        return px * y->c * n->k * n->k * x->c;
    case N_DW:
        return px * y->c * n->k * n->k;
    case N_FC:
        return (double)x->c * y->c;
    default:
        return 0.0;
    }
}

/* ---- weights and quantization parameters ---- */

uint64_t rng_state;

uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

float rng_unit(void) { return (float)(rng_next() & 0xffffff) / (float)0x1000000; }

float act_scale(act_kind a)
{
    switch (a) {
    case T_INPUT:
        return 1.0f / 128.0f;
    case T_RELU6:
        return 6.0f / 255.0f;
    case T_LINEAR:
        return 0.08f;
    default:
        return 0.1f;
    }
}

int32_t act_zero(act_kind a, dtype d)
{
    if (d == D_F32)
        return 0;
    if (a == T_RELU6)
        return d == D_U8 ? 0 : -128;
    return d == D_U8 ? 128 : 0;
}


void weights_make(const net *g, const node *n, dtype d, weights *w)
{
    const tensor_desc *x = &g->t[n->in0];
    uint32_t fan_in = n->kind == N_DW ? n->k * n->k : (n->kind == N_FC ? x->c : n->k * n->k * x->c);
    w->channels = n->cout;
    w->count = (size_t)fan_in * n->cout;
    w->per_channel = d == D_I8 && n->kind != N_FC;
    float base = 0.018f / sqrtf((float)fan_in), in_scale = act_scale(x->act);
    w->scales = malloc(w->channels * sizeof(float));
    w->qbias = malloc(w->channels * sizeof(int32_t));
    w->fbias = malloc(w->channels * sizeof(float));
    w->data = malloc(w->count * (d == D_F32 ? 4 : 1));
    if (!w->scales || !w->qbias || !w->fbias || !w->data) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(n - g->nodes) * 0x100000001b3ull);
    for (size_t c = 0; c < w->channels; c++)
        w->scales[c] = w->per_channel ? base * (0.75f + 0.5f * rng_unit()) : base;
    /* Depthwise filters are [1, k, k, channels]; the others [channels, ...]. */
    for (size_t i = 0; i < w->count; i++) {
        int code = (int)(rng_next() % 255) - 127;
        size_t c = n->kind == N_DW ? i % w->channels : i / fan_in;
        if (d == D_F32)
            ((float *)w->data)[i] = (float)code * w->scales[c];
        else if (d == D_U8)
            ((uint8_t *)w->data)[i] = (uint8_t)(code + 128);
        else
            ((int8_t *)w->data)[i] = (int8_t)code;
    }
    for (size_t c = 0; c < w->channels; c++) {
        w->qbias[c] = (int32_t)(rng_next() % 2048) - 1024;
        w->fbias[c] = (float)w->qbias[c] * in_scale * w->scales[c];
    }
}

void weights_free(weights *w)
{
    free(w->data);
    free(w->scales);
    free(w->qbias);
    free(w->fbias);
}

/* ---- NNAPI ---- */

typedef struct {
    ANeuralNetworksModel *model;
    uint32_t next;
    dtype d;
} nn_builder;

static uint32_t nn_operand(nn_builder *b, int32_t type, uint32_t rank, const uint32_t *dims,
                           float scale, int32_t zp)
{
    ANeuralNetworksOperandType t = {.type = type, .dimensionCount = rank, .dimensions = dims,
                                    .scale = scale, .zeroPoint = zp};
    CHECK(ANeuralNetworksModel_addOperand(b->model, &t));
    return b->next++;
}

static uint32_t nn_i32(nn_builder *b, int32_t v)
{
    uint32_t idx = nn_operand(b, ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0);
    CHECK(ANeuralNetworksModel_setOperandValue(b->model, idx, &v, sizeof v));
    return idx;
}

static int32_t nn_act_type(dtype d)
{
    return d == D_F32 ? ANEURALNETWORKS_TENSOR_FLOAT32
                      : (d == D_U8 ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
                                   : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED);
}

static uint32_t nn_activation(nn_builder *b, const tensor_desc *t, bool flat)
{
    uint32_t dims[4] = {1, t->h, t->w, t->c}, flat_dims[2] = {1, t->c};
    return nn_operand(b, nn_act_type(b->d), flat ? 2 : 4, flat ? flat_dims : dims,
                      b->d == D_F32 ? 0.0f : act_scale(t->act), act_zero(t->act, b->d));
}

/* Filter and bias operands of a convolution-like node. The weight buffers
 * must outlive the model (setOperandValue may keep the pointer). */
static void nn_weights(nn_builder *b, const net *g, const node *n, const weights *w,
                       uint32_t *filter, uint32_t *bias)
{
    const tensor_desc *x = &g->t[n->in0];
    uint32_t dims[4], rank = 4;
    if (n->kind == N_CONV) {
        dims[0] = n->cout, dims[1] = dims[2] = n->k, dims[3] = x->c;
    } else if (n->kind == N_DW) {
        dims[0] = 1, dims[1] = dims[2] = n->k, dims[3] = n->cout;
    } else {
        dims[0] = n->cout, dims[1] = x->c, rank = 2;
    }
    float in_scale = act_scale(x->act);
    uint32_t bdims[1] = {n->cout};
    if (b->d == D_F32) {
        *filter = nn_operand(b, ANEURALNETWORKS_TENSOR_FLOAT32, rank, dims, 0.0f, 0);
        *bias = nn_operand(b, ANEURALNETWORKS_TENSOR_FLOAT32, 1, bdims, 0.0f, 0);
        CHECK(ANeuralNetworksModel_setOperandValue(b->model, *filter, w->data, w->count * 4));
        CHECK(ANeuralNetworksModel_setOperandValue(b->model, *bias, w->fbias, w->channels * 4));
        return;
    }
    if (w->per_channel) {
        *filter = nn_operand(b, ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, rank, dims, 0.0f, 0);
        ANeuralNetworksSymmPerChannelQuantParams pc = {
            .channelDim = n->kind == N_DW ? 3 : 0, .scaleCount = (uint32_t)w->channels,
            .scales = w->scales};
        CHECK(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(b->model, *filter, &pc));
        *bias = nn_operand(b, ANEURALNETWORKS_TENSOR_INT32, 1, bdims, 0.0f, 0);
    } else {
        *filter = nn_operand(b, nn_act_type(b->d), rank, dims, w->scales[0], b->d == D_U8 ? 128 : 0);
        *bias = nn_operand(b, ANEURALNETWORKS_TENSOR_INT32, 1, bdims, in_scale * w->scales[0], 0);
    }
    CHECK(ANeuralNetworksModel_setOperandValue(b->model, *filter, w->data, w->count));
    CHECK(ANeuralNetworksModel_setOperandValue(b->model, *bias, w->qbias, w->channels * 4));
}


ANeuralNetworksModel *mn_build_model(const net *g, int first, int last, dtype d, const weights *w)
{
    nn_builder b = {.d = d};
    CHECK(ANeuralNetworksModel_create(&b.model));
    uint32_t ids[MAX_TENSORS];
    int input = g->nodes[first].in0;
    ids[input] = nn_activation(&b, &g->t[input], false);
    uint32_t output = 0;
    for (int i = first; i < last; i++) {
        const node *n = &g->nodes[i];
        uint32_t ops[8], count = 0, filter, bias;
        int32_t fuse = n->relu6 ? ANEURALNETWORKS_FUSED_RELU6 : ANEURALNETWORKS_FUSED_NONE;
        int32_t opcode;
        ids[n->out] = nn_activation(&b, &g->t[n->out], n->kind == N_FC);
        switch (n->kind) {
        case N_CONV:
        case N_DW:
            nn_weights(&b, g, n, &w[i], &filter, &bias);
            ops[count++] = ids[n->in0];
            ops[count++] = filter;
            ops[count++] = bias;
            ops[count++] = nn_i32(&b, ANEURALNETWORKS_PADDING_SAME);
            ops[count++] = nn_i32(&b, (int32_t)n->stride);
            ops[count++] = nn_i32(&b, (int32_t)n->stride);
            if (n->kind == N_DW)
                ops[count++] = nn_i32(&b, 1);
            ops[count++] = nn_i32(&b, fuse);
            opcode = n->kind == N_DW ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D;
            break;
        case N_FC:
            nn_weights(&b, g, n, &w[i], &filter, &bias);
            ops[count++] = ids[n->in0];
            ops[count++] = filter;
            ops[count++] = bias;
            ops[count++] = nn_i32(&b, fuse);
            opcode = ANEURALNETWORKS_FULLY_CONNECTED;
            break;
        case N_ADD:
            ops[count++] = ids[n->in0];
            ops[count++] = ids[n->in1];
            ops[count++] = nn_i32(&b, fuse);
            opcode = ANEURALNETWORKS_ADD;
            break;
        default: {
            const tensor_desc *x = &g->t[n->in0];
            ops[count++] = ids[n->in0];
            ops[count++] = nn_i32(&b, ANEURALNETWORKS_PADDING_VALID);
            ops[count++] = nn_i32(&b, 1);
            ops[count++] = nn_i32(&b, 1);
            ops[count++] = nn_i32(&b, (int32_t)x->w);
            ops[count++] = nn_i32(&b, (int32_t)x->h);
            ops[count++] = nn_i32(&b, fuse);
            opcode = ANEURALNETWORKS_AVERAGE_POOL_2D;
            break;
        }
        }
        CHECK(ANeuralNetworksModel_addOperation(b.model, opcode, count, ops, 1, &ids[n->out]));
        output = ids[n->out];
    }
    uint32_t model_in = ids[input];
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(b.model, 1, &model_in, 1, &output));
    CHECK(ANeuralNetworksModel_finish(b.model));
    return b.model;
}
