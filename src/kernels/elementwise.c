#include "kernels/elementwise.h"

#include <math.h>

#include "android/NeuralNetworksTypes.h"
#include "kernels/fp16.h"
#include "kernels/isa.h"
#include "kernels/quant.h"
#include "util/threadpool.h"

/* Elements per parallel chunk: below this a thread hand-off costs more than
 * the memory-bound loop it would save. */
#define EW_GRAIN 32768

void nn_ew_geom_init(nn_ew_geom *g, uint32_t rank_a, const uint32_t *dims_a, uint32_t rank_b,
                     const uint32_t *dims_b)
{
    uint32_t r = rank_a > rank_b ? rank_a : rank_b;
    /* Walk from the innermost dimension outwards, dropping size-1 dims and
     * merging a dim into the run inside it when both inputs step through
     * them as one. Every dim kept is at least 2 and their product is an
     * element count, so fewer than NN_EW_MAX_RANK are kept whatever the
     * rank. */
    size_t md[NN_EW_MAX_RANK], ma[NN_EW_MAX_RANK], mb[NN_EW_MAX_RANK];
    size_t stride_a = 1, stride_b = 1;
    uint32_t m = 0;
    for (uint32_t i = r; i-- > 0;) {
        size_t ea = i < r - rank_a ? 1 : dims_a[i - (r - rank_a)];
        size_t eb = i < r - rank_b ? 1 : dims_b[i - (r - rank_b)];
        size_t eo = ea == 1 ? eb : ea;
        size_t as = ea == 1 ? 0 : stride_a, bs = eb == 1 ? 0 : stride_b;
        stride_a *= ea;
        stride_b *= eb;
        if (eo == 0) {
            /* No elements: one empty run. */
            m = 1;
            md[0] = 0;
            ma[0] = mb[0] = 1;
            break;
        }
        if (eo == 1)
            continue;
        if (m > 0 && as == ma[m - 1] * md[m - 1] && bs == mb[m - 1] * md[m - 1]) {
            md[m - 1] *= eo;
            continue;
        }
        md[m] = eo;
        ma[m] = as;
        mb[m] = bs;
        m++;
    }
    if (m == 0) {
        md[0] = 1;
        ma[0] = 1;
        mb[0] = 1;
        m = 1;
    }
    g->rank = m;
    for (uint32_t i = 0; i < m; i++) {
        g->dims[i] = md[m - 1 - i];
        g->sa[i] = ma[m - 1 - i];
        g->sb[i] = mb[m - 1 - i];
    }
}

typedef struct run_ctx {
    const nn_ew_geom *g;
    nn_ew_row_fn fn;
    const void *params;
    const char *a, *b;
    char *out;
    size_t a_size, b_size, out_size;
} run_ctx;

/* Rank 1: a chunk [begin, end) of the single run. */
static void run_flat(void *arg, size_t begin, size_t end)
{
    const run_ctx *c = arg;
    size_t sa = c->g->sa[0], sb = c->g->sb[0];
    c->fn(c->params, c->a + begin * sa * c->a_size, c->b + begin * sb * c->b_size,
          c->out + begin * c->out_size, end - begin, sa, sb);
}

/* Rank > 1: rows [begin, end), a row being one innermost run. */
static void run_rows(void *arg, size_t begin, size_t end)
{
    const run_ctx *c = arg;
    const nn_ew_geom *g = c->g;
    uint32_t outer = g->rank - 1;
    size_t inner = g->dims[outer];
    size_t idx[NN_EW_MAX_RANK];
    size_t oa = 0, ob = 0, rest = begin;
    for (uint32_t d = outer; d-- > 0;) {
        idx[d] = rest % g->dims[d];
        rest /= g->dims[d];
        oa += idx[d] * g->sa[d];
        ob += idx[d] * g->sb[d];
    }
    for (size_t row = begin; row < end; row++) {
        c->fn(c->params, c->a + oa * c->a_size, c->b + ob * c->b_size,
              c->out + row * inner * c->out_size, inner, g->sa[outer], g->sb[outer]);
        for (uint32_t d = outer; d-- > 0;) {
            oa += g->sa[d];
            ob += g->sb[d];
            if (++idx[d] < g->dims[d])
                break;
            oa -= idx[d] * g->sa[d];
            ob -= idx[d] * g->sb[d];
            idx[d] = 0;
        }
    }
}

void nn_ew_run(const nn_ew_geom *g, nn_ew_row_fn fn, const void *params, const void *a,
               size_t a_size, const void *b, size_t b_size, void *out, size_t out_size)
{
    run_ctx c = {g, fn, params, a, b, out, a_size, b_size, out_size};
    if (g->rank == 1) {
        nn_parallel_for(g->dims[0], EW_GRAIN, run_flat, &c);
        return;
    }
    size_t rows = 1;
    for (uint32_t d = 0; d + 1 < g->rank; d++)
        rows *= g->dims[d];
    size_t inner = g->dims[g->rank - 1];
    size_t grain = inner >= EW_GRAIN ? 1 : EW_GRAIN / inner;
    nn_parallel_for(rows, grain, run_rows, &c);
}

/* The four stride combinations as separate loops, so that each one is a
 * plain vectorizable loop with ia/ib known. */
#define EW_LOOP(...)                                                                           \
    do {                                                                                       \
        if (sa && sb) {                                                                        \
            for (size_t i = 0; i < n; i++) {                                                   \
                const size_t ia = i, ib = i;                                                   \
                __VA_ARGS__;                                                                          \
            }                                                                                  \
        } else if (sa) {                                                                       \
            for (size_t i = 0; i < n; i++) {                                                   \
                const size_t ia = i, ib = 0;                                                   \
                __VA_ARGS__;                                                                          \
            }                                                                                  \
        } else if (sb) {                                                                       \
            for (size_t i = 0; i < n; i++) {                                                   \
                const size_t ia = 0, ib = i;                                                   \
                __VA_ARGS__;                                                                          \
            }                                                                                  \
        } else {                                                                               \
            for (size_t i = 0; i < n; i++) {                                                   \
                const size_t ia = 0, ib = 0;                                                   \
                __VA_ARGS__;                                                                          \
            }                                                                                  \
        }                                                                                      \
    } while (0)

#define ROW_ARGS                                                                               \
    const void *p, const void *av, const void *bv, void *ov, size_t n, size_t sa, size_t sb

/* ---- float32 ---- */

#define F32_ROW(NAME, EXPR)                                                                    \
    static void NAME(ROW_ARGS)                                                                 \
    {                                                                                          \
        const float *restrict a = av;                                                          \
        const float *restrict b = bv;                                                          \
        float *restrict o = ov;                                                                \
        const float lo = ((const nn_ew_fparams *)p)->lo, hi = ((const nn_ew_fparams *)p)->hi;  \
        EW_LOOP({                                                                              \
            const float x = a[ia], y = b[ib];                                                  \
            const float r = (EXPR);                                                            \
            o[i] = r < lo ? lo : (r > hi ? hi : r);                                            \
        });                                                                                    \
    }

F32_ROW(f32_add, x + y)
F32_ROW(f32_sub, x - y)
F32_ROW(f32_mul, x *y)
F32_ROW(f32_div, x / y)
F32_ROW(f32_max, x > y ? x : y)
F32_ROW(f32_min, x < y ? x : y)
F32_ROW(f32_pow, powf(x, y))
F32_ROW(f32_prelu, x >= 0.0f ? x : x * y)

nn_ew_row_fn nn_ew_f32_row(nn_ew_arith op)
{
#if defined(NN_KERNELS_AARCH64)
    nn_ew_row_fn neon = nn_isa_current() != NN_ISA_C ? nn_ew_f32_row_neon(op) : NULL;
    if (neon)
        return neon;
#endif
    switch (op) {
    case NN_EW_ADD:
        return f32_add;
    case NN_EW_SUB:
        return f32_sub;
    case NN_EW_MUL:
        return f32_mul;
    case NN_EW_DIV:
        return f32_div;
    case NN_EW_MAX:
        return f32_max;
    case NN_EW_MIN:
        return f32_min;
    case NN_EW_POW:
        return f32_pow;
    case NN_EW_PRELU:
        return f32_prelu;
    }
    return f32_add;
}

/* ---- float16, through float32 in blocks ---- */

#define F16_BLOCK 256

static void f16_row(ROW_ARGS)
{
    const nn_ew_f16params *pp = p;
    const uint16_t *a = av, *b = bv;
    uint16_t *o = ov;
    float ta[F16_BLOCK], tb[F16_BLOCK], to[F16_BLOCK];
    for (size_t off = 0; off < n; off += F16_BLOCK) {
        size_t m = n - off < F16_BLOCK ? n - off : F16_BLOCK;
        nn_f16_to_f32_array(a + off * sa, ta, sa ? m : 1);
        nn_f16_to_f32_array(b + off * sb, tb, sb ? m : 1);
        pp->f32(&pp->f, ta, tb, to, m, sa, sb);
        nn_f32_to_f16_array(to, o + off, m);
    }
}

nn_ew_row_fn nn_ew_f16_row(void)
{
    return f16_row;
}

/* ---- int32 ---- */

static inline int32_t i32_wrap(uint32_t v)
{
    return (int32_t)v;
}

/* Floor division; 0 for a zero divisor. The -1 case is done as a negation
 * so that INT32_MIN / -1 wraps instead of trapping. */
static inline int32_t i32_floordiv(int32_t x, int32_t y)
{
    if (y == 0)
        return 0;
    if (y == -1)
        return i32_wrap(0u - (uint32_t)x);
    int32_t q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0)))
        q--;
    return q;
}

#define I32_ROW(NAME, EXPR)                                                                    \
    static void NAME(ROW_ARGS)                                                                 \
    {                                                                                          \
        (void)p;                                                                               \
        const int32_t *restrict a = av;                                                        \
        const int32_t *restrict b = bv;                                                        \
        int32_t *restrict o = ov;                                                              \
        EW_LOOP({                                                                              \
            const int32_t x = a[ia], y = b[ib];                                                \
            o[i] = (EXPR);                                                                     \
        });                                                                                    \
    }

I32_ROW(i32_add, i32_wrap((uint32_t)x + (uint32_t)y))
I32_ROW(i32_sub, i32_wrap((uint32_t)x - (uint32_t)y))
I32_ROW(i32_mul, i32_wrap((uint32_t)x * (uint32_t)y))
I32_ROW(i32_div, i32_floordiv(x, y))
I32_ROW(i32_max, x > y ? x : y)
I32_ROW(i32_min, x < y ? x : y)

nn_ew_row_fn nn_ew_i32_row(nn_ew_arith op)
{
    switch (op) {
    case NN_EW_SUB:
        return i32_sub;
    case NN_EW_MUL:
        return i32_mul;
    case NN_EW_DIV:
        return i32_div;
    case NN_EW_MAX:
        return i32_max;
    case NN_EW_MIN:
        return i32_min;
    default:
        return i32_add;
    }
}

/* ---- quant8 ---- */

/* ADD/SUB bring both inputs to a common fixed-point scale with 20 bits of
 * headroom below the 32-bit accumulator, then rescale the sum once. */
#define QADD_LEFT_SHIFT NN_EW_QADD_LEFT_SHIFT

void nn_ew_qparams_init(nn_ew_qparams *p, nn_ew_arith op, float sa, int32_t za, float sb,
                        int32_t zb, float so, int32_t zo, int32_t lo, int32_t hi)
{
    *p = (nn_ew_qparams){.za = za, .zb = zb, .zo = zo, .lo = lo, .hi = hi};
    double a = sa, b = sb, o = so;
    switch (op) {
    case NN_EW_ADD:
    case NN_EW_SUB: {
        double twice_max = 2.0 * (a > b ? a : b);
        nn_quantize_multiplier(a / twice_max, &p->ma, &p->sha);
        nn_quantize_multiplier(b / twice_max, &p->mb, &p->shb);
        nn_quantize_multiplier(twice_max / ((double)(1 << QADD_LEFT_SHIFT) * o), &p->mo,
                               &p->sho);
        break;
    }
    /* TFLite's MUL and PRELU compute these multipliers in float32 (ADD's
     * above in double): the same arithmetic gives the same last bit. */
    case NN_EW_MUL:
        nn_quantize_multiplier(sa * sb / so, &p->mo, &p->sho);
        break;
    case NN_EW_PRELU:
        nn_quantize_multiplier(sa / so, &p->ma, &p->sha);
        nn_quantize_multiplier(sa * sb / so, &p->mb, &p->shb);
        break;
    default: /* MAX, MIN: requantize each input to the output's parameters */
        nn_quantize_multiplier(a / o, &p->ma, &p->sha);
        nn_quantize_multiplier(b / o, &p->mb, &p->shb);
        break;
    }
}

static inline int32_t imax(int32_t x, int32_t y)
{
    return x > y ? x : y;
}

static inline int32_t imin(int32_t x, int32_t y)
{
    return x < y ? x : y;
}

#define Q8_ROW(NAME, T, EXPR)                                                                  \
    static void NAME(ROW_ARGS)                                                                 \
    {                                                                                          \
        const nn_ew_qparams q = *(const nn_ew_qparams *)p;                                     \
        const T *restrict a = av;                                                              \
        const T *restrict b = bv;                                                              \
        T *restrict o = ov;                                                                    \
        EW_LOOP({                                                                              \
            const int32_t x = (int32_t)a[ia] - q.za, y = (int32_t)b[ib] - q.zb;                \
            const int32_t r = (EXPR);                                                          \
            o[i] = (T)nn_clamp_i32(r, q.lo, q.hi);                                             \
        });                                                                                    \
    }

/* The output zero point is added in 32-bit two's complement, as TFLite's
 * int32 arithmetic does: extreme multipliers may leave no headroom. */
#define QADD_EXPR(OPER)                                                                        \
    nn_wrapping_add_i32(                                                                       \
        q.zo, nn_mul_by_quant_mult(                                                            \
                  nn_mul_by_quant_mult(x * (1 << QADD_LEFT_SHIFT), q.ma, q.sha)                \
                      OPER nn_mul_by_quant_mult(y * (1 << QADD_LEFT_SHIFT), q.mb, q.shb),      \
                  q.mo, q.sho))
#define QMUL_EXPR nn_wrapping_add_i32(q.zo, nn_mul_by_quant_mult(x *y, q.mo, q.sho))
#define QMAX_EXPR(PICK)                                                                        \
    nn_wrapping_add_i32(q.zo, PICK(nn_mul_by_quant_mult(x, q.ma, q.sha),                       \
                                   nn_mul_by_quant_mult(y, q.mb, q.shb)))
#define QPRELU_EXPR                                                                            \
    nn_wrapping_add_i32(q.zo, x >= 0 ? nn_mul_by_quant_mult(x, q.ma, q.sha)                    \
                                     : nn_mul_by_quant_mult(x * y, q.mb, q.shb))

#define Q8_ROWS(SFX, T)                                                                        \
    Q8_ROW(q_add_##SFX, T, QADD_EXPR(+))                                                       \
    Q8_ROW(q_sub_##SFX, T, QADD_EXPR(-))                                                       \
    Q8_ROW(q_mul_##SFX, T, QMUL_EXPR)                                                          \
    Q8_ROW(q_max_##SFX, T, QMAX_EXPR(imax))                                                    \
    Q8_ROW(q_min_##SFX, T, QMAX_EXPR(imin))                                                       \
    Q8_ROW(q_prelu_##SFX, T, QPRELU_EXPR)

Q8_ROWS(u8, uint8_t)
Q8_ROWS(s8, int8_t)

nn_ew_row_fn nn_ew_q8_row(nn_ew_arith op, bool is_signed)
{
    nn_ew_row_fn vec = nn_ew_q8_vector_row(op, is_signed);
    if (vec)
        return vec;
    return nn_ew_q8_row_c(op, is_signed);
}

nn_ew_row_fn nn_ew_q8_vector_row(nn_ew_arith op, bool is_signed)
{
#if defined(NN_KERNELS_X86_64)
    nn_isa isa = nn_isa_current();
    if (isa == NN_ISA_AVX512)
        return nn_ew_q8_row_avx512(op, is_signed);
    if (isa == NN_ISA_AVX2)
        return nn_ew_q8_row_avx2(op, is_signed);
#endif
    (void)op;
    (void)is_signed;
    return NULL;
}

nn_ew_row_fn nn_ew_q8_row_c(nn_ew_arith op, bool is_signed)
{
    switch (op) {
    case NN_EW_SUB:
        return is_signed ? q_sub_s8 : q_sub_u8;
    case NN_EW_MUL:
        return is_signed ? q_mul_s8 : q_mul_u8;
    case NN_EW_MAX:
        return is_signed ? q_max_s8 : q_max_u8;
    case NN_EW_MIN:
        return is_signed ? q_min_s8 : q_min_u8;
    case NN_EW_PRELU:
        return is_signed ? q_prelu_s8 : q_prelu_u8;
    default:
        return is_signed ? q_add_s8 : q_add_u8;
    }
}

/* The requantization of a row of accumulators on the widest vector unit
 * (bit-identical to nn_requant_row on every one). */
static void requant_row_isa(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                            int32_t zero, int32_t lo, int32_t hi, bool out_signed, void *out)
{
#if defined(NN_KERNELS_X86_64)
    nn_isa isa = nn_isa_current();
    if (isa == NN_ISA_AVX512) {
        nn_requant_row_avx512(n, acc, mult, shift, NN_ROUND_AWAY, zero, lo, hi, out_signed, out);
        return;
    }
    if (isa == NN_ISA_AVX2) {
        nn_requant_row_avx2(n, acc, mult, shift, NN_ROUND_AWAY, zero, lo, hi, out_signed, out);
        return;
    }
#endif
    nn_requant_row(n, acc, mult, shift, NN_ROUND_AWAY, zero, lo, hi, out_signed, out);
}

/* ADD, SUB, MAXIMUM and MINIMUM rescale each input on its own before they
 * combine: those 2 x 256 terms are computed once, leaving one rescaling (or
 * none) per pair, done a row at a time on the vector unit. The expressions
 * are those of the rows above. */
static bool pair_table_by_terms(nn_ew_arith op, bool is_signed, const nn_ew_qparams *q,
                                uint8_t *table)
{
    bool add = op == NN_EW_ADD || op == NN_EW_SUB;
    if (!add && op != NN_EW_MAX && op != NN_EW_MIN)
        return false;
    int32_t ta[256], tb[256];
    for (int32_t i = 0; i < 256; i++) {
        int32_t code = is_signed && i > 127 ? i - 256 : i;
        int32_t x = code - q->za, y = code - q->zb;
        ta[i] = nn_mul_by_quant_mult(add ? x * (1 << QADD_LEFT_SHIFT) : x, q->ma, q->sha);
        tb[i] = nn_mul_by_quant_mult(add ? y * (1 << QADD_LEFT_SHIFT) : y, q->mb, q->shb);
    }
    int32_t acc[256], mult[256], shift[256];
    for (size_t b = 0; b < 256; b++) {
        mult[b] = q->mo;
        shift[b] = q->sho;
    }
    for (size_t a = 0; a < 256; a++) {
        uint8_t *row = table + a * 256;
        if (add) {
            for (size_t b = 0; b < 256; b++)
                acc[b] = op == NN_EW_ADD ? ta[a] + tb[b] : ta[a] - tb[b];
            requant_row_isa(256, acc, mult, shift, q->zo, q->lo, q->hi, is_signed, row);
            continue;
        }
        for (size_t b = 0; b < 256; b++) {
            int32_t r = op == NN_EW_MAX ? imax(ta[a], tb[b]) : imin(ta[a], tb[b]);
            row[b] = (uint8_t)nn_clamp_i32(nn_wrapping_add_i32(q->zo, r), q->lo, q->hi);
        }
    }
    return true;
}

void nn_ew_q8_pair_table(nn_ew_arith op, bool is_signed, const nn_ew_qparams *p, uint8_t *table)
{
    if (pair_table_by_terms(op, is_signed, p, table))
        return;
    nn_ew_row_fn fn = nn_ew_q8_row(op, is_signed);
    uint8_t bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (uint8_t)i;
    for (int a = 0; a < 256; a++)
        fn(p, &bytes[a], bytes, table + (size_t)a * 256, 256, 0, 1);
}

static void q8_table_row(ROW_ARGS)
{
    const uint8_t *restrict t = p;
    const uint8_t *restrict a = av;
    const uint8_t *restrict b = bv;
    uint8_t *restrict o = ov;
    EW_LOOP(o[i] = t[(size_t)a[ia] << 8 | b[ib]]);
}

nn_ew_row_fn nn_ew_q8_table_row(void)
{
    return q8_table_row;
}

/* ---- comparisons and logical operations ---- */

#define LOAD_PLAIN(v, z, s) (v)
#define LOAD_F16(v, z, s) nn_f16_to_f32(v)
/* As the reference does: compare dequantized values in float. */
#define LOAD_Q(v, z, s) ((float)((int32_t)(v) - (z)) * (s))
#define LOAD_B(v, z, s) ((v) != 0)

#define CMP_ROW(NAME, T, LOAD, OPER)                                                           \
    static void NAME(ROW_ARGS)                                                                 \
    {                                                                                          \
        const nn_ew_cmpparams c = *(const nn_ew_cmpparams *)p;                                 \
        (void)c;                                                                               \
        const T *restrict a = av;                                                              \
        const T *restrict b = bv;                                                              \
        uint8_t *restrict o = ov;                                                              \
        EW_LOOP({ o[i] = (uint8_t)(LOAD(a[ia], c.za, c.sa) OPER LOAD(b[ib], c.zb, c.sb)); });  \
    }

#define CMP_ROWS(SFX, T, LOAD)                                                                 \
    CMP_ROW(cmp_eq_##SFX, T, LOAD, ==)                                                         \
    CMP_ROW(cmp_ne_##SFX, T, LOAD, !=)                                                         \
    CMP_ROW(cmp_gt_##SFX, T, LOAD, >)                                                          \
    CMP_ROW(cmp_ge_##SFX, T, LOAD, >=)                                                         \
    CMP_ROW(cmp_lt_##SFX, T, LOAD, <)                                                          \
    CMP_ROW(cmp_le_##SFX, T, LOAD, <=)                                                         \
    static const nn_ew_row_fn cmp_##SFX[6] = {cmp_eq_##SFX, cmp_ne_##SFX, cmp_gt_##SFX,        \
                                              cmp_ge_##SFX, cmp_lt_##SFX, cmp_le_##SFX};

CMP_ROWS(f32, float, LOAD_PLAIN)
CMP_ROWS(f16, uint16_t, LOAD_F16)
CMP_ROWS(i32, int32_t, LOAD_PLAIN)
CMP_ROWS(u8, uint8_t, LOAD_Q)
CMP_ROWS(s8, int8_t, LOAD_Q)
CMP_ROWS(b8, uint8_t, LOAD_B)
CMP_ROW(logical_and, uint8_t, LOAD_B, &&)
CMP_ROW(logical_or, uint8_t, LOAD_B, ||)

nn_ew_row_fn nn_ew_cmp_row(nn_ew_cmp op, int32_t type)
{
    if (op == NN_EW_AND || op == NN_EW_OR) {
        if (type != ANEURALNETWORKS_TENSOR_BOOL8)
            return NULL;
        return op == NN_EW_AND ? logical_and : logical_or;
    }
    switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
        return cmp_f32[op];
    case ANEURALNETWORKS_TENSOR_FLOAT16:
        return cmp_f16[op];
    case ANEURALNETWORKS_TENSOR_INT32:
        return cmp_i32[op];
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
        return cmp_u8[op];
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        return cmp_s8[op];
    case ANEURALNETWORKS_TENSOR_BOOL8:
        return cmp_b8[op];
    default:
        return NULL;
    }
}
