/* The entry point of libnnapi_linux_cpu_sl.so, our CPU device as an NNAPI
 * Support Library driver. Only that library has this file. */
#include "runtime.h"

NN_API NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    /* The table is read-only; the ABI's pointer is not const. */
    return (NnApiSLDriverImpl *)&nn_cpu_sl_table()->base.base;
}
