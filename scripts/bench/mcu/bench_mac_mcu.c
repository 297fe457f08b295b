/* bench_mac_mcu - executed instructions per MAC of the mac kernels on QEMU's Cortex-M boards
 * (run by scripts/bench_mcu.sh, `make bench-mcu`). Under qemu-system-arm -icount the virtual
 * clock advances a fixed time per executed instruction, so SysTick (clocked from it) counts
 * instructions: calibrated at start-up on a loop of known length. It counts INSTRUCTIONS, not
 * cycles: a proxy for an in-order core, blind to wait states, multi-cycle loads and stalls.
 * Each op runs the engine and a plain reference loop (TFLite reference style: offsets added
 * per term, bounds checked per tap) built the same way in the same program; their outputs are
 * compared (digest). Data: int8, per-channel requantization, symmetric filters, computed by
 * the compiler from a hash into flash (the micro:bit has 16 KiB of RAM). Prints one line per
 * op: "row <op> <path> <engine instr/MAC x100> <reference x100> <exact 0/1>".
 * Pools have no multiplies: their rows count instructions per window tap (output elements x
 * window size, the nominal window; SAME windows at the border have fewer in-image taps).
 * -DBENCH_OPS=mask runs a subset (1 fc, 2 conv3x3, 4 dw3x3, 8 conv1x1, 16 maxpool2x2,
 * 32 avgpool3x3). */
#define ACCEL_IMPLEMENTATION
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#include "accel.h"

#include "mcu_count.h" /* now(), calibrate(), instr(), put(), put_u() */

/* byte i of a multiplicative hash, evaluated by the compiler */
#define H(i) (uint8_t)((((uint32_t)(i) * 2654435761u) >> 13) & 0xFFu)
#define H4(i) H(i), H((i) + 1), H((i) + 2), H((i) + 3)
#define H16(i) H4(i), H4((i) + 4), H4((i) + 8), H4((i) + 12)
#define H64(i) H16(i), H16((i) + 16), H16((i) + 32), H16((i) + 48)
#define H256(i) H64(i), H64((i) + 64), H64((i) + 128), H64((i) + 192)
#define H1K(i) H256(i), H256((i) + 256), H256((i) + 512), H256((i) + 768)
#define H4K(i) H1K(i), H1K((i) + 1024), H1K((i) + 2048), H1K((i) + 3072)
static const uint8_t bx[8192] = {H4K(0), H4K(4096)};
static const uint8_t bw[16384] = {H4K(8192), H4K(12288), H4K(16384), H4K(20480)};

#ifndef BENCH_OPS
#define BENCH_OPS 63
#endif

static uint8_t out[8192];
static int32_t bias[64], mult[64], shift[64];
static uint32_t scratch_w[1024]; /* 4 KiB */


static uint32_t digest(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    while (n--) h = (h ^ *p++) * 16777619u;
    return h;
}

/* ---- the plain reference loops ---- */
static uint8_t ref_out(int32_t acc, int ch, const accel_mac_quant *q)
{
    int32_t v = accel_mac_multiply_by_quantized_multiplier(acc, q->multiplier[ch], q->shift[ch]) + q->output_offset;
    v = v < q->act_min ? q->act_min : v > q->act_max ? q->act_max : v;
    return (uint8_t)(v & 0xFF);
}
static void ref_fc(int K, int N, const int8_t *x, const int8_t *w, const accel_mac_quant *q)
{
    int n, k;
    for (n = 0; n < N; n++) {
        int32_t acc = bias[n];
        for (k = 0; k < K; k++)
            acc += (x[k] + q->input_offset) * (w[n * K + k] + q->filter_offset);
        out[n] = ref_out(acc, n, q);
    }
}
/* kind 0 conv, 1 depthwise (depth multiplier 1); stride 1, dilation 1 */
static void ref_conv(int kind, const accel_mac_conv *g, const int8_t *x, const int8_t *w,
                     const accel_mac_quant *q)
{
    int H = (int)g->in_h, W = (int)g->in_w, C = (int)g->in_c, OH = (int)g->out_h;
    int OW = (int)g->out_w, OC = (int)g->out_c, KH = (int)g->k_h, KW = (int)g->k_w;
    int oy, ox, oc, ky, kx, c;
    for (oy = 0; oy < OH; oy++)
        for (ox = 0; ox < OW; ox++)
            for (oc = 0; oc < OC; oc++) {
                int32_t acc = bias[oc];
                for (ky = 0; ky < KH; ky++)
                    for (kx = 0; kx < KW; kx++) {
                        int iy = oy - (int)g->pad_top + ky, ix = ox - (int)g->pad_left + kx;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        if (kind == 0) {
                            for (c = 0; c < C; c++)
                                acc += (x[(iy * W + ix) * C + c] + q->input_offset) *
                                       (w[((oc * KH + ky) * KW + kx) * C + c] + q->filter_offset);
                        } else {
                            acc += (x[(iy * W + ix) * C + oc] + q->input_offset) *
                                   (w[(ky * KW + kx) * OC + oc] + q->filter_offset);
                        }
                    }
                out[(oy * OW + ox) * OC + oc] = ref_out(acc, oc, q);
            }
}

/* pools over int8 (kind 0 max, 1 average: TFLite's rounded division, half away from zero) */
static void ref_pool(int kind, const accel_mac_conv *g, const int8_t *x, int32_t lo, int32_t hi)
{
    int H = (int)g->in_h, W = (int)g->in_w, C = (int)g->in_c, OH = (int)g->out_h;
    int OW = (int)g->out_w, KH = (int)g->k_h, KW = (int)g->k_w;
    int SH = (int)g->stride_h, SW = (int)g->stride_w;
    int oy, ox, c, ky, kx;
    for (oy = 0; oy < OH; oy++)
        for (ox = 0; ox < OW; ox++)
            for (c = 0; c < C; c++) {
                int32_t acc = kind ? 0 : -128, n = 0;
                for (ky = 0; ky < KH; ky++)
                    for (kx = 0; kx < KW; kx++) {
                        int iy = oy * SH - (int)g->pad_top + ky, ix = ox * SW - (int)g->pad_left + kx;
                        int32_t v;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        v = x[(iy * W + ix) * C + c];
                        if (kind) acc += v;
                        else if (v > acc) acc = v;
                        n++;
                    }
                if (kind) acc = acc >= 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
                acc = acc < lo ? lo : acc > hi ? hi : acc;
                out[(oy * OW + ox) * C + c] = (uint8_t)(acc & 0xFF);
            }
}

static int bad;
static void row(const char *op, uint32_t macs, uint32_t ie, uint32_t ir, int exact)
{
    put("row ");
    put(op);
    put(" ");
    put(ACCEL_MAC_MCU ? (ACCEL_MAC_SIMD == 4 ? "fast-dsp" : "fast-portable") : "small");
    put(" ");
    put_u((uint32_t)((uint64_t)ie * 100u / macs));
    put(" ");
    put_u((uint32_t)((uint64_t)ir * 100u / macs));
    put(exact ? " 1\n" : " 0\n");
    if (!exact) bad++;
}

static void set_quant(accel_mac_quant *q, int n, int32_t sh)
{
    int i;
    for (i = 0; i < n; i++) {
        bias[i] = (int32_t)(H(i * 7 + 3) * 37) - 4000;
        mult[i] = (int32_t)(0x40000000u + ((uint32_t)H(i + 11) << 22));
        shift[i] = sh - (i % 2);
    }
    memset(q, 0, sizeof *q);
    q->dtype = ACCEL_MAC_INT8;
    q->input_offset = 5; /* zero point -5 */
    q->filter_offset = 0;
    q->output_offset = -3;
    q->multiplier = mult;
    q->shift = shift;
    q->count = (size_t)n;
    q->act_min = -128;
    q->act_max = 127;
    q->rounding = ACCEL_MAC_ROUND_DOUBLE;
}

static void geom(accel_mac_conv *g, uint32_t hw, uint32_t c, uint32_t oc, uint32_t k)
{
    memset(g, 0, sizeof *g);
    g->batches = 1;
    g->in_h = g->in_w = g->out_h = g->out_w = hw;
    g->in_c = c;
    g->out_c = oc;
    g->k_h = g->k_w = k;
    g->stride_h = g->stride_w = 1;
    g->pad_top = g->pad_left = k / 2; /* SAME */
}

int main(void)
{
    accel_mac_quant q;
    accel_mac_conv g;
    uint64_t t0, t1;
    uint32_t ie, ir, d;
    const int8_t *x = (const int8_t *)(const void *)bx, *w = (const int8_t *)(const void *)bw;
    accel_status st;
    calibrate();
    put("calibration ");
    put_u(tpi_milli);
    put(" timer ticks per 1000 instructions\n");

  if (BENCH_OPS & 1) {
    /* FC 256 -> 64, batch 1 */
    set_quant(&q, 64, -10);
    t0 = now();
    ref_fc(256, 64, x, w, &q);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 64);
    t0 = now();
    st = accel_mac_fully_connected(1, 256, 64, x, 256, w, 16384, bias, 64, &q, out, 64);
    t1 = now();
    ie = instr(t0, t1);
    row("fc", 256u * 64u, ie, ir, st == ACCEL_OK && digest(out, 64) == d);
  }

  if (BENCH_OPS & 2) {
    /* conv 3x3, 16x16x16 -> 16, SAME */
    set_quant(&q, 16, -9);
    geom(&g, 16, 16, 16, 3);
    t0 = now();
    ref_conv(0, &g, x, w, &q);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 4096);
    t0 = now();
    st = accel_mac_conv2d_with_scratch(&g, &q, x, 4096, w, 2304, bias, 16, out, 4096, scratch_w,
                                       sizeof scratch_w);
    t1 = now();
    ie = instr(t0, t1);
    row("conv3x3", 16u * 16u * 16u * 144u, ie, ir, st == ACCEL_OK && digest(out, 4096) == d);
  }

  if (BENCH_OPS & 4) {
    /* depthwise 3x3, 16x16x32, SAME */
    set_quant(&q, 32, -7);
    geom(&g, 16, 32, 32, 3);
    g.depth_multiplier = 1;
    t0 = now();
    ref_conv(1, &g, x, w, &q);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 8192);
    t0 = now();
    st = accel_mac_depthwise_conv2d(&g, &q, x, 8192, w, 288, bias, 32, out, 8192);
    t1 = now();
    ie = instr(t0, t1);
    row("dw3x3", 16u * 16u * 32u * 9u, ie, ir, st == ACCEL_OK && digest(out, 8192) == d);
  }

  if (BENCH_OPS & 8) {
    /* conv 1x1, 16x16x32 -> 32 */
    set_quant(&q, 32, -8);
    geom(&g, 16, 32, 32, 1);
    t0 = now();
    ref_conv(0, &g, x, w, &q);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 8192);
    t0 = now();
    st = accel_mac_conv2d_with_scratch(&g, &q, x, 8192, w, 1024, bias, 32, out, 8192, scratch_w,
                                       sizeof scratch_w);
    t1 = now();
    ie = instr(t0, t1);
    row("conv1x1", 16u * 16u * 32u * 32u, ie, ir, st == ACCEL_OK && digest(out, 8192) == d);
  }
  if (BENCH_OPS & 16) {
    /* max pool 2x2 stride 2, 16x16x32 -> 8x8x32, VALID */
    geom(&g, 16, 32, 32, 2);
    g.out_h = g.out_w = 8;
    g.stride_h = g.stride_w = 2;
    g.pad_top = g.pad_left = 0;
    t0 = now();
    ref_pool(0, &g, x, -128, 127);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 2048);
    t0 = now();
    st = accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8192, out, 2048);
    t1 = now();
    ie = instr(t0, t1);
    row("maxpool2x2", 8u * 8u * 32u * 4u, ie, ir, st == ACCEL_OK && digest(out, 2048) == d);
  }

  if (BENCH_OPS & 32) {
    /* average pool 3x3 stride 1, 16x16x32, SAME */
    geom(&g, 16, 32, 32, 3);
    t0 = now();
    ref_pool(1, &g, x, -128, 127);
    t1 = now();
    ir = instr(t0, t1);
    d = digest(out, 8192);
    t0 = now();
    st = accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8192, out, 8192);
    t1 = now();
    ie = instr(t0, t1);
    row("avgpool3x3", 16u * 16u * 32u * 9u, ie, ir, st == ACCEL_OK && digest(out, 8192) == d);
  }
    return bad ? 1 : 0;
}
