/*
 * Element-wise kernels. A binary operation is described by its broadcast
 * geometry (nn_ew_geom) and a row function that processes one innermost run
 * of elements; nn_ew_run walks the outer dimensions (in parallel for large
 * tensors) and calls the row function once per run, so the per-element loops
 * contain no calls or switches. Inside a row each input either advances
 * (stride 1) or stays on one element (stride 0, broadcast).
 */
#ifndef NN_KERNELS_ELEMENTWISE_H
#define NN_KERNELS_ELEMENTWISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Dims of a geometry after merging: each is at least 2 and their product
 * is an element count, so any tensor rank fits. */
#define NN_EW_MAX_RANK 64

typedef struct nn_ew_geom {
    uint32_t rank;                   /* >= 1 after merging */
    size_t dims[NN_EW_MAX_RANK];
    size_t sa[NN_EW_MAX_RANK];       /* element strides of a; 0 where broadcast */
    size_t sb[NN_EW_MAX_RANK];
} nn_ew_geom;

/* Geometry of out = f(a, b) for numpy-broadcast-compatible shapes (checked
 * by the caller); dimensions that can be walked as one are merged. */
void nn_ew_geom_init(nn_ew_geom *g, uint32_t rank_a, const uint32_t *dims_a, uint32_t rank_b,
                     const uint32_t *dims_b);

/* Processes n elements; sa and sb are 0 or 1. */
typedef void (*nn_ew_row_fn)(const void *params, const void *a, const void *b, void *out,
                             size_t n, size_t sa, size_t sb);

/* Runs fn over the whole output; *_size are element sizes in bytes. */
void nn_ew_run(const nn_ew_geom *g, nn_ew_row_fn fn, const void *params, const void *a,
               size_t a_size, const void *b, size_t b_size, void *out, size_t out_size);

typedef enum nn_ew_arith {
    NN_EW_ADD,
    NN_EW_SUB,
    NN_EW_MUL,
    NN_EW_DIV,
    NN_EW_MAX,
    NN_EW_MIN,
    NN_EW_POW,
    NN_EW_PRELU, /* a = x, b = alpha */
} nn_ew_arith;

/* Float rows: params is nn_ew_fparams (result clamped to [lo, hi]). */
typedef struct nn_ew_fparams {
    float lo, hi;
} nn_ew_fparams;
nn_ew_row_fn nn_ew_f32_row(nn_ew_arith op);

/* FLOAT16 rows compute through float32 with the float row f32. */
typedef struct nn_ew_f16params {
    nn_ew_row_fn f32;
    nn_ew_fparams f;
} nn_ew_f16params;
nn_ew_row_fn nn_ew_f16_row(void);

/* INT32 rows (ADD, SUB, MUL, DIV, MAX, MIN); params unused. DIV floors and
 * gives 0 for a zero divisor; overflow wraps. */
nn_ew_row_fn nn_ew_i32_row(nn_ew_arith op);

/* Quant8 rows (ADD, SUB, MUL, MAX, MIN, PRELU), integer only. */
typedef struct nn_ew_qparams {
    int32_t za, zb, zo;              /* zero points */
    int32_t ma, mb, mo;              /* Q31 multipliers */
    int sha, shb, sho;               /* their shifts */
    int32_t lo, hi;                  /* clamp range of the result */
} nn_ew_qparams;
/* Fills p for op from the operands' scales and zero points. */
void nn_ew_qparams_init(nn_ew_qparams *p, nn_ew_arith op, float sa, int32_t za, float sb,
                        int32_t zb, float so, int32_t zo, int32_t lo, int32_t hi);
/* The row at the ISA in use: a vector row where there is one, else the
 * portable row. */
nn_ew_row_fn nn_ew_q8_row(nn_ew_arith op, bool is_signed);
/* The portable rows, and the vector ones equal to them bit for bit (ADD,
 * SUB and MUL on x86-64; NULL for the other operations and ISAs). */
nn_ew_row_fn nn_ew_q8_row_c(nn_ew_arith op, bool is_signed);
nn_ew_row_fn nn_ew_q8_vector_row(nn_ew_arith op, bool is_signed);
nn_ew_row_fn nn_ew_q8_row_avx2(nn_ew_arith op, bool is_signed);
nn_ew_row_fn nn_ew_q8_row_avx512(nn_ew_arith op, bool is_signed);
/* ADD and SUB scale their inputs by 2^NN_EW_QADD_LEFT_SHIFT first (as TFLite). */
#define NN_EW_QADD_LEFT_SHIFT 20

/* A quant8 operand holds one of 256 bytes, so a binary quant8 operation is
 * fully described by a 64 KiB table: entry a_byte * 256 + b_byte is the
 * result byte, the one the row function of op gives. The table row
 * (params = the table) then costs one load per element. */
#define NN_EW_PAIR_TABLE_SIZE 65536
void nn_ew_q8_pair_table(nn_ew_arith op, bool is_signed, const nn_ew_qparams *p,
                         uint8_t *table);
nn_ew_row_fn nn_ew_q8_table_row(void);

/* Comparisons; output is bool8 (0/1). Quant8 compares real values. */
typedef enum nn_ew_cmp {
    NN_EW_EQ,
    NN_EW_NE,
    NN_EW_GT,
    NN_EW_GE,
    NN_EW_LT,
    NN_EW_LE,
    NN_EW_AND,                       /* bool8 only */
    NN_EW_OR,                        /* bool8 only */
} nn_ew_cmp;
typedef struct nn_ew_cmpparams {
    float sa, sb;
    int32_t za, zb;
} nn_ew_cmpparams;
/* type: an OperandCode (TENSOR_FLOAT32, FLOAT16, INT32, QUANT8_ASYMM(_SIGNED),
 * BOOL8); NULL for an unsupported pair. */
nn_ew_row_fn nn_ew_cmp_row(nn_ew_cmp op, int32_t type);

/* ---- unary (elementwise_unary.c) ---- */

typedef enum nn_ew_unary {
    NN_EW_ABS,
    NN_EW_EXP,
    NN_EW_LOG,
    NN_EW_NEG,
    NN_EW_RSQRT,
    NN_EW_SIN,
    NN_EW_SQRT,
    NN_EW_FLOOR,
    NN_EW_RELU,
    NN_EW_RELU1,
    NN_EW_RELU6,
    NN_EW_LOGISTIC,
    NN_EW_TANH,
    NN_EW_ELU,                       /* uses param (alpha) */
    NN_EW_HARD_SWISH,
    NN_EW_NOT,                       /* bool8 only */
} nn_ew_unary;

/* The real function of op at x (param = ELU's alpha). */
float nn_ew_unary_value(nn_ew_unary op, float x, float param);

/* out[i] = op(in[i]) for n elements, in parallel when large. */
void nn_ew_unary_f32(nn_ew_unary op, float param, const float *in, float *out, size_t n);
void nn_ew_unary_f16(nn_ew_unary op, float param, const uint16_t *in, uint16_t *out, size_t n);
/* ABS and NEG (wrapping at INT32_MIN). */
void nn_ew_unary_i32(nn_ew_unary op, const int32_t *in, int32_t *out, size_t n);
void nn_ew_not_bool8(const uint8_t *in, uint8_t *out, size_t n);

/* Table of the quant8 results of op for every input byte value: entry i is
 * for the input byte i (reinterpreted as int8 for the signed type). */
void nn_ew_unary_q8_table(nn_ew_unary op, float param, bool is_signed, float s_in, int32_t z_in,
                          float s_out, int32_t z_out, uint8_t table[256]);
/* Table mapping each quant8 byte of (s_in, z_in) to the same real value in
 * (s_out, z_out), integer only. */
void nn_ew_requant_q8_table(bool is_signed, float s_in, int32_t z_in, float s_out, int32_t z_out,
                            uint8_t table[256]);
/* out[i] = table[in[i]] on raw bytes. */
void nn_ew_lookup8(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);

/* out[i] = mask[i] ? x[i] : y[i] for elements of elem_size bytes (1, 2 or 4). */
void nn_ew_select(const uint8_t *mask, const void *x, const void *y, void *out, size_t n,
                  size_t elem_size);
/* Quant8 select, mapping x and y through their requantization tables. */
void nn_ew_select_q8(const uint8_t *mask, const uint8_t *x, const uint8_t tx[256],
                     const uint8_t *y, const uint8_t ty[256], uint8_t *out, size_t n);

/* ---- aarch64 Advanced SIMD (elementwise_neon.c) ----
 * Rows giving exactly the portable rows' floats, which nn_ew_f32_row and
 * nn_ew_unary_f32 take at the NEON levels (kernels/isa.h). */

/* NULL for an operation without a NEON row. */
nn_ew_row_fn nn_ew_f32_row_neon(nn_ew_arith op);
/* out[i] = op(in[i]) for ABS, NEG, RELU, RELU1, RELU6; false (nothing done)
 * for the others. */
bool nn_ew_unary_f32_neon(nn_ew_unary op, const float *in, float *out, size_t n);

#endif
