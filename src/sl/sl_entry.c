/* The entry point of libnnapi_linux_cpu_sl.so, our CPU device as an NNAPI
 * Support Library driver. Only the SL build has this file; it also stands in
 * for the driver loader, so that the driver never loads drivers itself. */
#include "runtime.h"

NN_API NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    /* The table is read-only; the ABI's pointer is not const. */
    return (NnApiSLDriverImpl *)&nn_cpu_sl_table()->base.base;
}

uint32_t nn_load_driver_devices(ANeuralNetworksDevice ***out)
{
    *out = NULL;
    return 0;
}
