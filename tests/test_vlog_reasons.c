/*
 * Every rejected operation says why (issue 15, item 10): with
 * NNAPI_LINUX_VLOG=1 each failing addOperation / finish logs one line with
 * the function, the operation and the reason, as Android's validators do on
 * logcat. This runs the negative-test programs given as arguments (together
 * they build a few hundred broken models over nearly every operation) with
 * VLOG on, and checks every failure line names a precise reason: not
 * empty, and not the runtime's fallback that only lists the operands.
 * NN_TEST_EMULATOR (cross builds) is put in front of each command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define FALLBACK "the operands do not fit the operation"

/* The failure lines of one program and how many lack a precise reason. */
static void check_program(const char *path, int min_lines)
{
    const char *emulator = getenv("NN_TEST_EMULATOR");
    char cmd[4096];
    /* stdout (the program's own pass/fail lines) is dropped; stderr kept. */
    snprintf(cmd, sizeof cmd, "NNAPI_LINUX_VLOG=1 %s '%s' 2>&1 >/dev/null",
             emulator ? emulator : "", path);
    FILE *p = popen(cmd, "r");
    if (!CHECK(p != NULL))
        return;
    char line[4096];
    int lines = 0, vague = 0;
    while (fgets(line, sizeof line, p)) {
        const char *call = strstr(line, "addOperation(");
        if (call == NULL)
            call = strstr(line, "Model_finish");
        if (call == NULL)
            continue;
        lines++;
        const char *reason = strstr(call, "): ");
        bool precise = reason != NULL && reason[3] != '\n' && reason[3] != '\0' &&
                       strstr(line, FALLBACK) == NULL;
        if (!precise) {
            vague++;
            fprintf(stderr, "    no precise reason: %s", line);
        }
    }
    pclose(p);
    char what[2200];
    snprintf(what, sizeof what, "%s: at least %d failure lines (got %d)", path, min_lines, lines);
    nt_record(lines >= min_lines, __FILE__, __LINE__, what);
    snprintf(what, sizeof what, "%s: every failure line has a precise reason (%d of %d lack one)",
             path, vague, lines);
    nt_record(vague == 0, __FILE__, __LINE__, what);
}

int main(int argc, char **argv)
{
    /* Each argument: a program and, after '=', the fewest failure lines it
     * must log (so that a program that stopped building broken models, or
     * stopped logging, fails here). */
    CHECK(argc > 1);
    for (int i = 1; i < argc; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s", argv[i]);
        char *eq = strrchr(path, '=');
        int min_lines = 1;
        if (eq) {
            *eq = '\0';
            min_lines = atoi(eq + 1);
        }
        check_program(path, min_lines);
    }
    return nt_summary();
}
