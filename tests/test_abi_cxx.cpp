// The public header must be usable from C++: it compiles as C++, its
// declarations have C linkage (the calls below link against the C library),
// and the layouts match those the C test checks.
#include <android/NeuralNetworks.h>

#include <cstddef>
#include <cstdio>

static_assert(sizeof(ANeuralNetworksOperandType) == 24, "ANeuralNetworksOperandType size");
static_assert(offsetof(ANeuralNetworksOperandType, dimensions) == 8, "dimensions offset");
static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 20, "zeroPoint offset");
static_assert(sizeof(ANeuralNetworksSymmPerChannelQuantParams) == 16, "per-channel params size");
static_assert(ANEURALNETWORKS_RANK == 101, "RANK");
static_assert(ANEURALNETWORKS_REVERSE == 105, "REVERSE");
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_5 == 31, "FEATURE_LEVEL_5");
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_8 == 1000008, "FEATURE_LEVEL_8");

int main() {
    int passed = 0, failed = 0;
    (ANeuralNetworks_getRuntimeFeatureLevel() == ANEURALNETWORKS_FEATURE_LEVEL_8 ? passed : failed)++;
    (ANeuralNetworks_getDefaultLoopTimeout() == 2000000000ull ? passed : failed)++;
    ANeuralNetworksModel* model = nullptr;
    (ANeuralNetworksModel_create(&model) == ANEURALNETWORKS_NO_ERROR ? passed : failed)++;
    ANeuralNetworksModel_free(model);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
