/* test_mac_simd.c - the whole of test_mac.c with the x86 SIMD path of the mac section compiled
 * in (the Makefile's test flags have no -march, so the target is switched on here for the
 * included code only), plus random FC / GEMM cases aimed at the SIMD blocking: every depth tail
 * 1..200 (not multiples of 16/32/64), batch 1..9 (tiles of 1..4 rows and a 64-row chunk edge),
 * filter rows not a multiple of 4, extreme offsets; batch 1..3 at depths to 1280 with the weights
 * at every alignment (test_fc_simd_wide); depth 70001 with the largest products of either sign
 * through whole 8-row blocks, where the sums wrap (test_fc_simd_deep). The reference is the plain int64 loop of
 * test_mac.c, which the portable path matches too (test_mac, test_mac_small), so passing here
 * means bit-identical to it. Skips, with a note, when the CPU lacks AVX-512 VNNI.
 * tests/test_mac_simd_avx2.c runs the same with the AVX2 path (SIMD_AVX2_ONLY). */
#include <stdio.h>
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define SIMD_TRY 1
#pragma GCC push_options
#ifdef SIMD_AVX2_ONLY /* tests/test_mac_simd_avx2.c */
#pragma GCC target("avx2")
#define SIMD_WANT 1
#else
#pragma GCC target("avx2,avx512f,avx512bw,avx512vnni")
#define SIMD_WANT 2
#endif
#define main test_mac_main
#include "test_mac.c"
#undef main

/* One FC case against ref_fc (bytes) and the same shapes through matmul_s32 against the plain
 * int64 sum; prints the case (off: the weights' offset from a 64-byte boundary) and returns
 * the number of mismatches. */
static int fc_matmul_case(int it, int B, int K, int N, int off, const rq *r, const uint8_t *x,
                          const uint8_t *w, const int32_t *bias, uint8_t *o1, uint8_t *o2,
                          int32_t *acc)
{
    accel_mac_quant q;
    int bad = 0, m, n, k;
    fill_quant(&q, r);
    ref_fc(B, K, N, x, w, bias, r, o1);
    if (accel_mac_fully_connected((uint32_t)B, (uint32_t)K, (uint32_t)N, x, (size_t)(B * K), w,
                                  (size_t)(N * K), bias, bias ? (size_t)N : 0, &q, o2,
                                  (size_t)(B * N)) != ACCEL_OK ||
        memcmp(o1, o2, (size_t)(B * N)) != 0) {
        bad++;
        printf("  fc case %d B=%d K=%d N=%d off=%d dt=%d\n", it, B, K, N, off, r->dt);
    }
    if (accel_mac_matmul_s32(r->dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, (uint32_t)B, (uint32_t)N,
                             (uint32_t)K, x, (size_t)(B * K), r->io, w, (size_t)(N * K), r->fo,
                             acc, (size_t)(B * N)) != ACCEL_OK)
        return bad + 1;
    for (m = 0; m < B; m++)
        for (n = 0; n < N; n++) {
            int64_t s = 0;
            for (k = 0; k < K; k++)
                s += (int64_t)(val(x, (size_t)(m * K + k), r->dt) + r->io) *
                     (val(w, (size_t)(n * K + k), r->dt) + r->fo);
            if (s != acc[m * N + n]) {
                if (bad < 3) printf("  matmul case %d B=%d K=%d N=%d off=%d dt=%d\n", it, B, K, N, off, r->dt);
                bad++;
            }
        }
    return bad;
}

/* batch 70: crosses the 64-row chunk of accel__mac_simd_gemm */
static void test_fc_simd_random(void)
{
    static uint8_t x[70 * 200], w[23 * 200], o1[70 * 23], o2[70 * 23];
    static int32_t bias[23], acc[70 * 23];
    int it, bad = 0;
    for (it = 0; it < 4000 && bad < 3; it++) {
        int B = it % 50 == 0 ? 70 : rrange(1, 9), K = rrange(1, 200), N = rrange(1, 23), i;
        int hasb = (int)(rnd() % 4 != 0);
        rq r;
        rand_rq(&r, N, K);
        if (it % 3 == 0) { /* extreme offsets */
            r.io = r.dt ? (rnd() & 1 ? -255 : 0) : (rnd() & 1 ? -127 : 128);
            r.fo = r.dt ? (rnd() & 1 ? -255 : 0) : (rnd() & 1 ? -127 : 128);
        }
        rand_bytes(x, (size_t)(B * K));
        rand_bytes(w, (size_t)(N * K));
        if (it % 7 == 0) /* extreme bytes */
            for (i = 0; i < B * K; i++) x[i] = (uint8_t)(rnd() & 1 ? 0x00 : 0x80) ^ (uint8_t)(rnd() & 1 ? 0xFF : 0);
        for (i = 0; i < N; i++) bias[i] = rand_bias();
        bad += fc_matmul_case(it, B, K, N, 0, &r, x, w, hasb ? bias : NULL, o1, o2, acc);
    }
    CHECK_EQ(bad, 0);
}
/* FC with batch 1..3 (the weight-streaming kernel): depths that fill whole 256-byte passes and
 * leave every tail, multiples of 64 from 512 up (where the first bytes of each row are peeled
 * off so that the weight loads are aligned) with the weights at every offset 0..63 from a
 * 64-byte boundary, output channel counts across the 16-row blocks and their 4/8/12 rests. */
static void test_fc_simd_wide(void)
{
    static uint8_t x[3 * 1280], wbuf[40 * 1280 + 128], o1[3 * 40], o2[3 * 40];
    static int32_t bias[40], acc[3 * 40];
    int it, bad = 0;
    for (it = 0; it < 600 && bad < 3; it++) {
        int B = rrange(1, 3), N = rrange(1, 40), K, i;
        int hasb = (int)(rnd() % 4 != 0), off = rrange(0, 63);
        uint8_t *w = wbuf + ((64u - ((uintptr_t)wbuf & 63u)) & 63u) + off;
        rq r;
        K = it % 2 ? 64 * rrange(8, 20) : rrange(201, 1280);
        rand_rq(&r, N, K);
        if (it % 3 == 0) { /* extreme offsets; 128 (int8) and 0 (uint8) take no weight sums */
            r.io = r.dt ? (rnd() & 1 ? -255 : 0) : (rnd() & 1 ? -127 : 128);
            r.fo = r.dt ? (rnd() & 1 ? -255 : 0) : (rnd() & 1 ? -127 : 128);
        }
        rand_bytes(x, (size_t)(B * K));
        rand_bytes(w, (size_t)(N * K));
        for (i = 0; i < N; i++) bias[i] = rand_bias();
        bad += fc_matmul_case(it, B, K, N, off, &r, x, w, hasb ? bias : NULL, o1, o2, acc);
    }
    CHECK_EQ(bad, 0);
}
/* Depths past 2^32 / 65025 (the sums wrap) through whole 8-row blocks and a 4-row rest
 * (N = 15: 8 + 4 + 3 portable rows), batch 1 and 2, with the largest products of either
 * sign the kernels can see: X = x + io and W = w + fo both -255 (the weight byte the AVX2
 * kernel makes unsigned is then 0) or both +255 (that byte is 255: every vpmaddwd pair sum is
 * 2 * 65025), and random bytes; the depth's tail (70001 % 32 = 17) goes through the padded
 * step. FC against ref_fc, matmul_s32 against the int64 sum truncated to 32 bits. */
static void test_fc_simd_deep(void)
{
    enum { K = 70001, N = 15, B = 2 };
    static uint8_t x[B * K], w[N * K], o1[B * N], o2[B * N];
    static int32_t acc[B * N], bias[N];
    int mode, dt, b, bad = 0, m, n, k, i;
    for (mode = 0; mode < 3; mode++)
        for (dt = 0; dt < 2; dt++)
            for (b = 1; b <= B; b++) {
                rq r;
                accel_mac_quant q;
                uint8_t xb = 0, wb = 0;
                memset(&r, 0, sizeof r);
                r.dt = dt;
                if (mode == 1) { /* X = W = -255 */
                    r.io = r.fo = dt ? -255 : -127;
                    xb = wb = (uint8_t)(dt ? 0x00 : 0x80);
                } else { /* X = W = +255; random bytes with the same offsets */
                    r.io = r.fo = dt ? 0 : 128;
                    xb = wb = 0x7F | (uint8_t)(dt ? 0x80 : 0);
                }
                r.amin = dt ? 0 : -128;
                r.amax = r.amin + 255;
                r.nq = 1;
                r.mult[0] = 1518500250;
                r.shift[0] = -20;
                for (i = 0; i < b * K; i++) x[i] = mode ? xb : (uint8_t)rnd();
                for (i = 0; i < N * K; i++) w[i] = mode ? wb : (uint8_t)rnd();
                for (i = 0; i < N; i++) bias[i] = rand_bias();
                fill_quant(&q, &r);
                ref_fc(b, K, N, x, w, bias, &r, o1);
                if (accel_mac_fully_connected((uint32_t)b, K, N, x, (size_t)(b * K), w, (size_t)(N * K),
                                              bias, N, &q, o2, (size_t)(b * N)) != ACCEL_OK ||
                    memcmp(o1, o2, (size_t)(b * N)) != 0) {
                    printf("  fc deep mode %d dt %d B %d\n", mode, dt, b);
                    bad++;
                }
                if (accel_mac_matmul_s32(dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, (uint32_t)b, N, K, x,
                                         (size_t)(b * K), r.io, w, (size_t)(N * K), r.fo, acc,
                                         (size_t)(b * N)) != ACCEL_OK) {
                    bad++;
                    continue;
                }
                for (m = 0; m < b; m++)
                    for (n = 0; n < N; n++) {
                        int64_t s = 0;
                        for (k = 0; k < K; k++)
                            s += (int64_t)(val(x, (size_t)(m * K + k), dt) + r.io) *
                                 (val(w, (size_t)(n * K + k), dt) + r.fo);
                        if ((int32_t)(uint32_t)(uint64_t)s != acc[m * N + n]) bad++;
                    }
                if (mode) /* 65025 * 70001 mod 2^32: the sum did wrap */
                    CHECK_EQ(acc[0], (int32_t)(uint32_t)(65025ULL * K));
            }
    CHECK_EQ(bad, 0);
}
/* batch 1..2, an image of lo..hi rows and columns, a window up to 5x5 with strides 1..2, row
 * dilation 2 one time in 4 (columns too when dil_w), padding 0..2 on every side */
static void rand_window(geo *g, int lo, int hi, int dil_w)
{
    g->B = rrange(1, 2);
    g->H = rrange(lo, hi);
    g->W = rrange(lo, hi);
    g->KH = rrange(1, 5);
    g->KW = rrange(1, 5);
    g->sh = rrange(1, 2);
    g->sw = rrange(1, 2);
    g->dh = rnd() % 4 == 0 ? 2 : 1;
    g->dw = dil_w && rnd() % 4 == 0 ? 2 : 1;
    g->pt = rrange(0, 2);
    g->pl = rrange(0, 2);
    g->OH = (g->H + g->pt + rrange(0, 2) - ((g->KH - 1) * g->dh + 1)) / g->sh + 1;
    g->OW = (g->W + g->pl + rrange(0, 2) - ((g->KW - 1) * g->dw + 1)) / g->sw + 1;
    if (g->OH < 1) g->OH = 1;
    if (g->OW < 1) g->OW = 1;
}

/* conv2d / depthwise at channel counts that exercise the SIMD conv paths: output channels
 * across the 16-lane blocks and the 32-channel pairs (1..64, and >64 with per-tensor quant),
 * patches past the packed-filter limit (fs > 1024: the portable fallback), depthwise channel
 * counts across the 64-channel pass and its masked tail, depth multiplier 2, groups, strides,
 * dilation, padding on every side (outputs reaching past the image), batch 2. */
static void test_conv_simd_random(int kind)
{
    static uint8_t x[2 * 12 * 12 * 140], w[140 * 5 * 5 * 48], o1[2 * 14 * 14 * 140],
        o2[2 * 14 * 14 * 140 + 1];
    static int32_t bias[140];
    int it, bad = 0;
    for (it = 0; it < 1500 && bad < 3; it++) {
        geo g;
        rq r;
        rand_window(&g, 1, 12, 1);
        if (kind == 0) {
            g.groups = rnd() % 4 == 0 ? rrange(2, 3) : 1;
            g.C = g.groups * (rnd() % 5 == 0 ? rrange(40, 48) / g.groups : rrange(1, 20));
            g.OC = g.groups * rrange(1, 70 / g.groups);
            g.dm = 0;
        } else {
            g.groups = 0;
            g.dm = rnd() % 5 == 0 ? 2 : 1;
            g.C = rrange(1, 140 / g.dm);
            g.OC = g.C * g.dm;
        }
        rand_rq(&r, g.OC > 64 ? 1 : g.OC, g.KH * g.KW * g.C);
        bad += conv_case(kind, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
/* depthwise through the two-pixel kernel for windows up to 3 wide with horizontal stride and
 * dilation 1: window heights up to 17 (16 is its limit; 17 takes the general kernel), odd and
 * even output widths (a last single pixel), outputs reaching past both image edges, vertical
 * stride and dilation, every channel count to 140 (the masked 64-channel tail). */
static void test_depthwise_simd_rows(void)
{
    static uint8_t x[2 * 20 * 9 * 140], w[17 * 3 * 140], o1[2 * 22 * 13 * 140],
        o2[2 * 22 * 13 * 140 + 1];
    static int32_t bias[140];
    int it, bad = 0;
    for (it = 0; it < 400 && bad < 3; it++) {
        geo g;
        rq r;
        g.B = rrange(1, 2);
        g.H = rrange(1, 20);
        g.W = rrange(1, 9);
        g.KH = it % 4 == 0 ? rrange(6, 17) : rrange(1, 5);
        g.KW = rrange(1, 3);
        g.sh = rrange(1, 2);
        g.sw = 1;
        g.dh = rnd() % 4 == 0 ? 2 : 1;
        g.dw = 1;
        g.pt = rrange(0, 2);
        g.pl = rrange(0, 2);
        g.OH = (g.H + g.pt + rrange(0, 2) - ((g.KH - 1) * g.dh + 1)) / g.sh + 1;
        g.OW = g.W + g.pl + rrange(0, 2) - g.KW + 1;
        if (g.OH < 1) g.OH = 1;
        if (g.OW < 1) g.OW = 1;
        g.groups = 0;
        g.dm = 1;
        /* one whole 64-channel block with per-channel quantization now and then */
        g.C = it % 16 == 0 ? 64 : rrange(1, 140);
        g.OC = g.C;
        rand_rq(&r, g.OC > 64 ? 1 : g.OC, g.KH * g.KW);
        r.single = 0; /* the SIMD kernels run double rounding */
        bad += conv_case(1, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
/* conv2d through the AVX-512 kernel's in-place reading (one group, no column dilation, rows of
 * k_w * C bytes a multiple of 4): windows inside the image read from the input, the others
 * gathered with the zero point, mixed within one pass of 8 pixels; row dilation and strides;
 * images large enough for inner windows, batch 2 (windows move to the next image mid-pass);
 * output channel counts across the 16- and 32-channel blocks; both types, both offsets. */
static void test_conv2d_simd_direct(void)
{
    static uint8_t x[2 * 14 * 14 * 24], w[40 * 5 * 5 * 24], o1[2 * 16 * 16 * 40],
        o2[2 * 16 * 16 * 40 + 1];
    static int32_t bias[40];
    int it, bad = 0;
    for (it = 0; it < 600 && bad < 3; it++) {
        geo g;
        rq r;
        rand_window(&g, 3, 14, 0);
        g.groups = 1;
        g.dm = 0;
        /* rows of KW * C bytes, a multiple of 4: C a multiple of 4, or of 2 with KW even */
        g.C = g.KW % 2 == 0 && rnd() % 2 ? 2 * rrange(1, 12) : 4 * rrange(1, 6);
        if (g.KW % 4 == 0 && rnd() % 3 == 0) g.C = rrange(1, 24);
        g.OC = rrange(1, 40);
        rand_rq(&r, g.OC, g.KH * g.KW * g.C);
        r.single = 0; /* the SIMD kernels run double rounding */
        bad += conv_case(0, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
/* conv2d through the AVX2 kernel for in_c a multiple of 8 (3 pixels x 4 output channels a
 * pass, input and filter read in place): C 8..48 (16-byte steps, and 8-byte ones when C is an
 * odd multiple of 8), images from 1x1 (every window across an edge, some wholly outside) to
 * 14x14 (inner windows), inner and border pixels within one pass, strides 1-2, row dilation,
 * padding 0-2 (VALID and SAME), output channels 1..40 (the 4- and 8-channel tails), batch 2
 * (a pass across two images), both types, zero points at both edges, filter offsets 0 and
 * not, per-tensor and per-channel, both roundings; one case in 8 a 3x3 SAME stride-1 conv. */
static void test_conv2d_simd_c8(void)
{
    static uint8_t x[2 * 14 * 14 * 48], w[40 * 5 * 5 * 48], o1[2 * 16 * 16 * 40],
        o2[2 * 16 * 16 * 40 + 1];
    static int32_t bias[40];
    int it, bad = 0;
    for (it = 0; it < 800 && bad < 3; it++) {
        geo g;
        rq r;
        rand_window(&g, 1, 14, 0);
        if (it % 8 == 0) { /* SAME 3x3, stride 1 */
            g.KH = g.KW = 3;
            g.sh = g.sw = g.dh = g.dw = 1;
            g.pt = g.pl = 1;
            g.OH = g.H;
            g.OW = g.W;
        }
        g.groups = 1;
        g.dm = 0;
        g.C = 8 * rrange(1, 6);
        g.OC = rrange(1, 40);
        rand_rq(&r, g.OC, g.KH * g.KW * g.C);
        bad += conv_case(0, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
/* The same kernel where the sums wrap: 3x3 SAME over a 3x3 image of 4096 channels, every
 * product -65025 (36864 of them at the centre: below -2^31), 9 output channels, both types;
 * the reference wraps as TFLite's int32 accumulator does. */
static void test_conv2d_simd_c8_wrap(void)
{
    static uint8_t x[3 * 3 * 4096], w[9 * 3 * 3 * 4096], o1[3 * 3 * 9], o2[3 * 3 * 9 + 1];
    static int32_t bias[9];
    int dt, i;
    for (dt = 0; dt < 2; dt++) {
        geo g = {1, 3, 3, 4096, 3, 3, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0};
        rq r;
        accel_mac_conv c;
        accel_mac_quant q;
        memset(&r, 0, sizeof r);
        r.dt = dt;
        r.io = dt ? 0 : -127;
        r.fo = dt ? -255 : 128; /* w + fo = -255 (uint8 0) or 255 (int8 127) */
        r.oo = dt ? 0 : -128;
        r.amin = r.oo;
        r.amax = r.oo + 255;
        r.nq = 1;
        r.mult[0] = 1518500250;
        r.shift[0] = -24;
        memset(x, dt ? 255 : 0x80, sizeof x); /* x + io: uint8 255, int8 -128 - 127 = -255 */
        memset(w, dt ? 0 : 127, sizeof w);
        for (i = 0; i < 9; i++) bias[i] = i * 1000003 - 4000000;
        fill_quant(&q, &r);
        to_conv(&g, &c);
        ref_conv(0, &g, x, w, bias, &r, o1);
        memset(o2, 0xAA, sizeof o2);
        CHECK_ST(accel_mac_conv2d(&c, &q, x, sizeof x, w, sizeof w, bias, 9, o2, 9 * 9), ACCEL_OK);
        CHECK_MEM(o1, o2, 9 * 9);
        CHECK_EQ(o2[9 * 9], 0xAA);
    }
}
/* depthwise through the AVX2 kernel of 16 channels x 4 pixels a pass: channel counts 16..64
 * and their neighbours (the 8-channel and portable tails after the 16-blocks), output widths
 * 1..13 (short last passes of 1..3 pixels), images to 14x14 (inner passes, and passes mixing
 * inner and border pixels), windows 1x1..5x5, strides 1-2, dilation in both directions, padding
 * 0-2, batch 2, both types and offsets, per-tensor and per-channel, both roundings. */
static void test_depthwise_simd_c16(void)
{
    static const int cs[] = {16, 17, 23, 24, 31, 32, 33, 40, 48, 56, 63, 64};
    static uint8_t x[2 * 14 * 14 * 64], w[5 * 5 * 64], o1[2 * 16 * 16 * 64], o2[2 * 16 * 16 * 64 + 1];
    static int32_t bias[64];
    int it, bad = 0;
    for (it = 0; it < 600 && bad < 3; it++) {
        geo g;
        rq r;
        rand_window(&g, 1, 14, 1);
        g.groups = 0;
        g.dm = 1;
        g.C = cs[rnd() % (sizeof cs / sizeof cs[0])];
        g.OC = g.C;
        rand_rq(&r, g.OC, g.KH * g.KW);
        bad += conv_case(1, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
static void test_conv2d_simd_random(void) { test_conv_simd_random(0); }
static void test_depthwise_simd_random(void) { test_conv_simd_random(1); }
/* The prepacked FC (test_mac.c's fcp_case: ref_fc, the unpacked call, two packs, the packed
 * call) at the SIMD kernel's block edges: out_depth 1..130 with the multiples of 16 and 64 and
 * their neighbours, in_depth to 2100 with 2048 and depths that are not multiples of 4 or 8,
 * batches 1..5, both types, per-tensor and per-channel, the pack at 0, 4, 12, 64 bytes from a
 * 64-byte boundary. */
static void test_fcpack_simd(void)
{
    enum { SK = 2100, SN = 130, SB = 5, SCAP = 2 * (64 + 4 * 144 + 144 * SK) + 4096 };
    static const int ks[] = {2048, 2100, 2047, 2049, 2046, 2045, 1024, 1023, 1025, 1029, 511,
                             513, 517, 255, 257, 259, 67, 6, 2, 1, 3, 5, 7, 9};
    static const int ns[] = {1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80, 81,
                             127, 128, 129, 130, 2, 3, 4, 5};
    static const size_t offs[] = {0, 4, 12, 64};
    enum { NK = sizeof ks / sizeof ks[0], NN = sizeof ns / sizeof ns[0] };
    static uint8_t x[SB * SK], w[SN * SK], o1[SB * SN + FCP_G], o2[SB * SN + FCP_G],
        o3[SB * SN + FCP_G], mem[2][SCAP + 64];
    static int32_t bias[SN];
    fcp_bufs fb;
    int it, bad = 0;
    fb.x = x; fb.w = w; fb.o1 = o1; fb.o2 = o2; fb.o3 = o3; fb.bias = bias;
    fb.pk = fcp_align64(mem[0]);
    fb.pk2 = fcp_align64(mem[1]);
    fb.cap = SCAP;
    for (it = 0; it < 2 * NN + 160 && bad < 3; it++) {
        /* every listed out_depth twice, with listed depths; then random shapes */
        int N = it < 2 * NN ? ns[it % NN] : rnd() % 3 == 0 ? ns[rnd() % NN] : rrange(1, SN);
        int K = it < 2 * NN ? ks[(it * 7) % NK] : rnd() % 3 == 0 ? ks[rnd() % NK] : rrange(1, SK);
        int B = rrange(1, SB), hasb = rnd() % 4 != 0;
        size_t extra = rnd() % 3 == 0 ? (size_t)rrange(1, 64) : 0;
        rq r;
        fcp_rand_rq(&r, it & 1, N, K);
        bad += fcp_case("fcpack simd", it, B, K, N, &r, hasb, offs[(it / 2) % 4], extra, &fb);
    }
    CHECK_EQ(bad, 0);
}
#pragma GCC pop_options
#else
#define SIMD_TRY 0
#define main test_mac_main
#include "test_mac.c"
#undef main
#endif

int main(void)
{
#if SIMD_TRY
    __builtin_cpu_init();
    if (SIMD_WANT == 2 ? !__builtin_cpu_supports("avx512vnni") || !__builtin_cpu_supports("avx512bw")
                       : !__builtin_cpu_supports("avx2")) {
        /* compiled, not run: a skip by name, never counted as a pass */
        printf("SKIP %s: this CPU lacks %s (compiled, not run) [isa]\n1 skipped\n0 passed, 0 failed\n",
               SIMD_WANT == 2 ? "test_mac_simd" : "test_mac_simd_avx2",
               SIMD_WANT == 2 ? "AVX-512 VNNI/BW" : "AVX2");
        return 0;
    }
    printf("ACCEL_MAC_SIMD=%d (%s)\n", ACCEL_MAC_SIMD,
           ACCEL_MAC_SIMD == 2 ? "AVX-512 VNNI" : ACCEL_MAC_SIMD == 1 ? "AVX2" : "portable");
    if (ACCEL_MAC_SIMD != SIMD_WANT) {
        printf("FAIL: the SIMD path was not compiled in\n0 passed, 1 failed\n");
        return 1;
    }
    RUN(test_fc_simd_random);
    RUN(test_fc_simd_wide);
    RUN(test_fc_simd_deep);
    RUN(test_conv2d_simd_random);
    RUN(test_conv2d_simd_direct);
    RUN(test_conv2d_simd_c8);
    RUN(test_conv2d_simd_c8_wrap);
    RUN(test_depthwise_simd_random);
    RUN(test_depthwise_simd_rows);
    RUN(test_depthwise_simd_c16);
    RUN(test_fcpack_simd);
    return test_mac_main();
#else
    printf("SKIP: not an x86 GCC build; the SIMD path is not compiled here\n");
    return test_mac_main();
#endif
}
