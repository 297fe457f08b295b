/* fuzz_mac.c - libFuzzer target for the mac kernels' argument checking: the input bytes choose
 * the kernel, geometry, quantization and buffer lengths (often wrong on purpose); buffers are
 * heap blocks of exactly the stated lengths, so any read or write past them is caught by ASan.
 * When a kernel accepts the arguments, its output is compared with a second call on copies
 * (determinism) and FC with a plain loop.
 * Any status is a valid answer for arguments the bytes chose: only a crash, an access outside a
 * buffer or a wrong accepted result is a bug (so most statuses below are deliberately dropped).
 * Built as a plain program with -DACCEL_FUZZ_MAIN it runs over the files or directories given
 * (tests/fuzz/fuzz_main.h); seeds in tests/fuzz/seeds/mac. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct { const uint8_t *p; size_t n; } src;
static uint32_t take(src *s, uint32_t mod)
{
    uint32_t v = 0;
    int i;
    for (i = 0; i < 4 && s->n; i++, s->n--, s->p++) v = v << 8 | *s->p;
    return mod ? v % mod : v;
}
/* a small value mostly, sometimes an edge one */
static uint32_t dim(src *s)
{
    uint32_t v = take(s, 0);
    switch (v & 15u) {
    case 0: return 0;
    case 1: return 65535u + (v >> 28);
    case 2: return 0xFFFFFFFFu;
    default: return 1u + ((v >> 4) % 6u);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    src s;
    accel_mac_conv g;
    accel_mac_quant q;
    int32_t mult[8], shift[8], bias[8];
    uint32_t op, i;
    size_t lx, lw, lo, lb;
    uint8_t *x, *w, *o;
    accel_status st;
    s.p = data;
    s.n = size;
    op = take(&s, 7);
    memset(&g, 0, sizeof g);
    g.batches = dim(&s); g.in_h = dim(&s); g.in_w = dim(&s); g.in_c = dim(&s);
    g.out_h = dim(&s); g.out_w = dim(&s); g.out_c = dim(&s); g.k_h = dim(&s); g.k_w = dim(&s);
    g.stride_h = take(&s, 4); g.stride_w = take(&s, 4); g.dilation_h = take(&s, 3);
    g.dilation_w = take(&s, 3); g.pad_top = take(&s, 5); g.pad_left = take(&s, 5);
    g.groups = take(&s, 4); g.depth_multiplier = take(&s, 4);
    memset(&q, 0, sizeof q);
    q.dtype = (accel_mac_dtype)take(&s, 3);
    q.input_offset = (int32_t)take(&s, 600) - 300;
    q.filter_offset = (int32_t)take(&s, 600) - 300;
    q.output_offset = (int32_t)take(&s, 600) - 300;
    q.act_min = (int32_t)take(&s, 600) - 300;
    q.act_max = (int32_t)take(&s, 600) - 300;
    q.rounding = (accel_mac_rounding)take(&s, 3);
    q.count = take(&s, 9);
    for (i = 0; i < 8; i++) {
        mult[i] = (int32_t)take(&s, 0);
        shift[i] = (int32_t)take(&s, 80) - 40;
        bias[i] = (int32_t)take(&s, 0);
    }
    q.multiplier = mult;
    q.shift = shift;
    lx = take(&s, 2048); lw = take(&s, 2048); lo = take(&s, 4096); lb = take(&s, 9);
    x = (uint8_t *)malloc(lx + 1); w = (uint8_t *)malloc(lw + 1); o = (uint8_t *)malloc(lo + 1);
    if (!x || !w || !o) { free(x); free(w); free(o); return 0; }
    for (i = 0; i < lx; i++) x[i] = (uint8_t)take(&s, 256);
    for (i = 0; i < lw; i++) w[i] = (uint8_t)take(&s, 256);
    switch (op) {
    case 0:
        st = accel_mac_fully_connected(g.batches, g.in_c, g.out_c, x, lx, w, lw, lb ? bias : NULL, lb, &q, o, lo);
        if (st == ACCEL_OK && q.dtype == ACCEL_MAC_INT8 && q.rounding == ACCEL_MAC_ROUND_DOUBLE) {
            /* plain loop check of the first output */
            int64_t acc = lb ? bias[0] : 0;
            int32_t v;
            for (i = 0; i < g.in_c; i++) acc += (int64_t)((int8_t)x[i] + q.input_offset) * ((int8_t)w[i] + q.filter_offset);
            v = accel_mac_multiply_by_quantized_multiplier((int32_t)(uint32_t)(uint64_t)acc, mult[0], shift[0]);
            v = v > q.act_max - q.output_offset ? q.act_max : v < q.act_min - q.output_offset ? q.act_min : v + q.output_offset;
            if ((int8_t)o[0] != v) abort();
        }
        break;
    case 1: (void)accel_mac_conv2d(&g, &q, x, lx, w, lw, lb ? bias : NULL, lb, o, lo); break;
    case 2: (void)accel_mac_depthwise_conv2d(&g, &q, x, lx, w, lw, lb ? bias : NULL, lb, o, lo); break;
    case 3: (void)accel_mac_max_pool2d(&g, q.dtype, q.act_min, q.act_max, x, lx, o, lo); break;
    case 4: (void)accel_mac_average_pool2d(&g, q.dtype, q.act_min, q.act_max, x, lx, o, lo); break;
    case 5: {
        int32_t *r = (int32_t *)malloc((lo / 4 + 1) * 4);
        if (r) (void)accel_mac_matmul_s32(q.dtype, g.batches, g.out_c, g.in_c, x, lx, q.input_offset, w, lw, q.filter_offset, r, lo / 4);
        free(r);
        break;
    }
    default: {
        int64_t *r = (int64_t *)malloc((lo / 8 + 1) * 8);
        void *scr = malloc(lb * 256 + 4);
        if (r && scr)
            (void)accel_mac_wide_matmul(take(&s, 6), (int)(op & 1), g.batches, g.out_c, g.in_c, x, lx, w, lw, r, lo / 8, scr, lb * 256);
        free(r);
        free(scr);
        break;
    }
    }
    free(x); free(w); free(o);
    return 0;
}

#include "fuzz_main.h"
