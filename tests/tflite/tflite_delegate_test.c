/* TensorFlow Lite's own NNAPI delegate, unmodified, running real models on
 * this library.
 *
 * For every model of tests/models (with reference inputs in ref/ and
 * ref_img/), in one process: TFLite's built-in CPU kernels, TFLite with its
 * XNNPACK delegate, and TFLite with its NNAPI delegate, which dlopen()s
 * "libneuralnetworks.so" and finds ours through LD_LIBRARY_PATH. The NNAPI
 * outputs must match the CPU ones (float within 1e-4 relative + 1e-4
 * absolute, quantized exactly, same top-5 classes; XNNPACK and the stored
 * references, other kernels, get 2 quantized steps), our library must
 * have compiled every operation TFLite could hand over (its NNAPI_LINUX_VLOG
 * log, captured from stderr, is checked against the operators of the model
 * file), and the library that ran must be the freshly built one.
 *
 * libtensorflowlite_c.so is a test-only dependency fetched from npm by
 * fetch_tflite.sh; without it (no npm, no network) the test prints SKIPPED
 * and exits 77. The few TFLite C API functions used are declared here and
 * resolved with dlsym, so nothing of TFLite is needed at build time. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SKIP_CODE 77

/* ---- TensorFlow Lite 2.9 C API (tensorflow/lite/c/c_api.h) ---- */

typedef struct TfLiteModel TfLiteModel;
typedef struct TfLiteInterpreterOptions TfLiteInterpreterOptions;
typedef struct TfLiteInterpreter TfLiteInterpreter;
typedef struct TfLiteTensor TfLiteTensor;
typedef struct TfLiteDelegate TfLiteDelegate;
typedef int TfLiteStatus; /* kTfLiteOk == 0 */
typedef struct {
    float scale;
    int32_t zero_point;
} TfLiteQuantizationParams;
/* TfLiteXNNPackDelegateOptions of 2.9: 8 bytes, read as such by
 * TfLiteXNNPackDelegateCreate and returned in a register by ...Default. */
typedef struct {
    int32_t num_threads;
    uint32_t flags;
} XnnOptions;

enum { TFL_FLOAT32 = 1, TFL_INT32 = 2, TFL_UINT8 = 3, TFL_INT16 = 7, TFL_INT8 = 9 };

static struct {
    const char *(*Version)(void);
    TfLiteModel *(*ModelCreateFromFile)(const char *);
    void (*ModelDelete)(TfLiteModel *);
    TfLiteInterpreterOptions *(*OptionsCreate)(void);
    void (*OptionsDelete)(TfLiteInterpreterOptions *);
    void (*OptionsSetNumThreads)(TfLiteInterpreterOptions *, int32_t);
    void (*OptionsAddDelegate)(TfLiteInterpreterOptions *, TfLiteDelegate *);
    void (*OptionsSetUseNNAPI)(TfLiteInterpreterOptions *, bool);
    TfLiteInterpreter *(*Create)(const TfLiteModel *, const TfLiteInterpreterOptions *);
    void (*Delete)(TfLiteInterpreter *);
    TfLiteStatus (*AllocateTensors)(TfLiteInterpreter *);
    TfLiteStatus (*Invoke)(TfLiteInterpreter *);
    int32_t (*GetInputTensorCount)(const TfLiteInterpreter *);
    TfLiteTensor *(*GetInputTensor)(const TfLiteInterpreter *, int32_t);
    int32_t (*GetOutputTensorCount)(const TfLiteInterpreter *);
    const TfLiteTensor *(*GetOutputTensor)(const TfLiteInterpreter *, int32_t);
    int (*TensorType)(const TfLiteTensor *);
    size_t (*TensorByteSize)(const TfLiteTensor *);
    const char *(*TensorName)(const TfLiteTensor *);
    TfLiteQuantizationParams (*TensorQuantizationParams)(const TfLiteTensor *);
    TfLiteStatus (*TensorCopyFromBuffer)(TfLiteTensor *, const void *, size_t);
    TfLiteStatus (*TensorCopyToBuffer)(const TfLiteTensor *, void *, size_t);
    XnnOptions (*XnnOptionsDefault)(void);
    TfLiteDelegate *(*XnnCreate)(const XnnOptions *);
    void (*XnnDelete)(TfLiteDelegate *);
} tfl;

static bool load_tflite(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        return false;
    }
    bool ok = true;
#define SYM(field, name)                                                   \
    do {                                                                   \
        *(void **)&tfl.field = dlsym(h, name);                             \
        if (tfl.field == NULL) {                                           \
            fprintf(stderr, "%s: missing symbol %s\n", path, name);        \
            ok = false;                                                    \
        }                                                                  \
    } while (0)
    SYM(Version, "TfLiteVersion");
    SYM(ModelCreateFromFile, "TfLiteModelCreateFromFile");
    SYM(ModelDelete, "TfLiteModelDelete");
    SYM(OptionsCreate, "TfLiteInterpreterOptionsCreate");
    SYM(OptionsDelete, "TfLiteInterpreterOptionsDelete");
    SYM(OptionsSetNumThreads, "TfLiteInterpreterOptionsSetNumThreads");
    SYM(OptionsAddDelegate, "TfLiteInterpreterOptionsAddDelegate");
    SYM(OptionsSetUseNNAPI, "TfLiteInterpreterOptionsSetUseNNAPI");
    SYM(Create, "TfLiteInterpreterCreate");
    SYM(Delete, "TfLiteInterpreterDelete");
    SYM(AllocateTensors, "TfLiteInterpreterAllocateTensors");
    SYM(Invoke, "TfLiteInterpreterInvoke");
    SYM(GetInputTensorCount, "TfLiteInterpreterGetInputTensorCount");
    SYM(GetInputTensor, "TfLiteInterpreterGetInputTensor");
    SYM(GetOutputTensorCount, "TfLiteInterpreterGetOutputTensorCount");
    SYM(GetOutputTensor, "TfLiteInterpreterGetOutputTensor");
    SYM(TensorType, "TfLiteTensorType");
    SYM(TensorByteSize, "TfLiteTensorByteSize");
    SYM(TensorName, "TfLiteTensorName");
    SYM(TensorQuantizationParams, "TfLiteTensorQuantizationParams");
    SYM(TensorCopyFromBuffer, "TfLiteTensorCopyFromBuffer");
    SYM(TensorCopyToBuffer, "TfLiteTensorCopyToBuffer");
#undef SYM
    /* XNNPACK is optional: timed only when this build exports it. */
    *(void **)&tfl.XnnOptionsDefault = dlsym(h, "TfLiteXNNPackDelegateOptionsDefault");
    *(void **)&tfl.XnnCreate = dlsym(h, "TfLiteXNNPackDelegateCreate");
    *(void **)&tfl.XnnDelete = dlsym(h, "TfLiteXNNPackDelegateDelete");
    if (!tfl.XnnOptionsDefault || !tfl.XnnCreate || !tfl.XnnDelete)
        tfl.XnnCreate = NULL;
    return ok;
}

/* ---- small utilities ---- */

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    void *buf = NULL;
    long n;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc(n ? (size_t)n : 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return buf;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- the operators of a .tflite file (a FlatBuffer, schema.fbs) ---- */

typedef struct {
    const uint8_t *p;
    size_t n;
} fbuf;

static bool fb_u32(fbuf b, size_t at, uint32_t *v)
{
    if (at > b.n || b.n - at < 4)
        return false;
    *v = (uint32_t)b.p[at] | (uint32_t)b.p[at + 1] << 8 | (uint32_t)b.p[at + 2] << 16 |
         (uint32_t)b.p[at + 3] << 24;
    return true;
}

static bool fb_u16(fbuf b, size_t at, uint16_t *v)
{
    if (at > b.n || b.n - at < 2)
        return false;
    *v = (uint16_t)(b.p[at] | b.p[at + 1] << 8);
    return true;
}

/* Position of field `id` of the table at `table`, or 0 when absent. */
static size_t fb_field(fbuf b, size_t table, unsigned id)
{
    uint32_t soff;
    uint16_t vsize, off;
    if (!fb_u32(b, table, &soff))
        return 0;
    int64_t vt = (int64_t)table - (int32_t)soff;
    if (vt < 0 || (size_t)vt >= b.n || !fb_u16(b, (size_t)vt, &vsize))
        return 0;
    if (4 + 2 * id + 2 > vsize || !fb_u16(b, (size_t)vt + 4 + 2 * id, &off) || off == 0)
        return 0;
    return table + off;
}

/* Follows the offset stored at `at` (to a table, vector or string). */
static size_t fb_deref(fbuf b, size_t at)
{
    uint32_t off;
    if (at == 0 || !fb_u32(b, at, &off) || off > b.n - at)
        return 0;
    return at + off;
}

/* Vector at field `id` of `table`: its length and first element's position. */
static bool fb_vector(fbuf b, size_t table, unsigned id, uint32_t *len, size_t *first)
{
    size_t v = fb_deref(b, fb_field(b, table, id));
    if (v == 0 || !fb_u32(b, v, len) || *len > (b.n - v - 4) / 4)
        return false;
    *first = v + 4;
    return true;
}

#define MAX_OP_KINDS 32

typedef struct {
    int32_t code; /* TFLite BuiltinOperator */
    uint32_t count;
} op_kind;

typedef struct {
    uint32_t n_ops;
    uint32_t n_kinds;
    op_kind kinds[MAX_OP_KINDS];
} model_ops;

/* Counts the operators of the main subgraph by builtin code. */
static bool read_model_ops(const char *path, model_ops *out)
{
    memset(out, 0, sizeof *out);
    size_t n;
    uint8_t *data = read_file(path, &n);
    if (data == NULL)
        return false;
    fbuf b = {data, n};
    bool ok = false;
    uint32_t root;
    size_t model = fb_u32(b, 0, &root) && root < n ? root : 0;
    uint32_t n_codes, n_subgraphs, n_ops;
    size_t codes, subgraphs, ops;
    if (model == 0 || !fb_vector(b, model, 1, &n_codes, &codes) ||
        !fb_vector(b, model, 2, &n_subgraphs, &subgraphs) || n_subgraphs == 0)
        goto done;
    size_t sg = fb_deref(b, subgraphs);
    if (sg == 0 || !fb_vector(b, sg, 3, &n_ops, &ops))
        goto done;
    for (uint32_t i = 0; i < n_ops; i++) {
        size_t op = fb_deref(b, ops + 4 * (size_t)i);
        size_t f = fb_field(b, op, 0);
        uint32_t idx = 0;
        if (op == 0 || (f != 0 && !fb_u32(b, f, &idx)) || idx >= n_codes)
            goto done;
        size_t oc = fb_deref(b, codes + 4 * (size_t)idx);
        if (oc == 0)
            goto done;
        /* builtin_code (field 3) supersedes the int8 deprecated_builtin_code
         * (field 0) for codes >= 127; older files have only the latter. */
        int32_t code = 0;
        size_t f0 = fb_field(b, oc, 0), f3 = fb_field(b, oc, 3);
        if (f0 != 0 && f0 < n)
            code = (int8_t)data[f0];
        uint32_t c3;
        if (f3 != 0 && fb_u32(b, f3, &c3) && (int32_t)c3 > code)
            code = (int32_t)c3;
        uint32_t k = 0;
        while (k < out->n_kinds && out->kinds[k].code != code)
            k++;
        if (k == MAX_OP_KINDS)
            goto done;
        if (k == out->n_kinds)
            out->kinds[out->n_kinds++] = (op_kind){code, 0};
        out->kinds[k].count++;
        out->n_ops++;
    }
    ok = true;
done:
    free(data);
    return ok;
}

/* TFLite builtin operators and the NNAPI operation TFLite 2.9's delegate
 * turns each into (same name where not listed otherwise). */
static const struct {
    int32_t code;
    const char *tflite;
    const char *nnapi;
} op_names[] = {
    {0, "ADD", "ADD"},
    {1, "AVERAGE_POOL_2D", "AVERAGE_POOL_2D"},
    {2, "CONCATENATION", "CONCATENATION"},
    {3, "CONV_2D", "CONV_2D"},
    {4, "DEPTHWISE_CONV_2D", "DEPTHWISE_CONV_2D"},
    {6, "DEQUANTIZE", "DEQUANTIZE"},
    {9, "FULLY_CONNECTED", "FULLY_CONNECTED"},
    {14, "LOGISTIC", "LOGISTIC"},
    {16, "LSTM", "LSTM"},
    {17, "MAX_POOL_2D", "MAX_POOL_2D"},
    {18, "MUL", "MUL"},
    {19, "RELU", "RELU"},
    {21, "RELU6", "RELU6"},
    {22, "RESHAPE", "RESHAPE"},
    {23, "RESIZE_BILINEAR", "RESIZE_BILINEAR"},
    {25, "SOFTMAX", "SOFTMAX"},
    {28, "TANH", "TANH"},
    {34, "PAD", "PAD"},
    {40, "MEAN", "MEAN"},
    {41, "SUB", "SUB"},
    {43, "SQUEEZE", "SQUEEZE"},
    {44, "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_LSTM"},
    {83, "PACK", "PACK"},
    {114, "QUANTIZE", "QUANTIZE"},
    {27, "SVDF", "SVDF"},
    {32, "CUSTOM", "DETECTION_POSTPROCESSING"},
    {36, "GATHER", "GATHER"},
    {37, "BATCH_TO_SPACE_ND", "BATCH_TO_SPACE_ND"},
    {38, "SPACE_TO_BATCH_ND", "SPACE_TO_BATCH_ND"},
    {45, "STRIDED_SLICE", "STRIDED_SLICE"},
    {73, "LOG", "LOG"},
    {75, "SQRT", "SQRT"},
    {77, "SHAPE", NULL},
    {95, "FLOOR_MOD", NULL},
    {126, "BATCH_MATMUL", "BATCH_MATMUL"},
};

/* Models TFLite 2.9 itself cannot build with its NNAPI delegate, whatever
 * the library: checked to fail as stated (a model that starts to build
 * must come off the list), reported as not applicable. */
static const struct {
    const char *model, *reason;
} tflite_cannot_build[] = {
    {"dilated_conv", "TfLiteInterpreterCreate fails with any delegate (XNNPACK too): its shape "
                     "subgraph (SHAPE, PACK, FLOOR_MOD) is declined and the rest cannot be resized"},
    {"dtln_noise_suppression", "TFLite 2.9's delegate turns the int8 UNIDIRECTIONAL_SEQUENCE_LSTM into "
                               "NNAPI UNIDIRECTIONAL_SEQUENCE_LSTM, which is float-only in NNAPI (Android "
                               "rejects it too); NNAPI's integer LSTM is QUANTIZED_LSTM"},
};

/* Models that run through the delegate on this library but do not match
 * TFLite's CPU kernels yet, each with its reason. A listed model that passes
 * fails the test, so that the list stays true. */
static const struct {
    const char *model, *reason;
} known_mismatch[] = {
    {NULL, NULL}, /* end: every model matches TFLite today */
};

static const char *known_mismatch_reason(const char *stem)
{
    for (size_t i = 0; known_mismatch[i].model; i++)
        if (strcmp(known_mismatch[i].model, stem) == 0)
            return known_mismatch[i].reason;
    return NULL;
}

static const char *cannot_build_reason(const char *stem)
{
    for (size_t i = 0; i < sizeof tflite_cannot_build / sizeof tflite_cannot_build[0]; i++)
        if (strcmp(tflite_cannot_build[i].model, stem) == 0)
            return tflite_cannot_build[i].reason;
    return NULL;
}

static const char *tflite_op_name(int32_t code, const char **nnapi)
{
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (op_names[i].code == code) {
            *nnapi = op_names[i].nnapi;
            return op_names[i].tflite;
        }
    *nnapi = NULL;
    return "(unlisted builtin)";
}

/* ---- what the run on our library logged (NNAPI_LINUX_VLOG) ---- */

#define MAX_LOG_OPS 64

typedef struct {
    uint32_t compilations;  /* "compilation: device ..." lines */
    uint32_t ops_compiled;  /* operations in them */
    uint32_t n_names;
    char names[MAX_LOG_OPS][48];
    uint32_t counts[MAX_LOG_OPS];
    uint32_t n_unsupported; /* operations our library reported unsupported */
    char unsupported[MAX_LOG_OPS][48];
    char device[64];
    /* With SL drivers loaded (NNAPI_LINUX_DRIVERS): "partition: operation"
     * lines, by whether the CPU device or a driver's runs the operation. */
    uint32_t on_driver, on_cpu;
} vlog_summary;

/* Models whose operations went to a driver device and to the CPU. */
static unsigned models_split;

static void log_add(vlog_summary *s, const char *name, uint32_t count)
{
    uint32_t k = 0;
    while (k < s->n_names && strcmp(s->names[k], name) != 0)
        k++;
    if (k == MAX_LOG_OPS)
        return;
    if (k == s->n_names) {
        snprintf(s->names[k], sizeof s->names[k], "%s", name);
        s->counts[k] = 0;
        s->n_names++;
    }
    s->counts[k] += count;
}

static uint32_t log_count(const vlog_summary *s, const char *name)
{
    for (uint32_t k = 0; k < s->n_names; k++)
        if (strcmp(s->names[k], name) == 0)
            return s->counts[k];
    return 0;
}

static void parse_log(const char *text, vlog_summary *s, bool echo)
{
    memset(s, 0, sizeof *s);
    const char *line = text;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1),
                 line);
        if (echo)
            printf("    | %s\n", buf);
        const char *c = strstr(buf, "nnapi-linux: compilation: device ");
        unsigned ops, models;
        char dev[64];
        if (c != NULL &&
            sscanf(c, "nnapi-linux: compilation: device %63[^,], %u operations in %u models",
                   dev, &ops, &models) == 3) {
            s->compilations++;
            s->ops_compiled += ops;
            snprintf(s->device, sizeof s->device, "%s", dev);
            const char *list = strstr(c, "bytes:");
            if (list != NULL) {
                list += 6;
                char name[48];
                unsigned cnt;
                int used;
                while (sscanf(list, " %47[A-Z0-9_]=%u%n", name, &cnt, &used) == 2) {
                    log_add(s, name, cnt);
                    list += used;
                }
            }
        }
        const char *part = strstr(buf, "nnapi-linux: partition:   operation ");
        const char *on = part ? strstr(part, ") on ") : NULL;
        if (on != NULL) {
            if (strcmp(on + 5, "nnapi_linux-cpu") == 0)
                s->on_cpu++;
            else
                s->on_driver++;
        }
        const char *u = strstr(buf, "nnapi-linux: getSupportedOperationsForDevices: operation ");
        char uname[48];
        if (u != NULL && s->n_unsupported < MAX_LOG_OPS &&
            sscanf(u, "nnapi-linux: getSupportedOperationsForDevices: operation %u (%47[A-Z0-9_])",
                   &ops, uname) == 2)
            snprintf(s->unsupported[s->n_unsupported++], sizeof s->unsupported[0], "%s", uname);
        line += len + (end ? 1 : 0);
    }
}

/* Captures this process's stderr (fd 2) in a temporary file. */
typedef struct {
    int saved;
    FILE *file;
} capture;

static bool capture_begin(capture *c)
{
    fflush(stderr);
    c->file = tmpfile();
    c->saved = dup(2);
    if (c->file == NULL || c->saved < 0 || dup2(fileno(c->file), 2) < 0) {
        if (c->file)
            fclose(c->file);
        if (c->saved >= 0)
            close(c->saved);
        return false;
    }
    return true;
}

static char *capture_end(capture *c)
{
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    long n = ftell(c->file);
    char *text = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (text != NULL) {
        size_t got = 0;
        if (n > 0 && fseek(c->file, 0, SEEK_SET) == 0)
            got = fread(text, 1, (size_t)n, c->file);
        text[got] = '\0';
    }
    fclose(c->file);
    return text;
}

/* ---- running a model ---- */

enum { ENGINE_CPU, ENGINE_XNNPACK, ENGINE_NNAPI, N_ENGINES };
static const char *const engine_names[N_ENGINES] = {"TFLite CPU", "TFLite+XNNPACK",
                                                     "TFLite+NNAPI(us)"};

#define MAX_IO 8

typedef struct {
    int32_t n_out;
    int type[MAX_IO];
    size_t bytes[MAX_IO];
    void *data[MAX_IO]; /* outputs of the first Invoke */
    void *last[MAX_IO]; /* outputs of the last (timed) Invoke */
    char name[MAX_IO][96];
    TfLiteQuantizationParams q[MAX_IO];
    double median_ms, min_ms;
    bool ran;
} run_result;

static void free_result(run_result *r)
{
    for (int32_t i = 0; i < r->n_out; i++) {
        free(r->data[i]);
        free(r->last[i]);
    }
    memset(r, 0, sizeof *r);
}

/* `r` with the outputs of its last Invoke in place of its first. */
static run_result last_view(const run_result *r)
{
    run_result v = *r;
    memcpy(v.data, r->last, sizeof v.data);
    return v;
}

/* One thread by default: reproducible, and on a small shared machine TFLite's
 * spinning thread pools slow down by an order of magnitude under load. */
static int g_threads = 1;
static int g_runs = 20;

/* Builds an interpreter for `engine`, feeds `inputs`, keeps the outputs of
 * the first Invoke and times `g_runs` more. */
static bool run_engine(const TfLiteModel *model, int engine, void *const *inputs,
                       const size_t *in_bytes, int32_t n_in, run_result *r)
{
    memset(r, 0, sizeof *r);
    TfLiteInterpreterOptions *opts = tfl.OptionsCreate();
    TfLiteDelegate *xnn = NULL;
    bool ok = false;
    if (opts == NULL)
        return false;
    tfl.OptionsSetNumThreads(opts, g_threads);
    if (engine == ENGINE_XNNPACK) {
        XnnOptions xo = tfl.XnnOptionsDefault();
        xo.num_threads = g_threads;
        xnn = tfl.XnnCreate(&xo);
        if (xnn == NULL) {
            printf("    %s: TfLiteXNNPackDelegateCreate failed\n", engine_names[engine]);
            goto out;
        }
        tfl.OptionsAddDelegate(opts, xnn);
    } else if (engine == ENGINE_NNAPI) {
        tfl.OptionsSetUseNNAPI(opts, true);
    }
    TfLiteInterpreter *it = tfl.Create(model, opts);
    if (it == NULL) {
        printf("    %s: TfLiteInterpreterCreate failed\n", engine_names[engine]);
        goto out;
    }
    if (tfl.AllocateTensors(it) != 0) {
        printf("    %s: AllocateTensors failed\n", engine_names[engine]);
        goto out_it;
    }
    if (tfl.GetInputTensorCount(it) != n_in) {
        printf("    %s: %d inputs, expected %d\n", engine_names[engine],
               tfl.GetInputTensorCount(it), n_in);
        goto out_it;
    }
    for (int32_t i = 0; i < n_in; i++) {
        TfLiteTensor *t = tfl.GetInputTensor(it, i);
        if (tfl.TensorByteSize(t) != in_bytes[i] ||
            tfl.TensorCopyFromBuffer(t, inputs[i], in_bytes[i]) != 0) {
            printf("    %s: input %d: %zu bytes, reference file has %zu\n",
                   engine_names[engine], i, tfl.TensorByteSize(t), in_bytes[i]);
            goto out_it;
        }
    }
    if (tfl.Invoke(it) != 0) {
        printf("    %s: Invoke failed\n", engine_names[engine]);
        goto out_it;
    }
    r->n_out = tfl.GetOutputTensorCount(it);
    if (r->n_out > MAX_IO) {
        printf("    %s: too many outputs\n", engine_names[engine]);
        r->n_out = 0;
        goto out_it;
    }
    for (int32_t i = 0; i < r->n_out; i++) {
        const TfLiteTensor *t = tfl.GetOutputTensor(it, i);
        r->type[i] = tfl.TensorType(t);
        r->bytes[i] = tfl.TensorByteSize(t);
        r->q[i] = tfl.TensorQuantizationParams(t);
        snprintf(r->name[i], sizeof r->name[i], "%s", tfl.TensorName(t));
        r->data[i] = malloc(r->bytes[i] ? r->bytes[i] : 1);
        if (r->data[i] == NULL || tfl.TensorCopyToBuffer(t, r->data[i], r->bytes[i]) != 0) {
            printf("    %s: cannot read output %d\n", engine_names[engine], i);
            goto out_it;
        }
    }
    double *times = malloc((size_t)g_runs * sizeof *times);
    if (times == NULL)
        goto out_it;
    for (int k = 0; k < g_runs; k++) {
        double t0 = now_ms();
        if (tfl.Invoke(it) != 0) {
            printf("    %s: Invoke %d failed\n", engine_names[engine], k + 2);
            free(times);
            goto out_it;
        }
        times[k] = now_ms() - t0;
    }
    /* Reused executions must keep computing the same thing. */
    for (int32_t i = 0; i < r->n_out; i++) {
        r->last[i] = malloc(r->bytes[i] ? r->bytes[i] : 1);
        if (r->last[i] == NULL ||
            tfl.TensorCopyToBuffer(tfl.GetOutputTensor(it, i), r->last[i], r->bytes[i]) != 0) {
            printf("    %s: cannot read output %d\n", engine_names[engine], i);
            free(times);
            goto out_it;
        }
    }
    qsort(times, (size_t)g_runs, sizeof *times, cmp_double);
    r->median_ms = times[g_runs / 2];
    r->min_ms = times[0];
    free(times);
    r->ran = ok = true;
out_it:
    tfl.Delete(it);
out:
    tfl.OptionsDelete(opts);
    if (xnn != NULL)
        tfl.XnnDelete(xnn);
    return ok;
}

/* ---- comparing outputs ---- */

static double elem(const void *data, int type, size_t i)
{
    switch (type) {
    case TFL_FLOAT32: return ((const float *)data)[i];
    case TFL_UINT8: return ((const uint8_t *)data)[i];
    case TFL_INT8: return ((const int8_t *)data)[i];
    case TFL_INT16: return ((const int16_t *)data)[i];
    case TFL_INT32: return ((const int32_t *)data)[i];
    default: return NAN;
    }
}

static size_t elem_size(int type)
{
    switch (type) {
    case TFL_FLOAT32: return 4;
    case TFL_UINT8: return 1;
    case TFL_INT8: return 1;
    case TFL_INT16: return 2;
    case TFL_INT32: return 4;
    default: return 0;
    }
}

/* Indices of the k largest values, ties broken by the lower index. */
static void top_k(const void *data, int type, size_t n, size_t k, size_t *idx)
{
    for (size_t j = 0; j < k; j++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            bool taken = false;
            for (size_t m = 0; m < j && !taken; m++)
                taken = idx[m] == i;
            if (!taken && (best == SIZE_MAX || elem(data, type, i) > elem(data, type, best)))
                best = i;
        }
        idx[j] = best;
    }
}

/* Compares `got` to `want` (the reference engine's outputs); prints why not.
 * Quantized outputs may differ by quant_steps. *max_diff (if given) receives
 * the largest absolute difference (quantized: in steps). */
static bool compare(const run_result *want, const run_result *got, const char *what,
                    double quant_steps, bool verbose, double *max_diff)
{
    if (max_diff != NULL)
        *max_diff = 0;
    if (want->n_out != got->n_out) {
        printf("    %s: %d outputs, reference has %d\n", what, got->n_out, want->n_out);
        return false;
    }
    bool ok = true;
    for (int32_t o = 0; o < want->n_out; o++) {
        int type = want->type[o];
        size_t es = elem_size(type);
        if (got->type[o] != type || got->bytes[o] != want->bytes[o] || es == 0) {
            printf("    %s: output %d: type %d / %zu bytes, reference type %d / %zu bytes\n",
                   what, o, got->type[o], got->bytes[o], type, want->bytes[o]);
            ok = false;
            continue;
        }
        size_t n = want->bytes[o] / es, bad = 0, worst_i = 0;
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            double a = elem(want->data[o], type, i), b = elem(got->data[o], type, i);
            double err = fabs(a - b);
            if (max_diff != NULL && !(err <= *max_diff))
                *max_diff = err;
            double tol = type == TFL_FLOAT32 ? 1e-4 * fabs(a) + 1e-4 : quant_steps;
            if (!(err <= tol))
                bad++;
            double rel = type == TFL_FLOAT32 ? err / tol : (quant_steps > 0 ? err / tol : err);
            if (rel > worst || isnan(rel)) {
                worst = rel;
                worst_i = i;
            }
        }
        size_t k = n < 5 ? n : 5, ta[5], tb[5];
        top_k(want->data[o], type, n, k, ta);
        top_k(got->data[o], type, n, k, tb);
        bool top_same = true;
        for (size_t j = 0; j < k; j++)
            /* A swap of exactly equal reference values is not a disagreement. */
            if (ta[j] != tb[j] &&
                elem(want->data[o], type, ta[j]) != elem(want->data[o], type, tb[j]))
                top_same = false;
        double a = elem(want->data[o], type, worst_i), b = elem(got->data[o], type, worst_i);
        if (bad || !top_same || verbose) {
            printf("    %s: output %d (%s, %zu values): %zu out of tolerance, worst [%zu] "
                   "%.6g vs %.6g (%.2f of tolerance), top-%zu %s\n",
                   what, o, want->name[o], n, bad, worst_i, b, a, worst, k,
                   top_same ? "identical" : "DIFFERENT");
            if (!top_same || verbose) {
                printf("      top-%zu reference:", k);
                for (size_t j = 0; j < k; j++)
                    printf(" %zu(%.5g)", ta[j], elem(want->data[o], type, ta[j]));
                printf("\n      top-%zu got:      ", k);
                for (size_t j = 0; j < k; j++)
                    printf(" %zu(%.5g)", tb[j], elem(got->data[o], type, tb[j]));
                printf("\n");
            }
        }
        if (bad || !top_same)
            ok = false;
    }
    return ok;
}

/* ---- which libneuralnetworks.so got loaded ---- */

static int find_nnapi_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strcmp(base, "libneuralnetworks.so") == 0) {
        char **found = arg;
        free(*found);
        *found = realpath(info->dlpi_name, NULL);
        if (*found == NULL)
            *found = strdup(info->dlpi_name);
    }
    return 0;
}

/* ---- one model ---- */

typedef struct {
    char name[128];
    double ms[N_ENGINES];
    bool ran[N_ENGINES];
    bool passed;
    uint32_t model_ops, delegated_ops;
    bool not_applicable; /* TFLite itself cannot build it with the delegate */
    bool known_mismatch; /* listed: runs, does not match yet */
} model_report;

static bool read_inputs(const char *dir, void **inputs, size_t *bytes, int32_t *n_in)
{
    *n_in = 0;
    for (int32_t i = 0; i < MAX_IO; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input_%d.bin", dir, i);
        if (!file_exists(path))
            break;
        inputs[i] = read_file(path, &bytes[i]);
        if (inputs[i] == NULL)
            return false;
        (*n_in)++;
    }
    return *n_in > 0;
}

static bool verbose;

/* Every operator TFLite's delegate hands over must have been compiled by our
 * library: TFLite keeps quietly on its CPU whatever the library reports
 * unsupported. */
static bool check_delegation(const model_ops *mops, const vlog_summary *s, model_report *rep)
{
    bool ok = true;
    uint32_t declined = 0;
    printf("    delegation: model has %u operators; our library compiled %u operations in "
           "%u compilation(s) on device \"%s\"\n",
           mops->n_ops, s->ops_compiled, s->compilations, s->device);
    rep->model_ops = mops->n_ops;
    rep->delegated_ops = s->ops_compiled;
    if (mops->n_ops == 0) {
        printf("    note: the model has no operators (its outputs are its inputs): nothing to "
               "delegate\n");
        return true;
    }
    if (s->compilations == 0 || s->ops_compiled == 0) {
        printf("    FAIL: nothing was compiled by our library (silent fallback to TFLite's "
               "CPU kernels?)\n");
        return false;
    }
    for (uint32_t k = 0; k < mops->n_kinds; k++) {
        const char *nn = NULL;
        const char *name = tflite_op_name(mops->kinds[k].code, &nn);
        uint32_t have = nn ? log_count(s, nn) : 0;
        bool refused = false;
        for (uint32_t u = 0; nn && u < s->n_unsupported; u++)
            refused |= strcmp(s->unsupported[u], nn) == 0;
        bool missing = have < mops->kinds[k].count;
        /* What TFLite's delegate keeps on its CPU by its own rules (types,
         * options, operators it never maps) is its decision; what it keeps
         * because our library reported it unsupported is ours. */
        printf("      %-30s x%-3u -> %-30s x%-3u%s%s\n", name, mops->kinds[k].count,
               nn ? nn : "?", have, missing ? "  NOT DELEGATED" : "",
               !missing ? "" : refused ? ": our library reported it unsupported"
                                       : ": declined by TFLite's delegate");
        if (missing && refused)
            ok = false;
        if (missing && !refused)
            declined += mops->kinds[k].count - have;
    }
    if (!ok)
        printf("    FAIL: operators of the model did not reach our library\n");
    else if (declined > 0)
        printf("    note: TFLite's delegate kept %u operator(s) on its CPU; everything it delegated "
               "reached our library\n", declined);
    return ok;
}

static bool run_model(const char *models_dir, const char *stem, model_report *rep)
{
    char path[PATH_MAX];
    snprintf(rep->name, sizeof rep->name, "%s", stem);
    snprintf(path, sizeof path, "%s/%s.tflite", models_dir, stem);
    printf("\n== %s\n", stem);
    model_ops mops;
    if (!read_model_ops(path, &mops)) {
        printf("    FAIL: cannot read the operators of %s\n", path);
        return false;
    }
    TfLiteModel *model = tfl.ModelCreateFromFile(path);
    if (model == NULL) {
        printf("    FAIL: TfLiteModelCreateFromFile(%s)\n", path);
        return false;
    }
    bool ok = true, timed = false;
    static const char *const ref_kinds[] = {"ref", "ref_img"};
    for (size_t rk = 0; rk < 2; rk++) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s/%s", models_dir, ref_kinds[rk], stem);
        if (!file_exists(dir))
            continue;
        void *inputs[MAX_IO] = {0};
        size_t in_bytes[MAX_IO] = {0};
        int32_t n_in = 0;
        run_result res[N_ENGINES];
        memset(res, 0, sizeof res);
        printf("  input %s/%s\n", ref_kinds[rk], stem);
        if (!read_inputs(dir, inputs, in_bytes, &n_in)) {
            printf("    FAIL: cannot read the inputs in %s\n", dir);
            ok = false;
            goto next;
        }
        /* TFLite's CPU kernels, checked against the stored reference. */
        if (!run_engine(model, ENGINE_CPU, inputs, in_bytes, n_in, &res[ENGINE_CPU])) {
            ok = false;
            goto next;
        }
        run_result stored = {.n_out = res[ENGINE_CPU].n_out};
        bool have_stored = true;
        for (int32_t o = 0; o < stored.n_out; o++) {
            char p[PATH_MAX + 32];
            snprintf(p, sizeof p, "%s/output_%d.bin", dir, o);
            stored.type[o] = res[ENGINE_CPU].type[o];
            snprintf(stored.name[o], sizeof stored.name[o], "%s", res[ENGINE_CPU].name[o]);
            stored.data[o] = read_file(p, &stored.bytes[o]);
            if (stored.data[o] == NULL)
                have_stored = false;
        }
        if (have_stored && !compare(&stored, &res[ENGINE_CPU], "TFLite CPU vs stored ref", 2,
                                    false, NULL)) {
            printf("    FAIL: TFLite's own CPU run does not reproduce the stored reference\n");
            ok = false;
        }
        free_result(&stored);

        if (tfl.XnnCreate != NULL &&
            run_engine(model, ENGINE_XNNPACK, inputs, in_bytes, n_in, &res[ENGINE_XNNPACK]))
            /* XNNPACK's agreement is informative only: this test is about us. */
            compare(&res[ENGINE_CPU], &res[ENGINE_XNNPACK], "TFLite+XNNPACK vs CPU", 2, false, NULL);

        capture cap;
        if (!capture_begin(&cap)) {
            printf("    FAIL: cannot capture stderr\n");
            ok = false;
            goto next;
        }
        bool nn_ok = run_engine(model, ENGINE_NNAPI, inputs, in_bytes, n_in, &res[ENGINE_NNAPI]);
        char *log = capture_end(&cap);
        vlog_summary s;
        parse_log(log ? log : "", &s, verbose || !nn_ok);
        free(log);
        const char *why_not = cannot_build_reason(stem);
        if (!nn_ok && why_not != NULL) {
            printf("    NOT APPLICABLE: %s\n", why_not);
            rep->not_applicable = true;
            timed = true;
            goto next;
        }
        if (!nn_ok) {
            printf("    FAIL: TFLite with the NNAPI delegate did not run\n");
            ok = false;
            goto next;
        }
        if (why_not != NULL) {
            printf("    FAIL: listed as a model TFLite cannot build with its delegate, but it ran: "
                   "take it off the list\n");
            ok = false;
        }
        if (!check_delegation(&mops, &s, rep))
            ok = false;
        if (s.on_driver > 0) {
            printf("    partition: %u operations on a driver's device, %u on the CPU\n",
                   s.on_driver, s.on_cpu);
            models_split += s.on_cpu > 0;
        }
        run_result cpu_last = last_view(&res[ENGINE_CPU]);
        run_result nn_last = last_view(&res[ENGINE_NNAPI]);
        /* A model whose TFLite CPU outputs drift from Invoke to Invoke keeps
         * state in variable tensors; TFLite 2.9's delegate hands those to
         * NNAPI as inputs only and never updates them, so its later Invokes
         * are not comparable. */
        bool stateful = false;
        for (int32_t o = 0; o < res[ENGINE_CPU].n_out; o++)
            stateful |= memcmp(res[ENGINE_CPU].data[o], res[ENGINE_CPU].last[o],
                               res[ENGINE_CPU].bytes[o]) != 0;
        if (stateful)
            printf("    note: stateful across Invokes on TFLite's CPU (variable tensors): "
                   "only the first Invoke is compared\n");
        double diff;
        if (compare(&res[ENGINE_CPU], &res[ENGINE_NNAPI], "NNAPI(us) vs TFLite CPU", 0, verbose,
                    &diff) &&
            (stateful || compare(&cpu_last, &nn_last, "NNAPI(us) vs TFLite CPU, last Invoke",
                                 0, false, NULL)))
            printf("    outputs: NNAPI(us) matches TFLite CPU (%s), largest difference %.3g%s\n",
                   stateful ? "first Invoke" : "first and last Invoke", diff,
                   res[ENGINE_CPU].type[0] == TFL_FLOAT32 ? "" : " steps");
        else {
            printf("    FAIL: NNAPI(us) outputs differ from TFLite CPU\n");
            ok = false;
        }
        if (!timed) {
            for (int e = 0; e < N_ENGINES; e++) {
                rep->ran[e] = res[e].ran;
                rep->ms[e] = res[e].median_ms;
            }
            timed = true;
        }
        printf("    latency, median (min) of %d:", g_runs);
        for (int e = 0; e < N_ENGINES; e++)
            if (res[e].ran)
                printf("  %s %.3f (%.3f) ms", engine_names[e], res[e].median_ms,
                       res[e].min_ms);
        printf("\n");
    next:
        for (int e = 0; e < N_ENGINES; e++)
            free_result(&res[e]);
        for (int32_t i = 0; i < MAX_IO; i++)
            free(inputs[i]);
    }
    tfl.ModelDelete(model);
    if (!timed) {
        printf("    FAIL: no reference inputs for %s\n", stem);
        ok = false;
    }
    const char *known = known_mismatch_reason(stem);
    if (known != NULL && ok) {
        printf("    FAIL: listed as a known mismatch (%s) but it passes: take it off the list\n", known);
        ok = false;
    } else if (known != NULL) {
        printf("    KNOWN MISMATCH: %s\n", known);
        rep->known_mismatch = true;
        ok = true;
    }
    rep->passed = ok;
    printf("  %s: %s\n", stem,
           !ok ? "FAIL" : rep->not_applicable ? "NOT APPLICABLE" : rep->known_mismatch ? "KNOWN MISMATCH" : "PASS");
    return ok;
}

/* ---- main ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void usage(void)
{
    printf("usage: tflite_delegate_test [--tflite LIB] [--models DIR] [--nnapi-dir DIR]\n"
           "         [--fetch SCRIPT] [--runs N] [--threads N (default 1)] [--model NAME] [-v]\n"
           "Runs every model of DIR (with ref/<name>/input_*.bin) on TFLite's CPU kernels,\n"
           "XNNPACK and TFLite's NNAPI delegate over the libneuralnetworks.so of --nnapi-dir,\n"
           "and compares. Exits 77 (skipped) when LIB is absent and SCRIPT cannot fetch it.\n");
}

#ifndef NN_TFLITE_LIB
#define NN_TFLITE_LIB "tests/tflite/deps/libtensorflowlite_c.so"
#endif
#ifndef NN_TFLITE_FETCH
#define NN_TFLITE_FETCH "tests/tflite/fetch_tflite.sh"
#endif
#ifndef NN_MODELS_DIR
#define NN_MODELS_DIR "tests/models"
#endif
#ifndef NN_LIB_DIR
#define NN_LIB_DIR "."
#endif

int main(int argc, char **argv)
{
    const char *lib = NN_TFLITE_LIB, *fetch = NN_TFLITE_FETCH, *models_dir = NN_MODELS_DIR;
    const char *nnapi_dir = NN_LIB_DIR, *only = NULL;
    /* Line by line, so that the report interleaves with TFLite's own log. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-v") == 0) {
            verbose = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        }
        if (v == NULL) {
            usage();
            return 2;
        }
        i++;
        if (strcmp(a, "--tflite") == 0)
            lib = v;
        else if (strcmp(a, "--fetch") == 0)
            fetch = v;
        else if (strcmp(a, "--models") == 0)
            models_dir = v;
        else if (strcmp(a, "--nnapi-dir") == 0)
            nnapi_dir = v;
        else if (strcmp(a, "--model") == 0)
            only = v;
        else if (strcmp(a, "--runs") == 0)
            g_runs = atoi(v) > 0 ? atoi(v) : 1;
        else if (strcmp(a, "--threads") == 0)
            g_threads = atoi(v) > 0 ? atoi(v) : 1;
        else {
            usage();
            return 2;
        }
    }

    char want_lib[PATH_MAX + 32];
    snprintf(want_lib, sizeof want_lib, "%s/libneuralnetworks.so", nnapi_dir);
    char *want_real = realpath(want_lib, NULL);
    if (want_real == NULL) {
        printf("FAIL: %s: %s (build the library first)\n", want_lib, strerror(errno));
        return 1;
    }

    /* The delegate finds the library by dlopen("libneuralnetworks.so"), which
     * reads LD_LIBRARY_PATH as it was at process start: re-execute once with
     * the build directory first in it, and with our library's log on. */
    if (getenv("NN_TFLITE_TEST_REEXEC") == NULL) {
        char *dir = strdup(want_real);
        if (dir == NULL)
            return 1;
        *strrchr(dir, '/') = '\0';
        const char *old = getenv("LD_LIBRARY_PATH");
        size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
        char *path = malloc(n);
        if (path == NULL)
            return 1;
        snprintf(path, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
        setenv("LD_LIBRARY_PATH", path, 1);
        setenv("NNAPI_LINUX_VLOG", "1", 1);
        /* Our library then uses as many threads as TFLite is given. */
        char threads[16];
        snprintf(threads, sizeof threads, "%d", g_threads);
        setenv("NNAPI_LINUX_THREADS", threads, 0);
        setenv("NN_TFLITE_TEST_REEXEC", "1", 1);
        execv("/proc/self/exe", argv);
        printf("FAIL: cannot re-execute: %s\n", strerror(errno));
        return 1;
    }

    if (!file_exists(lib) && fetch != NULL && *fetch != '\0') {
        char dest[PATH_MAX];
        snprintf(dest, sizeof dest, "%s", lib);
        char *slash = strrchr(dest, '/');
        if (slash != NULL)
            *slash = '\0';
        else
            snprintf(dest, sizeof dest, ".");
        printf("%s not found: running %s\n", lib, fetch);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(1, 2); /* keep the fetch's messages out of the captured stderr */
            execl("/bin/sh", "sh", fetch, dest, (char *)NULL);
            _exit(127);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
            (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != SKIP_CODE)) {
            printf("FAIL: %s did not work (status %d)\n", fetch, st);
            return 1;
        }
    }
    if (!file_exists(lib)) {
        printf("SKIPPED: TensorFlow Lite's C library (%s) is not available and could not be "
               "fetched (npm tfjs-tflite-node@0.0.2 needs npm and the registry): the TFLite "
               "delegate test did not run\n",
               lib);
        return SKIP_CODE;
    }
    if (!load_tflite(lib))
        return 1;
    printf("TensorFlow Lite %s (%s)\nour library: %s\nmodels: %s\nthreads: TFLite %d, "
           "our library %s; timed runs: %d\n",
           tfl.Version(), lib, want_real, models_dir, g_threads,
           getenv("NNAPI_LINUX_THREADS"), g_runs);

    DIR *d = opendir(models_dir);
    if (d == NULL) {
        printf("FAIL: %s: %s\n", models_dir, strerror(errno));
        return 1;
    }
    char *stems[64];
    size_t n_stems = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n_stems < 64) {
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".tflite") == 0) {
            char *s = strndup(e->d_name, len - 7);
            if (s != NULL && (only == NULL || strcmp(s, only) == 0))
                stems[n_stems++] = s;
            else
                free(s);
        }
    }
    closedir(d);
    qsort(stems, n_stems, sizeof *stems, cmp_str);
    if (n_stems == 0) {
        printf("FAIL: no .tflite models in %s\n", models_dir);
        return 1;
    }

    model_report reps[64];
    memset(reps, 0, sizeof reps);
    unsigned passed = 0, failed = 0, not_applicable = 0, known = 0;
    for (size_t i = 0; i < n_stems; i++) {
        if (!run_model(models_dir, stems[i], &reps[i]))
            failed++;
        else if (reps[i].not_applicable)
            not_applicable++;
        else if (reps[i].known_mismatch)
            known++;
        else
            passed++;
    }

    /* The NNAPI runs must have gone through the library just built. */
    char *loaded = NULL;
    dl_iterate_phdr(find_nnapi_lib, &loaded);
    printf("\nlibneuralnetworks.so loaded by TFLite: %s\n", loaded ? loaded : "(none)");
    if (loaded == NULL || strcmp(loaded, want_real) != 0) {
        printf("FAIL: expected %s\n", want_real);
        failed++;
    }
    free(loaded);

    printf("\n%-40s %14s %16s %18s  %s\n", "model (median ms)", engine_names[0],
           engine_names[1], engine_names[2], "ops delegated");
    for (size_t i = 0; i < n_stems; i++) {
        printf("%-40s", reps[i].name);
        for (int k = 0; k < N_ENGINES; k++) {
            int w = k == 0 ? 14 : k == 1 ? 16 : 18;
            if (reps[i].ran[k])
                printf(" %*.3f", w, reps[i].ms[k]);
            else
                printf(" %*s", w, "-");
        }
        printf("  %u/%u %s\n", reps[i].delegated_ops, reps[i].model_ops,
               !reps[i].passed             ? "FAIL"
               : reps[i].not_applicable    ? "NOT APPLICABLE"
               : reps[i].known_mismatch    ? "KNOWN MISMATCH"
                                           : "PASS");
        free(stems[i]);
    }
    free(want_real);
    const char *drivers = getenv("NNAPI_LINUX_DRIVERS");
    if (drivers != NULL && drivers[0] != '\0') {
        printf("\nmodels split between a driver's device and the CPU: %u\n", models_split);
        if (models_split == 0) {
            printf("FAIL: SL drivers are loaded (NNAPI_LINUX_DRIVERS) but no model was split\n");
            failed++;
        }
    }
    printf("\ntflite_delegate: %u passed, %u failed (%u not applicable: TFLite cannot build them "
           "with its delegate; %u known mismatches listed above)\n", passed, failed, not_applicable, known);
    return failed ? 1 : 0;
}
