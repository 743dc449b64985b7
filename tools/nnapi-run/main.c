/*
 * nnapi-run: runs a TensorFlow Lite model on the NNAPI runtime.
 *
 * The model is read by our own flatbuffer reader (tflite.c), translated into
 * an NNAPI model through the public API (translate.c), compiled, executed,
 * and its outputs printed or written out. Progress and timing go to stderr,
 * results to stdout. See tools/nnapi-run/README.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "image.h"
#include "tflite.h"
#include "translate.h"

/* The embedded default: a quantized MobileNet, its labels and a test image. */
extern const unsigned char nr_default_model[], nr_default_labels[], nr_default_image[];
extern const size_t nr_default_model_size, nr_default_labels_size, nr_default_image_size;

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3 };
enum { MAX_FILES = 64 };

typedef struct {
    const char *model_path;
    const char *inputs[MAX_FILES];
    int n_inputs;
    const char *output_dir;
    const char *device;
    const char *labels;
    const char *compare;
    int repeat;
    int threads;
    int relaxed;
    int feature_level; /* 0: the runtime's */
    int top;
    int json;
    int list_devices;
    int max_steps;            /* --max-steps: quantized tolerance of --compare */
    int profile;              /* --profile: print the per-operation table */
    const char *profile_file; /* --profile=FILE: also keep the trace there */
} options;

/* A file's bytes: mapped, or borrowed from the embedded data. */
typedef struct {
    const uint8_t *data;
    size_t size;
    void *map;
} blob;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: nnapi-run [MODEL.tflite] [options]\n"
            "Runs a TensorFlow Lite model on the NNAPI runtime (libneuralnetworks).\n"
            "Without MODEL, runs the embedded MobileNet v1 0.25 128 (uint8) on a cat picture.\n"
            "\n"
            "  --input FILE       one per model input, in order: a raw tensor file of the exact\n"
            "                     byte size, or an image (.bmp, .ppm, .pgm) resized to the input\n"
            "  --output-dir DIR   write each output to DIR/output_<i>.bin (raw, little-endian)\n"
            "  --repeat N         after the first run, N timed runs: print their latency\n"
            "                     (min/median/max) and peak memory\n"
            "  --threads N        worker threads of the runtime (sets NNAPI_LINUX_THREADS)\n"
            "  --device NAME      compile for this device only (see --list-devices)\n"
            "  --list-devices     print the available devices and exit\n"
            "  --relaxed          allow float32 to be computed in float16\n"
            "  --feature-level N  use only NNAPI operations of feature level N (27..31, or\n"
            "                     1000006..1000008; default: the runtime's): below 1000006\n"
            "                     BATCH_MATMUL and PACK, below 1000007 MIRROR_PAD and\n"
            "                     REVERSE_V2 have no single NNAPI operation\n"
            "  --top K            print the K highest-scoring classes of each output\n"
            "  --labels FILE      class names, one per line (line i = class i)\n"
            "  --compare DIR      reference check: inputs from DIR/input_<i>.bin (unless --input),\n"
            "                     outputs compared with DIR/output_<i>.bin; exit 1 on mismatch\n"
            "  --max-steps N      quantized outputs may differ by N steps in --compare (default 2)\n"
            "  --json             print results as JSON\n"
            "  --profile[=FILE]   print every NNAPI operation's median time, share and GFLOP/s;\n"
            "                     with FILE, keep the Chrome trace (NNAPI_LINUX_PROFILE) there\n"
            "  -h, --help         this text\n");
}

enum { MAX_COUNT = 1000000000 };

/* A count option's value: 0, or -1 with the reason printed. */
static int parse_int(const char *opt, const char *s, int min, int *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end) {
        fprintf(stderr, "nnapi-run: %s needs a whole number, not \"%s\"\n", opt, s);
        return -1;
    }
    if (errno == ERANGE || v > MAX_COUNT) {
        fprintf(stderr, "nnapi-run: %s %s is too large (at most %d)\n", opt, s, MAX_COUNT);
        return -1;
    }
    if (v < min) {
        fprintf(stderr, "nnapi-run: %s needs a count of at least %d, not %s\n", opt, min, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->top = -1;
    o->max_steps = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                           \
    do {                                                                       \
        if (v == NULL) {                                                       \
            fprintf(stderr, "nnapi-run: %s needs a value\n", a);              \
            return -1;                                                         \
        }                                                                      \
        i++;                                                                   \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--input")) {
            NEED_VALUE();
            if (o->n_inputs == MAX_FILES) {
                fprintf(stderr, "nnapi-run: too many --input files\n");
                return -1;
            }
            o->inputs[o->n_inputs++] = v;
        } else if (!strcmp(a, "--output-dir")) {
            NEED_VALUE();
            o->output_dir = v;
        } else if (!strcmp(a, "--repeat")) {
            NEED_VALUE();
            if (parse_int(a, v, 1, &o->repeat))
                return -1;
        } else if (!strcmp(a, "--threads")) {
            NEED_VALUE();
            if (parse_int(a, v, 1, &o->threads))
                return -1;
        } else if (!strcmp(a, "--device")) {
            NEED_VALUE();
            o->device = v;
        } else if (!strcmp(a, "--labels")) {
            NEED_VALUE();
            o->labels = v;
        } else if (!strcmp(a, "--compare")) {
            NEED_VALUE();
            o->compare = v;
        } else if (!strcmp(a, "--top")) {
            NEED_VALUE();
            if (parse_int(a, v, 1, &o->top))
                return -1;
        } else if (!strcmp(a, "--max-steps")) {
            NEED_VALUE();
            if (parse_int(a, v, 0, &o->max_steps))
                return -1;
        } else if (!strcmp(a, "--profile")) {
            o->profile = 1;
        } else if (!strncmp(a, "--profile=", 10)) {
            if (a[10] == '\0') {
                fprintf(stderr, "nnapi-run: --profile= needs a file name\n");
                return -1;
            }
            o->profile = 1;
            o->profile_file = a + 10;
        } else if (!strcmp(a, "--relaxed")) {
            o->relaxed = 1;
        } else if (!strcmp(a, "--feature-level")) {
            NEED_VALUE();
            if (parse_int(a, v, 1, &o->feature_level))
                return -1;
            if (!((o->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_1 &&
                   o->feature_level <= ANEURALNETWORKS_FEATURE_LEVEL_5) ||
                  (o->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_6 &&
                   o->feature_level <= ANEURALNETWORKS_FEATURE_LEVEL_8))) {
                fprintf(stderr, "nnapi-run: --feature-level needs a feature level (27..31 or "
                                "1000006..1000008)\n");
                return -1;
            }
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--list-devices")) {
            o->list_devices = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "nnapi-run: unknown option %s (see --help)\n", a);
            return -1;
        } else if (o->model_path == NULL) {
            o->model_path = a;
        } else {
            fprintf(stderr, "nnapi-run: more than one model given (%s)\n", a);
            return -1;
        }
#undef NEED_VALUE
    }
    return 0;
}

static int map_file(const char *path, blob *b)
{
    memset(b, 0, sizeof *b);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "nnapi-run: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "nnapi-run: %s is not a regular file\n", path);
        close(fd);
        return -1;
    }
    b->size = (size_t)st.st_size;
    if (b->size > 0) {
        b->map = mmap(NULL, b->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (b->map == MAP_FAILED) {
            fprintf(stderr, "nnapi-run: cannot map %s: %s\n", path, strerror(errno));
            b->map = NULL;
            close(fd);
            return -1;
        }
        b->data = b->map;
    }
    close(fd);
    return 0;
}

static void unmap_file(blob *b)
{
    if (b->map != NULL)
        munmap(b->map, b->size);
    memset(b, 0, sizeof *b);
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

/* Creates dir and its missing parents (mkdir -p). Returns 0, or -1 with the
 * reason printed. */
static int make_dirs(const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        fprintf(stderr, "nnapi-run: --output-dir: bad directory name\n");
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char c = path[i];
        path[i] = '\0';
        struct stat st;
        if (stat(path, &st) != 0) {
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "nnapi-run: --output-dir: cannot create %s: %s\n", path, strerror(errno));
                return -1;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "nnapi-run: --output-dir: %s exists and is not a directory\n", path);
            return -1;
        }
        path[i] = c;
    }
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "nnapi-run: --output-dir: cannot write to %s: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- labels ---- */

typedef struct {
    char *text;
    char **line;
    size_t n;
} labels;

static int labels_load(const uint8_t *data, size_t size, labels *l)
{
    memset(l, 0, sizeof *l);
    l->text = malloc(size + 1);
    size_t cap = 1;
    for (size_t i = 0; i < size; i++)
        cap += data[i] == '\n';
    l->line = malloc(cap * sizeof *l->line);
    if (l->text == NULL || l->line == NULL) {
        free(l->text);
        free(l->line);
        memset(l, 0, sizeof *l);
        return -1;
    }
    memcpy(l->text, data, size);
    l->text[size] = '\0';
    char *p = l->text;
    while (*p != '\0' && l->n < cap) {
        char *e = strchr(p, '\n');
        if (e != NULL)
            *e = '\0';
        size_t len = strlen(p);
        if (len > 0 && p[len - 1] == '\r')
            p[len - 1] = '\0';
        l->line[l->n++] = p;
        if (e == NULL)
            break;
        p = e + 1;
    }
    return 0;
}

static void labels_free(labels *l)
{
    free(l->text);
    free(l->line);
    memset(l, 0, sizeof *l);
}

/* ---- tensors ---- */

typedef struct {
    int tensor;       /* TFLite tensor index */
    const tfl_tensor *t;
    size_t numel, bytes;
    void *data;
} buffer;

static int buffer_init(const tfl_tensor *t, int ti, buffer *b)
{
    b->tensor = ti;
    b->t = t;
    size_t es = tfl_type_size(b->t->type);
    b->numel = tfl_numel(b->t);
    for (uint32_t i = 0; i < b->t->rank; i++)
        if (b->t->shape[i] < 0) {
            fprintf(stderr, "nnapi-run: tensor %s has an unknown dimension\n", b->t->name);
            return -1;
        }
    if (es == 0 || (b->numel > 0 && b->numel > SIZE_MAX / es)) {
        fprintf(stderr, "nnapi-run: tensor %s has an unsupported type or size\n", b->t->name);
        return -1;
    }
    b->bytes = b->numel * es;
    b->data = calloc(1, b->bytes ? b->bytes : 1);
    if (b->data == NULL) {
        fprintf(stderr, "nnapi-run: out of memory\n");
        return -1;
    }
    return 0;
}

static double value_at(const buffer *b, size_t i)
{
    const tfl_tensor *t = b->t;
    switch (t->type) {
    case TFL_FLOAT32: return ((const float *)b->data)[i];
    case TFL_INT32: return ((const int32_t *)b->data)[i];
    case TFL_UINT8: return ((const uint8_t *)b->data)[i];
    case TFL_INT8: return ((const int8_t *)b->data)[i];
    case TFL_INT16: return ((const int16_t *)b->data)[i];
    case TFL_BOOL: return ((const uint8_t *)b->data)[i] != 0;
    case TFL_INT64: return (double)((const int64_t *)b->data)[i];
    case TFL_FLOAT16: {
        uint16_t h = ((const uint16_t *)b->data)[i];
        int e = (h >> 10) & 0x1f, m = h & 0x3ff;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
        return (h & 0x8000) ? -v : v;
    }
    default: return 0.0;
    }
}

static int is_quant(const tfl_tensor *t)
{
    return (t->type == TFL_UINT8 || t->type == TFL_INT8 || t->type == TFL_INT16) && t->n_scale > 0;
}

/* The real value an element stands for (dequantized for quantized tensors). */
static double real_at(const buffer *b, size_t i)
{
    double v = value_at(b, i);
    if (is_quant(b->t))
        return (v - (double)b->t->zero_point[0]) * b->t->scale[0];
    return v;
}

/* Fills an input from an image: float inputs get [-1, 1] (pixel / 127.5 - 1),
 * uint8 inputs the pixel value itself and int8 inputs pixel - 128, i.e. the
 * [0, 255] range mapped onto the input's quantized range, as TFLite's
 * quantized image models expect. */
static int fill_from_image(buffer *b, const uint8_t *data, size_t size, const char *what)
{
    const tfl_tensor *t = b->t;
    int h, w, c;
    if (t->rank == 4 && t->shape[0] == 1) {
        h = t->shape[1];
        w = t->shape[2];
        c = t->shape[3];
    } else if (t->rank == 3) {
        h = t->shape[0];
        w = t->shape[1];
        c = t->shape[2];
    } else {
        fprintf(stderr, "nnapi-run: input %s is not an image tensor ([1,H,W,C])\n", t->name);
        return -1;
    }
    if (c != 1 && c != 3) {
        fprintf(stderr, "nnapi-run: input %s has %d channels (images need 1 or 3)\n", t->name, c);
        return -1;
    }
    if (t->type != TFL_FLOAT32 && t->type != TFL_UINT8 && t->type != TFL_INT8) {
        fprintf(stderr, "nnapi-run: cannot feed an image to a %s input\n", tfl_type_name(t->type));
        return -1;
    }
    nr_image img;
    char err[256];
    if (nr_image_decode(data, size, &img, err, sizeof err)) {
        fprintf(stderr, "nnapi-run: %s: %s\n", what, err);
        return -1;
    }
    size_t n = (size_t)h * (size_t)w * (size_t)c;
    float *px = malloc(n * sizeof *px);
    if (px == NULL) {
        nr_image_free(&img);
        fprintf(stderr, "nnapi-run: out of memory\n");
        return -1;
    }
    nr_image_resize(&img, w, h, c, px);
    fprintf(stderr, "nnapi-run: %s: %dx%d image resized to %dx%d\n", what, img.width, img.height, w, h);
    nr_image_free(&img);
    for (size_t i = 0; i < n; i++) {
        /* Round to whole pixel values first, as an 8-bit image pipeline would. */
        float p = roundf(px[i]);
        p = p < 0 ? 0 : p > 255 ? 255 : p;
        if (t->type == TFL_FLOAT32)
            ((float *)b->data)[i] = p / 127.5f - 1.0f;
        else if (t->type == TFL_UINT8)
            ((uint8_t *)b->data)[i] = (uint8_t)p;
        else
            ((int8_t *)b->data)[i] = (int8_t)((int)p - 128);
    }
    free(px);
    return 0;
}

static int fill_from_file(buffer *b, const char *path)
{
    blob f;
    if (map_file(path, &f))
        return -1;
    int rc = 0;
    const char *dot = strrchr(path, '.');
    const char *kind = NULL;
    if (dot != NULL && (!strcasecmp(dot, ".bmp") || !strcasecmp(dot, ".ppm") || !strcasecmp(dot, ".pgm")))
        kind = !strcasecmp(dot, ".bmp") ? "a BMP (no \"BM\" signature)"
               : !strcasecmp(dot, ".ppm") ? "a binary PPM (no \"P6\" header)" : "a binary PGM (no \"P5\" header)";
    if (nr_image_detect(f.data, f.size) && f.size != b->bytes) {
        rc = fill_from_image(b, f.data, f.size, path);
    } else if (kind != NULL && f.size != b->bytes) {
        fprintf(stderr, "nnapi-run: %s is not %s\n", path, kind);
        rc = -1;
    } else if (f.size != b->bytes) {
        fprintf(stderr, "nnapi-run: %s holds %zu bytes; input %s (%s", path, f.size, b->t->name,
                tfl_type_name(b->t->type));
        for (uint32_t i = 0; i < b->t->rank; i++)
            fprintf(stderr, "%s%d", i ? "x" : " ", b->t->shape[i]);
        fprintf(stderr, ") needs %zu\n", b->bytes);
        rc = -1;
    } else if (b->bytes > 0) {
        memcpy(b->data, f.data, b->bytes);
    }
    unmap_file(&f);
    return rc;
}

/* An input nobody supplied: the value that stands for real 0. */
static void fill_neutral(buffer *b)
{
    if (is_quant(b->t) && b->t->type != TFL_INT16)
        memset(b->data, (int)b->t->zero_point[0], b->bytes);
    else
        memset(b->data, 0, b->bytes);
}

/* ---- output ---- */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void print_value(const buffer *b, size_t i, int json)
{
    double v = value_at(b, i);
    if (b->t->type == TFL_FLOAT32 || b->t->type == TFL_FLOAT16) {
        if (isfinite(v) || !json)
            printf("%.9g", v);
        else
            printf("null"); /* JSON has no NaN or infinity */
    } else {
        printf("%.0f", v);
    }
}

/* Indices of the k largest real values (ties: lower index first). */
static size_t top_k(const buffer *b, size_t k, size_t *idx)
{
    if (k > b->numel)
        k = b->numel;
    size_t n = 0;
    for (size_t i = 0; i < b->numel; i++) {
        double v = real_at(b, i);
        if (isnan(v))
            continue;
        size_t pos = n;
        while (pos > 0 && real_at(b, idx[pos - 1]) < v)
            pos--;
        if (pos >= k)
            continue;
        if (n < k)
            n++;
        memmove(idx + pos + 1, idx + pos, (n - 1 - pos) * sizeof *idx);
        idx[pos] = i;
    }
    return n;
}

static void print_shape(const tfl_tensor *t, int json)
{
    printf("[");
    for (uint32_t i = 0; i < t->rank; i++)
        printf("%s%d", i ? (json ? "," : ", ") : "", t->shape[i]);
    printf("]");
}

/* ---- comparison with reference outputs ---- */

typedef struct {
    int pass;
    double max_abs;   /* real values */
    double max_steps; /* quantized outputs only */
    size_t n_bad;
    int top_checked, top_ok;
} cmp_result;

/* Floats within 1e-4 absolute + 1e-4 relative, quantized within max_steps, and
 * classifier outputs must rank the same top 5 (an exchange of classes whose
 * reference scores are within tolerance of each other counts as a tie). */
static int compare_output(const buffer *b, const char *path, int max_steps, cmp_result *r)
{
    memset(r, 0, sizeof *r);
    blob f;
    if (map_file(path, &f))
        return -1;
    if (f.size != b->bytes) {
        fprintf(stderr, "nnapi-run: %s holds %zu bytes, output %s has %zu\n", path, f.size, b->t->name, b->bytes);
        unmap_file(&f);
        return -1;
    }
    buffer ref = *b;
    void *copy = malloc(b->bytes ? b->bytes : 1);
    if (copy == NULL) {
        unmap_file(&f);
        return -1;
    }
    if (b->bytes > 0)
        memcpy(copy, f.data, b->bytes);
    unmap_file(&f);
    ref.data = copy;
    int q = is_quant(b->t);
    int fl = b->t->type == TFL_FLOAT32 || b->t->type == TFL_FLOAT16;
    for (size_t i = 0; i < b->numel; i++) {
        double got = value_at(b, i), want = value_at(&ref, i);
        double diff = fabs(got - want);
        int ok;
        if (q) {
            ok = diff <= (double)max_steps;
            if (diff > r->max_steps)
                r->max_steps = diff;
            diff *= b->t->scale[0];
        } else if (fl) {
            ok = diff <= 1e-4 + 1e-4 * fabs(want) || (isnan(got) && isnan(want));
        } else {
            ok = diff == 0.0;
        }
        if (diff > r->max_abs)
            r->max_abs = diff;
        if (!ok)
            r->n_bad++;
    }
    size_t classes = b->t->rank > 0 ? (size_t)b->t->shape[b->t->rank - 1] : 0;
    r->top_ok = 1;
    if (classes >= 5 && classes == b->numel && (q || fl)) {
        size_t mine[5], theirs[5];
        size_t n1 = top_k(b, 5, mine), n2 = top_k(&ref, 5, theirs);
        r->top_checked = 1;
        double tol = q ? (double)max_steps * b->t->scale[0] : 1e-4;
        for (size_t k = 0; k < n1 && k < n2; k++) {
            double a = real_at(&ref, mine[k]), c = real_at(&ref, theirs[k]);
            if (mine[k] != theirs[k] && fabs(a - c) > tol + (fl ? 1e-4 * fabs(c) : 0.0))
                r->top_ok = 0;
        }
        if (n1 != n2)
            r->top_ok = 0;
    }
    r->pass = r->n_bad == 0 && r->top_ok;
    free(copy);
    return 0;
}

/* ---- devices ---- */

static int list_devices(void)
{
    uint32_t n = 0;
    if (ANeuralNetworks_getDeviceCount(&n) != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: ANeuralNetworks_getDeviceCount failed\n");
        return EXIT_RUN_FAILED;
    }
    for (uint32_t i = 0; i < n; i++) {
        ANeuralNetworksDevice *d;
        const char *name = "?", *version = "?";
        int32_t type = 0;
        int64_t level = 0;
        if (ANeuralNetworks_getDevice(i, &d) != ANEURALNETWORKS_NO_ERROR)
            continue;
        ANeuralNetworksDevice_getName(d, &name);
        ANeuralNetworksDevice_getVersion(d, &version);
        ANeuralNetworksDevice_getType(d, &type);
        ANeuralNetworksDevice_getFeatureLevel(d, &level);
        static const char *const types[] = {"unknown", "other", "cpu", "gpu", "accelerator"};
        const char *type_name = type >= 0 && type <= 4 ? types[type] : "?";
        printf("%s\ttype %d (%s)\tversion %s\tfeature level %lld\n", name, type, type_name, version,
               (long long)level);
    }
    return 0;
}

/* The devices to check support on: the named one, or all of them. */
static int pick_devices(const char *name, const ANeuralNetworksDevice **devs, uint32_t *n_devs)
{
    uint32_t n = 0;
    *n_devs = 0;
    if (ANeuralNetworks_getDeviceCount(&n) != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: ANeuralNetworks_getDeviceCount failed\n");
        return -1;
    }
    for (uint32_t i = 0; i < n && *n_devs < 16; i++) {
        ANeuralNetworksDevice *d;
        const char *dn = NULL;
        if (ANeuralNetworks_getDevice(i, &d) != ANEURALNETWORKS_NO_ERROR ||
            ANeuralNetworksDevice_getName(d, &dn) != ANEURALNETWORKS_NO_ERROR)
            continue;
        if (name == NULL || (dn != NULL && strcmp(dn, name) == 0))
            devs[(*n_devs)++] = d;
    }
    if (*n_devs == 0) {
        fprintf(stderr, "nnapi-run: %s\n", name ? "no device of that name (see --list-devices)" : "no NNAPI device");
        return -1;
    }
    return 0;
}

/* Names every operation the devices cannot run; returns how many. */
static int report_unsupported(const tfl_model *tm, const nr_translation *tr,
                              const ANeuralNetworksDevice **devs, uint32_t n_devs)
{
    if (tr->n_ops == 0)
        return 0;
    bool *ok = calloc(tr->n_ops, sizeof *ok);
    if (ok == NULL)
        return 0;
    int bad = 0;
    int rc = ANeuralNetworksModel_getSupportedOperationsForDevices(tr->model, devs, n_devs, ok);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: note: getSupportedOperationsForDevices failed (result code %d)\n", rc);
        free(ok);
        return 0;
    }
    for (uint32_t i = 0; i < tr->n_ops; i++) {
        if (ok[i])
            continue;
        bad++;
        int src = tr->op_source[i];
        fprintf(stderr, "nnapi-run: NNAPI operation %s (from TFLite operator #%d %s) is not supported by the runtime\n",
                nr_nnapi_op_name(tr->op_code[i]), src, src >= 0 ? tfl_op_name(tm->ops[src].code) : "?");
    }
    free(ok);
    return bad;
}

/* ---- main ---- */

typedef struct {
    options o;
    blob model_file;
    const uint8_t *model_data;
    size_t model_size;
    tfl_model tm;
    nr_translation tr;
    int have_tm, have_tr;
    ANeuralNetworksCompilation *comp;
    ANeuralNetworksExecution *exec;
    buffer in[MAX_FILES], out[MAX_FILES];
    uint32_t n_in, n_out;
    labels lab;
    double *lat;
    size_t *top_idx; /* room for the top-K indices of any output */
} run;

static void cleanup(run *r)
{
    if (r->exec)
        ANeuralNetworksExecution_free(r->exec);
    if (r->comp)
        ANeuralNetworksCompilation_free(r->comp);
    if (r->have_tr)
        nr_translation_free(&r->tr);
    if (r->have_tm)
        tfl_free(&r->tm);
    for (uint32_t i = 0; i < r->n_in; i++)
        free(r->in[i].data);
    for (uint32_t i = 0; i < r->n_out; i++)
        free(r->out[i].data);
    labels_free(&r->lab);
    unmap_file(&r->model_file);
    free(r->lat);
    free(r->top_idx);
}

static int prepare_execution(run *r)
{
    if (r->exec != NULL)
        return 0;
    int rc = ANeuralNetworksExecution_create(r->comp, &r->exec);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: ANeuralNetworksExecution_create failed (result code %d)\n", rc);
        return -1;
    }
    /* One execution serves every repetition when the runtime allows reuse. */
    ANeuralNetworksExecution_setReusable(r->exec, true);
    for (uint32_t i = 0; i < r->n_in; i++) {
        rc = ANeuralNetworksExecution_setInput(r->exec, (int32_t)i, NULL, r->in[i].data, r->in[i].bytes);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            fprintf(stderr, "nnapi-run: setInput %u failed (result code %d)\n", i, rc);
            return -1;
        }
    }
    for (uint32_t i = 0; i < r->n_out; i++) {
        rc = ANeuralNetworksExecution_setOutput(r->exec, (int32_t)i, NULL, r->out[i].data, r->out[i].bytes);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            fprintf(stderr, "nnapi-run: setOutput %u failed (result code %d)\n", i, rc);
            return -1;
        }
    }
    return 0;
}

static int execute_once(run *r, double *ms)
{
    if (prepare_execution(r))
        return -1;
    double t0 = now_ms();
    int rc = ANeuralNetworksExecution_compute(r->exec);
    *ms = now_ms() - t0;
    if (rc == ANEURALNETWORKS_BAD_STATE) { /* not reusable: start afresh */
        ANeuralNetworksExecution_free(r->exec);
        r->exec = NULL;
        if (prepare_execution(r))
            return -1;
        t0 = now_ms();
        rc = ANeuralNetworksExecution_compute(r->exec);
        *ms = now_ms() - t0;
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: execution failed (result code %d)\n", rc);
        return -1;
    }
    return 0;
}

static void print_results(run *r, int top, double compile_ms, const cmp_result *cmp, int have_cmp)
{
    const options *o = &r->o;
    size_t *idx_buf = r->top_idx;
    if (o->json) {
        printf("{\"model\": ");
        json_string(o->model_path ? o->model_path : "(embedded mobilenet_v1_0.25_128_quant.tflite)");
        printf(",\n \"outputs\": [");
        for (uint32_t i = 0; i < r->n_out; i++) {
            const buffer *b = &r->out[i];
            printf("%s\n  {\"name\": ", i ? "," : "");
            json_string(b->t->name);
            printf(", \"type\": \"%s\", \"shape\": ", tfl_type_name(b->t->type));
            print_shape(b->t, 1);
            if (is_quant(b->t))
                printf(", \"scale\": %.9g, \"zero_point\": %lld", b->t->scale[0], (long long)b->t->zero_point[0]);
            if (top > 0) {
                size_t n = top_k(b, (size_t)top, idx_buf);
                printf(", \"top\": [");
                for (size_t k = 0; k < n; k++) {
                    printf("%s{\"index\": %zu, \"score\": %.9g", k ? ", " : "", idx_buf[k], real_at(b, idx_buf[k]));
                    if (idx_buf[k] < r->lab.n) {
                        printf(", \"label\": ");
                        json_string(r->lab.line[idx_buf[k]]);
                    }
                    printf("}");
                }
                printf("]");
            }
            printf(", \"values\": [");
            for (size_t k = 0; k < b->numel; k++) {
                if (k)
                    printf(",");
                print_value(b, k, 1);
            }
            printf("]");
            if (have_cmp)
                printf(", \"compare\": {\"pass\": %s, \"max_abs_diff\": %.9g, \"max_steps\": %.0f, "
                       "\"mismatches\": %zu, \"top5_checked\": %s, \"top5_match\": %s}",
                       cmp[i].pass ? "true" : "false", cmp[i].max_abs, cmp[i].max_steps, cmp[i].n_bad,
                       cmp[i].top_checked ? "true" : "false", cmp[i].top_ok ? "true" : "false");
            printf("}");
        }
        printf("],\n \"compile_ms\": %.3f", compile_ms);
        if (o->repeat > 0) {
            int n = o->repeat;
            printf(",\n \"latency_ms\": {\"runs\": %d, \"min\": %.4f, \"median\": %.4f, \"max\": %.4f}", n,
                   r->lat[0], n % 2 ? r->lat[n / 2] : (r->lat[n / 2 - 1] + r->lat[n / 2]) / 2, r->lat[n - 1]);
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf(",\n \"peak_rss_kib\": %ld}\n", ru.ru_maxrss);
        return;
    }
    for (uint32_t i = 0; i < r->n_out; i++) {
        const buffer *b = &r->out[i];
        printf("output %u: %s  %s ", i, b->t->name, tfl_type_name(b->t->type));
        print_shape(b->t, 0);
        if (is_quant(b->t))
            printf("  scale %g zero_point %lld", b->t->scale[0], (long long)b->t->zero_point[0]);
        printf("\n");
        if (top > 0) {
            size_t n = top_k(b, (size_t)top, idx_buf);
            for (size_t k = 0; k < n; k++) {
                printf("  %10.6f  %5zu", real_at(b, idx_buf[k]), idx_buf[k]);
                if (idx_buf[k] < r->lab.n)
                    printf("  %s", r->lab.line[idx_buf[k]]);
                printf("\n");
            }
        } else {
            size_t shown = b->numel <= 32 ? b->numel : 16;
            printf(" ");
            for (size_t k = 0; k < shown; k++) {
                printf(" ");
                print_value(b, k, 0);
            }
            if (shown < b->numel)
                printf(" ... (%zu values; see --top, --output-dir, --json)", b->numel);
            printf("\n");
        }
        if (have_cmp) {
            printf("  compare: %s  max |diff| %.3g", cmp[i].pass ? "PASS" : "FAIL", cmp[i].max_abs);
            if (is_quant(b->t))
                printf(" (%.0f steps)", cmp[i].max_steps);
            printf(", %zu of %zu outside tolerance", cmp[i].n_bad, b->numel);
            if (cmp[i].top_checked)
                printf(", top-5 %s", cmp[i].top_ok ? "identical" : "DIFFERENT");
            printf("\n");
        }
    }
}

/* ---- profile ---- */

typedef struct {
    double *dur; /* microseconds, one per run */
    size_t n, cap;
    int code;
    char in[160], out[96];
} op_times;

/* A string field "key": "value" of a trace line. */
static int trace_str(const char *line, const char *key, char *out, size_t size)
{
    const char *p = strstr(line, key);
    if (p == NULL)
        return 0;
    p += strlen(key);
    const char *e = strchr(p, '"');
    if (e == NULL)
        return 0;
    size_t n = (size_t)(e - p) < size - 1 ? (size_t)(e - p) : size - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

static int parse_dims(const char *s, int k, long long *dims, int *rank)
{
    /* The k-th space-separated shape "AxBxC". */
    for (; k > 0 && s != NULL; k--) {
        s = strchr(s, ' ');
        if (s != NULL)
            s++;
    }
    *rank = 0;
    if (s == NULL || *s == '\0' || *s == ' ')
        return 0;
    while (*rank < 8) {
        char *end;
        dims[(*rank)++] = strtoll(s, &end, 10);
        if (*end != 'x')
            break;
        s = end + 1;
    }
    return 1;
}

static double numel_of(const long long *d, int r)
{
    double n = 1;
    for (int i = 0; i < r; i++)
        n *= (double)d[i];
    return n;
}

/* Multiply-adds x 2 of the operations that are mostly arithmetic; 0 otherwise. */
static double op_flops(int code, const char *in, const char *out)
{
    long long a[8], w[8], o[8];
    int ra, rw, ro;
    if (!parse_dims(in, 0, a, &ra) || !parse_dims(in, 1, w, &rw) || !parse_dims(out, 0, o, &ro))
        return 0;
    switch (code) {
    case ANEURALNETWORKS_CONV_2D:
        return rw == 4 ? 2.0 * numel_of(o, ro) * (double)(w[1] * w[2] * w[3]) : 0;
    case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
        return rw == 4 ? 2.0 * numel_of(o, ro) * (double)(w[1] * w[2]) : 0;
    case ANEURALNETWORKS_FULLY_CONNECTED:
        return rw == 2 ? 2.0 * numel_of(o, ro) * (double)w[1] : 0;
    case ANEURALNETWORKS_TRANSPOSE_CONV_2D:
        return rw == 4 ? 2.0 * numel_of(a, ra) * (double)(w[0] * w[1] * w[2]) : 0;
    default:
        return 0;
    }
}

typedef struct {
    uint32_t op;
    double median;
} op_rank;

static int cmp_rank(const void *a, const void *b)
{
    double x = ((const op_rank *)a)->median, y = ((const op_rank *)b)->median;
    return (x < y) - (x > y);
}

/* Reads the trace the runtime wrote and prints one line per NNAPI operation
 * of the model: median over the timed runs (all runs when there is one). */
static int print_profile(run *r, const char *path, double measured_ms, FILE *to)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "nnapi-run: --profile: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint32_t n_ops = r->tr.n_ops;
    op_times *t = calloc(n_ops ? n_ops : 1, sizeof *t);
    op_rank *rank = calloc(n_ops ? n_ops : 1, sizeof *rank);
    char line[1024];
    int rc = -1;
    if (t == NULL || rank == NULL)
        goto done;
    while (fgets(line, sizeof line, f) != NULL) {
        const char *d = strstr(line, "\"dur\": "), *m = strstr(line, "\"model\": "),
                   *op = strstr(line, "\"operation\": "), *dp = strstr(line, "\"depth\": ");
        if (d == NULL || m == NULL || op == NULL || dp == NULL)
            continue;
        /* The main model is the first the runtime saw; control-flow bodies are counted in their caller. */
        if (atoi(m + 9) != 0 || atoi(dp + 9) != 0)
            continue;
        long k = atol(op + 13);
        if (k < 0 || (uint32_t)k >= n_ops)
            continue;
        op_times *e = &t[k];
        if (e->n == e->cap) {
            size_t cap = e->cap ? 2 * e->cap : 16;
            double *nd = realloc(e->dur, cap * sizeof *nd);
            if (nd == NULL)
                goto done;
            e->dur = nd;
            e->cap = cap;
        }
        e->dur[e->n++] = atof(d + 7);
        trace_str(line, "\"inputs\": \"", e->in, sizeof e->in);
        trace_str(line, "\"outputs\": \"", e->out, sizeof e->out);
    }
    double total = 0;
    uint32_t n_rank = 0;
    for (uint32_t k = 0; k < n_ops; k++) {
        op_times *e = &t[k];
        if (e->n == 0)
            continue;
        /* The first run warms caches and packs weights: leave it out when there are others. */
        double *v = e->n > 1 ? e->dur + 1 : e->dur;
        size_t n = e->n > 1 ? e->n - 1 : 1;
        qsort(v, n, sizeof *v, cmp_double);
        double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        rank[n_rank].op = k;
        rank[n_rank].median = med;
        n_rank++;
        total += med;
    }
    qsort(rank, n_rank, sizeof *rank, cmp_rank);
    fprintf(to, "profile: %u NNAPI operations, median of %d run(s) each, sorted by time\n", n_rank,
            r->o.repeat > 0 ? r->o.repeat : 1);
    fprintf(to, "  %-34s %-36s %-44s %10s %6s %8s\n", "NNAPI operation", "TFLite origin", "shapes (in -> out)",
            "median us", "share", "GFLOP/s");
    for (uint32_t i = 0; i < n_rank; i++) {
        uint32_t k = rank[i].op;
        int src = r->tr.op_source[k];
        char a[48], b[48], sh[300];
        snprintf(a, sizeof a, "#%u %s", k, nr_nnapi_op_name(r->tr.op_code[k]));
        if (src >= 0)
            snprintf(b, sizeof b, "#%d %s", src, tfl_op_name(r->tm.ops[src].code));
        else
            snprintf(b, sizeof b, "(model outputs)");
        snprintf(sh, sizeof sh, "%s -> %s", t[k].in, t[k].out);
        double fl = op_flops(r->tr.op_code[k], t[k].in, t[k].out);
        fprintf(to, "  %-34s %-36s %-44s %10.1f %5.1f%% ", a, b, sh, rank[i].median,
                total > 0 ? 100.0 * rank[i].median / total : 0.0);
        if (fl > 0 && rank[i].median > 0)
            fprintf(to, "%8.2f\n", fl / (rank[i].median * 1e3));
        else
            fprintf(to, "%8s\n", "-");
    }
    fprintf(to, "  sum of the operations' medians: %.3f ms", total / 1e3);
    if (measured_ms > 0)
        fprintf(to, "; measured median latency %.3f ms (operations %.1f%% of it)", measured_ms,
                100.0 * total / 1e3 / measured_ms);
    fprintf(to, "\n");
    rc = 0;
done:
    if (t != NULL)
        for (uint32_t k = 0; k < n_ops; k++)
            free(t[k].dur);
    free(t);
    free(rank);
    fclose(f);
    if (rc != 0)
        fprintf(stderr, "nnapi-run: --profile: out of memory\n");
    return rc;
}

static int run_main(run *r)
{
    options *o = &r->o;
    char err[8192];
    struct stat st;

    /* Options that name files are checked before anything runs. */
    if (o->compare != NULL && (stat(o->compare, &st) != 0 || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "nnapi-run: --compare: %s is not a directory\n", o->compare);
        return EXIT_USAGE;
    }
    if (o->output_dir != NULL && make_dirs(o->output_dir))
        return EXIT_USAGE;

    if (o->model_path != NULL) {
        if (map_file(o->model_path, &r->model_file))
            return EXIT_USAGE;
        r->model_data = r->model_file.data;
        r->model_size = r->model_file.size;
    } else {
        r->model_data = nr_default_model;
        r->model_size = nr_default_model_size;
        fprintf(stderr, "nnapi-run: no model given: running the embedded MobileNet v1 0.25 128 (uint8) "
                        "on the embedded cat picture\n");
    }
    if (tfl_parse(r->model_data, r->model_size, &r->tm, err, sizeof err)) {
        fprintf(stderr, "nnapi-run: %s: %s\n", o->model_path ? o->model_path : "embedded model", err);
        return EXIT_USAGE;
    }
    r->have_tm = 1;

    const uint8_t *lab_data = NULL;
    size_t lab_size = 0;
    blob lab_file = {0};
    if (o->labels != NULL) {
        if (map_file(o->labels, &lab_file))
            return EXIT_USAGE;
        lab_data = lab_file.data;
        lab_size = lab_file.size;
    } else if (o->model_path == NULL) {
        lab_data = nr_default_labels;
        lab_size = nr_default_labels_size;
    }
    if (lab_data != NULL && labels_load(lab_data, lab_size, &r->lab)) {
        unmap_file(&lab_file);
        fprintf(stderr, "nnapi-run: out of memory\n");
        return EXIT_RUN_FAILED;
    }
    unmap_file(&lab_file);

    double t0 = now_ms();
    if (nr_translate(&r->tm, o->relaxed, o->feature_level, &r->tr, err, sizeof err)) {
        fprintf(stderr, "nnapi-run: cannot translate the model: %s\n", err);
        return EXIT_UNSUPPORTED;
    }
    r->have_tr = 1;
    fprintf(stderr, "nnapi-run: %u TFLite operators -> %u NNAPI operations\n", r->tm.n_ops, r->tr.n_ops);

    const ANeuralNetworksDevice *devs[16];
    uint32_t n_devs;
    if (pick_devices(o->device, devs, &n_devs))
        return EXIT_USAGE;
    if (report_unsupported(&r->tm, &r->tr, devs, n_devs) > 0)
        return EXIT_UNSUPPORTED;
    int rc = o->device ? ANeuralNetworksCompilation_createForDevices(r->tr.model, devs, n_devs, &r->comp)
                       : ANeuralNetworksCompilation_create(r->tr.model, &r->comp);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_setPreference(r->comp, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(r->comp);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "nnapi-run: compilation failed (result code %d)\n", rc);
        return EXIT_RUN_FAILED;
    }
    double compile_ms = now_ms() - t0;
    fprintf(stderr, "nnapi-run: translated and compiled in %.2f ms\n", compile_ms);

    /* Inputs. */
    if (o->n_inputs > 0 && (uint32_t)o->n_inputs != r->tr.n_inputs) {
        fprintf(stderr, "nnapi-run: the model has %u inputs, %d --input given\n", r->tr.n_inputs, o->n_inputs);
        return EXIT_USAGE;
    }
    if (r->tr.n_inputs > MAX_FILES || r->tr.n_outputs > MAX_FILES) {
        fprintf(stderr, "nnapi-run: too many model inputs or outputs\n");
        return EXIT_USAGE;
    }
    for (uint32_t i = 0; i < r->tr.n_inputs; i++) {
        if (buffer_init(&r->tm.tensors[r->tr.input_tensor[i]], r->tr.input_tensor[i], &r->in[i]))
            return EXIT_RUN_FAILED;
        r->n_in++;
        char path[4096];
        if (o->n_inputs > 0) {
            if (fill_from_file(&r->in[i], o->inputs[i]))
                return EXIT_USAGE;
        } else if (o->compare != NULL) {
            snprintf(path, sizeof path, "%s/input_%u.bin", o->compare, i);
            if (fill_from_file(&r->in[i], path))
                return EXIT_USAGE;
        } else if (o->model_path == NULL) {
            if (fill_from_image(&r->in[i], nr_default_image, nr_default_image_size, "embedded cat.bmp"))
                return EXIT_RUN_FAILED;
        } else {
            fprintf(stderr, "nnapi-run: no --input for input %u (%s): using zeros\n", i, r->in[i].t->name);
            fill_neutral(&r->in[i]);
        }
    }
    for (uint32_t i = 0; i < r->tr.n_outputs; i++) {
        if (buffer_init(&r->tr.output_desc[i], r->tr.output_tensor[i], &r->out[i]))
            return EXIT_RUN_FAILED;
        r->n_out++;
        if (o->compare != NULL) {
            char path[4096];
            snprintf(path, sizeof path, "%s/output_%u.bin", o->compare, i);
            if (stat(path, &st) != 0) {
                fprintf(stderr, "nnapi-run: --compare: cannot read %s: %s\n", path, strerror(errno));
                return EXIT_USAGE;
            }
            if ((size_t)st.st_size != r->out[i].bytes) {
                fprintf(stderr, "nnapi-run: --compare: %s holds %lld bytes, output %u (%s) has %zu\n", path,
                        (long long)st.st_size, i, r->out[i].t->name, r->out[i].bytes);
                return EXIT_USAGE;
            }
        }
    }

    /* Run: once for the results, then --repeat timed runs. */
    double first;
    if (execute_once(r, &first))
        return EXIT_RUN_FAILED;
    fprintf(stderr, "nnapi-run: first run %.3f ms\n", first);
    if (o->repeat > 0) {
        r->lat = malloc((size_t)o->repeat * sizeof *r->lat);
        if (r->lat == NULL) {
            fprintf(stderr, "nnapi-run: out of memory\n");
            return EXIT_RUN_FAILED;
        }
        for (int k = 0; k < o->repeat; k++)
            if (execute_once(r, &r->lat[k]))
                return EXIT_RUN_FAILED;
        qsort(r->lat, (size_t)o->repeat, sizeof *r->lat, cmp_double);
        int n = o->repeat;
        double median = n % 2 ? r->lat[n / 2] : (r->lat[n / 2 - 1] + r->lat[n / 2]) / 2;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr, "nnapi-run: latency over %d runs: min %.3f ms, median %.3f ms, max %.3f ms; "
                        "peak RSS %.1f MiB\n", n, r->lat[0], median, r->lat[n - 1], ru.ru_maxrss / 1024.0);
    }

    if (o->output_dir != NULL) {
        for (uint32_t i = 0; i < r->n_out; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/output_%u.bin", o->output_dir, i);
            FILE *f = fopen(path, "wb");
            if (f == NULL || fwrite(r->out[i].data, 1, r->out[i].bytes, f) != r->out[i].bytes) {
                fprintf(stderr, "nnapi-run: cannot write %s: %s\n", path, strerror(errno));
                if (f)
                    fclose(f);
                return EXIT_RUN_FAILED;
            }
            if (fclose(f) != 0) {
                fprintf(stderr, "nnapi-run: cannot write %s: %s\n", path, strerror(errno));
                return EXIT_RUN_FAILED;
            }
        }
        fprintf(stderr, "nnapi-run: wrote %u output file(s) to %s\n", r->n_out, o->output_dir);
    }

    cmp_result cmp[MAX_FILES];
    int all_pass = 1;
    if (o->compare != NULL) {
        for (uint32_t i = 0; i < r->n_out; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/output_%u.bin", o->compare, i);
            if (compare_output(&r->out[i], path, o->max_steps, &cmp[i]))
                return EXIT_USAGE;
            all_pass &= cmp[i].pass;
        }
    }
    int top = o->top > 0 ? o->top : (o->model_path == NULL ? 5 : 0);
    for (uint32_t i = 0; i < r->n_out && top > 0; i++)
        if ((size_t)top > r->out[i].numel)
            fprintf(stderr, "nnapi-run: --top %d: output %u has only %zu values, so it shows %zu\n", top, i,
                    r->out[i].numel, r->out[i].numel);
    size_t max_numel = 1;
    for (uint32_t i = 0; i < r->n_out; i++)
        if (r->out[i].numel > max_numel)
            max_numel = r->out[i].numel;
    r->top_idx = malloc(((size_t)top < max_numel ? (size_t)top : max_numel) * sizeof *r->top_idx + 1);
    if (r->top_idx == NULL) {
        fprintf(stderr, "nnapi-run: out of memory\n");
        return EXIT_RUN_FAILED;
    }
    print_results(r, top, compile_ms, cmp, o->compare != NULL);
    if (o->profile) {
        /* Freeing the compilation makes the runtime write the trace. */
        ANeuralNetworksExecution_free(r->exec);
        r->exec = NULL;
        ANeuralNetworksCompilation_free(r->comp);
        r->comp = NULL;
        double measured = 0;
        if (o->repeat > 0)
            measured = o->repeat % 2 ? r->lat[o->repeat / 2] : (r->lat[o->repeat / 2 - 1] + r->lat[o->repeat / 2]) / 2;
        else
            measured = first;
        if (print_profile(r, getenv("NNAPI_LINUX_PROFILE"), measured, o->json ? stderr : stdout))
            return EXIT_RUN_FAILED;
        if (o->profile_file != NULL)
            fprintf(stderr, "nnapi-run: wrote the Chrome trace to %s\n", o->profile_file);
    }
    return all_pass ? 0 : EXIT_RUN_FAILED;
}

int main(int argc, char **argv)
{
    run r;
    memset(&r, 0, sizeof r);
    if (parse_args(argc, argv, &r.o))
        return EXIT_USAGE;
    /* The runtime's thread pool reads this when it starts, at the first call. */
    if (r.o.threads > 0) {
        char n[16];
        snprintf(n, sizeof n, "%d", r.o.threads);
        setenv("NNAPI_LINUX_THREADS", n, 1);
    }
    /* The runtime reads NNAPI_LINUX_PROFILE once, at the first compilation. */
    char profile_tmp[] = "/tmp/nnapi-run-profile.XXXXXX";
    int tmp_fd = -1;
    if (r.o.profile) {
        if (r.o.profile_file != NULL) {
            setenv("NNAPI_LINUX_PROFILE", r.o.profile_file, 1);
        } else {
            tmp_fd = mkstemp(profile_tmp);
            if (tmp_fd < 0) {
                fprintf(stderr, "nnapi-run: --profile: cannot create a temporary file: %s\n", strerror(errno));
                return EXIT_RUN_FAILED;
            }
            close(tmp_fd);
            setenv("NNAPI_LINUX_PROFILE", profile_tmp, 1);
        }
    }
    if (r.o.list_devices)
        return list_devices();
    int rc = run_main(&r);
    cleanup(&r);
    if (tmp_fd >= 0)
        unlink(profile_tmp);
    return rc;
}
