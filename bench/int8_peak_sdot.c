/* bench_int8_peak's SDOT chains, compiled for Armv8.2 DotProd (called only
 * when the CPU reports ASIMDDP). accs and inner must be 12 and 20: the
 * accumulators are named, so that they stay in registers. */
#include <arm_neon.h>
#include <stdint.h>

int32_t nn_bench_sdot_loop(long iters, int32_t seed, int accs, int inner);

int32_t nn_bench_sdot_loop(long iters, int32_t seed, int accs, int inner)
{
    if (accs != 12 || inner != 20)
        return 0;
    int8x16_t a = vreinterpretq_s8_s32(vdupq_n_s32(seed));
    int8x16_t b = vreinterpretq_s8_s32(vdupq_n_s32(seed * 3 + 1));
#define ACC_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define DECL(i) int32x4_t acc##i = vdupq_n_s32(i);
    ACC_LIST(DECL)
#undef DECL
    for (long it = 0; it < iters; it++) {
        for (int r = 0; r < 20; r++) {
#define STEP(i) acc##i = vdotq_s32(acc##i, a, b);
            ACC_LIST(STEP)
#undef STEP
        }
        __asm__ volatile("" : "+w"(a));
    }
    int32x4_t s = vdupq_n_s32(0);
#define SUM(i) s = vaddq_s32(s, acc##i);
    ACC_LIST(SUM)
#undef SUM
    return vaddvq_s32(s);
}
