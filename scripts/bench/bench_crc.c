/* bench_crc - CRC-32 throughput of each accel implementation and of zlib's crc32() on the same
 * 1 MiB buffer, in one run. Reports the median of 15 timed passes (after a warm-up) in GB/s and
 * the ratio to zlib. A report, not a test; every variant is first checked against zlib. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <zlib.h>
#include "benchlib.h"

uint32_t bench_crc_bitwise(uint32_t crc, const void *p, size_t n);
uint32_t bench_crc_nibble(uint32_t crc, const void *p, size_t n);
uint32_t bench_crc_table256(uint32_t crc, const void *p, size_t n);
uint32_t bench_crc_slice8(uint32_t crc, const void *p, size_t n);
static uint32_t zlib_crc(uint32_t crc, const void *p, size_t n)
{
    return (uint32_t)crc32(crc, (const Bytef *)p, (uInt)n);
}

#define N (1u << 20)
#define PASSES 15
static unsigned char buf[N];

/* median GB/s over PASSES passes of `reps` CRCs of the buffer */
static double run(uint32_t (*fn)(uint32_t, const void *, size_t), int reps, uint32_t *sink)
{
    double t[PASSES];
    int i, r;
    *sink ^= fn(0, buf, N); /* warm-up */
    for (i = 0; i < PASSES; i++) {
        double t0 = bench_now_s();
        for (r = 0; r < reps; r++) *sink ^= fn((uint32_t)r, buf, N);
        t[i] = ((double)N * reps / 1e9) / (bench_now_s() - t0);
    }
    return bench_median(t, PASSES);
}

int main(void)
{
    struct {
        const char *name;
        uint32_t (*fn)(uint32_t, const void *, size_t);
        int reps;
    } v[] = {{"zlib crc32()", zlib_crc, 8},
             {"accel BITWISE", bench_crc_bitwise, 1},
             {"accel NIBBLE", bench_crc_nibble, 1},
             {"accel TABLE256", bench_crc_table256, 2},
             {"accel SLICE8", bench_crc_slice8, 8}};
    unsigned i;
    uint32_t x = 1, sink = 0, want;
    double base = 0;
    for (i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (unsigned char)(x >> 24);
    }
    want = zlib_crc(0, buf, N);
    for (i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (v[i].fn(0, buf, N) != want) {
            printf("MISMATCH: %s gives 0x%08x, zlib 0x%08x\n", v[i].name, v[i].fn(0, buf, N), want);
            return 1;
        }
    }
    printf("CRC-32 over a 1 MiB buffer, median of %d passes (all variants agree: 0x%08x)\n", PASSES,
           want);
    printf("%-16s %10s %12s\n", "implementation", "GB/s", "vs zlib");
    for (i = 0; i < sizeof v / sizeof v[0]; i++) {
        double g = run(v[i].fn, v[i].reps, &sink);
        if (i == 0) base = g;
        printf("%-16s %10.3f %11.2fx\n", v[i].name, g, g / base);
    }
    return sink == 0xFFFFFFFFu; /* keep the work observable */
}
