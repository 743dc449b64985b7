/*
 * Cache-blocked matrix products (see gemm.h). The work is cut into tasks of
 * up to MB rows x NB columns handed to the thread pool. Within a task, k is
 * walked in blocks of KC; a micro-panel of A (MR rows read in place) is
 * reused from L1 for every panel of the task's columns, whose B (KC x NB)
 * comes from L2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "kernels/blob.h"
#include "kernels/gemm.h"
#include "kernels/gemm_internal.h"
#include "kernels/isa.h"
#include "kernels/quant.h"
#include "util/threadpool.h"

#define NR NN_GEMM_NR
#define KC 1024      /* float k block */
#define KQ 1024      /* int8 k block (bytes per row of packed A) */
#define NB_PANELS 16 /* columns per task: 256 */

_Static_assert(KQ / 4 == NN_QGEMM_WIDE_BLOCK, "the AVX2 wide panels are laid out by k blocks");

/* ---- portable kernels ---- */

void nn_sgemm_kernel_c(size_t mr, size_t kc, const float *a, size_t lda, const float *b, float *c,
                       size_t ldc, const float *bias, unsigned flags, float lo, float hi)
{
    float acc[NN_SGEMM_MR_C][NR];
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < NR; j++)
            acc[i][j] = (flags & NN_GEMM_ACCUMULATE) ? c[i * ldc + j] : (bias ? bias[j] : 0.0f);
    for (size_t p = 0; p < kc; p++) {
        const float *bp = b + p * NR;
        for (size_t i = 0; i < mr; i++) {
            float av = a[i * lda + p];
            for (size_t j = 0; j < NR; j++)
                acc[i][j] += av * bp[j];
        }
    }
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < NR; j++) {
            float v = acc[i][j];
            if (flags & NN_GEMM_CLAMP)
                v = v < lo ? lo : (v > hi ? hi : v);
            c[i * ldc + j] = v;
        }
}

void nn_qgemm_kernel_c(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                       int32_t *acc, bool init)
{
    if (init)
        memset(acc, 0, mr * NR * sizeof *acc);
    for (size_t g = 0; g < kq; g++) {
        const int8_t *bg = (const int8_t *)(b + g * NR);
        for (size_t i = 0; i < mr; i++) {
            uint32_t w;
            memcpy(&w, a->base + g * a->group + i * a->row, 4);
            w ^= a->flip;
            uint8_t ai[4];
            memcpy(ai, &w, 4);
            for (size_t j = 0; j < NR; j++) {
                const int8_t *bj = bg + 4 * j;
                acc[i * NR + j] = nn_wrapping_add_i32(
                        acc[i * NR + j], ai[0] * bj[0] + ai[1] * bj[1] + ai[2] * bj[2] + ai[3] * bj[3]);
            }
        }
    }
}

void nn_qgemm_fused_c(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                      const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc)
{
    int32_t acc[NN_QGEMM_MR_C * NR];
    nn_qgemm_kernel_c(mr, kq, a, b, acc, true);
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < e->cols; j++) {
            int32_t v = acc[i * NR + j];
            if (acc_in)
                v = nn_wrapping_add_i32(v, acc_in[i * NR + j]);
            v = nn_wrapping_add_i32(v, e->col_term[j]);
            if (e->row_term)
                v = nn_wrapping_add_i32(v, e->row_term[i]);
            v = nn_requant_output(v, e->mult[j], e->shift[j], e->rounding, e->out_zero, e->lo,
                                  e->hi);
            c[i * ldc + j] = (uint8_t)v; /* the low byte is the int8 or uint8 value */
        }
}

void nn_sgemm_dot_c(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                    const float *b, size_t ldb, const float *bias, float lo, float hi, bool clamp,
                    float *c, size_t ldc)
{
    for (size_t j = j0; j < j1; j++) {
        const float *bj = b + j * ldb;
        for (size_t i = 0; i < m; i++) {
            const float *ai = a + i * lda;
            /* Independent partial sums keep several multiply-adds in flight. */
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            size_t p = 0;
            for (; p + 4 <= k; p += 4)
                for (size_t t = 0; t < 4; t++)
                    s[t] += ai[p + t] * bj[p + t];
            for (; p < k; p++)
                s[0] += ai[p] * bj[p];
            float v = (s[0] + s[1]) + (s[2] + s[3]) + (bias ? bias[j] : 0.0f);
            if (clamp)
                v = v < lo ? lo : (v > hi ? hi : v);
            c[i * ldc + j] = v;
        }
    }
}

/* ---- run-time selection ---- */

static const nn_gemm_isa isa_c = {NN_SGEMM_MR_C,     nn_sgemm_kernel_c, false,
                                   NN_QGEMM_MR_C,     false,             nn_qgemm_kernel_c,
                                   nn_qgemm_fused_c, nn_sgemm_dot_c, NULL, NULL};
#if defined(NN_KERNELS_X86_64)
static const nn_gemm_isa isa_avx2 = {NN_SGEMM_MR_AVX2,     nn_sgemm_kernel_avx2, false,
                                      NN_QGEMM_MR_AVX2,     true,  nn_qgemm_kernel_avx2,
                                      nn_qgemm_fused_avx2, nn_sgemm_dot_c,
                                      nn_sgemm_kernel_panels_avx2, nn_qgemm_fused_panels_avx2};
static const nn_gemm_isa isa_avx512 = {NN_SGEMM_MR_AVX512, nn_sgemm_kernel_avx512, true,
                                        NN_QGEMM_MR_AVX512, false, nn_qgemm_kernel_avx512,
                                        nn_qgemm_fused_avx512, nn_sgemm_dot_avx512,
                                        nn_sgemm_kernel_panels_avx512,
                                        nn_qgemm_fused_panels_avx512};
#elif defined(NN_KERNELS_AARCH64)
/* One float kernel for both levels; int8 by smlal on int16 B, or sdot. */
static const nn_gemm_isa isa_neon = {NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon, false,
                                      NN_QGEMM_MR_NEON, true, nn_qgemm_kernel_neon,
                                      nn_qgemm_fused_neon, nn_sgemm_dot_neon, NULL, NULL};
static const nn_gemm_isa isa_neondot = {NN_SGEMM_MR_NEON, nn_sgemm_kernel_neon, false,
                                         NN_QGEMM_MR_NEONDOT, false, nn_qgemm_kernel_neondot,
                                         nn_qgemm_fused_neondot, nn_sgemm_dot_neon, NULL, NULL};
#endif
const nn_gemm_isa *nn_gemm_isa_of(nn_isa isa)
{
    switch (isa) {
#if defined(NN_KERNELS_X86_64)
    case NN_ISA_AVX512:
        return &isa_avx512;
    case NN_ISA_AVX2:
        return &isa_avx2;
#elif defined(NN_KERNELS_AARCH64)
    case NN_ISA_NEONDOT:
        return &isa_neondot;
    case NN_ISA_NEON:
        return &isa_neon;
#endif
    case NN_ISA_C:
        return &isa_c;
    default:
        return NULL;
    }
}

/* The kernels of the level nn_isa_current() chose (src/kernels/isa.c). */
static const nn_gemm_isa *gemm_isa(void)
{
    return nn_gemm_isa_of(nn_isa_current());
}

static void *aligned_alloc64(size_t bytes)
{
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes)
        return NULL;
    return aligned_alloc(64, rounded ? rounded : 64);
}

/* k_min: a row block should have at least that many rows times k (the
 * int8 tasks prepare each panel's output stage once per task, a cost that
 * small k leaves unamortized over 8 micro-panels); 0 for none. */
static size_t task_rows(size_t m, size_t n_tasks_cols, size_t mr, size_t k, size_t k_min)
{
    /* Enough row tasks to feed every thread, but at least a few micro-panels each. */
    size_t threads = (size_t)nn_thread_count();
    size_t mb = 8 * mr;
    while (mb * k < k_min && mb < 64 * mr)
        mb *= 2;
    while (mb > mr && ((m + mb - 1) / mb) * n_tasks_cols < 4 * threads)
        mb -= mr;
    return mb;
}

/* The row block (r0) and first panel (p0) of task t. The pool gives each
 * thread a contiguous run of tasks: when the column blocks split evenly
 * between the threads, tasks run column block by column block, so that each
 * thread gets every row of its columns and the same work, whatever a short
 * last row block costs; otherwise (and on one thread) row block by row
 * block. */
typedef struct {
    size_t mb, row_tasks, col_tasks;
    bool cols_outer;
} task_grid;

static task_grid task_grid_of(size_t m, size_t col_tasks, size_t mb)
{
    task_grid g = {.mb = mb, .row_tasks = (m + mb - 1) / mb, .col_tasks = col_tasks};
    size_t threads = (size_t)nn_thread_count();
    g.cols_outer = threads > 1 && g.col_tasks > 1 && g.col_tasks % threads == 0;
    return g;
}

static void task_at(const task_grid *g, size_t t, size_t *r0, size_t *p0)
{
    size_t row = g->cols_outer ? t % g->row_tasks : t / g->col_tasks;
    size_t col = g->cols_outer ? t / g->row_tasks : t % g->col_tasks;
    *r0 = row * g->mb;
    *p0 = col * NB_PANELS;
}

/* The qfused epilogue preparation of isa, NULL when it has none. */
static nn_qgemm_prepare_fn qprepare_of(const nn_gemm_isa *isa)
{
#if defined(NN_KERNELS_X86_64)
    if (isa == &isa_avx2)
        return nn_qgemm_prepare_avx2;
    if (isa == &isa_avx512)
        return nn_qgemm_prepare_avx512;
#endif
    (void)isa;
    return NULL;
}

/* ---- float32 ---- */

struct nn_sgemm_packed {
    size_t n, k, panels;
    float *data; /* panels x k x NR */
    bool owns_data; /* else it belongs to the compilation (kernels/blob.h) */
};

nn_sgemm_packed *nn_sgemm_pack(size_t n, size_t k, const float *b, size_t ldb)
{
    nn_sgemm_packed *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->k = k;
    p->panels = (n + NR - 1) / NR;
    size_t elems = p->panels * NR;
    if (k && elems > SIZE_MAX / sizeof(float) / k) {
        free(p);
        return NULL;
    }
    bool filled;
    p->data = nn_blob_acquire(elems * k * sizeof(float), &filled, &p->owns_data);
    if (!p->data) {
        free(p);
        return NULL;
    }
    /* Row by row: B is read in order and a panel (k x NR floats) stays in
     * cache while its columns are written. */
    for (size_t pn = 0; pn < p->panels && !filled; pn++) {
        float *dst = p->data + pn * k * NR;
        size_t cols = n - pn * NR < NR ? n - pn * NR : NR;
        if (cols < NR)
            memset(dst, 0, k * NR * sizeof(float));
        for (size_t j = 0; j < cols; j++) {
            const float *row = b + (pn * NR + j) * ldb;
            for (size_t q = 0; q < k; q++)
                dst[q * NR + j] = row[q];
        }
    }
    return p;
}

void nn_sgemm_packed_free(nn_sgemm_packed *p)
{
    if (p) {
        if (p->owns_data)
            free(p->data);
        free(p);
    }
}

size_t nn_sgemm_packed_n(const nn_sgemm_packed *p) { return p->n; }
size_t nn_sgemm_packed_k(const nn_sgemm_packed *p) { return p->k; }

typedef struct {
    const nn_gemm_isa *isa;
    size_t m;
    const float *a;
    size_t lda;
    const nn_sgemm_packed *bp;
    const float *bias;
    float lo, hi;
    bool clamp;
    float *c;
    size_t ldc;
    task_grid grid;
} sgemm_job;

static void sgemm_task(void *arg, size_t begin, size_t end)
{
    const sgemm_job *J = arg;
    const size_t mr = J->isa->s_mr, n = J->bp->n, k = J->bp->k;
    for (size_t t = begin; t < end; t++) {
        size_t r0, p0;
        task_at(&J->grid, t, &r0, &p0);
        size_t r1 = r0 + J->grid.mb < J->m ? r0 + J->grid.mb : J->m;
        size_t p1 = p0 + NB_PANELS < J->bp->panels ? p0 + NB_PANELS : J->bp->panels;
        for (size_t k0 = 0; k0 < k || k0 == 0; k0 += KC) {
            size_t kc = k - k0 < KC ? k - k0 : KC;
            unsigned flags = (k0 ? NN_GEMM_ACCUMULATE : 0) |
                             (k0 + kc >= k && J->clamp ? NN_GEMM_CLAMP : 0);
            /* Tiles of equal height: a last tile of one or two rows would
             * run on one or two dependency chains (M = 49 at 8 rows: 7 x 7
             * rather than 6 x 8 + 1). */
            const size_t tiles = (r1 - r0 + mr - 1) / mr;
            const size_t base = (r1 - r0) / tiles, extra = (r1 - r0) % tiles;
            for (size_t tile = 0, i0 = r0; tile < tiles; i0 += base + (tile < extra), tile++) {
                size_t rows = base + (tile < extra);
                const float *a = J->a + i0 * J->lda + k0;
                const size_t lda = J->lda;
                const unsigned kflags = flags;
                size_t first_left = p0; /* the panels spanels did not take */
                if (J->isa->spanels) {
                    size_t last = n - (p1 - 1) * NR;
                    bool partial = last < NR;
                    first_left = partial && !J->isa->s_cols ? p1 - 1 : p1;
                    if (first_left > p0)
                        J->isa->spanels(rows, kc, a, lda, J->bp->data + p0 * k * NR + k0 * NR,
                                        k * NR, first_left - p0, J->c + i0 * J->ldc + p0 * NR,
                                        J->ldc, J->bias ? J->bias + p0 * NR : NULL,
                                        kflags | (partial && first_left == p1 ? NN_GEMM_COLS(last)
                                                                              : 0),
                                        J->lo, J->hi);
                }
                for (size_t pn = first_left; pn < p1; pn++) {
                    size_t j0 = pn * NR;
                    size_t cols = n - j0 < NR ? n - j0 : NR;
                    const float *b = J->bp->data + pn * k * NR + k0 * NR;
                    float *c = J->c + i0 * J->ldc + j0;
                    if (cols == NR || J->isa->s_cols) {
                        J->isa->skernel(rows, kc, a, lda, b, c, J->ldc,
                                        J->bias ? J->bias + j0 : NULL,
                                        kflags | (cols < NR ? NN_GEMM_COLS(cols) : 0), J->lo,
                                        J->hi);
                        continue;
                    }
                    /* Partial panel: go through a full-width tile. */
                    float tile[NN_GEMM_MAX_MR * NR], bias[NR];
                    for (size_t i = 0; i < rows; i++)
                        for (size_t j = 0; j < NR; j++)
                            tile[i * NR + j] = (flags & NN_GEMM_ACCUMULATE) && j < cols
                                                   ? c[i * J->ldc + j]
                                                   : 0.0f;
                    for (size_t j = 0; j < NR; j++)
                        bias[j] = J->bias && j < cols ? J->bias[j0 + j] : 0.0f;
                    J->isa->skernel(rows, kc, a, lda, b, tile, NR, bias, kflags, J->lo, J->hi);
                    for (size_t i = 0; i < rows; i++)
                        memcpy(c + i * J->ldc, tile + i * NR, cols * sizeof(float));
                }
            }
            if (k == 0)
                break;
        }
    }
}

void nn_sgemm_prepacked(size_t m, const float *a, size_t lda, const nn_sgemm_packed *bp,
                        const float *bias, float lo, float hi, float *c, size_t ldc)
{
    if (m == 0 || bp->n == 0)
        return;
    sgemm_job J = {.isa = gemm_isa(), .m = m, .a = a, .lda = lda, .bp = bp, .bias = bias,
                   .lo = lo, .hi = hi, .clamp = !(isinf(lo) && lo < 0 && isinf(hi) && hi > 0),
                   .c = c, .ldc = ldc};
    size_t col_tasks = (bp->panels + NB_PANELS - 1) / NB_PANELS;
    /* Tasks of two micro-tile heights per step: B is streamed from L2 once per
     * task, 128 rows (at 8-row tiles) rather than 64 share it. */
    size_t mb = task_rows(m, col_tasks, 2 * J.isa->s_mr, bp->k, 0);
    /* Row tasks of equal height (the tiles in a task are balanced too):
     * M = 49 in two tasks is 25 + 24 rows, not 48 + 1, whose one-row task
     * would stream its B panels for a single row. */
    size_t row_tasks = (m + mb - 1) / mb;
    /* A task count the threads share evenly: M = 784 in 9 equal tasks
     * leaves one of 2 threads a whole task alone at the end (1.8x at best). */
    const size_t threads = (size_t)nn_thread_count();
    while ((row_tasks * col_tasks) % threads != 0 && row_tasks < m)
        row_tasks++;
    J.grid = task_grid_of(m, col_tasks, (m + row_tasks - 1) / row_tasks);
    size_t tasks = J.grid.row_tasks * J.grid.col_tasks;
    /* A task costs about mb * 256 * k multiply-adds; small products stay serial. */
    size_t work = m * bp->n * (bp->k ? bp->k : 1);
    if (work < (size_t)1 << 17)
        sgemm_task(&J, 0, tasks);
    else
        nn_parallel_for(tasks, 1, sgemm_task, &J);
}

typedef struct {
    const nn_gemm_isa *isa;
    size_t m, k;
    const float *a, *b, *bias;
    size_t lda, ldb, ldc;
    float lo, hi;
    bool clamp;
    float *c;
} sdot_job;

#define DOT_COLS 16

static void sdot_task(void *arg, size_t begin, size_t end)
{
    const sdot_job *J = arg;
    size_t n = begin * DOT_COLS, e = end * DOT_COLS;
    J->isa->sdot(J->m, n, e, J->k, J->a, J->lda, J->b, J->ldb, J->bias, J->lo, J->hi, J->clamp,
                 J->c, J->ldc);
}

int nn_sgemm(size_t m, size_t n, size_t k, const float *a, size_t lda, const float *b,
             size_t ldb, const float *bias, float lo, float hi, float *c, size_t ldc)
{
    if (m == 0 || n == 0)
        return ANEURALNETWORKS_NO_ERROR;
    if (m <= 4) {
        sdot_job J = {.isa = gemm_isa(), .m = m, .k = k, .a = a, .b = b, .bias = bias, .lda = lda,
                      .ldb = ldb, .ldc = ldc, .lo = lo, .hi = hi, .c = c,
                      .clamp = !(isinf(lo) && lo < 0 && isinf(hi) && hi > 0)};
        size_t full = n / DOT_COLS;
        if (m * n * k < (size_t)1 << 16)
            sdot_task(&J, 0, full);
        else
            nn_parallel_for(full, 1, sdot_task, &J);
        J.isa->sdot(m, full * DOT_COLS, n, k, a, lda, b, ldb, bias, lo, hi, J.clamp, c, ldc);
        return ANEURALNETWORKS_NO_ERROR;
    }
    nn_sgemm_packed *bp = nn_sgemm_pack(n, k, b, ldb);
    if (!bp)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    nn_sgemm_prepacked(m, a, lda, bp, bias, lo, hi, c, ldc);
    nn_sgemm_packed_free(bp);
    return ANEURALNETWORKS_NO_ERROR;
}

/* ---- 8-bit ----
 * The kernels multiply uint8 by int8. A signed A is shifted by +128 and an
 * unsigned B by -128 (zero points follow), then
 *   sum (a - za)(b - zb) = sum a*b - zb * rowsum(a) - za * colsum(b) + k za zb. */

struct nn_qgemm_packed {
    size_t n, k, kq, panels;
    int32_t zero;    /* B zero point after the shift to int8 */
    int32_t *colsum; /* panels * NR sums of shifted B */
    int32_t *data;   /* panels x kq x NR words of 4 int8 */
    int16_t *wide;   /* data widened to int16, for the ISAs that want it (q_wide_b) */
    /* whether each array is the caller's or the compilation's (kernels/blob.h) */
    bool owns_colsum, owns_data, owns_wide;
};

static int32_t byte_sum(const uint8_t *p, size_t n, uint8_t flip);

nn_qgemm_packed *nn_qgemm_pack(size_t n, size_t k, const nn_q8_matrix *b)
{
    nn_qgemm_packed *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->k = k;
    p->kq = (k + 3) / 4;
    p->panels = (n + NR - 1) / NR;
    p->zero = b->is_signed ? b->zero : b->zero - 128;
    size_t cols = p->panels * NR;
    if (p->kq && cols > SIZE_MAX / sizeof(int32_t) / p->kq) {
        free(p);
        return NULL;
    }
    bool colsum_filled, data_filled, wide_filled = false;
    p->colsum = nn_blob_acquire(cols * sizeof(int32_t), &colsum_filled, &p->owns_colsum);
    p->data = nn_blob_acquire(cols * p->kq * sizeof(int32_t), &data_filled, &p->owns_data);
    if (gemm_isa()->q_wide_b)
        p->wide = nn_blob_acquire(cols * p->kq * 4 * sizeof(int16_t), &wide_filled, &p->owns_wide);
    if (!p->colsum || !p->data || (gemm_isa()->q_wide_b && !p->wide)) {
        nn_qgemm_packed_free(p);
        return NULL;
    }
    if (colsum_filled && data_filled && (wide_filled || !p->wide))
        return p;
    /* Partly cached (an entry for another model, or a forged one): all is
     * packed again, into memory of its own where the blob is the entry's. */
    if (colsum_filled) {
        p->colsum = aligned_alloc64(cols * sizeof(int32_t));
        p->owns_colsum = true;
    }
    if (data_filled) {
        p->data = aligned_alloc64(cols * p->kq * sizeof(int32_t));
        p->owns_data = true;
    }
    if (wide_filled) {
        p->wide = aligned_alloc64(cols * p->kq * 4 * sizeof(int16_t));
        p->owns_wide = true;
    }
    if (!p->colsum || !p->data || (gemm_isa()->q_wide_b && !p->wide)) {
        nn_qgemm_packed_free(p);
        return NULL;
    }
    memset(p->colsum, 0, cols * sizeof(int32_t));
    memset(p->data, 0, cols * p->kq * sizeof(int32_t));
    /* Four bytes of a row make one word of its column in the panel; an
     * unsigned byte shifted by -128 is the byte with its top bit flipped. */
    const uint8_t flip = b->is_signed ? 0 : 0x80;
    const uint32_t flip4 = flip * 0x01010101u;
    const size_t whole = k / 4;
    for (size_t j = 0; j < n; j++) {
        const uint8_t *row = (const uint8_t *)b->data + j * b->ld;
        uint8_t *col = (uint8_t *)(p->data + (j / NR) * p->kq * NR + j % NR);
        for (size_t q4 = 0; q4 < whole; q4++) {
            uint32_t w;
            memcpy(&w, row + 4 * q4, 4);
            w ^= flip4;
            memcpy(col + q4 * NR * 4, &w, 4);
        }
        for (size_t q = whole * 4; q < k; q++)
            col[whole * NR * 4 + q % 4] = row[q] ^ flip;
        /* The int8 value of byte v is (v ^ 0x80) - 128. */
        int32_t sum = -128 * (int32_t)k;
        for (size_t q = 0; q < k; q += KQ)
            sum += byte_sum(row + q, k - q < KQ ? k - q : KQ, flip ^ 0x80);
        p->colsum[j] = sum;
    }
    if (p->wide) {
        const int8_t *narrow = (const int8_t *)p->data;
#if defined(NN_KERNELS_X86_64)
        nn_widen_i8_avx2(narrow, p->wide, p->panels, p->kq); /* q_wide_b: AVX2 only */
#else
        for (size_t i = 0; i < cols * p->kq * 4; i++)
            p->wide[i] = narrow[i];
#endif
    }
    return p;
}

void nn_qgemm_packed_free(nn_qgemm_packed *p)
{
    if (p) {
        if (p->owns_colsum)
            free(p->colsum);
        if (p->owns_data)
            free(p->data);
        if (p->owns_wide)
            free(p->wide);
        free(p);
    }
}

/* Sum of the n (<= KQ) bytes at p, each XORed with flip: eight at a time in
 * four 16-bit lanes, which hold at most 128 * 510 < 2^16. */
static int32_t byte_sum(const uint8_t *p, size_t n, uint8_t flip)
{
    const uint64_t lanes = 0x00ff00ff00ff00ffull, f8 = flip * 0x0101010101010101ull;
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        w ^= f8;
        acc += (w & lanes) + ((w >> 8) & lanes);
    }
    int32_t s = (int32_t)((acc & 0xffff) + ((acc >> 16) & 0xffff) + ((acc >> 32) & 0xffff) + (acc >> 48));
    for (; i < n; i++)
        s += (uint8_t)(p[i] ^ flip);
    return s;
}

static inline int32_t sat32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : (int32_t)v);
}

typedef struct {
    const nn_gemm_isa *isa;
    size_t m;
    const nn_q8_matrix *a;
    const nn_qgemm_packed *bp;
    const int32_t *bias;
    const nn_requant *rq; /* NULL: int32 output */
    void *c;
    size_t ldc;
    task_grid grid;
} qgemm_job;

/* Packs rows [i0, i0 + rows) of A, k values from k0 (kc of them), as uint8
 * words apack[g * mr + i]; adds each row's byte sum to rowsum[i] when
 * wanted (only a non-zero B zero point needs it). */
static void pack_a(const nn_q8_matrix *a, size_t i0, size_t rows, size_t mr, size_t k0, size_t kc,
                   bool want_sums, uint32_t *apack, int32_t *rowsum)
{
    const uint8_t flip = a->is_signed ? 0x80 : 0;
    const uint32_t flip4 = a->is_signed ? 0x80808080u : 0;
    const size_t kq = (kc + 3) / 4, full = kc / 4;
    for (size_t i = 0; i < rows; i++) {
        const uint8_t *row = (const uint8_t *)a->data + (i0 + i) * a->ld + k0;
        if (want_sums)
            rowsum[i] += byte_sum(row, kc, flip);
        for (size_t g = 0; g < full; g++) {
            uint32_t w;
            memcpy(&w, row + 4 * g, 4);
            apack[g * mr + i] = w ^ flip4;
        }
        if (full < kq) {
            uint8_t tail[4] = {0, 0, 0, 0};
            for (size_t q = 4 * full; q < kc; q++)
                tail[q - 4 * full] = (uint8_t)(row[q] ^ flip);
            memcpy(&apack[full * mr + i], tail, 4);
        }
    }
}

/* The scalar output stage, for what the fused kernels cannot take: int32
 * output, or terms that do not fit in 32 bits (computed here in 64). */
static void qgemm_store_scalar(const qgemm_job *J, size_t i0, size_t rows, size_t j0, size_t cols,
                               const int32_t *acc, const int64_t *rterm, int32_t za)
{
    const nn_qgemm_packed *bp = J->bp;
    const nn_requant *rq = J->rq;
    for (size_t i = 0; i < rows; i++) {
        size_t ci = (i0 + i) * J->ldc + j0;
        for (size_t j = 0; j < cols; j++) {
            int64_t w = acc[i * NR + j] + rterm[i] - (int64_t)za * bp->colsum[j0 + j];
            if (J->bias)
                w += J->bias[j0 + j];
            int32_t v = sat32(w);
            if (!rq) {
                ((int32_t *)J->c)[ci + j] = v;
                continue;
            }
            size_t ch = rq->per_channel ? j0 + j : 0;
            int32_t q = nn_requant_output(v, rq->mult[ch], rq->shift[ch], rq->rounding,
                                          rq->out_zero, rq->lo, rq->hi);
            if (rq->out_signed)
                ((int8_t *)J->c)[ci + j] = (int8_t)q;
            else
                ((uint8_t *)J->c)[ci + j] = (uint8_t)q;
        }
    }
}

static void qgemm_task(void *arg, size_t begin, size_t end)
{
    const qgemm_job *J = arg;
    const nn_qgemm_packed *bp = J->bp;
    const nn_requant *rq = J->rq;
    const size_t mr = J->isa->q_mr, n = bp->n, k = bp->k;
    const int32_t za = J->a->is_signed ? J->a->zero + 128 : J->a->zero;
    const int32_t zb = bp->zero;
    /* One k block: the accumulators stay in the kernel's registers. */
    const bool single = k <= KQ;
    /* Whole words of 4 k-steps: the kernels read A where it is (a partial
     * last word meets the zeros that pad the B panel). */
    const bool in_place = k % 4 == 0 || J->a->padded;
    int32_t col_term[NB_PANELS][NR], mult[NB_PANELS][NR], shift[NB_PANELS][NR];
    bool panel_fused[NB_PANELS];
    _Alignas(64) unsigned char prepared[NB_PANELS][NN_QGEMM_PREPARED_BYTES];
    const nn_qgemm_prepare_fn qprepare = qprepare_of(J->isa);
    uint32_t apack[KQ / 4 * NN_GEMM_MAX_MR];
    int32_t acc[NB_PANELS][NN_GEMM_MAX_MR * NR];
    /* Without a B zero point the row terms stay 0. */
    int32_t rowsum[NN_GEMM_MAX_MR] = {0}, row_term[NN_GEMM_MAX_MR] = {0};
    int64_t rterm[NN_GEMM_MAX_MR] = {0};
    for (size_t t = begin; t < end; t++) {
        size_t r0, p0;
        task_at(&J->grid, t, &r0, &p0);
        size_t r1 = r0 + J->grid.mb < J->m ? r0 + J->grid.mb : J->m;
        size_t p1 = p0 + NB_PANELS < bp->panels ? p0 + NB_PANELS : bp->panels;
        for (size_t pn = p0; pn < p1; pn++) {
            size_t j0 = pn * NR, cols = n - j0 < NR ? n - j0 : NR;
            bool ok = rq != NULL && k > 0 && rq->out_zero >= -256 && rq->out_zero <= 256;
            for (size_t j = 0; ok && j < cols; j++) {
                size_t ch = rq->per_channel ? j0 + j : 0;
                int64_t ct = -(int64_t)za * bp->colsum[j0 + j] + (J->bias ? J->bias[j0 + j] : 0);
                col_term[pn - p0][j] = sat32(ct);
                mult[pn - p0][j] = rq->mult[ch];
                shift[pn - p0][j] = rq->shift[ch];
                ok = ct == col_term[pn - p0][j] && rq->shift[ch] >= -NN_QGEMM_FUSED_MAX_RIGHT;
            }
            panel_fused[pn - p0] = ok;
            if (ok && qprepare) {
                nn_qgemm_epilogue e = {.col_term = col_term[pn - p0], .mult = mult[pn - p0],
                                       .shift = shift[pn - p0], .rounding = rq->rounding,
                                       .cols = cols, .out_zero = rq->out_zero, .lo = rq->lo,
                                       .hi = rq->hi, .out_signed = rq->out_signed};
                qprepare(&e, prepared[pn - p0]);
            }
        }
        /* One k block and every panel fused: the ISA's multi-panel kernel
         * takes each row tile in one call. */
        bool all_fused = J->isa->qpanels && single && k > 0;
        for (size_t pn = p0; all_fused && pn < p1; pn++)
            all_fused = panel_fused[pn - p0];
        nn_qgemm_epilogue pe[NB_PANELS];
        for (size_t pn = p0; all_fused && pn < p1; pn++) {
            size_t j0 = pn * NR;
            pe[pn - p0] = (nn_qgemm_epilogue){
                .col_term = col_term[pn - p0], .mult = mult[pn - p0], .shift = shift[pn - p0],
                .rounding = rq->rounding, .row_term = zb ? row_term : NULL,
                .cols = n - j0 < NR ? n - j0 : NR, .out_zero = rq->out_zero, .lo = rq->lo,
                .hi = rq->hi, .out_signed = rq->out_signed,
                .prepared = qprepare ? prepared[pn - p0] : NULL};
        }
        /* Tiles of equal height, as in sgemm_task: M = 49 at 16 rows runs
         * 13 + 3 x 12 rows rather than 3 x 16 + 1, whose one row is one
         * dependency chain per panel. */
        const size_t tiles = (r1 - r0 + mr - 1) / mr;
        const size_t base = (r1 - r0) / tiles, extra = (r1 - r0) % tiles;
        for (size_t tile = 0, i0 = r0; tile < tiles; i0 += base + (tile < extra), tile++) {
            size_t rows = base + (tile < extra);
            for (size_t i = 0; zb != 0 && i < rows; i++)
                rowsum[i] = 0;
            bool rows_fit = true;
            for (size_t k0 = 0; k0 < k; k0 += KQ) {
                size_t kc = k - k0 < KQ ? k - k0 : KQ, kq = (kc + 3) / 4;
                nn_q8_rows arows;
                if (in_place) {
                    const uint8_t *base = (const uint8_t *)J->a->data + i0 * J->a->ld + k0;
                    arows = (nn_q8_rows){base, J->a->ld, 4, J->a->is_signed ? 0x80808080u : 0};
                    for (size_t i = 0; zb != 0 && i < rows; i++)
                        rowsum[i] += byte_sum(base + i * J->a->ld, kc, J->a->is_signed ? 0x80 : 0);
                } else {
                    pack_a(J->a, i0, rows, mr, k0, kc, zb != 0, apack, rowsum);
                    arows = (nn_q8_rows){(const uint8_t *)apack, 4, 4 * mr, 0};
                }
                bool last = k0 + kc >= k;
                if (last && zb != 0) {
                    for (size_t i = 0; i < rows; i++) {
                        rterm[i] = (int64_t)k * za * zb - (int64_t)zb * rowsum[i];
                        row_term[i] = sat32(rterm[i]);
                        rows_fit = rows_fit && rterm[i] == row_term[i];
                    }
                }
                if (all_fused && rows_fit) {
                    /* The wide panels are twice as long (int16 per byte). */
                    const size_t words = bp->kq * NR * (bp->wide ? 2 : 1);
                    const int32_t *b = bp->wide ? (const int32_t *)(const void *)bp->wide : bp->data;
                    J->isa->qpanels(rows, kq, &arows, b + p0 * words, words, p1 - p0, pe,
                                    (uint8_t *)J->c + (i0 * J->ldc + p0 * NR), J->ldc);
                    continue;
                }
                for (size_t pn = p0; pn < p1; pn++) {
                    size_t word = pn * bp->kq * NR + (k0 / 4) * NR;
                    const int32_t *b = bp->wide ? (const int32_t *)(const void *)(bp->wide + 4 * word)
                                                : bp->data + word;
                    if (last && rows_fit && panel_fused[pn - p0]) {
                        size_t j0 = pn * NR;
                        nn_qgemm_epilogue e = {.col_term = col_term[pn - p0], .mult = mult[pn - p0],
                                               .shift = shift[pn - p0], .rounding = rq->rounding,
                                               .row_term = zb ? row_term : NULL,
                                               .cols = n - j0 < NR ? n - j0 : NR,
                                               .out_zero = rq->out_zero, .lo = rq->lo, .hi = rq->hi,
                                               .out_signed = rq->out_signed,
                                               .prepared = qprepare ? prepared[pn - p0] : NULL};
                        J->isa->qfused(rows, kq, &arows, b, single ? NULL : acc[pn - p0], &e,
                                       (uint8_t *)J->c + (i0 * J->ldc + j0), J->ldc);
                    } else {
                        J->isa->qkernel(rows, kq, &arows, b, acc[pn - p0], k0 == 0);
                    }
                }
            }
            if (k == 0) {
                for (size_t i = 0; i < rows; i++)
                    rterm[i] = 0;
                for (size_t pn = p0; pn < p1; pn++)
                    memset(acc[pn - p0], 0, sizeof acc[0]);
            }
            for (size_t pn = p0; pn < p1; pn++) {
                if (rows_fit && panel_fused[pn - p0])
                    continue;
                size_t j0 = pn * NR;
                qgemm_store_scalar(J, i0, rows, j0, n - j0 < NR ? n - j0 : NR, acc[pn - p0], rterm, za);
            }
        }
    }
}

static void qgemm_run(size_t m, const nn_q8_matrix *a, const nn_qgemm_packed *bp,
                      const int32_t *bias, const nn_requant *rq, void *c, size_t ldc)
{
    if (m == 0 || bp->n == 0)
        return;
    qgemm_job J = {.isa = gemm_isa(), .m = m, .a = a, .bp = bp, .bias = bias, .rq = rq,
                   .c = c, .ldc = ldc};
    size_t col_tasks = (bp->panels + NB_PANELS - 1) / NB_PANELS;
    J.grid = task_grid_of(m, col_tasks, task_rows(m, col_tasks, J.isa->q_mr, bp->k, 64 * 128));
    size_t tasks = J.grid.row_tasks * J.grid.col_tasks;
    size_t work = m * bp->n * (bp->k ? bp->k : 1);
    if (work < (size_t)1 << 18)
        qgemm_task(&J, 0, tasks);
    else
        nn_parallel_for(tasks, 1, qgemm_task, &J);
}

void nn_qgemm_prepacked(size_t m, const nn_q8_matrix *a, const nn_qgemm_packed *bp,
                        const int32_t *bias, const nn_requant *rq, void *c, size_t ldc)
{
    qgemm_run(m, a, bp, bias, rq, c, ldc);
}

void nn_qgemm_prepacked_i32(size_t m, const nn_q8_matrix *a, const nn_qgemm_packed *bp,
                            const int32_t *bias, int32_t *c, size_t ldc)
{
    qgemm_run(m, a, bp, bias, NULL, c, ldc);
}

int nn_qgemm(size_t m, size_t n, size_t k, const nn_q8_matrix *a, const nn_q8_matrix *b,
             const int32_t *bias, const nn_requant *rq, void *c, size_t ldc)
{
    if (m == 0 || n == 0)
        return ANEURALNETWORKS_NO_ERROR;
    nn_qgemm_packed *bp = nn_qgemm_pack(n, k, b);
    if (!bp)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    qgemm_run(m, a, bp, bias, rq, c, ldc);
    nn_qgemm_packed_free(bp);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_qgemm_i32(size_t m, size_t n, size_t k, const nn_q8_matrix *a, const nn_q8_matrix *b,
                 const int32_t *bias, int32_t *c, size_t ldc)
{
    if (m == 0 || n == 0)
        return ANEURALNETWORKS_NO_ERROR;
    nn_qgemm_packed *bp = nn_qgemm_pack(n, k, b);
    if (!bp)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    qgemm_run(m, a, bp, bias, NULL, c, ldc);
    nn_qgemm_packed_free(bp);
    return ANEURALNETWORKS_NO_ERROR;
}
