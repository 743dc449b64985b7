/*
 * MobileNet v1 and v2 1.0/224 (random weights, fixed seed) through the
 * public NNAPI and, when the benchmark was built with it, through XNNPACK's
 * subgraph API, in float32, uint8 (per-tensor weights, XNNPACK qu8) and int8
 * (per-channel weights, XNNPACK qs8). Both run in the same process,
 * alternating run by run, and the medians are printed with their ratio.
 * The graphs stop at the logits (no SOFTMAX: this XNNPACK has no quantized
 * softmax node).
 *
 * Usage: bench_mobilenet [--runs N] [--threads T[,T...]] [--only SUBSTRING]
 *                        [--layers] [--cpu-time] [--small FILE.tflite] [--rounds N]
 * The small-model case runs a real TFLite model (by default
 * mobilenet_v1_0.25_224 float from tests/models) through the
 * public API with nnapi-run's translator; ours only (TFLite + XNNPACK's
 * figures for it come from tests/tflite/tflite_delegate_test). Every model
 * prints its first compute after compiling against the steady median, the
 * share of the machine's peak and, after the last thread count, the
 * speed-up of each thread count over one thread.
 * The thread pool reads NNAPI_LINUX_THREADS once per process, so each thread
 * count runs in a child process started with it. --layers times every
 * convolution of the selected models as its own one-operation model instead,
 * and after the last thread count the speed-up of each layer too. A layer
 * shorter than a few tens of microseconds shows too little: between two of
 * its computes XNNPACK's run outlasts the pool's polling, and our worker,
 * asleep, joins 10-30 us into the next (a whole 7x7 layer).
 * --rounds N runs the thread counts N times in turn (a child each time) and
 * prints the speed-ups from the medians over the rounds, with their range:
 * on a machine whose load changes, one thread count's child would otherwise
 * meet other moments than the next one's.
 * --cpu-time (with --threads 1) times the thread's CPU time instead of wall
 * time, for machines shared with other work. Every line also gives the
 * share of the machine's peak (%peak): the int8 or float multiply-add peak
 * of one core at the ISA in use, measured first as bench/peak.h describes,
 * times the number of threads. With --layers at one thread, %alt is the
 * share of the peak loop's rate measured alternating with each layer (the
 * loop run for about the layer's multiply-adds after each of its runs),
 * which a shared core's changing rate does not skew.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "android/NeuralNetworks.h"
#include "kernels/isa.h"
#include "bench_machine.h"
#include "mobilenet_net.h"

#if defined(__x86_64__)
#include "peak.h"
#endif
#include "tflite.h"
#include "translate.h"

#ifdef NN_BENCH_XNNPACK
#include <pthreadpool.h>
#include <xnnpack.h>
#endif

/* ---- NNAPI ---- */

typedef struct {
    ANeuralNetworksModel *model;
    ANeuralNetworksCompilation *comp;
    ANeuralNetworksExecution *exec;
} nn_net;

/* Builds nodes [first, last) of g; the input of `first` is the model input. */
static void nn_build(const net *g, int first, int last, dtype d, weights *w, const void *in,
                     size_t in_bytes, void *out, size_t out_bytes, nn_net *r)
{
    ANeuralNetworksModel *model = mn_build_model(g, first, last, d, w);
    CHECK(ANeuralNetworksCompilation_create(model, &r->comp));
    CHECK(ANeuralNetworksCompilation_setPreference(r->comp, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED));
    CHECK(ANeuralNetworksCompilation_finish(r->comp));
    CHECK(ANeuralNetworksExecution_create(r->comp, &r->exec));
    CHECK(ANeuralNetworksExecution_setReusable(r->exec, true));
    CHECK(ANeuralNetworksExecution_setInput(r->exec, 0, NULL, in, in_bytes));
    CHECK(ANeuralNetworksExecution_setOutput(r->exec, 0, NULL, out, out_bytes));
    r->model = model;
}

static void nn_free(nn_net *r)
{
    ANeuralNetworksExecution_free(r->exec);
    ANeuralNetworksCompilation_free(r->comp);
    ANeuralNetworksModel_free(r->model);
}

/* ---- XNNPACK ---- */

#ifdef NN_BENCH_XNNPACK
typedef struct {
    xnn_runtime_t rt;
    int32_t *bias_scratch[MAX_NODES];
    float *scale_scratch[MAX_NODES];
} xnn_net;

static bool xnn_ok(enum xnn_status s, const char *what)
{
    if (s != xnn_status_success)
        fprintf(stderr, "XNNPACK: %s failed (%d)\n", what, (int)s);
    return s == xnn_status_success;
}

static bool xnn_activation(xnn_subgraph_t sg, const tensor_desc *t, dtype d, bool flat,
                           uint32_t ext, uint32_t flags, uint32_t *id)
{
    size_t dims[4] = {1, t->h, t->w, t->c}, flat_dims[2] = {1, t->c};
    size_t rank = flat ? 2 : 4;
    const size_t *shape = flat ? flat_dims : dims;
    if (d == D_F32)
        return xnn_ok(xnn_define_tensor_value(sg, xnn_datatype_fp32, rank, shape, NULL, ext, flags, id),
                      "tensor");
    return xnn_ok(xnn_define_quantized_tensor_value(
                          sg, d == D_U8 ? xnn_datatype_quint8 : xnn_datatype_qint8,
                          act_zero(t->act, d), act_scale(t->act), rank, shape, NULL, ext, flags, id),
                  "quantized tensor");
}

static bool xnn_weights(xnn_subgraph_t sg, const net *g, const node *n, const weights *w, dtype d,
                        xnn_net *r, int idx, uint32_t *filter, uint32_t *bias)
{
    const tensor_desc *x = &g->t[n->in0];
    size_t dims[4], rank = 4, bdims[1] = {n->cout};
    if (n->kind == N_CONV) {
        dims[0] = n->cout, dims[1] = dims[2] = n->k, dims[3] = x->c;
    } else if (n->kind == N_DW) {
        dims[0] = 1, dims[1] = dims[2] = n->k, dims[3] = n->cout;
    } else {
        dims[0] = n->cout, dims[1] = x->c, rank = 2;
    }
    float in_scale = act_scale(x->act);
    if (d == D_F32)
        return xnn_ok(xnn_define_tensor_value(sg, xnn_datatype_fp32, rank, dims, w->data,
                                              XNN_INVALID_VALUE_ID, 0, filter), "filter") &&
               xnn_ok(xnn_define_tensor_value(sg, xnn_datatype_fp32, 1, bdims, w->fbias,
                                              XNN_INVALID_VALUE_ID, 0, bias), "bias");
    if (w->per_channel) {
        float *bscale = malloc(w->channels * sizeof(float));
        if (!bscale)
            return false;
        for (size_t c = 0; c < w->channels; c++)
            bscale[c] = in_scale * w->scales[c];
        r->scale_scratch[idx] = bscale;
        return xnn_ok(xnn_define_channelwise_quantized_tensor_value(
                              sg, xnn_datatype_qcint8, w->scales, rank, n->kind == N_DW ? 3 : 0,
                              dims, w->data, XNN_INVALID_VALUE_ID, 0, filter), "qc8 filter") &&
               xnn_ok(xnn_define_channelwise_quantized_tensor_value(
                              sg, xnn_datatype_qcint32, bscale, 1, 0, bdims, w->qbias,
                              XNN_INVALID_VALUE_ID, 0, bias), "qc32 bias");
    }
    return xnn_ok(xnn_define_quantized_tensor_value(
                          sg, d == D_U8 ? xnn_datatype_quint8 : xnn_datatype_qint8,
                          d == D_U8 ? 128 : 0, w->scales[0], rank, dims, w->data,
                          XNN_INVALID_VALUE_ID, 0, filter), "filter") &&
           xnn_ok(xnn_define_quantized_tensor_value(sg, xnn_datatype_qint32, 0,
                                                    in_scale * w->scales[0], 1, bdims, w->qbias,
                                                    XNN_INVALID_VALUE_ID, 0, bias), "bias");
}

static bool xnn_build(const net *g, int first, int last, dtype d, weights *w, pthreadpool_t pool,
                      const void *in, void *out, xnn_net *r)
{
    memset(r, 0, sizeof *r);
    xnn_subgraph_t sg;
    if (!xnn_ok(xnn_create_subgraph(2, 0, &sg), "subgraph"))
        return false;
    uint32_t ids[MAX_TENSORS];
    int input = g->nodes[first].in0;
    bool ok = xnn_activation(sg, &g->t[input], d, false, 0, XNN_VALUE_FLAG_EXTERNAL_INPUT, &ids[input]);
    for (int i = first; ok && i < last; i++) {
        const node *n = &g->nodes[i];
        bool is_out = i == last - 1;
        ok = xnn_activation(sg, &g->t[n->out], d, n->kind == N_FC, is_out ? 1 : XNN_INVALID_VALUE_ID,
                            is_out ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT : 0, &ids[n->out]);
        float lo = n->relu6 ? 0.0f : -INFINITY, hi = n->relu6 ? 6.0f : INFINITY;
        uint32_t filter = 0, bias = 0;
        if (ok && (n->kind == N_CONV || n->kind == N_DW || n->kind == N_FC))
            ok = xnn_weights(sg, g, n, &w[i], d, r, i, &filter, &bias);
        if (!ok)
            break;
        const tensor_desc *x = &g->t[n->in0];
        switch (n->kind) {
        case N_CONV:
            ok = xnn_ok(xnn_define_convolution_2d(sg, 0, 0, 0, 0, n->k, n->k, n->stride, n->stride, 1, 1, 1,
                                                  x->c, n->cout, lo, hi, ids[n->in0], filter, bias,
                                                  ids[n->out], XNN_FLAG_TENSORFLOW_SAME_PADDING),
                        "convolution");
            break;
        case N_DW:
            ok = xnn_ok(xnn_define_depthwise_convolution_2d(sg, 0, 0, 0, 0, n->k, n->k, n->stride,
                                                            n->stride, 1, 1, 1, x->c, lo, hi,
                                                            ids[n->in0], filter, bias, ids[n->out],
                                                            XNN_FLAG_TENSORFLOW_SAME_PADDING),
                        "depthwise convolution");
            break;
        case N_FC:
            ok = xnn_ok(xnn_define_fully_connected(sg, lo, hi, ids[n->in0], filter, bias, ids[n->out],
                                                   XNN_FLAG_TENSORFLOW_RESHAPE_2D),
                        "fully connected");
            break;
        case N_ADD:
            ok = xnn_ok(xnn_define_add2(sg, lo, hi, ids[n->in0], ids[n->in1], ids[n->out], 0), "add");
            break;
        default:
            ok = xnn_ok(xnn_define_global_average_pooling_2d(sg, lo, hi, ids[n->in0], ids[n->out], 0),
                        "global average pooling");
            break;
        }
    }
    /* Yielding workers: spinning ones would take the cores from our runs. */
    if (ok)
        ok = xnn_ok(xnn_create_runtime_v2(sg, pool, XNN_FLAG_YIELD_WORKERS, &r->rt), "runtime");
    xnn_delete_subgraph(sg);
    if (ok) {
        struct xnn_external_value ext[2] = {{0, (void *)in}, {1, out}};
        ok = xnn_ok(xnn_setup_runtime(r->rt, 2, ext), "setup");
    }
    return ok;
}

static void xnn_free(xnn_net *r)
{
    if (r->rt)
        xnn_delete_runtime(r->rt);
    for (int i = 0; i < MAX_NODES; i++)
        free(r->scale_scratch[i]);
}
#endif

/* ---- timing ---- */

/* Wall time, or with --cpu-time (one thread only) the CPU time of the
 * calling thread, which time slices taken by other processes on a shared
 * machine do not inflate. */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now(void)
{
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v; returns the median, and the fastest run in *best. */
static double median(double *v, int n, double *best)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *best = v[0];
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct {
    int runs, threads;
    bool layers, cpu_time;
    const char *only;
    double peak[2]; /* one core's int8 and f32 GOP/s at the ISA in use; NaN: unknown */
#if defined(__x86_64__)
    peak_loop_fn peak_loop[2]; /* the loops that measured them (NULL: none) */
    double peak_macs[2];       /* multiply-adds per instruction of each */
#endif
    const char *small; /* TFLite file of the small-model case */
    int result_fd;     /* child: where its "label threads ms" records go; -1 none */
} options;

/* Percentage of the threads' peak for dtype d (int8 peak for uint8 too). */
static double pct_peak(const options *o, dtype d, double gops)
{
    return 100.0 * gops / (o->peak[d == D_F32 ? 1 : 0] * o->threads);
}

/* The child's record of one model's median, for the parent's speed-ups. */
static void report_result(const options *o, const char *label, double ours, double theirs,
                          double best_ours, double best_theirs)
{
    if (o->result_fd < 0)
        return;
    char line[256];
    int n = snprintf(line, sizeof line, "%s|%d|%.6f|%.6f|%.6f|%.6f\n", label, o->threads, ours,
                     theirs, best_ours, best_theirs);
    if (n > 0 && write(o->result_fd, line, (size_t)n) != n)
        perror("write");
}

static size_t tensor_bytes(const tensor_desc *t, dtype d)
{
    return (size_t)t->h * t->w * t->c * (d == D_F32 ? 4 : 1);
}

/* Times nodes [first, last) of g in dtype d: ours and XNNPACK alternately;
 * xnn_ms is NaN when XNNPACK is absent or could not build the graph. */
static void time_range(const net *g, int first, int last, dtype d, weights *w, const options *o,
                       double *ours_ms, double *xnn_ms, double best_ms[2], double first_ms[2],
                       void *pool, double macs, double *peak_alt)
{
    const tensor_desc *x = &g->t[g->nodes[first].in0], *y = &g->t[g->nodes[last - 1].out];
    size_t in_bytes = tensor_bytes(x, d), out_bytes = tensor_bytes(y, d);
    uint8_t *in = malloc(in_bytes), *out = malloc(out_bytes), *xout = malloc(out_bytes);
    if (!in || !out || !xout) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    rng_state = 12345;
    for (size_t i = 0; i < in_bytes; i++)
        in[i] = (uint8_t)rng_next();
    if (d == D_F32)
        for (size_t i = 0; i < in_bytes / 4; i++)
            ((float *)in)[i] = rng_unit() * 2.0f - 1.0f;
    nn_net ours;
    nn_build(g, first, last, d, w, in, in_bytes, out, out_bytes, &ours);
    /* The first compute right after compiling, as an application runs it:
     * after XNNPACK had built its runtime (read the weights and packed its
     * own copy) ours would find the caches full of XNNPACK's. */
    double f0 = now();
    CHECK(ANeuralNetworksExecution_compute(ours.exec));
    first_ms[0] = (now() - f0) * 1e3;
    bool have_xnn = false;
#ifdef NN_BENCH_XNNPACK
    xnn_net theirs;
    have_xnn = xnn_build(g, first, last, d, w, (pthreadpool_t)pool, in, xout, &theirs);
#else
    (void)pool;
#endif
    double *t_ours = malloc((size_t)o->runs * sizeof(double));
    double *t_xnn = malloc((size_t)o->runs * sizeof(double));
    if (!t_ours || !t_xnn) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    double *t_peak = malloc((size_t)o->runs * sizeof(double));
    if (!t_peak) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    *peak_alt = NAN;
#if defined(__x86_64__)
    const int pk = d == D_F32 ? 1 : 0;
    /* The peak loop for about the layer's multiply-adds, alternating with
     * it: on a shared machine the core's rate changes from second to second
     * (other guests on its sibling thread), and %peak is only meaningful
     * against the rate of the same moments. */
    const bool alt = o->layers && o->threads == 1 && o->peak_loop[pk] != NULL;
    const long peak_iters =
        alt ? (long)(macs / (PEAK_INNER * PEAK_ACCS * o->peak_macs[pk])) + 1 : 0;
    double sink = 0.0;
#else
    (void)macs; /* no peak loop here (bench/peak.h is x86-64 only) */
#endif
    for (int r = -2; r < o->runs; r++) { /* two warm-up runs each (ours' first above) */
        double t0 = now(), t1 = t0;
        if (r > -2) {
            CHECK(ANeuralNetworksExecution_compute(ours.exec));
            t1 = now();
        }
        if (r >= 0)
            t_ours[r] = t1 - t0;
#if defined(__x86_64__)
        if (alt && r >= 0) {
            double p0 = now();
            sink += o->peak_loop[pk](peak_iters, 7);
            t_peak[r] = now() - p0;
        }
#endif
#ifdef NN_BENCH_XNNPACK
        if (have_xnn) {
            t0 = now();
            if (!xnn_ok(xnn_invoke_runtime(theirs.rt), "invoke"))
                exit(1);
            t1 = now();
            if (r >= 0)
                t_xnn[r] = t1 - t0;
            else if (r == -2)
                first_ms[1] = (t1 - t0) * 1e3;
        }
#endif
    }
#if defined(__x86_64__)
    if (alt) {
        double fastest;
        double sec = median(t_peak, o->runs, &fastest);
        *peak_alt = 2.0 * (double)peak_iters * PEAK_INNER * PEAK_ACCS * o->peak_macs[pk] / sec * 1e-9;
        if (sink == 1.0) /* keeps the loop's results alive */
            printf(" ");
    }
#endif
    free(t_peak);
    *ours_ms = median(t_ours, o->runs, &best_ms[0]) * 1e3;
    best_ms[0] *= 1e3;
    best_ms[1] = NAN;
    *xnn_ms = have_xnn ? median(t_xnn, o->runs, &best_ms[1]) * 1e3 : NAN;
    if (have_xnn)
        best_ms[1] *= 1e3;
    nn_free(&ours);
#ifdef NN_BENCH_XNNPACK
    xnn_free(&theirs);
#endif
    free(t_ours);
    free(t_xnn);
    free(in);
    free(out);
    free(xout);
}

/* ---- the small-model case: a real TFLite file through the public API ---- */

static void run_small(const options *o)
{
    FILE *f = fopen(o->small, "rb");
    if (!f) {
        printf("small model %s: cannot open (pass --small FILE)\n", o->small);
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    if (!data || size <= 0 || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", o->small);
        exit(1);
    }
    fclose(f);
    tfl_model tm;
    nr_translation tr;
    char err[256];
    if (tfl_parse(data, (size_t)size, &tm, err, sizeof err) ||
        nr_translate(&tm, 0, 0, &tr, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", o->small, err);
        exit(1);
    }
    double t0 = now();
    ANeuralNetworksCompilation *comp;
    ANeuralNetworksExecution *exec;
    CHECK(ANeuralNetworksCompilation_create(tr.model, &comp));
    CHECK(ANeuralNetworksCompilation_setPreference(comp, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED));
    CHECK(ANeuralNetworksCompilation_finish(comp));
    double compile_ms = (now() - t0) * 1e3;
    CHECK(ANeuralNetworksExecution_create(comp, &exec));
    CHECK(ANeuralNetworksExecution_setReusable(exec, true));
    void *bufs[16] = {0};
    uint32_t nb = 0;
    for (int io = 0; io < 2; io++) {
        uint32_t count = io ? tr.n_outputs : tr.n_inputs;
        for (uint32_t i = 0; i < count && nb < 16; i++) {
            const tfl_tensor *t = io ? &tr.output_desc[i] : &tm.tensors[tr.input_tensor[i]];
            size_t elems = 1;
            for (uint32_t d = 0; d < t->rank; d++)
                elems *= t->shape[d] > 0 ? (size_t)t->shape[d] : 1;
            size_t bytes = elems * (t->type == TFL_FLOAT32 || t->type == TFL_INT32 ? 4 : 1);
            float *b = calloc(elems, 4);
            if (!b)
                exit(1);
            rng_state = 777;
            if (!io && t->type == TFL_FLOAT32)
                for (size_t e = 0; e < elems; e++)
                    b[e] = rng_unit() * 2.0f - 1.0f;
            bufs[nb++] = b;
            if (io)
                CHECK(ANeuralNetworksExecution_setOutput(exec, (int32_t)i, NULL, b, bytes));
            else
                CHECK(ANeuralNetworksExecution_setInput(exec, (int32_t)i, NULL, b, bytes));
        }
    }
    /* Multiply-adds of the model's convolutions and fully connected layers. */
    double macs = 0;
    for (uint32_t i = 0; i < tm.n_ops; i++) {
        const tfl_op *op = &tm.ops[i];
        if ((op->code != TFL_OP_CONV_2D && op->code != TFL_OP_DEPTHWISE_CONV_2D &&
             op->code != TFL_OP_FULLY_CONNECTED) || op->n_in < 2 || op->n_out < 1 || op->out[0] < 0)
            continue;
        const tfl_tensor *w = &tm.tensors[op->in[1]], *y = &tm.tensors[op->out[0]];
        double out_elems = 1, taps = 1;
        for (uint32_t d = 0; d < y->rank; d++)
            out_elems *= y->shape[d];
        /* Filter [cout, kh, kw, cin] (depthwise [1, kh, kw, cout]); FC [n, k]. */
        for (uint32_t d = 1; d < w->rank; d++)
            taps *= w->shape[d];
        if (op->code == TFL_OP_DEPTHWISE_CONV_2D && w->rank == 4)
            taps = (double)w->shape[1] * w->shape[2];
        macs += out_elems * taps;
    }
    double *times = malloc((size_t)o->runs * sizeof *times);
    if (!times)
        exit(1);
    double first = 0;
    for (int r = -2; r < o->runs; r++) {
        double a = now();
        CHECK(ANeuralNetworksExecution_compute(exec));
        double t = now() - a;
        if (r == -2)
            first = t * 1e3;
        if (r >= 0)
            times[r] = t;
    }
    double best, med = median(times, o->runs, &best) * 1e3;
    double gops = 2.0 * macs / (med * 1e-3) * 1e-9;
    printf("%-22s f32  %2d %8.3f %8s %6s %7.1f %5.1f %8.3f %6.2f   compile %.2f ms, best %.3f\n",
           "mobilenet_v1_0.25_224", o->threads, med, "-", "-", gops, pct_peak(o, D_F32, gops), first,
           first / med, compile_ms, best * 1e3);
    report_result(o, "small f32", med, NAN, best * 1e3, NAN);
    free(times);
    ANeuralNetworksExecution_free(exec);
    ANeuralNetworksCompilation_free(comp);
    for (uint32_t i = 0; i < nb; i++)
        free(bufs[i]);
    nr_translation_free(&tr);
    tfl_free(&tm);
    free(data);
}

static void run_child(const options *o)
{
    static net nets[2];
    build_v1(&nets[0]);
    build_v2(&nets[1]);
    void *pool = NULL;
#ifdef NN_BENCH_XNNPACK
    if (!xnn_ok(xnn_initialize(NULL), "initialize"))
        exit(1);
    if (o->threads > 1)
        pool = pthreadpool_create((size_t)o->threads);
#endif
    for (int m = 0; m < 2; m++) {
        net *g = &nets[m];
        for (int d = D_F32; d <= D_I8; d++) {
            char label[32];
            snprintf(label, sizeof label, "%s %s", g->name, dtype_names[d]);
            if (o->only && !strstr(label, o->only))
                continue;
            weights *w = calloc(MAX_NODES, sizeof *w);
            if (!w)
                exit(1);
            double total_macs = 0.0;
            for (int i = 0; i < g->n_nodes; i++) {
                const node *n = &g->nodes[i];
                if (n->kind == N_CONV || n->kind == N_DW || n->kind == N_FC)
                    weights_make(g, n, (dtype)d, &w[i]);
                total_macs += node_macs(g, n);
            }
            if (!o->layers) {
                double ours, theirs, best[2], first[2] = {NAN, NAN};
                double unused;
                time_range(g, 0, g->n_nodes, (dtype)d, w, o, &ours, &theirs, best, first, pool,
                           total_macs, &unused);
                double gops = 2.0 * total_macs / (ours * 1e-3) * 1e-9;
                printf("%-22s %-6s %2d %8.3f %8.3f %6.2f %7.1f %5.1f %8.3f %6.2f   best %.3f %.3f %.2f\n",
                       g->name, dtype_names[d], o->threads, ours, theirs, ours / theirs, gops,
                       pct_peak(o, (dtype)d, gops), first[0], first[0] / ours, best[0], best[1],
                       best[0] / best[1]);
                report_result(o, label, ours, theirs, best[0], best[1]);
            } else {
                /* ideal[cls]: ms at the alternating peak (see time_range) */
                double sum[2][2] = {{0}}, sum_best[2][2] = {{0}}, macs[2] = {0}, ideal[2] = {0};
                for (int i = 0; i < g->n_nodes; i++) {
                    const node *n = &g->nodes[i];
                    if (n->kind != N_CONV && n->kind != N_DW)
                        continue;
                    double ours, theirs, best[2], first[2], mac = node_macs(g, n), alt_peak;
                    time_range(g, i, i + 1, (dtype)d, w, o, &ours, &theirs, best, first, pool, mac,
                               &alt_peak);
                    double alt_ms = 2.0 * mac / (alt_peak * 1e9) * 1e3;
                    const tensor_desc *x = &g->t[n->in0];
                    int cls = n->kind == N_DW ? 1 : (n->k == 1 ? 0 : -1);
                    if (cls >= 0) {
                        sum[cls][0] += ours;
                        sum[cls][1] += theirs;
                        sum_best[cls][0] += best[0];
                        sum_best[cls][1] += best[1];
                        macs[cls] += mac;
                        ideal[cls] += alt_ms;
                    }
                    double gops = 2.0 * mac / (ours * 1e-3) * 1e-9;
                    printf("%-4s %-6s %2d  %-4s k%u s%u %3ux%-3u %4u->%-4u %8.3f %8.3f %6.2f %7.1f %6.1f %6.1f\n",
                           g->name, dtype_names[d], o->threads, n->kind == N_DW ? "dw" : "conv", n->k,
                           n->stride, x->h, x->w, x->c, n->cout, ours, theirs, ours / theirs, gops,
                           pct_peak(o, (dtype)d, gops), 100.0 * alt_ms / ours);
                    char layer[128];
                    snprintf(layer, sizeof layer, "%s #%-2d %-4s k%u s%u %3ux%-3u %4u->%-4u", label, i,
                             n->kind == N_DW ? "dw" : "conv", n->k, n->stride, x->h, x->w, x->c,
                             n->cout);
                    report_result(o, layer, ours, theirs, best[0], best[1]);
                }
                for (int cls = 0; cls < 2; cls++) {
                    double gops = 2.0 * macs[cls] / (sum[cls][0] * 1e-3) * 1e-9;
                    printf("%-4s %-6s %2d  total %-13s         %8.3f %8.3f %6.2f %7.1f %6.1f %6.1f\n",
                           g->name, dtype_names[d], o->threads, cls ? "depthwise" : "1x1 conv",
                           sum[cls][0], sum[cls][1], sum[cls][0] / sum[cls][1], gops,
                           pct_peak(o, (dtype)d, gops), 100.0 * ideal[cls] / sum[cls][0]);
                    char total[128];
                    snprintf(total, sizeof total, "%s total %s", label, cls ? "depthwise" : "1x1 conv");
                    report_result(o, total, sum[cls][0], sum[cls][1], sum_best[cls][0],
                                  sum_best[cls][1]);
                }
            }
            fflush(stdout);
            for (int i = 0; i < g->n_nodes; i++)
                if (w[i].data)
                    weights_free(&w[i]);
            free(w);
        }
    }
    if (!o->layers && o->small && (!o->only || strstr("small f32", o->only)))
        run_small(o);
#ifdef NN_BENCH_XNNPACK
    if (pool)
        pthreadpool_destroy(pool);
    xnn_deinitialize();
#endif
}

/* The int8 and f32 peak loops for the kernels of the ISA in use
 * (bench/peak.h), none for portable C and other architectures. */
static void choose_peak_loops(options *o, const char *method[2])
{
    method[0] = method[1] = "not measured for this ISA";
#if defined(__x86_64__)
    o->peak_loop[0] = o->peak_loop[1] = NULL;
    nn_isa isa = nn_isa_current();
    if (isa == NN_ISA_AVX512) {
        o->peak_loop[0] = peak_vnni_loop;
        o->peak_macs[0] = 64.0;
        o->peak_loop[1] = peak_fma512_loop;
        o->peak_macs[1] = 16.0;
        method[0] = "chains of vpdpbusd zmm, 64 multiply-adds each";
        method[1] = "chains of vfmadd231ps zmm, 16 multiply-adds each";
    } else if (isa == NN_ISA_AVX2) {
        o->peak_loop[0] = peak_madd_loop;
        o->peak_macs[0] = 16.0;
        o->peak_loop[1] = peak_fma256_loop;
        o->peak_macs[1] = 8.0;
        method[0] = "chains of vpmaddwd+vpaddd ymm, 16 multiply-adds each";
        method[1] = "chains of vfmadd231ps ymm, 8 multiply-adds each";
    }
#else
    (void)o;
#endif
}

/* One core's int8 and f32 peaks with those loops; NaN where unknown. */
static void measure_peaks(options *o)
{
    o->peak[0] = o->peak[1] = NAN;
#if defined(__x86_64__)
    double sink = 0.0;
    for (int i = 0; i < 2; i++)
        if (o->peak_loop[i])
            o->peak[i] = peak_rate(o->peak_loop[i], o->peak_macs[i], 0.25, &sink);
    if (sink == 1.0) /* keeps the loops' results alive */
        printf(" ");
#endif
}

static void print_header(const char *threads, const double peak[2], const char *method[2])
{
    bench_print_machine();
#ifdef NN_BENCH_XNNPACK
    printf("XNNPACK: linked (subgraph API, pthreadpool)\n");
#else
    printf("XNNPACK: not found when the benchmark was built; timing ours only\n");
#endif
    printf("peak of one core (bench/peak.h, thread CPU time): int8 %.1f GOP/s (%s),\n"
           "  f32 %.1f GOP/s (%s); %%peak = GOP/s / (threads x that peak), int8's for uint8 too\n",
           peak[0], method[0], peak[1], method[1]);
    printf("threads: %s; %s in ms: medians (GOP/s from ours), then the fastest runs\n", threads,
           bench_clock == CLOCK_MONOTONIC ? "wall times" : "thread CPU times");
}

/* One child's median for one label and thread count. */
typedef struct {
    char label[128];
    int threads;
    double ours, theirs, best_ours, best_theirs;
} record;

static double median_of(double *v, int n)
{
    double unused;
    return n ? median(v, n, &unused) : NAN;
}

/* The speed-up of every thread count over one thread, per label: the
 * median over the rounds of each count's medians, and with several rounds
 * the range of the rounds' own speed-ups (round r's one thread against its
 * T threads). */
static void print_speedups(FILE *f, int rounds)
{
    size_t cap = 256, n = 0;
    record *r = malloc(cap * sizeof *r);
    char line[256];
    rewind(f);
    while (r && fgets(line, sizeof line, f)) {
        if (n == cap) {
            record *grown = realloc(r, 2 * cap * sizeof *r);
            if (!grown)
                break;
            r = grown;
            cap *= 2;
        }
        if (sscanf(line, "%127[^|]|%d|%lf|%lf|%lf|%lf", r[n].label, &r[n].threads, &r[n].ours,
                   &r[n].theirs, &r[n].best_ours, &r[n].best_theirs) == 6)
            n++;
    }
    if (!r)
        return;
    double *v[4];
    for (int i = 0; i < 4; i++)
        v[i] = malloc((size_t)rounds * sizeof(double));
    printf("speed-up over 1 thread (medians%s; then of the fastest runs%s):\n"
           "  model dtype threads ours XNNPACK\n",
           rounds > 1 ? " over the rounds" : "", rounds > 1 ? ", and the rounds' range" : "");
    for (size_t i = 0; i < n && v[0] && v[1] && v[2] && v[3]; i++) {
        if (r[i].threads == 1)
            continue;
        bool seen = false; /* printed with an earlier record */
        for (size_t j = 0; j < i && !seen; j++)
            seen = r[j].threads == r[i].threads && !strcmp(r[j].label, r[i].label);
        if (seen)
            continue;
        /* v: ours and theirs at one thread, at T threads, in round order;
         * fastest: the fastest runs of the rounds, the same four */
        int c1 = 0, ct = 0;
        double fastest[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        for (size_t j = 0; j < n; j++) {
            if (strcmp(r[j].label, r[i].label))
                continue;
            int at = r[j].threads == 1 ? 0 : r[j].threads == r[i].threads ? 2 : -1;
            int *count = at == 0 ? &c1 : &ct;
            if (at < 0 || *count >= rounds)
                continue;
            v[at][*count] = r[j].ours;
            v[at + 1][(*count)++] = r[j].theirs;
            fastest[at] = r[j].best_ours < fastest[at] ? r[j].best_ours : fastest[at];
            fastest[at + 1] = r[j].best_theirs < fastest[at + 1] ? r[j].best_theirs : fastest[at + 1];
        }
        if (c1 == 0 || ct == 0)
            continue;
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < c1 && k < ct; k++)
            for (int w = 0; w < 2; w++) {
                double q = v[w][k] / v[2 + w][k];
                lo[w] = q < lo[w] ? q : lo[w];
                hi[w] = q > hi[w] ? q : hi[w];
            }
        double med[2];
        for (int w = 0; w < 2; w++)
            med[w] = median_of(v[w], c1) / median_of(v[2 + w], ct);
        /* XNNPACK's figures are NaN for the small model (ours only) */
        bool theirs = !isnan(med[1]);
        printf("  %-12s %d threads: ours %.2fx", r[i].label, r[i].threads, med[0]);
        if (theirs)
            printf("  XNNPACK %.2fx", med[1]);
        /* The fastest runs: on a loaded machine, the closest to its speed-up unloaded. */
        printf("   fastest: ours %.2fx", fastest[0] / fastest[2]);
        if (theirs)
            printf("  XNNPACK %.2fx", fastest[1] / fastest[3]);
        if (rounds > 1) {
            printf("   rounds: ours %.2f-%.2f", lo[0], hi[0]);
            if (theirs)
                printf("  XNNPACK %.2f-%.2f", lo[1], hi[1]);
        }
        printf("\n");
    }
    for (int i = 0; i < 4; i++)
        free(v[i]);
    free(r);
}

int main(int argc, char **argv)
{
    options o = {.runs = 30, .threads = 0, .peak = {NAN, NAN}, .small = NN_BENCH_SMALL_MODEL,
                 .result_fd = -1};
    const char *threads = "1,2";
    int rounds = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            o.runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            o.only = argv[++i];
        else if (!strcmp(argv[i], "--layers"))
            o.layers = true;
        else if (!strcmp(argv[i], "--cpu-time"))
            o.cpu_time = true;
        else if (!strcmp(argv[i], "--small") && i + 1 < argc)
            o.small = argv[++i];
        else if (!strcmp(argv[i], "--child") && i + 1 < argc)
            o.threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--peaks") && i + 2 < argc) {
            o.peak[0] = atof(argv[++i]);
            o.peak[1] = atof(argv[++i]);
        }
        else if (!strcmp(argv[i], "--result-fd") && i + 1 < argc)
            o.result_fd = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--runs N] [--threads T[,T...]] [--only SUBSTRING] [--layers] "
                            "[--cpu-time] [--small FILE.tflite] [--rounds N]\n",
                    argv[0]);
            return 2;
        }
    }
    if (o.runs < 1)
        o.runs = 1;
    if (rounds < 1)
        rounds = 1;
    const char *method[2];
    choose_peak_loops(&o, method);
    if (o.threads > 0) {
        if (o.cpu_time)
            bench_clock = CLOCK_THREAD_CPUTIME_ID;
        run_child(&o);
        return 0;
    }
    if (o.cpu_time && strcmp(threads, "1") != 0) {
        fprintf(stderr, "--cpu-time measures the calling thread: use it with --threads 1\n");
        return 2;
    }
    if (o.cpu_time)
        bench_clock = CLOCK_THREAD_CPUTIME_ID;
    measure_peaks(&o);
    print_header(threads, o.peak, method);
    if (o.layers) {
        printf("%%alt: against the peak loop run alternating with the layer (1 thread; NaN else)\n");
        printf("model dtype  T   layer                          ours   XNNPACK  ratio   GOP/s  %%peak   %%alt\n");
    } else {
        printf("first = the first compute after compiling; f/s = first / steady median\n");
        printf("model                  dtype   T  ours ms   XNN ms  ratio   GOP/s %%peak first ms    f/s\n");
    }
    fflush(stdout);
    /* The children's "label|threads|ours|theirs" records, for the
     * speed-ups; a file rather than a pipe, which --layers would fill
     * while the parent waits for the child. */
    FILE *records = tmpfile();
    if (!records) {
        perror("tmpfile");
        return 1;
    }
    int record_fd = fileno(records);
    /* One child per thread count and round: the pool's size is fixed per
     * process, and rounds spread the thread counts over the same moments
     * of a machine whose load changes. */
    for (int round = 0; round < rounds; round++) {
        char *list = strdup(threads);
        if (!list)
            return 1;
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 1;
            }
            if (pid == 0) {
                setenv("NNAPI_LINUX_THREADS", tok, 1);
                char runs[16];
                snprintf(runs, sizeof runs, "%d", o.runs);
                char peaks[2][32];
                snprintf(peaks[0], sizeof peaks[0], "%.17g", o.peak[0]);
                snprintf(peaks[1], sizeof peaks[1], "%.17g", o.peak[1]);
                char *args[24];
                int n = 0;
                args[n++] = argv[0];
                args[n++] = "--child";
                args[n++] = tok;
                args[n++] = "--runs";
                args[n++] = runs;
                if (o.only) {
                    args[n++] = "--only";
                    args[n++] = (char *)o.only;
                }
                if (o.layers)
                    args[n++] = "--layers";
                if (o.cpu_time)
                    args[n++] = "--cpu-time";
                args[n++] = "--peaks";
                args[n++] = peaks[0];
                args[n++] = peaks[1];
                char fd_arg[16];
                snprintf(fd_arg, sizeof fd_arg, "%d", record_fd);
                args[n++] = "--result-fd";
                args[n++] = fd_arg;
                args[n++] = "--small";
                args[n++] = (char *)o.small;
                args[n] = NULL;
                execv("/proc/self/exe", args);
                perror("execv");
                _exit(127);
            }
            int status;
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "benchmark child for %s threads failed\n", tok);
                free(list);
                return 1;
            }
        }
        free(list);
    }
    print_speedups(records, rounds);
    fclose(records);
    return 0;
}
