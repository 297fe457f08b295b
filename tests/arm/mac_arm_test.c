/* mac_arm_test.c - the mac section's Arm SIMD paths, executed under emulation by
 * tests/mac_arm.sh (never built natively by the Makefile: it is not a tests/test_*.c).
 *   -DMAC_ARM_WANT=3  AArch64 NEON sdot build (-march=armv8.2-a+dotprod), run by qemu-aarch64
 *   -DMAC_ARM_WANT=4  Cortex-M4 DSP build (-mcpu=cortex-m4 -DACCEL_MAC_FAST=1), run by
 *                     qemu-system-arm -M mps2-an386 with newlib semihosting
 *   -DMAC_ARM_WANT=0  the same target with -DACCEL_MAC_NO_SIMD, or the host, for comparison
 * The build stops (#error) when ACCEL_MAC_SIMD is not the wanted path, so a flag that silently
 * stopped selecting the SIMD code cannot pass.
 * First, random fully connected and raw GEMM cases aimed at what the Arm code does differently
 * from the portable loops: every depth tail of the 16-byte sdot and 4-byte SMLAD steps, filter
 * rows in whole blocks of 4 handed back to the portable code for the rest, batch > 1, unaligned
 * input and filter pointers, the offset algebra (sums with ones) at the edge zero points and
 * bytes, extreme multipliers, shifts and biases, sums that wrap modulo 2^32. The reference is
 * a plain loop written here from TFLite's reference kernels (int64 sum truncated to 32 bits,
 * gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT, or single rounding).
 * Every output feeds a digest printed as "digest XXXXXXXX": the script checks that the SIMD,
 * the NO_SIMD and the host builds print the same one. Then the whole of tests/test_mac.c runs
 * on the same build (every kernel, the wide products through the GEMM, error paths). */
#ifndef MAC_ARM_WANT
#error "build with -DMAC_ARM_WANT=3, 4 or 0 (see tests/mac_arm.sh)"
#endif
/* only the mac section is under test; leaving the device sections out halves each build */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define main test_mac_main
#include "../test_mac.c" /* defines ACCEL_IMPLEMENTATION, includes accel.h and testlib.h */
#undef main

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
static uint64_t ar_state = 0x2545F4914F6CDD1DULL;
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
    enum { MB = 9, MN = 41, MK = 5000 };
    static uint8_t xb[MB * MK + 8], wb[MN * MK + 8], want[MB * MN], ob[MB * MN + 8];
    static int32_t bias[MN], ab[MB * MN + 2], want32[MB * MN];
    int it, bad = 0, cases = 0;
    for (it = 0; it < 3000 && bad < 5; it++) {
        int extreme = it % 13 == 0, K = ar_depth(it), B, N, n, b, hasb, i, xa, wa;
        ar_q r;
        accel_mac_quant q;
        accel_status st;
        uint8_t *x, *w, *o;
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

int main(void)
{
    printf("ACCEL_MAC_SIMD=%d (%s)\n", ACCEL_MAC_SIMD,
           ACCEL_MAC_SIMD == 3 ? "AArch64 NEON sdot"
           : ACCEL_MAC_SIMD == 4 ? "Arm DSP extension SMLAD"
           : ACCEL_MAC_SIMD == 0 ? "portable" : "x86");
    RUN(test_arm_fc_gemm_random);
    RUN(test_arm_wrap);
    printf("digest %08lx\n", (unsigned long)ar_digest);
    return test_mac_main(); /* ends with TEST_END over both parts */
}
