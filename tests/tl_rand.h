/* tl_rand.h - the seeded generator every randomized test and the fuzz targets' plain runner
 * share (testlib.h includes it). tl_seed(default) prints the seed it uses, which the environment
 * variable ACCEL_TEST_SEED overrides, so every failure can be replayed; tl_rand() is xorshift32.
 * Host-only (uses stdio). */
#ifndef ACCEL_TL_RAND_H
#define ACCEL_TL_RAND_H
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

/* Seeded generator shared by every randomized test. */
static uint32_t tl_rng_state = 1;
static inline uint32_t tl_seed(uint32_t dflt)
{
    const char *e = getenv("ACCEL_TEST_SEED");
    uint32_t s = dflt;
    if (e && *e) s = (uint32_t)strtoul(e, NULL, 0);
    printf("seed %lu (set ACCEL_TEST_SEED to replay another)\n", (unsigned long)s);
    tl_rng_state = s ? s : 0x9E3779B9u; /* xorshift needs a non-zero state */
    return s;
}
static inline uint32_t tl_rand(void)
{
    uint32_t x = tl_rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return tl_rng_state = x;
}
/* Uniform in 0..n-1 (n > 0; the small modulo bias does not matter for tests). */
static inline uint32_t tl_rand_below(uint32_t n) { return tl_rand() % n; }

#endif
