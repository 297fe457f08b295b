/* mac_avr_test.c - the mac section's size_t overflow refusals where size_t has 16 bits: run on
 * an ATmega2560 under simavr and on the host by tests/mac_avr.sh. Each case names a product of
 * valid uint32 dimensions (every geometry field <= 65535, as the conv functions require) that
 * exceeds 65535: a dimension alone that does not fit a 16-bit size_t, or a product of two
 * 16-bit ones. The expected status follows each function's contract: ACCEL_E_OVERFLOW when the
 * element count (or scratch size) exceeds SIZE_MAX, computed here in 64 bits; otherwise the
 * next check refuses the 1-byte buffers (ACCEL_E_TRUNCATED or ACCEL_E_BUFFER_TOO_SMALL), so a
 * 32- or 64-bit host runs the same cases without expecting an overflow. No buffer is read or
 * written (checked: the output keeps its bytes), a scratch size is 0 after a refusal (a pack
 * size is left as it was).
 * Prints one line per failure and ends with "N passed, N failed". No malloc. */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdint.h>
#include <string.h>

#define AVR_OUT_CHECK
#include "avr_out.h"

/* a size compared with 64-bit values (a function, so a 16-bit size_t draws no range warning) */
static uint64_t as_u64(size_t v) { return (uint64_t)v; }
/* the status when a count of `prod` elements is refused for size_t, else `other` */
#define OVF(prod, other) ((uint64_t)(prod) > (uint64_t)SIZE_MAX ? ACCEL_E_OVERFLOW : (other))

int main(void)
{
    static uint8_t x[4], w[4], o[4] = {9, 9, 9, 9}, pw[256];
    /* a pack must be 4-byte aligned, and a uint32_t array is not on AVR (its alignment is 1):
       where it landed depended on the size of everything before it in RAM */
    static uint32_t pk[(64 + 4 * 256 + 256) / 4] __attribute__((aligned(4)));
    int32_t m = INT32_C(1) << 30, s = 0, acc[1] = {42};
    const size_t BIG = SIZE_MAX; /* a claimed length that passes its check: never read */
    size_t need;
    accel_mac_quant q;
    accel_mac_conv g, g0;
    memset(&q, 0, sizeof q);
    q.multiplier = &m;
    q.shift = &s;
    q.count = 1;
    q.act_min = -128;
    q.act_max = 127;
#ifdef __AVR__
    CHECK(sizeof(size_t) == 2); /* the point of this build */
#endif
    /* fully connected: batches alone past 16 bits (input count), out_depth alone (filter
     * count), batches*out_depth of two 16-bit values (output count) */
    CHECK(accel_mac_fully_connected(65536UL, 1, 1, x, 1, w, 1, NULL, 0, &q, o, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_fully_connected(1, 1, 65536UL, x, BIG, w, 1, NULL, 0, &q, o, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_fully_connected(256, 1, 256, x, BIG, w, BIG, NULL, 0, &q, o, 1) ==
          OVF(65536UL, ACCEL_E_BUFFER_TOO_SMALL));
    /* raw GEMM: m_rows alone (a's count), n_cols alone (b's count), m_rows*n_cols (out) */
    CHECK(accel_mac_matmul_s32(ACCEL_MAC_INT8, 65536UL, 1, 1, x, 1, 0, w, 1, 0, acc, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_matmul_s32(ACCEL_MAC_INT8, 1, 65536UL, 1, x, BIG, 0, w, 1, 0, acc, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_matmul_s32(ACCEL_MAC_INT8, 256, 256, 1, x, BIG, 0, w, BIG, 0, acc, 1) ==
          OVF(65536UL, ACCEL_E_BUFFER_TOO_SMALL));
    /* pools: batches (the one field allowed past 65535) alone is the input's count */
    memset(&g0, 0, sizeof g0);
    g0.batches = 1;
    g0.in_h = g0.in_w = g0.in_c = g0.out_h = g0.out_w = g0.out_c = 1;
    g0.k_h = g0.k_w = g0.stride_h = g0.stride_w = 1;
    g = g0;
    g.batches = 65536UL;
    CHECK(accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, -128, 127, x, 1, o, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    /* a 256x256 window over one channel: k_h*k_w = 65536 (the filter's count) */
    g = g0;
    g.k_h = g.k_w = 256;
    CHECK(accel_mac_conv2d(&g, &q, x, 1, w, 1, NULL, 0, o, 1) == OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_conv2d_with_scratch(&g, &q, x, 1, w, 1, NULL, 0, o, 1, w, 4) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_depthwise_conv2d(&g, &q, x, 1, w, 1, NULL, 0, o, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    need = 7;
    CHECK(accel_mac_conv2d_scratch_size(&g, &need) == OVF(65536UL, ACCEL_OK));
    /* the scratch is 2 * (3 or 4) bytes a tap + 3 where a build uses one, else 0 */
    CHECK(sizeof(size_t) < 4 ? need == 0
                             : (need == 0 || as_u64(need) == 6UL * 65536UL + 3u ||
                                as_u64(need) == 8UL * 65536UL + 3u));
    /* wide products' scratch 4*m*n + (m + n)*depth*nbytes: m_rows alone, n_cols alone */
    need = 7;
    CHECK(accel_mac_wide_scratch_size(1, 65536UL, 1, 1, &need) ==
          OVF(4UL * 65536UL + 65536UL + 1u, ACCEL_OK));
    CHECK(as_u64(need) == (sizeof(size_t) < 4 ? 0u : 4UL * 65536UL + 65536UL + 1u));
    need = 7;
    CHECK(accel_mac_wide_scratch_size(1, 1, 65536UL, 1, &need) ==
          OVF(4UL * 65536UL + 1u + 65536UL, ACCEL_OK));
    CHECK(as_u64(need) == (sizeof(size_t) < 4 ? 0u : 4UL * 65536UL + 1u + 65536UL));
    /* prepacked FC: the pack's bytes (64 + 4 * 255 + 255 * 255 at least) past 16 bits, with
     * the filter's count (65025) within them; then a filter of 65536 elements */
    need = 7;
    CHECK(accel_mac_fully_connected_pack_mem_size(255, 255, &need) == OVF(66109UL, ACCEL_OK));
    CHECK(sizeof(size_t) < 4 ? need == 7 : as_u64(need) >= 66109UL);
    CHECK(accel_mac_fully_connected_pack(255, 255, w, BIG, NULL, 0, &q, pk, sizeof pk) ==
          OVF(66109UL, ACCEL_E_BUFFER_TOO_SMALL));
    CHECK(accel_mac_fully_connected_pack(256, 256, w, BIG, NULL, 0, &q, pk, sizeof pk) ==
          OVF(65536UL, ACCEL_E_BUFFER_TOO_SMALL));
    /* real packs, run with batches * in_depth (input count) or batches * out_depth (output
     * count) at 65536 */
    CHECK(accel_mac_fully_connected_pack(256, 1, pw, sizeof pw, NULL, 0, &q, pk, sizeof pk) ==
          ACCEL_OK);
    CHECK(accel_mac_fully_connected_packed(256, x, 1, pk, sizeof pk, &q, o, 1) ==
          OVF(65536UL, ACCEL_E_TRUNCATED));
    CHECK(accel_mac_fully_connected_pack(1, 256, pw, sizeof pw, NULL, 0, &q, pk, sizeof pk) ==
          ACCEL_OK);
    CHECK(accel_mac_fully_connected_packed(256, x, BIG, pk, sizeof pk, &q, o, 1) ==
          OVF(65536UL, ACCEL_E_BUFFER_TOO_SMALL));
    /* nothing was written */
    CHECK(acc[0] == 42);
    CHECK(o[0] == 9 && o[1] == 9 && o[2] == 9 && o[3] == 9);
    return out_end(passed, failed);
}
