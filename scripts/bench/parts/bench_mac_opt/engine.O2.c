/* engine.O2.c - the mac engine's portable path (ACCEL_MAC_NO_SIMD) compiled plain -O2 (no
 * -march; the Makefile picks the flags from the name), behind functions named for it, for
 * scripts/bench/bench_mac_opt.c. ACCEL_STATIC keeps this copy of the engine private. */
#define ACCEL_STATIC
#define ACCEL_IMPLEMENTATION
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_MAC_NO_SIMD
#include "accel.h"
#include "bench_mac_opt.h"

int bench_O2_fc(const bench_op *k)
{
    return (int)accel_mac_fully_connected(k->B, k->K, k->N, k->x, k->nx, k->w, k->nw, k->bias,
                                          k->N, k->q, k->o, k->no);
}
int bench_O2_conv(const bench_op *k)
{
    return (int)accel_mac_conv2d_with_scratch(k->g, k->q, k->x, k->nx, k->w, k->nw, k->bias,
                                              k->g->out_c, k->o, k->no, k->scratch, k->ns);
}
int bench_O2_dw(const bench_op *k)
{
    return (int)accel_mac_depthwise_conv2d(k->g, k->q, k->x, k->nx, k->w, k->nw, k->bias,
                                           k->g->out_c, k->o, k->no);
}
int bench_O2_maxpool(const bench_op *k)
{
    return (int)accel_mac_max_pool2d(k->g, ACCEL_MAC_INT8, -128, 127, k->x, k->nx, k->o, k->no);
}
