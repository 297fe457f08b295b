/* bench_mac_opt.h - one workload of scripts/bench/bench_mac_opt.c, as the engines compiled at
 * other optimization levels (scripts/bench/parts/bench_mac_opt/engine.*.c) receive it. */
#ifndef BENCH_MAC_OPT_H
#define BENCH_MAC_OPT_H
typedef struct bench_op {
    int kind; /* 0 fc, 1 conv2d, 2 depthwise, 3 max pool */
    uint32_t B, K, N;
    const accel_mac_conv *g;
    const accel_mac_quant *q;
    const void *x, *w;
    const int32_t *bias;
    void *o, *scratch;
    size_t nx, nw, no, ns;
} bench_op;
int bench_O2_fc(const bench_op *k);
int bench_O2_conv(const bench_op *k);
int bench_O2_dw(const bench_op *k);
int bench_O2_maxpool(const bench_op *k);
int bench_O3_fc(const bench_op *k);
int bench_O3_conv(const bench_op *k);
int bench_O3_dw(const bench_op *k);
int bench_O3_maxpool(const bench_op *k);
#endif
