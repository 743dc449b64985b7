#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime.h"

static pthread_once_t vlog_once = PTHREAD_ONCE_INIT;
static bool vlog_on;

/* NNAPI_LINUX_VLOG: 0 (or unset) is off, a positive number is on. Anything
 * else is said once on stderr and leaves logging off. */
static void vlog_init(void)
{
    const char *v = getenv("NNAPI_LINUX_VLOG");
    if (!v || !v[0])
        return;
    char *end;
    long level = strtol(v, &end, 10);
    if (end == v || *end != '\0' || level < 0) {
        fprintf(stderr, "nnapi-linux: NNAPI_LINUX_VLOG=%s is not 0 or 1; logging stays off\n", v);
        return;
    }
    vlog_on = level > 0;
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
