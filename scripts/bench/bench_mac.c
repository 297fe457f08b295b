/* bench_mac - the MAC engine against a naive loop, gemmlowp and XNNPACK, same run, same inputs.
 * Reports GMAC/s medians (301 interleaved samples of about 0.5 ms, each after one untimed call;
 * benchlib.h and README.md beside this file give the method) and ratios with their spread
 * (the quartiles of the per-sample ratios), then a summary against XNNPACK; every baseline's
 * output is compared with the engine's for bit-exactness on the benchmark's own data. Single
 * thread. The load average is printed before and after: the machine may be shared, and the
 * ratios (interleaved samples) hold better under load than the absolute figures.
 * Weights of 1 MiB and more, the engine's and XNNPACK's alike, are in 2 MiB-aligned mmap'd
 * memory with the same THP advice (BENCH_THP). Rows whose weights exceed the L2 are bound by
 * the memory stream: they also print each side's share of a plain read of the same bytes
 * (warm) and a second measurement with the weights flushed from the caches before every call
 * (cold, also in the summary).
 *   bench_mac [filter]   only the workloads whose name contains filter (e.g. "FC", "conv",
 *                        "int8", "uint8"; the name is "<op> <dtype>")
 *   BENCH_VERBOSE=1      also each runner's calls per sample and the huge-page state of the big
 *                        buffers */
#define _DEFAULT_SOURCE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <unistd.h>
/* many short samples: this machine is often shared, and a median over 301 interleaved samples
 * of 0.5 ms moves less under load than one over 7 of 20 ms (fewer samples straddle a switch to
 * another process) */
#ifndef BENCH_SAMPLES
#define BENCH_SAMPLES 301
#endif
#define BENCH_SAMPLE_S 0.0005
#include "benchlib.h"

int bench_gemmlowp_fc_u8(const uint8_t *x, const uint8_t *w, const int32_t *bias, int batches,
                         int depth, int outs, int input_offset, int filter_offset,
                         int output_offset, int32_t multiplier, int shift, int act_min,
                         int act_max, uint8_t *out);

void *bench_xnn_fc_create(int uint8, int depth, int outs, const uint8_t *w, const int32_t *bias,
                          int input_offset, int filter_offset, int output_offset, double scale,
                          int act_min, int act_max);
int bench_xnn_fc_run(void *op, int uint8, int batches, const uint8_t *x, uint8_t *out);
void bench_xnn_fc_delete(void *op);
void *bench_xnn_conv_create(int uint8, int depthwise, const uint32_t *g, const uint8_t *w,
                            const int32_t *bias, int input_offset, int filter_offset,
                            int output_offset, double scale, int act_min, int act_max);
int bench_xnn_conv_run(void *op, int uint8, const uint32_t *g, const uint8_t *x, uint8_t *out);


/* Weights of this size and more live in bench_big_alloc memory, on both sides alike */
#define BIG ((size_t)1 << 20)

/* THP advice for big buffers, per side (experiment): BENCH_THP_ENGINE / BENCH_THP_XNN, else
 * BENCH_THP; first letter h(uge), n(ohuge), else none */
static int thp_mode(const char *side)
{
    const char *v = getenv(side);
    if (!v || !*v) v = getenv("BENCH_THP");
    return v && *v ? v[0] : 'd';
}

/* XNNPACK's allocator: its packed weights (aligned allocations of 1 MiB and more) come from
 * bench_big_alloc like the engine's pack */
static void *xnn_big; /* XNNPACK's last big allocation (its packed weights) and its size */
static size_t xnn_big_len;
static void *xa_alloc(void *c, size_t n) { (void)c; return malloc(n); }
static void *xa_realloc(void *c, void *p, size_t n) { (void)c; return realloc(p, n); }
static void xa_free(void *c, void *p) { (void)c; free(p); }
static void *xa_aligned(void *c, size_t a, size_t n)
{
    void *p = NULL;
    (void)c;
    if (n >= BIG && a <= BENCH_BIG_ALIGN) {
        xnn_big_len = n;
        return xnn_big = bench_big_alloc(n, thp_mode("BENCH_THP_XNN"));
    }
    return posix_memalign(&p, a < sizeof(void *) ? sizeof(void *) : a, n) ? NULL : p;
}
static void xa_aligned_free(void *c, void *p)
{
    (void)c;
    if (!bench_big_free(p)) free(p);
}
static struct {
    void *context;
    void *(*allocate)(void *, size_t);
    void *(*reallocate)(void *, void *, size_t);
    void (*deallocate)(void *, void *);
    void *(*aligned_allocate)(void *, size_t, size_t);
    void (*aligned_deallocate)(void *, void *);
} xnn_alloc = {NULL, xa_alloc, xa_realloc, xa_free, xa_aligned, xa_aligned_free};
const void *bench_xnn_allocator(void);
const void *bench_xnn_allocator(void) { return &xnn_alloc; }

/* kB of the mapping holding p that sit in transparent huge pages (AnonHugePages in smaps) */
static long huge_kb(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[256];
    int in = 0;
    long kb = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    return kb;
}

static uint32_t rs = 12345;
static uint8_t rb(void)
{
    rs = rs * 1664525u + 1013904223u;
    return (uint8_t)(rs >> 24);
}

/* ---- one workload description ---- */
typedef struct {
    int kind; /* 0 fc/gemm, 1 conv, 2 depthwise, 3 fc prepacked */
    int dt;   /* 0 int8, 1 uint8 */
    accel_mac_conv g;
    int B, K, N;
    uint8_t *x, *w, *o, *o_ref;
    int32_t *bias, mult[64], shift[64];
    accel_mac_quant q;
    size_t nx, nw, no;
    void *xnn;
    void *pack_mem, *pack; /* kind 3: the pack (64-byte aligned in pack_mem) */
    size_t pack_len;
} work;

static void run_engine(void *p)
{
    work *k = (work *)p;
    accel_status st;
    if (k->kind == 3)
        st = accel_mac_fully_connected_packed((uint32_t)k->B, k->x, k->nx, k->pack, k->pack_len,
                                              &k->q, k->o, k->no);
    else if (k->kind == 0)
        st = accel_mac_fully_connected((uint32_t)k->B, (uint32_t)k->K, (uint32_t)k->N, k->x, k->nx, k->w,
                                       k->nw, k->bias, (size_t)k->N, &k->q, k->o, k->no);
    else if (k->kind == 1)
        st = accel_mac_conv2d(&k->g, &k->q, k->x, k->nx, k->w, k->nw, k->bias, k->g.out_c, k->o, k->no);
    else
        st = accel_mac_depthwise_conv2d(&k->g, &k->q, k->x, k->nx, k->w, k->nw, k->bias, k->g.out_c, k->o, k->no);
    if (st != ACCEL_OK) {
        fprintf(stderr, "engine: %s\n", accel_status_str(st));
        exit(1);
    }
}

static int32_t v8(const uint8_t *p, size_t i, int dt) { return dt ? p[i] : (int8_t)p[i]; }
static uint8_t fin(const work *k, int32_t acc, int ch)
{
    int i = k->q.count == 1 ? 0 : ch;
    int32_t v = accel_mac_multiply_by_quantized_multiplier(acc, k->mult[i], k->shift[i]) + k->q.output_offset;
    v = v < k->q.act_min ? k->q.act_min : v > k->q.act_max ? k->q.act_max : v;
    return (uint8_t)v;
}

/* The naive loops: TFLite reference style, offsets added per tap, bounds checked per tap. */
static void run_naive(void *p)
{
    work *k = (work *)p;
    int io = k->q.input_offset, fo = k->q.filter_offset, dt = k->dt;
    if (k->kind == 0 || k->kind == 3) {
        int b, n, c;
        for (b = 0; b < k->B; b++)
            for (n = 0; n < k->N; n++) {
                int32_t acc = 0;
                for (c = 0; c < k->K; c++)
                    acc += (v8(k->x, (size_t)(b * k->K + c), dt) + io) * (v8(k->w, (size_t)(n * k->K + c), dt) + fo);
                k->o_ref[b * k->N + n] = fin(k, acc + k->bias[n], n);
            }
    } else {
        const accel_mac_conv *g = &k->g;
        int H = (int)g->in_h, W = (int)g->in_w, C = (int)g->in_c, OH = (int)g->out_h, OW = (int)g->out_w;
        int OC = (int)g->out_c, KH = (int)g->k_h, KW = (int)g->k_w, dm = (int)(g->depth_multiplier ? g->depth_multiplier : 1);
        int b, oy, ox, oc, ky, kx, c;
        for (b = 0; b < (int)g->batches; b++)
            for (oy = 0; oy < OH; oy++)
                for (ox = 0; ox < OW; ox++)
                    for (oc = 0; oc < OC; oc++) {
                        int32_t acc = 0;
                        for (ky = 0; ky < KH; ky++)
                            for (kx = 0; kx < KW; kx++) {
                                int iy = oy * (int)g->stride_h - (int)g->pad_top + ky;
                                int ix = ox * (int)g->stride_w - (int)g->pad_left + kx;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                if (k->kind == 1) {
                                    for (c = 0; c < C; c++)
                                        acc += (v8(k->x, (size_t)(((b * H + iy) * W + ix) * C + c), dt) + io) *
                                               (v8(k->w, (size_t)(((oc * KH + ky) * KW + kx) * C + c), dt) + fo);
                                } else {
                                    acc += (v8(k->x, (size_t)(((b * H + iy) * W + ix) * C + oc / dm), dt) + io) *
                                           (v8(k->w, (size_t)((ky * KW + kx) * OC + oc), dt) + fo);
                                }
                            }
                        k->o_ref[((b * OH + oy) * OW + ox) * OC + oc] = fin(k, acc + k->bias[oc], oc);
                    }
    }
}

static void run_gemmlowp(void *p)
{
    work *k = (work *)p;
    bench_gemmlowp_fc_u8(k->x, k->w, k->bias, k->B, k->K, k->N, k->q.input_offset, k->q.filter_offset,
                         k->q.output_offset, k->mult[0], k->shift[0], k->q.act_min, k->q.act_max, k->o_ref);
}

static void run_xnnpack(void *p)
{
    work *k = (work *)p;
    if (k->kind == 0 || k->kind == 3) bench_xnn_fc_run(k->xnn, k->dt, k->B, k->x, k->o_ref);
    else bench_xnn_conv_run(k->xnn, k->dt, &k->g.batches, k->x, k->o_ref);
}

/* The engine's weights as it reads them (the pack, or the filter as given) */
static const void *engine_w(const work *k, size_t *n)
{
    *n = (k->kind == 3 ? k->pack_len : k->nw) & ~(size_t)63;
    return k->kind == 3 ? k->pack : (const void *)k->w;
}
static void run_read(void *p)
{
    size_t n;
    const void *w = engine_w((const work *)p, &n);
    bench_read(w, n);
}
static void flush_engine(void *p)
{
    size_t n;
    const void *w = engine_w((const work *)p, &n);
    bench_flush(w, n);
}
static void flush_xnnpack(void *p)
{
    (void)p;
    if (xnn_big) bench_flush(xnn_big, xnn_big_len);
}

/* Weights beyond this are read from L3 or memory at every call: the per-core L2 (1 MiB when
 * the C library does not say) */
static size_t l2_bytes(void)
{
    long v = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
    v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return v > 0 ? (size_t)v : BIG;
}

static void setup(work *k, int dt, double macs_scale)
{
    size_t i;
    (void)macs_scale;
    k->dt = dt;
    k->x = (uint8_t *)malloc(k->nx);
    k->w = (uint8_t *)(k->nw >= BIG ? bench_big_alloc(k->nw, thp_mode("BENCH_THP_ENGINE")) : malloc(k->nw));
    k->o = (uint8_t *)malloc(k->no);
    k->o_ref = (uint8_t *)malloc(k->no);
    k->bias = (int32_t *)malloc(sizeof(int32_t) * 4096);
    for (i = 0; i < k->nx; i++) k->x[i] = rb();
    for (i = 0; i < k->nw; i++) k->w[i] = rb();
    for (i = 0; i < 4096; i++) k->bias[i] = (int32_t)(rb() * 37) - 4000;
    memset(&k->q, 0, sizeof k->q);
    k->q.dtype = dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
    k->q.input_offset = dt ? -131 : 7;
    k->q.filter_offset = dt ? -119 : 0;
    k->q.output_offset = dt ? 128 : -3;
    k->mult[0] = 1518500250; /* ~0.7071 */
    k->shift[0] = k->kind == 2 ? -10 : -14;
    k->q.multiplier = k->mult;
    k->q.shift = k->shift;
    k->q.count = 1;
    k->q.act_min = dt ? 0 : -128;
    k->q.act_max = dt ? 255 : 127;
    if (k->kind == 3) {
        if (accel_mac_fully_connected_pack_mem_size((uint32_t)k->K, (uint32_t)k->N, &k->pack_len) != ACCEL_OK ||
            !(k->pack_mem = k->pack_len >= BIG ? bench_big_alloc(k->pack_len, thp_mode("BENCH_THP_ENGINE"))
                                                             : malloc(k->pack_len + 64))) {
            fprintf(stderr, "pack: no memory\n");
            exit(1);
        }
        k->pack = (uint8_t *)k->pack_mem + (64u - (uintptr_t)k->pack_mem % 64u) % 64u;
        if (accel_mac_fully_connected_pack((uint32_t)k->K, (uint32_t)k->N, k->w, k->nw, k->bias,
                                           (size_t)k->N, &k->q, k->pack, k->pack_len) != ACCEL_OK) {
            fprintf(stderr, "pack failed\n");
            exit(1);
        }
    }
}

static size_t ndiff(const work *k)
{
    size_t i, n = 0;
    for (i = 0; i < k->no; i++) n += k->o[i] != k->o_ref[i];
    return n;
}

/* one line of the summary: the engine's GMAC/s and its ratio to XNNPACK with the spread */
typedef struct {
    char name[48];
    double gmacs[2], xr[2], xlo[2], xhi[2];
    size_t xdiff[2], no;
    int have[2];
} summary_row;
static summary_row summary[16];
static int nsummary;
static const char *filter;

static void print_load(const char *when)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char line[128];
    if (f && fgets(line, sizeof line, f)) printf("load average %s: %s", when, line);
    if (f) fclose(f);
}

static void add_summary(const char *name, int dt, size_t no, double gmacs, int have, double xr,
                        double xlo, double xhi, size_t xdiff)
{
    summary_row *sr;
    int i;
    for (i = 0; i < nsummary && strcmp(summary[i].name, name) != 0; i++) {}
    if (i == nsummary && nsummary < 16) snprintf(summary[nsummary++].name, sizeof summary[0].name, "%s", name);
    if (i >= 16) return;
    sr = &summary[i];
    sr->have[dt] = have;
    sr->gmacs[dt] = gmacs;
    sr->no = no;
    if (have) {
        sr->xr[dt] = xr;
        sr->xlo[dt] = xlo;
        sr->xhi[dt] = xhi;
        sr->xdiff[dt] = xdiff;
    }
}

/* A row whose weights exceed the L2 streams them at every call: its speed is mostly the memory
 * system's. Two more lines say how much: warm, the engine against a plain read of the same
 * bytes (the stream's ceiling) in the same interleaved run; cold, every side's weights evicted
 * from every cache before each of its calls (what the ratio is when the host's L3 does not
 * keep them), with the same ceiling. */
static void report_big(const char *name, work *k, double macs, int xi, size_t xdiff)
{
    bench_runner f[3], pre[3];
    double med[3], ratio[3], lo[3], hi[3];
    char cold[64];
    size_t n;
    int nf = 0, ri;
    (void)engine_w(k, &n);
    f[nf] = run_engine, pre[nf++] = flush_engine;
    if (xi >= 0) f[nf] = run_xnnpack, pre[nf++] = flush_xnnpack;
    ri = nf;
    f[nf] = run_read, pre[nf++] = flush_engine;
    bench_interleaved_spread(f, nf, k, med, ratio, lo, hi);
    printf("  warm: engine at %3.0f%% of a plain read of its %.1f MiB (%.1f GB/s)", 100.0 * ratio[ri],
           (double)n / 1048576.0, (double)n / med[ri] * 1e-9);
    if (xi >= 0) printf(", xnnpack at %3.0f%%", 100.0 * med[ri] / med[1]);
    printf("\n");
    if (!bench_flush(k->o, 64)) return;
    bench_interleaved_pre(f, pre, nf, k, med, ratio, lo, hi);
    printf("  cold: engine %6.2f", macs / med[0] * 1e-9);
    if (xi >= 0) printf("  xnnpack %6.2f (x%5.2f %4.2f-%4.2f)", macs / med[1] * 1e-9, ratio[1], lo[1], hi[1]);
    printf("  plain read %.1f GB/s: engine at %3.0f%%\n", (double)n / med[ri] * 1e-9, 100.0 * ratio[ri]);
    snprintf(cold, sizeof cold, "%s, cold", name);
    add_summary(cold, k->dt, k->no, macs / med[0] * 1e-9, xi >= 0, xi >= 0 ? ratio[1] : 0, xi >= 0 ? lo[1] : 0,
                xi >= 0 ? hi[1] : 0, xdiff);
}

static void report(const char *name, work *k, double macs, int with_gemmlowp)
{
    bench_runner f[4];
    double med[4], ratio[4], lo[4], hi[4];
    char full[64];
    int exact_n, exact_g = 1, nf = 2, gi = -1, xi = -1;
    size_t xdiff = 0;
    snprintf(full, sizeof full, "%s %s", name, k->dt ? "uint8" : "int8");
    if (filter && !strstr(full, filter)) {
        if (!bench_big_free(k->pack_mem)) free(k->pack_mem);
        free(k->x); if (!bench_big_free(k->w)) free(k->w); free(k->o); free(k->o_ref); free(k->bias);
        return;
    }
    f[0] = run_engine;
    f[1] = run_naive;
    run_engine(k);
    run_naive(k);
    exact_n = memcmp(k->o, k->o_ref, k->no) == 0;
    if (with_gemmlowp) {
        run_gemmlowp(k);
        exact_g = memcmp(k->o, k->o_ref, k->no) == 0;
        gi = nf;
        f[nf++] = run_gemmlowp;
    }
    {
        /* the real scale the quantized multiplier was made from */
        double scale = (double)k->mult[0] * ldexp(1.0, k->shift[0] - 31);
        if (k->kind == 0 || k->kind == 3)
            k->xnn = bench_xnn_fc_create(k->dt, k->K, k->N, k->w, k->bias, k->q.input_offset,
                                         k->q.filter_offset, k->q.output_offset, scale,
                                         k->q.act_min, k->q.act_max);
        else
            k->xnn = bench_xnn_conv_create(k->dt, k->kind == 2, &k->g.batches, k->w, k->bias,
                                           k->q.input_offset, k->q.filter_offset,
                                           k->q.output_offset, scale, k->q.act_min, k->q.act_max);
        if (k->xnn) {
            run_xnnpack(k);
            xdiff = ndiff(k);
            xi = nf;
            f[nf++] = run_xnnpack;
        }
    }
    bench_interleaved_spread(f, nf, k, med, ratio, lo, hi);
    printf("%-30s %-5s engine %6.2f  naive %6.2f (x%5.2f %4.2f-%4.2f, %s)", name,
           k->dt ? "uint8" : "int8", macs / med[0] * 1e-9, macs / med[1] * 1e-9, ratio[1], lo[1],
           hi[1], exact_n ? "exact" : "DIFFERS");
    if (gi >= 0)
        printf("  gemmlowp %6.2f (x%5.2f %4.2f-%4.2f, %s)", macs / med[gi] * 1e-9, ratio[gi],
               lo[gi], hi[gi], exact_g ? "exact" : "DIFFERS");
    if (xi >= 0) {
        printf("  xnnpack %6.2f (x%5.2f %4.2f-%4.2f, ", macs / med[xi] * 1e-9, ratio[xi], lo[xi],
               hi[xi]);
        if (xdiff) printf("%zu of %zu outputs differ)", xdiff, k->no);
        else printf("exact)");
    }
    printf("\n");
    if (getenv("BENCH_VERBOSE") && k->pack_len >= BIG)
        printf("  engine pack %p: %ld kB in huge pages; XNNPACK's %p: %ld kB\n", k->pack, huge_kb(k->pack),
               xnn_big, xnn_big ? huge_kb(xnn_big) : -1L);
    add_summary(name, k->dt, k->no, macs / med[0] * 1e-9, xi >= 0, ratio[xi < 0 ? 0 : xi], lo[xi < 0 ? 0 : xi],
                hi[xi < 0 ? 0 : xi], xdiff);
    if ((k->kind == 0 || k->kind == 3) && k->nw > l2_bytes()) report_big(name, k, macs, xi, xdiff);
    fflush(stdout);
    bench_xnn_fc_delete(k->xnn);
    if (!bench_big_free(k->pack_mem)) free(k->pack_mem);
    free(k->x); if (!bench_big_free(k->w)) free(k->w); free(k->o); free(k->o_ref); free(k->bias);
}

static void print_summary(void)
{
    int i, dt;
    printf("\nengine / XNNPACK (median time ratio, >1 = engine faster; quartiles of the %d samples),"
           " engine GMAC/s, outputs where XNNPACK differs from TFLite's fixed-point result\n",
           BENCH_SAMPLES);
    printf("measured on: %s\n%s\n", bench_host_label(), bench_xnnpack_path());
    printf("| op | int8 | uint8 | XNNPACK differs (int8 / uint8) |\n|---|---|---|---|\n");
    for (i = 0; i < nsummary; i++) {
        const summary_row *r = &summary[i];
        printf("| %s |", r->name);
        for (dt = 0; dt < 2; dt++) {
            if (r->have[dt])
                printf(" %.2f (%.2f-%.2f; %.1f) |", r->xr[dt], r->xlo[dt], r->xhi[dt], r->gmacs[dt]);
            else if (r->gmacs[dt] > 0)
                printf(" - (%.1f) |", r->gmacs[dt]);
            else
                printf(" - |");
        }
        for (dt = 0; dt < 2; dt++) {
            printf("%s", dt ? " / " : " ");
            if (r->have[dt]) printf("%zu of %zu", r->xdiff[dt], r->no);
            else printf("-");
        }
        printf(" |\n");
    }
}

int main(int argc, char **argv)
{
    static const int fc[3] = {256, 1024, 2048};
    int i, dt;
    filter = argc > 1 ? argv[1] : NULL;
#ifdef BENCH_AVX2_BUILD
    if (!BENCH_AVX2_OF_512) {
        printf("bench_mac_avx2: this host has no AVX-512, so bench_mac is already its AVX2 build: nothing more to measure\n");
        return 0;
    }
    printf("bench_mac_avx2: the engine built for AVX2 without AVX-512, on an AVX-512 host\n");
#endif
    bench_host(1);
    print_load("before");
    printf("GMAC/s, medians of %d interleaved samples; (xR q1-q3) = median and quartiles of"
           " baseline time / engine time; single thread; ACCEL_MAC_FAST=%d ACCEL_MAC_SIMD=%d (%s)\n", BENCH_SAMPLES, ACCEL_MAC_FAST,
           ACCEL_MAC_SIMD, ACCEL_MAC_SIMD == 2 ? "AVX-512 VNNI" : ACCEL_MAC_SIMD == 1 ? "AVX2" : "portable");
    for (dt = 0; dt < 2; dt++) {
        /* the three sizes as given, then prepacked (kind 3; XNNPACK packs its filter too) */
        for (i = 0; i < 6; i++) {
            work k;
            char name[64];
            int packed = i >= 3, sz = fc[i % 3];
            memset(&k, 0, sizeof k);
            k.kind = packed ? 3 : 0; k.B = 1; k.K = sz; k.N = sz;
            k.nx = (size_t)k.K; k.nw = (size_t)k.K * (size_t)k.N; k.no = (size_t)k.N;
            setup(&k, dt, 0);
            snprintf(name, sizeof name, "FC %dx%d batch 1%s", sz, sz, packed ? " packed" : "");
            report(name, &k, (double)k.K * k.N, dt == 1 && !packed);
        }
        {
            work k;
            memset(&k, 0, sizeof k);
            k.kind = 0; k.B = 64; k.K = 256; k.N = 256;
            k.nx = 64 * 256; k.nw = 256 * 256; k.no = 64 * 256;
            setup(&k, dt, 0);
            report("GEMM 64x256x256", &k, 64.0 * 256 * 256, dt == 1);
        }
        {
            work k;
            memset(&k, 0, sizeof k);
            k.kind = 3; k.B = 64; k.K = 256; k.N = 256;
            k.nx = 64 * 256; k.nw = 256 * 256; k.no = 64 * 256;
            setup(&k, dt, 0);
            report("GEMM 64x256x256 packed", &k, 64.0 * 256 * 256, 0);
        }
        {
            work k;
            memset(&k, 0, sizeof k);
            k.kind = 1;
            k.g.batches = 1; k.g.in_h = k.g.in_w = 32; k.g.in_c = 16; k.g.out_h = k.g.out_w = 32;
            k.g.out_c = 32; k.g.k_h = k.g.k_w = 3; k.g.stride_h = k.g.stride_w = 1;
            k.g.pad_top = k.g.pad_left = 1;
            k.nx = 32 * 32 * 16; k.nw = 32 * 9 * 16; k.no = 32 * 32 * 32;
            setup(&k, dt, 0);
            report("conv 3x3 1x32x32x16->32 SAME", &k, 32.0 * 32 * 32 * 9 * 16, 0);
        }
        {
            work k;
            memset(&k, 0, sizeof k);
            k.kind = 2;
            k.g.batches = 1; k.g.in_h = k.g.in_w = 32; k.g.in_c = 64; k.g.out_h = k.g.out_w = 32;
            k.g.out_c = 64; k.g.k_h = k.g.k_w = 3; k.g.stride_h = k.g.stride_w = 1;
            k.g.pad_top = k.g.pad_left = 1; k.g.depth_multiplier = 1;
            k.nx = 32 * 32 * 64; k.nw = 9 * 64; k.no = 32 * 32 * 64;
            setup(&k, dt, 0);
            report("depthwise 3x3 1x32x32x64 SAME", &k, 32.0 * 32 * 64 * 9, 0);
        }
    }
    print_summary();
    print_load("after");
    return 0;
}
