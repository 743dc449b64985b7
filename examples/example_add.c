/*
 * The smallest complete NNAPI program: build a model that adds two float
 * tensors and applies ReLU, compile it, run it and print the result.
 */
#include <stdio.h>

#include <android/NeuralNetworks.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != ANEURALNETWORKS_NO_ERROR) {                               \
            fprintf(stderr, "%s failed: result code %d\n", #call, rc_);     \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(void)
{
    uint32_t dims[2] = {2, 3};
    ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 0.0f, 0};
    ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};

    ANeuralNetworksModel *model = NULL;
    CHECK(ANeuralNetworksModel_create(&model));
    CHECK(ANeuralNetworksModel_addOperand(model, &tensor)); /* 0: a */
    CHECK(ANeuralNetworksModel_addOperand(model, &tensor)); /* 1: b */
    CHECK(ANeuralNetworksModel_addOperand(model, &scalar)); /* 2: activation */
    CHECK(ANeuralNetworksModel_addOperand(model, &tensor)); /* 3: sum */
    int32_t relu = ANEURALNETWORKS_FUSED_RELU;
    CHECK(ANeuralNetworksModel_setOperandValue(model, 2, &relu, sizeof relu));
    uint32_t add_in[3] = {0, 1, 2}, add_out[1] = {3};
    CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, add_in, 1, add_out));
    uint32_t model_in[2] = {0, 1}, model_out[1] = {3};
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, model_in, 1, model_out));
    CHECK(ANeuralNetworksModel_finish(model));

    ANeuralNetworksCompilation *compilation = NULL;
    CHECK(ANeuralNetworksCompilation_create(model, &compilation));
    CHECK(ANeuralNetworksCompilation_finish(compilation));

    float a[6] = {1, 2, 3, 4, 5, 6};
    float b[6] = {0.5f, -4, 0.25f, -1, 10, -7};
    float sum[6] = {0};
    ANeuralNetworksExecution *execution = NULL;
    CHECK(ANeuralNetworksExecution_create(compilation, &execution));
    CHECK(ANeuralNetworksExecution_setInput(execution, 0, NULL, a, sizeof a));
    CHECK(ANeuralNetworksExecution_setInput(execution, 1, NULL, b, sizeof b));
    CHECK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, sum, sizeof sum));
    CHECK(ANeuralNetworksExecution_compute(execution));

    printf("relu(a + b) =");
    for (int i = 0; i < 6; i++)
        printf(" %g", sum[i]);
    printf("\n");

    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
    return 0;
}
