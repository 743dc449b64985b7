/*
 * A small test framework for the API-level tests: every CHECK records its
 * outcome with file:line and the test goes on, so one run reports every broken
 * contract instead of stopping at the first. nt_summary() prints
 * "N passed, N failed" and gives the exit status.
 */
#ifndef NN_TEST_UTIL_H
#define NN_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

extern int nt_passed;
extern int nt_failed;

/* Name of a ResultCode, or "?" for a value outside the enum. */
const char* nt_rc_name(int rc);

/* Records one outcome; prints a line for failures. Returns ok. */
bool nt_record(bool ok, const char* file, int line, const char* what);
bool nt_record_rc(int got, int expected, const char* file, int line, const char* call);

/* Prints the summary and returns the process exit status. */
int nt_summary(void);

#define CHECK(cond) nt_record((cond) ? true : false, __FILE__, __LINE__, #cond)

/* CHECK_RC(call, code): the call must return exactly that ResultCode. */
#define CHECK_RC(call, expected) nt_record_rc((call), (expected), __FILE__, __LINE__, #call)

/* CHECK_OK(call): shorthand for CHECK_RC(call, ANEURALNETWORKS_NO_ERROR). */
#define CHECK_OK(call) nt_record_rc((call), 0, __FILE__, __LINE__, #call)

/* CHECK_EQ_INT: both sides printed on failure. */
#define CHECK_EQ_INT(a, b)                                                                  \
    do {                                                                                    \
        long long nt_a_ = (long long)(a), nt_b_ = (long long)(b);                           \
        if (!nt_record(nt_a_ == nt_b_, __FILE__, __LINE__, #a " == " #b))                   \
            fprintf(stderr, "    (%lld vs %lld)\n", nt_a_, nt_b_);                          \
    } while (0)

#endif /* NN_TEST_UTIL_H */
