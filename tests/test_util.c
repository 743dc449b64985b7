#include "test_util.h"

int nt_passed;
int nt_failed;

const char* nt_rc_name(int rc) {
    static const char* const names[] = {
            "NO_ERROR",
            "OUT_OF_MEMORY",
            "INCOMPLETE",
            "UNEXPECTED_NULL",
            "BAD_DATA",
            "OP_FAILED",
            "BAD_STATE",
            "UNMAPPABLE",
            "OUTPUT_INSUFFICIENT_SIZE",
            "UNAVAILABLE_DEVICE",
            "MISSED_DEADLINE_TRANSIENT",
            "MISSED_DEADLINE_PERSISTENT",
            "RESOURCE_EXHAUSTED_TRANSIENT",
            "RESOURCE_EXHAUSTED_PERSISTENT",
            "DEAD_OBJECT",
    };
    if (rc < 0 || rc >= (int)(sizeof(names) / sizeof(names[0]))) return "?";
    return names[rc];
}

bool nt_record(bool ok, const char* file, int line, const char* what) {
    if (ok) {
        nt_passed++;
    } else {
        nt_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
    return ok;
}

bool nt_record_rc(int got, int expected, const char* file, int line, const char* call) {
    if (got == expected) {
        nt_passed++;
        return true;
    }
    nt_failed++;
    fprintf(stderr, "%s:%d: FAILED: %s\n    returned %s (%d), expected %s (%d)\n", file, line,
            call, nt_rc_name(got), got, nt_rc_name(expected), expected);
    return false;
}

int nt_summary(void) {
    printf("%d passed, %d failed\n", nt_passed, nt_failed);
    fflush(stdout);
    return nt_failed == 0 ? 0 : 1;
}
