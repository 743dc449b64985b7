/* ANeuralNetworksCompilation_*: creation, settings, finish and the
 * preferred-memory getters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_api.h"

static const uint32_t dims4[] = {4};

static void test_create(void) {
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims4, 0, 0);
    ANeuralNetworksModel* model = nt_add_model(&t, &t, 0, false);
    if (!model) return;
    ANeuralNetworksCompilation* c = NULL;
    CHECK_RC(ANeuralNetworksCompilation_create(NULL, &c), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_create(model, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    /* The model must be finished; the out-pointer is cleared on failure. */
    c = (ANeuralNetworksCompilation*)&c;
    CHECK_RC(ANeuralNetworksCompilation_create(model, &c), ANEURALNETWORKS_BAD_STATE);
    CHECK(c == NULL);
    const ANeuralNetworksDevice* cpu = nt_cpu_device();
    if (cpu) {
        c = (ANeuralNetworksCompilation*)&c;
        CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &c),
                 ANEURALNETWORKS_BAD_STATE);
        CHECK(c == NULL);
    }
    ANeuralNetworksCompilation_free(NULL);
    if (CHECK_OK(ANeuralNetworksModel_finish(model))) {
        /* Several compilations of one model, freed unfinished or finished. */
        ANeuralNetworksCompilation *c1 = NULL, *c2 = NULL;
        CHECK_OK(ANeuralNetworksCompilation_create(model, &c1));
        CHECK_OK(ANeuralNetworksCompilation_create(model, &c2));
        if (c2) CHECK_OK(ANeuralNetworksCompilation_finish(c2));
        ANeuralNetworksCompilation_free(c1);
        ANeuralNetworksCompilation_free(c2);
    }
    ANeuralNetworksModel_free(model);
}

static void test_create_for_devices(void) {
    ANeuralNetworksModel* model = nt_add_model_f32(4);
    const ANeuralNetworksDevice* cpu = nt_cpu_device();
    if (!model || !CHECK(cpu != NULL)) {
        ANeuralNetworksModel_free(model);
        return;
    }
    ANeuralNetworksCompilation* c = NULL;
    const ANeuralNetworksDevice* twice[2] = {cpu, cpu};
    const ANeuralNetworksDevice* with_null[2] = {cpu, NULL};
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(NULL, &cpu, 1, &c),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, NULL, 1, &c),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, &cpu, 0, &c),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, twice, 2, &c),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, with_null, 2, &c),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    if (CHECK_OK(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &c))) {
        CHECK_OK(ANeuralNetworksCompilation_finish(c));
        ANeuralNetworksCompilation_free(c);
    }
    ANeuralNetworksModel_free(model);
}

static void test_settings(void) {
    ANeuralNetworksModel* model = nt_add_model_f32(4);
    if (!model) return;
    ANeuralNetworksCompilation* c = NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_create(model, &c))) {
        ANeuralNetworksModel_free(model);
        return;
    }
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    memset(token, 7, sizeof(token));
    /* The finished compilation writes its cache entry here, not in /tmp. */
    char cache_dir[] = "/tmp/nn-api-compilation-XXXXXX";
    CHECK(mkdtemp(cache_dir) != NULL);

    CHECK_RC(ANeuralNetworksCompilation_setPreference(NULL, ANEURALNETWORKS_PREFER_LOW_POWER),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, 40), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, -1), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, 3), ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_LOW_POWER));
    CHECK_OK(ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED));
    CHECK_OK(ANeuralNetworksCompilation_setPreference(c,
                                                      ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER));

    CHECK_RC(ANeuralNetworksCompilation_setPriority(NULL, ANEURALNETWORKS_PRIORITY_DEFAULT),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, 0), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, 95), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, -100), ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_LOW));
    CHECK_OK(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_HIGH));
    CHECK_OK(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_MEDIUM));

    CHECK_RC(ANeuralNetworksCompilation_setCaching(NULL, "/tmp", token),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setCaching(c, NULL, token),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setCaching(c, "/tmp", NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_OK(ANeuralNetworksCompilation_setCaching(c, cache_dir, token));

    /* Timeouts need a compilation for exactly one device. */
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(NULL, 1000000000),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 1000000000), ANEURALNETWORKS_BAD_DATA);

    /* The refusals left the compilation usable. */
    CHECK_RC(ANeuralNetworksCompilation_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_LOW_POWER),
             ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_DEFAULT),
             ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setCaching(c, "/tmp", token), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 1000000000), ANEURALNETWORKS_BAD_STATE);

    float out[4];
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    ANeuralNetworksExecution* e = nt_execution_f32(c, a, b, out, 4);
    if (e && CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(a, b, out, 4));
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    char entry[sizeof cache_dir + 2 * sizeof token + 32];
    int n = snprintf(entry, sizeof entry, "%s/nnapi-linux-", cache_dir);
    for (size_t i = 0; i < sizeof token; i++)
        n += snprintf(entry + n, sizeof entry - (size_t)n, "%02x", token[i]);
    snprintf(entry + n, sizeof entry - (size_t)n, ".cache");
    CHECK(unlink(entry) == 0); /* the entry was written under the token's name */
    CHECK(rmdir(cache_dir) == 0);

    /* On a single-device compilation the timeout is accepted, including the
     * extremes (0 = infinite). */
    const ANeuralNetworksDevice* cpu = nt_cpu_device();
    if (cpu && CHECK_OK(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &c))) {
        CHECK_OK(ANeuralNetworksCompilation_setTimeout(c, 0));
        CHECK_OK(ANeuralNetworksCompilation_setTimeout(c, UINT64_MAX));
        CHECK_OK(ANeuralNetworksCompilation_finish(c));
        CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 1000), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksCompilation_free(c);
    }
    if (cpu && CHECK_OK(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &c))) {
        CHECK_OK(ANeuralNetworksCompilation_setTimeout(c, 1000000000));
        const int rc = ANeuralNetworksCompilation_finish(c);
        CHECK(rc == ANEURALNETWORKS_NO_ERROR || rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT);
        ANeuralNetworksCompilation_free(c);
    }
    ANeuralNetworksModel_free(model);
}

typedef int (*preferred_getter)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*);

static void test_preferred_memory(void) {
    static const struct {
        preferred_getter get;
        uint32_t count; /* inputs or outputs of the fixture */
        const char* name;
    } getters[] = {
            {ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput, 2, "alignment in"},
            {ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput, 2, "padding in"},
            {ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput, 1, "alignment out"},
            {ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput, 1, "padding out"},
    };
    ANeuralNetworksModel* model = nt_add_model_f32(4);
    if (!model) return;
    ANeuralNetworksCompilation* c = NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_create(model, &c))) {
        ANeuralNetworksModel_free(model);
        return;
    }
    for (size_t i = 0; i < sizeof(getters) / sizeof(getters[0]); i++) {
        uint32_t v = 0;
        const int failed_before = nt_failed;
        CHECK_RC(getters[i].get(c, 0, &v), ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(getters[i].get(NULL, 0, &v), ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(getters[i].get(c, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        if (nt_failed != failed_before) fprintf(stderr, "    (%s)\n", getters[i].name);
    }
    if (CHECK_OK(ANeuralNetworksCompilation_finish(c))) {
        for (size_t i = 0; i < sizeof(getters) / sizeof(getters[0]); i++) {
            const int failed_before = nt_failed;
            for (uint32_t index = 0; index < getters[i].count; index++) {
                uint32_t v = 0;
                CHECK_OK(getters[i].get(c, index, &v));
                /* A power of two. */
                CHECK(v != 0 && (v & (v - 1)) == 0);
            }
            uint32_t v = 0;
            CHECK_RC(getters[i].get(c, getters[i].count, &v), ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(getters[i].get(c, UINT32_MAX, &v), ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(getters[i].get(NULL, 0, &v), ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(getters[i].get(c, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
            if (nt_failed != failed_before) fprintf(stderr, "    (%s)\n", getters[i].name);
        }
    }
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(model);
}

void nt_test_compilation(void) {
    test_create();
    test_create_for_devices();
    test_settings();
    test_preferred_memory();
}
