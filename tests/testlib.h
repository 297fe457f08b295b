/* testlib.h - the tiny test runner every tests/test_*.c uses.
 *
 *   #include "testlib.h"
 *   static void test_something(void) { CHECK(x == 1); CHECK_EQ(a, b); CHECK_MEM(p, q, n); }
 *   int main(void) { RUN(test_something); return TEST_END(); }
 *
 * A test case passes when none of its checks fail. TEST_END prints "N passed, N failed"
 * (cases, not checks) as the last line and returns the exit status. Failed checks print file,
 * line and the values. Host-only (uses stdio). */
#ifndef ACCEL_TESTLIB_H
#define ACCEL_TESTLIB_H
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static int tl_passed, tl_failed, tl_case_failed, tl_checks;
static const char *tl_case;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        tl_checks++;                                                                   \
        if (!(cond)) {                                                                 \
            printf("  FAIL %s:%d in %s: %s\n", __FILE__, __LINE__, tl_case, #cond);    \
            tl_case_failed = 1;                                                        \
        }                                                                              \
    } while (0)

/* Integer equality; both sides widened to long long for the message. */
#define CHECK_EQ(a, b)                                                                   \
    do {                                                                                 \
        long long tl_a = (long long)(a), tl_b = (long long)(b);                          \
        tl_checks++;                                                                     \
        if (tl_a != tl_b) {                                                              \
            printf("  FAIL %s:%d in %s: %s == %s (%lld != %lld, 0x%llx != 0x%llx)\n",    \
                   __FILE__, __LINE__, tl_case, #a, #b, tl_a, tl_b,                      \
                   (unsigned long long)tl_a, (unsigned long long)tl_b);                  \
            tl_case_failed = 1;                                                          \
        }                                                                                \
    } while (0)

/* Unsigned 64-bit equality (values above LLONG_MAX). */
#define CHECK_EQ_U64(a, b)                                                               \
    do {                                                                                 \
        unsigned long long tl_a = (unsigned long long)(a), tl_b = (unsigned long long)(b); \
        tl_checks++;                                                                     \
        if (tl_a != tl_b) {                                                              \
            printf("  FAIL %s:%d in %s: %s == %s (0x%llx != 0x%llx)\n", __FILE__,        \
                   __LINE__, tl_case, #a, #b, tl_a, tl_b);                               \
            tl_case_failed = 1;                                                          \
        }                                                                                \
    } while (0)

/* Status equality, printing names (needs accel_status_str from accel.h). */
#define CHECK_ST(got, want)                                                              \
    do {                                                                                 \
        accel_status tl_g = (got), tl_w = (want);                                        \
        tl_checks++;                                                                     \
        if (tl_g != tl_w) {                                                              \
            printf("  FAIL %s:%d in %s: %s gave %d (%s), want %d (%s)\n", __FILE__,      \
                   __LINE__, tl_case, #got, (int)tl_g, accel_status_str(tl_g), (int)tl_w, \
                   accel_status_str(tl_w));                                              \
            tl_case_failed = 1;                                                          \
        }                                                                                \
    } while (0)

#define CHECK_MEM(a, b, n)                                                               \
    do {                                                                                 \
        const unsigned char *tl_pa = (const unsigned char *)(a);                         \
        const unsigned char *tl_pb = (const unsigned char *)(b);                         \
        size_t tl_n = (size_t)(n), tl_i;                                                 \
        tl_checks++;                                                                     \
        for (tl_i = 0; tl_i < tl_n; tl_i++)                                              \
            if (tl_pa[tl_i] != tl_pb[tl_i]) break;                                       \
        if (tl_i < tl_n) {                                                               \
            printf("  FAIL %s:%d in %s: %s vs %s differ at byte %zu (0x%02x != 0x%02x)\n", \
                   __FILE__, __LINE__, tl_case, #a, #b, tl_i, tl_pa[tl_i], tl_pb[tl_i]); \
            tl_case_failed = 1;                                                          \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *tl_sa = (a), *tl_sb = (b);                                           \
        tl_checks++;                                                                     \
        if (strcmp(tl_sa, tl_sb) != 0) {                                                 \
            printf("  FAIL %s:%d in %s: %s\n    got  \"%s\"\n    want \"%s\"\n",         \
                   __FILE__, __LINE__, tl_case, #a, tl_sa, tl_sb);                       \
            tl_case_failed = 1;                                                          \
        }                                                                                \
    } while (0)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        tl_case = #fn;                                                                   \
        tl_case_failed = 0;                                                              \
        fn();                                                                            \
        if (tl_case_failed) {                                                            \
            tl_failed++;                                                                 \
            printf("case %s FAIL\n", #fn);                                               \
        } else {                                                                         \
            tl_passed++;                                                                 \
        }                                                                                \
    } while (0)

#define TEST_END() (printf("%d passed, %d failed\n", tl_passed, tl_failed), tl_failed ? 1 : 0)

#endif
