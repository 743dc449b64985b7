#include "kernels/lstm_q.h"

#include "kernels/quant.h"

/* Raw helpers. Wrapping add/sub as the reference's plain int16 operators. */
static int16_t wrap16(int32_t v)
{
    return (int16_t)(uint16_t)(uint32_t)v;
}

static int16_t add16(int16_t a, int16_t b)
{
    return wrap16((int32_t)a + b);
}

static int16_t sub16(int16_t a, int16_t b)
{
    return wrap16((int32_t)a - b);
}

static int16_t neg16(int16_t a)
{
    return wrap16(-(int32_t)a);
}

int16_t nn_q16_mul(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    int32_t ab = (int32_t)a * b;
    int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    return (int16_t)((ab + nudge) / (1 << 15));
}

int16_t nn_q16_sat_add(int16_t a, int16_t b)
{
    int32_t s = (int32_t)a + b;
    return (int16_t)(s > INT16_MAX ? INT16_MAX : (s < INT16_MIN ? INT16_MIN : s));
}

int16_t nn_q16_rdiv_pot(int16_t x, int e)
{
    if (e <= 0)
        return x;
    int32_t mask = (1 << e) - 1;
    int32_t rem = x & mask;
    int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (int16_t)((x >> e) + (rem > threshold ? 1 : 0));
}

/* x * 2^e with saturation (e > 0), or rounded division (e < 0). */
static int16_t mul_pot(int16_t x, int e)
{
    if (e < 0)
        return nn_q16_rdiv_pot(x, -e);
    if (e == 0)
        return x;
    int32_t threshold = (1 << (15 - e)) - 1;
    if (x > threshold)
        return INT16_MAX;
    if (x < -threshold)
        return INT16_MIN;
    return wrap16((int32_t)x * (1 << e));
}

/* A 32-bit reference constant scaled to 16 bits. */
static int16_t k16(int32_t v)
{
    int32_t mask = 0xffff;
    int32_t rem = v & mask;
    int32_t threshold = (mask >> 1) + (v < 0 ? 1 : 0);
    return (int16_t)((v >> 16) + (rem > threshold ? 1 : 0));
}

/* exp(a) for a in [-1/4, 0), 0 integer bits in and out. */
static int16_t exp_quarter(int16_t a)
{
    const int16_t constant_term = k16(1895147668);
    const int16_t one_third = k16(715827883);
    int16_t x = add16(a, (int16_t)(1 << 12));
    int16_t x2 = nn_q16_mul(x, x);
    int16_t x3 = nn_q16_mul(x2, x);
    int16_t x4 = nn_q16_mul(x2, x2);
    int16_t x4_4 = mul_pot(x4, -2);
    int16_t poly = mul_pot(add16(nn_q16_mul(add16(x4_4, x3), one_third), x2), -1);
    return nn_q16_sat_add(constant_term, nn_q16_mul(constant_term, add16(x, poly)));
}

/* exp(a) for a <= 0 with ib integer bits; result with 0 integer bits. */
static int16_t exp_negative(int16_t a, int ib)
{
    int frac = 15 - ib;
    int16_t quarter = (int16_t)(1 << (frac - 2));
    int16_t mask = (int16_t)(quarter - 1);
    int16_t a_mod = sub16((int16_t)(a & mask), quarter);
    int16_t result = exp_quarter(mul_pot(a_mod, ib));
    int16_t remainder = sub16(a_mod, a);
    static const int32_t mults[7] = {1672461947, 1302514674, 790015084, 290630308,
                                     39332535,   720401,     242};
    for (int e = -2; e <= 4; e++) {
        if (ib > e) {
            int shift = frac + e;
            if (shift >= 0 && shift < 16 && (remainder & (1 << shift)))
                result = nn_q16_mul(result, k16(mults[e + 2]));
        }
    }
    if (ib > 5) {
        int32_t clamp = -(1 << (36 - ib));
        if (a < k16(clamp))
            result = 0;
    }
    return a == 0 ? INT16_MAX : result;
}

/* The Newton-Raphson reciprocal loop shared by the two divisions below:
 * returns x ≈ 1 / half_denominator with 2 integer bits. */
static int16_t reciprocal_f2(int16_t half_den)
{
    const int16_t c48_17 = k16(1515870810), cm32_17 = k16(-1010580540);
    const int16_t one_f2 = (int16_t)(1 << 13);
    int16_t x = add16(c48_17, nn_q16_mul(half_den, cm32_17));
    for (int i = 0; i < 3; i++) {
        int16_t hx = nn_q16_mul(half_den, x);
        int16_t one_minus = sub16(one_f2, hx);
        x = add16(x, mul_pot(nn_q16_mul(x, one_minus), 2));
    }
    return x;
}

static int16_t half_sum_with_one(int16_t a)
{
    int32_t sum = (int32_t)a + INT16_MAX;
    int32_t sign = sum >= 0 ? 1 : -1;
    return (int16_t)((sum + sign) / 2);
}

/* 1 / (1 + a) for a in (0, 1). */
static int16_t one_over_one_plus(int16_t a)
{
    int16_t x = reciprocal_f2(half_sum_with_one(a));
    /* x / 2 exactly (1 integer bit), then back to 0 integer bits. */
    return mul_pot(x, 1);
}

/* (1 - a) / (1 + a) for a in (0, 1). */
static int16_t one_minus_over_one_plus(int16_t a)
{
    int16_t x = reciprocal_f2(half_sum_with_one(a));
    return mul_pot(sub16(x, (int16_t)(1 << 13)), 2);
}

int16_t nn_q16_logistic(int16_t a, int ib)
{
    if (a == 0)
        return (int16_t)k16(1 << 30);
    int16_t abs_a = a > 0 ? a : neg16(a);
    int16_t pos = one_over_one_plus(exp_negative(neg16(abs_a), ib));
    return a > 0 ? pos : sub16(INT16_MAX, pos);
}

int16_t nn_q16_tanh(int16_t a, int ib)
{
    if (a == 0)
        return 0;
    int16_t n = a < 0 ? a : neg16(a);
    /* exp(2n): the same raw read with one more integer bit. */
    int16_t t = one_minus_over_one_plus(exp_negative(n, ib + 1));
    return a < 0 ? neg16(t) : t;
}

/* ---- 32-bit fixed point for the inverse square root ---- */

static int32_t shl32_sat(int32_t x, int e)
{
    int32_t threshold = (int32_t)(((int64_t)1 << (31 - e)) - 1);
    if (x > threshold)
        return INT32_MAX;
    if (x < -threshold)
        return INT32_MIN;
    return (int32_t)((uint32_t)x << e);
}

void nn_q_inv_sqrt(int32_t v, int32_t *mult, int *shift)
{
    if (v <= 1) {
        *mult = INT32_MAX;
        *shift = 0;
        return;
    }
    int sh = 11;
    while (v >= (1 << 29)) {
        v /= 4;
        sh++;
    }
    int lz = __builtin_clz((uint32_t)v);
    int pairs = (lz - 1) / 2 - 1;
    sh -= pairs;
    v <<= 2 * pairs;
    /* Values with 3 integer bits: raw r means r * 2^-28. */
    int32_t input = v >> 1;
    int32_t half_input = nn_rounding_shift_right(input, 1);
    const int32_t half_three = (1 << 28) + (1 << 27);
    int32_t x = 1 << 28;
    for (int i = 0; i < 5; i++) {
        int32_t x3 = shl32_sat(nn_srdhm(nn_srdhm(x, x), x), 6);
        uint32_t d = (uint32_t)nn_srdhm(half_three, x) - (uint32_t)nn_srdhm(half_input, x3);
        x = shl32_sat((int32_t)d, 3);
    }
    x = nn_srdhm(x, 1518500250);
    if (sh < 0) {
        x = (int32_t)((uint32_t)x << -sh);
        sh = 0;
    }
    *mult = x;
    *shift = -sh;
}
