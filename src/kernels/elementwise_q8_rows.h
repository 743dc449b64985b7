/*
 * What the quant8 ADD, SUB and MUL rows of every vector level share: the
 * choice of the row variant by which operand advances, and the table of
 * the six rows. Included last by elementwise_q8_<isa>.c, which defines
 * q8_lanes, lanes_of, splat (one int32 in every lane) and row for its
 * vectors, with Q8_ROW_TABLE set to the name of its table function.
 */
#include "kernels/elementwise.h"

static inline __attribute__((always_inline)) void rows(const nn_ew_arith OP, const bool SGN,
                                                       const void *p, const void *a, const void *b,
                                                       void *o, size_t n, size_t sa, size_t sb)
{
    const nn_ew_qparams *q = p;
    if (n == 0)
        return;
    q8_lanes L = {.a = lanes_of(q->ma, q->sha), .b = lanes_of(q->mb, q->shb),
                  .o = lanes_of(q->mo, q->sho), .za = splat(q->za), .zb = splat(q->zb),
                  .zo = splat(q->zo), .lo = splat(q->lo), .hi = splat(q->hi)};
    if (sa && sb)
        row(OP, SGN, true, true, &L, a, b, o, n);
    else if (sa)
        row(OP, SGN, true, false, &L, a, b, o, n);
    else if (sb)
        row(OP, SGN, false, true, &L, a, b, o, n);
    else
        row(OP, SGN, false, false, &L, a, b, o, n);
}

#define ROWS(NAME, OP, SGN)                                                                    \
    static void NAME(const void *p, const void *a, const void *b, void *o, size_t n, size_t sa, \
                     size_t sb)                                                                \
    {                                                                                          \
        rows(OP, SGN, p, a, b, o, n, sa, sb);                                                  \
    }
ROWS(add_s8, NN_EW_ADD, true)
ROWS(add_u8, NN_EW_ADD, false)
ROWS(sub_s8, NN_EW_SUB, true)
ROWS(sub_u8, NN_EW_SUB, false)
ROWS(mul_s8, NN_EW_MUL, true)
ROWS(mul_u8, NN_EW_MUL, false)
#undef ROWS

nn_ew_row_fn Q8_ROW_TABLE(nn_ew_arith op, bool is_signed)
{
    switch (op) {
    case NN_EW_ADD:
        return is_signed ? add_s8 : add_u8;
    case NN_EW_SUB:
        return is_signed ? sub_s8 : sub_u8;
    case NN_EW_MUL:
        return is_signed ? mul_s8 : mul_u8;
    default:
        return NULL;
    }
}
