/* Broken SL drivers, one per BROKEN_* definition, for the loader's tests:
 * each must be skipped with one VLOG line while the runtime works on. */
#include <stddef.h>

#include "sl/sl_driver.h"

#define EXPORT __attribute__((visibility("default")))

#if defined(BROKEN_NOSYMBOL)
/* A library without ANeuralNetworks_getSLDriverImpl. */
EXPORT int nn_broken_driver_has_no_entry_point;
#elif defined(BROKEN_NULL)
EXPORT NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    return NULL;
}
#elif defined(BROKEN_LEVEL)
/* Feature level 3 predates SL drivers. */
static NnApiSLDriverImplFL5 table = {.base = {.implFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_3}};
EXPORT NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    return &table.base;
}
#elif defined(BROKEN_MISSING)
/* The right level, but not one function filled in. */
static NnApiSLDriverImplFL5 table = {.base = {.implFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_5}};
EXPORT NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    return &table.base;
}
#else
#error "define one of BROKEN_NOSYMBOL, BROKEN_NULL, BROKEN_LEVEL, BROKEN_MISSING"
#endif
