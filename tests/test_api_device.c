/* Devices, runtime-wide getters and getSupportedOperationsForDevices. */
#include <string.h>

#include "test_api.h"

static void test_runtime_getters(void) {
    CHECK_EQ_INT(ANeuralNetworks_getRuntimeFeatureLevel(), ANEURALNETWORKS_FEATURE_LEVEL_8);
    CHECK(ANeuralNetworks_getDefaultLoopTimeout() == 2000000000ull);
    CHECK(ANeuralNetworks_getMaximumLoopTimeout() == 15000000000ull);
}

static void test_device_queries(void) {
    uint32_t count = 0;
    CHECK_RC(ANeuralNetworks_getDeviceCount(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_OK(ANeuralNetworks_getDeviceCount(&count));
    CHECK(count >= 1);

    ANeuralNetworksDevice* device = NULL;
    CHECK_RC(ANeuralNetworks_getDevice(0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworks_getDevice(count, &device), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworks_getDevice(UINT32_MAX, &device), ANEURALNETWORKS_BAD_DATA);

    int cpu_devices = 0;
    for (uint32_t i = 0; i < count; i++) {
        ANeuralNetworksDevice *d = NULL, *again = NULL;
        if (!CHECK_OK(ANeuralNetworks_getDevice(i, &d)) || !CHECK(d != NULL)) continue;
        /* The same representation is always returned for a device. */
        CHECK_OK(ANeuralNetworks_getDevice(i, &again));
        CHECK(again == d);

        const char* name = NULL;
        const char* version = NULL;
        int32_t type = -1;
        int64_t level = -1;
        CHECK_OK(ANeuralNetworksDevice_getName(d, &name));
        CHECK_OK(ANeuralNetworksDevice_getVersion(d, &version));
        CHECK_OK(ANeuralNetworksDevice_getType(d, &type));
        CHECK_OK(ANeuralNetworksDevice_getFeatureLevel(d, &level));
        CHECK_OK(ANeuralNetworksDevice_wait(d));
        CHECK(name != NULL && name[0] != '\0');
        CHECK(version != NULL && version[0] != '\0');
        /* FL3+ devices are named {VENDOR}-{DEVICE}; the Android reference
         * driver's name belongs to Android. */
        if (name) {
            CHECK(strchr(name, '-') != NULL);
            CHECK(strcmp(name, "nnapi-reference") != 0);
        }
        CHECK(type >= ANEURALNETWORKS_DEVICE_UNKNOWN && type <= ANEURALNETWORKS_DEVICE_ACCELERATOR);
        /* A device's level never exceeds the runtime's. */
        CHECK(level >= ANEURALNETWORKS_FEATURE_LEVEL_1 &&
              level <= ANeuralNetworks_getRuntimeFeatureLevel());
        if (type == ANEURALNETWORKS_DEVICE_CPU) {
            cpu_devices++;
            CHECK_EQ_INT(level, ANEURALNETWORKS_FEATURE_LEVEL_8);
        }
        /* Names are unique. */
        for (uint32_t j = 0; j < i && name; j++) {
            ANeuralNetworksDevice* other = NULL;
            const char* other_name = NULL;
            if (ANeuralNetworks_getDevice(j, &other) == ANEURALNETWORKS_NO_ERROR &&
                ANeuralNetworksDevice_getName(other, &other_name) == ANEURALNETWORKS_NO_ERROR &&
                other_name)
                CHECK(strcmp(name, other_name) != 0);
        }

        CHECK_RC(ANeuralNetworksDevice_getName(d, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksDevice_getVersion(d, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksDevice_getType(d, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksDevice_getFeatureLevel(d, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    }
    CHECK(cpu_devices >= 1);

    const char* s = NULL;
    int32_t type = 0;
    int64_t level = 0;
    CHECK_RC(ANeuralNetworksDevice_getName(NULL, &s), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getVersion(NULL, &s), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getType(NULL, &type), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getFeatureLevel(NULL, &level), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_wait(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
}

static void test_supported_operations(void) {
    const ANeuralNetworksDevice* cpu = nt_cpu_device();
    if (!CHECK(cpu != NULL)) return;
    bool supported[4] = {false, false, false, false};

    /* An unfinished model cannot be queried. */
    const uint32_t dims[] = {2};
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
    ANeuralNetworksModel* unfinished = nt_add_model(&t, &t, 0, false);
    if (unfinished) {
        CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(unfinished, &cpu, 1,
                                                                       supported),
                 ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksModel_free(unfinished);
    }

    ANeuralNetworksModel* model = nt_add_model_f32(2);
    if (!model) return;
    const ANeuralNetworksDevice* twice[2] = {cpu, cpu};
    const ANeuralNetworksDevice* with_null[2] = {cpu, NULL};
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(NULL, &cpu, 1, supported),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(model, NULL, 1, supported),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(model, &cpu, 1, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(model, &cpu, 0, supported),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(model, twice, 2, supported),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(model, with_null, 2, supported),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    /* Only one entry per operation is written. */
    supported[1] = false;
    CHECK_OK(ANeuralNetworksModel_getSupportedOperationsForDevices(model, &cpu, 1, supported));
    CHECK(supported[0] == true);
    CHECK(supported[1] == false);
    ANeuralNetworksModel_free(model);
}

void nt_test_device(void) {
    test_runtime_getters();
    test_device_queries();
    test_supported_operations();
}
