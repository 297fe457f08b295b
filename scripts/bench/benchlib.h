/* benchlib.h - what every bench program shares: a monotonic clock in seconds and the median of
 * a set of samples (reports quote medians, always next to a baseline measured in the same run). */
#ifndef ACCEL_BENCHLIB_H
#define ACCEL_BENCHLIB_H
#include <stdlib.h>
#include <time.h>

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

/* Time nf runners on the same work, samples interleaved (f[0], f[1], ..., f[0], ...) so load
 * changes hit all alike. Each runner is repeated until one sample takes >= BENCH_SAMPLE_S
 * seconds (20 ms unless the bench defines it; on a shared machine many short samples give a
 * steadier median ratio than a few long ones). med[j] is the median seconds per call of f[j];
 * ratio[j] the median of per-sample f[j]/f[0] time ratios (f[0] is the subject, the others its
 * baselines); lo[j]/hi[j] (when not NULL) the lower and upper quartiles of those ratios (with 7
 * samples the 2nd and 6th), the spread to quote with the median. nf <= 4. */
typedef void (*bench_runner)(void *ctx);
#ifndef BENCH_SAMPLES
#define BENCH_SAMPLES 7
#endif
#ifndef BENCH_SAMPLE_S
#define BENCH_SAMPLE_S 0.02
#endif
static void bench_interleaved_spread(bench_runner *f, int nf, void *ctx, double *med,
                                     double *ratio, double *lo, double *hi)
{
    static double s[4][BENCH_SAMPLES], rt[4][BENCH_SAMPLES];
    double t0;
    long reps[4];
    int i, j;
    long r;
    for (j = 0; j < nf; j++) {
        reps[j] = 1;
        for (;;) {
            t0 = bench_now_s();
            for (r = 0; r < reps[j]; r++) f[j](ctx);
            if (bench_now_s() - t0 > BENCH_SAMPLE_S || reps[j] > 1000000) break;
            reps[j] *= 2;
        }
    }
    for (i = 0; i < BENCH_SAMPLES; i++)
        for (j = 0; j < nf; j++) {
            t0 = bench_now_s();
            for (r = 0; r < reps[j]; r++) f[j](ctx);
            s[j][i] = (bench_now_s() - t0) / (double)reps[j];
        }
    for (j = 0; j < nf; j++) {
        for (i = 0; i < BENCH_SAMPLES; i++) rt[j][i] = s[j][i] / s[0][i];
        med[j] = bench_median(s[j], BENCH_SAMPLES);
        ratio[j] = bench_median(rt[j], BENCH_SAMPLES); /* sorts rt[j] */
        if (lo) lo[j] = rt[j][BENCH_SAMPLES / 4];
        if (hi) hi[j] = rt[j][BENCH_SAMPLES - 1 - BENCH_SAMPLES / 4];
    }
}
static void bench_interleaved(bench_runner *f, int nf, void *ctx, double *med, double *ratio)
{
    bench_interleaved_spread(f, nf, ctx, med, ratio, NULL, NULL);
}
#endif
