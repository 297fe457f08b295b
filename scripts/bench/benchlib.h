/* benchlib.h - what every bench program shares: a monotonic clock in seconds and the median of
 * a set of samples (reports quote medians, always next to a baseline measured in the same run). */
#ifndef ACCEL_BENCHLIB_H
#define ACCEL_BENCHLIB_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

static double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of n samples (sorts v in place). */
static double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Big buffers (weights beyond the L2) given to every side of a comparison alike: mmap'd, 2 MiB
 * aligned, transparent-huge-page advice by mode ('h' MADV_HUGEPAGE, 'n' MADV_NOHUGEPAGE, else
 * none), every page touched before use. Only for benches that define _DEFAULT_SOURCE (mmap's
 * MAP_ANONYMOUS and madvise are not POSIX). */
#ifdef MAP_ANONYMOUS
typedef struct {
    void *p, *base;
    size_t len;
} bench_big_map;
static bench_big_map bench_big_maps[64];
#define BENCH_BIG_ALIGN ((size_t)2 << 20)
static void *bench_big_alloc(size_t n, int mode)
{
    size_t len = n + BENCH_BIG_ALIGN, i;
    char *base, *p;
    for (i = 0; i < 64 && bench_big_maps[i].p; i++) {}
    if (i == 64) return NULL;
    base = (char *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == (char *)MAP_FAILED) return NULL;
    p = base + (BENCH_BIG_ALIGN - (size_t)((uintptr_t)base % BENCH_BIG_ALIGN)) % BENCH_BIG_ALIGN;
#ifdef MADV_HUGEPAGE
    if (mode == 'h') madvise(p, (n + BENCH_BIG_ALIGN - 1) / BENCH_BIG_ALIGN * BENCH_BIG_ALIGN, MADV_HUGEPAGE);
    if (mode == 'n') madvise(base, len, MADV_NOHUGEPAGE);
#endif
    memset(p, 0, n);
    bench_big_maps[i].p = p;
    bench_big_maps[i].base = base;
    bench_big_maps[i].len = len;
    return p;
}
/* 1 when p came from bench_big_alloc (and is now unmapped), else 0 */
static int bench_big_free(void *p)
{
    size_t i;
    for (i = 0; i < 64; i++)
        if (p && bench_big_maps[i].p == p) {
            munmap(bench_big_maps[i].base, bench_big_maps[i].len);
            bench_big_maps[i].p = NULL;
            return 1;
        }
    return 0;
}

/* Evicts n bytes at p from every cache level (where the ISA has a user-mode way to; returns 0
 * where it has none): the next reads come from memory. */
static int bench_flush(const void *p, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
    size_t i;
    for (i = 0; i < n; i += 64) __builtin_ia32_clflush((const char *)p + i);
    __builtin_ia32_mfence();
    return 1;
#elif defined(__aarch64__)
    size_t i;
    for (i = 0; i < n; i += 64) __asm__ __volatile__("dc civac, %0" : : "r"((const char *)p + i) : "memory");
    __asm__ __volatile__("dsb ish" : : : "memory");
    return 1;
#else
    (void)p;
    (void)n;
    return 0;
#endif
}

/* Reads n bytes at p (a multiple of 64) once, 8 words a line: the bandwidth ceiling of any
 * kernel that streams them (built -O3 -march=native the compiler vectorizes it). */
static volatile uint64_t bench_read_sink;
static void bench_read(const void *p, size_t n)
{
    const uint64_t *w = (const uint64_t *)p;
    uint64_t a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t i, k;
    for (i = 0; i + 8 <= n / 8; i += 8)
        for (k = 0; k < 8; k++) a[k] += w[i + k];
    bench_read_sink = a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
}
#endif

/* Time nf runners on the same work, samples interleaved (f[0], f[1], ..., f[0], ...) so load
 * changes hit all alike. A sample is one untimed call (it brings the runner's data back into
 * the caches after the other runners' samples) and then reps timed calls, reps chosen once per
 * runner so that they take >= BENCH_SAMPLE_S seconds (20 ms unless the bench defines it; on a
 * shared machine many short samples give a steadier median ratio than a few long ones), from
 * the fastest of 3 trials (a trial the machine preempted would choose too few). Without the
 * untimed call, a runner given reps = 1 would time only cold calls: its figure then depended
 * on the calibration's luck, differently in each process and for each runner. When one call of
 * a runner is longer than BENCH_SAMPLE_S, the others' samples are stretched to that length.
 * med[j] is the median seconds per call of f[j]; ratio[j] the median of per-sample f[j]/f[0]
 * time ratios (f[0] is the subject, the others its baselines); lo[j]/hi[j] (when not NULL) the
 * lower and upper quartiles of those ratios (with 7 samples the 2nd and 6th), the spread to
 * quote with the median; bench_tq[j] the lower and upper quartiles of f[j]'s own seconds per
 * call. nf <= 6.
 * With pre (bench_interleaved_pre; pre[j] may be NULL): pre[j] runs, untimed, before every
 * call of f[j], and a sample is that one call (e.g. pre evicts f[j]'s weights from the caches). */
typedef void (*bench_runner)(void *ctx);
#ifndef BENCH_SAMPLES
#define BENCH_SAMPLES 7
#endif
#ifndef BENCH_SAMPLE_S
#define BENCH_SAMPLE_S 0.02
#endif
static double bench_tq[6][2];
static void bench_interleaved_pre(bench_runner *f, bench_runner *pre, int nf, void *ctx,
                                  double *med, double *ratio, double *lo, double *hi)
{
    static double s[6][BENCH_SAMPLES], rt[6][BENCH_SAMPLES];
    double t0, t, call[6], longest = BENCH_SAMPLE_S;
    long reps[6];
    int i, j, trial;
    long r;
    for (j = 0; j < nf; j++) {
        reps[j] = 1;
        if (pre) { /* one call per sample; this call warms up code and data structures */
            if (pre[j]) pre[j](ctx);
            f[j](ctx);
            continue;
        }
        f[j](ctx);
        for (;;) {
            t = 1e30;
            for (trial = 0; trial < 3; trial++) {
                t0 = bench_now_s();
                for (r = 0; r < reps[j]; r++) f[j](ctx);
                t0 = bench_now_s() - t0;
                if (t0 < t) t = t0;
            }
            if (t > BENCH_SAMPLE_S || reps[j] > 1000000) break;
            reps[j] *= 2;
        }
        call[j] = t / (double)reps[j];
        if (call[j] > longest) longest = call[j];
    }
    /* every runner's sample as long as the longest one call: the two halves of a pair then see
     * the same stretch of a machine whose speed changes over time */
    for (j = 0; !pre && j < nf; j++)
        if (call[j] > 0 && longest / call[j] > (double)reps[j] && longest / call[j] < 1e6)
            reps[j] = (long)(longest / call[j] + 0.5);
    if (getenv("BENCH_VERBOSE"))
        for (j = 0; j < nf; j++) fprintf(stderr, "runner %d: %ld timed calls per sample\n", j, reps[j]);
    if (!pre && getenv("BENCH_REPS1")) reps[atoi(getenv("BENCH_REPS1")) % nf] = 1; /* experiment: as a preempted calibration would */
    for (i = 0; i < BENCH_SAMPLES; i++)
        for (j = 0; j < nf; j++) {
            if (pre && pre[j]) pre[j](ctx);
            if (!pre) f[j](ctx);
            t0 = bench_now_s();
            for (r = 0; r < reps[j]; r++) f[j](ctx);
            s[j][i] = (bench_now_s() - t0) / (double)reps[j];
        }
    for (j = 0; j < nf; j++) {
        for (i = 0; i < BENCH_SAMPLES; i++) rt[j][i] = s[j][i] / s[0][i];
        med[j] = bench_median(s[j], BENCH_SAMPLES); /* sorts s[j] */
        bench_tq[j][0] = s[j][BENCH_SAMPLES / 4];
        bench_tq[j][1] = s[j][BENCH_SAMPLES - 1 - BENCH_SAMPLES / 4];
        ratio[j] = bench_median(rt[j], BENCH_SAMPLES); /* sorts rt[j] */
        if (lo) lo[j] = rt[j][BENCH_SAMPLES / 4];
        if (hi) hi[j] = rt[j][BENCH_SAMPLES - 1 - BENCH_SAMPLES / 4];
    }
}
static void bench_interleaved_spread(bench_runner *f, int nf, void *ctx, double *med,
                                     double *ratio, double *lo, double *hi)
{
    bench_interleaved_pre(f, NULL, nf, ctx, med, ratio, lo, hi);
}
static void bench_interleaved(bench_runner *f, int nf, void *ctx, double *med, double *ratio)
{
    bench_interleaved_spread(f, nf, ctx, med, ratio, NULL, NULL);
}
#endif
