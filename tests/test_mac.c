/* test_mac.c - the int8/uint8 MAC engine: TFLite's requantization helpers on hand-computed
 * values, every error path, thousands of random cases per kernel against plain-loop reference
 * implementations written here from FORMAT.md's semantics (not from the engine's code), the
 * exact wide products against int64 arithmetic at the depth limit, and the Edge TPU flips.
 * tests/test_mac_small.c runs the same file with ACCEL_MAC_FAST 0 (the small loops). */
/* only the mac section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_TFLITE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include <stdlib.h>

/* ---------------------------------------------------------------- deterministic random */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static int32_t rrange(int32_t lo, int32_t hi) /* inclusive */
{
    return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

/* ---------------------------------------------------------------- reference arithmetic */
/* round(a*b / 2^31), ties toward +infinity (what gemmlowp's nudge-and-truncate amounts to) */
static int32_t ref_srdhm(int32_t a, int32_t b)
{
    int64_t ab;
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    ab = (int64_t)a * b;
    return (int32_t)((ab + ((int64_t)1 << 30)) >> 31); /* gcc: >> floors */
}
/* x / 2^e rounded to nearest, ties away from zero */
static int32_t ref_rdbpot(int32_t x, int e)
{
    int64_t h, v = x;
    if (e == 0) return x;
    h = (int64_t)1 << (e - 1);
    return (int32_t)(v >= 0 ? (v + h) >> e : -((-v + h) >> e));
}
static int32_t ref_requant(int32_t acc, int32_t m, int32_t s, int single)
{
    if (single) {
        int64_t r = (int64_t)acc * m;
        int t = 31 - s;
        if (t > 0) r = (r + ((int64_t)1 << (t - 1))) >> t;
        return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
    }
    if (s > 0) acc = (int32_t)(uint32_t)((uint64_t)(uint32_t)acc << s); /* wraps, like hardware */
    return ref_rdbpot(ref_srdhm(acc, m), s > 0 ? 0 : -s);
}

typedef struct {
    int dt; /* 0 int8, 1 uint8 */
    int32_t io, fo, oo, amin, amax;
    int32_t mult[256], shift[256]; /* per channel: up to 256 output channels */
    int nq, single;
} rq;

static int32_t val(const uint8_t *p, size_t i, int dt)
{
    return dt ? (int32_t)p[i] : (int32_t)(int8_t)p[i];
}
static uint8_t ref_out(int64_t acc, const rq *r, int ch)
{
    int i = r->nq == 1 ? 0 : ch;
    int64_t v = ref_requant((int32_t)(uint32_t)(uint64_t)acc, r->mult[i], r->shift[i], r->single);
    v += r->oo;
    if (v < r->amin) v = r->amin;
    if (v > r->amax) v = r->amax;
    return (uint8_t)(v & 0xFF);
}
static void fill_quant(accel_mac_quant *q, const rq *r)
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

/* Random requantization: edge zero points, extreme multipliers and shifts, clamps. */
static void rand_rq(rq *r, int channels, int depth_hint)
{
    int i, lo;
    r->dt = (int)(rnd() & 1);
    r->single = (rnd() % 4) == 0;
    lo = r->dt ? 0 : -128;
    switch (rnd() % 4) {
    case 0: r->io = -lo; break;         /* zero point at the low edge */
    case 1: r->io = -(lo + 255); break; /* high edge */
    default: r->io = -(lo + (int32_t)(rnd() % 256));
    }
    r->fo = (rnd() % 3 == 0) ? 0 : -(lo + (int32_t)(rnd() % 256));
    r->oo = (rnd() % 4 == 0) ? (rnd() & 1 ? lo : lo + 255) : lo + (int32_t)(rnd() % 256);
    r->amin = lo + (int32_t)(rnd() % 256);
    r->amax = lo + (int32_t)(rnd() % 256);
    if (r->amin > r->amax) { int32_t t = r->amin; r->amin = r->amax; r->amax = t; }
    if (rnd() % 3 == 0) { r->amin = lo; r->amax = lo + 255; }
    r->nq = (rnd() & 1) ? 1 : channels;
    for (i = 0; i < r->nq; i++) {
        static const int32_t ms[] = {0, 1073741824, 1073741825, 2147483646, 2147483647};
        r->mult[i] = rnd() % 3 == 0 ? ms[rnd() % 5] : (int32_t)(0x40000000u + (rnd() % 0x40000000u));
        switch (rnd() % 5) {
        case 0: r->shift[i] = -31; break;
        case 1: r->shift[i] = r->single ? 30 : 31; break;
        case 2: r->shift[i] = rrange(0, 7); break;
        default: r->shift[i] = rrange(-20, -(depth_hint > 64 ? 8 : 4));
        }
    }
}
static void rand_bytes(uint8_t *p, size_t n)
{
    size_t i;
    int mode = (int)(rnd() % 3);
    for (i = 0; i < n; i++)
        p[i] = mode == 0 ? (uint8_t)(rnd() & 0xFF) : mode == 1 ? (uint8_t)(rnd() & 1 ? 0x80 : 0x7F)
                                                             : (uint8_t)(rnd() % 5);
}
static int32_t rand_bias(void)
{
    return rnd() % 4 == 0 ? rrange(-(1 << 29), 1 << 29) : rrange(-5000, 5000);
}

/* ---------------------------------------------------------------- hand-computed helpers */
static void test_helpers(void)
{
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MIN), INT32_MAX);
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);       /* 2^60 / 2^31 */
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(3, 1 << 30), 2);                   /* 1.5 -> 2 */
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);                 /* -1.5 -> -1: ties up */
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(INT32_MAX, INT32_MAX), 2147483646); /* (2^31-1)^2/2^31 = 2^31-2+.. */
    CHECK_EQ(accel_mac_saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MAX), -2147483647);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(5, 1), 3);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(-5, 1), -3);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(-4, 1), -2);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(-6, 2), -2); /* -1.5 -> -2 */
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(6, 2), 2);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(7, 0), 7);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(INT32_MIN, 31), -1);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(INT32_MAX, 31), 1);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(0x3FFFFFFF, 31), 0);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(0x40000000, 31), 1);  /* exactly 0.5: away from zero */
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(-0x40000000, 31), -1);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(0x40000001, 31), 1);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(100, 1 << 30, -1), 25); /* 100 * 0.5 / 2 */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(100, 1 << 30, 1), 100);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(-490, 1 << 30, -3), -31); /* -30.625 */
    /* 1 << 31 wraps to INT32_MIN; INT32_MIN * (2^31-1) / 2^31 = -2^31 + 1 */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(1, INT32_MAX, 31), -2147483647);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(7, 1 << 30, 40), accel_mac_multiply_by_quantized_multiplier(7, 1 << 30, 31)); /* clamped */
    /* double vs single rounding differ on a tie: 3 * 0.5 = 1.5 -> 2 then /2 = 1 -> 1 (0.75->1),
     * single: 3 * 2^30 / 2^32 = 0.75 -> 1; choose 5 * 0.5 / 2 = 1.25 vs srdhm(5)=3 (2.5 up),
     * rdbpot(3,1) = 2 (1.5 away) while the exact 1.25 rounds to 1 */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(5, 1 << 30, -1), 2);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(5, 1 << 30, -1), 1);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(-5, 1 << 30, -1), -1);  /* -1.25 */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(-6, 1 << 30, -1), -1);  /* -1.5 -> -1: + half, floor */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(INT32_MAX, INT32_MAX, 31), INT32_MAX); /* saturates */
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(INT32_MIN, INT32_MAX, 31), INT32_MIN);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(1000, 1 << 30, -31), 0);
}

#ifndef ACCEL_MAC_NO_FLOAT
static void test_quantize_multiplier(void)
{
    int32_t m = 7, s = 7;
    CHECK_ST(accel_mac_quantize_multiplier(0.5, &m, &s), ACCEL_OK);
    CHECK_EQ(m, 1 << 30); CHECK_EQ(s, 0);
    CHECK_ST(accel_mac_quantize_multiplier(1.0, &m, &s), ACCEL_OK);
    CHECK_EQ(m, 1 << 30); CHECK_EQ(s, 1);
    CHECK_ST(accel_mac_quantize_multiplier(0.75, &m, &s), ACCEL_OK);
    CHECK_EQ(m, 1610612736); CHECK_EQ(s, 0);
    CHECK_ST(accel_mac_quantize_multiplier(0.001, &m, &s), ACCEL_OK); /* 0.512 * 2^-9 */
    CHECK_EQ(m, 1099511628); CHECK_EQ(s, -9);  /* round(0.512 * 2^31) = 1099511627.776 */
    CHECK_ST(accel_mac_quantize_multiplier(0.99999999999, &m, &s), ACCEL_OK); /* rounds to 2^31 */
    CHECK_EQ(m, 1 << 30); CHECK_EQ(s, 1);
    CHECK_ST(accel_mac_quantize_multiplier(1e-12, &m, &s), ACCEL_OK); /* shift < -31 -> 0,0 */
    CHECK_EQ(m, 0); CHECK_EQ(s, 0);
    CHECK_ST(accel_mac_quantize_multiplier(0.0, &m, &s), ACCEL_OK);
    CHECK_EQ(m, 0); CHECK_EQ(s, 0);
    CHECK_ST(accel_mac_quantize_multiplier(-0.5, &m, &s), ACCEL_OK);
    CHECK_EQ(m, -(1 << 30)); CHECK_EQ(s, 0);
    CHECK_ST(accel_mac_quantize_multiplier(3e9, &m, &s), ACCEL_E_ARG);
    CHECK_ST(accel_mac_quantize_multiplier(1.0 / 0.0, &m, &s), ACCEL_E_ARG);
    CHECK_ST(accel_mac_quantize_multiplier(0.0 / 0.0, &m, &s), ACCEL_E_ARG);
    CHECK_ST(accel_mac_quantize_multiplier(0.5, NULL, &s), ACCEL_E_NULL);
}

static void test_quantize_f32(void)
{
    float in[6] = {0.0f, 0.25f, -0.25f, 100.0f, -100.0f, 0.74f};
    float back[6];
    uint8_t q[6];
    /* scale 0.5, zp 3: 0 -> 3; 0.5 -> 3.5?: 0.25/0.5 = 0.5 -> 1 (away) + 3 = 4; -0.5 -> -1 + 3 = 2;
     * 200 + 3 -> 127 clamp; -200 + 3 -> -128; 1.48 -> 1 + 3 = 4 */
    CHECK_ST(accel_mac_quantize_f32(in, 6, 0.5f, 3, ACCEL_MAC_INT8, q), ACCEL_OK);
    CHECK_EQ(q[0], 3); CHECK_EQ(q[1], 4); CHECK_EQ(q[2], 2); CHECK_EQ(q[3], 0x7F);
    CHECK_EQ(q[4], 0x80); CHECK_EQ(q[5], 4);
    CHECK_ST(accel_mac_dequantize_f32(q, 6, 0.5f, 3, ACCEL_MAC_INT8, back), ACCEL_OK);
    CHECK(back[0] == 0.0f && back[1] == 0.5f && back[2] == -0.5f && back[3] == 62.0f &&
          back[4] == -65.5f);
    CHECK_ST(accel_mac_quantize_f32(in, 6, 0.5f, 128, ACCEL_MAC_UINT8, q), ACCEL_OK);
    CHECK_EQ(q[0], 128); CHECK_EQ(q[3], 255); CHECK_EQ(q[4], 0);
    CHECK_ST(accel_mac_dequantize_f32(q, 1, 2.0f, 100, ACCEL_MAC_UINT8, back), ACCEL_OK);
    CHECK(back[0] == 56.0f);
    CHECK_ST(accel_mac_quantize_f32(in, 1, 0.0f, 0, ACCEL_MAC_INT8, q), ACCEL_E_ARG);
    CHECK_ST(accel_mac_quantize_f32(in, 1, 1.0f, 128, ACCEL_MAC_INT8, q), ACCEL_E_MAC_OFFSET);
    CHECK_ST(accel_mac_quantize_f32(in, 1, 1.0f, -1, ACCEL_MAC_UINT8, q), ACCEL_E_MAC_OFFSET);
    CHECK_ST(accel_mac_quantize_f32(in, 1, 1.0f, 0, (accel_mac_dtype)2, q), ACCEL_E_MAC_DTYPE);
    CHECK_ST(accel_mac_quantize_f32(NULL, 1, 1.0f, 0, ACCEL_MAC_INT8, q), ACCEL_E_NULL);
    CHECK_ST(accel_mac_dequantize_f32(q, 1, 1.0f, 300, ACCEL_MAC_UINT8, back), ACCEL_E_MAC_OFFSET);
    CHECK_ST(accel_mac_dequantize_f32(q, 1, 1.0f, 0, ACCEL_MAC_UINT8, NULL), ACCEL_E_NULL);
}
#endif

/* random inputs against the reference helpers above */
static void test_helpers_random(void)
{
    int i, bad = 0;
    for (i = 0; i < 200000 && bad < 5; i++) {
        int32_t x = (int32_t)rnd() ^ (int32_t)(rnd() << 16), m = (int32_t)rnd() ^ (int32_t)(rnd() << 16);
        int32_t s = rrange(-31, 31), e = rrange(0, 31);
        if (i % 7 == 0) x = (i & 8) ? INT32_MIN : INT32_MAX;
        if (i % 11 == 0) m = (i & 16) ? INT32_MIN : INT32_MAX;
        if (accel_mac_saturating_rounding_doubling_high_mul(x, m) != ref_srdhm(x, m)) bad++;
        if (accel_mac_rounding_divide_by_power_of_two(x, e) != ref_rdbpot(x, e)) bad++;
        if (accel_mac_multiply_by_quantized_multiplier(x, m, s) != ref_requant(x, m, s, 0)) bad++;
        if (m >= 0 && accel_mac_multiply_by_quantized_multiplier_single(x, m, s) != ref_requant(x, m, s, 1)) bad++;
    }
    CHECK_EQ(bad, 0);
}

/* ---------------------------------------------------------------- reference kernels */
static void ref_fc(int B, int K, int N, const uint8_t *x, const uint8_t *w, const int32_t *bias,
                   const rq *r, uint8_t *o)
{
    int b, n, k;
    for (b = 0; b < B; b++)
        for (n = 0; n < N; n++) {
            int64_t acc = 0;
            for (k = 0; k < K; k++)
                acc += (int64_t)(val(x, (size_t)(b * K + k), r->dt) + r->io) *
                       (val(w, (size_t)(n * K + k), r->dt) + r->fo);
            if (bias) acc += bias[n];
            o[b * N + n] = ref_out(acc, r, n);
        }
}

static void test_fc_random(void)
{
    static uint8_t x[6 * 300], w[64 * 300], o1[6 * 64], o2[6 * 64 + 1];
    static int32_t bias[64];
    int it, bad = 0;
    for (it = 0; it < 3000 && bad < 3; it++) {
        int B = rrange(1, 6), K = rrange(1, it % 10 == 0 ? 300 : 40), N = rrange(1, 64), i;
        int hasb = (int)(rnd() % 4 != 0);
        rq r;
        accel_mac_quant q;
        accel_status st;
        rand_rq(&r, N, K);
        rand_bytes(x, (size_t)(B * K));
        rand_bytes(w, (size_t)(N * K));
        for (i = 0; i < N; i++) bias[i] = rand_bias();
        fill_quant(&q, &r);
        ref_fc(B, K, N, x, w, hasb ? bias : NULL, &r, o1);
        memset(o2, 0xAA, sizeof o2);
        st = accel_mac_fully_connected((uint32_t)B, (uint32_t)K, (uint32_t)N, x, (size_t)(B * K), w,
                                       (size_t)(N * K), hasb ? bias : NULL, hasb ? (size_t)N : 0,
                                       &q, o2, (size_t)(B * N));
        if (st != ACCEL_OK || memcmp(o1, o2, (size_t)(B * N)) != 0) {
            bad++;
            printf("  fc case %d B=%d K=%d N=%d dt=%d st=%d\n", it, B, K, N, r.dt, (int)st);
        }
        if (o2[B * N] != 0xAA) bad++; /* nothing written past the output */
    }
    CHECK_EQ(bad, 0);
}

/* Depth beyond the 32768-term chunks of the inner loops, with the largest products: the sums
 * wrap modulo 2^32 in the engine exactly as in the int64 reference truncated to 32 bits. */
static void test_fc_deep(void)
{
    enum { K = 70001, N = 5 };
    static uint8_t x[4 * K], w[N * K], o1[4 * N], o2[4 * N];
    static int32_t acc[4 * N];
    int dt, B, i, extreme;
    for (extreme = 0; extreme < 2; extreme++)
        for (dt = 0; dt < 2; dt++)
            for (B = 1; B <= 4; B += 3) {
                rq r;
                accel_mac_quant q;
                memset(&r, 0, sizeof r);
                r.dt = dt;
                r.io = dt ? -255 : -127; /* with byte 0x00 (uint8) / 0x80 (int8): -255 */
                r.fo = dt ? -255 : -127;
                r.oo = 0;
                r.amin = dt ? 0 : -128;
                r.amax = r.amin + 255;
                r.nq = 1;
                r.mult[0] = 1518500250;
                r.shift[0] = -20;
                for (i = 0; i < B * K; i++) x[i] = extreme ? (uint8_t)(dt ? 0x00 : 0x80) : (uint8_t)rnd();
                for (i = 0; i < N * K; i++) w[i] = extreme ? (uint8_t)(dt ? 0x00 : 0x80) : (uint8_t)rnd();
                fill_quant(&q, &r);
                ref_fc(B, K, N, x, w, NULL, &r, o1);
                CHECK_ST(accel_mac_fully_connected((uint32_t)B, K, N, x, (size_t)(B * K), w, (size_t)(N * K),
                                                   NULL, 0, &q, o2, (size_t)(B * N)), ACCEL_OK);
                CHECK_MEM(o1, o2, (size_t)(B * N));
                CHECK_ST(accel_mac_matmul_s32(dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, (uint32_t)B, N, K, x,
                                              (size_t)(B * K), r.io, w, (size_t)(N * K), r.fo, acc,
                                              (size_t)(B * N)), ACCEL_OK);
                if (extreme) /* 65025 * 70001 mod 2^32, as int32 */
                    CHECK_EQ(acc[0], (int32_t)(uint32_t)(65025ULL * K));
            }
}

/* raw GEMM against int64 sums */
static void test_matmul_s32_random(void)
{
    static uint8_t a[8 * 200], b[20 * 200];
    static int32_t o[8 * 20];
    int it, bad = 0;
    for (it = 0; it < 2000 && bad < 3; it++) {
        int M = rrange(1, 8), N = rrange(1, 20), K = rrange(1, 200), dt = (int)(rnd() & 1), m, n, k;
        int32_t ao = dt ? -rrange(0, 255) : rrange(-127, 128), bo = dt ? -rrange(0, 255) : rrange(-127, 128);
        rand_bytes(a, (size_t)(M * K));
        rand_bytes(b, (size_t)(N * K));
        if (accel_mac_matmul_s32(dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, (uint32_t)M, (uint32_t)N,
                                 (uint32_t)K, a, (size_t)(M * K), ao, b, (size_t)(N * K), bo, o,
                                 (size_t)(M * N)) != ACCEL_OK) {
            bad++;
            continue;
        }
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++) {
                int64_t s = 0;
                for (k = 0; k < K; k++)
                    s += (int64_t)(val(a, (size_t)(m * K + k), dt) + ao) * (val(b, (size_t)(n * K + k), dt) + bo);
                if (s != o[m * N + n]) bad++;
            }
    }
    CHECK_EQ(bad, 0);
}

typedef struct {
    int B, H, W, C, OH, OW, OC, KH, KW, sh, sw, dh, dw, pt, pl, groups, dm;
} geo;

static void to_conv(const geo *g, accel_mac_conv *c)
{
    memset(c, 0, sizeof *c);
    c->batches = (uint32_t)g->B; c->in_h = (uint32_t)g->H; c->in_w = (uint32_t)g->W;
    c->in_c = (uint32_t)g->C; c->out_h = (uint32_t)g->OH; c->out_w = (uint32_t)g->OW;
    c->out_c = (uint32_t)g->OC; c->k_h = (uint32_t)g->KH; c->k_w = (uint32_t)g->KW;
    c->stride_h = (uint32_t)g->sh; c->stride_w = (uint32_t)g->sw;
    c->dilation_h = (uint32_t)g->dh; c->dilation_w = (uint32_t)g->dw;
    c->pad_top = (uint32_t)g->pt; c->pad_left = (uint32_t)g->pl;
    c->groups = (uint32_t)g->groups; c->depth_multiplier = (uint32_t)g->dm;
}

/* kind 0 conv, 1 depthwise */
static void ref_conv(int kind, const geo *g, const uint8_t *x, const uint8_t *w,
                     const int32_t *bias, const rq *r, uint8_t *o)
{
    int b, oy, ox, oc, ky, kx, c;
    int cg = g->C / (g->groups ? g->groups : 1), ocg = g->OC / (g->groups ? g->groups : 1);
    int dm = g->dm ? g->dm : 1;
    for (b = 0; b < g->B; b++)
        for (oy = 0; oy < g->OH; oy++)
            for (ox = 0; ox < g->OW; ox++)
                for (oc = 0; oc < g->OC; oc++) {
                    int64_t acc = 0;
                    for (ky = 0; ky < g->KH; ky++)
                        for (kx = 0; kx < g->KW; kx++) {
                            int iy = oy * g->sh - g->pt + ky * g->dh;
                            int ix = ox * g->sw - g->pl + kx * g->dw;
                            if (iy < 0 || iy >= g->H || ix < 0 || ix >= g->W) continue;
                            if (kind == 0) {
                                int grp = oc / ocg;
                                for (c = 0; c < cg; c++)
                                    acc += (int64_t)(val(x, (size_t)(((b * g->H + iy) * g->W + ix) * g->C + grp * cg + c), r->dt) + r->io) *
                                           (val(w, (size_t)(((oc * g->KH + ky) * g->KW + kx) * cg + c), r->dt) + r->fo);
                            } else {
                                acc += (int64_t)(val(x, (size_t)(((b * g->H + iy) * g->W + ix) * g->C + oc / dm), r->dt) + r->io) *
                                       (val(w, (size_t)((ky * g->KW + kx) * g->OC + oc), r->dt) + r->fo);
                            }
                        }
                    if (bias) acc += bias[oc];
                    o[((b * g->OH + oy) * g->OW + ox) * g->OC + oc] = ref_out(acc, r, oc);
                }
}

/* random geometry: padding on every side (output may reach past the image), strides,
 * dilation, batch > 1 */
static void rand_geo(geo *g, int kind)
{
    int span_h, span_w;
    g->B = rrange(1, 3);
    g->H = rrange(1, 9);
    g->W = rrange(1, 9);
    g->KH = rrange(1, 4);
    g->KW = rrange(1, 4);
    g->sh = rrange(1, 3);
    g->sw = rrange(1, 3);
    g->dh = rnd() % 3 == 0 ? 2 : 1;
    g->dw = rnd() % 3 == 0 ? rrange(2, 3) : 1;
    g->pt = rrange(0, 3);
    g->pl = rrange(0, 3);
    span_h = (g->KH - 1) * g->dh + 1;
    span_w = (g->KW - 1) * g->dw + 1;
    /* outputs up to what padding bottom/right of up to 3 allows */
    g->OH = (g->H + g->pt + rrange(0, 3) - span_h) / g->sh + 1;
    g->OW = (g->W + g->pl + rrange(0, 3) - span_w) / g->sw + 1;
    if (g->OH < 1) g->OH = 1;
    if (g->OW < 1) g->OW = 1;
    if (kind == 0) {
        g->groups = rnd() % 3 == 0 ? rrange(2, 3) : 1;
        g->C = g->groups * rrange(1, 6);
        g->OC = g->groups * rrange(1, 7);
        g->dm = 0;
    } else {
        g->groups = 0;
        g->C = rrange(1, 20);
        g->dm = rnd() % 3 == 0 ? rrange(2, 3) : 1;
        g->OC = g->C * g->dm;
    }
}

/* One conv (kind 0) or depthwise (1) case of geometry g and requantization r on random data,
 * bias present 3 times in 4: the engine against ref_conv, with a guard byte after the output.
 * Returns 1 (and prints the case) on a mismatch. */
static int conv_case(int kind, int it, const geo *g, const rq *r, uint8_t *x, uint8_t *w,
                     int32_t *bias, uint8_t *o1, uint8_t *o2)
{
    accel_mac_conv c;
    accel_mac_quant q;
    size_t nin = (size_t)(g->B * g->H * g->W * g->C), nout = (size_t)(g->B * g->OH * g->OW * g->OC);
    size_t nw = kind == 0 ? (size_t)(g->OC * g->KH * g->KW * (g->C / g->groups))
                          : (size_t)(g->KH * g->KW * g->OC);
    int i, hasb = (int)(rnd() % 4 != 0);
    accel_status st;
    rand_bytes(x, nin);
    rand_bytes(w, nw);
    for (i = 0; i < g->OC; i++) bias[i] = rand_bias();
    fill_quant(&q, r);
    to_conv(g, &c);
    ref_conv(kind, g, x, w, hasb ? bias : NULL, r, o1);
    memset(o2, 0xAA, nout + 1);
    st = kind == 0 ? accel_mac_conv2d(&c, &q, x, nin, w, nw, hasb ? bias : NULL, hasb ? (size_t)g->OC : 0, o2, nout)
                   : accel_mac_depthwise_conv2d(&c, &q, x, nin, w, nw, hasb ? bias : NULL, hasb ? (size_t)g->OC : 0, o2, nout);
    if (st == ACCEL_OK && memcmp(o1, o2, nout) == 0 && o2[nout] == 0xAA && kind == 0) {
        /* the same through caller scratch: the size asked for (or one byte short: the path
         * without it), at any alignment, its bytes garbage */
        static uint8_t scratch[32768 + 16]; /* the x86 SIMD kernels: up to about 27 KiB */
        size_t need = 0, len;
        int off = (int)(rnd() % 4), shortk = rnd() % 8 == 0;
        st = accel_mac_conv2d_scratch_size(&c, &need);
        if (st == ACCEL_OK && need + 4 > sizeof scratch) st = ACCEL_E_BUFFER_TOO_SMALL;
        if (st == ACCEL_OK) {
            len = shortk && need > 0 ? need - 1 : need;
            memset(scratch, (int)(rnd() & 0xFF), sizeof scratch);
            memset(o2, 0xAA, nout + 1);
            st = accel_mac_conv2d_with_scratch(&c, &q, x, nin, w, nw, hasb ? bias : NULL,
                                               hasb ? (size_t)g->OC : 0, o2, nout,
                                               scratch + off, len);
        }
        if (st == ACCEL_OK && memcmp(o1, o2, nout) == 0 && o2[nout] == 0xAA) return 0;
        printf("  (with scratch of %lu bytes at +%d)", (unsigned long)need, off);
    } else if (st == ACCEL_OK && memcmp(o1, o2, nout) == 0 && o2[nout] == 0xAA) {
        return 0;
    }
    printf("  %s case %d st=%d B%d H%d W%d C%d OH%d OW%d OC%d K%dx%d s%d,%d d%d,%d p%d,%d g%d dm%d\n",
           kind ? "dw" : "conv", it, (int)st, g->B, g->H, g->W, g->C, g->OH, g->OW, g->OC, g->KH,
           g->KW, g->sh, g->sw, g->dh, g->dw, g->pt, g->pl, g->groups, g->dm);
    return 1;
}

static void test_conv_random(int kind)
{
    static uint8_t x[3 * 9 * 9 * 20], w[64 * 4 * 4 * 20], o1[3 * 20 * 20 * 64], o2[3 * 20 * 20 * 64 + 1];
    static int32_t bias[64];
    int it, bad = 0;
    for (it = 0; it < 3000 && bad < 3; it++) {
        geo g;
        rq r;
        rand_geo(&g, kind);
        rand_rq(&r, g.OC, g.KH * g.KW * g.C);
        bad += conv_case(kind, it, &g, &r, x, w, bias, o1, o2);
    }
    CHECK_EQ(bad, 0);
}
static void test_conv2d_random(void) { test_conv_random(0); }
static void test_depthwise_random(void) { test_conv_random(1); }

static void ref_pool(int avg, const geo *g, int dt, int32_t amin, int32_t amax, const uint8_t *x,
                     uint8_t *o)
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
                            v = val(x, (size_t)(((b * g->H + iy) * g->W + ix) * g->C + c), dt);
                            if (avg) acc += v;
                            else if (v > acc) acc = v;
                            n++;
                        }
                    if (avg) {
                        if (dt) acc = (acc + n / 2) / n;
                        else acc = acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
                    }
                    acc = acc < amin ? amin : acc > amax ? amax : acc;
                    o[((b * g->OH + oy) * g->OW + ox) * g->C + c] = (uint8_t)(acc & 0xFF);
                }
}

static void test_pool_random(int avg)
{
    static uint8_t x[3 * 9 * 9 * 40], o1[3 * 20 * 20 * 40], o2[3 * 20 * 20 * 40 + 1];
    int it, bad = 0, done = 0;
    for (it = 0; done < 3000 && bad < 3; it++) {
        geo g;
        accel_mac_conv c;
        int dt = (int)(rnd() & 1), lo = dt ? 0 : -128;
        int32_t amin = lo + (int32_t)(rnd() % 256), amax = lo + (int32_t)(rnd() % 256);
        size_t nin, nout;
        accel_status st;
        rand_geo(&g, 1);
        g.dh = g.dw = 1;
        g.dm = 0;
        g.C = rrange(1, 40);
        g.OC = g.C;
        g.OH = (g.H + g.pt + rrange(0, 3) - g.KH) / g.sh + 1;
        g.OW = (g.W + g.pl + rrange(0, 3) - g.KW) / g.sw + 1;
        if (g.OH < 1 || g.OW < 1) continue;
        /* every window needs an in-image tap: skip geometries where padding swallows one */
        if (g.pt >= g.KH || g.pl >= g.KW || (g.OH - 1) * g.sh - g.pt >= g.H ||
            (g.OW - 1) * g.sw - g.pl >= g.W)
            continue;
        if (amin > amax) { int32_t t = amin; amin = amax; amax = t; }
        if (rnd() & 1) { amin = lo; amax = lo + 255; }
        nin = (size_t)(g.B * g.H * g.W * g.C);
        nout = (size_t)(g.B * g.OH * g.OW * g.C);
        rand_bytes(x, nin);
        to_conv(&g, &c);
        ref_pool(avg, &g, dt, amin, amax, x, o1);
        memset(o2, 0xAA, nout + 1);
        st = avg ? accel_mac_average_pool2d(&c, dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, amin, amax, x, nin, o2, nout)
                 : accel_mac_max_pool2d(&c, dt ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, amin, amax, x, nin, o2, nout);
        if (st != ACCEL_OK || memcmp(o1, o2, nout) != 0 || o2[nout] != 0xAA) {
            bad++;
            printf("  pool case %d st=%d\n", it, (int)st);
        }
        done++;
    }
    CHECK_EQ(bad, 0);
}
static void test_maxpool_random(void) { test_pool_random(0); }
static void test_avgpool_random(void) { test_pool_random(1); }

/* ---------------------------------------------------------------- error paths */
static void test_errors_quant(void)
{
    uint8_t x[8] = {0}, w[8] = {0}, o[8];
    int32_t m[3] = {1 << 30, 1 << 30, 1 << 30}, s[3] = {0, 0, 0}, bias[3] = {0, 0, 0};
    accel_mac_quant q;
#define FC(n) accel_mac_fully_connected(1, 2, n, x, 2, w, 2u * n, bias, 3, &q, o, 8)
#define RESET() do { memset(&q, 0, sizeof q); q.multiplier = m; q.shift = s; q.count = 3; \
        q.act_min = -128; q.act_max = 127; s[0] = s[1] = s[2] = 0; m[0] = m[1] = m[2] = 1 << 30; } while (0)
    RESET();
    CHECK_ST(FC(3), ACCEL_OK);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 6, bias, 3, NULL, o, 8), ACCEL_E_NULL);
    q.multiplier = NULL; CHECK_ST(FC(3), ACCEL_E_NULL); RESET();
    q.shift = NULL; CHECK_ST(FC(3), ACCEL_E_NULL); RESET();
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, NULL, 2, w, 6, bias, 3, &q, o, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, NULL, 6, bias, 3, &q, o, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 6, bias, 3, &q, NULL, 8), ACCEL_E_NULL);
    q.dtype = (accel_mac_dtype)2; CHECK_ST(FC(3), ACCEL_E_MAC_DTYPE); RESET();
    q.rounding = (accel_mac_rounding)2; CHECK_ST(FC(3), ACCEL_E_MAC_ROUNDING); RESET();
    s[2] = 32; CHECK_ST(FC(3), ACCEL_E_MAC_SHIFT); RESET();
    s[1] = -32; CHECK_ST(FC(3), ACCEL_E_MAC_SHIFT); RESET();
    s[0] = 31; CHECK_ST(FC(3), ACCEL_OK); RESET();
    s[0] = -31; CHECK_ST(FC(3), ACCEL_OK); RESET();
    s[0] = 31; q.rounding = ACCEL_MAC_ROUND_SINGLE; CHECK_ST(FC(3), ACCEL_E_MAC_SHIFT); RESET();
    s[0] = 30; q.rounding = ACCEL_MAC_ROUND_SINGLE; CHECK_ST(FC(3), ACCEL_OK); RESET();
    s[2] = 40; q.count = 1; CHECK_ST(FC(3), ACCEL_OK); RESET(); /* per-tensor reads entry 0 only */
    m[1] = -1; CHECK_ST(FC(3), ACCEL_E_MAC_MULTIPLIER); RESET();
    m[1] = 0; CHECK_ST(FC(3), ACCEL_OK); RESET();
    q.input_offset = 129; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); RESET();
    q.input_offset = -128; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); RESET();
    q.input_offset = 128; CHECK_ST(FC(3), ACCEL_OK); RESET();
    q.input_offset = -127; CHECK_ST(FC(3), ACCEL_OK); RESET();
    q.filter_offset = 200; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); RESET();
    q.output_offset = 128; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); RESET();
    q.output_offset = -129; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); RESET();
    q.dtype = ACCEL_MAC_UINT8; q.act_min = 0; q.act_max = 255;
    CHECK_ST(FC(3), ACCEL_OK);
    q.input_offset = 1; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); q.input_offset = -255;
    CHECK_ST(FC(3), ACCEL_OK);
    q.input_offset = -256; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); q.input_offset = 0;
    q.output_offset = 256; CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); q.output_offset = -1;
    CHECK_ST(FC(3), ACCEL_E_MAC_OFFSET); q.output_offset = 255;
    CHECK_ST(FC(3), ACCEL_OK);
    q.act_min = -1; CHECK_ST(FC(3), ACCEL_E_MAC_ACTIVATION); RESET();
    q.act_min = 5; q.act_max = 4; CHECK_ST(FC(3), ACCEL_E_MAC_ACTIVATION); RESET();
    q.act_max = 128; CHECK_ST(FC(3), ACCEL_E_MAC_ACTIVATION); RESET();
    q.act_min = q.act_max = 7; CHECK_ST(FC(3), ACCEL_OK); RESET();
    q.count = 0; CHECK_ST(FC(3), ACCEL_E_ZERO_LENGTH); RESET();
    q.count = 2; CHECK_ST(FC(3), ACCEL_E_MAC_CHANNELS); RESET();
    q.count = 2; CHECK_ST(FC(2), ACCEL_OK); RESET();
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 6, bias, 2, &q, o, 8), ACCEL_E_MAC_CHANNELS);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 6, NULL, 0, &q, o, 8), ACCEL_OK);
    CHECK_ST(accel_mac_fully_connected(0, 2, 3, x, 2, w, 6, bias, 3, &q, o, 8), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_fully_connected(1, 0, 3, x, 2, w, 6, bias, 3, &q, o, 8), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_fully_connected(1, 2, 0, x, 2, w, 6, bias, 3, &q, o, 8), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 1, w, 6, bias, 3, &q, o, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 5, bias, 3, &q, o, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_fully_connected(1, 2, 3, x, 2, w, 6, bias, 3, &q, o, 2), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_mac_fully_connected(2, 2, 3, x, 4, w, 6, bias, 3, &q, o, 5), ACCEL_E_BUFFER_TOO_SMALL);
    /* requantize */
    {
        int32_t acc[4] = {10, -10, 1000, -1000};
        uint8_t r[4];
        q.count = 1;
        s[0] = 1;
        q.output_offset = 3;
        q.act_min = -100; q.act_max = 100;
        CHECK_ST(accel_mac_requantize(acc, 4, 2, &q, r, 4), ACCEL_OK);
        CHECK_EQ((int8_t)r[0], 13); CHECK_EQ((int8_t)r[1], -7); CHECK_EQ((int8_t)r[2], 100);
        CHECK_EQ((int8_t)r[3], -100);
        CHECK_ST(accel_mac_requantize(acc, 4, 2, &q, r, 3), ACCEL_E_BUFFER_TOO_SMALL);
        CHECK_ST(accel_mac_requantize(acc, 4, 0, &q, r, 4), ACCEL_E_ZERO_LENGTH);
        CHECK_ST(accel_mac_requantize(NULL, 4, 2, &q, r, 4), ACCEL_E_NULL);
        q.count = 2; m[1] = 1 << 29; s[1] = 1; /* per channel: channel 1 has half the scale */
        CHECK_ST(accel_mac_requantize(acc, 4, 2, &q, r, 4), ACCEL_OK);
        CHECK_EQ((int8_t)r[0], 13); CHECK_EQ((int8_t)r[1], -2); /* -10*0.5 = -5 + 3 */
        q.count = 2;
        CHECK_ST(accel_mac_requantize(acc, 4, 3, &q, r, 4), ACCEL_E_MAC_CHANNELS);
    }
#undef FC
#undef RESET
}

/* conv2d's scratch API: the size query's checks, validation before the scratch is touched,
 * and the calls that take the path without it (no pointer, no length) */
/* The error tests' small case: a 2x2x2 image, 1x1 window, 2 output channels, stride 1; and a
 * per-tensor int8 quantization with the full output range, multiplier and shift at *m, *s. */
static void tiny_conv(accel_mac_conv *g)
{
    memset(g, 0, sizeof *g);
    g->batches = 1; g->in_h = 2; g->in_w = 2; g->in_c = 2; g->out_h = 2; g->out_w = 2;
    g->out_c = 2; g->k_h = 1; g->k_w = 1; g->stride_h = 1; g->stride_w = 1;
}
static void tiny_quant(accel_mac_quant *q, int32_t *m, int32_t *s)
{
    memset(q, 0, sizeof *q);
    q->multiplier = m; q->shift = s; q->count = 1; q->act_min = -128; q->act_max = 127;
}

static void test_conv_scratch_api(void)
{
    uint8_t x[64] = {0}, w[64] = {0}, o[64], want[64], scratch[2048];
    int32_t m = 1 << 30, s = -1;
    size_t need = 7, i;
    int untouched = 1;
    accel_mac_quant q;
    accel_mac_conv g, g0;
    tiny_quant(&q, &m, &s);
    tiny_conv(&g0);
    for (i = 0; i < 8; i++) x[i] = (uint8_t)(i * 37), w[i] = (uint8_t)(i * 91);
    CHECK_ST(accel_mac_conv2d_scratch_size(NULL, &need), ACCEL_E_NULL);
    CHECK_ST(accel_mac_conv2d_scratch_size(&g0, NULL), ACCEL_E_NULL);
    g = g0; g.k_w = 0;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(need, 0); /* set to 0 on every error */
    g = g0; g.stride_h = 0;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need), ACCEL_E_MAC_STRIDE);
    g = g0; g.groups = 3;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need), ACCEL_E_MAC_GROUPS);
    g = g0; g.depth_multiplier = 2;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need), ACCEL_E_MAC_GROUPS);
    g = g0; g.k_h = g.k_w = g.in_c = 65535; /* 2.8e14 filter bytes: size_t overflows on 32 bits */
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need),
             sizeof(size_t) < 8 ? ACCEL_E_OVERFLOW : ACCEL_OK);
    CHECK_ST(accel_mac_conv2d_scratch_size(&g0, &need), ACCEL_OK);
    /* 0 (a build that needs none) or room for int16 patch values of at least one pixel */
    CHECK(need == 0 || need >= 2u * 2u);
    CHECK(need + 4 <= sizeof scratch);
    CHECK_ST(accel_mac_conv2d(&g0, &q, x, 8, w, 4, NULL, 0, want, 8), ACCEL_OK);
    /* bad input is refused before the scratch is written */
    memset(scratch, 0x5A, sizeof scratch);
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 7, w, 4, NULL, 0, o, 8, scratch, sizeof scratch),
             ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_conv2d_with_scratch(NULL, &q, x, 8, w, 4, NULL, 0, o, 8, scratch, sizeof scratch),
             ACCEL_E_NULL);
    q.act_min = 1; q.act_max = 0;
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 8, w, 4, NULL, 0, o, 8, scratch, sizeof scratch),
             ACCEL_E_MAC_ACTIVATION);
    q.act_min = -128; q.act_max = 127;
    for (i = 0; i < sizeof scratch; i++) untouched &= scratch[i] == 0x5A;
    CHECK(untouched);
    /* the same result with scratch, without a pointer, without a length */
    memset(o, 0, sizeof o);
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 8, w, 4, NULL, 0, o, 8, scratch + 1, need), ACCEL_OK);
    CHECK_MEM(o, want, 8);
    memset(o, 0, sizeof o);
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 8, w, 4, NULL, 0, o, 8, NULL, sizeof scratch), ACCEL_OK);
    CHECK_MEM(o, want, 8);
    memset(o, 0, sizeof o);
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 8, w, 4, NULL, 0, o, 8, scratch, 0), ACCEL_OK);
    CHECK_MEM(o, want, 8);
}

static void test_errors_conv(void)
{
    uint8_t x[64] = {0}, w[64] = {0}, o[64];
    int32_t m = 1 << 30, s = 0;
    accel_mac_quant q;
    accel_mac_conv g, g0;
    tiny_quant(&q, &m, &s);
    tiny_conv(&g0);
#define CV(gg) accel_mac_conv2d(&gg, &q, x, 8, w, 4, NULL, 0, o, 8)
    g = g0; CHECK_ST(CV(g), ACCEL_OK);
    CHECK_ST(accel_mac_conv2d(NULL, &q, x, 8, w, 4, NULL, 0, o, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 8, w, 4, NULL, 0, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 7, w, 4, NULL, 0, o, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 8, w, 3, NULL, 0, o, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 7), ACCEL_E_BUFFER_TOO_SMALL);
    g = g0; g.stride_h = 0; CHECK_ST(CV(g), ACCEL_E_MAC_STRIDE);
    g = g0; g.stride_w = 0; CHECK_ST(CV(g), ACCEL_E_MAC_STRIDE);
    g = g0; g.in_c = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.k_w = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.batches = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.in_h = 65536; CHECK_ST(CV(g), ACCEL_E_MAC_SHAPE);
    g = g0; g.pad_left = 70000; CHECK_ST(CV(g), ACCEL_E_MAC_SHAPE);
    g = g0; g.out_h = 65535; g.stride_h = 65535; CHECK_ST(CV(g), ACCEL_E_MAC_SHAPE); /* span */
    g = g0; g.batches = 0xFFFFFFFFUL; g.in_h = g.in_w = g.in_c = 65535;
    CHECK_ST(CV(g), sizeof(size_t) >= 8 ? ACCEL_E_OVERFLOW : ACCEL_E_OVERFLOW);
    g = g0; g.groups = 3; CHECK_ST(CV(g), ACCEL_E_MAC_GROUPS);
    g = g0; g.groups = 2; /* filter [2,1,1,1] */
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 8, w, 2, NULL, 0, o, 8), ACCEL_OK);
    g = g0; g.depth_multiplier = 2; CHECK_ST(CV(g), ACCEL_E_MAC_GROUPS);
    s = 32; g = g0; CHECK_ST(CV(g), ACCEL_E_MAC_SHIFT); s = 0;
    /* depthwise */
    g = g0; g.depth_multiplier = 2; g.out_c = 4;
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 16), ACCEL_OK);
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 3, NULL, 0, o, 16), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 15), ACCEL_E_BUFFER_TOO_SMALL);
    g.out_c = 3; CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 16), ACCEL_E_MAC_GROUPS);
    g.out_c = 4; g.groups = 2; CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 16), ACCEL_E_MAC_GROUPS);
    g.groups = 0; q.count = 2; CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 16), ACCEL_E_MAC_CHANNELS);
    q.count = 1;
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, NULL, 8, w, 4, NULL, 0, o, 16), ACCEL_E_NULL);
    /* pools */
    g = g0; g.k_h = g.k_w = 2;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_OK);
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -129, 127, x, 8, o, 8), ACCEL_E_MAC_ACTIVATION);
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_UINT8, -1, 255, x, 8, o, 8), ACCEL_E_MAC_ACTIVATION);
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_UINT8, 3, 2, x, 8, o, 8), ACCEL_E_MAC_ACTIVATION);
    CHECK_ST(accel_mac_max_pool2d(&g, (accel_mac_dtype)7, 0, 2, x, 8, o, 8), ACCEL_E_MAC_DTYPE);
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 7, o, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 7), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, NULL, 8), ACCEL_E_NULL);
    g.out_c = 3; CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 64), ACCEL_E_MAC_GROUPS);
    g.out_c = 2; g.dilation_h = 2; CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 64), ACCEL_E_MAC_GROUPS);
    g.dilation_h = 0;
    /* a window entirely in the padding: nothing may be written */
    memset(o, 0x55, sizeof o);
    g.pad_top = 2;
    CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_EMPTY_WINDOW);
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_EMPTY_WINDOW);
    g.pad_top = 0; g.out_w = 3; g.stride_w = 2; /* third column starts at x = 4 > width */
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 12), ACCEL_E_MAC_EMPTY_WINDOW);
    CHECK_EQ(o[0], 0x55);
    /* raw GEMM */
    {
        int32_t r[4];
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, 0, w, 4, 0, r, 4), ACCEL_OK);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, -128, w, 4, 0, r, 4), ACCEL_E_MAC_OFFSET);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_UINT8, 2, 2, 2, x, 4, 0, w, 4, 1, r, 4), ACCEL_E_MAC_OFFSET);
        CHECK_ST(accel_mac_matmul_s32((accel_mac_dtype)3, 2, 2, 2, x, 4, 0, w, 4, 0, r, 4), ACCEL_E_MAC_DTYPE);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 3, 0, w, 4, 0, r, 4), ACCEL_E_TRUNCATED);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, 0, w, 3, 0, r, 4), ACCEL_E_TRUNCATED);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, 0, w, 4, 0, r, 3), ACCEL_E_BUFFER_TOO_SMALL);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 0, 2, 2, x, 4, 0, w, 4, 0, r, 4), ACCEL_E_ZERO_LENGTH);
        CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, NULL, 4, 0, w, 4, 0, r, 4), ACCEL_E_NULL);
    }
#undef CV
}


/* Arguments outside the documented ranges: clamped shifts and exponents give the clamped
 * results, each NULL and zero-length argument its status, geometry limits their status. */
static void test_errors_more(void)
{
    uint8_t x[64] = {0}, w[64] = {0}, o[64];
    int32_t r[16], acc[4] = {1, 2, 3, 4}, m = 1 << 30, s = 0;
    accel_mac_quant q;
    accel_mac_conv g, g0;
    size_t sz = 5;
    /* clamps: an exponent above 31 is 31, a shift beyond +-31 is +-31 */
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(INT32_MIN, 40), -1);
    CHECK_EQ(accel_mac_rounding_divide_by_power_of_two(0x40000000, 40),
             accel_mac_rounding_divide_by_power_of_two(0x40000000, 31));
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(1 << 30, 1 << 30, -40),
             accel_mac_multiply_by_quantized_multiplier(1 << 30, 1 << 30, -31));
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier(1 << 30, 1 << 30, -40), 0);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(3, 1 << 30, 40), INT32_MAX);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(-3, 1 << 30, 40), INT32_MIN);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(1 << 30, 1 << 30, -40), 0);
    CHECK_EQ(accel_mac_multiply_by_quantized_multiplier_single(1 << 30, 1 << 30, -40),
             accel_mac_multiply_by_quantized_multiplier_single(1 << 30, 1 << 30, -31));
#ifndef ACCEL_MAC_NO_FLOAT
    {
        int32_t qm = 7, qs = 7;
        float f[5] = {0.0f, 1e30f, -1e30f, 0.0f, 2.0f};
        float back[2];
        uint8_t b[5];
        CHECK_ST(accel_mac_quantize_multiplier(0.5, &qm, NULL), ACCEL_E_NULL);
        CHECK_EQ(qm, 7);
        /* -(0.5 + 0.75 / 2^31): r = -(2^30 + 0.75) rounds away from zero */
        CHECK_ST(accel_mac_quantize_multiplier(-(0.5 + 0.75 / 2147483648.0), &qm, &qs), ACCEL_OK);
        CHECK_EQ(qm, -1073741825L);
        CHECK_EQ(qs, 0);
        f[3] = f[1] - f[1] * 2.0f; /* -1e30: stays finite */
        f[0] = 0.0f / (f[4] - 2.0f); /* NaN */
        CHECK_ST(accel_mac_quantize_f32(f, 5, 1.0f, 3, ACCEL_MAC_INT8, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_mac_quantize_f32(f, 5, 1e30f * 1e30f, 3, ACCEL_MAC_INT8, b), ACCEL_E_ARG);
        CHECK_ST(accel_mac_quantize_f32(f, 5, 1.0f, 3, ACCEL_MAC_INT8, b), ACCEL_OK);
        CHECK_EQ((int8_t)b[0], 3); /* NaN: the zero point */
        CHECK_EQ((int8_t)b[1], 127);
        CHECK_EQ((int8_t)b[2], -128);
        CHECK_EQ((int8_t)b[3], -128);
        CHECK_EQ((int8_t)b[4], 5);
        CHECK_ST(accel_mac_dequantize_f32(b, 2, 0.5f, 0, ACCEL_MAC_INT8, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_mac_dequantize_f32(b, 2, 0.5f, 256, ACCEL_MAC_UINT8, back), ACCEL_E_MAC_OFFSET);
        CHECK_ST(accel_mac_dequantize_f32(b, 2, 0.5f, 255, ACCEL_MAC_UINT8, back), ACCEL_OK);
        CHECK(back[0] == 0.5f * (3.0f - 255.0f));
        CHECK(back[1] == 0.5f * (127.0f - 255.0f));
    }
#endif
    /* GEMM: each pointer, each zero size */
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, 0, NULL, 4, 0, r, 4), ACCEL_E_NULL);
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 2, x, 4, 0, w, 4, 0, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 0, 2, x, 4, 0, w, 4, 0, r, 4), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 2, 2, 0, x, 4, 0, w, 4, 0, r, 4), ACCEL_E_ZERO_LENGTH);
    /* requantize: no output; more channels than a uint32 holds (only where size_t is wider) */
    tiny_quant(&q, &m, &s);
    CHECK_ST(accel_mac_requantize(acc, 4, 2, &q, NULL, 4), ACCEL_E_NULL);
#if SIZE_MAX > 0xFFFFFFFFu
    CHECK_ST(accel_mac_requantize(acc, 4, (size_t)0xFFFFFFFFu + 1u, &q, o, 4), ACCEL_E_MAC_SHAPE);
#endif
    /* geometry: each zero dimension, spans, output-side overflow */
    tiny_conv(&g0);
#define CV(gg) accel_mac_conv2d(&gg, &q, x, 8, w, 4, NULL, 0, o, 8)
    g = g0; g.in_h = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.in_w = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.out_h = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.out_w = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.out_c = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.k_h = 0; CHECK_ST(CV(g), ACCEL_E_ZERO_LENGTH);
    g = g0; g.out_w = 65535; g.stride_w = 65535; CHECK_ST(CV(g), ACCEL_E_MAC_SHAPE);
    g = g0; g.k_h = 65535; g.dilation_h = 65535; CHECK_ST(CV(g), ACCEL_E_MAC_SHAPE);
    g = g0; g.batches = 0xFFFFFFFFUL; g.out_h = g.out_w = g.out_c = 65535; g.in_c = 1;
    CHECK_ST(CV(g), ACCEL_E_OVERFLOW); /* 2^80 outputs overflow even a 64-bit size_t */
    /* depthwise and pools: each pointer */
    g = g0;
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, NULL, 4, NULL, 0, o, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 8), ACCEL_OK);
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 7, w, 4, NULL, 0, o, 8), ACCEL_E_TRUNCATED);
    g.k_h = 0;
    CHECK_ST(accel_mac_depthwise_conv2d(&g, &q, x, 8, w, 4, NULL, 0, o, 8), ACCEL_E_ZERO_LENGTH);
    g = g0;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, NULL, 8, o, 8), ACCEL_E_NULL);
    g.in_h = 0;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_ZERO_LENGTH);
    g = g0; g.groups = 2;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_GROUPS);
    g = g0; g.depth_multiplier = 2;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_GROUPS);
    g = g0; g.dilation_w = 2;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_GROUPS);
    g = g0; g.k_h = g.k_w = 4096; /* 2^24 taps: the sum could leave int32 */
    CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 8, o, 8), ACCEL_E_MAC_SHAPE);
    /* conv2d with scratch: each pointer; groups that do not divide */
    g = g0;
    CHECK_ST(accel_mac_conv2d_with_scratch(&g, &q, NULL, 8, w, 4, NULL, 0, o, 8, NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_mac_conv2d_with_scratch(&g, &q, x, 8, NULL, 4, NULL, 0, o, 8, NULL, 0), ACCEL_E_NULL);
    g.out_c = 3; g.groups = 2;
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 8, w, 6, NULL, 0, o, 12), ACCEL_E_MAC_GROUPS);
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &sz), ACCEL_E_MAC_GROUPS);
    CHECK_EQ(sz, 0);
#undef CV
    /* wide products: sizes and pointers */
    CHECK_EQ(accel_mac_wide_depth_limit(0, 1), 0);
    CHECK_EQ(accel_mac_wide_depth_limit(5, 0), 0);
    sz = 5;
    CHECK_ST(accel_mac_wide_scratch_size(0, 1, 1, 1, &sz), ACCEL_E_ARG);
    CHECK_EQ(sz, 0);
    CHECK_ST(accel_mac_wide_scratch_size(5, 1, 1, 1, &sz), ACCEL_E_ARG);
    CHECK_ST(accel_mac_wide_scratch_size(4, 1, 1, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_mac_wide_scratch_size(4, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, &sz),
             ACCEL_E_OVERFLOW); /* m*n*4 alone is 2^66 */
    CHECK_EQ(sz, 0);
    {
        uint8_t wa[8] = {0}, wb[8] = {0}, wsc[256];
        int64_t wout[4] = {7, 7, 7, 7};
#define WM(nb, mr, nc, dp, pa, pb, po, ps) \
    accel_mac_wide_matmul(nb, 1, mr, nc, dp, pa, 8, pb, 8, po, 4, ps, sizeof wsc)
        CHECK_ST(WM(2, 1, 1, 1, NULL, wb, wout, wsc), ACCEL_E_NULL);
        CHECK_ST(WM(2, 1, 1, 1, wa, NULL, wout, wsc), ACCEL_E_NULL);
        CHECK_ST(WM(2, 1, 1, 1, wa, wb, NULL, wsc), ACCEL_E_NULL);
        CHECK_ST(WM(2, 1, 1, 1, wa, wb, wout, NULL), ACCEL_E_NULL);
        CHECK_ST(WM(0, 1, 1, 1, wa, wb, wout, wsc), ACCEL_E_ARG);
        CHECK_ST(WM(5, 1, 1, 1, wa, wb, wout, wsc), ACCEL_E_ARG);
        CHECK_ST(WM(2, 0, 1, 1, wa, wb, wout, wsc), ACCEL_E_ZERO_LENGTH);
        CHECK_ST(WM(2, 1, 0, 1, wa, wb, wout, wsc), ACCEL_E_ZERO_LENGTH);
        CHECK_ST(WM(2, 1, 1, 0, wa, wb, wout, wsc), ACCEL_E_ZERO_LENGTH);
        CHECK_EQ(wout[0], 7); /* nothing written by a refused call */
#undef WM
    }
#ifndef ACCEL_MAC_NO_FLOAT
    {
        uint8_t b2[2] = {1, 2};
        float back[2] = {9.0f, 9.0f};
        CHECK_ST(accel_mac_dequantize_f32(NULL, 2, 0.5f, 0, ACCEL_MAC_INT8, back), ACCEL_E_NULL);
        CHECK_ST(accel_mac_dequantize_f32(b2, 2, 0.5f, 0, (accel_mac_dtype)5, back), ACCEL_E_MAC_DTYPE);
        CHECK_ST(accel_mac_dequantize_f32(b2, 2, 0.5f, -129, ACCEL_MAC_INT8, back), ACCEL_E_MAC_OFFSET);
        CHECK(back[0] == 9.0f);
    }
#endif
}

/* ---------------------------------------------------------------- edge geometries */
/* Shapes the random cases never draw, each sending a kernel down another path: a depthwise row
 * wider than the 16 output pixels the microcontroller kernel requantizes at once, depthwise
 * windows of more than 25 taps (the packed-filter limit: the portable loop takes them) and of
 * more than 64 (the x86 builds' limit), conv2d filters longer than the 2048-byte host patch and
 * longer than the 32768-term chunk (with enough scratch, which then is not used). Both types, against ref_conv, guard byte after the
 * output; conv2d also through caller scratch of exactly the size asked for, at an odd address. */
enum { EDGE_X = 2 * 32769 + 64, EDGE_W = 2 * 32769 + 64, EDGE_O = 3 * 20 * 8 + 64,
       EDGE_S = 8 * 32769 + 3 + 8 }; /* patch: 2 * (3 or 4 pixels) bytes a tap, + 3 */
static uint8_t ex[EDGE_X], ew[EDGE_W], eo1[EDGE_O], eo2[EDGE_O], escr[EDGE_S];
static int32_t ebias[8];

static void edge_case(int kind, const geo *g)
{
    int dt, i;
    for (dt = 0; dt < 2; dt++) {
        rq r;
        accel_mac_conv c;
        accel_mac_quant q;
        size_t nin = (size_t)g->B * (size_t)g->H * (size_t)g->W * (size_t)g->C;
        size_t nout = (size_t)g->B * (size_t)g->OH * (size_t)g->OW * (size_t)g->OC;
        size_t nw = kind == 0 ? (size_t)g->OC * (size_t)(g->KH * g->KW) * (size_t)(g->C / g->groups)
                              : (size_t)(g->KH * g->KW * g->OC);
        size_t need = 0;
        REQUIRE(nin <= EDGE_X && nw <= EDGE_W && nout < EDGE_O && g->OC <= 8);
        do rand_rq(&r, g->OC, g->KH * g->KW * g->C); while (r.dt != dt);
        rand_bytes(ex, nin);
        rand_bytes(ew, nw);
        for (i = 0; i < g->OC; i++) ebias[i] = rand_bias();
        fill_quant(&q, &r);
        to_conv(g, &c);
        ref_conv(kind, g, ex, ew, ebias, &r, eo1);
        memset(eo2, 0xAA, nout + 1);
        CHECK_ST(kind == 0 ? accel_mac_conv2d(&c, &q, ex, nin, ew, nw, ebias, (size_t)g->OC, eo2, nout)
                           : accel_mac_depthwise_conv2d(&c, &q, ex, nin, ew, nw, ebias, (size_t)g->OC, eo2, nout),
                 ACCEL_OK);
        CHECK_MEM(eo1, eo2, nout);
        CHECK_EQ(eo2[nout], 0xAA);
        if (kind != 0) continue;
        CHECK_ST(accel_mac_conv2d_scratch_size(&c, &need), ACCEL_OK);
        REQUIRE(need + 1 <= EDGE_S);
        memset(escr, 0x5A, sizeof escr);
        memset(eo2, 0xAA, nout + 1);
        CHECK_ST(accel_mac_conv2d_with_scratch(&c, &q, ex, nin, ew, nw, ebias, (size_t)g->OC, eo2, nout,
                                               escr + 1, need), ACCEL_OK);
        CHECK_MEM(eo1, eo2, nout);
        CHECK_EQ(eo2[nout], 0xAA);
    }
}

static void test_edge_geometries(void)
{
    /* B H W C OH OW OC KH KW sh sw dh dw pt pl groups dm */
    static const geo dw_wide = {1, 3, 20, 8, 3, 20, 8, 3, 3, 1, 1, 1, 1, 1, 1, 0, 1};
    static const geo dw_taps = {2, 7, 6, 5, 2, 2, 5, 6, 5, 1, 1, 1, 1, 0, 0, 0, 1};
    static const geo dw_taps72 = {1, 10, 9, 4, 2, 2, 4, 9, 8, 1, 1, 1, 1, 0, 0, 0, 1};
    static const geo conv_patch = {1, 3, 3, 240, 3, 3, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0};
    static const geo conv_chunk = {1, 1, 2, 32769, 1, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0};
    edge_case(1, &dw_wide);
    edge_case(1, &dw_taps);
    edge_case(1, &dw_taps72);
    edge_case(0, &conv_patch);
    edge_case(0, &conv_chunk);
}

/* Sizes past size_t: hand-computed cases for the wide products' scratch size (each factor and
 * each sum of the three plane areas), on every size_t width; *size is left 0. */
static void test_wide_overflow(void)
{
    size_t sz = 7;
    int16_t a[1] = {1}, b[1] = {1};
    int64_t o[1] = {42};
    uint32_t sbuf[4];
    const uint32_t M = 0xFFFFFFFFUL;
    /* 4 * M * M > 2^64 */
    CHECK_ST(accel_mac_wide_scratch_size(1, M, M, 1, &sz), ACCEL_E_OVERFLOW);
    CHECK_EQ(sz, 0);
    /* M * depth M * 4 bytes > 2^64 (a's planes), then b's */
    sz = 7;
    CHECK_ST(accel_mac_wide_scratch_size(4, M, 1, M, &sz), ACCEL_E_OVERFLOW);
    CHECK_EQ(sz, 0);
    CHECK_ST(accel_mac_wide_scratch_size(4, 1, M, M, &sz), ACCEL_E_OVERFLOW);
    /* each area fits 64 bits; 4*M*2^30 + 2*M = 2^64 + 2^32 - 2 does not */
    CHECK_ST(accel_mac_wide_scratch_size(1, M, 0x40000000UL, 2, &sz), ACCEL_E_OVERFLOW);
    /* 4*M*2^30 + M = 2^64 - 1 fits, + 2^30 (b's plane) does not */
    CHECK_ST(accel_mac_wide_scratch_size(1, M, 0x40000000UL, 1, &sz), ACCEL_E_OVERFLOW);
    /* the products refuse before reading anything; out untouched */
    CHECK_ST(accel_mac_matmul_s16(M, M, 1, a, 1, b, 1, o, 1, sbuf, sizeof sbuf), ACCEL_E_OVERFLOW);
    CHECK_ST(accel_mac_matmul_u16(M, M, 1, (const uint16_t *)a, 1, (const uint16_t *)b, 1, o, 1, sbuf, sizeof sbuf),
             ACCEL_E_OVERFLOW);
    CHECK_EQ(o[0], 42);
    /* sizes that fit 64 bits, not 32: b's area n*depth; a's area plus the output's; all three */
    CHECK_ST(accel_mac_wide_scratch_size(1, 1, 65536, 65536, &sz),
             (uint64_t)SIZE_MAX < 65536ULL * 65536 ? ACCEL_E_OVERFLOW : ACCEL_OK);
    if ((uint64_t)SIZE_MAX >= 65536ULL * 65536) CHECK_EQ_U64(sz, 4295294976ULL); /* 2^18 + 2^16 + 2^32 */
    CHECK_ST(accel_mac_wide_scratch_size(1, 1u << 29, 1, 4, &sz),
             (uint64_t)SIZE_MAX < 4294967300ULL ? ACCEL_E_OVERFLOW : ACCEL_OK);
    if ((uint64_t)SIZE_MAX >= 4294967300ULL) CHECK_EQ_U64(sz, 4294967300ULL); /* 2^31 + 2^31 + 4 */
    CHECK_ST(accel_mac_wide_scratch_size(1, 1, 65536, 65535, &sz),
             (uint64_t)SIZE_MAX < 4295229439ULL ? ACCEL_E_OVERFLOW : ACCEL_OK);
    if ((uint64_t)SIZE_MAX >= 4295229439ULL) CHECK_EQ_U64(sz, 4295229439ULL); /* 2^18 + 65535 + 2^32 - 2^16 */
    /* Products of valid uint32 dimensions past 2^32, each refused at a different check where
     * size_t has 32 bits (the Cortex-M builds of tests/mac_arm.sh): m*depth (a's plane count),
     * m*depth*nbytes, n*depth*nbytes, m*n*4 (the output's int32 planes). The size is the
     * documented 4*m*n + (m + n)*depth*nbytes, computed here in 64 bits (every case is far
     * below 2^64): ACCEL_E_OVERFLOW with *size 0 exactly when it exceeds SIZE_MAX, else that
     * size. A 64-bit host gets the sizes, so no overflow is expected there. */
    {
        static const uint32_t wc[][4] = { /* nbytes, m_rows, n_cols, depth */
            {1, 65536, 1, 65536},     /* m*depth = 2^32 */
            {4, 65536, 1, 32768},     /* m*depth = 2^31 fits, times 4 bytes does not */
            {4, 1, 65536, 32768},     /* n*depth = 2^31 fits, times 4 bytes does not */
            {1, 32768, 65536, 1},     /* m*n = 2^31 fits, times 4 bytes does not */
        };
        size_t i;
        for (i = 0; i < sizeof wc / sizeof wc[0]; i++) {
            const uint64_t nb = wc[i][0], m = wc[i][1], n = wc[i][2], k = wc[i][3];
            const uint64_t want = 4 * m * n + (m + n) * k * nb;
            sz = 7;
            CHECK_ST(accel_mac_wide_scratch_size(wc[i][0], wc[i][1], wc[i][2], wc[i][3], &sz),
                     want > (uint64_t)SIZE_MAX ? ACCEL_E_OVERFLOW : ACCEL_OK);
            CHECK_EQ_U64(sz, want > (uint64_t)SIZE_MAX ? 0 : want);
        }
    }
    /* a zero dimension is an empty area, not an overflow: 0*3*4 + 0*5*2 + 3*5*2 */
    CHECK_ST(accel_mac_wide_scratch_size(2, 0, 3, 5, &sz), ACCEL_OK);
    CHECK_EQ(sz, 30);
}

/* Element counts past size_t. With a 32-bit size_t (the Cortex-M builds of tests/mac_arm.sh run
 * this file) each case is ACCEL_E_OVERFLOW at the product named; with 64 bits the product fits
 * and the call goes on to the next check, which refuses the short buffers. The claimed lengths
 * (SIZE_MAX where a check must pass) are never read: every refusal comes first. Nothing is
 * written. The expected status comes from the product computed here in 64 bits. */
#define OVF(prod, other) ((uint64_t)(prod) > (uint64_t)SIZE_MAX ? ACCEL_E_OVERFLOW : (other))
static void test_size_overflow(void)
{
    uint8_t x[4] = {0}, w[4] = {0}, o[4] = {9, 9, 9, 9};
    int32_t m = 1 << 30, s = 0, acc[1] = {42};
    size_t need = 7;
    const size_t BIG = SIZE_MAX;
    const uint64_t K = 65535, fs2 = K * K * 2; /* a 65535x65535 window over 2 channels */
    accel_mac_quant q;
    accel_mac_conv g, g0;
    tiny_quant(&q, &m, &s);
    /* fully connected: input batches*in_depth, filter out_depth*in_depth, output batches*out_depth */
    CHECK_ST(accel_mac_fully_connected(65536, 65536, 1, x, 1, w, 1, NULL, 0, &q, o, 1),
             OVF(65536ULL * 65536, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_fully_connected(1, 65536, 65536, x, BIG, w, 1, NULL, 0, &q, o, 1),
             OVF(65536ULL * 65536, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_fully_connected(65536, 1, 65536, x, BIG, w, BIG, NULL, 0, &q, o, 1),
             OVF(65536ULL * 65536, ACCEL_E_BUFFER_TOO_SMALL));
    /* raw GEMM: a m_rows*depth, b n_cols*depth, out m_rows*n_cols */
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 65536, 1, 65536, x, 1, 0, w, 1, 0, acc, 1),
             OVF(65536ULL * 65536, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 1, 65536, 65536, x, BIG, 0, w, 1, 0, acc, 1),
             OVF(65536ULL * 65536, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_matmul_s32(ACCEL_MAC_INT8, 65536, 65536, 1, x, BIG, 0, w, BIG, 0, acc, 1),
             OVF(65536ULL * 65536, ACCEL_E_BUFFER_TOO_SMALL));
    /* geometry: batches (up to 2^32 - 1) times each input, then each output dimension */
    memset(&g0, 0, sizeof g0);
    g0.batches = 1u << 20; g0.in_h = g0.in_w = g0.in_c = 1; g0.out_h = g0.out_w = g0.out_c = 1;
    g0.k_h = g0.k_w = 1; g0.stride_h = g0.stride_w = 1;
    g = g0; g.in_h = 4096;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 1, o, 1), OVF((1ULL << 20) * 4096, ACCEL_E_TRUNCATED));
    g = g0; g.in_w = 4096;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 1, o, 1), OVF((1ULL << 20) * 4096, ACCEL_E_TRUNCATED));
    g = g0; g.in_c = g.out_c = 4096; /* the input's count overflows first */
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 1, o, 1), OVF((1ULL << 20) * 4096, ACCEL_E_TRUNCATED));
    g = g0; g.out_h = 4096;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, BIG, o, 1), OVF((1ULL << 20) * 4096, ACCEL_E_BUFFER_TOO_SMALL));
    g = g0; g.out_w = 4096;
    CHECK_ST(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, BIG, o, 1), OVF((1ULL << 20) * 4096, ACCEL_E_BUFFER_TOO_SMALL));
    g = g0; g.batches = 0xFFFFFFFFUL; /* batches alone fits 32 bits; times 2 channels does not */
    g.in_c = g.out_c = 2;
    CHECK_ST(accel_mac_average_pool2d(&g, ACCEL_MAC_UINT8, 0, 255, x, 1, o, 1), OVF(0xFFFFFFFFULL * 2, ACCEL_E_TRUNCATED));
    /* filter: k_h*k_w*in_c/groups (65535^2 fits 32 bits, times 2 channels does not), then
     * times out_c; depthwise k_h*k_w*out_c */
    memset(&g0, 0, sizeof g0);
    g0.batches = 1; g0.in_h = g0.in_w = g0.out_h = g0.out_w = 1; g0.in_c = g0.out_c = 2;
    g0.k_h = g0.k_w = 65535; g0.stride_h = g0.stride_w = 1;
    CHECK_ST(accel_mac_conv2d(&g0, &q, x, 2, w, 4, NULL, 0, o, 2), OVF(fs2, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_conv2d_with_scratch(&g0, &q, x, 2, w, 4, NULL, 0, o, 2, w, 4), OVF(fs2, ACCEL_E_TRUNCATED));
    CHECK_ST(accel_mac_depthwise_conv2d(&g0, &q, x, 2, w, 4, NULL, 0, o, 2), OVF(fs2, ACCEL_E_TRUNCATED));
    g = g0; g.in_c = 1; /* the window (65535^2) fits, times out_c 2 does not */
    CHECK_ST(accel_mac_conv2d(&g, &q, x, 1, w, 4, NULL, 0, o, 2), OVF(fs2, ACCEL_E_TRUNCATED));
    need = 7;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g0, &need), OVF(fs2, ACCEL_OK));
    if (sizeof(size_t) < 8) CHECK_EQ(need, 0);
    /* a window that fits 32 bits but whose patch (2 * 3 or 4 bytes a tap) does not: no scratch
     * is asked for (0) */
    need = 7;
    CHECK_ST(accel_mac_conv2d_scratch_size(&g, &need), ACCEL_OK);
    if ((uint64_t)SIZE_MAX < 8 * K * K + 3) CHECK_EQ(need, 0);
    else CHECK(need == 0 || need == 6 * K * K + 3 || need == 8 * K * K + 3);
    CHECK_EQ(acc[0], 42);
    CHECK_EQ(o[0], 9); CHECK_EQ(o[1], 9); CHECK_EQ(o[2], 9); CHECK_EQ(o[3], 9);
}
#undef OVF

/* ---------------------------------------------------------------- wide products */
static void test_wide_hand(void)
{
    /* [1000 -2] x [[3 7]]^T ... a 1x2 by 2x2: rows of b are [3, 7] and [-32768, 1] */
    int16_t a[2] = {1000, -2}, b[4] = {3, 7, -32768, 1};
    uint16_t ua[2] = {65535, 2}, ub[2] = {65535, 65535};
    int64_t o[2];
    uint32_t sbuf[64];
    size_t need;
    CHECK_ST(accel_mac_wide_scratch_size(2, 1, 2, 2, &need), ACCEL_OK);
    CHECK_EQ(need, 1 * 2 * 4 + 2 * 1 * 2 + 2 * 2 * 2);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 4, o, 2, sbuf, sizeof sbuf), ACCEL_OK);
    CHECK_EQ(o[0], 1000 * 3 + -2 * 7);
    CHECK_EQ(o[1], 1000 * -32768 + -2 * 1);
    CHECK_ST(accel_mac_matmul_u16(1, 1, 2, ua, 2, ub, 2, o, 1, sbuf, sizeof sbuf), ACCEL_OK);
    CHECK_EQ(o[0], 65535LL * 65535 + 2LL * 65535);
    CHECK_EQ(accel_mac_wide_depth_limit(2, 1), 33025);
    CHECK_EQ(accel_mac_wide_depth_limit(1, 1), 131071);
    CHECK_EQ(accel_mac_wide_depth_limit(1, 0), 33025);
    CHECK_EQ(accel_mac_wide_depth_limit(5, 0), 0);
    /* the limit is tight: one more unsigned-plane term overflows int32 */
    CHECK(33025LL * 65025 <= INT32_MAX && 33026LL * 65025 > INT32_MAX);
    CHECK(131071LL * 16384 <= INT32_MAX && 131072LL * 16384 > INT32_MAX);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 33026, a, 2, b, 4, o, 2, sbuf, sizeof sbuf), ACCEL_E_MAC_DEPTH);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 4, o, 1, sbuf, sizeof sbuf), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 4, o, 2, sbuf, need - 1), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 4, o, 2, (uint8_t *)sbuf + 1, need), ACCEL_E_ALIGN);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 4, o, 2, NULL, need), ACCEL_E_NULL);
    CHECK_ST(accel_mac_matmul_s16(0, 2, 2, a, 2, b, 4, o, 2, sbuf, need), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 1, b, 4, o, 2, sbuf, need), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_matmul_s16(1, 2, 2, a, 2, b, 3, o, 2, sbuf, need), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_matmul_u16(1, 1, 2, ua, 2, ub, 1, o, 1, sbuf, sizeof sbuf), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_wide_matmul(0, 1, 1, 1, 1, (const uint8_t *)a, 2, (const uint8_t *)b, 2, o, 1, sbuf, sizeof sbuf), ACCEL_E_ARG);
    CHECK_ST(accel_mac_wide_matmul(5, 1, 1, 1, 1, (const uint8_t *)a, 5, (const uint8_t *)b, 5, o, 1, sbuf, sizeof sbuf), ACCEL_E_ARG);
    CHECK_ST(accel_mac_wide_matmul(3, 1, 1, 1, 2, (const uint8_t *)a, 5, (const uint8_t *)b, 6, o, 1, sbuf, sizeof sbuf), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_mac_wide_scratch_size(0, 1, 1, 1, &need), ACCEL_E_ARG);
    CHECK_ST(accel_mac_wide_scratch_size(2, 1, 1, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_mac_wide_scratch_size(4, 0xFFFFFFFFUL, 0xFFFFFFFFUL, 0xFFFFFFFFUL, &need), ACCEL_E_OVERFLOW);
}

static int64_t sext(uint64_t v, int nb)
{
    uint64_t sign = (uint64_t)1 << (8 * nb - 1);
    return (int64_t)((v ^ sign) - sign);
}

/* N-byte products at random against int64, including the depth limit with extreme values */
static void test_wide_random(void)
{
    static uint8_t a[3 * 33025 * 4], b[2 * 33025 * 4];
    static int64_t o[6];
    static uint32_t scratch[(3 * 2 * 4 + 5 * 33025 * 4) / 4 + 16];
    int it, bad = 0;
    for (it = 0; it < 60 && bad < 3; it++) {
        int nb = 1 + it % 4, sg = (it / 4) % 2, M = rrange(1, 3), N = rrange(1, 2), m, n, k, j;
        int K = it < 16 ? (int)accel_mac_wide_depth_limit((uint32_t)nb, sg) : rrange(1, 300);
        int extreme = it < 16 || rnd() % 2;
        if (K > 33025) K = 33025; /* buffer size; the int8 limit is tested by matmul above */
        for (k = 0; k < M * K * nb; k++) a[k] = (uint8_t)rnd();
        for (k = 0; k < N * K * nb; k++) b[k] = (uint8_t)rnd();
        if (extreme) /* every element at its largest magnitude: all 0xFF (unsigned) / MIN (signed) */
            for (k = 0; k < M * K; k++)
                for (j = 0; j < nb; j++) {
                    a[k * nb + j] = sg ? (j == nb - 1 ? 0x80 : 0) : 0xFF;
                    if (k < N * K) b[k * nb + j] = sg ? (j == nb - 1 ? 0x80 : 0) : 0xFF;
                }
        if (accel_mac_wide_matmul((uint32_t)nb, sg, (uint32_t)M, (uint32_t)N, (uint32_t)K, a,
                                  (size_t)(M * K * nb), b, (size_t)(N * K * nb), o, 6, scratch,
                                  sizeof scratch) != ACCEL_OK) {
            bad++;
            continue;
        }
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++) {
                uint64_t s = 0; /* modulo 2^64, as documented; exact for nb <= 3 */
                for (k = 0; k < K; k++) {
                    uint64_t va = 0, vb = 0;
                    for (j = nb - 1; j >= 0; j--) {
                        va = va << 8 | a[(m * K + k) * nb + j];
                        vb = vb << 8 | b[(n * K + k) * nb + j];
                    }
                    if (sg) s += (uint64_t)(sext(va, nb) * sext(vb, nb));
                    else s += va * vb;
                }
                if ((uint64_t)o[m * N + n] != s) {
                    bad++;
                    printf("  wide nb=%d sg=%d K=%d m=%d n=%d\n", nb, sg, K, m, n);
                }
            }
    }
    CHECK_EQ(bad, 0);
    /* int16 at the depth limit: all -32768 gives 33025 * 2^30 exactly */
    {
        static int16_t sa[33025], sb[33025];
        int64_t r;
        int k;
        for (k = 0; k < 33025; k++) sa[k] = sb[k] = -32768;
        CHECK_ST(accel_mac_matmul_s16(1, 1, 33025, sa, 33025, sb, 33025, &r, 1, scratch, sizeof scratch), ACCEL_OK);
        CHECK_EQ(r, 33025LL << 30);
        for (k = 0; k < 33025; k++) { sa[k] = 32767; sb[k] = -32768; }
        CHECK_ST(accel_mac_matmul_s16(1, 1, 33025, sa, 33025, sb, 33025, &r, 1, scratch, sizeof scratch), ACCEL_OK);
        CHECK_EQ(r, -33025LL * 32767 * 32768);
    }
}

static void test_flip(void)
{
    uint8_t d[6] = {0x00, 0x7F, 0x80, 0xFF, 0x12, 0x34};
    CHECK_ST(accel_mac_flip_sign(d, 6, 1), ACCEL_OK);
    CHECK_EQ(d[0], 0x80); CHECK_EQ(d[1], 0xFF); CHECK_EQ(d[2], 0x00); CHECK_EQ(d[3], 0x7F);
    CHECK_ST(accel_mac_flip_sign(d, 6, 2), ACCEL_OK); /* MSB of each little-endian 16-bit */
    CHECK_EQ(d[0], 0x80); CHECK_EQ(d[1], 0x7F); CHECK_EQ(d[3], 0xFF); CHECK_EQ(d[4], 0x92); CHECK_EQ(d[5], 0x34);
    CHECK_ST(accel_mac_flip_sign(d, 5, 2), ACCEL_E_MAC_SHAPE);
    CHECK_ST(accel_mac_flip_sign(d, 6, 0), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_mac_flip_sign(NULL, 6, 1), ACCEL_E_NULL);
    /* uint8 200 is int8 72 after the flip: 200 - 128 */
    d[0] = 200;
    CHECK_ST(accel_mac_flip_sign(d, 1, 1), ACCEL_OK);
    CHECK_EQ((int8_t)d[0], 72);
}

/* the uint8 kernels equal the int8 kernels on flipped data with shifted zero points */
static void test_uint8_equals_flipped_int8(void)
{
    uint8_t x[12], w[12], o1[4], o2[4];
    int32_t m = 1518500250, s = -6;
    accel_mac_quant q;
    int i;
    for (i = 0; i < 12; i++) { x[i] = (uint8_t)(i * 37 + 5); w[i] = (uint8_t)(i * 91 + 3); }
    memset(&q, 0, sizeof q);
    q.dtype = ACCEL_MAC_UINT8; q.input_offset = -200; q.filter_offset = -20; q.output_offset = 140;
    q.multiplier = &m; q.shift = &s; q.count = 1; q.act_min = 0; q.act_max = 255;
    CHECK_ST(accel_mac_fully_connected(2, 3, 2, x, 6, w, 6, NULL, 0, &q, o1, 4), ACCEL_OK);
    CHECK_ST(accel_mac_flip_sign(x, 12, 1), ACCEL_OK);
    CHECK_ST(accel_mac_flip_sign(w, 12, 1), ACCEL_OK);
    q.dtype = ACCEL_MAC_INT8; q.input_offset = -72; q.filter_offset = 108; q.output_offset = 12;
    q.act_min = -128; q.act_max = 127;
    CHECK_ST(accel_mac_fully_connected(2, 3, 2, x, 6, w, 6, NULL, 0, &q, o2, 4), ACCEL_OK);
    CHECK_ST(accel_mac_flip_sign(o2, 4, 1), ACCEL_OK);
    CHECK_MEM(o1, o2, 4);
}

/* ---------------------------------------------------------------- prepacked fully connected */
/* The contract of accel_mac_fully_connected_pack_mem_size / _pack / _packed, tested from its
 * specification: the size is at least a 64-byte header plus in_depth * out_depth bytes; _pack
 * (4-byte aligned buffer) writes exactly that many bytes, folding in the filter, the bias, the
 * dtype and the input and filter offsets, and nothing else of q; _packed then writes, byte for
 * byte, what accel_mac_fully_connected writes for that filter and bias with the q it is given
 * (same dtype and offsets as the pack's). Every refusal has its status, in the documented order,
 * and writes nothing. The outputs are checked against ref_fc above, never against the engine
 * alone. */
enum { FCP_G = 16 }; /* guard bytes checked after every output and pack */

typedef struct {
    uint8_t *x, *w, *o1, *o2, *o3; /* input, filter; outputs of ref_fc, the unpacked and the
                                    * packed call (each with FCP_G bytes of room past it) */
    int32_t *bias;
    uint8_t *pk, *pk2; /* two areas for packs, 64-byte aligned, of cap bytes each */
    size_t cap;
} fcp_bufs;

static uint8_t *fcp_align64(uint8_t *p)
{
    return p + (size_t)((64u - ((uintptr_t)p & 63u)) & 63u);
}
static int fcp_all(const uint8_t *p, uint8_t v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}
/* index of the first differing byte, or -1 */
static long fcp_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

/* Random requantization of type dt (0 int8, 1 uint8) for N channels, with the offsets' range
 * edges more often than rand_rq draws them: input -127 / 128 (int8), -255 / 0 (uint8); the
 * filter's likewise, and 0 (TFLite's symmetric int8 filters). */
static void fcp_rand_rq(rq *r, int dt, int N, int K)
{
    do rand_rq(r, N, K); while (r->dt != dt);
    switch (rnd() % 4) {
    case 0: r->io = dt ? -255 : -127; break;
    case 1: r->io = dt ? 0 : 128; break;
    default: break;
    }
    switch (rnd() % 5) {
    case 0: r->fo = dt ? -255 : -127; break;
    case 1: r->fo = dt ? 0 : 128; break;
    case 2: r->fo = 0; break;
    default: break;
    }
}

/* One case on random data: B x K input, N x K filter, bias (hasb) and r. The reference, the
 * unpacked call, the pack at off bytes past fb->pk in a buffer extra bytes longer than its size
 * (the bytes around it must stay as they were), a second pack at the same offset of fb->pk2
 * over other garbage (the same bytes: every byte of the pack written, deterministically); then
 * the caller's filter and bias are overwritten (the pack must not refer to them) and the packed
 * call must give the reference's bytes and leave the pack as it was. Returns 1 and prints the
 * case on any difference. */
static int fcp_case(const char *what, int it, int B, int K, int N, const rq *r, int hasb,
                    size_t off, size_t extra, const fcp_bufs *fb)
{
    accel_mac_quant q;
    const size_t nin = (size_t)B * (size_t)K, nw = (size_t)N * (size_t)K;
    const size_t nout = (size_t)B * (size_t)N;
    const size_t blen = hasb ? (size_t)N : 0;
    const int32_t *bias = hasb ? fb->bias : NULL;
    uint8_t *pk = fb->pk + off, *pk2 = fb->pk2 + off;
    size_t size = 0, i;
    long d = -1;
    accel_status s1, s2 = ACCEL_OK, s3 = ACCEL_OK, s4 = ACCEL_OK;
    const char *why = NULL;
    rand_bytes(fb->x, nin);
    rand_bytes(fb->w, nw);
    for (i = 0; i < (size_t)N; i++) fb->bias[i] = rand_bias();
    fill_quant(&q, r);
    ref_fc(B, K, N, fb->x, fb->w, bias, r, fb->o1);
    memset(fb->o2, 0xAA, nout + FCP_G);
    memset(fb->o3, 0xAA, nout + FCP_G);
    s1 = accel_mac_fully_connected((uint32_t)B, (uint32_t)K, (uint32_t)N, fb->x, nin, fb->w, nw,
                                   bias, blen, &q, fb->o2, nout);
    if (s1 != ACCEL_OK) why = "accel_mac_fully_connected refused the case";
    else if ((d = fcp_diff(fb->o1, fb->o2, nout)) >= 0) why = "accel_mac_fully_connected differs from ref_fc";
    else if (!fcp_all(fb->o2 + nout, 0xAA, FCP_G)) why = "accel_mac_fully_connected wrote past its output";
    else if ((s2 = accel_mac_fully_connected_pack_mem_size((uint32_t)K, (uint32_t)N, &size)) != ACCEL_OK)
        why = "pack_size refused the case";
    else if (size < 64 + nw) why = "pack_size is below 64 + in_depth * out_depth";
    else if (off + size + extra + FCP_G > fb->cap) why = "the pack is larger than this test's buffer";
    else {
        memset(fb->pk, 0xA5, off + size + extra + FCP_G);
        memset(pk2, 0x5A, size + FCP_G);
        s3 = accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb->w, nw, bias, blen, &q,
                                            pk, size + extra);
        s4 = accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb->w, nw, bias, blen, &q,
                                            pk2, size);
        if (s3 != ACCEL_OK || s4 != ACCEL_OK) why = "pack refused the case";
        else if (!fcp_all(fb->pk, 0xA5, off) || !fcp_all(pk + size, 0xA5, extra + FCP_G) ||
                 !fcp_all(pk2 + size, 0x5A, FCP_G))
            why = "pack wrote outside [packed, packed + size)";
        else if ((d = fcp_diff(pk, pk2, size)) >= 0)
            why = "two packs of the same data over different garbage differ";
        else {
            memset(fb->w, 0x3C, nw); /* the pack holds what it needs */
            for (i = 0; i < (size_t)N; i++) fb->bias[i] = ~fb->bias[i];
            s3 = accel_mac_fully_connected_packed((uint32_t)B, fb->x, nin, pk, size + extra, &q,
                                                  fb->o3, nout);
            if (s3 != ACCEL_OK) why = "packed refused the case";
            else if ((d = fcp_diff(fb->o1, fb->o3, nout)) >= 0) why = "packed differs from ref_fc";
            else if (!fcp_all(fb->o3 + nout, 0xAA, FCP_G)) why = "packed wrote past its output";
            else if ((d = fcp_diff(pk, pk2, size)) >= 0) why = "packed modified the pack";
        }
    }
    if (!why) return 0;
    printf("  %s case %d: %s (B=%d K=%d N=%d dt=%d io=%d fo=%d oo=%d act=%d..%d nq=%d %s "
           "bias=%d off=%lu extra=%lu; statuses fc %d size %d pack %d/%d; size %lu; first "
           "difference at %ld)\n",
           what, it, why, B, K, N, r->dt, (int)r->io, (int)r->fo, (int)r->oo, (int)r->amin,
           (int)r->amax, r->nq, r->single ? "single" : "double", hasb, (unsigned long)off,
           (unsigned long)extra, (int)s1, (int)s2, (int)s3, (int)s4, (unsigned long)size, d);
    return 1;
}

/* the buffers of this file's packed tests: in_depth to 300, out_depth to 200, batches to 6 */
enum { FCP_K = 300, FCP_N = 200, FCP_B = 6, FCP_CAP = 2 * (64 + FCP_K * FCP_N) + 4096 };
static uint8_t fcp_x[FCP_B * FCP_K], fcp_w[FCP_N * FCP_K], fcp_o1[FCP_B * FCP_N + FCP_G],
    fcp_o2[FCP_B * FCP_N + FCP_G], fcp_o3[FCP_B * FCP_N + FCP_G];
static int32_t fcp_bias[FCP_N];
static uint8_t fcp_mem[2][FCP_CAP + 64];
static fcp_bufs fcp_host_bufs(void)
{
    fcp_bufs fb;
    fb.x = fcp_x; fb.w = fcp_w; fb.o1 = fcp_o1; fb.o2 = fcp_o2; fb.o3 = fcp_o3;
    fb.bias = fcp_bias;
    fb.pk = fcp_align64(fcp_mem[0]);
    fb.pk2 = fcp_align64(fcp_mem[1]);
    fb.cap = FCP_CAP;
    return fb;
}

/* Every pair of the listed depths (SIMD block edges and their neighbours), then random shapes;
 * both types alternately, batches 1..6, bias 3 times in 4, per-tensor or per-channel, single or
 * double rounding (rand_rq), the pack at 0, 4, 12 or 64 bytes from a 64-byte boundary. */
static void test_fcpack_random(void)
{
    static const int ks[] = {1, 3, 4, 5, 63, 64, 65, 127, 128, 129, 255, 256, 257};
    static const int ns[] = {1, 15, 16, 17, 63, 64, 65, 100};
    static const size_t offs[] = {0, 4, 12, 64};
    enum { NK = sizeof ks / sizeof ks[0], NN = sizeof ns / sizeof ns[0] };
    fcp_bufs fb = fcp_host_bufs();
    int it, bad = 0;
    for (it = 0; it < NK * NN + 120 && bad < 3; it++) {
        int K = it < NK * NN ? ks[it % NK] : rnd() % 4 == 0 ? ks[rnd() % NK] : rrange(1, FCP_K);
        int N = it < NK * NN ? ns[it / NK] : rnd() % 4 == 0 ? ns[rnd() % NN] : rrange(1, FCP_N);
        int B = rrange(1, FCP_B), hasb = rnd() % 4 != 0;
        size_t extra = rnd() % 3 == 0 ? (size_t)rrange(1, 64) : 0;
        rq r;
        fcp_rand_rq(&r, it & 1, N, K);
        bad += fcp_case("fcpack", it, B, K, N, &r, hasb, offs[(it / 2) % 4], extra, &fb);
    }
    CHECK_EQ(bad, 0);
}

/* One pack, many run-time quantizations: multiplier, shift, output offset, activation range,
 * rounding and per-tensor / per-channel count come from the q given to _packed (the pack's
 * dtype and offsets kept), each against ref_fc and the unpacked call with that q. */
static void test_fcpack_requant(void)
{
    fcp_bufs fb = fcp_host_bufs();
    int dt, j, bad = 0;
    for (dt = 0; dt < 2; dt++) {
        const int B = 4, K = dt ? 200 : 67, N = dt ? 33 : 80;
        const size_t nin = (size_t)(B * K), nw = (size_t)(N * K), nout = (size_t)(B * N);
        accel_mac_quant q0, q;
        size_t size = 0;
        rq r0, r;
        int i;
        fcp_rand_rq(&r0, dt, N, K);
        r0.nq = 1; /* packed per-tensor, run per-channel and per-tensor */
        fill_quant(&q0, &r0);
        rand_bytes(fb.w, nw);
        for (i = 0; i < N; i++) fb.bias[i] = rand_bias();
        REQUIRE_ST(accel_mac_fully_connected_pack_mem_size((uint32_t)K, (uint32_t)N, &size), ACCEL_OK);
        REQUIRE(size + FCP_G <= fb.cap);
        REQUIRE_ST(accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb.w, nw, fb.bias,
                                                  (size_t)N, &q0, fb.pk, size), ACCEL_OK);
        memcpy(fb.pk2, fb.pk, size);
        for (j = 0; j < 40; j++) {
            long d;
            fcp_rand_rq(&r, dt, N, K);
            r.io = r0.io;
            r.fo = r0.fo;
            fill_quant(&q, &r);
            rand_bytes(fb.x, nin);
            ref_fc(B, K, N, fb.x, fb.w, fb.bias, &r, fb.o1);
            memset(fb.o2, 0xAA, nout);
            memset(fb.o3, 0xAA, nout);
            CHECK_ST(accel_mac_fully_connected((uint32_t)B, (uint32_t)K, (uint32_t)N, fb.x, nin,
                                               fb.w, nw, fb.bias, (size_t)N, &q, fb.o2, nout), ACCEL_OK);
            CHECK_ST(accel_mac_fully_connected_packed((uint32_t)B, fb.x, nin, fb.pk, size, &q,
                                                      fb.o3, nout), ACCEL_OK);
            if ((d = fcp_diff(fb.o1, fb.o2, nout)) >= 0 || (d = fcp_diff(fb.o1, fb.o3, nout)) >= 0) {
                if (bad < 3)
                    printf("  requant dt=%d run %d: differs at %ld (oo=%d act=%d..%d nq=%d %s)\n",
                           dt, j, d, (int)r.oo, (int)r.amin, (int)r.amax, r.nq,
                           r.single ? "single" : "double");
                bad++;
            }
        }
        CHECK_MEM(fb.pk, fb.pk2, size);
    }
    CHECK_EQ(bad, 0);
}

/* The pack at 0, 4, 12 and 64 bytes from a 64-byte boundary: the same bytes (a pack does not
 * depend on its address, so it can be copied, to flash or elsewhere) and the same outputs; a
 * pack made at 0 and copied to each offset runs too. At 1, 2 and 3 bytes both calls are
 * ACCEL_E_ALIGN and write nothing. */
/* _packed of B rows from fb->x with the pack at p into fb->o3: OK, equal to ref_fc's fb->o1,
 * nothing written past the output */
static void fcp_run_ref(const fcp_bufs *fb, int B, size_t nin, const uint8_t *p, size_t size,
                        const accel_mac_quant *q, size_t nout)
{
    memset(fb->o3, 0xAA, nout + FCP_G);
    CHECK_ST(accel_mac_fully_connected_packed((uint32_t)B, fb->x, nin, p, size, q, fb->o3, nout),
             ACCEL_OK);
    CHECK_MEM(fb->o3, fb->o1, nout);
    CHECK(fcp_all(fb->o3 + nout, 0xAA, FCP_G));
}

static void test_fcpack_align(void)
{
    static const size_t good[] = {4, 12, 64}, odd[] = {1, 2, 3};
    fcp_bufs fb = fcp_host_bufs();
    int dt, i;
    for (dt = 0; dt < 2; dt++) {
        const int B = 3, K = 65, N = 17;
        const size_t nin = (size_t)(B * K), nw = (size_t)(N * K), nout = (size_t)(B * N);
        accel_mac_quant q;
        size_t size = 0;
        rq r;
        fcp_rand_rq(&r, dt, N, K);
        fill_quant(&q, &r);
        rand_bytes(fb.x, nin);
        rand_bytes(fb.w, nw);
        for (i = 0; i < N; i++) fb.bias[i] = rand_bias();
        ref_fc(B, K, N, fb.x, fb.w, fb.bias, &r, fb.o1);
        REQUIRE_ST(accel_mac_fully_connected_pack_mem_size((uint32_t)K, (uint32_t)N, &size), ACCEL_OK);
        REQUIRE(size + 64 + FCP_G <= fb.cap);
        /* the pack at offset 0 is kept in pk2 */
        REQUIRE_ST(accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb.w, nw, fb.bias,
                                                  (size_t)N, &q, fb.pk2, size), ACCEL_OK);
        fcp_run_ref(&fb, B, nin, fb.pk2, size, &q, nout);
        for (i = 0; i < 3; i++) {
            uint8_t *p = fb.pk + good[i];
            memset(fb.pk, 0xA5, size + 64 + FCP_G);
            CHECK_ST(accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb.w, nw, fb.bias,
                                                    (size_t)N, &q, p, size), ACCEL_OK);
            CHECK(fcp_all(fb.pk, 0xA5, good[i]));
            CHECK(fcp_all(p + size, 0xA5, FCP_G));
            CHECK_MEM(p, fb.pk2, size);
            fcp_run_ref(&fb, B, nin, p, size, &q, nout);
            /* the pack made at offset 0, copied here */
            memcpy(p, fb.pk2, size);
            fcp_run_ref(&fb, B, nin, p, size, &q, nout);
        }
        for (i = 0; i < 3; i++) {
            uint8_t *p = fb.pk + odd[i];
            memset(fb.pk, 0xA5, size + 64 + FCP_G);
            CHECK_ST(accel_mac_fully_connected_pack((uint32_t)K, (uint32_t)N, fb.w, nw, fb.bias,
                                                    (size_t)N, &q, p, size + 8), ACCEL_E_ALIGN);
            CHECK(fcp_all(fb.pk, 0xA5, size + 64 + FCP_G));
            memcpy(p, fb.pk2, size);
            memset(fb.o3, 0xAA, nout + FCP_G);
            CHECK_ST(accel_mac_fully_connected_packed((uint32_t)B, fb.x, nin, p, size, &q, fb.o3,
                                                      nout), ACCEL_E_ALIGN);
            CHECK(fcp_all(fb.o3, 0xAA, nout + FCP_G));
            CHECK_MEM(p, fb.pk2, size);
        }
    }
}

/* _pack_mem_size: each refusal (with *size untouched), the lower bound, and the products past
 * size_t: 65536 x 65536 (2^32 data bytes) is ACCEL_E_OVERFLOW where size_t has 32 bits (the
 * Cortex-M builds of tests/mac_arm.sh run this file), a size of at least 64 + 2^32 on 64 bits.
 * Where the bound itself fits but the build's extra room may not (65535 x 65536 on 32 bits,
 * 2^32-1 x 2^32-1 on 64 bits) either answer is honest: a size of at least the bound, or
 * ACCEL_E_OVERFLOW; _pack must then agree with it (ACCEL_E_OVERFLOW, or on to the filter's
 * length check). */
static void test_fcpack_size(void)
{
    static const uint32_t dims[][2] = {{1, 1}, {3, 5}, {5, 3}, {64, 16}, {300, 200}, {2048, 130},
                                       {65535, 1}, {1, 65535}, {4096, 4096}};
    static const uint32_t big[][2] = {{65536, 65536}, {65535, 65536}, {65536, 65535},
                                      {0xFFFFFFFFUL, 0xFFFFFFFFUL}, {0xFFFFFFFFUL, 1},
                                      {1, 0xFFFFFFFFUL}};
    uint8_t w[4] = {0};
    uint8_t *pk = fcp_align64(fcp_mem[0]);
    int32_t m = 1 << 30, s = 0;
    accel_mac_quant q;
    size_t sz = 7, sz2, i;
    tiny_quant(&q, &m, &s);
    CHECK_ST(accel_mac_fully_connected_pack_mem_size(3, 5, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_mac_fully_connected_pack_mem_size(0, 5, &sz), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(sz, 7);
    CHECK_ST(accel_mac_fully_connected_pack_mem_size(3, 0, &sz), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(sz, 7);
    CHECK_ST(accel_mac_fully_connected_pack_mem_size(0, 0, &sz), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(sz, 7);
    for (i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        const uint64_t bound = 64 + (uint64_t)dims[i][0] * dims[i][1];
        sz = 7;
        sz2 = 9;
        CHECK_ST(accel_mac_fully_connected_pack_mem_size(dims[i][0], dims[i][1], &sz), ACCEL_OK);
        CHECK((uint64_t)sz >= bound);
        CHECK_ST(accel_mac_fully_connected_pack_mem_size(dims[i][0], dims[i][1], &sz2), ACCEL_OK);
        CHECK_EQ_U64(sz, sz2);
    }
    for (i = 0; i < sizeof big / sizeof big[0]; i++) {
        const uint64_t bound = 64 + (uint64_t)big[i][0] * big[i][1];
        accel_status st;
        sz = 7;
        st = accel_mac_fully_connected_pack_mem_size(big[i][0], big[i][1], &sz);
        if (bound > (uint64_t)SIZE_MAX) {
            CHECK_ST(st, ACCEL_E_OVERFLOW);
            CHECK_EQ(sz, 7);
        } else if (st == ACCEL_OK) {
            CHECK((uint64_t)sz >= bound);
        } else {
            CHECK_ST(st, ACCEL_E_OVERFLOW);
            CHECK_EQ(sz, 7);
        }
        if (i == 0 && (uint64_t)SIZE_MAX >= bound) CHECK_ST(st, ACCEL_OK); /* 2^32 + 64 on 64 bits */
        /* _pack agrees: overflow, or on to the 4-byte filter's length */
        memset(pk, 0xA5, 64);
        CHECK_ST(accel_mac_fully_connected_pack(big[i][0], big[i][1], w, sizeof w, NULL, 0, &q, pk,
                                                64),
                 st == ACCEL_OK ? ACCEL_E_TRUNCATED : ACCEL_E_OVERFLOW);
        CHECK(fcp_all(pk, 0xA5, 64));
    }
}

/* _pack's refusals, each with its status and nothing written (pack area kept at 0xA5), and the
 * order of the checks: NULL, alignment, q and bias as accel_mac_fully_connected, zero depth,
 * overflow (above), the filter's length, the pack's room. */
/* The i-th way to make a valid int8 q of 3 channels (multipliers m, shifts s) invalid, and the
 * status the FC's checks give for it; ACCEL_OK past the last one. The caller restores q. */
static accel_status fcp_q_spoil(int i, accel_mac_quant *q, int32_t *m, int32_t *s)
{
    switch (i) {
    case 0: q->multiplier = NULL; return ACCEL_E_NULL;
    case 1: q->shift = NULL; return ACCEL_E_NULL;
    case 2: q->dtype = (accel_mac_dtype)2; return ACCEL_E_MAC_DTYPE;
    case 3: q->rounding = (accel_mac_rounding)2; return ACCEL_E_MAC_ROUNDING;
    case 4: q->act_min = 5; q->act_max = 4; return ACCEL_E_MAC_ACTIVATION;
    case 5: q->act_max = 128; return ACCEL_E_MAC_ACTIVATION;
    case 6: q->act_min = -129; return ACCEL_E_MAC_ACTIVATION;
    case 7: q->input_offset = 129; return ACCEL_E_MAC_OFFSET;
    case 8: q->input_offset = -128; return ACCEL_E_MAC_OFFSET;
    case 9: q->filter_offset = 129; return ACCEL_E_MAC_OFFSET;
    case 10: q->filter_offset = -128; return ACCEL_E_MAC_OFFSET;
    case 11: q->output_offset = 128; return ACCEL_E_MAC_OFFSET;
    case 12: q->output_offset = -129; return ACCEL_E_MAC_OFFSET;
    case 13: q->count = 0; return ACCEL_E_ZERO_LENGTH;
    case 14: q->count = 2; return ACCEL_E_MAC_CHANNELS;
    case 15: m[2] = -1; return ACCEL_E_MAC_MULTIPLIER;
    case 16: m[1] = -1; return ACCEL_E_MAC_MULTIPLIER;
    case 17: s[1] = 32; return ACCEL_E_MAC_SHIFT;
    case 18: s[2] = 32; return ACCEL_E_MAC_SHIFT;
    case 19: s[0] = -32; return ACCEL_E_MAC_SHIFT;
    case 20: s[2] = 31; q->rounding = ACCEL_MAC_ROUND_SINGLE; return ACCEL_E_MAC_SHIFT;
    case 21: s[0] = 31; q->rounding = ACCEL_MAC_ROUND_SINGLE; return ACCEL_E_MAC_SHIFT;
    default: return ACCEL_OK;
    }
}

static void test_fcpack_errors_pack(void)
{
    enum { K = 5, N = 3 };
    uint8_t w[K * N];
    int32_t m[3], s[3], bias[3] = {100, -7, 0};
    uint8_t *pk = fcp_align64(fcp_mem[0]);
    accel_mac_quant q;
    accel_status st;
    size_t size = 0, i;
    for (i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i * 29 + 1);
    REQUIRE_ST(accel_mac_fully_connected_pack_mem_size(K, N, &size), ACCEL_OK);
    REQUIRE(size + 64 <= FCP_CAP);
#define RESET() do { memset(&q, 0, sizeof q); q.multiplier = m; q.shift = s; q.count = 3; \
        q.act_min = -128; q.act_max = 127; q.input_offset = 5; q.filter_offset = -3; \
        m[0] = m[1] = m[2] = 1 << 30; s[0] = s[1] = s[2] = -2; } while (0)
#define PACK(k, n, f, fl, b, bl, p, pl, want) do { memset(pk, 0xA5, size + 64); \
        CHECK_ST(accel_mac_fully_connected_pack(k, n, f, fl, b, bl, &q, p, pl), want); \
        CHECK(fcp_all(pk, 0xA5, size + 64)); } while (0)
#define PK(want) PACK(K, N, w, sizeof w, bias, 3, pk, size, want)
    RESET();
    /* accepted: exactly the size, and a larger buffer, written up to the size only */
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size), ACCEL_OK);
    CHECK(fcp_all(pk + size, 0xA5, 64));
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size + 64), ACCEL_OK);
    CHECK(fcp_all(pk + size, 0xA5, 64));
    /* NULL pointers; NULL comes before alignment */
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, NULL, pk, size), ACCEL_E_NULL);
    CHECK(fcp_all(pk, 0xA5, size + 64));
    PACK(K, N, NULL, sizeof w, bias, 3, pk, size, ACCEL_E_NULL);
    PACK(K, N, w, sizeof w, bias, 3, NULL, size, ACCEL_E_NULL);
    PACK(K, N, NULL, sizeof w, bias, 3, pk + 1, size, ACCEL_E_NULL);
    /* alignment, before q */
    PACK(K, N, w, sizeof w, bias, 3, pk + 1, size, ACCEL_E_ALIGN);
    PACK(K, N, w, sizeof w, bias, 3, pk + 2, size, ACCEL_E_ALIGN);
    PACK(K, N, w, sizeof w, bias, 3, pk + 3, size, ACCEL_E_ALIGN);
    q.act_min = 5; q.act_max = 4;
    PACK(K, N, w, sizeof w, bias, 3, pk + 2, size, ACCEL_E_ALIGN);
    RESET();
    /* q and bias, as accel_mac_fully_connected checks them */
    for (i = 0; (st = fcp_q_spoil((int)i, &q, m, s)) != ACCEL_OK; i++) {
        PK(st);
        RESET();
    }
    q.dtype = ACCEL_MAC_UINT8; q.act_min = 0; q.act_max = 255; q.input_offset = -255;
    q.filter_offset = 0;
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size), ACCEL_OK);
    q.input_offset = 1; PK(ACCEL_E_MAC_OFFSET); q.input_offset = -255;
    q.filter_offset = -256; PK(ACCEL_E_MAC_OFFSET); q.filter_offset = 0;
    q.output_offset = -1; PK(ACCEL_E_MAC_OFFSET); q.output_offset = 0;
    q.act_min = -1; PK(ACCEL_E_MAC_ACTIVATION); RESET();
    PACK(K, N, w, sizeof w, bias, 2, pk, size, ACCEL_E_MAC_CHANNELS);
    /* accepted edges: offsets 128 and -127, per-tensor, more entries than channels, bias NULL
     * whatever its length, a bias longer than needed */
    q.input_offset = 128; q.filter_offset = -127;
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size), ACCEL_OK);
    RESET();
    q.count = 1; m[1] = -1; s[2] = 99; /* per-tensor reads entry 0 only */
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size), ACCEL_OK);
    RESET();
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, NULL, 2, &q, pk, size), ACCEL_OK);
    memset(pk, 0xA5, size + 64);
    CHECK_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 7, &q, pk, size), ACCEL_OK);
    /* q before zero depth; zero depth before the filter's length */
    q.input_offset = 129;
    PACK(0, N, w, sizeof w, bias, 3, pk, size, ACCEL_E_MAC_OFFSET);
    PACK(K, 0, w, sizeof w, bias, 3, pk, size, ACCEL_E_MAC_OFFSET);
    RESET();
    PACK(0, N, w, sizeof w, bias, 3, pk, size, ACCEL_E_ZERO_LENGTH);
    PACK(K, 0, w, sizeof w, bias, 3, pk, size, ACCEL_E_ZERO_LENGTH);
    PACK(0, 0, w, 0, NULL, 0, pk, 0, ACCEL_E_ZERO_LENGTH);
    /* the filter's length, before the pack's room */
    PACK(K, N, w, sizeof w - 1, bias, 3, pk, size, ACCEL_E_TRUNCATED);
    PACK(K, N, w, 0, bias, 3, pk, size, ACCEL_E_TRUNCATED);
    PACK(K, N, w, sizeof w - 1, bias, 3, pk, size - 1, ACCEL_E_TRUNCATED);
    /* the pack's room */
    PACK(K, N, w, sizeof w, bias, 3, pk, size - 1, ACCEL_E_BUFFER_TOO_SMALL);
    PACK(K, N, w, sizeof w, bias, 3, pk, 64, ACCEL_E_BUFFER_TOO_SMALL);
    PACK(K, N, w, sizeof w, bias, 3, pk, 0, ACCEL_E_BUFFER_TOO_SMALL);
#undef PK
#undef PACK
#undef RESET
}

/* _packed's refusals, each with its status, the output untouched (0xAA) and the pack as it was,
 * in the documented order: NULL, alignment, a pack shorter than its header, the header (any
 * change of the magic bytes 0..3, an unknown layout in byte 4), a pack shorter than its
 * dimensions need, q as accel_mac_fully_connected checks it (against the pack's out_depth), q's
 * dtype and offsets against the pack's, zero batches, the input's length, the output's room. */
/* Make a pack header's CRC-32 (bytes 60..63, little-endian) match its bytes 0..59 again, as
 * the header's documented format says: for headers edited on purpose. accel_crc32 is checked
 * against the standard check value in test_common. */
static void fcp_fix_crc(uint8_t *pk)
{
    uint32_t c = accel_crc32(pk, 60);
    pk[60] = (uint8_t)(c & 0xFF);
    pk[61] = (uint8_t)((c >> 8) & 0xFF);
    pk[62] = (uint8_t)((c >> 16) & 0xFF);
    pk[63] = (uint8_t)((c >> 24) & 0xFF);
}

static void test_fcpack_errors_packed(void)
{
    enum { B = 2, K = 5, N = 3 };
    uint8_t x[B * K], w[K * N], o[B * N + FCP_G], want[B * N];
    int32_t m[3], s[3], bias[3] = {100, -7, 0};
    uint8_t *pk = fcp_align64(fcp_mem[0]), *keep = fcp_align64(fcp_mem[1]);
    accel_mac_quant q;
    accel_status st;
    size_t size = 0, i;
    rq r;
    int b, v, layouts = 0;
    for (i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i * 29 + 1);
    for (i = 0; i < sizeof x; i++) x[i] = (uint8_t)(i * 53 + 7);
#define RESET() do { memset(&q, 0, sizeof q); q.multiplier = m; q.shift = s; q.count = 3; \
        q.act_min = -128; q.act_max = 127; q.input_offset = -3; q.filter_offset = 0; \
        q.output_offset = 4; m[0] = m[1] = m[2] = 1 << 30; s[0] = s[1] = s[2] = -2; } while (0)
#define RUNP(bb, xx, xl, pp, pl, oo, ol, want_st) do { memset(o, 0xAA, sizeof o); \
        CHECK_ST(accel_mac_fully_connected_packed(bb, xx, xl, pp, pl, &q, oo, ol), want_st); \
        CHECK(fcp_all(o, 0xAA, sizeof o)); } while (0)
#define RP(want_st) RUNP(B, x, sizeof x, pk, size, o, B * N, want_st)
    RESET();
    /* the same case through ref_fc: int8, input offset -3, filter offset 0 */
    memset(&r, 0, sizeof r);
    r.io = -3; r.fo = 0; r.oo = 4; r.amin = -128; r.amax = 127; r.nq = 3;
    for (i = 0; i < 3; i++) { r.mult[i] = 1 << 30; r.shift[i] = -2; }
    ref_fc(B, K, N, x, w, bias, &r, want);
    REQUIRE_ST(accel_mac_fully_connected_pack_mem_size(K, N, &size), ACCEL_OK);
    REQUIRE(size + 64 <= FCP_CAP);
    REQUIRE_ST(accel_mac_fully_connected_pack(K, N, w, sizeof w, bias, 3, &q, pk, size), ACCEL_OK);
    memcpy(keep, pk, size);
    memset(o, 0xAA, sizeof o);
    CHECK_ST(accel_mac_fully_connected_packed(B, x, sizeof x, pk, size, &q, o, B * N), ACCEL_OK);
    CHECK_MEM(o, want, B * N);
    CHECK(fcp_all(o + B * N, 0xAA, FCP_G));
    /* NULL pointers; NULL before alignment */
    memset(o, 0xAA, sizeof o);
    CHECK_ST(accel_mac_fully_connected_packed(B, x, sizeof x, pk, size, NULL, o, B * N), ACCEL_E_NULL);
    CHECK(fcp_all(o, 0xAA, sizeof o));
    RUNP(B, NULL, sizeof x, pk, size, o, B * N, ACCEL_E_NULL);
    RUNP(B, x, sizeof x, NULL, size, o, B * N, ACCEL_E_NULL);
    RUNP(B, x, sizeof x, pk, size, NULL, B * N, ACCEL_E_NULL);
    /* alignment (the pack copied to 1, 2, 3 bytes past a boundary), before the length */
    for (i = 1; i < 4; i++) {
        memmove(pk + i, keep, size);
        RUNP(B, NULL, sizeof x, pk + i, size, o, B * N, ACCEL_E_NULL);
        RUNP(B, x, sizeof x, pk + i, size, o, B * N, ACCEL_E_ALIGN);
        RUNP(B, x, sizeof x, pk + i, 10, o, B * N, ACCEL_E_ALIGN);
        CHECK_MEM(pk + i, keep, size);
    }
    memcpy(pk, keep, size);
    /* shorter than a header; before the header's contents */
    RUNP(B, x, sizeof x, pk, 0, o, B * N, ACCEL_E_TRUNCATED);
    RUNP(B, x, sizeof x, pk, 63, o, B * N, ACCEL_E_TRUNCATED);
    pk[0] ^= 0xFF;
    RUNP(B, x, sizeof x, pk, 63, o, B * N, ACCEL_E_TRUNCATED);
    pk[0] ^= 0xFF;
    /* the magic: every change of each of bytes 0..3, here one, the top and all bits; before
     * the dimensions' length */
    for (b = 0; b < 4; b++) {
        static const uint8_t flips[] = {0x01, 0x80, 0xFF, 0x10};
        for (i = 0; i < sizeof flips; i++) {
            pk[b] ^= flips[i];
            RP(ACCEL_E_MALFORMED);
            RUNP(B, x, sizeof x, pk, 64, o, B * N, ACCEL_E_MALFORMED);
            pk[b] ^= flips[i];
        }
    }
    memset(pk, 0, 64); /* a zeroed header */
    RP(ACCEL_E_MALFORMED);
    memcpy(pk, keep, size);
    /* the header's CRC-32 (bytes 60..63, little-endian, of bytes 0..59): any other header byte
     * changed, or the CRC itself, is ACCEL_E_CRC; after the magic, before the dimensions */
    for (i = 4; i < 64; i++) {
        pk[i] ^= 0x10;
        RP(ACCEL_E_CRC);
        RUNP(B, x, sizeof x, pk, 64, o, B * N, ACCEL_E_CRC);
        pk[0] ^= 0x01;
        RP(ACCEL_E_MALFORMED);
        pk[0] ^= 0x01;
        pk[i] ^= 0x10;
    }
    CHECK_MEM(pk, keep, size);
    /* with the CRC made to match: the layout byte, dtype and reserved bytes, zero dimensions */
    pk[4] = 0xFF;
    fcp_fix_crc(pk);
    RP(ACCEL_E_MALFORMED);
    RUNP(B, x, sizeof x, pk, 64, o, B * N, ACCEL_E_MALFORMED);
    memcpy(pk, keep, size);
    pk[5] = 2; fcp_fix_crc(pk); RP(ACCEL_E_MALFORMED); memcpy(pk, keep, size);
    pk[6] = 1; fcp_fix_crc(pk); RP(ACCEL_E_MALFORMED); memcpy(pk, keep, size);
    pk[7] = 1; fcp_fix_crc(pk); RP(ACCEL_E_MALFORMED); memcpy(pk, keep, size);
    memset(pk + 8, 0, 4); fcp_fix_crc(pk); RP(ACCEL_E_MALFORMED); memcpy(pk, keep, size);
    memset(pk + 12, 0, 4); fcp_fix_crc(pk); RP(ACCEL_E_MALFORMED); memcpy(pk, keep, size);
    pk[8] = K + 1; fcp_fix_crc(pk); RP(ACCEL_E_TRUNCATED); memcpy(pk, keep, size);
    /* dimensions whose pack would not fit size_t: short of them too */
    memset(pk + 8, 0xFF, 8); fcp_fix_crc(pk); RP(ACCEL_E_TRUNCATED); memcpy(pk, keep, size);
    /* every other value: unknown (MALFORMED), a layout this build cannot run (UNSUPPORTED, or
     * TRUNCATED where that layout needs more bytes than these), or one it can run too (OK; the
     * bytes are then read as that layout, so the output is not checked here: packs made by
     * other builds are tests/mac_pack_layouts.sh's). A refusal writes nothing. */
    for (v = 0; v < 256; v++) {
        if ((uint8_t)v == keep[4]) continue;
        pk[4] = (uint8_t)v;
        fcp_fix_crc(pk);
        memset(o, 0xAA, sizeof o);
        st = accel_mac_fully_connected_packed(B, x, sizeof x, pk, size, &q, o, B * N);
        CHECK(st == ACCEL_E_MALFORMED || st == ACCEL_E_UNSUPPORTED || st == ACCEL_E_TRUNCATED ||
              st == ACCEL_OK);
        if (st != ACCEL_OK) CHECK(fcp_all(o, 0xAA, sizeof o));
        if (st != ACCEL_E_MALFORMED) layouts++;
    }
    printf("  layout byte %u is this build's; %d other value(s) are layouts it knows\n",
           (unsigned)keep[4], layouts);
    memcpy(pk, keep, size);
    /* shorter than the dimensions need; before q */
    RUNP(B, x, sizeof x, pk, size - 1, o, B * N, ACCEL_E_TRUNCATED);
    RUNP(B, x, sizeof x, pk, 64, o, B * N, ACCEL_E_TRUNCATED);
    q.act_min = 5; q.act_max = 4;
    RUNP(B, x, sizeof x, pk, size - 1, o, B * N, ACCEL_E_TRUNCATED);
    RESET();
    /* q as accel_mac_fully_connected checks it, channels from the pack */
    for (i = 0; (st = fcp_q_spoil((int)i, &q, m, s)) != ACCEL_OK; i++) {
        RP(st);
        RESET();
    }
    /* q invalid before the comparison with the pack; invalid before zero batches */
    q.input_offset = -300; RP(ACCEL_E_MAC_OFFSET);
    RUNP(0, x, sizeof x, pk, size, o, B * N, ACCEL_E_MAC_OFFSET);
    RESET();
    /* q's dtype and offsets against the pack's (int8, -3, 0); before zero batches */
    q.dtype = ACCEL_MAC_UINT8; q.act_min = 0; q.act_max = 255; /* -3 and 0 are uint8 offsets too */
    RP(ACCEL_E_ARG);
    RESET();
    q.input_offset = -2; RP(ACCEL_E_ARG);
    RUNP(0, x, sizeof x, pk, size, o, B * N, ACCEL_E_ARG);
    RESET();
    q.filter_offset = 1; RP(ACCEL_E_ARG); RESET();
    q.filter_offset = 128; RP(ACCEL_E_ARG); RESET();
    /* what is not folded may differ from the pack's q: count, rounding, output offset, range */
    q.count = 1; q.rounding = ACCEL_MAC_ROUND_SINGLE; q.output_offset = -128; q.act_min = -5;
    q.act_max = 5;
    memset(o, 0xAA, sizeof o);
    CHECK_ST(accel_mac_fully_connected_packed(B, x, sizeof x, pk, size, &q, o, B * N), ACCEL_OK);
    r.nq = 1; r.single = 1; r.oo = -128; r.amin = -5; r.amax = 5;
    ref_fc(B, K, N, x, w, bias, &r, want);
    CHECK_MEM(o, want, B * N);
    RESET();
    /* zero batches before the input's length; input before the output's room */
    RUNP(0, x, 0, pk, size, o, 0, ACCEL_E_ZERO_LENGTH);
    RUNP(0, x, sizeof x, pk, size, o, B * N, ACCEL_E_ZERO_LENGTH);
    RUNP(B, x, sizeof x - 1, pk, size, o, B * N, ACCEL_E_TRUNCATED);
    RUNP(B, x, sizeof x - 1, pk, size, o, B * N - 1, ACCEL_E_TRUNCATED);
    RUNP(B, x, sizeof x, pk, size, o, B * N - 1, ACCEL_E_BUFFER_TOO_SMALL);
    RUNP(B, x, sizeof x, pk, size, o, 0, ACCEL_E_BUFFER_TOO_SMALL);
    /* batches * in_depth past 32 bits: refused for the short input (64-bit size_t) or as an
     * overflow (32 bits) */
    {
        memset(o, 0xAA, sizeof o);
        st = accel_mac_fully_connected_packed(0xFFFFFFFFUL, x, sizeof x, pk, size, &q, o, sizeof o);
        if ((uint64_t)SIZE_MAX >= 0xFFFFFFFFULL * K) CHECK_ST(st, ACCEL_E_TRUNCATED);
        else CHECK(st == ACCEL_E_OVERFLOW || st == ACCEL_E_TRUNCATED);
        CHECK(fcp_all(o, 0xAA, sizeof o));
    }
    /* a larger output buffer: the rest untouched */
    memset(o, 0xAA, sizeof o);
    CHECK_ST(accel_mac_fully_connected_packed(1, x, sizeof x, pk, size + 5, &q, o, sizeof o), ACCEL_OK);
    r.nq = 3; r.single = 0; r.oo = 4; r.amin = -128; r.amax = 127;
    ref_fc(1, K, N, x, w, bias, &r, want);
    CHECK_MEM(o, want, N);
    CHECK(fcp_all(o + N, 0xAA, sizeof o - N));
    CHECK_MEM(pk, keep, size);
#undef RP
#undef RUNP
#undef RESET
}

int main(void)
{
    printf("ACCEL_MAC_FAST=%d\n", ACCEL_MAC_FAST);
    RUN(test_helpers);
#ifndef ACCEL_MAC_NO_FLOAT
    RUN(test_quantize_multiplier);
    RUN(test_quantize_f32);
#endif
    RUN(test_helpers_random);
    RUN(test_fc_random);
    RUN(test_fc_deep);
    RUN(test_matmul_s32_random);
    RUN(test_conv2d_random);
    RUN(test_depthwise_random);
    RUN(test_maxpool_random);
    RUN(test_avgpool_random);
    RUN(test_errors_quant);
    RUN(test_errors_conv);
    RUN(test_errors_more);
    RUN(test_conv_scratch_api);
    RUN(test_edge_geometries);
    RUN(test_size_overflow);
    RUN(test_wide_hand);
    RUN(test_wide_random);
    RUN(test_wide_overflow);
    RUN(test_flip);
    RUN(test_uint8_equals_flipped_int8);
    RUN(test_fcpack_size);
    RUN(test_fcpack_errors_pack);
    RUN(test_fcpack_errors_packed);
    RUN(test_fcpack_align);
    RUN(test_fcpack_requant);
    RUN(test_fcpack_random);
    return TEST_END();
}
