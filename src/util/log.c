#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Why the current call fails. Checks deep in validation record a reason on
 * their thread; the API function that returns the error logs it with its own
 * name and the object concerned, as one line. Only recorded under VLOG,
 * and with logging off the buffers are never touched: in a library that was
 * dlopen()ed (TFLite's delegate loads this one so, and the runtime loads
 * drivers so) glibc allocates them on each thread's first touch.
 */
static _Thread_local char pending_reason[256];
static _Thread_local char deferred_reason[256];

void nn_reason(const char *fmt, ...)
{
    if (!nn_vlog_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pending_reason, sizeof pending_reason, fmt, ap);
    va_end(ap);
}

int nn_invalid(const char *fmt, ...)
{
    if (nn_vlog_enabled()) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pending_reason, sizeof pending_reason, fmt, ap);
        va_end(ap);
    }
    return ANEURALNETWORKS_BAD_DATA;
}

int nn_because(int code, const char *fmt, ...)
{
    if (nn_vlog_enabled()) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pending_reason, sizeof pending_reason, fmt, ap);
        va_end(ap);
    }
    return code;
}

void nn_reason_default(const char *text)
{
    if (nn_vlog_enabled() && pending_reason[0] == '\0')
        snprintf(pending_reason, sizeof pending_reason, "%s", text);
}

const char *nn_take_reason(void)
{
    static _Thread_local char taken[256];
    if (!nn_vlog_enabled())
        return "";
    memcpy(taken, pending_reason, sizeof taken);
    pending_reason[0] = '\0';
    return taken;
}

void nn_reason_clear(void)
{
    if (nn_vlog_enabled())
        pending_reason[0] = '\0';
}

int nn_check_value(const nn_op_call *c, bool ok, const char *fmt, ...)
{
    if (ok)
        return ANEURALNETWORKS_NO_ERROR;
    bool validating = c->fails_at_execution != NULL;
    /* While validating, the first failure is the one execution reports. */
    bool first = validating && !*c->fails_at_execution;
    if ((first || !validating) && nn_vlog_enabled()) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(validating ? deferred_reason : pending_reason, sizeof pending_reason, fmt, ap);
        va_end(ap);
    }
    if (!validating)
        return ANEURALNETWORKS_BAD_DATA;
    *c->fails_at_execution = true;
    return ANEURALNETWORKS_NO_ERROR;
}

const char *nn_deferred_reason(void)
{
    return nn_vlog_enabled() ? deferred_reason : "";
}

int nn_fail(int code, const char *fmt, ...)
{
    if (!nn_vlog_enabled())
        return code;
    if (code != ANEURALNETWORKS_NO_ERROR) {
        char what[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        if (pending_reason[0])
            nn_vlog("%s: %s", what, pending_reason);
        else
            nn_vlog("%s", what);
    }
    pending_reason[0] = '\0';
    return code;
}
