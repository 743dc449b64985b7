/*
 * Tensor ranks have no limit (issue 15, item 6). Android's runtime sets none
 * (its random-graph tests give GATHER a rank-9 output), and an operand
 * type's dimensionCount is any uint32_t. This checks ranks far above the
 * old limit of 16 through addOperand, setInput / setOutput types, memory
 * descriptors and getOutputOperandRank / Dimensions, with real values
 * through the operations that take any rank (element-wise, broadcasting,
 * GATHER, MIRROR_PAD, RESHAPE's output); the operations the specification
 * limits to rank 4 refuse more at addOperation (declared rank) or when
 * computing (a rank given at execution), as Android's CPU operations do
 * (its TRANSPOSE prepare checks the input rank), instead of failing on a
 * fixed array. Public API only.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "test_util.h"

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define MAX_TEST_RANK 64

/* An operand of a one-operation model: a constant when value is set, else
 * a model input fed data (with run_rank/run_dims as the type given at
 * setInput when they are set). */
typedef struct tens {
    int32_t type;
    uint32_t rank;
    const uint32_t *dims;
    const void *value;
    size_t len;
    const void *data;
    size_t bytes;
    uint32_t run_rank;
    const uint32_t *run_dims;
} tens;

typedef struct result {
    int add;      /* addOperation */
    int compute;  /* finish..compute, the first failure */
    uint32_t rank;
    uint32_t dims[MAX_TEST_RANK];
} result;

static tens in_t(int32_t type, uint32_t rank, const uint32_t *dims, const void *data,
                 size_t bytes, uint32_t run_rank, const uint32_t *run_dims)
{
    tens t = {type, rank, dims, NULL, 0, data, bytes, run_rank, run_dims};
    return t;
}

static tens const_t(int32_t type, uint32_t rank, const uint32_t *dims, const void *value,
                    size_t len)
{
    tens t = {type, rank, dims, value, len, NULL, 0, 0, NULL};
    return t;
}

static tens out_t(int32_t type, uint32_t rank, const uint32_t *dims)
{
    return const_t(type, rank, dims, NULL, 0);
}

static ANeuralNetworksOperandType type_of(int32_t type, uint32_t rank, const uint32_t *dims)
{
    ANeuralNetworksOperandType t = {type, rank, rank ? dims : NULL, 0.0f, 0};
    return t;
}

/* Builds op(ins) -> out, runs it into out_buf and reads the output shape. */
static result run_op(int32_t op, const tens *ins, uint32_t n_in, const tens *out, void *out_buf,
                     size_t out_len)
{
    result r = {.add = -1, .compute = -1};
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *e = NULL;
    uint32_t idx[16], model_in[16], n_model_in = 0, out_idx = n_in;
    int rc = ANeuralNetworksModel_create(&m);
    for (uint32_t i = 0; i <= n_in && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        const tens *t = i < n_in ? &ins[i] : out;
        ANeuralNetworksOperandType ot = type_of(t->type, t->rank, t->dims);
        rc = ANeuralNetworksModel_addOperand(m, &ot);
        idx[i] = i;
        if (rc == ANEURALNETWORKS_NO_ERROR && i < n_in && t->value)
            rc = ANeuralNetworksModel_setOperandValue(m, (int32_t)i, t->value, t->len);
        else if (i < n_in)
            model_in[n_model_in++] = i;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = r.add = ANeuralNetworksModel_addOperation(m, op, n_in, idx, 1, &out_idx);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksModel_identifyInputsAndOutputs(m, n_model_in, model_in, 1, &out_idx);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksModel_finish(m);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_create(m, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(c, &e);
    for (uint32_t k = 0; k < n_model_in && rc == ANEURALNETWORKS_NO_ERROR; k++) {
        const tens *t = &ins[model_in[k]];
        ANeuralNetworksOperandType ot = type_of(t->type, t->run_rank, t->run_dims);
        rc = ANeuralNetworksExecution_setInput(e, (int32_t)k, t->run_rank ? &ot : NULL, t->data,
                                               t->bytes);
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_setOutput(e, 0, NULL, out_buf, out_len);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    if (r.add == ANEURALNETWORKS_NO_ERROR)
        r.compute = rc;
    /* A shape that cannot be read back shows as rank UINT32_MAX. */
    if (rc == ANEURALNETWORKS_NO_ERROR &&
        (ANeuralNetworksExecution_getOutputOperandRank(e, 0, &r.rank) != ANEURALNETWORKS_NO_ERROR ||
         r.rank > MAX_TEST_RANK || r.rank == 0 ||
         ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, r.dims) !=
                 ANEURALNETWORKS_NO_ERROR))
        r.rank = UINT32_MAX;
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    return r;
}

static size_t count_of(uint32_t rank, const uint32_t *dims)
{
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++)
        n *= dims[i];
    return n;
}

/* Mostly 1s, a 2 every `every` dims (and at the end): few elements, every
 * dim walked. */
static void sparse_dims(uint32_t rank, uint32_t every, uint32_t offset, uint32_t *dims)
{
    for (uint32_t i = 0; i < rank; i++)
        dims[i] = (i + offset) % every == 0 || i + 1 == rank ? 2 : 1;
}

static bool same_shape(const result *r, uint32_t rank, const uint32_t *dims)
{
    return r->rank == rank && memcmp(r->dims, dims, rank * sizeof *dims) == 0;
}

static const uint32_t test_ranks[] = {17, 24, 32};

/* ---- operands of any rank ---- */

static void test_add_operand(void)
{
    static uint32_t dims[1000];
    for (uint32_t i = 0; i < 1000; i++)
        dims[i] = i % 3 ? 1 : 0;
    const uint32_t ranks[] = {9, 17, 24, 32, 100, 1000};
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++) {
        ANeuralNetworksModel *m = NULL;
        CHECK_OK(ANeuralNetworksModel_create(&m));
        ANeuralNetworksOperandType t = type_of(F32, ranks[k], dims);
        CHECK_OK(ANeuralNetworksModel_addOperand(m, &t));
        ANeuralNetworksModel_free(m);
    }
}

/* ---- element-wise: ABS, declared output and output of unspecified rank ---- */

static void test_unary(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dims[MAX_TEST_RANK];
        sparse_dims(r, 7, 0, dims);
        size_t n = count_of(r, dims);
        float in[64], out[64] = {0};
        CHECK(n <= 64);
        if (n > 64)
            return;
        for (size_t i = 0; i < n; i++)
            in[i] = (i % 2 ? -1.0f : 1.0f) * (float)(i + 1);
        for (int unspecified = 0; unspecified < 2; unspecified++) {
            tens ins[] = {in_t(F32, r, dims, in, n * sizeof(float), 0, NULL)};
            tens o = out_t(F32, unspecified ? 0 : r, dims);
            memset(out, 0, sizeof out);
            result res = run_op(ANEURALNETWORKS_ABS, ins, 1, &o, out, n * sizeof(float));
            CHECK_OK(res.compute);
            CHECK(same_shape(&res, r, dims));
            bool ok = true;
            for (size_t i = 0; i < n; i++)
                ok &= out[i] == (float)(i + 1);
            CHECK(ok);
        }
    }
}

/* ---- broadcasting: MAXIMUM of a rank-r and a rank-(r-5) tensor ---- */

/* Element of a (right-aligned, numpy-broadcast) operand at output index i. */
static size_t broadcast_index(size_t i, uint32_t out_rank, const uint32_t *out_dims,
                              uint32_t rank, const uint32_t *dims)
{
    size_t src = 0, stride = 1;
    for (uint32_t d = out_rank; d-- > 0;) {
        size_t coord = i % out_dims[d];
        i /= out_dims[d];
        uint32_t sd = d + rank - out_rank;
        if (d + rank >= out_rank) {
            src += (dims[sd] == 1 ? 0 : coord) * stride;
            stride *= dims[sd];
        }
    }
    return src;
}

static void test_broadcast(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], rb = r - 5, da[MAX_TEST_RANK], db[MAX_TEST_RANK];
        uint32_t dout[MAX_TEST_RANK];
        sparse_dims(r, 6, 0, da);
        sparse_dims(rb, 6, 2, db);
        db[rb - 1] = 1; /* a's last dim broadcasts b's */
        for (uint32_t d = 0; d < r; d++) {
            uint32_t b = d >= r - rb ? db[d - (r - rb)] : 1;
            dout[d] = da[d] > b ? da[d] : b;
        }
        size_t na = count_of(r, da), nb = count_of(rb, db), no = count_of(r, dout);
        float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
        float *out = calloc(no, sizeof *out);
        for (size_t i = 0; i < na; i++)
            a[i] = (float)(i % 5);
        for (size_t i = 0; i < nb; i++)
            b[i] = (float)(i % 7) - 1.0f;
        tens ins[] = {in_t(F32, r, da, a, na * sizeof(float), 0, NULL),
                      in_t(F32, rb, db, b, nb * sizeof(float), 0, NULL)};
        tens o = out_t(F32, 0, NULL);
        result res = run_op(ANEURALNETWORKS_MAXIMUM, ins, 2, &o, out, no * sizeof(float));
        CHECK_OK(res.compute);
        CHECK(same_shape(&res, r, dout));
        bool ok = true;
        for (size_t i = 0; i < no; i++) {
            float x = a[broadcast_index(i, r, dout, r, da)];
            float y = b[broadcast_index(i, r, dout, rb, db)];
            ok &= out[i] == (x > y ? x : y);
        }
        CHECK(ok);
        free(a);
        free(b);
        free(out);
    }
}

/* ---- setInput types of any rank on an input of unspecified shape ---- */

static void test_set_input_type(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dims[MAX_TEST_RANK], partial[MAX_TEST_RANK];
        sparse_dims(r, 5, 1, dims);
        for (uint32_t d = 0; d < r; d++)
            partial[d] = d % 2 ? 0 : dims[d];
        size_t n = count_of(r, dims);
        float *in = malloc(n * sizeof *in), *out = calloc(n, sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = -(float)i;
        /* Declared with some dimensions unknown, and with no rank at all. */
        for (int no_rank = 0; no_rank < 2; no_rank++) {
            tens ins[] = {in_t(F32, no_rank ? 0 : r, partial, in, n * sizeof(float), r, dims)};
            tens o = out_t(F32, 0, NULL);
            result res = run_op(ANEURALNETWORKS_ABS, ins, 1, &o, out, n * sizeof(float));
            CHECK_OK(res.compute);
            CHECK(same_shape(&res, r, dims));
            CHECK(out[n - 1] == (float)(n - 1));
        }
        free(in);
        free(out);
    }
}

/* ---- memory descriptors of any rank ---- */

static void test_memory_desc(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dims[MAX_TEST_RANK], partial[MAX_TEST_RANK];
        sparse_dims(r, 4, 0, dims);
        for (uint32_t d = 0; d < r; d++)
            partial[d] = d % 3 ? dims[d] : 0;
        size_t n = count_of(r, dims), bytes = n * sizeof(float);
        float *in = malloc(bytes);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)i - 3.5f;
        ANeuralNetworksModel *m = NULL;
        ANeuralNetworksCompilation *c = NULL;
        ANeuralNetworksExecution *e = NULL;
        ANeuralNetworksMemoryDesc *desc = NULL;
        ANeuralNetworksMemory *dev = NULL, *host = NULL;
        ANeuralNetworksOperandType tin = type_of(F32, r, dims), tout = type_of(F32, r, partial);
        uint32_t i0 = 0, o0 = 1;
        CHECK_OK(ANeuralNetworksModel_create(&m));
        CHECK_OK(ANeuralNetworksModel_addOperand(m, &tin));
        CHECK_OK(ANeuralNetworksModel_addOperand(m, &tout));
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ABS, 1, &i0, 1, &o0));
        CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &i0, 1, &o0));
        CHECK_OK(ANeuralNetworksModel_finish(m));
        CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
        CHECK_OK(ANeuralNetworksCompilation_finish(c));
        CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
        CHECK_OK(ANeuralNetworksMemoryDesc_addOutputRole(desc, c, 0, 1.0f));
        /* A rank that differs from the role's is refused; the full shape fits. */
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, r - 1, dims),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_OK(ANeuralNetworksMemoryDesc_setDimensions(desc, r, dims));
        CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc));
        CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &dev));
        int fd = memfd_create("rank", 0);
        CHECK(fd >= 0 && ftruncate(fd, (off_t)bytes) == 0);
        CHECK_OK(ANeuralNetworksMemory_createFromFd(bytes, PROT_READ | PROT_WRITE, fd, 0, &host));
        CHECK_OK(ANeuralNetworksExecution_create(c, &e));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, in, bytes));
        CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, dev, 0, 0));
        CHECK_OK(ANeuralNetworksExecution_compute(e));
        uint32_t rank = 0, got[MAX_TEST_RANK] = {0};
        CHECK_OK(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank));
        CHECK_OK(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, got));
        CHECK_EQ_INT(rank, r);
        CHECK(memcmp(got, dims, r * sizeof *dims) == 0);
        CHECK_OK(ANeuralNetworksMemory_copy(dev, host));
        float *mapped = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
        CHECK(mapped != MAP_FAILED);
        if (mapped != MAP_FAILED) {
            CHECK(mapped[0] == 3.5f && mapped[n - 1] == (float)(n - 1) - 3.5f);
            munmap(mapped, bytes);
        }
        ANeuralNetworksExecution_free(e);
        ANeuralNetworksMemory_free(host);
        ANeuralNetworksMemory_free(dev);
        ANeuralNetworksMemoryDesc_free(desc);
        ANeuralNetworksCompilation_free(c);
        ANeuralNetworksModel_free(m);
        if (fd >= 0)
            close(fd);
        free(in);
    }
}

/* ---- GATHER: output rank = input rank + indices rank - 1 ---- */

static void gather_case(uint32_t rin, const uint32_t *din, uint32_t axis, uint32_t ridx,
                        const uint32_t *didx, int unspecified_output)
{
    uint32_t rout = rin + ridx - 1, dout[MAX_TEST_RANK], r = 0;
    for (uint32_t d = 0; d < axis; d++)
        dout[r++] = din[d];
    for (uint32_t d = 0; d < ridx; d++)
        dout[r++] = didx[d];
    for (uint32_t d = axis + 1; d < rin; d++)
        dout[r++] = din[d];
    size_t nin = count_of(rin, din), nidx = count_of(ridx, didx), nout = count_of(rout, dout);
    float *in = malloc(nin * sizeof *in), *out = calloc(nout, sizeof *out);
    int32_t *indices = malloc(nidx * sizeof *indices);
    for (size_t i = 0; i < nin; i++)
        in[i] = (float)i;
    for (size_t i = 0; i < nidx; i++)
        indices[i] = (int32_t)((i * 7 + 1) % din[axis]);
    int32_t axis_value = (int32_t)axis;
    tens ins[] = {in_t(F32, rin, din, in, nin * sizeof(float), 0, NULL),
                  const_t(ANEURALNETWORKS_INT32, 0, NULL, &axis_value, sizeof axis_value),
                  const_t(I32, ridx, didx, indices, nidx * sizeof(int32_t))};
    tens o = out_t(F32, unspecified_output ? 0 : rout, dout);
    result res = run_op(ANEURALNETWORKS_GATHER, ins, 3, &o, out, nout * sizeof(float));
    CHECK_OK(res.compute);
    CHECK(same_shape(&res, rout, dout));
    /* out[outer, j, inner] = in[outer, indices[j], inner] */
    size_t outer = count_of(axis, din), inner = count_of(rin - axis - 1, din + axis + 1);
    bool ok = true;
    for (size_t o1 = 0; o1 < outer; o1++)
        for (size_t j = 0; j < nidx; j++)
            for (size_t i = 0; i < inner; i++)
                ok &= out[(o1 * nidx + j) * inner + i] ==
                      in[(o1 * din[axis] + (size_t)indices[j]) * inner + i];
    CHECK(ok);
    free(in);
    free(out);
    free(indices);
}

static void test_gather(void)
{
    /* The rank-9 output of Android's random-graph tests. */
    const uint32_t d5[] = {2, 1, 3, 1, 2}, i5[] = {1, 2, 1, 1, 2};
    gather_case(5, d5, 2, 5, i5, 0);
    gather_case(5, d5, 2, 5, i5, 1);
    uint32_t din[MAX_TEST_RANK], didx[MAX_TEST_RANK];
    sparse_dims(17, 6, 0, din);
    din[16] = 3;
    sparse_dims(8, 4, 1, didx);
    gather_case(17, din, 16, 8, didx, 0); /* rank 24 */
    sparse_dims(16, 5, 2, didx);
    gather_case(17, din, 3, 16, didx, 1); /* rank 32 */
}

/* ---- MIRROR_PAD: any rank, every dim padded through the strided copies ---- */

static void test_mirror_pad(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dims[MAX_TEST_RANK], dout[MAX_TEST_RANK], pdims[2] = {r, 2};
        sparse_dims(r, 8, 0, dims);
        int32_t pads[2 * MAX_TEST_RANK];
        /* SYMMETRIC: one cell before each dim of 2, none elsewhere. */
        for (uint32_t d = 0; d < r; d++) {
            pads[2 * d] = dims[d] == 2;
            pads[2 * d + 1] = 0;
            dout[d] = dims[d] + (uint32_t)pads[2 * d];
        }
        size_t n = count_of(r, dims), no = count_of(r, dout);
        float in[64], *out = calloc(no, sizeof *out);
        CHECK(n <= 64);
        if (n > 64) {
            free(out);
            return;
        }
        for (size_t i = 0; i < n; i++)
            in[i] = (float)i;
        int32_t mode = 1;
        tens ins[] = {in_t(F32, r, dims, in, n * sizeof(float), 0, NULL),
                      const_t(I32, 2, pdims, pads, 2 * r * sizeof(int32_t)),
                      const_t(ANEURALNETWORKS_INT32, 0, NULL, &mode, sizeof mode)};
        tens o = out_t(F32, 0, NULL);
        result res = run_op(ANEURALNETWORKS_MIRROR_PAD, ins, 3, &o, out, no * sizeof(float));
        CHECK_OK(res.compute);
        CHECK(same_shape(&res, r, dout));
        /* Output coordinate 0 of a padded dim mirrors input coordinate 0
         * (SYMMETRIC), coordinate c > 0 is input c - 1. */
        bool ok = true;
        for (size_t i = 0; i < no; i++) {
            size_t rest = i, src = 0, stride = 1;
            for (uint32_t d = r; d-- > 0;) {
                size_t c = rest % dout[d];
                rest /= dout[d];
                size_t s = pads[2 * d] ? (c == 0 ? 0 : c - 1) : c;
                src += s * stride;
                stride *= dims[d];
            }
            ok &= out[i] == in[src];
        }
        CHECK(ok);
        free(out);
    }
}

/* ---- RESHAPE to any rank ---- */

static void test_reshape(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dout[MAX_TEST_RANK], din[2] = {4, 2}, sdims[1] = {r};
        for (uint32_t d = 0; d < r; d++)
            dout[d] = d == 1 || d == r / 2 || d == r - 1 ? 2 : 1;
        int32_t shape[MAX_TEST_RANK];
        for (uint32_t d = 0; d < r; d++)
            shape[d] = (int32_t)dout[d];
        shape[0] = -1;
        float in[8], out[8] = {0};
        for (int i = 0; i < 8; i++)
            in[i] = (float)i * 1.5f;
        tens ins[] = {in_t(F32, 2, din, in, sizeof in, 0, NULL),
                      const_t(I32, 1, sdims, shape, r * sizeof(int32_t))};
        tens o = out_t(F32, 0, NULL);
        result res = run_op(ANEURALNETWORKS_RESHAPE, ins, 2, &o, out, sizeof out);
        CHECK_OK(res.compute);
        CHECK(same_shape(&res, r, dout));
        CHECK(memcmp(in, out, sizeof in) == 0);
    }
}

/* ---- SLICE: any rank (Android's prepare walks any number of dims) ---- */

static void test_slice(void)
{
    for (size_t k = 0; k < sizeof test_ranks / sizeof test_ranks[0]; k++) {
        uint32_t r = test_ranks[k], dims[MAX_TEST_RANK], dout[MAX_TEST_RANK], bdims[1] = {r};
        int32_t begin[MAX_TEST_RANK], size[MAX_TEST_RANK];
        /* dims of 3 every 6th: take [1, 3) of those, all of the others. */
        for (uint32_t d = 0; d < r; d++) {
            dims[d] = d % 6 == 0 ? 3 : 1;
            begin[d] = dims[d] == 3;
            size[d] = dims[d] == 3 ? -1 : 1;
            dout[d] = dims[d] == 3 ? 2 : 1;
        }
        size_t n = count_of(r, dims), no = count_of(r, dout);
        float *in = malloc(n * sizeof *in), *out = calloc(no, sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)i;
        tens ins[] = {in_t(F32, r, dims, in, n * sizeof(float), 0, NULL),
                      const_t(I32, 1, bdims, begin, r * sizeof(int32_t)),
                      const_t(I32, 1, bdims, size, r * sizeof(int32_t))};
        tens o = out_t(F32, 0, NULL);
        result res = run_op(ANEURALNETWORKS_SLICE, ins, 3, &o, out, no * sizeof(float));
        CHECK_OK(res.compute);
        CHECK(same_shape(&res, r, dout));
        bool ok = true;
        for (size_t i = 0; i < no; i++) {
            size_t rest = i, src = 0, stride = 1;
            for (uint32_t d = r; d-- > 0;) {
                size_t c = rest % dout[d];
                rest /= dout[d];
                src += (c + (size_t)begin[d]) * stride;
                stride *= dims[d];
            }
            ok &= out[i] == in[src];
        }
        CHECK(ok);
        free(in);
        free(out);
    }
}

/* ---- operations the specification limits to rank 4 ---- */

typedef struct limited_op {
    int32_t op;
    const char *name;
} limited_op;

/* Input 0 of rank r (declared, or given at execution when declared with
 * unspecified rank) with the other inputs fitting that rank. */
static result run_limited(int32_t op, uint32_t r, bool declared)
{
    uint32_t dims[MAX_TEST_RANK], one_dim[1] = {r}, pdims[2] = {r, 2}, axes_dims[1] = {1};
    sparse_dims(r, 9, 0, dims);
    size_t n = count_of(r, dims); /* at most 2^5 for the ranks tested */
    float in[64] = {0}, out[256];
    int32_t zero = 0, ones[MAX_TEST_RANK], pads[2 * MAX_TEST_RANK] = {0}, perm[MAX_TEST_RANK];
    int32_t keep = 0, masks = 0, minus_one = -1;
    for (uint32_t d = 0; d < r; d++) {
        ones[d] = 1;
        perm[d] = (int32_t)(r - 1 - d);
    }
    tens in0 = in_t(F32, declared ? r : 0, dims, in, n * sizeof(float), declared ? 0 : r, dims);
    tens ins[8] = {in0};
    uint32_t n_in = 1;
    tens scalar0 = const_t(ANEURALNETWORKS_INT32, 0, NULL, &zero, sizeof zero);
    switch (op) {
    case ANEURALNETWORKS_TRANSPOSE:
        ins[n_in++] = const_t(I32, 1, one_dim, perm, r * sizeof(int32_t));
        break;
    case ANEURALNETWORKS_CONCATENATION:
        ins[n_in++] = in0;
        ins[n_in++] = scalar0;
        break;
    case ANEURALNETWORKS_REDUCE_SUM:
        ins[n_in++] = const_t(I32, 1, axes_dims, &zero, sizeof zero);
        ins[n_in++] = const_t(ANEURALNETWORKS_BOOL, 0, NULL, &keep, 1);
        break;
    case ANEURALNETWORKS_STRIDED_SLICE: {
        static int32_t begin[MAX_TEST_RANK];
        ins[n_in++] = const_t(I32, 1, one_dim, begin, r * sizeof(int32_t));
        ins[n_in++] = const_t(I32, 1, one_dim, ones, r * sizeof(int32_t));
        ins[n_in++] = const_t(I32, 1, one_dim, ones, r * sizeof(int32_t));
        for (int i = 0; i < 3; i++)
            ins[n_in++] = const_t(ANEURALNETWORKS_INT32, 0, NULL, &masks, sizeof masks);
        break;
    }
    case ANEURALNETWORKS_PAD:
        ins[n_in++] = const_t(I32, 2, pdims, pads, 2 * r * sizeof(int32_t));
        break;
    case ANEURALNETWORKS_SQUEEZE:
        break;
    case ANEURALNETWORKS_RESHAPE:
        ins[n_in++] = const_t(I32, 1, axes_dims, &minus_one, sizeof minus_one);
        break;
    default:
        break;
    }
    tens o = out_t(F32, 0, NULL);
    return run_op(op, ins, n_in, &o, out, sizeof out);
}

static void test_limited_ops(void)
{
    const limited_op ops[] = {
        {ANEURALNETWORKS_TRANSPOSE, "TRANSPOSE"},   {ANEURALNETWORKS_CONCATENATION, "CONCAT"},
        {ANEURALNETWORKS_REDUCE_SUM, "REDUCE_SUM"},
        {ANEURALNETWORKS_STRIDED_SLICE, "STRIDED_SLICE"}, {ANEURALNETWORKS_PAD, "PAD"},
        {ANEURALNETWORKS_SQUEEZE, "SQUEEZE"},       {ANEURALNETWORKS_RESHAPE, "RESHAPE"},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        char what[96];
        /* Rank 4 works: the limit is the operation's, not the runtime's. */
        result ok4 = run_limited(ops[k].op, 4, false);
        snprintf(what, sizeof what, "%s of rank 4 given at execution computes", ops[k].name);
        nt_record_rc(ok4.compute, ANEURALNETWORKS_NO_ERROR, __FILE__, __LINE__, what);
        for (size_t j = 0; j < sizeof test_ranks / sizeof test_ranks[0]; j++) {
            uint32_t r = test_ranks[j];
            result declared = run_limited(ops[k].op, r, true);
            snprintf(what, sizeof what, "%s with a declared input of rank %u", ops[k].name, r);
            nt_record_rc(declared.add, ANEURALNETWORKS_BAD_DATA, __FILE__, __LINE__, what);
            result late = run_limited(ops[k].op, r, false);
            snprintf(what, sizeof what, "%s given rank %u at execution", ops[k].name, r);
            nt_record_rc(late.compute, ANEURALNETWORKS_OP_FAILED, __FILE__, __LINE__, what);
        }
    }
}

int main(void)
{
    test_add_operand();
    test_unary();
    test_broadcast();
    test_set_input_type();
    test_memory_desc();
    test_gather();
    test_mirror_pad();
    test_reshape();
    test_slice();
    test_limited_ops();
    return nt_summary();
}
