/*
 * nnapi-run's translations of TFLite operators that no model of
 * tests/models uses, checked by value: small graphs are built in memory
 * (tensors, operators and their options tables, as tflite.c would read them
 * from a file), translated, compiled and run on the library, and their
 * outputs compared with results worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "tflite.h"
#include "translate.h"

enum { MAX_T = 16, MAX_O = 8 };

/* The feature level translated for: FL5 (the compositions), then 0 (the
 * runtime's, which has PACK, MIRROR_PAD, REVERSE and BATCH_MATMUL). */
static int64_t g_level;

/* A graph under construction. Options tables live in opt[]; each table is
 * a vtable followed by the table, its fields 4 bytes each. */
typedef struct {
    tfl_model m;
    tfl_tensor t[MAX_T];
    tfl_op o[MAX_O];
    int32_t shapes[MAX_T][4];
    int32_t io[MAX_O][2][6];
    int32_t inputs[4], outputs[4];
    _Alignas(8) uint8_t opt[1024];
    size_t opt_n;
} graph;

static void g_init(graph *g)
{
    memset(g, 0, sizeof *g);
    g->m.tensors = g->t;
    g->m.ops = g->o;
    g->m.inputs = g->inputs;
    g->m.outputs = g->outputs;
    g->m.n_subgraphs = 1;
    g->m.fb.p = g->opt;
    g->opt_n = 8; /* offset 0 means "no options" */
}

static int g_tensor(graph *g, int type, uint32_t rank, const int32_t *shape, const void *data, size_t size)
{
    int i = (int)g->m.n_tensors++;
    tfl_tensor *t = &g->t[i];
    t->name = "t";
    t->type = type;
    t->rank = rank;
    memcpy(g->shapes[i], shape, rank * sizeof *shape);
    t->shape = g->shapes[i];
    t->data = data;
    t->data_size = size;
    return i;
}

/* n fields of 4 bytes; present[k] == 0 leaves field k at its default. */
static size_t g_options(graph *g, uint32_t n, const int32_t *vals, const int *present)
{
    size_t vt = g->opt_n;
    uint16_t vsize = (uint16_t)(4 + 2 * n), tsize = (uint16_t)(4 + 4 * n);
    size_t table = (vt + vsize + 3) & ~(size_t)3;
    memcpy(g->opt + vt, &vsize, 2);
    memcpy(g->opt + vt + 2, &tsize, 2);
    for (uint32_t k = 0; k < n; k++) {
        uint16_t fo = present[k] ? (uint16_t)(4 + 4 * k) : 0;
        memcpy(g->opt + vt + 4 + 2 * k, &fo, 2);
        memcpy(g->opt + table + 4 + 4 * k, &vals[k], 4);
    }
    int32_t soff = (int32_t)(table - vt);
    memcpy(g->opt + table, &soff, 4);
    g->opt_n = table + tsize;
    g->m.fb.n = g->opt_n;
    return table;
}

static void g_op(graph *g, int code, uint32_t n_in, const int32_t *in, uint32_t n_out, const int32_t *out,
                 size_t options)
{
    int i = (int)g->m.n_ops++;
    tfl_op *o = &g->o[i];
    o->code = code;
    memcpy(g->io[i][0], in, n_in * sizeof *in);
    memcpy(g->io[i][1], out, n_out * sizeof *out);
    o->in = g->io[i][0];
    o->out = g->io[i][1];
    o->n_in = n_in;
    o->n_out = n_out;
    o->options = options;
}

static void g_io(graph *g, uint32_t n_in, const int32_t *in, uint32_t n_out, const int32_t *out)
{
    memcpy(g->inputs, in, n_in * sizeof *in);
    memcpy(g->outputs, out, n_out * sizeof *out);
    g->m.n_inputs = n_in;
    g->m.n_outputs = n_out;
}

/* Translates, compiles and runs; outputs are float32 or int32 buffers of
 * out_n[k] elements. Returns 0 on success, else prints why. */
static int g_run(graph *g, const float *const *in, const size_t *in_n, void *const *out, const size_t *out_n)
{
    nr_translation tr;
    char err[2048];
    if (nr_translate(&g->m, 0, g_level, &tr, err, sizeof err)) {
        printf("  translation failed: %s\n", err);
        return -1;
    }
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *x = NULL;
    int rc = ANeuralNetworksCompilation_create(tr.model, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(c, &x);
    for (uint32_t i = 0; rc == ANEURALNETWORKS_NO_ERROR && i < tr.n_inputs; i++)
        rc = ANeuralNetworksExecution_setInput(x, (int32_t)i, NULL, in[i], in_n[i] * 4);
    for (uint32_t i = 0; rc == ANEURALNETWORKS_NO_ERROR && i < tr.n_outputs; i++)
        rc = ANeuralNetworksExecution_setOutput(x, (int32_t)i, NULL, out[i], out_n[i] * 4);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(x);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        printf("  compile/run failed with result code %d\n", rc);
    ANeuralNetworksExecution_free(x);
    ANeuralNetworksCompilation_free(c);
    nr_translation_free(&tr);
    return rc == ANEURALNETWORKS_NO_ERROR ? 0 : -1;
}

static bool same_f(const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(got[i] - want[i]) > 1e-6f * (1.0f + fabsf(want[i]))) {
            printf("  [%zu] = %g, expected %g\n", i, got[i], want[i]);
            return false;
        }
    return true;
}

static const float A6[6] = {1, 2, 3, 4, 5, 6}, B6[6] = {7, 8, 9, 10, 11, 12};

static void test_pack(int32_t axis, const float *want)
{
    graph g;
    g_init(&g);
    int32_t s23[2] = {2, 3}, s223[3] = {2, 2, 3};
    int a = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0), b = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0);
    int o = g_tensor(&g, TFL_FLOAT32, 3, s223, NULL, 0);
    int32_t v[2] = {2, axis};
    int p[2] = {1, 1};
    g_op(&g, TFL_OP_PACK, 2, (int32_t[]){a, b}, 1, (int32_t[]){o}, g_options(&g, 2, v, p));
    g_io(&g, 2, (int32_t[]){a, b}, 1, (int32_t[]){o});
    float got[12];
    CHECK(g_run(&g, (const float *[]){A6, B6}, (size_t[]){6, 6}, (void *[]){got}, (size_t[]){12}) == 0 &&
          same_f(got, want, 12));
}

static void test_unpack(void)
{
    graph g;
    g_init(&g);
    int32_t s23[2] = {2, 3}, s2[1] = {2};
    int a = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0);
    int o0 = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0), o1 = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0),
        o2 = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0);
    int32_t v[2] = {3, 1};
    int p[2] = {1, 1};
    g_op(&g, TFL_OP_UNPACK, 1, (int32_t[]){a}, 3, (int32_t[]){o0, o1, o2}, g_options(&g, 2, v, p));
    g_io(&g, 1, (int32_t[]){a}, 3, (int32_t[]){o0, o1, o2});
    float r0[2], r1[2], r2[2];
    CHECK(g_run(&g, (const float *[]){A6}, (size_t[]){6}, (void *[]){r0, r1, r2}, (size_t[]){2, 2, 2}) == 0 &&
          same_f(r0, (float[]){1, 4}, 2) && same_f(r1, (float[]){2, 5}, 2) && same_f(r2, (float[]){3, 6}, 2));
}

static void test_split_v(void)
{
    graph g;
    g_init(&g);
    static const int32_t sizes[3] = {1, -1, 2}, axis[1] = {0};
    int32_t s6[1] = {6}, s3[1] = {3}, s1[1] = {1}, s1b[1] = {1}, s3b[1] = {3}, s2[1] = {2};
    int a = g_tensor(&g, TFL_FLOAT32, 1, s6, NULL, 0);
    int sz = g_tensor(&g, TFL_INT32, 1, s3, sizes, sizeof sizes);
    int ax = g_tensor(&g, TFL_INT32, 1, s1, axis, sizeof axis);
    int o0 = g_tensor(&g, TFL_FLOAT32, 1, s1b, NULL, 0), o1 = g_tensor(&g, TFL_FLOAT32, 1, s3b, NULL, 0),
        o2 = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0);
    int32_t v[1] = {3};
    int p[1] = {1};
    g_op(&g, TFL_OP_SPLIT_V, 3, (int32_t[]){a, sz, ax}, 3, (int32_t[]){o0, o1, o2}, g_options(&g, 1, v, p));
    g_io(&g, 1, (int32_t[]){a}, 3, (int32_t[]){o0, o1, o2});
    float r0[1], r1[3], r2[2];
    CHECK(g_run(&g, (const float *[]){A6}, (size_t[]){6}, (void *[]){r0, r1, r2}, (size_t[]){1, 3, 2}) == 0 &&
          same_f(r0, (float[]){1}, 1) && same_f(r1, (float[]){2, 3, 4}, 3) && same_f(r2, (float[]){5, 6}, 2));
}

static void test_reverse(void)
{
    graph g;
    g_init(&g);
    static const int32_t axes[1] = {1};
    int32_t s23[2] = {2, 3}, s1[1] = {1};
    int a = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0), ax = g_tensor(&g, TFL_INT32, 1, s1, axes, sizeof axes);
    int o = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0);
    g_op(&g, TFL_OP_REVERSE_V2, 2, (int32_t[]){a, ax}, 1, (int32_t[]){o}, 0);
    g_io(&g, 1, (int32_t[]){a}, 1, (int32_t[]){o});
    float got[6];
    CHECK(g_run(&g, (const float *[]){A6}, (size_t[]){6}, (void *[]){got}, (size_t[]){6}) == 0 &&
          same_f(got, (float[]){3, 2, 1, 6, 5, 4}, 6));
}

static void test_mirror_pad(int symmetric)
{
    graph g;
    g_init(&g);
    /* [2, 3] padded by one row before and one column after. */
    static const int32_t pads[4] = {1, 0, 0, 1};
    int32_t s23[2] = {2, 3}, s22[2] = {2, 2}, s34[2] = {3, 4};
    int a = g_tensor(&g, TFL_FLOAT32, 2, s23, NULL, 0), pd = g_tensor(&g, TFL_INT32, 2, s22, pads, sizeof pads);
    int o = g_tensor(&g, TFL_FLOAT32, 2, s34, NULL, 0);
    int32_t v[1] = {symmetric};
    int p[1] = {1};
    g_op(&g, TFL_OP_MIRROR_PAD, 2, (int32_t[]){a, pd}, 1, (int32_t[]){o}, g_options(&g, 1, v, p));
    g_io(&g, 1, (int32_t[]){a}, 1, (int32_t[]){o});
    static const float reflect[12] = {4, 5, 6, 5, 1, 2, 3, 2, 4, 5, 6, 5};
    static const float symm[12] = {1, 2, 3, 3, 1, 2, 3, 3, 4, 5, 6, 6};
    float got[12];
    CHECK(g_run(&g, (const float *[]){A6}, (size_t[]){6}, (void *[]){got}, (size_t[]){12}) == 0 &&
          same_f(got, symmetric ? symm : reflect, 12));
}

static void test_binary(int code, const float *x, const float *y, const float *want)
{
    graph g;
    g_init(&g);
    int32_t s3[1] = {3};
    int a = g_tensor(&g, TFL_FLOAT32, 1, s3, NULL, 0), b = g_tensor(&g, TFL_FLOAT32, 1, s3, NULL, 0);
    int o = g_tensor(&g, TFL_FLOAT32, 1, s3, NULL, 0);
    g_op(&g, code, 2, (int32_t[]){a, b}, 1, (int32_t[]){o}, 0);
    g_io(&g, 2, (int32_t[]){a, b}, 1, (int32_t[]){o});
    float got[3];
    CHECK(g_run(&g, (const float *[]){x, y}, (size_t[]){3, 3}, (void *[]){got}, (size_t[]){3}) == 0 &&
          same_f(got, want, 3));
}

static void test_add_n(void)
{
    graph g;
    g_init(&g);
    int32_t s2[1] = {2};
    int a = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0), b = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0),
        c = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0), o = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0);
    g_op(&g, TFL_OP_ADD_N, 3, (int32_t[]){a, b, c}, 1, (int32_t[]){o}, 0);
    g_io(&g, 3, (int32_t[]){a, b, c}, 1, (int32_t[]){o});
    float got[2];
    CHECK(g_run(&g, (const float *[]){(float[]){1, 2}, (float[]){3, 4}, (float[]){5, 6}}, (size_t[]){2, 2, 2},
                (void *[]){got}, (size_t[]){2}) == 0 &&
          same_f(got, (float[]){9, 12}, 2));
}

static void test_batch_matmul(int adj_y)
{
    graph g;
    g_init(&g);
    static const float w[6] = {1, 0, 0, 1, 1, 1};   /* [3, 2] */
    static const float wt[6] = {1, 0, 1, 0, 1, 1};  /* the same, [2, 3] */
    int32_t s123[3] = {1, 2, 3}, s32[2] = {3, 2}, s23[2] = {2, 3}, s122[3] = {1, 2, 2};
    int a = g_tensor(&g, TFL_FLOAT32, 3, s123, NULL, 0);
    int b = adj_y ? g_tensor(&g, TFL_FLOAT32, 2, s23, wt, sizeof wt) : g_tensor(&g, TFL_FLOAT32, 2, s32, w, sizeof w);
    int o = g_tensor(&g, TFL_FLOAT32, 3, s122, NULL, 0);
    int32_t v[2] = {0, adj_y};
    int p[2] = {1, 1};
    g_op(&g, TFL_OP_BATCH_MATMUL, 2, (int32_t[]){a, b}, 1, (int32_t[]){o}, g_options(&g, 2, v, p));
    g_io(&g, 1, (int32_t[]){a}, 1, (int32_t[]){o});
    float got[4];
    CHECK(g_run(&g, (const float *[]){A6}, (size_t[]){6}, (void *[]){got}, (size_t[]){4}) == 0 &&
          same_f(got, (float[]){4, 5, 10, 11}, 4));
}

static void test_transpose_conv(void)
{
    graph g;
    g_init(&g);
    static const int32_t oshape[4] = {1, 5, 5, 1};
    static const float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    int32_t s4[1] = {4}, sf[4] = {1, 3, 3, 1}, si[4] = {1, 2, 2, 1};
    int os = g_tensor(&g, TFL_INT32, 1, s4, oshape, sizeof oshape);
    int f = g_tensor(&g, TFL_FLOAT32, 4, sf, ones, sizeof ones);
    int in = g_tensor(&g, TFL_FLOAT32, 4, si, NULL, 0);
    int o = g_tensor(&g, TFL_FLOAT32, 4, oshape, NULL, 0);
    int32_t v[3] = {1 /* VALID */, 2, 2};
    int p[3] = {1, 1, 1};
    g_op(&g, TFL_OP_TRANSPOSE_CONV, 3, (int32_t[]){os, f, in}, 1, (int32_t[]){o}, g_options(&g, 3, v, p));
    g_io(&g, 1, (int32_t[]){in}, 1, (int32_t[]){o});
    /* Each input pixel adds itself over the 3x3 window at twice its position. */
    float want[25] = {0};
    const float x[4] = {1, 2, 3, 4};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int di = 0; di < 3; di++)
                for (int dj = 0; dj < 3; dj++)
                    want[(2 * i + di) * 5 + 2 * j + dj] += x[i * 2 + j];
    float got[25];
    CHECK(g_run(&g, (const float *[]){x}, (size_t[]){4}, (void *[]){got}, (size_t[]){25}) == 0 &&
          same_f(got, want, 25));
}

/* SHAPE -> STRIDED_SLICE -> FLOOR_MOD of static shapes folds to a constant,
 * which is then a model output of its own. */
static void test_static_fold(void)
{
    graph g;
    g_init(&g);
    static const int32_t begin[1] = {1}, end[1] = {3}, stride[1] = {1}, three[1] = {3};
    int32_t s142[3] = {1, 4, 2}, s3[1] = {3}, s1[1] = {1}, s2[1] = {2};
    int in = g_tensor(&g, TFL_FLOAT32, 3, s142, NULL, 0);
    int sh = g_tensor(&g, TFL_INT32, 1, s3, NULL, 0);
    int b = g_tensor(&g, TFL_INT32, 1, s1, begin, 4), e = g_tensor(&g, TFL_INT32, 1, s1, end, 4),
        st = g_tensor(&g, TFL_INT32, 1, s1, stride, 4), m3 = g_tensor(&g, TFL_INT32, 1, s1, three, 4);
    int sl = g_tensor(&g, TFL_INT32, 1, s2, NULL, 0), md = g_tensor(&g, TFL_INT32, 1, s2, NULL, 0);
    g_op(&g, TFL_OP_SHAPE, 1, (int32_t[]){in}, 1, (int32_t[]){sh}, 0);
    g_op(&g, TFL_OP_STRIDED_SLICE, 4, (int32_t[]){sh, b, e, st}, 1, (int32_t[]){sl}, 0);
    g_op(&g, TFL_OP_FLOOR_MOD, 2, (int32_t[]){sl, m3}, 1, (int32_t[]){md}, 0);
    g_io(&g, 1, (int32_t[]){in}, 1, (int32_t[]){md});
    int32_t got[2];
    float x[8] = {0};
    CHECK(g_run(&g, (const float *[]){x}, (size_t[]){8}, (void *[]){got}, (size_t[]){2}) == 0 && got[0] == 1 &&
          got[1] == 2);
}

/* One message names every untranslatable operator, with count and indices. */
static void test_all_failures_named(void)
{
    graph g;
    g_init(&g);
    int32_t s2[1] = {2};
    int a = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0), b = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0),
        c = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0), d = g_tensor(&g, TFL_FLOAT32, 1, s2, NULL, 0);
    g_op(&g, 104 /* CEIL */, 1, (int32_t[]){a}, 1, (int32_t[]){b}, 0);
    g_op(&g, TFL_OP_ABS, 1, (int32_t[]){b}, 1, (int32_t[]){c}, 0);
    g_op(&g, 104 /* CEIL */, 1, (int32_t[]){c}, 1, (int32_t[]){d}, 0);
    g_io(&g, 1, (int32_t[]){a}, 1, (int32_t[]){d});
    nr_translation tr;
    char err[2048] = "";
    int rc = nr_translate(&g.m, 0, g_level, &tr, err, sizeof err);
    CHECK(rc != 0);
    CHECK(strstr(err, "2 of 3 operators cannot be translated: CEIL x2 (#0 #2)") != NULL);
    CHECK(strstr(err, "operator #2 CEIL") != NULL);
    if (rc == 0)
        nr_translation_free(&tr);
}

int main(void)
{
    static const int64_t levels[2] = {ANEURALNETWORKS_FEATURE_LEVEL_5, 0};
    for (int lv = 0; lv < 2; lv++) {
        g_level = levels[lv];
        printf("feature level %s\n", lv == 0 ? "5 (FL5 compositions)" : "of the runtime");
        test_pack(0, (float[]){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        test_pack(1, (float[]){1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12});
        test_unpack();
        test_split_v();
        test_reverse();
        test_mirror_pad(0);
        test_mirror_pad(1);
        test_binary(TFL_OP_SQUARED_DIFFERENCE, (float[]){1, 2, 3}, (float[]){3, 0.5f, -1}, (float[]){4, 2.25f, 16});
        test_binary(TFL_OP_FLOOR_DIV, (float[]){-3, 3, 7.5f}, (float[]){2, 2, -2}, (float[]){-2, 1, -4});
        test_add_n();
        test_batch_matmul(0);
        test_batch_matmul(1);
        test_transpose_conv();
        test_static_fold();
        test_all_failures_named();
    }
    return nt_summary();
}
