/*
 * Loading NNAPI Support Library drivers. NNAPI_LINUX_DRIVERS names driver
 * libraries (paths separated by ':'); every *.conf file of the drivers
 * directory (NNAPI_LINUX_DRIVERS_DIR, default /etc/nnapi-linux/drivers.d)
 * names one per line ('#' starts a comment). A driver that cannot be used is
 * skipped with one VLOG line saying why; the CPU device is always there.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define NN_DEFAULT_DRIVERS_DIR "/etc/nnapi-linux/drivers.d"

typedef struct device_list {
    ANeuralNetworksDevice **items;
    uint32_t n;
    void **handles; /* libraries already loaded, to skip a second mention */
    uint32_t n_handles;
} device_list;

/* The functions the runtime calls on a driver; a table lacking one is refused. */
#define REQUIRED(name) {offsetof(NnApiSLDriverImplFL5, name), #name}
static const struct {
    size_t offset;
    const char *name;
} required[] = {
        REQUIRED(ANeuralNetworks_getDeviceCount),
        REQUIRED(ANeuralNetworks_getDevice),
        REQUIRED(ANeuralNetworksDevice_getName),
        REQUIRED(ANeuralNetworksDevice_getType),
        REQUIRED(ANeuralNetworksDevice_getVersion),
        REQUIRED(ANeuralNetworksDevice_getFeatureLevel),
        REQUIRED(ANeuralNetworksDevice_wait),
        REQUIRED(ANeuralNetworksModel_create),
        REQUIRED(ANeuralNetworksModel_free),
        REQUIRED(ANeuralNetworksModel_finish),
        REQUIRED(ANeuralNetworksModel_addOperand),
        REQUIRED(ANeuralNetworksModel_setOperandValue),
        REQUIRED(ANeuralNetworksModel_setOperandValueFromModel),
        REQUIRED(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams),
        REQUIRED(ANeuralNetworksModel_addOperation),
        REQUIRED(ANeuralNetworksModel_identifyInputsAndOutputs),
        REQUIRED(ANeuralNetworksModel_relaxComputationFloat32toFloat16),
        REQUIRED(ANeuralNetworksModel_getSupportedOperationsForDevices),
        REQUIRED(ANeuralNetworksCompilation_createForDevices),
        REQUIRED(ANeuralNetworksCompilation_setPreference),
        REQUIRED(ANeuralNetworksCompilation_setPriority),
        REQUIRED(ANeuralNetworksCompilation_finish),
        REQUIRED(ANeuralNetworksCompilation_free),
        REQUIRED(ANeuralNetworksExecution_create),
        REQUIRED(ANeuralNetworksExecution_free),
        REQUIRED(ANeuralNetworksExecution_enableInputAndOutputPadding),
        REQUIRED(ANeuralNetworksExecution_setInput),
        REQUIRED(ANeuralNetworksExecution_setOutput),
        REQUIRED(ANeuralNetworksExecution_setLoopTimeout),
        REQUIRED(ANeuralNetworksExecution_setTimeout),
        REQUIRED(ANeuralNetworksExecution_compute),
        REQUIRED(ANeuralNetworksExecution_getOutputOperandRank),
        REQUIRED(ANeuralNetworksExecution_getOutputOperandDimensions),
};

static const char *missing_function(const NnApiSLDriverImplFL5 *t)
{
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        void (*fn)(void);
        memcpy(&fn, (const char *)t + required[i].offset, sizeof fn);
        if (fn == NULL)
            return required[i].name;
    }
    return NULL;
}

static bool known_table_level(int64_t level)
{
    return level == ANEURALNETWORKS_FEATURE_LEVEL_5 || level == ANEURALNETWORKS_FEATURE_LEVEL_6 ||
           level == ANEURALNETWORKS_FEATURE_LEVEL_7 || level == ANEURALNETWORKS_FEATURE_LEVEL_8;
}

static void free_device(ANeuralNetworksDevice *d)
{
    if (d == NULL)
        return;
    free((char *)d->name);
    free((char *)d->version);
    free(d);
}

static bool name_taken(const device_list *list, const char *name)
{
    if (strcmp(name, nn_cpu_device_name()) == 0)
        return true;
    for (uint32_t i = 0; i < list->n; i++)
        if (strcmp(list->items[i]->name, name) == 0)
            return true;
    return false;
}

/* Device names are unique (ANeuralNetworksDevice_getName): a repeated one,
 * such as our CPU driver loaded back, gets "#2", "#3", ... appended. */
static char *unique_name(const device_list *list, const char *name)
{
    if (!name_taken(list, name))
        return strdup(name);
    size_t size = strlen(name) + 16;
    char *unique = malloc(size);
    for (unsigned k = 2; unique != NULL; k++) {
        snprintf(unique, size, "%s#%u", name, k);
        if (!name_taken(list, unique))
            break;
    }
    return unique;
}

/* Our device for the driver's device index i, or NULL (logged). */
static ANeuralNetworksDevice *wrap_device(const device_list *list, const NnApiSLDriverImplFL5 *t,
                                          const char *path, uint32_t i)
{
    ANeuralNetworksDevice *handle = NULL;
    const char *name = NULL, *version = NULL;
    int32_t type = 0;
    int64_t level = 0;
    int rc = t->ANeuralNetworks_getDevice(i, &handle);
    if (rc == ANEURALNETWORKS_NO_ERROR && handle == NULL)
        rc = ANEURALNETWORKS_UNEXPECTED_NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = t->ANeuralNetworksDevice_getName(handle, &name);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = t->ANeuralNetworksDevice_getVersion(handle, &version);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = t->ANeuralNetworksDevice_getType(handle, &type);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = t->ANeuralNetworksDevice_getFeatureLevel(handle, &level);
    if (rc == ANEURALNETWORKS_NO_ERROR && (name == NULL || version == NULL))
        rc = ANEURALNETWORKS_UNEXPECTED_NULL;
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_vlog("driver %s: device %u skipped: querying it failed (code %d)", path, i, rc);
        return NULL;
    }
    ANeuralNetworksDevice *d = calloc(1, sizeof *d);
    if (d != NULL) {
        d->name = unique_name(list, name);
        d->version = strdup(version);
    }
    if (d == NULL || d->name == NULL || d->version == NULL) {
        free_device(d);
        nn_vlog("driver %s: device %u skipped: out of memory", path, i);
        return NULL;
    }
    d->type = type;
    d->feature_level = level;
    d->sl = t;
    d->sl_device = handle;
    return d;
}

static void load_driver(device_list *list, const char *path)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        nn_vlog("driver %s skipped: %s", path, dlerror());
        return;
    }
    for (uint32_t i = 0; i < list->n_handles; i++)
        if (list->handles[i] == lib) {
            nn_vlog("driver %s skipped: already loaded", path);
            dlclose(lib);
            return;
        }
    nn_sl_get_driver_fn get;
    void *sym = dlsym(lib, "ANeuralNetworks_getSLDriverImpl");
    memcpy(&get, &sym, sizeof get);
    const NnApiSLDriverImpl *impl = get ? get() : NULL;
    const char *why = NULL;
    char buf[160];
    if (get == NULL)
        why = "it does not export ANeuralNetworks_getSLDriverImpl";
    else if (impl == NULL)
        why = "ANeuralNetworks_getSLDriverImpl returned NULL";
    else if (!known_table_level(impl->implFeatureLevel)) {
        snprintf(buf, sizeof buf, "implFeatureLevel %lld is unknown or below feature level 5",
                 (long long)impl->implFeatureLevel);
        why = buf;
    } else {
        const char *missing = missing_function((const NnApiSLDriverImplFL5 *)impl);
        if (missing != NULL) {
            snprintf(buf, sizeof buf, "its table lacks %s", missing);
            why = buf;
        }
    }
    uint32_t count = 0;
    const NnApiSLDriverImplFL5 *t = (const NnApiSLDriverImplFL5 *)impl;
    if (why == NULL && t->ANeuralNetworks_getDeviceCount(&count) != ANEURALNETWORKS_NO_ERROR)
        why = "getDeviceCount failed";
    void **handles = why ? NULL : realloc(list->handles, (list->n_handles + 1) * sizeof *handles);
    ANeuralNetworksDevice **items =
            why ? NULL : realloc(list->items, ((size_t)list->n + count + 1) * sizeof *items);
    if (why == NULL && (handles == NULL || items == NULL))
        why = "out of memory";
    if (handles != NULL)
        list->handles = handles;
    if (items != NULL)
        list->items = items;
    if (why != NULL) {
        nn_vlog("driver %s skipped: %s", path, why);
        dlclose(lib);
        return;
    }
    /* The library stays loaded for the life of the process: its devices do. */
    list->handles[list->n_handles++] = lib;
    for (uint32_t i = 0; i < count; i++) {
        ANeuralNetworksDevice *d = wrap_device(list, t, path, i);
        if (d == NULL)
            continue;
        list->items[list->n++] = d;
        nn_vlog("driver %s: device %s (type %d, version %s, feature level %lld)", path, d->name,
                d->type, d->version, (long long)d->feature_level);
    }
}

/* Loads each path of a separator-delimited list, blanks trimmed. */
static void load_list(device_list *list, char *paths, const char *separators)
{
    char *save = NULL;
    for (char *p = strtok_r(paths, separators, &save); p; p = strtok_r(NULL, separators, &save)) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
            p[--n] = '\0';
        if (n > 0)
            load_driver(list, p);
    }
}

static int conf_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 5 && e->d_name[0] != '.' && strcmp(e->d_name + n - 5, ".conf") == 0;
}

static void load_conf(device_list *list, const char *dir, const char *file)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >= sizeof path)
        return;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        nn_vlog("drivers: %s cannot be read", path);
        return;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        load_list(list, line, "\n");
    }
    fclose(f);
}

uint32_t nn_load_driver_devices(ANeuralNetworksDevice ***out)
{
    device_list list = {0};
    const char *env = getenv("NNAPI_LINUX_DRIVERS");
    if (env != NULL && env[0] != '\0') {
        char *paths = strdup(env);
        if (paths == NULL)
            nn_vlog("NNAPI_LINUX_DRIVERS: out of memory; no driver loaded from it");
        else
            load_list(&list, paths, ":");
        free(paths);
    }
    const char *dir = getenv("NNAPI_LINUX_DRIVERS_DIR");
    if (dir == NULL || dir[0] == '\0')
        dir = NN_DEFAULT_DRIVERS_DIR;
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, conf_file, alphasort);
    for (int i = 0; i < n; i++) {
        load_conf(&list, dir, entries[i]->d_name);
        free(entries[i]);
    }
    free(entries);
    free(list.handles);
    *out = list.items;
    return list.n;
}
