/*
 * Per-operation profile (NNAPI_LINUX_PROFILE=FILE): every executed step's
 * wall time, operation and run-time shapes, written to FILE as Chrome trace
 * events (load it in Perfetto or chrome://tracing) when a compilation is
 * freed and at exit. Off, the executor pays one relaxed load per step.
 */
#ifndef NN_EXEC_PROFILE_H
#define NN_EXEC_PROFILE_H

#include <stdatomic.h>
#include <stdint.h>

#include "runtime.h"

/* Written once, by nn_profile_init under pthread_once. */
extern atomic_int nn_profile_flag;

static inline int nn_profile_on(void)
{
    return atomic_load_explicit(&nn_profile_flag, memory_order_relaxed);
}

/* Reads NNAPI_LINUX_PROFILE (once per process). */
void nn_profile_init(void);
/* Records a step of sp that ran from t0 to now; tensors are the run's. */
void nn_profile_step(const nn_subplan *sp, const nn_step *step, const nn_tensor *tensors, uint32_t depth,
                     uint64_t t0);
/* Writes every event recorded so far to the profile file. */
void nn_profile_flush(void);

#endif
