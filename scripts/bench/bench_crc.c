/* bench_crc - CRC-32 throughput of each accel implementation against zlib's crc32() on the same
 * buffers, in one run: 64 B, 4 KiB and 1 MiB. A report, not a test; every variant is first
 * checked against zlib (every length 0..1100 at 4 offsets, and the whole 1 MiB).
 * Method: for each size, every variant runs once per round, in the same order, for 31 rounds
 * (interleaved, so load from other processes hits all alike); a sample is enough calls to take
 * about 2 ms, shorter than a scheduler time slice, so that on a shared machine most samples run
 * undisturbed and the median ignores the others. Reported per variant: the median GB/s with the
 * range of the samples; the median of the per-round ratios (zlib's time / the variant's time:
 * above 1 = faster than zlib) with their range; and the ratio of the fastest samples (what each
 * does undisturbed). zlib's own range says how noisy the machine was during the run.
 * The portable variants are built with ACCEL_CRC32_NO_SIMD (for generic x86-64 on x86-64, like
 * Debian's zlib: see parts/bench_crc/crc_variant.h); PCLMUL and VPCLMUL are the x86-64
 * folding paths (ACCEL_CRC32_SIMD 1 and 2), run when this CPU has the instructions; on other
 * hosts the -march=native build of accel.h (e.g. the AArch64 CRC32 path) is shown instead. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "benchlib.h"

#define DECL(v)                                                 \
    uint32_t bench_crc_##v(uint32_t crc, const void *p, size_t n); \
    int bench_crc_##v##_level(void);
DECL(bitwise)
DECL(nibble)
DECL(table256)
DECL(slice8)
DECL(braid)
DECL(pclmul)
DECL(vpclmul)
DECL(native)

static uint32_t zlib_crc(uint32_t crc, const void *p, size_t n)
{
    return (uint32_t)crc32(crc, (const Bytef *)p, (uInt)n);
}

#define N (1u << 20)
#define ROUNDS 31
#define MAXV 10
static unsigned char buf[N + 64];

typedef struct {
    const char *name;
    uint32_t (*fn)(uint32_t, const void *, size_t);
    int (*level)(void); /* NULL for zlib */
    int want;           /* the ACCEL_CRC32_SIMD level the variant is for; -1: any */
} variant;

static int cpu_has(int level)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (level >= 1 && !(__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")))
        return 0;
    if (level >= 2 && !(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq")))
        return 0;
    return level <= 2;
#else
    (void)level;
    return 1; /* native builds only select what this CPU has */
#endif
}

static uint32_t sink;
static double time_calls(const variant *v, size_t n, long reps)
{
    double t0 = bench_now_s();
    long r;
    for (r = 0; r < reps; r++) sink ^= v->fn((uint32_t)r, buf, n);
    return bench_now_s() - t0;
}

static void print_loadavg(const char *when)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char line[128];
    if (f && fgets(line, sizeof line, f)) printf("load average %s: %s", when, line);
    if (f) fclose(f);
}

static void run_size(const variant *v, int nv, size_t n)
{
    double t[MAXV][ROUNDS], ratio[MAXV][ROUNDS], g[ROUNDS], gbest0 = 1;
    long reps[MAXV];
    int j, i;
    for (j = 0; j < nv; j++) { /* calibrate: one sample takes about 2 ms */
        reps[j] = 1;
        while (time_calls(&v[j], n, reps[j]) < 0.002 && reps[j] < (1L << 30)) reps[j] *= 2;
    }
    for (i = 0; i < ROUNDS; i++)
        for (j = 0; j < nv; j++) t[j][i] = time_calls(&v[j], n, reps[j]) / (double)reps[j];
    printf("\n%-9lu bytes              GB/s: median (range)       vs zlib: median (range)   fastest\n",
           (unsigned long)n);
    for (j = 0; j < nv; j++) {
        double gmin = 1e30, gmax = 0, rmin = 1e30, rmax = 0;
        for (i = 0; i < ROUNDS; i++) {
            g[i] = (double)n / t[j][i] / 1e9;
            ratio[j][i] = t[0][i] / t[j][i];
            if (g[i] < gmin) gmin = g[i];
            if (g[i] > gmax) gmax = g[i];
            if (ratio[j][i] < rmin) rmin = ratio[j][i];
            if (ratio[j][i] > rmax) rmax = ratio[j][i];
        }
        printf("  %-26s %7.2f  (%6.2f - %6.2f)", v[j].name, bench_median(g, ROUNDS), gmin, gmax);
        if (j == 0) {
            gbest0 = gmax;
            printf("   zlib's slowest sample %.1fx its fastest\n", gmax / gmin);
        } else {
            printf("   %6.2fx (%5.2f - %5.2f)  %6.2fx\n", bench_median(ratio[j], ROUNDS), rmin, rmax,
                   gmax / gbest0);
        }
    }
}

int main(void)
{
    variant all[] = {{"zlib crc32()", zlib_crc, NULL, -1},
                     {"accel BITWISE", bench_crc_bitwise, bench_crc_bitwise_level, 0},
                     {"accel NIBBLE", bench_crc_nibble, bench_crc_nibble_level, 0},
                     {"accel TABLE256", bench_crc_table256, bench_crc_table256_level, 0},
                     {"accel SLICE8", bench_crc_slice8, bench_crc_slice8_level, 0},
                     {"accel BRAID (64-bit dflt)", bench_crc_braid, bench_crc_braid_level, 0},
                     {"accel PCLMUL (SIMD 1)", bench_crc_pclmul, bench_crc_pclmul_level, 1},
                     {"accel VPCLMUL (SIMD 2)", bench_crc_vpclmul, bench_crc_vpclmul_level, 2},
                     {"accel -march=native", bench_crc_native, bench_crc_native_level, -1}};
    variant v[MAXV];
    int nv = 0;
    unsigned i, k;
    uint32_t x = 1;
    bench_host(0);
    for (i = 0; i < sizeof buf; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (unsigned char)(x >> 24);
    }
    for (i = 0; i < sizeof all / sizeof all[0]; i++) {
        const variant *a = &all[i];
        int lv = a->level ? a->level() : -1;
        if (a->level && a->want >= 0 && lv != a->want) {
            printf("(%s: this compiler built ACCEL_CRC32_SIMD %d instead; not run)\n", a->name, lv);
            continue;
        }
        if (a->level && a->want < 0 && (lv == 1 || lv == 2)) continue; /* shown above */
        if (a->level && !cpu_has(lv)) {
            printf("(%s: this CPU lacks the instructions; not run)\n", a->name);
            continue;
        }
        for (k = 0; k <= 1100; k++) {
            size_t off = k % 4, len = k;
            if (a->fn(k, buf + off, len) != zlib_crc(k, buf + off, len)) {
                printf("MISMATCH: %s, length %u offset %u\n", a->name, k, (unsigned)off);
                return 1;
            }
        }
        if (a->fn(7, buf, N) != zlib_crc(7, buf, N)) {
            printf("MISMATCH: %s over 1 MiB\n", a->name);
            return 1;
        }
        v[nv++] = *a;
    }
    printf("CRC-32, %d variants agree with zlib; %d interleaved rounds of ~2 ms samples per size\n",
           nv, ROUNDS);
    print_loadavg("before");
    run_size(v, nv, 64);
    run_size(v, nv, 4096);
    run_size(v, nv, N);
    print_loadavg("after");
    return sink == 0x12345678u; /* keep the work observable */
}
