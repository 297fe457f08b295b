/* mac_selftest - accel's int8/uint8 MAC engine checked on the target itself: seven small cases
 * whose expected outputs were worked out by hand (fully connected int8 and uint8, conv2d,
 * depthwise with a depth multiplier, max pool with padding, average pool int8 and uint8; the
 * arithmetic is in each case's comment), an exact int16 x int16 -> int64 product from byte-plane
 * GEMMs compared with int64 arithmetic done here, and the CRC-32 check value. Prints "ok" or
 * "FAIL" per case, then "mac_selftest: N passed, M failed". Needs no devicetree node.
 * Build: west build -b qemu_cortex_m3 examples/zephyr/mac_selftest -t run (README, "Zephyr"). */
#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>
#include "accel.h"

static unsigned passed, failed;

/* A scale of exactly 1: multiplier 2^30 with shift 1. */
static const int32_t one_mult[1] = {1073741824};
static const int32_t one_shift[1] = {1};

static void quant(accel_mac_quant *q, accel_mac_dtype dt, int32_t in_off, int32_t f_off,
                  int32_t out_off, const int32_t *mult, const int32_t *shift, int32_t lo,
                  int32_t hi)
{
    q->dtype = dt;
    q->input_offset = in_off;
    q->filter_offset = f_off;
    q->output_offset = out_off;
    q->multiplier = mult;
    q->shift = shift;
    q->count = 1;
    q->act_min = lo;
    q->act_max = hi;
    q->rounding = ACCEL_MAC_ROUND_DOUBLE;
}

static void geometry(accel_mac_conv *g, uint32_t in_h, uint32_t in_w, uint32_t in_c,
                     uint32_t out_h, uint32_t out_w, uint32_t out_c, uint32_t k_h, uint32_t k_w)
{
    g->batches = 1;
    g->in_h = in_h;
    g->in_w = in_w;
    g->in_c = in_c;
    g->out_h = out_h;
    g->out_w = out_w;
    g->out_c = out_c;
    g->k_h = k_h;
    g->k_w = k_w;
    g->stride_h = g->stride_w = 1;
    g->dilation_h = g->dilation_w = 1;
    g->pad_top = g->pad_left = 0;
    g->groups = 1;
    g->depth_multiplier = 1;
}

/* Compare n output bytes (read as int8 or uint8) with the expected values. */
static void verdict(const char *name, accel_status st, const void *got, const int16_t *want,
                    size_t n, accel_mac_dtype dt)
{
    size_t i;
    if (st != ACCEL_OK) {
        printk("case %s FAIL status %s\n", name, accel_status_str(st));
        failed++;
        return;
    }
    for (i = 0; i < n; i++) {
        int v = dt == ACCEL_MAC_INT8 ? (int)((const int8_t *)got)[i] : (int)((const uint8_t *)got)[i];
        if (v != want[i]) {
            printk("case %s FAIL index %u got %d want %d\n", name, (unsigned)i, v, want[i]);
            failed++;
            return;
        }
    }
    printk("case %s ok\n", name);
    passed++;
}

/* acc0 = 1*3 + (-2)*4 + 10 = 5; acc1 = 1*(-1) + (-2)*5 - 3 = -14; scale 1. */
static void fc_int8(void)
{
    static const int8_t in[2] = {1, -2}, filt[4] = {3, 4, -1, 5};
    static const int32_t bias[2] = {10, -3};
    static const int16_t want[2] = {5, -14};
    int8_t out[2];
    accel_mac_quant q;
    quant(&q, ACCEL_MAC_INT8, 0, 0, 0, one_mult, one_shift, -128, 127);
    verdict("fc_int8",
            accel_mac_fully_connected(1, 2, 2, in, 2, filt, 4, bias, 2, &q, out, sizeof out), out,
            want, 2, ACCEL_MAC_INT8);
}

/* inputs - 128: 2, 0, -2; row 0 filters - 5: 5, -5, 250 -> acc -490; row 1: -4, -3, -2 -> -4.
 * scale 2^30 * 2^-2 / 2^31 = 1/8: -61.25 -> -61, + 100 = 39; -0.5 -> -1 (away from 0) + 100. */
static void fc_uint8(void)
{
    static const uint8_t in[3] = {130, 128, 126}, filt[6] = {10, 0, 255, 1, 2, 3};
    static const int32_t shift[1] = {-2};
    static const int16_t want[2] = {39, 99};
    uint8_t out[2];
    accel_mac_quant q;
    quant(&q, ACCEL_MAC_UINT8, -128, -5, 100, one_mult, shift, 0, 255);
    verdict("fc_uint8",
            accel_mac_fully_connected(1, 3, 2, in, 3, filt, 6, NULL, 0, &q, out, sizeof out), out,
            want, 2, ACCEL_MAC_UINT8);
}

/* inputs + 1 = 2 3 / 4 5, a 2x2 filter of ones, 2x2 output (taps off the image skipped), bias 1:
 * 2+3+4+5+1 = 15; 3+5+1 = 9; 4+5+1 = 10; 5+1 = 6. */
static void conv_int8(void)
{
    static const int8_t in[4] = {1, 2, 3, 4}, filt[4] = {1, 1, 1, 1};
    static const int32_t bias[1] = {1};
    static const int16_t want[4] = {15, 9, 10, 6};
    int8_t out[4];
    accel_mac_quant q;
    accel_mac_conv g;
    quant(&q, ACCEL_MAC_INT8, 1, 0, 0, one_mult, one_shift, -128, 127);
    geometry(&g, 2, 2, 1, 2, 2, 1, 2, 2);
    verdict("conv_int8", accel_mac_conv2d(&g, &q, in, 4, filt, 4, bias, 1, out, sizeof out), out,
            want, 4, ACCEL_MAC_INT8);
}

/* channel o = c*2 + m: 3*1 = 3, 3*2 = 6, -4*3 = -12, -4*-1 = 4. */
static void depthwise_dm2(void)
{
    static const int8_t in[2] = {3, -4}, filt[4] = {1, 2, 3, -1};
    static const int16_t want[4] = {3, 6, -12, 4};
    int8_t out[4];
    accel_mac_quant q;
    accel_mac_conv g;
    quant(&q, ACCEL_MAC_INT8, 0, 0, 0, one_mult, one_shift, -128, 127);
    geometry(&g, 1, 1, 2, 1, 1, 4, 1, 1);
    g.depth_multiplier = 2;
    verdict("depthwise_dm2",
            accel_mac_depthwise_conv2d(&g, &q, in, 2, filt, 4, NULL, 0, out, sizeof out), out,
            want, 4, ACCEL_MAC_INT8);
}

/* padding 1 on top and left, 2x2 window, stride 2: each window holds one pixel; 5, -7, 3, 9
 * clamped to the activation maximum 6. */
static void maxpool_pad(void)
{
    static const int8_t in[4] = {5, -7, 3, 9};
    static const int16_t want[4] = {5, -7, 3, 6};
    int8_t out[4];
    accel_mac_conv g;
    geometry(&g, 2, 2, 1, 2, 2, 1, 2, 2);
    g.stride_h = g.stride_w = 2;
    g.pad_top = g.pad_left = 1;
    verdict("maxpool_pad",
            accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 6, in, 4, out, sizeof out), out, want,
            4, ACCEL_MAC_INT8);
}

/* int8: (-3 + 0) / 2 = -1.5 -> -2 (away from zero); the second window holds only the 0. */
static void avgpool_int8(void)
{
    static const int8_t in[2] = {-3, 0};
    static const int16_t want[2] = {-2, 0};
    int8_t out[2];
    accel_mac_conv g;
    geometry(&g, 1, 2, 1, 1, 2, 1, 1, 2);
    verdict("avgpool_int8",
            accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, in, 2, out, sizeof out), out,
            want, 2, ACCEL_MAC_INT8);
}

/* uint8: (3 + 0 + 1) / 2 = 2; (0 + 0) / 1 = 0. */
static void avgpool_uint8(void)
{
    static const uint8_t in[2] = {3, 0};
    static const int16_t want[2] = {2, 0};
    uint8_t out[2];
    accel_mac_conv g;
    geometry(&g, 1, 2, 1, 1, 2, 1, 1, 2);
    verdict("avgpool_uint8",
            accel_mac_average_pool2d(&g, ACCEL_MAC_UINT8, 0, 255, in, 2, out, sizeof out), out,
            want, 2, ACCEL_MAC_UINT8);
}

/* 3x5 by 4x5 int16 (with -32768 in both) through the byte-plane GEMMs, against int64 sums. */
static void wide_s16(void)
{
    static uint32_t scratch[64];
    int16_t a[3 * 5], b[4 * 5];
    int64_t out[3 * 4];
    size_t need = 0;
    int m, n, k, exact = 1;
    accel_status st;
    for (k = 0; k < 15; k++) a[k] = (int16_t)(k * 4099 - 30000);
    for (k = 0; k < 20; k++) b[k] = (int16_t)(32767 - k * 3121);
    a[0] = -32768;
    b[0] = -32768;
    st = accel_mac_wide_scratch_size(2, 3, 4, 5, &need);
    if (st == ACCEL_OK && need > sizeof scratch) st = ACCEL_E_BUFFER_TOO_SMALL;
    if (st == ACCEL_OK) st = accel_mac_matmul_s16(3, 4, 5, a, 15, b, 20, out, 12, scratch, sizeof scratch);
    for (m = 0; st == ACCEL_OK && m < 3; m++)
        for (n = 0; n < 4; n++) {
            int64_t want = 0;
            for (k = 0; k < 5; k++) want += (int64_t)a[m * 5 + k] * b[n * 5 + k];
            if (want != out[m * 4 + n]) exact = 0;
        }
    if (st != ACCEL_OK || !exact) {
        printk("case wide_s16 FAIL %s\n", st != ACCEL_OK ? accel_status_str(st) : "not exact");
        failed++;
        return;
    }
    printk("case wide_s16 ok (scratch %u bytes)\n", (unsigned)need);
    passed++;
}

/* CRC-32/ISO-HDLC of "123456789" is 0xCBF43926 (the catalogued check value). */
static void crc32_check(void)
{
    uint32_t c = accel_crc32("123456789", 9);
    if (c != 0xCBF43926UL) {
        printk("case crc32 FAIL 0x%08x\n", (unsigned)c);
        failed++;
        return;
    }
    printk("case crc32 ok\n");
    passed++;
}

int main(void)
{
    printk("mac_selftest: accel %s\n", ACCEL_VERSION_STRING);
    fc_int8();
    fc_uint8();
    conv_int8();
    depthwise_dm2();
    maxpool_pad();
    avgpool_int8();
    avgpool_uint8();
    wide_s16();
    crc32_check();
    printk("mac_selftest: %u passed, %u failed\n", passed, failed);
    return 0;
}
