/*
 * The environment switches: NNAPI_LINUX_THREADS, NNAPI_LINUX_VLOG,
 * NNAPI_LINUX_ISA and the driver list (NNAPI_LINUX_DRIVERS,
 * NNAPI_LINUX_DRIVERS_DIR). CTest runs this program once per setting (ENVIRONMENT
 * property) and says on the command line what the library must make of it:
 *   --threads N|default   thread count (default: the cores, at most 65)
 *   --vlog 0|1            whether verbose logging is on
 *   --isa c|avx2|avx512|neon|neondot|detected   the kernel level in use
 *   --devices N           devices the runtime offers (drivers' + the CPU)
 *   --isa-request NAME    NNAPI_LINUX_ISA=NAME: NAME where the CPU runs it,
 *                         else the detected level with a warning
 *   --stderr TEXT         stderr must hold TEXT exactly once; without it,
 *                         stderr must stay empty
 * Every switch is read twice, from two threads, to show the warning comes once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/isa.h"
#include "runtime.h"
#include "test_util.h"
#include "util/threadpool.h"

struct seen {
    int threads;
    bool vlog;
    nn_isa isa;
    uint32_t devices;
};

static void *read_switches(void *out)
{
    struct seen *s = out;
    s->threads = nn_thread_count();
    s->vlog = nn_vlog_enabled();
    s->isa = nn_isa_current();
    s->devices = nn_device_count();
    return NULL;
}

static int isa_by_name(const char *name)
{
    for (int i = NN_ISA_C; i <= NN_ISA_NEONDOT; i++)
        if (strcmp(name, nn_isa_name((nn_isa)i)) == 0)
            return i;
    return -1;
}

/* Whether a CPU detected at level `cpu` runs level `want`: the portable one
 * always, else one of the same architecture and no wider. */
static bool isa_runs(int want, int cpu)
{
    bool want_arm = want == NN_ISA_NEON || want == NN_ISA_NEONDOT;
    bool cpu_arm = cpu == NN_ISA_NEON || cpu == NN_ISA_NEONDOT;
    return want == NN_ISA_C || (cpu != NN_ISA_C && want_arm == cpu_arm && want <= cpu);
}

static int count_occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

int main(int argc, char **argv)
{
    const char *want_threads = NULL, *want_vlog = NULL, *want_isa = NULL;
    const char *isa_request = NULL, *want_stderr = NULL, *want_devices = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--threads") == 0)
            want_threads = argv[i + 1];
        else if (strcmp(argv[i], "--vlog") == 0)
            want_vlog = argv[i + 1];
        else if (strcmp(argv[i], "--isa") == 0)
            want_isa = argv[i + 1];
        else if (strcmp(argv[i], "--isa-request") == 0)
            isa_request = argv[i + 1];
        else if (strcmp(argv[i], "--stderr") == 0)
            want_stderr = argv[i + 1];
        else if (strcmp(argv[i], "--devices") == 0)
            want_devices = argv[i + 1];
        else {
            fprintf(stderr, "test_env: unknown option %s\n", argv[i]);
            return 2;
        }
    }

    /* Catch what the library writes to stderr. */
    fflush(stderr);
    FILE *capture = tmpfile();
    int saved = dup(2);
    if (!capture || saved < 0 || dup2(fileno(capture), 2) < 0) {
        perror("test_env: capturing stderr");
        return 2;
    }
    struct seen first, second;
    pthread_t t;
    bool started = pthread_create(&t, NULL, read_switches, &first) == 0;
    if (started)
        pthread_join(t, NULL);
    read_switches(&second);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK(started);

    char text[4096] = "";
    rewind(capture);
    size_t len = fread(text, 1, sizeof text - 1, capture);
    text[len] = '\0';
    fclose(capture);
    if (len > 0)
        fprintf(stderr, "library stderr:\n%s", text);

    CHECK(first.threads == second.threads && first.vlog == second.vlog &&
          first.isa == second.isa && first.devices == second.devices);
    if (want_devices) {
        printf("devices: %u (expected %s)\n", second.devices, want_devices);
        CHECK(second.devices == (uint32_t)atoi(want_devices));
    }
    if (want_threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int expected = strcmp(want_threads, "default") == 0
                           ? (int)(cores < 1 ? 1 : cores > 65 ? 65 : cores)
                           : atoi(want_threads);
        printf("threads: %d (expected %d)\n", second.threads, expected);
        CHECK(second.threads == expected);
    }
    if (want_vlog) {
        printf("vlog: %d (expected %s)\n", second.vlog, want_vlog);
        CHECK(second.vlog == (strcmp(want_vlog, "1") == 0));
    }
    if (want_isa) {
        int expected = strcmp(want_isa, "detected") == 0 ? (int)nn_isa_detected()
                                                         : isa_by_name(want_isa);
        printf("isa: %s (expected %s)\n", nn_isa_name(second.isa), want_isa);
        CHECK((int)second.isa == expected);
    }
    char isa_warning[128] = "";
    if (isa_request) {
        int requested = isa_by_name(isa_request);
        CHECK(requested >= 0);
        bool runs = requested >= 0 && isa_runs(requested, (int)nn_isa_detected());
        printf("isa: %s for request %s (CPU: %s)\n", nn_isa_name(second.isa), isa_request,
               nn_isa_name(nn_isa_detected()));
        CHECK((int)second.isa == (runs ? requested : (int)nn_isa_detected()));
        if (!runs)
            snprintf(isa_warning, sizeof isa_warning,
                     "NNAPI_LINUX_ISA=%s: this CPU does not support it; using %s", isa_request,
                     nn_isa_name(nn_isa_detected()));
    }
    if (!want_stderr && isa_warning[0])
        want_stderr = isa_warning;
    if (want_stderr) {
        printf("stderr holds \"%s\" %d time(s)\n", want_stderr,
               count_occurrences(text, want_stderr));
        CHECK(count_occurrences(text, want_stderr) == 1);
        CHECK(count_occurrences(text, "nnapi-linux: ") == 1);
    } else {
        CHECK(len == 0);
    }
    return nt_summary();
}
