/* testlib.h - the tiny test runner every tests/test_*.c uses.
 *
 *   #include "testlib.h"
 *   static void test_something(void) { CHECK(x == 1); CHECK_EQ(a, b); CHECK_MEM(p, q, n); }
 *   int main(void) { tl_seed(1); RUN(test_something); return TEST_END(); }
 *
 * A test case passes when none of its checks fail. CHECK* records a failure and goes on;
 * REQUIRE* records it and ends the case at once (use it where a later step would use what the
 * failed one should have produced: a failed load must never turn into a crash). SKIP_CASE("why")
 * ends a case that cannot run here (third-party data absent): it is listed by name, and it is a
 * failure under ACCEL_REQUIRE_ALL=1. TEST_END prints "N passed, N failed" (cases, not checks) as
 * the last line and returns the exit status.
 * Random tests draw from tl_rand() (xorshift32): tl_seed(default) prints the seed it uses, which
 * the environment variable ACCEL_TEST_SEED overrides, so every failure can be replayed.
 * Host-only (uses stdio and stat). */
#ifndef ACCEL_TESTLIB_H
#define ACCEL_TESTLIB_H
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "tl_rand.h"

static int tl_passed, tl_failed, tl_skipped, tl_case_failed, tl_case_skipped, tl_checks;
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

/* REQUIRE*: like CHECK*, but a failure ends the test case (the function returns). */
#define REQUIRE(cond)                                                                    \
    do {                                                                                 \
        int tl_before = tl_case_failed;                                                  \
        CHECK(cond);                                                                     \
        if (tl_case_failed && !tl_before) return;                                        \
    } while (0)
#define REQUIRE_EQ(a, b)                                                                 \
    do {                                                                                 \
        int tl_before = tl_case_failed;                                                  \
        CHECK_EQ(a, b);                                                                  \
        if (tl_case_failed && !tl_before) return;                                        \
    } while (0)
#define REQUIRE_ST(got, want)                                                            \
    do {                                                                                 \
        int tl_before = tl_case_failed;                                                  \
        CHECK_ST(got, want);                                                             \
        if (tl_case_failed && !tl_before) return;                                        \
    } while (0)

/* End the current case as skipped, with a reason; a failure when ACCEL_REQUIRE_ALL=1. */
#define SKIP_CASE(why)                                                                   \
    do {                                                                                 \
        tl_skip_note(why);                                                               \
        return;                                                                          \
    } while (0)

/* The same for a case this CPU cannot execute (an instruction set it lacks): never a failure,
 * also under ACCEL_REQUIRE_ALL=1, which forbids skips for missing tools and data only. The line
 * ends in "[isa]" so scripts/test.sh lists it apart. */
#define SKIP_CASE_ISA(why)                                                               \
    do {                                                                                 \
        printf("SKIP %s: %s (compiled, not run) [isa]\n", tl_case, why);                 \
        tl_case_skipped = 1;                                                             \
        return;                                                                          \
    } while (0)

static inline void tl_skip_note(const char *why)
{
    const char *req = getenv("ACCEL_REQUIRE_ALL");
    if (req && strcmp(req, "1") == 0) {
        printf("  FAIL %s: skipped (%s), but ACCEL_REQUIRE_ALL=1\n", tl_case, why);
        tl_case_failed = 1;
    } else {
        printf("SKIP %s: %s\n", tl_case, why);
        tl_case_skipped = 1;
    }
}

/* Third-party artefacts (compiled models, vendor traces, command buffers) are not part of the
 * repository. The README's contract: a test that reads them looks in $ACCEL_<SECTION>_DATA when
 * it is set, else in TL_DATA_ROOT/<section> (relative to the repository root, where make test
 * runs every test; tests/lib.sh's DATA_ROOT is the same directory). tl_data_dir returns that
 * directory, or NULL when it does not exist. REQUIRE_DATA skips the case by name then: a clone
 * alone passes with the skips listed, and CI (ACCEL_REQUIRE_ALL=1, data present) skips nothing.
 * A file missing from a directory that exists is a failure (REQUIRE its load). */
#define TL_DATA_ROOT "../shared/data"
static inline const char *tl_data_dir(const char *env, const char *sub)
{
    static char tl_dir[512];
    const char *e = getenv(env);
    struct stat tl_st;
    if (e && *e) snprintf(tl_dir, sizeof tl_dir, "%s", e);
    else snprintf(tl_dir, sizeof tl_dir, TL_DATA_ROOT "/%s", sub);
    return stat(tl_dir, &tl_st) == 0 && S_ISDIR(tl_st.st_mode) ? tl_dir : NULL;
}
/* A whole file in memory (malloc'd, one spare byte; free it), NULL when it cannot be read. */
static inline uint8_t *tl_load_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *p = NULL;
    long n;
    *len = 0;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        p = (uint8_t *)malloc((size_t)n + 1u);
        if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        }
        if (p) *len = (size_t)n;
    }
    fclose(f);
    return p;
}
/* SHA-256 (FIPS 180-4) of n bytes as 64 hex digits: the shared goldens give some layers only as
 * their digest. */
static inline void tl_sha256_hex(const uint8_t *p, size_t n, char hex[65])
{
    static const uint32_t k[64] = {
        0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
        0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
        0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
        0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
        0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
        0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
        0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
        0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};
    uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                     0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    size_t blocks = (n + 9 + 63) / 64, b, i;
#define TL_ROR(x, r) (((x) >> (r)) | ((x) << (32 - (r))))
    for (b = 0; b < blocks; b++) {
        uint32_t w[64], a[8], t1, t2;
        for (i = 0; i < 64; i++) { /* the message, 0x80, zeros, the bit length (big-endian) */
            size_t at = b * 64 + i;
            uint8_t byte;
            if (at < n) byte = p[at];
            else if (at == n) byte = 0x80;
            else if (at >= blocks * 64 - 8) byte = (uint8_t)(((uint64_t)n * 8u) >> (8 * (blocks * 64 - 1 - at)));
            else byte = 0;
            if (i % 4 == 0) w[i / 4] = 0;
            w[i / 4] |= (uint32_t)byte << (24 - 8 * (i % 4));
        }
        for (i = 16; i < 64; i++) {
            uint32_t s0 = TL_ROR(w[i - 15], 7) ^ TL_ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = TL_ROR(w[i - 2], 17) ^ TL_ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        for (i = 0; i < 8; i++) a[i] = h[i];
        for (i = 0; i < 64; i++) {
            t1 = a[7] + (TL_ROR(a[4], 6) ^ TL_ROR(a[4], 11) ^ TL_ROR(a[4], 25)) + ((a[4] & a[5]) ^ (~a[4] & a[6])) + k[i] + w[i];
            t2 = (TL_ROR(a[0], 2) ^ TL_ROR(a[0], 13) ^ TL_ROR(a[0], 22)) + ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
            a[7] = a[6], a[6] = a[5], a[5] = a[4], a[4] = a[3] + t1;
            a[3] = a[2], a[2] = a[1], a[1] = a[0], a[0] = t1 + t2;
        }
        for (i = 0; i < 8; i++) h[i] += a[i];
    }
#undef TL_ROR
    for (i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", (unsigned)((h[i / 4] >> (24 - 8 * (i % 4))) & 0xFFu));
}

/* One line of a tab-separated table split in place: up to max columns (the line ending
 * dropped); returns how many. */
static inline int tl_split_tabs(char *line, char **col, int max)
{
    int c = 0;
    line[strcspn(line, "\r\n")] = 0;
    while (c < max) {
        col[c++] = line;
        line = strchr(line, '\t');
        if (!line) break;
        *line++ = 0;
    }
    return c;
}
#define REQUIRE_DATA(env, sub)                                                           \
    do {                                                                                 \
        if (!tl_data_dir(env, sub)) {                                                    \
            char tl_why[640];                                                            \
            const char *tl_env = getenv(env);                                            \
            if (tl_env && *tl_env)                                                       \
                snprintf(tl_why, sizeof tl_why, "third-party data absent (%s=%s)", env,  \
                         tl_env);                                                        \
            else                                                                         \
                snprintf(tl_why, sizeof tl_why, "third-party data absent (no "           \
                         TL_DATA_ROOT "/%s; %s overrides it)", sub, env);                \
            SKIP_CASE(tl_why);                                                           \
        }                                                                                \
    } while (0)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        tl_case = #fn;                                                                   \
        tl_case_failed = 0;                                                              \
        tl_case_skipped = 0;                                                             \
        fn();                                                                            \
        if (tl_case_failed) {                                                            \
            tl_failed++;                                                                 \
            printf("case %s FAIL\n", #fn);                                               \
        } else if (tl_case_skipped) {                                                    \
            tl_skipped++;                                                                \
        } else {                                                                         \
            tl_passed++;                                                                 \
        }                                                                                \
    } while (0)

/* Skipped cases are named above and counted on a line of their own, before the result line. */
#define TEST_END()                                                                       \
    ((tl_skipped ? printf("%d skipped\n", tl_skipped) : 0),                              \
     printf("%d passed, %d failed\n", tl_passed, tl_failed), tl_failed ? 1 : 0)

#endif
