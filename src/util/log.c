#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static pthread_once_t vlog_once = PTHREAD_ONCE_INIT;
static bool vlog_on;

static void vlog_init(void)
{
    const char *v = getenv("NNAPI_LINUX_VLOG");
    vlog_on = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

bool nn_vlog_enabled(void)
{
    pthread_once(&vlog_once, vlog_init);
    return vlog_on;
}

void nn_vlog(const char *fmt, ...)
{
    if (!nn_vlog_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr);
    fputs("nnapi-linux: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
    va_end(ap);
}
