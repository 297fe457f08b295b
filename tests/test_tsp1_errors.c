/* test_tsp1_errors.c - the TSP1 section's refusals and failure paths the other TSP1 tests leave
 * out: every NULL argument of the encoders, decoders, bus accessors, driver and device model;
 * ids just outside each kind's range; the driver's init refusals and its default timeout; a bus
 * that fails part-way through a register sequence; and a device model without a log callback.
 * Each refusal is checked for its status and for having changed nothing it should not. */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "tsp1_rig.h"

static void test_encoder_refusals(void)
{
    uint8_t buf[64], big[1] = {0};
    size_t len = 99;
    memset(buf, 0xEE, sizeof buf);
    /* no out_len: refused (and nothing to report the length through) */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ACCEL_TSP1_ECHO, 1, NULL, 0, buf, sizeof buf, NULL),
             ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ACCEL_TSP1_ECHO, 1, NULL, 0, NULL, sizeof buf, &len),
             ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ACCEL_TSP1_ECHO, 1, NULL, 3, buf, sizeof buf, &len),
             ACCEL_E_NULL);
    /* N_BYTES is 16 bits: 0x10000 is refused before the capacity or the payload is looked at */
    len = 99;
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ACCEL_TSP1_ECHO, 1, big, 0x10000, buf, sizeof buf, &len),
             ACCEL_E_TOO_LONG);
    CHECK_EQ(len, 0);
    CHECK_EQ(buf[0], 0xEE);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 1, NULL, 0, buf, sizeof buf, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_INFO, 1, 0x100, buf, sizeof buf, NULL), ACCEL_E_ARG);
    CHECK_EQ(buf[0], 0xEE);
}

static void test_kind_edges(void)
{
    CHECK_EQ(accel_tsp1_kind_of(0x8000), ACCEL_TSP1_KIND_DATA);
    CHECK_EQ(accel_tsp1_kind_of(0x8002), ACCEL_TSP1_KIND_UNKNOWN); /* past R_NN_INFO */
    CHECK_EQ(accel_tsp1_kind_of(0x9007), ACCEL_TSP1_KIND_ERROR);
    CHECK_EQ(accel_tsp1_kind_of(0x9005), ACCEL_TSP1_KIND_UNKNOWN); /* not a documented error */
    CHECK_EQ(accel_tsp1_kind_of(0x9008), ACCEL_TSP1_KIND_UNKNOWN);
    CHECK_EQ(accel_tsp1_kind_of(0xA000), ACCEL_TSP1_KIND_UNKNOWN); /* before ASYNC_READY */
    CHECK_EQ(accel_tsp1_kind_of(0xA003), ACCEL_TSP1_KIND_ASYNC);
    CHECK_EQ(accel_tsp1_kind_of(0xA004), ACCEL_TSP1_KIND_UNKNOWN);
}

static void test_decoder_refusals(void)
{
    accel_tsp1_frame f, got;
    accel_tsp1_nn_info info;
    accel_tsp1_decoder d, zero;
    uint8_t buf[64], in[4] = {1, 2, 3, 4};
    size_t used = 99;
    memset(&f, 0, sizeof f);
    memset(&zero, 0, sizeof zero);
    f.id = ACCEL_TSP1_R_NN_INFO;
    CHECK_ST(accel_tsp1_decode_nn_info(NULL, &info), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_decode_nn_info(&f, NULL), ACCEL_E_NULL);
    f.n_bytes = 8; /* a length without its payload */
    CHECK_ST(accel_tsp1_decode_nn_info(&f, &info), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_decoder_init(NULL, buf, sizeof buf, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_decoder_init(&d, NULL, sizeof buf, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_E_NULL);
    REQUIRE_ST(accel_tsp1_decoder_init(&d, buf, sizeof buf, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, in, sizeof in, NULL, &got), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_decoder_feed(NULL, in, sizeof in, &used, &got), ACCEL_E_NULL);
    CHECK_EQ(used, 0);
    CHECK_ST(accel_tsp1_decoder_feed(&d, in, sizeof in, &used, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_decoder_feed(&d, NULL, 1, &used, &got), ACCEL_E_NULL);
    /* a decoder that was never initialised (zeroed) has no buffer to hold a candidate */
    CHECK_ST(accel_tsp1_decoder_feed(&zero, in, sizeof in, &used, &got), ACCEL_E_NULL);
    CHECK_EQ(d.len, 0); /* nothing taken by a refused feed */
    accel_tsp1_decoder_reset(NULL); /* no effect, no crash */
}

/* A port whose SPI transfers fail from the fail_at-th on (1-based; 0: never). */
static unsigned spi_calls, spi_fail_at;
static accel_status fp_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len, unsigned flags)
{
    (void)u;
    (void)cs;
    (void)tx;
    (void)flags;
    spi_calls++;
    if (spi_fail_at && spi_calls >= spi_fail_at) return ACCEL_E_IO;
    if (rx) memset(rx, 0, len);
    return ACCEL_OK;
}

static void test_bus_refusals(void)
{
    accel_port p;
    accel_tsp1_bus b;
    uint32_t v = 0x1234;
    uint8_t d[4] = {0};
    memset(&p, 0, sizeof p);
    p.spi_transfer = fp_spi;
    memset(&b, 0, sizeof b);
    b.port = &p;
    CHECK_ST(accel_tsp1_reg_read(NULL, 0, &v), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_reg_read(&b, 0, NULL), ACCEL_E_NULL);
    CHECK_EQ(v, 0x1234);
    CHECK_ST(accel_tsp1_reg_write(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_buf_write(NULL, 0, d, 4), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_buf_write(&b, 0, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_wake_pulse(NULL), ACCEL_E_NULL);
    CHECK_EQ(spi_calls, 0);
    /* irq_config writes three registers: a transfer that fails stops the sequence there (no
       transfer after it), whichever it is */
    {
        unsigned total, k;
        spi_calls = 0;
        spi_fail_at = 0;
        REQUIRE_ST(accel_tsp1_irq_config(&b, 0x3, 1, 1), ACCEL_OK);
        total = spi_calls;
        CHECK(total >= 3);
        for (k = 1; k <= total; k++) {
            spi_calls = 0;
            spi_fail_at = k;
            CHECK_ST(accel_tsp1_irq_config(&b, 0x3, 1, 1), ACCEL_E_IO);
            CHECK_EQ(spi_calls, k);
        }
        spi_fail_at = 0;
    }
}

static uint32_t clock_now(void *u)
{
    (void)u;
    return 0;
}

static void test_driver_init_refusals(void)
{
    accel_tsp1 s;
    accel_tsp1_config c, base;
    accel_port p, noclock;
    /* one block: 4 pending, commands up to 40 payload bytes, responses up to 52; one spare
       word so that the block can start misaligned */
    uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(4, 40, 52) + 3) / 4 + 1];
    size_t need = 0;
    memset(&p, 0, sizeof p);
    p.spi_transfer = fp_spi;
    p.now_ms = clock_now;
    noclock = p;
    noclock.now_ms = NULL;
    /* the size: 3 alignment bytes + 4 x 12-byte entries (or 11 on AVR) + tx 24 + 40 + rx
       12 + 52; the same from the function and the macro */
    REQUIRE_ST(accel_tsp1_driver_mem_size(4, 40, 52, &need), ACCEL_OK);
    CHECK_EQ(need, 3u + 4u * sizeof(accel_tsp1_pending) + 64u + 64u);
    CHECK_EQ(need, ACCEL_TSP1_DRIVER_MEM(4, 40, 52));
    CHECK_ST(accel_tsp1_driver_mem_size(1, 40, 52, &need), ACCEL_E_ARG); /* no slot beside the
                                                                           driver's own */
    CHECK_EQ(need, 0);
    CHECK_ST(accel_tsp1_driver_mem_size(4, 40, 3, &need), ACCEL_E_ARG); /* no room for the
                                                                          synchronising answer */
    CHECK_ST(accel_tsp1_driver_mem_size(4, 0x10000, 52, &need), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_driver_mem_size(0x10000, 40, 52, &need), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_driver_mem_size(4, 40, 52, NULL), ACCEL_E_NULL);
    memset(&base, 0, sizeof base);
    base.bus.port = &p;
    base.mem = (uint8_t *)mem + 1; /* misaligned: the driver aligns the table itself */
    base.mem_len = ACCEL_TSP1_DRIVER_MEM(4, 40, 52);
    base.depth = 4;
    base.cmd_payload = 40;
    base.rsp_payload = 52;
    CHECK_ST(accel_tsp1_init(NULL, &base), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_init(&s, NULL), ACCEL_E_NULL);
    c = base;
    c.bus.port = NULL;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_NULL);
    c = base;
    c.mem = NULL; /* no memory at all */
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_NULL);
    c = base;
    c.bus.port = &noclock; /* deadlines need a clock */
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_UNSUPPORTED);
    c = base;
    c.mem_len--;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_BUFFER_TOO_SMALL);
    c = base;
    c.depth = 1;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_ARG);
    c = base;
    c.rsp_payload = 3;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_ARG);
    /* the split: an aligned table of 4, then tx (64), then rx (64), all inside the block */
    REQUIRE_ST(accel_tsp1_init(&s, &base), ACCEL_OK);
    CHECK_EQ(accel_ring_capacity(&s.pend), 4);
    CHECK_EQ((uintptr_t)s.pend.buf % 4u, 0);
    CHECK(s.pend.buf >= (uint8_t *)base.mem);
    CHECK_EQ(s.tx_cap, 64);
    CHECK_EQ(s.dec.cap, 64);
    CHECK(s.tx >= (uint8_t *)base.mem + 4u * sizeof(accel_tsp1_pending));
    CHECK(s.dec.buf >= s.tx + s.tx_cap);
    CHECK(s.dec.buf + s.dec.cap <= (uint8_t *)base.mem + base.mem_len);
    /* no timeout given: one second */
    CHECK_EQ(s.timeout_ms, 1000);
    base.timeout_ms = 7;
    REQUIRE_ST(accel_tsp1_init(&s, &base), ACCEL_OK);
    CHECK_EQ(s.timeout_ms, 7);
#ifndef ACCEL_NO_DEPRECATED
    /* the three regions given apart (deprecated), when mem is NULL */
    {
        accel_tsp1_pending pend[4];
        uint8_t rx[64], tx[64];
        memset(&base, 0, sizeof base);
        base.bus.port = &p;
        base.pending_mem = pend;
        base.pending_len = sizeof pend;
        base.rx_mem = rx;
        base.rx_len = sizeof rx;
        base.tx_mem = tx;
        base.tx_len = sizeof tx;
        c = base;
        c.tx_mem = NULL;
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_NULL);
        c = base;
        c.pending_len = sizeof pend[0]; /* one slot: none left beside the driver's CLEAR_ERROR */
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_BUFFER_TOO_SMALL);
        c = base;
        c.tx_len = ACCEL_TSP1_OVERHEAD - 1;
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_BUFFER_TOO_SMALL);
        c = base;
        c.pending_mem = NULL;
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_NULL);
        c = base;
        c.rx_mem = NULL;
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_NULL);
        c = base;
        c.rx_len = ACCEL_TSP1_OVERHEAD + 3; /* the synchronising answer needs 16 */
        CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_E_BUFFER_TOO_SMALL);
        REQUIRE_ST(accel_tsp1_init(&s, &base), ACCEL_OK);
        CHECK(s.tx == tx);
        CHECK_EQ(s.dec.cap, 64);
    }
#endif
}

static void test_driver_null_and_arguments(void)
{
    accel_tsp1_nn_info info;
    accel_tsp1_update u;
    uint16_t id = 1, tid = 2, co = 3;
    uint8_t resp[8], count = 9;
    size_t rl = 77;
    CHECK_ST(accel_tsp1_submit(NULL, ACCEL_TSP1_ECHO, NULL, 0, &tid), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_clear_error(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_poll(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_call(NULL, ACCEL_TSP1_ECHO, NULL, 0, resp, sizeof resp, &rl, 10), ACCEL_E_NULL);
    CHECK_EQ(rl, 0);
    CHECK_ST(accel_tsp1_wait_ready(NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_reboot(NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_sleep(NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_wake(NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_nn_query(NULL, 0, &info, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_nn_scan(NULL, &count, 10), ACCEL_E_NULL);
    CHECK_EQ(count, 9);
    CHECK_ST(accel_tsp1_nn_control(NULL, ACCEL_TSP1_NN_START, 1, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_async_take(NULL, &id, &tid, &co), ACCEL_E_NULL);
    memset(&u, 0, sizeof u);
    CHECK_ST(accel_tsp1_update_run(NULL, &u, 10), ACCEL_E_NULL);

    /* with a driver and its device: refusals before anything is sent */
    setup(512, 512, 2, 1, 8, 1);
    CHECK_ST(accel_tsp1_call(&R.s, 0, NULL, 0, resp, sizeof resp, &rl, 10), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 0, NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_INFO, 1, 10), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_FINISH + 1, 1, 10), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_async_take(&R.s, NULL, &tid, &co), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, NULL, &co), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_update_run(&R.s, NULL, 10), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 10), ACCEL_E_NULL); /* no read callback */
    CHECK_EQ(accel_fifo_count(&R.m.cmdq), 0); /* nothing reached the device */
    CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_RAN], 0);
    CHECK_EQ(accel_ring_count(&R.s.pend), 0);
}

static void test_model_refusals_and_no_log(void)
{
    accel_tsp1_model m;
    uint8_t mem[4096];
    accel_port p;
    uint8_t resp[8];
    size_t rl = 0;
    size_t need = 1;
    /* 3 x 256 + ACCEL_TSP1_MODEL_SLACK (48) + 256; the caps init refuses are refused here too */
    REQUIRE_ST(accel_tsp1_model_mem_size(256, 256, &need), ACCEL_OK);
    CHECK_EQ(need, 1072);
    CHECK_ST(accel_tsp1_model_mem_size(ACCEL_TSP1_OVERHEAD, 16, &rl), ACCEL_OK);
    CHECK_EQ(rl, 3 * 12 + 48 + 16);
    CHECK_ST(accel_tsp1_model_mem_size(ACCEL_TSP1_OVERHEAD - 1, 256, &rl), ACCEL_E_ARG);
    CHECK_EQ(rl, 0);
    CHECK_ST(accel_tsp1_model_mem_size(256, 15, &rl), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_model_mem_size(256, 256, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_model_mem_size(0xFFFF, 0xFFFF, &rl), sizeof(size_t) > 2 ? ACCEL_OK : ACCEL_E_OVERFLOW);
    rl = 0;
    CHECK_ST(accel_tsp1_model_init(NULL, mem, sizeof mem, 256, 256, 1), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_model_init(&m, NULL, sizeof mem, 256, 256, 1), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_model_init(&m, mem, sizeof mem, ACCEL_TSP1_OVERHEAD - 1, 256, 1), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_model_init(&m, mem, sizeof mem, 256, 15, 1), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_model_init(&m, mem, sizeof mem, 256, 256, ACCEL_TSP1_MAX_NETS + 1), ACCEL_E_ARG);
    REQUIRE(need <= sizeof mem);
    CHECK_ST(accel_tsp1_model_init(&m, mem, need - 1, 256, 256, 1), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_tsp1_model_raise(NULL, ACCEL_TSP1_R_ASYNC_READY), ACCEL_E_NULL);
    REQUIRE_ST(accel_tsp1_model_init(&m, mem, need, 256, 256, 1), ACCEL_OK);
    CHECK_ST(accel_tsp1_model_raise(&m, ACCEL_TSP1_R_ASYNC_READY - 1), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_model_raise(&m, ACCEL_TSP1_R_ASYNC_ERR_NPU + 1), ACCEL_E_ARG);
    accel_tsp1_model_advance(NULL, 5); /* no effect, no crash */
    memset(&p, 0x5A, sizeof p);
    accel_tsp1_model_port(NULL, &p);
    CHECK(p.spi_transfer != NULL && p.user != NULL); /* untouched */
    accel_tsp1_model_port(&m, NULL);

    /* the rig's model without its log callback still runs commands: an ECHO comes back */
    setup(512, 512, 2, 1, 8, 1);
    R.m.on_log = NULL;
    accel_sim_advance(&R.sim, 100); /* past the model's boot */
    REQUIRE_ST(accel_tsp1_wait_ready(&R.s, 200), ACCEL_OK);
    REQUIRE_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "ok", 2, resp, sizeof resp, &rl, 200), ACCEL_OK);
    CHECK_EQ(rl, 2);
    CHECK_MEM(resp, "ok", 2);
    CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_RAN], 0); /* nothing logged */
}

/* Network scans and control against the model's slots (n_nets valid networks). */
static void test_nn_scan_and_control(void)
{
    uint8_t count = 0;
    setup(512, 512, 2, 1, 8, 1);
    accel_sim_advance(&R.sim, 100);
    REQUIRE_ST(accel_tsp1_wait_ready(&R.s, 200), ACCEL_OK);
    /* a scan with no time to wait: the first query's timeout, nothing recorded as scanned */
    CHECK_ST(accel_tsp1_nn_scan(&R.s, &count, 0), ACCEL_E_TIMEOUT);
    CHECK_EQ(R.s.scanned, 0);
    drain(300); /* that query still gets its own outcome */
    /* network 1 running: the scan finds both slots and marks 1 as running; count is optional */
    REQUIRE_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 0x2, 200), ACCEL_OK);
    CHECK_EQ(R.s.running_mask, 0x2);
    R.s.running_mask = 0;
    REQUIRE_ST(accel_tsp1_nn_scan(&R.s, NULL, 200), ACCEL_OK);
    CHECK_EQ(R.s.known_mask, 0x3);
    CHECK_EQ(R.s.running_mask, 0x2);
    /* a refused NN command (the device's ERR_ARG for a slot without a network) changes no mask */
    R.s.scanned = 0; /* let it reach the device */
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 0x4, 200), ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(R.s.running_mask, 0x2);

    /* every slot holds a network: the scan stops at the last slot */
    setup(512, 512, ACCEL_TSP1_MAX_NETS, 1, 8, 1);
    accel_sim_advance(&R.sim, 100);
    REQUIRE_ST(accel_tsp1_wait_ready(&R.s, 200), ACCEL_OK);
    REQUIRE_ST(accel_tsp1_nn_scan(&R.s, &count, 200), ACCEL_OK);
    CHECK_EQ(count, ACCEL_TSP1_MAX_NETS);
    CHECK_EQ(R.s.known_mask, 0xFFFFFFFFUL);
}

/* Sleep without waiting, a port without an interrupt line, a model with no boot time. */
static void test_sleep_irqless_boot(void)
{
    uint8_t resp[8];
    size_t rl = 0;
    setup(512, 512, 2, 1, 8, 1);
    accel_sim_advance(&R.sim, 100);
    REQUIRE_ST(accel_tsp1_wait_ready(&R.s, 200), ACCEL_OK);
    rig_sync();
    /* timeout 0: the DEEP_SLEEP is written and pending, sleep returns without waiting for the
       device to take it, and says so */
    REQUIRE_ST(accel_tsp1_sleep(&R.s, 0), ACCEL_E_TIMEOUT);
    CHECK_EQ(accel_ring_count(&R.s.pend), 1);
    CHECK_EQ(R.s.asleep, 1);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_E_TSP1_ASLEEP);

    /* no wait_irq: the driver waits a millisecond between polls instead, and still gets its answer */
    setup(512, 512, 2, 1, 8, 1);
    R.sim.port.wait_irq = NULL;
    accel_sim_advance(&R.sim, 100);
    REQUIRE_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, resp, sizeof resp, &rl, 300), ACCEL_OK);
    CHECK_EQ(rl, 1);
    CHECK_EQ(resp[0], 'x');

    /* a model told to boot in 0 ms boots in 1 (it still answers a REBOOT with ASYNC_READY) */
    setup(512, 512, 2, 1, 8, 1);
    accel_sim_advance(&R.sim, 100);
    R.m.boot_ms = 0;
    CHECK_ST(accel_tsp1_reboot(&R.s, 200), ACCEL_OK);
    CHECK(R.n_ready >= 1);
}

static uint32_t upd_asked, upd_reads;
static accel_status upd_read_fail(void *u, uint32_t offset, uint8_t *dst, size_t n)
{
    (void)u;
    (void)offset;
    memset(dst, 0, n);
    upd_reads++;
    upd_asked = (uint32_t)n;
    return ACCEL_E_IO;
}

/* More driver and model paths: no outcome callback, reboot with no time, the update's piece
   size bounded by the driver's tx buffer, IRQ_STATUS as the model reports it, a pulse on a line
   that is not WAKE. */
static void test_driver_model_more(void)
{
    accel_tsp1_update u;
    accel_tsp1_frame f;
    accel_tsp1_nn_info info;
    uint32_t v = 0;
    uint16_t tid = 0;
    unsigned before;

    /* NN_INFO answer without payload: malformed, not a NULL refusal */
    memset(&f, 0, sizeof f);
    f.id = ACCEL_TSP1_R_NN_INFO;
    CHECK_ST(accel_tsp1_decode_nn_info(&f, &info), ACCEL_E_MALFORMED);

    setup(1024, 512, 2, 1, 8, 1);
    accel_sim_advance(&R.sim, 100);
    REQUIRE_ST(accel_tsp1_wait_ready(&R.s, 200), ACCEL_OK);
    /* without on_outcome the outcome is still counted */
    R.s.on_outcome = NULL;
    before = (unsigned)R.s.outcomes;
    REQUIRE_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, &tid), ACCEL_OK);
    drain(50);
    CHECK_EQ(R.s.outcomes, before + 1u);
    CHECK_EQ(R.n_out, 0);
    R.s.on_outcome = rig_outcome;

    /* IRQ_STATUS: idle, bit 0 (command buffer at or under its threshold) only; an answer waiting
       sets bit 1; with the response threshold (bytes) above one 12-byte answer, it does not */
    REQUIRE_ST(accel_tsp1_reg_read(&R.s.bus, ACCEL_TSP1_REG_IRQ_STATUS, &v), ACCEL_OK);
    CHECK_EQ(v, 1);
    REQUIRE_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, &tid), ACCEL_OK);
    accel_sim_advance(&R.sim, 5);
    REQUIRE_ST(accel_tsp1_reg_read(&R.s.bus, ACCEL_TSP1_REG_IRQ_STATUS, &v), ACCEL_OK);
    CHECK_EQ(v, 3);
    REQUIRE_ST(accel_tsp1_irq_config(&R.s.bus, 0x3, 0, ACCEL_TSP1_OVERHEAD + 1), ACCEL_OK);
    REQUIRE_ST(accel_tsp1_reg_read(&R.s.bus, ACCEL_TSP1_REG_IRQ_STATUS, &v), ACCEL_OK);
    CHECK_EQ(v, 1);
    drain(50);

    /* the device's command buffer (1024) is larger than the driver's tx buffer (600): pieces
       are sized by the tx buffer, 576 bytes (4 chunks) plus a command and a marker; a failing
       read ends the update with its status and the next attempt starts over */
    memset(&u, 0, sizeof u);
    u.read = upd_read_fail;
    u.total = 8u * ACCEL_TSP1_CHUNK_SIZE;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_IO);
    CHECK_EQ(upd_reads, 1);
    CHECK_EQ(upd_asked, 4u * ACCEL_TSP1_CHUNK_SIZE);
    CHECK_EQ(u.position, 0);

    /* reboot with no time: the CLEAR_ERROR it starts with times out, and no REBOOT is sent */
    before = R.n_ready;
    CHECK_ST(accel_tsp1_reboot(&R.s, 0), ACCEL_E_TIMEOUT);
    drain(50);
    accel_sim_advance(&R.sim, 50);
    drain(50);
    CHECK_EQ(R.n_ready, before);

    /* asleep, a pulse on another line does not wake the model */
    REQUIRE_ST(accel_tsp1_sleep(&R.s, 50), ACCEL_OK);
    accel_sim_advance(&R.sim, 5);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_ASLEEP);
    REQUIRE_ST(accel_port_gpio_set(&R.sim.port, (unsigned)R.m.wake_line + 1u, 1), ACCEL_OK);
    accel_sim_advance(&R.sim, 20);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_ASLEEP);
    REQUIRE_ST(accel_tsp1_wake(&R.s, 200), ACCEL_OK);
    CHECK(R.m.power != ACCEL_TSP1_MODEL_ASLEEP);
}

int main(void)
{
    tl_seed(1);
    RUN(test_encoder_refusals);
    RUN(test_kind_edges);
    RUN(test_decoder_refusals);
    RUN(test_bus_refusals);
    RUN(test_driver_init_refusals);
    RUN(test_driver_null_and_arguments);
    RUN(test_model_refusals_and_no_log);
    RUN(test_nn_scan_and_control);
    RUN(test_sleep_irqless_boot);
    RUN(test_driver_model_more);
    return TEST_END();
}
