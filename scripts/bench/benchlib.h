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

/* ---- What a report measured: the CPU, its instruction sets, the build's, the paths taken ----
 * Every bench prints bench_host() first and labels its summary with bench_host_label(), so a
 * figure never travels without the machine and the ISA it came from. */

/* The value of the first "key : value" line of /proc/cpuinfo whose key is key ("" if none) */
static void bench_cpuinfo(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    size_t kl = strlen(key);
    out[0] = 0;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        char *v;
        if (strncmp(line, key, kl) != 0 || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':')) continue;
        v = strchr(line, ':');
        if (!v) continue;
        for (v++; *v == ' '; v++) {}
        snprintf(out, n, "%s", v);
        out[strcspn(out, "\n")] = 0;
        break;
    }
    fclose(f);
}

/* CPU model name with x86 family/model/stepping (or the Arm implementer/part) */
static const char *bench_cpu_name(void)
{
    static char name[256];
    char m[128], fam[32], mod[32], step[32];
    if (name[0]) return name;
    bench_cpuinfo("model name", m, sizeof m);
    bench_cpuinfo("cpu family", fam, sizeof fam);
    bench_cpuinfo("model", mod, sizeof mod);
    bench_cpuinfo("stepping", step, sizeof step);
    if (m[0] && fam[0])
        snprintf(name, sizeof name, "%s (family %s, model %s, stepping %s)", m, fam, mod, step);
    else {
        char impl[32], part[32];
        bench_cpuinfo("CPU implementer", impl, sizeof impl);
        bench_cpuinfo("CPU part", part, sizeof part);
        snprintf(name, sizeof name, "%s (implementer %s, part %s)", m[0] ? m : "unknown CPU",
                 impl[0] ? impl : "?", part[0] ? part : "?");
    }
    return name;
}

/* The CPU's flags among those the kernels here can use (x86 "flags", Arm "Features") */
static const char *bench_cpu_isa(void)
{
    static const char *want[] = {"sse4_2", "avx", "avx2", "fma", "bmi2", "f16c", "pclmulqdq",
                                 "vpclmulqdq", "avx_vnni", "avx512f", "avx512bw", "avx512dq",
                                 "avx512vl", "avx512_vnni", "asimd", "asimddp", "i8mm", "sve"};
    static char out[256];
    char fl[4096], tok[40];
    size_t i;
    if (out[0]) return out;
    bench_cpuinfo("flags", fl, sizeof fl);
    if (!fl[0]) bench_cpuinfo("Features", fl, sizeof fl);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        snprintf(tok, sizeof tok, " %s ", want[i]);
        {
            char padded[4100];
            snprintf(padded, sizeof padded, " %s ", fl);
            if (strstr(padded, tok)) {
                size_t l = strlen(out);
                snprintf(out + l, sizeof out - l, "%s%s", l ? " " : "", want[i]);
            }
        }
    }
    if (!out[0]) snprintf(out, sizeof out, "(none of the listed)");
    return out;
}

/* The instruction sets this translation unit was compiled for (the predefined macros) */
static const char *bench_build_isa(void)
{
    return ""
#ifdef __AVX512VNNI__
           "avx512vnni "
#endif
#ifdef __AVX512BW__
           "avx512bw "
#endif
#ifdef __AVX512F__
           "avx512f "
#endif
#ifdef __AVXVNNI__
           "avxvnni "
#endif
#ifdef __AVX2__
           "avx2 "
#endif
#ifdef __FMA__
           "fma "
#endif
#ifdef __BMI2__
           "bmi2 "
#endif
#if defined(__SSE4_2__) && !defined(__AVX__)
           "sse4.2 "
#endif
#ifdef __ARM_FEATURE_DOTPROD
           "dotprod "
#endif
#ifdef __ARM_NEON
           "neon "
#endif
           "";
}

/* The mac section's path in this build (needs accel.h before this header) */
static const char *bench_accel_path(void)
{
#ifdef ACCEL_MAC_SIMD
    static char out[96];
    snprintf(out, sizeof out, "ACCEL_MAC_FAST=%d ACCEL_MAC_SIMD=%d (%s)", ACCEL_MAC_FAST, ACCEL_MAC_SIMD,
             ACCEL_MAC_SIMD == 2 ? "AVX-512 VNNI" : ACCEL_MAC_SIMD == 1 ? "AVX2"
             : ACCEL_MAC_SIMD == 3 ? "AArch64 dotprod" : ACCEL_MAC_SIMD == 4 ? "Arm DSP"
             : ACCEL_MAC_FAST ? "portable C" : "plain loops");
    return out;
#else
    return "(mac section not in this bench)";
#endif
}

/* XNNPACK's path: the library picks its kernels at run time from the CPU's flags, and Debian's
 * build exports no name for them. What can be said from here: the widest vector ISA its x86
 * dispatch can pick on this CPU (its avx512skx kernels need AVX-512 F, BW, DQ and VL; below
 * that, AVX2). On the AVX2 host this was written on, perf showed its int8 FC in a 256-bit
 * vpmovsxbw / vpmaddwd loop (8 channels, 8 inputs per step), as that rule says. */
static const char *bench_xnnpack_path(void)
{
    const char *f = bench_cpu_isa();
#if defined(__x86_64__) || defined(__i386__)
    if (strstr(f, "avx512f") && strstr(f, "avx512bw") && strstr(f, "avx512dq") && strstr(f, "avx512vl"))
        return "XNNPACK: AVX-512 (avx512skx) kernels at most, by its dispatch on these flags";
    if (strstr(f, "avx2")) return "XNNPACK: AVX2 kernels at most (no AVX-512 here), by its dispatch on these flags";
    return "XNNPACK: SSE/AVX kernels (no AVX2 here), by its dispatch on these flags";
#else
    (void)f;
    return "XNNPACK: its NEON kernels, by its dispatch on these flags";
#endif
}

/* The header every report starts with */
static void bench_host(int with_xnnpack)
{
    printf("host: CPU %s\n", bench_cpu_name());
    printf("host: CPU flags (of those used here): %s\n", bench_cpu_isa());
    printf("host: this bench compiled for: %s; accel: %s\n", bench_build_isa()[0] ? bench_build_isa() : "baseline ISA",
           bench_accel_path());
    if (with_xnnpack) printf("host: %s\n", bench_xnnpack_path());
}

/* One line for a summary table: CPU, build ISA, accel path */
static const char *bench_host_label(void)
{
    static char out[512];
    snprintf(out, sizeof out, "%s; build %s; %s", bench_cpu_name(),
             bench_build_isa()[0] ? bench_build_isa() : "baseline ISA ", bench_accel_path());
    return out;
}
#endif
