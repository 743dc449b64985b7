/* ANeuralNetworksCompilation and ANeuralNetworksBurst. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "exec/profile.h"

static int create_compilation(ANeuralNetworksModel *model, const ANeuralNetworksDevice *device,
                              bool explicit_single, ANeuralNetworksCompilation **out)
{
    if (!model->finished)
        return ANEURALNETWORKS_BAD_STATE;
    ANeuralNetworksCompilation *c = calloc(1, sizeof *c);
    if (c == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    c->model = model;
    c->device = device;
    c->explicit_single_device = explicit_single;
    c->preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
    c->priority = ANEURALNETWORKS_PRIORITY_DEFAULT;
    *out = c;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_create(ANeuralNetworksModel *model,
                                             ANeuralNetworksCompilation **compilation)
{
    if (compilation == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *compilation = NULL;
    if (model == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    return create_compilation(model, nn_device_at(0), false, compilation);
}

NN_API int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel *model,
                                                       const ANeuralNetworksDevice *const *devices,
                                                       uint32_t numDevices,
                                                       ANeuralNetworksCompilation **compilation)
{
    if (compilation == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *compilation = NULL;
    if (model == NULL || devices == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = nn_check_device_list(devices, numDevices);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    return create_compilation(model, devices[0], numDevices == 1, compilation);
}

NN_API void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation *c)
{
    if (c == NULL)
        return;
    nn_profile_flush();
    nn_plan_free(c->plan);
    free(c->cache_dir);
    free(c);
}

NN_API int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation *c,
                                                    int32_t preference)
{
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    if (preference < ANEURALNETWORKS_PREFER_LOW_POWER ||
        preference > ANEURALNETWORKS_PREFER_SUSTAINED_SPEED)
        return ANEURALNETWORKS_BAD_DATA;
    c->preference = preference;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation *c, int priority)
{
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    if (priority != ANEURALNETWORKS_PRIORITY_LOW && priority != ANEURALNETWORKS_PRIORITY_MEDIUM &&
        priority != ANEURALNETWORKS_PRIORITY_HIGH)
        return ANEURALNETWORKS_BAD_DATA;
    c->priority = priority;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation *c, uint64_t duration)
{
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    if (!c->explicit_single_device)
        return ANEURALNETWORKS_BAD_DATA;
    c->timeout_ns = duration;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation *c,
                                                 const char *cacheDir, const uint8_t *token)
{
    if (c == NULL || cacheDir == NULL || token == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    char *dir = strdup(cacheDir);
    if (dir == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    free(c->cache_dir);
    c->cache_dir = dir;
    memcpy(c->cache_token, token, sizeof c->cache_token);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation *c)
{
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    uint64_t start = nn_now_ns();
    nn_profile_init(); /* before any execution of it can run */
    int rc = nn_plan_build(c->model, &c->plan);
    if (rc == ANEURALNETWORKS_NO_ERROR && c->timeout_ns && nn_now_ns() - start > c->timeout_ns) {
        nn_plan_free(c->plan);
        c->plan = NULL;
        rc = ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    }
    /* A compilation is finished even when it failed: it can only be freed. */
    c->finished = true;
    return rc;
}

static int check_io_query(const ANeuralNetworksCompilation *c, uint32_t index, bool input,
                          const void *out)
{
    if (c == NULL || out == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!c->finished || c->plan == NULL)
        return ANEURALNETWORKS_BAD_STATE;
    if (index >= (input ? c->model->n_inputs : c->model->n_outputs))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *alignment)
{
    int rc = check_io_query(c, index, true, alignment);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *alignment = NN_PREFERRED_ALIGNMENT;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *padding)
{
    int rc = check_io_query(c, index, true, padding);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *padding = NN_PREFERRED_PADDING;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *alignment)
{
    int rc = check_io_query(c, index, false, alignment);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *alignment = NN_PREFERRED_ALIGNMENT;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *padding)
{
    int rc = check_io_query(c, index, false, padding);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *padding = NN_PREFERRED_PADDING;
    return rc;
}

NN_API int ANeuralNetworksBurst_create(ANeuralNetworksCompilation *c, ANeuralNetworksBurst **burst)
{
    if (burst == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *burst = NULL;
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!c->finished || c->plan == NULL)
        return ANEURALNETWORKS_BAD_STATE;
    ANeuralNetworksBurst *b = calloc(1, sizeof *b);
    if (b == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    b->compilation = c;
    pthread_mutex_init(&b->lock, NULL);
    *burst = b;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API void ANeuralNetworksBurst_free(ANeuralNetworksBurst *b)
{
    if (b == NULL)
        return;
    pthread_mutex_destroy(&b->lock);
    free(b);
}
