/* crc_cases.h - the CRC-32 test cases, shared by tests/test_common.c (which scripts/test.sh builds
 * once per ACCEL_CRC32_IMPL) and tests/crc/crc_simd_test.c (the instruction paths, built by
 * tests/crc_simd.sh for x86-64 PCLMULQDQ / VPCLMULQDQ and AArch64 CRC32). The including file has
 * defined ACCEL_IMPLEMENTATION, included accel.h and testlib.h, and called tl_seed().
 * The reference is a bitwise CRC written from the definition (reflected polynomial 0xEDB88320,
 * register inverted before and after); tables and constants are checked against quantities
 * derived here from that polynomial alone, never against the generator's output.
 * crc_cases_run() runs every case, or, when the code was built for instructions this CPU lacks,
 * one skipped case that says so. */
#ifndef ACCEL_TESTS_CRC_CASES_H
#define ACCEL_TESTS_CRC_CASES_H

/* the CRC register (not inverted) after n bytes, starting from register crc ^ 0xFFFFFFFF */
static uint32_t ref_crc(uint32_t crc, const uint8_t *p, size_t n)
{
    size_t i;
    int k;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320UL : crc >> 1;
    }
    return ~crc;
}

static void test_crc32(void)
{
    static uint8_t big[3000];
    size_t i, split;
    CHECK_EQ(accel_crc32("123456789", 9), 0xCBF43926UL);
    CHECK_EQ(accel_crc32("", 0), 0);
    CHECK_EQ(accel_crc32(NULL, 0), 0);
    CHECK_EQ(accel_crc32("a", 1), 0xE8B7BE43UL);
    CHECK_EQ(accel_crc32("The quick brown fox jumps over the lazy dog", 43), 0x414FA339UL);
    for (i = 0; i < sizeof big; i++) big[i] = (uint8_t)(tl_rand() >> 24);
    /* every length 0..300 at every alignment 0..7, against the reference */
    for (i = 0; i < 300; i++) {
        size_t a;
        for (a = 0; a < 8; a++) {
            if (accel_crc32(big + a, i) != ref_crc(0, big + a, i)) {
                CHECK_EQ(accel_crc32(big + a, i), ref_crc(0, big + a, i));
                return;
            }
        }
    }
    /* incremental: any split gives the same value */
    for (split = 0; split <= sizeof big; split += 97) {
        uint32_t c = accel_crc32_update(0, big, split);
        c = accel_crc32_update(c, big + split, sizeof big - split);
        CHECK_EQ(c, ref_crc(0, big, sizeof big));
    }
    /* byte at a time */
    {
        uint32_t c = 0;
        for (i = 0; i < sizeof big; i++) c = accel_crc32_update(c, big + i, 1);
        CHECK_EQ(c, ref_crc(0, big, sizeof big));
    }
    /* zlib convention: a NULL pointer returns the crc unchanged */
    CHECK_EQ(accel_crc32_update(0xDEADBEEFUL, NULL, 5), 0xDEADBEEFUL);
}

/* The embedded tables of the compiled-in variant against the definition: row k of the slicing
 * tables is the register after a byte value and k zero bytes, i.e. row 0 times x^(8k). */
#if ACCEL_CRC32_SIMD != 3 && ACCEL_CRC32_IMPL != ACCEL_CRC32_BITWISE
static uint32_t ref_table(unsigned i, int bits)
{
    uint32_t c = i;
    int k;
    for (k = 0; k < bits; k++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320UL : c >> 1;
    return c;
}
#endif
#if ACCEL_CRC32_SIMD != 3 && ACCEL_CRC32_IMPL >= ACCEL_CRC32_SLICE8
static int ref_rows_match(const uint32_t (*t)[256], unsigned zero_bytes)
{
    unsigned i, j;
    for (i = 0; i < 256; i++) {
        uint32_t c = ref_table(i, 8);
        for (j = 0; j < zero_bytes; j++) c = (c >> 8) ^ ref_table(c & 0xFFu, 8);
        if (t[0][i] != c) {
            printf("  row for %u zero bytes, entry %u: 0x%08lx, want 0x%08lx\n", zero_bytes, i,
                   (unsigned long)t[0][i], (unsigned long)c);
            return 0;
        }
    }
    return 1;
}
#endif

static void test_crc32_tables(void)
{
#if ACCEL_CRC32_SIMD == 3
    CHECK(ACCEL_CRC32_SIMD == 3); /* the AArch64 instructions need no table */
#elif ACCEL_CRC32_IMPL == ACCEL_CRC32_NIBBLE
    unsigned i;
    for (i = 0; i < 16; i++) CHECK_EQ(accel__crc32_nibble[i], ref_table(i, 4));
#elif ACCEL_CRC32_IMPL == ACCEL_CRC32_TABLE256
    unsigned i;
    for (i = 0; i < 256; i++) CHECK_EQ(accel__crc32_t8[0][i], ref_table(i, 8));
#elif ACCEL_CRC32_IMPL >= ACCEL_CRC32_SLICE8
    unsigned k;
    /* the braid rows exist where the portable code sees long inputs (not under x86 folding) */
    CHECK_EQ(sizeof accel__crc32_t8 / sizeof accel__crc32_t8[0], ACCEL__CRC32_BRAID ? 16 : 8);
    CHECK_EQ(ACCEL__CRC32_BRAID, ACCEL_CRC32_IMPL == ACCEL_CRC32_BRAID && ACCEL_CRC32_SIMD == 0);
    for (k = 0; k < 8; k++) CHECK(ref_rows_match(accel__crc32_t8 + k, k));
#if ACCEL__CRC32_BRAID
    /* braid rows: a byte's way to the same lane of the next 32-byte row, 24..31 zero bytes */
    for (k = 0; k < 8; k++) CHECK(ref_rows_match(accel__crc32_t8 + 8 + k, 24 + k));
#endif
#else
    CHECK(ACCEL_CRC32_IMPL == ACCEL_CRC32_BITWISE);
#endif
}

/* The carry-less-multiply constants of the x86 paths: x^e mod P for the folding distances and
 * reduction steps, and P and floor(x^64 / P) as 33-bit reflected values. */
#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
/* x^n mod P in the reflected CRC's bit order (bit i = coefficient of x^(31-i)): multiplying by
 * x is one step of the bitwise CRC with a zero input bit. */
static uint32_t ref_xpow(unsigned n)
{
    uint32_t c = 0x80000000UL; /* x^0 */
    while (n--) c = (c & 1) ? (c >> 1) ^ 0xEDB88320UL : c >> 1;
    return c;
}
#endif
static void test_crc32_constants(void)
{
#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
    uint64_t pn, rem = 0, q = 0, mu = 0;
    int b;
    CHECK_EQ_U64(ACCEL__CRC32_F128H, ref_xpow(128 + 31));
    CHECK_EQ_U64(ACCEL__CRC32_F128L, ref_xpow(128 - 33));
    CHECK_EQ_U64(ACCEL__CRC32_F256H, ref_xpow(256 + 31));
    CHECK_EQ_U64(ACCEL__CRC32_F256L, ref_xpow(256 - 33));
    CHECK_EQ_U64(ACCEL__CRC32_F384H, ref_xpow(384 + 31));
    CHECK_EQ_U64(ACCEL__CRC32_F384L, ref_xpow(384 - 33));
    CHECK_EQ_U64(ACCEL__CRC32_F512H, ref_xpow(512 + 31));
    CHECK_EQ_U64(ACCEL__CRC32_F512L, ref_xpow(512 - 33));
    CHECK_EQ_U64(ACCEL__CRC32_F2048H, ref_xpow(2048 + 31));
    CHECK_EQ_U64(ACCEL__CRC32_F2048L, ref_xpow(2048 - 33));
    CHECK_EQ_U64(ACCEL__CRC32_R96, ref_xpow(95));
    CHECK_EQ_U64(ACCEL__CRC32_R64, ref_xpow(63));
    /* P in normal order (bit k = x^k): x^32 plus the reflected polynomial reversed */
    pn = 1ULL << 32;
    for (b = 0; b < 32; b++)
        if (0xEDB88320UL >> b & 1) pn |= 1ULL << (31 - b);
    /* floor(x^64 / P) by long division, then both as 33-bit reflected values */
    for (b = 64; b >= 0; b--) {
        rem = (rem << 1) | (b == 64);
        if (rem >> 32 & 1) {
            rem ^= pn;
            q |= 1ULL << b;
        }
    }
    CHECK(q >> 32 == 1); /* degree 32 */
    for (b = 0; b <= 32; b++)
        if (q >> b & 1) mu |= 1ULL << (32 - b);
    CHECK_EQ_U64(ACCEL__CRC32_MU, mu);
    CHECK_EQ_U64(ACCEL__CRC32_P, ((uint64_t)0xEDB88320UL << 1) | 1);
#else
    CHECK(ACCEL_CRC32_SIMD == 0 || ACCEL_CRC32_SIMD == 3); /* no such constants */
#endif
}

/* Randomized cross-check against the bitwise reference: every length 0..4096 from a random
 * start (misaligned by 0..63 bytes) and a random register, and three lengths of 1-3 MiB. */
#define CRC_BIG (3u * 1024 * 1024 + 4096 + 64)
static uint8_t crc_big[CRC_BIG];
static void crc_fill_big(void)
{
    size_t i;
    for (i = 0; i < CRC_BIG; i++) crc_big[i] = (uint8_t)(tl_rand() >> 24);
}

static void test_crc32_random(void)
{
    size_t n;
    unsigned bad = 0, k;
    crc_fill_big();
    for (n = 0; n <= 4096 && bad < 5; n++) {
        size_t off = tl_rand_below(64);
        uint32_t c0 = tl_rand(), got = accel_crc32_update(c0, crc_big + off, n);
        uint32_t want = ref_crc(c0, crc_big + off, n);
        if (got != want) {
            printf("  length %lu, offset %lu, crc 0x%08lx: 0x%08lx, want 0x%08lx\n",
                   (unsigned long)n, (unsigned long)off, (unsigned long)c0, (unsigned long)got,
                   (unsigned long)want);
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
    for (k = 1; k <= 3; k++) {
        size_t off = tl_rand_below(64);
        uint32_t c0 = tl_rand();
        n = k * 1024u * 1024u + tl_rand_below(4096);
        CHECK_EQ(accel_crc32_update(c0, crc_big + off, n), ref_crc(c0, crc_big + off, n));
    }
}

/* Chained updates: random pieces (mostly short, some of several KiB, some empty) give, after
 * each piece, the reference's value for everything so far. */
static void test_crc32_chained(void)
{
    unsigned round, bad = 0;
    crc_fill_big();
    for (round = 0; round < 40 && !bad; round++) {
        size_t pos = tl_rand_below(64), end = pos + 1 + tl_rand_below(round < 38 ? 20000 : 2000000);
        uint32_t c = tl_rand(), r = c;
        while (pos < end && !bad) {
            uint32_t pick = tl_rand_below(10);
            size_t len = pick < 4 ? tl_rand_below(20) : pick < 8 ? tl_rand_below(300)
                                                                 : tl_rand_below(5000);
            if (round >= 38 && pick == 9) len = tl_rand_below(700000);
            if (len > end - pos) len = end - pos;
            c = accel_crc32_update(c, crc_big + pos, len);
            r = ref_crc(r, crc_big + pos, len);
            if (c != r) {
                printf("  round %u: piece of %lu at %lu: 0x%08lx, want 0x%08lx\n", round,
                       (unsigned long)len, (unsigned long)pos, (unsigned long)c, (unsigned long)r);
                bad++;
            }
            pos += len;
        }
    }
    CHECK_EQ(bad, 0);
}

#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
/* NULL when this CPU can run the compiled-in x86 instructions, else why not */
static const char *crc_cpu_missing(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("pclmul") || !__builtin_cpu_supports("sse4.1"))
        return "this CPU lacks PCLMULQDQ or SSE4.1";
#if ACCEL_CRC32_SIMD == 2
    if (!__builtin_cpu_supports("avx512f")) return "this CPU lacks AVX-512F";
    if (!__builtin_cpu_supports("vpclmulqdq")) return "this CPU lacks VPCLMULQDQ";
#endif
    return NULL;
}
static void crc32_instructions_unavailable(void)
{
    const char *why = crc_cpu_missing();
    SKIP_CASE_ISA(why ? why : "");
}
#endif

static void crc_cases_run(void)
{
#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
    if (crc_cpu_missing()) {
        RUN(crc32_instructions_unavailable);
        return;
    }
#endif
    RUN(test_crc32);
    RUN(test_crc32_tables);
    RUN(test_crc32_constants);
    RUN(test_crc32_random);
    RUN(test_crc32_chained);
}
#endif
