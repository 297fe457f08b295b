/* sizes_avr_test.c - every caller-memory size function (_mem_size, _scratch_size) and size
 * macro, called with values whose result does not fit a 16-bit size_t: run on an ATmega2560
 * under simavr and on the host by tests/sizes_avr.sh. Each expected status is computed here in
 * 32 or 64 bits from the function's documented formula: ACCEL_E_OVERFLOW where the true size
 * exceeds SIZE_MAX (the AVR), the true size where it fits (the host). A size function never
 * returns a wrapped number: a session or queue initialised from it would be written past its
 * end (the TSP1 driver once answered 536 bytes for a need of 66,072 and one ECHO then wrote 111
 * bytes past the block). The tflite section's plan size needs a model: tests/tflite_avr.sh.
 * Prints one line per failure and ends with "N passed, N failed". No malloc. */
#define ACCEL_NO_TFLITE
#define ACCEL_NO_REFSI /* no size function of its own */
#define ACCEL_NO_STATUS_STRINGS /* RAM: the ATmega2560 has 8 KiB */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdint.h>
#include <string.h>

#define AVR_OUT_CHECK
#include "avr_out.h"

/* a size compared with 64-bit values (a function, so a 16-bit size_t draws no range warning) */
static uint64_t as_u64(size_t v) { return (uint64_t)v; }
static int fits(uint64_t v) { return v <= (uint64_t)SIZE_MAX; }

/* st and *bytes of a size function against the true size `want` */
static void size_is(int line, accel_status st, size_t got, uint64_t want)
{
    if (fits(want)) check(line, st == ACCEL_OK && as_u64(got) == want);
    else check(line, st == ACCEL_E_OVERFLOW && got == 0);
}
#define SIZE_IS(call, got, want)                                                               \
    do {                                                                                       \
        accel_status st_ = (call); /* before got is read */                                    \
        size_is(__LINE__, st_, (got), (want));                                                 \
    } while (0)

static uint32_t dummy_now(void *u)
{
    (void)u;
    return 0;
}

int main(void)
{
    size_t n = 1;
    uint64_t pend = sizeof(accel_tsp1_pending);
#ifdef __AVR__
    CHECK(sizeof(size_t) == 2); /* the point of this build */
#endif
    /* ---- tsp1: the driver's block: 3 + depth x pending + 3 x 12 + cmd + rsp */
    SIZE_IS(accel_tsp1_driver_mem_size(3, 33000, 33000, &n), n, 3UL + 3UL * pend + 36UL + 66000UL);
    SIZE_IS(accel_tsp1_driver_mem_size(0xFFFF, 8, 8, &n), n, 3UL + 0xFFFFUL * pend + 36UL + 16UL);
    SIZE_IS(accel_tsp1_driver_mem_size(2, 0xFFFF, 0xFFFF, &n), n, 3UL + 2UL * pend + 36UL + 0x1FFFEUL);
    SIZE_IS(accel_tsp1_driver_mem_size(2, 65000, 400, &n), n, 3UL + 2UL * pend + 36UL + 65400UL);
    SIZE_IS(accel_tsp1_driver_mem_size(8, 256, 256, &n), n, 3UL + 8UL * pend + 36UL + 512UL);
    /* the macro: the same number, never wrapped (an array that large fails to compile) */
    CHECK((uint64_t)ACCEL_TSP1_DRIVER_MEM(3, 33000, 33000) == 3UL + 3UL * pend + 36UL + 66000UL);
    CHECK((uint64_t)ACCEL_TSP1_DRIVER_MEM(0xFFFF, 0xFFFF, 0xFFFF) ==
          3UL + 0xFFFFUL * pend + 36UL + 0x1FFFEUL);
    /* init refuses what the size function refuses: a block sized by a wrapped number is never
       accepted */
    {
        static uint32_t blk[(536 + 3) / 4];
        static accel_tsp1 s;
        accel_port p;
        accel_tsp1_config c;
        memset(&p, 0, sizeof p);
        p.now_ms = dummy_now;
        memset(&c, 0, sizeof c);
        c.bus.port = &p;
        c.mem = blk;
        c.mem_len = sizeof blk;
        c.depth = 3;
        c.cmd_payload = 33000;
        c.rsp_payload = 33000;
        CHECK(accel_tsp1_init(&s, &c) == (fits(66072UL + 3UL * pend) ? ACCEL_E_BUFFER_TOO_SMALL
                                                                   : ACCEL_E_OVERFLOW));
        c.cmd_payload = 64;
        c.rsp_payload = 64;
        CHECK(accel_tsp1_init(&s, &c) == ACCEL_OK); /* 3 x pend + 167 fits 536 */
    }
    /* the device model: 3 x cmd_cap + 48 + rsp_cap */
    SIZE_IS(accel_tsp1_model_mem_size(0xFFFF, 0xFFFF, &n), n, 3UL * 0xFFFFUL + 48UL + 0xFFFFUL);
    SIZE_IS(accel_tsp1_model_mem_size(20000, 5000, &n), n, 60000UL + 48UL + 5000UL);
    SIZE_IS(accel_tsp1_model_mem_size(30000, 100, &n), n, 90000UL + 48UL + 100UL); /* 3 x cmd wraps */
    SIZE_IS(accel_tsp1_model_mem_size(1000, 500, &n), n, 3548UL);
    /* ---- ane: depth slots of width + 2 bytes; width + 2 itself passes 16 bits */
    SIZE_IS(accel_ane_msgq_mem_size(10, 0xFFFF, &n), n, 10UL * 0x10001UL);
    SIZE_IS(accel_ane_msgq_mem_size(1, 0xFFFE, &n), n, 0x10000UL); /* once a division by 0 */
    SIZE_IS(accel_ane_msgq_mem_size(1, 0xFFFD, &n), n, 0xFFFFUL);
    SIZE_IS(accel_ane_msgq_mem_size(2, 0x7FFF, &n), n, 2UL * 0x8001UL);
    SIZE_IS(accel_ane_msgq_mem_size(100, 62, &n), n, 6400UL);
    {
        static uint8_t qb[64];
        accel_ane_msgq q;
        CHECK(accel_ane_msgq_init(&q, qb, sizeof qb, 0xFFFF) ==
              (fits(0x10001UL) ? ACCEL_E_BUFFER_TOO_SMALL : ACCEL_E_OVERFLOW));
        CHECK(accel_ane_msgq_init(&q, qb, sizeof qb, 30) == ACCEL_OK);
    }
    /* ---- edgetpu: the DFU verify scratch is one transfer */
    SIZE_IS(accel_edgetpu_dfu_verify_scratch_size(0xFFFF, &n), n, 0xFFFFUL);
    SIZE_IS(accel_edgetpu_dfu_verify_scratch_size(4096, &n), n, 4096UL);
    /* ---- mac (its own section; where it already refuses): the packed weights and the wide
       GEMM's scratch */
    n = 1;
    CHECK(accel_mac_fully_connected_pack_mem_size(0xFFFF, 0xFFFF, &n) ==
          (fits((uint64_t)0xFFFF * 0xFFFF) ? ACCEL_OK : ACCEL_E_OVERFLOW));
    CHECK(accel_mac_wide_scratch_size(4, 256, 256, 1, &n) ==
          (fits(256UL * 256UL * 4UL + 256UL * 4UL * 2UL) ? ACCEL_OK : ACCEL_E_OVERFLOW));
    return out_end(passed, failed);
}
