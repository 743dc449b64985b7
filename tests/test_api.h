/*
 * Shared fixtures of the API contract tests (tests/test_api_*.c). They use the
 * public API only. The fixture is a one-operation ADD model:
 *   operand 0, 1: inputs (model inputs 0 and 1)
 *   operand 2:    INT32 activation, a constant
 *   operand 3:    output (model output 0)
 * Builders record a failed check and return NULL when the runtime refuses the
 * fixture, so the dependent tests are skipped rather than crashing.
 */
#ifndef NN_TEST_API_H
#define NN_TEST_API_H

#include <android/NeuralNetworks.h>

#include "test_util.h"

ANeuralNetworksOperandType nt_tensor(int32_t code, uint32_t rank, const uint32_t* dims,
                                     float scale, int32_t zero_point);
ANeuralNetworksOperandType nt_scalar(int32_t code);

/* The ADD fixture with inputs of type in and output of type out; finished
 * when finish is true. */
ANeuralNetworksModel* nt_add_model(const ANeuralNetworksOperandType* in,
                                   const ANeuralNetworksOperandType* out, int32_t act,
                                   bool finish);
/* Finished float32 ADD over [n] tensors, no activation. */
ANeuralNetworksModel* nt_add_model_f32(uint32_t n);

/* Compilation_create + finish, or createForDevices(the CPU device) + finish. */
ANeuralNetworksCompilation* nt_compile(ANeuralNetworksModel* model);
ANeuralNetworksCompilation* nt_compile_cpu(ANeuralNetworksModel* model);

/* The CPU device (the first device of type CPU), or NULL. */
const ANeuralNetworksDevice* nt_cpu_device(void);

/* Binds a, b and out (n floats each) to an execution of an f32 ADD fixture. */
bool nt_bind_f32(ANeuralNetworksExecution* execution, const float* a, const float* b, float* out,
                 uint32_t n);
/* A new execution of compilation with a, b, out bound, or NULL. */
ANeuralNetworksExecution* nt_execution_f32(ANeuralNetworksCompilation* compilation, const float* a,
                                           const float* b, float* out, uint32_t n);

/* Every out[i] == a[i] + b[i] (exact: the fixture values are small integers). */
bool nt_sum_ok(const float* a, const float* b, const float* out, uint32_t n);

/* A finished f32 ADD model over [n] and its finished compilation (made with
 * Compilation_create, or createForDevices(CPU) when for_cpu). */
typedef struct {
    ANeuralNetworksModel* model;
    ANeuralNetworksCompilation* compilation;
} nt_fixture;
bool nt_fixture_f32(nt_fixture* f, uint32_t n, bool for_cpu);
void nt_fixture_free(nt_fixture* f);

/* The four ways to run a computation. */
typedef enum { NT_SYNC, NT_ASYNC, NT_BURST, NT_FENCED } nt_mode;
#define NT_MODES 4
extern const char* const nt_mode_names[NT_MODES];

/* One computation of execution in the given mode (a burst is made from
 * compilation); returns the code of the start call if it failed, else the
 * code of the completion. */
int nt_run(ANeuralNetworksExecution* execution, ANeuralNetworksCompilation* compilation,
           nt_mode mode);

/* The API areas. */
void nt_test_model(void);
void nt_test_compilation(void);
void nt_test_device(void);
void nt_test_execution(void);
void nt_test_memory(void);
void nt_test_event(void);
void nt_test_threads(void);

#endif /* NN_TEST_API_H */
