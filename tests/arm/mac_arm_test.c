/* mac_arm_test.c - the mac section's Arm and microcontroller paths, executed under emulation
 * by tests/mac_arm.sh (never built natively by the Makefile: it is not a tests/test_*.c).
 *   -DMAC_ARM_WANT=3  AArch64 NEON sdot build (-march=armv8.2-a+dotprod), run by qemu-aarch64
 *   -DMAC_ARM_WANT=4  Cortex-M4/M7/M33 DSP build (ACCEL_MAC_SIMD 4: SXTAB16/SMLAD kernels), run
 *                     by qemu-system-arm on an mps2 board with newlib semihosting
 *   -DMAC_ARM_WANT=0  no explicit SIMD (the portable microcontroller kernels on Cortex-M0/M3, or
 *                     the host), for comparison
 *   -DMAC_ARM_MCU=1   also require ACCEL_MAC_MCU (the microcontroller kernels) in this build
 *   -DMAC_ARM_SMALL   a build for 16 KiB of RAM (the micro:bit): smaller random cases, without
 *                     tests/test_mac.c and the deep wrap test
 *   -DMAC_ARM_SEED=n  the seed of the random cases (printed; tests/mac_arm.sh passes one)
 * The build stops (#error) when ACCEL_MAC_SIMD is not the wanted path, so a flag that silently
 * stopped selecting the SIMD code cannot pass.
 * Random cases aimed at what the Arm and microcontroller code does differently from the plain
 * loops: FC/GEMM at every depth tail of the 16-byte sdot, 8-byte DSP and 4-byte steps, filter
 * rows in blocks of 3 or 4 and their remainders, batch > 1, unaligned input and filter
 * pointers; conv2d (1x1 and 3x3 favoured, strides, dilation, padding, groups; one input channel a
 * group with windows up to 8x8) with and without
 * caller scratch (exact size, one byte short, any alignment), depthwise conv2d (whole 3x3
 * windows and clipped ones, depth multipliers, channel counts off the groups of 4), max and
 * average pools; the offset algebra at the edge zero points and bytes, extreme multipliers,
 * shifts and biases, single rounding, sums that wrap modulo 2^32. The reference is written
 * here from TFLite's reference kernels (int64 sums truncated to 32 bits, gemmlowp's
 * SaturatingRoundingDoublingHighMul and RoundingDivideByPOT, or single rounding).
 * Every output feeds a digest printed as "digest XXXXXXXX": the script checks that every
 * build of the same test set prints the same one. Then (not MAC_ARM_SMALL) the whole of
 * tests/test_mac.c runs on the same build (every kernel, the wide products, error paths). */
#ifndef MAC_ARM_WANT
#error "build with -DMAC_ARM_WANT=3, 4 or 0 (see tests/mac_arm.sh)"
#endif
/* only the mac section is under test; leaving the device sections out halves each build */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#ifndef MAC_ARM_SMALL
#define main test_mac_main
#include "../test_mac.c" /* defines ACCEL_IMPLEMENTATION, includes accel.h and testlib.h */
#undef main
#else
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "../testlib.h"
#endif
#ifndef MAC_ARM_SEED
#define MAC_ARM_SEED 1
#endif
#if defined(MAC_ARM_MCU) && !ACCEL_MAC_MCU
#error "MAC_ARM_MCU: this build does not select the microcontroller kernels"
#endif

#if ACCEL_MAC_SIMD != MAC_ARM_WANT
#error "ACCEL_MAC_SIMD is not the path this build asked for (MAC_ARM_WANT)"
#endif
#if MAC_ARM_WANT == 3 && !defined(__aarch64__)
#error "MAC_ARM_WANT=3 needs an AArch64 target"
#endif
#if MAC_ARM_WANT == 4 && !(defined(__arm__) && defined(__ARM_FEATURE_DSP))
#error "MAC_ARM_WANT=4 needs a 32-bit Arm target with the DSP extension"
#endif

/* Own generator and reference, independent of test_mac.c's, so the digest depends on this
 * file only. */
static uint64_t ar_state = 0x2545F4914F6CDD1DULL ^ ((uint64_t)MAC_ARM_SEED << 17);
static uint32_t ar_rnd(void)
{
    ar_state ^= ar_state << 13;
    ar_state ^= ar_state >> 7;
    ar_state ^= ar_state << 17;
    return (uint32_t)(ar_state >> 32);
}
static int32_t ar_range(int32_t lo, int32_t hi) /* inclusive */
{
    return lo + (int32_t)(ar_rnd() % (uint32_t)(hi - lo + 1));
}

static uint32_t ar_digest = 2166136261UL; /* FNV-1a over every output */
static void ar_feed(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) ar_digest = (ar_digest ^ p[i]) * 16777619UL;
}
static void ar_feed32(const int32_t *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t u = (uint32_t)v[i];
        uint8_t b[4];
        b[0] = (uint8_t)u; b[1] = (uint8_t)(u >> 8); b[2] = (uint8_t)(u >> 16); b[3] = (uint8_t)(u >> 24);
        ar_feed(b, 4);
    }
}

/* floor(v / 2^e) without shifting a negative number */
static int64_t ar_floor_pot(int64_t v, int e)
{
    int64_t d = (int64_t)1 << e;
    return v >= 0 ? v / d : -((-v + d - 1) / d);
}
/* gemmlowp SaturatingRoundingDoublingHighMul, literally: nudge, then C division (truncates) */
static int32_t ar_srdhm(int32_t a, int32_t b)
{
    int64_t ab, nudge;
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    ab = (int64_t)a * (int64_t)b;
    nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}
/* gemmlowp RoundingDivideByPOT: floor plus one when the remainder passes the threshold */
static int32_t ar_rdbpot(int32_t x, int e)
{
    int64_t mask = ((int64_t)1 << e) - 1, fl = ar_floor_pot(x, e);
    int64_t rem = (int64_t)x - fl * ((int64_t)1 << e);
    int64_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
    return (int32_t)(fl + (rem > thr ? 1 : 0));
}
static int32_t ar_requant(int32_t acc, int32_t m, int s, int single)
{
    if (single) { /* TFLITE_SINGLE_ROUNDING; the engine saturates what TFLite only DCHECKs */
        int64_t r = ar_floor_pot((int64_t)acc * m + ((int64_t)1 << (30 - s)), 31 - s);
        return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
    }
    if (s > 0) acc = (int32_t)(int64_t)(int32_t)(uint32_t)((uint32_t)acc << s); /* wraps */
    return ar_rdbpot(ar_srdhm(acc, m), s > 0 ? 0 : -s);
}

typedef struct {
    int dt, single, nq;
    int32_t io, fo, oo, amin, amax;
    int32_t mult[48], shift[48];
} ar_q;

static int32_t ar_val(const uint8_t *p, size_t i, int dt)
{
    return dt ? (int32_t)p[i] : (int32_t)(int8_t)p[i];
}
/* sum over k of (x + io)(w + fo), plus bias, modulo 2^32 (the engine's documented wrap) */
static int32_t ar_sum(const uint8_t *x, const uint8_t *w, int K, int dt, int32_t io, int32_t fo,
                      int32_t bias)
{
    int64_t s = bias;
    int k;
    for (k = 0; k < K; k++)
        s += (int64_t)(ar_val(x, (size_t)k, dt) + io) * (int64_t)(ar_val(w, (size_t)k, dt) + fo);
    return (int32_t)(uint32_t)(uint64_t)s;
}

static void ar_rand_q(ar_q *q, int N, int extreme)
{
    static const int32_t ms[] = {0, 1, 2, 1073741824, 1073741825, 2147483646, 2147483647};
    int i, lo;
    q->dt = (int)(ar_rnd() & 1);
    q->single = ar_rnd() % 4 == 0;
    lo = q->dt ? 0 : -128;
    /* io, fo = -zero point; the edges are the extreme offsets */
    q->io = -(lo + (extreme || ar_rnd() % 3 == 0 ? (ar_rnd() & 1 ? 255 : 0) : ar_range(0, 255)));
    q->fo = ar_rnd() % 4 == 0 ? 0 : -(lo + (extreme || ar_rnd() % 3 == 0 ? (ar_rnd() & 1 ? 255 : 0)
                                                                     : ar_range(0, 255)));
    q->oo = lo + (ar_rnd() % 4 == 0 ? (ar_rnd() & 1 ? 255 : 0) : ar_range(0, 255));
    q->amin = lo + ar_range(0, 255);
    q->amax = lo + ar_range(0, 255);
    if (q->amin > q->amax) {
        int32_t t = q->amin;
        q->amin = q->amax;
        q->amax = t;
    }
    if (ar_rnd() % 3 == 0) {
        q->amin = lo;
        q->amax = lo + 255;
    }
    q->nq = ar_rnd() & 1 ? 1 : N; /* per-tensor or per-channel */
    for (i = 0; i < q->nq; i++) {
        q->mult[i] = extreme || ar_rnd() % 3 == 0 ? ms[ar_rnd() % 7]
                                                 : (int32_t)(0x40000000UL + ar_rnd() % 0x40000000UL);
        switch (ar_rnd() % 6) {
        case 0: q->shift[i] = -31; break;
        case 1: q->shift[i] = q->single ? 30 : 31; break;
        case 2: q->shift[i] = ar_range(-31, q->single ? 30 : 31); break;
        case 3: q->shift[i] = ar_range(0, 3); break;
        default: q->shift[i] = ar_range(-22, -6);
        }
    }
}

static void ar_fill(uint8_t *p, size_t n, int extreme)
{
    size_t i;
    int mode = extreme ? 1 : (int)(ar_rnd() % 4);
    for (i = 0; i < n; i++)
        p[i] = mode == 1 ? (uint8_t)(ar_rnd() & 1 ? 0x80 : ar_rnd() & 1 ? 0x7F : ar_rnd() & 1 ? 0x00 : 0xFF)
             : mode == 2 ? (uint8_t)(ar_rnd() % 3) : (uint8_t)ar_rnd();
}

static int ar_depth(int it)
{
    if (it % 97 == 0) return ar_range(2000, 5000); /* long sdot runs, sums that wrap */
    if (it % 11 == 0) return ar_range(81, 600);
    return 1 + it % 80; /* every tail of 16 and of 4, up to 5 whole sdot steps */
}

/* Fully connected and raw GEMM on the same random data; unaligned pointers, guard bytes. */
static void test_arm_fc_gemm_random(void)
{
#ifdef MAC_ARM_SMALL
    enum { MB = 5, MN = 14, MK = 160, IT = 600 };
#else
    enum { MB = 9, MN = 41, MK = 5000, IT = 3000 };
#endif
    static uint8_t xb[MB * MK + 8], wb[MN * MK + 8], want[MB * MN], ob[MB * MN + 8];
    static int32_t bias[MN], ab[MB * MN + 2], want32[MB * MN];
    int it, bad = 0, cases = 0;
    for (it = 0; it < IT && bad < 5; it++) {
        int extreme = it % 13 == 0, K = ar_depth(it), B, N, n, b, hasb, i, xa, wa;
        ar_q r;
        accel_mac_quant q;
        accel_status st;
        uint8_t *x, *w, *o;
        if (K > MK) K = MK;
        B = K > 600 ? ar_range(1, 3) : it % 17 == 0 ? ar_range(5, MB) : ar_range(1, 4);
        N = K > 600 ? ar_range(1, 9) : it % 29 == 0 ? ar_range(14, MN) : ar_range(1, 13);
        xa = (int)(ar_rnd() % 4);
        wa = (int)(ar_rnd() % 4);
        x = xb + xa;
        w = wb + wa;
        o = ob + 1;
        ar_rand_q(&r, N, extreme);
        ar_fill(x, (size_t)(B * K), extreme);
        ar_fill(w, (size_t)(N * K), extreme);
        hasb = ar_rnd() % 4 != 0;
        for (i = 0; i < N; i++)
            bias[i] = extreme ? (ar_rnd() & 1 ? INT32_MAX - ar_range(0, 3) : INT32_MIN + ar_range(0, 3))
                    : ar_rnd() % 4 == 0 ? (int32_t)ar_rnd() : ar_range(-9000, 9000);
        for (b = 0; b < B; b++)
            for (n = 0; n < N; n++) {
                int ch = r.nq == 1 ? 0 : n;
                int32_t acc = ar_sum(x + b * K, w + n * K, K, r.dt, r.io, r.fo, hasb ? bias[n] : 0);
                int64_t v = (int64_t)ar_requant(acc, r.mult[ch], r.shift[ch], r.single) + r.oo;
                if (v < r.amin) v = r.amin;
                if (v > r.amax) v = r.amax;
                want[b * N + n] = (uint8_t)(v & 0xFF);
                want32[b * N + n] = ar_sum(x + b * K, w + n * K, K, r.dt, r.io, r.fo, 0);
            }
        memset(&q, 0, sizeof q);
        q.dtype = r.dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
        q.input_offset = r.io;
        q.filter_offset = r.fo;
        q.output_offset = r.oo;
        q.multiplier = r.mult;
        q.shift = r.shift;
        q.count = (size_t)r.nq;
        q.act_min = r.amin;
        q.act_max = r.amax;
        q.rounding = r.single ? ACCEL_MAC_ROUND_SINGLE : ACCEL_MAC_ROUND_DOUBLE;
        memset(ob, 0xA5, sizeof ob);
        st = accel_mac_fully_connected((uint32_t)B, (uint32_t)K, (uint32_t)N, x, (size_t)(B * K), w,
                                       (size_t)(N * K), hasb ? bias : NULL, hasb ? (size_t)N : 0, &q,
                                       o, (size_t)(B * N));
        cases++;
        if (st != ACCEL_OK || memcmp(o, want, (size_t)(B * N)) != 0 || ob[0] != 0xA5 ||
            o[B * N] != 0xA5) {
            if (bad < 5) {
                for (i = 0; i < B * N && o[i] == want[i]; i++) {
                }
                printf("  fc case %d: B=%d K=%d N=%d dt=%d single=%d nq=%d st=%d first diff %d "
                       "got %d want %d\n", it, B, K, N, r.dt, r.single, r.nq, (int)st, i,
                       i < B * N ? o[i] : -1, i < B * N ? want[i] : -1);
            }
            bad++;
        }
        ar_feed(o, (size_t)(B * N));
        for (i = 0; i < B * N + 2; i++) ab[i] = 0x5A5A5A5A;
        st = accel_mac_matmul_s32(r.dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, (uint32_t)B, (uint32_t)N,
                                  (uint32_t)K, x, (size_t)(B * K), r.io, w, (size_t)(N * K), r.fo,
                                  ab + 1, (size_t)(B * N));
        cases++;
        if (st != ACCEL_OK || memcmp(ab + 1, want32, (size_t)(B * N) * sizeof(int32_t)) != 0 ||
            ab[0] != 0x5A5A5A5A || ab[B * N + 1] != 0x5A5A5A5A) {
            if (bad < 5)
                printf("  matmul case %d: B=%d K=%d N=%d dt=%d io=%ld fo=%ld st=%d\n", it, B, K, N,
                       r.dt, (long)r.io, (long)r.fo, (int)st);
            bad++;
        }
        ar_feed32(ab + 1, (size_t)(B * N));
    }
    printf("  %d fc + gemm cases\n", cases);
    CHECK_EQ(bad, 0);
}


/* ---- conv2d, depthwise conv2d and pools on random geometry ---- */
#ifdef MAC_ARM_SMALL
enum { AG_HW = 5, AG_C = 12, AG_PAD = 1, AG_IT = 250 };
#else
enum { AG_HW = 9, AG_C = 24, AG_PAD = 2, AG_IT = 250 };
#endif
enum { AG_OHW = AG_HW + 2 * AG_PAD, AG_X = 2 * AG_HW * AG_HW * AG_C, AG_O = 2 * AG_OHW * AG_OHW * AG_C,
       AG_W = AG_C * 9 * AG_C, AG_S = 8 * 9 * AG_C + 8 };
/* shared by the conv and pool cases (the micro:bit has 16 KiB of RAM) */
static uint8_t ag_x[AG_X], ag_w[AG_W], ag_want[AG_O + 1], ag_got[AG_O + 1], ag_scratch[AG_S];

typedef struct {
    int B, H, W, C, OH, OW, OC, KH, KW, sh, sw, dh, dw, pt, pl, groups, dm;
} ar_geo;

/* kind 0 conv (1x1 and 3x3 favoured, groups), 1 depthwise (3x3 favoured, now and then more
 * taps than the packed-filter kernels take, depth multiplier 2), 2 pool (every window holds
 * an in-image tap) */
static void ar_make_geo(ar_geo *g, int kind)
{
    int span, r = (int)(ar_rnd() % 3), pb, pr;
    memset(g, 0, sizeof *g);
    g->B = ar_range(1, 2);
    g->H = ar_range(1, AG_HW);
    g->W = ar_range(1, AG_HW);
    g->sh = ar_rnd() % 3 == 0 ? 2 : 1;
    g->sw = ar_rnd() % 3 == 0 ? 2 : 1;
    g->dh = kind != 2 && ar_rnd() % 4 == 0 ? 2 : 1;
    g->dw = kind != 2 && ar_rnd() % 4 == 0 ? 2 : 1;
    if (kind == 0) {
        g->KH = g->KW = r == 0 ? 1 : r == 1 ? 3 : 0;
        if (!g->KH) g->KH = ar_range(1, 3), g->KW = ar_range(1, 3);
        g->groups = ar_rnd() % 4 == 0 ? 2 : 1;
        g->C = g->groups * ar_range(1, AG_C / 2);
        g->OC = g->groups * ar_range(1, AG_C / 2);
        if (ar_rnd() % 6 == 0) { /* one input channel a group, windows up to 8x8: without scratch,
                                    the patch kernel takes them in chunks of window rows */
            g->KH = ar_range(1, 8);
            g->KW = ar_range(1, 8);
            g->C = g->groups;
        }
    } else if (kind == 1) {
        g->KH = g->KW = 3;
        if (r == 0) g->KH = ar_range(1, 4), g->KW = ar_range(1, 4);
        if (ar_rnd() % 16 == 0) g->KH = 5, g->KW = 6; /* 30 taps */
        g->dm = ar_rnd() % 4 == 0 ? 2 : 1;
        g->C = ar_range(1, AG_C / g->dm);
        g->OC = g->C * g->dm;
    } else {
        g->KH = ar_range(1, 3);
        g->KW = ar_range(1, 3);
        g->C = ar_range(1, AG_C);
        g->OC = g->C;
    }
    span = (g->KH - 1) * g->dh + 1;
    g->pt = ar_rnd() & 1 ? span / 2 : ar_range(0, AG_PAD);
    pb = ar_range(0, AG_PAD);
    if (g->pt > AG_PAD) g->pt = AG_PAD;
    g->OH = (g->H + g->pt + pb - span) / g->sh + 1;
    span = (g->KW - 1) * g->dw + 1;
    g->pl = ar_rnd() & 1 ? span / 2 : ar_range(0, AG_PAD);
    pr = ar_range(0, AG_PAD);
    if (g->pl > AG_PAD) g->pl = AG_PAD;
    g->OW = (g->W + g->pl + pr - span) / g->sw + 1;
    if (g->OH < 1) g->OH = 1;
    if (g->OW < 1) g->OW = 1;
    if (kind == 2) { /* no window may lie wholly in the padding */
        if (g->pt >= g->KH) g->pt = g->KH - 1;
        if (g->pl >= g->KW) g->pl = g->KW - 1;
        while (g->OH > 1 && (g->OH - 1) * g->sh - g->pt >= g->H) g->OH--;
        while (g->OW > 1 && (g->OW - 1) * g->sw - g->pl >= g->W) g->OW--;
    }
}

static void ar_to_conv(const ar_geo *g, accel_mac_conv *c)
{
    memset(c, 0, sizeof *c);
    c->batches = (uint32_t)g->B;
    c->in_h = (uint32_t)g->H;
    c->in_w = (uint32_t)g->W;
    c->in_c = (uint32_t)g->C;
    c->out_h = (uint32_t)g->OH;
    c->out_w = (uint32_t)g->OW;
    c->out_c = (uint32_t)g->OC;
    c->k_h = (uint32_t)g->KH;
    c->k_w = (uint32_t)g->KW;
    c->stride_h = (uint32_t)g->sh;
    c->stride_w = (uint32_t)g->sw;
    c->dilation_h = (uint32_t)g->dh;
    c->dilation_w = (uint32_t)g->dw;
    c->pad_top = (uint32_t)g->pt;
    c->pad_left = (uint32_t)g->pl;
    c->groups = (uint32_t)g->groups;
    c->depth_multiplier = (uint32_t)g->dm;
}

static void ar_to_quant(const ar_q *r, accel_mac_quant *q)
{
    memset(q, 0, sizeof *q);
    q->dtype = r->dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
    q->input_offset = r->io;
    q->filter_offset = r->fo;
    q->output_offset = r->oo;
    q->multiplier = r->mult;
    q->shift = r->shift;
    q->count = (size_t)r->nq;
    q->act_min = r->amin;
    q->act_max = r->amax;
    q->rounding = r->single ? ACCEL_MAC_ROUND_SINGLE : ACCEL_MAC_ROUND_DOUBLE;
}

static uint8_t ar_out(int64_t acc, const ar_q *r, int ch)
{
    int i = r->nq == 1 ? 0 : ch;
    int64_t v = (int64_t)ar_requant((int32_t)(uint32_t)(uint64_t)acc, r->mult[i], r->shift[i], r->single) + r->oo;
    if (v < r->amin) v = r->amin;
    if (v > r->amax) v = r->amax;
    return (uint8_t)(v & 0xFF);
}

/* TFLite's reference conv (kind 0) and depthwise conv (kind 1): taps outside the image skipped */
static void ar_conv_ref(int kind, const ar_geo *g, const uint8_t *x, const uint8_t *w,
                        const int32_t *bias, const ar_q *r, uint8_t *o)
{
    int b, oy, ox, oc, ky, kx, c, grp = g->groups ? g->groups : 1, dm = g->dm ? g->dm : 1;
    int cg = g->C / grp, ocg = g->OC / grp;
    for (b = 0; b < g->B; b++)
        for (oy = 0; oy < g->OH; oy++)
            for (ox = 0; ox < g->OW; ox++)
                for (oc = 0; oc < g->OC; oc++) {
                    int64_t acc = bias ? bias[oc] : 0;
                    for (ky = 0; ky < g->KH; ky++)
                        for (kx = 0; kx < g->KW; kx++) {
                            int iy = oy * g->sh - g->pt + ky * g->dh, ix = ox * g->sw - g->pl + kx * g->dw;
                            size_t xb = (size_t)(((b * g->H + iy) * g->W + ix) * g->C);
                            if (iy < 0 || iy >= g->H || ix < 0 || ix >= g->W) continue;
                            if (kind == 0) {
                                for (c = 0; c < cg; c++)
                                    acc += (int64_t)(ar_val(x, xb + (size_t)((oc / ocg) * cg + c), r->dt) + r->io) *
                                           (ar_val(w, (size_t)(((oc * g->KH + ky) * g->KW + kx) * cg + c), r->dt) + r->fo);
                            } else {
                                acc += (int64_t)(ar_val(x, xb + (size_t)(oc / dm), r->dt) + r->io) *
                                       (ar_val(w, (size_t)((ky * g->KW + kx) * g->OC + oc), r->dt) + r->fo);
                            }
                        }
                    o[((b * g->OH + oy) * g->OW + ox) * g->OC + oc] = ar_out(acc, r, oc);
                }
}

static void ar_pool_ref(int avg, const ar_geo *g, int dt, int32_t lo, int32_t hi,
                        const uint8_t *x, uint8_t *o)
{
    int b, oy, ox, c, ky, kx;
    for (b = 0; b < g->B; b++)
        for (oy = 0; oy < g->OH; oy++)
            for (ox = 0; ox < g->OW; ox++)
                for (c = 0; c < g->C; c++) {
                    int32_t acc = avg ? 0 : -1000, n = 0, v;
                    for (ky = 0; ky < g->KH; ky++)
                        for (kx = 0; kx < g->KW; kx++) {
                            int iy = oy * g->sh - g->pt + ky, ix = ox * g->sw - g->pl + kx;
                            if (iy < 0 || iy >= g->H || ix < 0 || ix >= g->W) continue;
                            v = ar_val(x, (size_t)(((b * g->H + iy) * g->W + ix) * g->C + c), dt);
                            acc = avg ? acc + v : v > acc ? v : acc;
                            n++;
                        }
                    if (avg) acc = dt || acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
                    acc = acc < lo ? lo : acc > hi ? hi : acc;
                    o[((b * g->OH + oy) * g->OW + ox) * g->C + c] = (uint8_t)(acc & 0xFF);
                }
}

static int ar_geo_print(const char *what, int it, const ar_geo *g, int st)
{
    printf("  %s case %d st=%d B%d H%d W%d C%d OH%d OW%d OC%d K%dx%d s%d,%d d%d,%d p%d,%d g%d dm%d\n",
           what, it, st, g->B, g->H, g->W, g->C, g->OH, g->OW, g->OC, g->KH, g->KW, g->sh, g->sw,
           g->dh, g->dw, g->pt, g->pl, g->groups, g->dm);
    return 1;
}

/* conv2d and depthwise conv2d against the reference; conv2d also through caller scratch of the
 * size asked for (or one byte short, taking the path without it), at any alignment */
static void test_arm_conv_random(void)
{
    uint8_t *x = ag_x, *w = ag_w, *want = ag_want, *got = ag_got, *scratch = ag_scratch;
    static int32_t bias[AG_C * 2];
    int it, kind, bad = 0, cases = 0;
    for (kind = 0; kind < 2; kind++)
        for (it = 0; it < AG_IT && bad < 5; it++) {
            ar_geo g;
            ar_q r;
            accel_mac_conv c;
            accel_mac_quant q;
            size_t nx, nw, no, need = 0, len;
            int i, hasb = ar_rnd() % 4 != 0, extreme = it % 13 == 0, off;
            accel_status st;
            ar_make_geo(&g, kind);
            nx = (size_t)(g.B * g.H * g.W * g.C);
            nw = kind == 0 ? (size_t)(g.OC * g.KH * g.KW * (g.C / (g.groups ? g.groups : 1)))
                           : (size_t)(g.KH * g.KW * g.OC);
            no = (size_t)(g.B * g.OH * g.OW * g.OC);
            ar_rand_q(&r, g.OC, extreme);
            ar_fill(x, nx, extreme);
            ar_fill(w, nw, extreme);
            for (i = 0; i < g.OC; i++)
                bias[i] = extreme ? (ar_rnd() & 1 ? INT32_MAX - ar_range(0, 3) : INT32_MIN + ar_range(0, 3))
                        : ar_rnd() % 4 == 0 ? (int32_t)ar_rnd() : ar_range(-9000, 9000);
            ar_to_conv(&g, &c);
            ar_to_quant(&r, &q);
            ar_conv_ref(kind, &g, x, w, hasb ? bias : NULL, &r, want);
            memset(got, 0xA5, no + 1);
            st = kind == 0 ? accel_mac_conv2d(&c, &q, x, nx, w, nw, hasb ? bias : NULL, hasb ? (size_t)g.OC : 0, got, no)
                           : accel_mac_depthwise_conv2d(&c, &q, x, nx, w, nw, hasb ? bias : NULL, hasb ? (size_t)g.OC : 0, got, no);
            cases++;
            if (st != ACCEL_OK || memcmp(got, want, no) != 0 || got[no] != 0xA5)
                bad += ar_geo_print(kind ? "dw" : "conv", it, &g, (int)st);
            ar_feed(got, no);
            if (kind != 0) continue;
            st = accel_mac_conv2d_scratch_size(&c, &need);
            off = (int)(ar_rnd() % 4);
            len = ar_rnd() % 8 == 0 && need > 0 ? need - 1 : need;
            if (st != ACCEL_OK || need + 4 > sizeof ag_scratch) {
                bad += ar_geo_print("conv scratch size", it, &g, (int)st);
                continue;
            }
            memset(scratch, (int)(ar_rnd() & 0xFF), sizeof ag_scratch);
            memset(got, 0xA5, no + 1);
            st = accel_mac_conv2d_with_scratch(&c, &q, x, nx, w, nw, hasb ? bias : NULL,
                                               hasb ? (size_t)g.OC : 0, got, no, scratch + off, len);
            cases++;
            if (st != ACCEL_OK || memcmp(got, want, no) != 0 || got[no] != 0xA5)
                bad += ar_geo_print("conv with scratch", it, &g, (int)st);
        }
    printf("  %d conv + depthwise cases\n", cases);
    CHECK_EQ(bad, 0);
}

static void test_arm_pool_random(void)
{
    uint8_t *x = ag_x, *want = ag_want, *got = ag_got;
    int it, bad = 0, cases = 0;
    for (it = 0; it < 2 * AG_IT && bad < 5; it++) {
        ar_geo g;
        accel_mac_conv c;
        int avg = (int)(ar_rnd() & 1), dt = (int)(ar_rnd() & 1), lo = dt ? 0 : -128;
        int32_t amin = lo + ar_range(0, 255), amax = lo + ar_range(0, 255), t;
        size_t nx, no;
        accel_status st;
        ar_make_geo(&g, 2);
        if (amin > amax) t = amin, amin = amax, amax = t;
        if (ar_rnd() & 1) amin = lo, amax = lo + 255;
        nx = (size_t)(g.B * g.H * g.W * g.C);
        no = (size_t)(g.B * g.OH * g.OW * g.C);
        ar_fill(x, nx, it % 13 == 0);
        ar_to_conv(&g, &c);
        ar_pool_ref(avg, &g, dt, amin, amax, x, want);
        memset(got, 0xA5, no + 1);
        st = avg ? accel_mac_average_pool2d(&c, dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, amin, amax, x, nx, got, no)
                 : accel_mac_max_pool2d(&c, dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, amin, amax, x, nx, got, no);
        cases++;
        if (st != ACCEL_OK || memcmp(got, want, no) != 0 || got[no] != 0xA5)
            bad += ar_geo_print(avg ? "avg pool" : "max pool", it, &g, (int)st);
        ar_feed(got, no);
    }
    printf("  %d pool cases\n", cases);
    CHECK_EQ(bad, 0);
}

#ifndef MAC_ARM_SMALL
/* The largest products at a depth where the 32-bit sums wrap several times, every offset
 * edge: (x + io)(w + fo) = (+-255)(+-255) in each of the four sign combinations. */
static void test_arm_wrap(void)
{
    enum { K = 66071, N = 6 }; /* 66071 * 65025 > 2^32; K % 16 = 7, K % 4 = 3 */
    static uint8_t x[2 * K], w[N * K];
    static int32_t o[2 * N];
    int dt, sx, sw, b, n;
    for (dt = 0; dt < 2; dt++)
        for (sx = 0; sx < 2; sx++)
            for (sw = 0; sw < 2; sw++) {
                /* int8: -128 - 127 = -255, 127 + 128 = 255; uint8: 0 - 255 = -255, 255 - 0 = 255 */
                int32_t io = dt ? (sx ? 0 : -255) : (sx ? 128 : -127);
                int32_t fo = dt ? (sw ? 0 : -255) : (sw ? 128 : -127);
                uint8_t xv = (uint8_t)(dt ? (sx ? 0xFF : 0x00) : (sx ? 0x7F : 0x80));
                uint8_t wv = (uint8_t)(dt ? (sw ? 0xFF : 0x00) : (sw ? 0x7F : 0x80));
                uint32_t want = (uint32_t)(65025ULL * K);
                if (sx != sw) want = 0u - want;
                memset(x, xv, sizeof x);
                memset(w, wv, sizeof w);
                CHECK_ST(accel_mac_matmul_s32(dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, 2, N, K, x,
                                              sizeof x, io, w, sizeof w, fo, o, 2 * N), ACCEL_OK);
                for (b = 0; b < 2; b++)
                    for (n = 0; n < N; n++) CHECK_EQ((uint32_t)o[b * N + n], want);
                ar_feed32(o, 2 * N);
            }
}
#endif

int main(void)
{
    printf("ACCEL_MAC_SIMD=%d (%s) ACCEL_MAC_MCU=%d seed %lu\n", ACCEL_MAC_SIMD,
           ACCEL_MAC_SIMD == 3 ? "AArch64 NEON sdot"
           : ACCEL_MAC_SIMD == 4 ? "Arm DSP extension SMLAD"
           : ACCEL_MAC_SIMD == 0 ? "portable" : "x86",
           ACCEL_MAC_MCU, (unsigned long)MAC_ARM_SEED);
    RUN(test_arm_fc_gemm_random);
    RUN(test_arm_conv_random);
    RUN(test_arm_pool_random);
#ifdef MAC_ARM_SMALL
    printf("digest %08lx\n", (unsigned long)ar_digest);
    return TEST_END();
#else
    RUN(test_arm_wrap);
    printf("digest %08lx\n", (unsigned long)ar_digest);
    return test_mac_main(); /* ends with TEST_END over both parts */
#endif
}
