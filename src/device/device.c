/* The device registry: the devices of the SL drivers loaded at the first
 * call that needs devices, then the CPU device, which runs every registered
 * operation. */
#include <stdlib.h>

#include "runtime.h"

static int cpu_supports(const ANeuralNetworksModel *model, uint32_t op_index, bool *supported)
{
    const nn_operation *op = &model->operations[op_index];
    const nn_op_def *def = nn_op_lookup(op->type);
    *supported = false;
    if (def == NULL || def->execute == NULL)
        return ANEURALNETWORKS_NO_ERROR;
    /* Like Android's CPU driver: supported when it validates, even if a
     * value it checks only at execution will make the computation fail. */
    int rc = nn_validate_operation(model, op, NULL);
    *supported = rc == ANEURALNETWORKS_NO_ERROR;
    return rc == ANEURALNETWORKS_OUT_OF_MEMORY ? rc : ANEURALNETWORKS_NO_ERROR;
}

static const nn_driver cpu_driver = {.supports = cpu_supports};

/* sl and sl_device are set once, by init_devices. */
static ANeuralNetworksDevice cpu_device = {
    .name = "nnapi_linux-cpu",
    .version = "0.1.0",
    .type = ANEURALNETWORKS_DEVICE_CPU,
    .feature_level = NN_RUNTIME_FEATURE_LEVEL,
    .driver = &cpu_driver,
};

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;
/* Written once under devices_once, read-only afterwards. */
static ANeuralNetworksDevice **devices;
static uint32_t n_devices;
static ANeuralNetworksDevice *cpu_only[1] = {&cpu_device};

static void init_devices(void)
{
    cpu_device.sl = &nn_cpu_sl_table()->base;
    cpu_device.sl_device = &cpu_device;
    ANeuralNetworksDevice **loaded = NULL;
    uint32_t n = nn_load_driver_devices(&loaded);
    ANeuralNetworksDevice **all = n ? realloc(loaded, (n + 1) * sizeof *all) : NULL;
    if (all == NULL) {
        if (n)
            nn_vlog("devices: out of memory; the %u driver devices are left out", n);
        free(loaded);
        devices = cpu_only;
        n_devices = 1;
        return;
    }
    all[n] = &cpu_device;
    devices = all;
    n_devices = n + 1;
}

uint32_t nn_device_count(void)
{
    pthread_once(&devices_once, init_devices);
    return n_devices;
}

const ANeuralNetworksDevice *nn_device_at(uint32_t i)
{
    return i < nn_device_count() ? devices[i] : NULL;
}

const char *nn_cpu_device_name(void)
{
    return cpu_device.name;
}

const ANeuralNetworksDevice *nn_cpu_device(void)
{
    pthread_once(&devices_once, init_devices);
    return &cpu_device;
}

bool nn_device_is_valid(const ANeuralNetworksDevice *d)
{
    for (uint32_t i = 0; i < nn_device_count(); i++)
        if (d == devices[i])
            return true;
    return false;
}

int nn_check_device_list(const ANeuralNetworksDevice *const *devices, uint32_t n)
{
    if (n == 0)
        return nn_invalid("the device list is empty");
    for (uint32_t d = 0; d < n; d++) {
        if (devices[d] == NULL)
            return nn_because(ANEURALNETWORKS_UNEXPECTED_NULL, "device %u is NULL", d);
        if (!nn_device_is_valid(devices[d]))
            return nn_invalid("device %u is not a device", d);
        for (uint32_t e = 0; e < d; e++)
            if (devices[e] == devices[d])
                return nn_invalid("device %u is listed twice", d);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworks_getDeviceCount(uint32_t *numDevices)
{
    if (numDevices == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "getDeviceCount: numDevices is NULL");
    *numDevices = nn_device_count();
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice **device)
{
    if (device == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "getDevice: device is NULL");
    if (devIndex >= nn_device_count()) {
        *device = NULL;
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "getDevice: index %u of %u devices", devIndex,
                       nn_device_count());
    }
    /* The public API hands out non-const pointers to immutable devices. */
    *device = devices[devIndex];
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice *device, const char **name)
{
    if (device == NULL || name == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Device_getName: an argument is NULL");
    if (!nn_device_is_valid(device))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Device_getName: not a device");
    *name = device->name;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice *device, int32_t *type)
{
    if (device == NULL || type == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Device_getType: an argument is NULL");
    if (!nn_device_is_valid(device))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Device_getType: not a device");
    *type = device->type;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice *device,
                                            const char **version)
{
    if (device == NULL || version == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Device_getVersion: an argument is NULL");
    if (!nn_device_is_valid(device))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Device_getVersion: not a device");
    *version = device->version;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice *device,
                                                 int64_t *featureLevel)
{
    if (device == NULL || featureLevel == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Device_getFeatureLevel: an argument is NULL");
    if (!nn_device_is_valid(device))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Device_getFeatureLevel: not a device");
    *featureLevel = device->feature_level;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice *device)
{
    if (device == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Device_wait: device is NULL");
    if (!nn_device_is_valid(device))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Device_wait: not a device");
    /* The CPU device never enters a dead state; a driver's may. */
    if (device->sl_device == device)
        return ANEURALNETWORKS_NO_ERROR;
    return nn_fail(device->sl->ANeuralNetworksDevice_wait(device->sl_device), "Device_wait(%s)",
                   device->name);
}

NN_API int64_t ANeuralNetworks_getRuntimeFeatureLevel(void)
{
    return NN_RUNTIME_FEATURE_LEVEL;
}

NN_API uint64_t ANeuralNetworks_getDefaultLoopTimeout(void)
{
    return NN_DEFAULT_LOOP_TIMEOUT_NS;
}

NN_API uint64_t ANeuralNetworks_getMaximumLoopTimeout(void)
{
    return NN_MAX_LOOP_TIMEOUT_NS;
}
