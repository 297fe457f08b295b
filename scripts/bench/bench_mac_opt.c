/* bench_mac_opt - the mac engine's portable C path (ACCEL_MAC_NO_SIMD, what a distribution's
 * x86-64 or AArch64 build without -march runs) compiled plain -O2 and plain -O3, same run,
 * same inputs: GMAC/s medians and the -O2/-O3 ratio. The kernels are written so that GCC's -O2
 * (no vectorizer beyond its very-cheap model) already produces register-blocked code; what -O3
 * adds is the vectorizer. Both builds must produce the same outputs. Single thread. The
 * -O2/-O3 speed is the median of the per-sample time ratios, with their quartiles. */
#define _POSIX_C_SOURCE 199309L
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* as bench_mac: many short interleaved samples, steadier on a shared machine */
#define BENCH_SAMPLES 301
#define BENCH_SAMPLE_S 0.0005
#include "benchlib.h"
#include "parts/bench_mac_opt/bench_mac_opt.h"

static uint32_t rs = 777;
static uint8_t rb(void)
{
    rs = rs * 1664525u + 1013904223u;
    return (uint8_t)(rs >> 24);
}

typedef int (*engine_fn)(const bench_op *);
static const bench_op *cur;
static engine_fn cur_o2, cur_o3;
static void run_o2(void *p) { (void)p; cur_o2(cur); }
static void run_o3(void *p) { (void)p; cur_o3(cur); }

static void report(const char *name, bench_op *k, engine_fn f2, engine_fn f3, double macs,
                   const char *unit)
{
    bench_runner f[2] = {run_o2, run_o3};
    double med[2], ratio[2], lo[2], hi[2];
    uint8_t *keep = (uint8_t *)malloc(k->no);
    int exact;
    cur = k;
    cur_o2 = f2;
    cur_o3 = f3;
    if (f2(k) != 0 || f3(k) != 0) {
        fprintf(stderr, "%s: engine error\n", name);
        exit(1);
    }
    memcpy(keep, k->o, k->no);
    f2(k);
    exact = memcmp(keep, k->o, k->no) == 0;
    free(keep);
    bench_interleaved_spread(f, 2, k, med, ratio, lo, hi);
    /* ratio[1] = the median of per-sample -O3 time / -O2 time: the -O2 build's relative speed */
    printf("%-32s -O2 %7.2f  -O3 %7.2f %s   -O2/-O3 speed %5.2f (%4.2f-%4.2f)  %s\n", name,
           macs / med[0] * 1e-9, macs / med[1] * 1e-9, unit, ratio[1], lo[1], hi[1],
           exact ? "same output" : "OUTPUTS DIFFER");
    fflush(stdout);
}

int main(void)
{
    static uint8_t x[64 * 32 * 32 * 2], w[1024 * 1024], o[64 * 32 * 32 * 2], scratch[16384];
    static int32_t bias[1024], mult[1024], shift[1024];
    accel_mac_quant q;
    accel_mac_conv g;
    bench_op k;
    size_t i;
    bench_host(0);
    for (i = 0; i < sizeof x; i++) x[i] = rb();
    for (i = 0; i < sizeof w; i++) w[i] = rb();
    for (i = 0; i < 1024; i++) {
        bias[i] = (int32_t)(rb() * 37) - 4000;
        mult[i] = (int32_t)(0x40000000u + ((uint32_t)rb() << 22));
        shift[i] = -9 - (int32_t)(i % 3);
    }
    memset(&q, 0, sizeof q);
    q.dtype = ACCEL_MAC_INT8;
    q.input_offset = 5;
    q.output_offset = -3;
    q.multiplier = mult;
    q.shift = shift;
    q.count = 1024;
    q.act_min = -128;
    q.act_max = 127;
    {
        FILE *la = fopen("/proc/loadavg", "r");
        char line[128];
        if (la && fgets(line, sizeof line, la)) printf("load average: %s", line);
        if (la) fclose(la);
    }
    printf("the portable path (ACCEL_MAC_NO_SIMD) at plain -O2 and plain -O3 (no -march), GMAC/s,\n"
           "medians of %d interleaved samples; int8 per-channel; single thread\n", BENCH_SAMPLES);
    memset(&k, 0, sizeof k);
    k.q = &q;
    k.x = x;
    k.w = w;
    k.bias = bias;
    k.o = o;
    k.B = 1, k.K = 256, k.N = 256, k.nx = 256, k.nw = 65536, k.no = 256;
    report("FC 256x256 batch 1", &k, bench_O2_fc, bench_O3_fc, 65536.0, "GMAC/s");
    k.B = 1, k.K = 1024, k.N = 1024, k.nx = 1024, k.nw = 1024 * 1024, k.no = 1024;
    report("FC 1024x1024 batch 1", &k, bench_O2_fc, bench_O3_fc, 1024.0 * 1024, "GMAC/s");
    k.B = 64, k.K = 256, k.N = 256, k.nx = 64 * 256, k.nw = 65536, k.no = 64 * 256;
    report("GEMM 64x256x256", &k, bench_O2_fc, bench_O3_fc, 64.0 * 65536, "GMAC/s");
    memset(&g, 0, sizeof g);
    g.batches = 1, g.in_h = g.in_w = g.out_h = g.out_w = 32, g.in_c = 16, g.out_c = 32;
    g.k_h = g.k_w = 3, g.stride_h = g.stride_w = 1, g.pad_top = g.pad_left = 1;
    k.g = &g, k.nx = 32 * 32 * 16, k.nw = 32 * 9 * 16, k.no = 32 * 32 * 32;
    k.scratch = NULL, k.ns = 0;
    report("conv 3x3 32x32x16->32 SAME", &k, bench_O2_conv, bench_O3_conv, 32.0 * 32 * 32 * 144, "GMAC/s");
    k.scratch = scratch, k.ns = sizeof scratch;
    report("  the same, caller scratch", &k, bench_O2_conv, bench_O3_conv, 32.0 * 32 * 32 * 144, "GMAC/s");
    g.in_c = g.out_c = 32, g.k_h = g.k_w = 1, g.pad_top = g.pad_left = 0;
    k.nx = 32 * 32 * 32, k.nw = 32 * 32, k.no = 32 * 32 * 32, k.scratch = NULL, k.ns = 0;
    report("conv 1x1 32x32x32->32", &k, bench_O2_conv, bench_O3_conv, 32.0 * 32 * 32 * 32, "GMAC/s");
    g.in_c = g.out_c = 64, g.k_h = g.k_w = 3, g.pad_top = g.pad_left = 1, g.depth_multiplier = 1;
    k.nx = 32 * 32 * 64, k.nw = 9 * 64, k.no = 32 * 32 * 64;
    report("depthwise 3x3 32x32x64 SAME", &k, bench_O2_dw, bench_O3_dw, 32.0 * 32 * 64 * 9, "GMAC/s");
    g.depth_multiplier = 0, g.k_h = g.k_w = 2, g.stride_h = g.stride_w = 2, g.out_h = g.out_w = 16;
    g.pad_top = g.pad_left = 0, k.no = 16 * 16 * 64;
    report("max pool 2x2/2 32x32x64", &k, bench_O2_maxpool, bench_O3_maxpool, 32.0 * 32 * 64, "Gtap/s");
    return 0;
}
