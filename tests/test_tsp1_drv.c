/* test_tsp1_drv.c - TSP1 bus layer, device model and host driver, driven through ports/sim with
 * injected faults; ends with a property test of random command sequences with random faults. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"

typedef struct {
    accel_sim sim;
    accel_tsp1_model m;
    uint8_t mmem[4 * 1024 + 64];
    accel_tsp1 s;
    accel_tsp1_pending pend[8];
    uint8_t rx[600], tx[600];
    /* outcome log */
    uint16_t o_tid[512], o_cmd[512];
    accel_status o_st[512];
    uint16_t o_resp[512];
    unsigned n_out;
    unsigned n_async, n_ready;
    uint16_t a_id[64];
} rig;

static rig R;

static void on_outcome(void *u, const accel_tsp1_outcome *o)
{
    rig *r = (rig *)u;
    if (r->n_out < 512) {
        r->o_tid[r->n_out] = o->tid;
        r->o_cmd[r->n_out] = o->cmd;
        r->o_st[r->n_out] = o->status;
        r->o_resp[r->n_out] = o->resp ? o->resp->id : 0;
    }
    r->n_out++;
}

static void on_async(void *u, const accel_tsp1_frame *f)
{
    rig *r = (rig *)u;
    if (r->n_async < 64) r->a_id[r->n_async] = f->id;
    r->n_async++;
    if (f->id == ACCEL_TSP1_R_ASYNC_READY) r->n_ready++;
}

/* cmd/rsp queue sizes, nets, auto_clear, depth, use callbacks for async */
static void setup(uint16_t cmd_cap, uint16_t rsp_cap, uint8_t nets, uint8_t auto_clear,
                  size_t depth, int async_cb)
{
    accel_port mp;
    accel_tsp1_config c;
    ACCEL_MEMSET(&R, 0, sizeof R);
    accel_sim_init(&R.sim);
    CHECK_ST(accel_tsp1_model_init(&R.m, R.mmem, sizeof R.mmem, cmd_cap, rsp_cap, nets), ACCEL_OK);
    accel_tsp1_model_port(&R.m, &mp);
    accel_sim_attach(&R.sim, &mp);
    ACCEL_MEMSET(&c, 0, sizeof c);
    c.bus.port = &R.sim.port;
    c.pending_mem = R.pend;
    c.pending_len = depth * sizeof(accel_tsp1_pending);
    c.rx_mem = R.rx;
    c.rx_len = sizeof R.rx;
    c.tx_mem = R.tx;
    c.tx_len = sizeof R.tx;
    c.timeout_ms = 200;
    c.auto_clear = auto_clear;
    c.on_outcome = on_outcome;
    c.on_async = async_cb ? on_async : NULL;
    c.user = &R;
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
}

static void test_bus_layer(void)
{
    uint32_t v;
    uint16_t fill, space;
    setup(256, 128, 2, 1, 8, 1);
    /* before boot the device answers nothing */
    CHECK_ST(accel_tsp1_buf_level(&R.s.bus, ACCEL_TSP1_BUF_RSP, &fill, &space), ACCEL_OK);
    CHECK_EQ(fill, 0);
    accel_sim_advance(&R.sim, 10);
    CHECK_ST(accel_tsp1_reg_read(&R.s.bus, ACCEL_TSP1_REG_IRQ_MASK, &v), ACCEL_OK);
    CHECK_EQ(v, 2); /* after boot: only the response buffer drives INTB */
    CHECK_ST(accel_tsp1_buf_level(&R.s.bus, ACCEL_TSP1_BUF_RSP, &fill, &space), ACCEL_OK);
    CHECK_EQ(fill, 12); /* ASYNC_READY */
    CHECK_EQ(space, 128 - 12);
    CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 0), ACCEL_OK); /* INTB asserted */
    CHECK_ST(accel_tsp1_reg_write(&R.s.bus, (uint8_t)ACCEL_TSP1_REG_BUF_CTRL(1), 20), ACCEL_OK);
    CHECK_ST(accel_tsp1_reg_read(&R.s.bus, (uint8_t)ACCEL_TSP1_REG_BUF_CTRL(1), &v), ACCEL_OK);
    CHECK_EQ(v, 20);
    CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 0), ACCEL_E_TIMEOUT); /* 12 < threshold */
    CHECK_ST(accel_tsp1_reg_write(&R.s.bus, ACCEL_TSP1_REG_IRQ_MASK, 3), ACCEL_OK);
    CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 0), ACCEL_OK); /* command buffer empty <= 0 */
    /* completion by command-buffer threshold: IRQ once the queue drains to the threshold */
    CHECK_ST(accel_tsp1_irq_config(&R.s.bus, 1, 0, 1), ACCEL_OK);
    CHECK_EQ(R.m.irq_mask, 1);
    CHECK_EQ(R.m.thr[1], 1);
    {
        uint8_t f[16];
        size_t len;
        R.m.exec_per_ms = 0;
        accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_SECURE_UPDATE_CANCEL, 5, NULL, 0, &len);
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
        CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 0), ACCEL_E_TIMEOUT); /* queued */
        R.m.exec_per_ms = 2;
        CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 5), ACCEL_OK); /* consumed */
        CHECK_EQ(accel_fifo_count(&R.m.cmdq), 0);
    }
    CHECK_ST(accel_tsp1_irq_config(&R.s.bus, 3, 0, 20), ACCEL_OK);
    {
        uint8_t b[16];
        CHECK_ST(accel_tsp1_buf_read(&R.s.bus, ACCEL_TSP1_BUF_RSP, b, 16), ACCEL_OK);
        CHECK_EQ(b[0], 0x55); CHECK_EQ(b[1], 0xCC); CHECK_EQ(b[2], 0x01); CHECK_EQ(b[3], 0xA0);
        CHECK_EQ(b[12], 0); /* past the fill level */
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, b, 0), ACCEL_E_ZERO_LENGTH);
    }
    /* port without SPI */
    {
        accel_port none;
        accel_tsp1_bus b;
        ACCEL_MEMSET(&none, 0, sizeof none);
        ACCEL_MEMSET(&b, 0, sizeof b);
        b.port = &none;
        CHECK_ST(accel_tsp1_reg_read(&b, 0, &v), ACCEL_E_UNSUPPORTED);
        CHECK_ST(accel_tsp1_wake_pulse(&b), ACCEL_E_UNSUPPORTED);
    }
}

static void test_boot_echo_info(void)
{
    uint8_t out[64];
    size_t len;
    uint8_t n;
    accel_tsp1_nn_info in;
    setup(256, 128, 3, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.n_ready, 1);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_OK);
    CHECK_EQ(len, 5);
    CHECK_MEM(out, "hello", 5);
    CHECK_ST(accel_tsp1_nn_scan(&R.s, &n, 100), ACCEL_OK);
    CHECK_EQ(n, 3);
    CHECK_EQ(R.s.known_mask, 7);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 5, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(R.m.state[1], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.m.state[2], ACCEL_TSP1_NN_RUNNING);
    CHECK_ST(accel_tsp1_query_nn(&R.s, 2, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 1);
    CHECK_EQ(in.state, ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(in.n_total, 3);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_PAUSE, 1, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_PAUSED);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_FINISH, 4, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[2], ACCEL_TSP1_NN_FINISHED);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 7, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0] + R.m.state[1] + R.m.state[2], 0);
    /* masks checked against known slots: nothing sent */
    {
        uint32_t calls = R.sim.calls;
        CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 8, 100), ACCEL_E_TSP1_MASK);
        CHECK_EQ(R.sim.calls, calls);
        CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_ECHO, 1, 100), ACCEL_E_ARG);
    }
    /* slot 3 is empty: VALID 0, no error; slot 32 is out of range: ERR_ARG */
    CHECK_ST(accel_tsp1_query_nn(&R.s, 3, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 0);
    CHECK_ST(accel_tsp1_query_nn(&R.s, 32, &in, 100), ACCEL_E_TSP1_ERR_ARG);
    /* auto clear: the next command works */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK_EQ(R.m.errors, 1);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

static void test_device_error_paths(void)
{
    uint8_t p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t big[300];
    setup(256, 64, 2, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    ACCEL_MEMSET(big, 0, sizeof big);
    /* ERR_LEN: ECHO whose answer cannot fit the 64-byte response buffer */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, big, 53, NULL, 0, NULL, 100), ACCEL_E_TSP1_ERR_LEN);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, big, 52, NULL, 0, NULL, 100), ACCEL_OK);
    /* ERR_ARG: mask beyond the valid networks (the driver did not scan, so it sends it) */
    p[0] = 4;
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, p, 4, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_ARG);
    /* ERR_BUSY: secure update while a network runs */
    p[0] = 1;
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, p, 4, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE, big, 144, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_BUSY);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, p, 4, NULL, 0, NULL, 100), ACCEL_OK);
    /* ERR_CRYPT: FINISH with no update */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_FINISH, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_CRYPT);
    /* frames the driver would refuse, written raw: ERR_LEN for bad lengths, ERR_ARG for an
       unknown id, ERR_CHECKSUM, ERR_FRAMING */
    {
        uint8_t f[40];
        size_t len;
        unsigned i;
        static const uint16_t ids[4] = {ACCEL_TSP1_NN_INFO, ACCEL_TSP1_SECURE_UPDATE, 0x0011,
                                        ACCEL_TSP1_NN_STOP};
        static const uint16_t want[4] = {ACCEL_TSP1_R_ERR_LEN, ACCEL_TSP1_R_ERR_LEN,
                                         ACCEL_TSP1_R_ERR_ARG, ACCEL_TSP1_R_ERR_LEN};
        for (i = 0; i < 4; i++) {
            accel_tsp1_frame fr;
            size_t used;
            uint8_t rb[32];
            accel_tsp1_encode_frame(f, sizeof f, ACCEL_TSP1_CMD_PREAMBLE, ids[i], 77, big,
                                    i == 1 ? 10u : 3u, &len);
            CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
            accel_sim_advance(&R.sim, 2);
            CHECK_ST(accel_tsp1_buf_read(&R.s.bus, 1, rb, 12), ACCEL_OK);
            accel_tsp1_decoder_reset(&R.s.dec);
            CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
            CHECK_EQ(fr.id, want[i]);
            CHECK_EQ(fr.tid, 77);
            /* error state: an ECHO is discarded until CLEAR_ERROR */
            accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_ECHO, 78, NULL, 0, &len);
            accel_tsp1_buf_write(&R.s.bus, 0, f, len);
            accel_sim_advance(&R.sim, 2);
            CHECK_EQ(accel_fifo_count(&R.m.rspq), 0);
            accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_CLEAR_ERROR, 79, NULL, 0, &len);
            accel_tsp1_buf_write(&R.s.bus, 0, f, len);
            accel_sim_advance(&R.sim, 2);
            CHECK_EQ(R.m.error_state, 0);
        }
        /* checksum */
        accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_ECHO, 90, NULL, 0, &len);
        f[len - 1] ^= 1;
        accel_tsp1_buf_write(&R.s.bus, 0, f, len);
        /* framing: garbage, then a frame cut off by the end of the transaction */
        accel_tsp1_buf_write(&R.s.bus, 0, "zz", 2);
        accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_ECHO, 91, "abc", 3, &len);
        accel_tsp1_buf_write(&R.s.bus, 0, f, len - 1);
        accel_sim_advance(&R.sim, 5);
        CHECK_EQ(R.m.error_state, 1);
        {
            uint8_t rb[12];
            accel_tsp1_frame fr;
            size_t used;
            CHECK_EQ(accel_fifo_count(&R.m.rspq), 12); /* only the first error answers */
            accel_tsp1_buf_read(&R.s.bus, 1, rb, 12);
            CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
            CHECK_EQ(fr.id, ACCEL_TSP1_R_ERR_CHECKSUM);
            CHECK_EQ(fr.tid, 90);
        }
        CHECK_EQ(R.m.discarded >= 2, 1);
        accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_CLEAR_ERROR, 92, NULL, 0, &len);
        accel_tsp1_buf_write(&R.s.bus, 0, f, len);
        accel_tsp1_buf_write(&R.s.bus, 0, f, len - 1); /* cut: ERR_FRAMING with its TID */
        accel_sim_advance(&R.sim, 5);
        {
            uint8_t rb[12];
            accel_tsp1_frame fr;
            size_t used;
            accel_tsp1_buf_read(&R.s.bus, 1, rb, 12);
            CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
            CHECK_EQ(fr.id, ACCEL_TSP1_R_ERR_FRAMING);
            CHECK_EQ(fr.tid, 92);
        }
    }
}

static void test_error_state_pipelining(void)
{
    uint8_t ok[4] = {1, 0, 0, 0}, bad[4] = {0x10, 0, 0, 0};
    uint16_t t[5];
    setup(256, 128, 2, 0, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, ok, 4, &t[0]), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, bad, 4, &t[1]), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, &t[2]), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, ok, 4, &t[3]), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, ok, 4, &t[4]), ACCEL_OK);
    accel_sim_advance(&R.sim, 10);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.n_out, 5);
    CHECK_EQ(R.o_tid[0], t[0]); CHECK_ST(R.o_st[0], ACCEL_OK);
    CHECK_EQ(R.o_tid[1], t[1]); CHECK_ST(R.o_st[1], ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(R.o_resp[1], ACCEL_TSP1_R_ERR_ARG);
    CHECK_ST(R.o_st[2], ACCEL_E_TSP1_DISCARDED);
    CHECK_ST(R.o_st[3], ACCEL_E_TSP1_DISCARDED);
    CHECK_ST(R.o_st[4], ACCEL_E_TSP1_DISCARDED);
    CHECK_EQ(R.m.discarded, 3);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING); /* the STOP never ran */
    /* no auto clear: refused until the caller clears */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_E_TSP1_ERROR_STATE);
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, ok, 4, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.n_out, 6);
}

static void test_response_buffer_full(void)
{
    uint16_t t[6];
    unsigned i;
    setup(256, 40, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    for (i = 0; i < 6; i++)
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789", 10, &t[i]), ACCEL_OK);
    accel_sim_advance(&R.sim, 20);
    /* 22-byte answers: only one fits in 40 bytes; the rest wait in the command queue */
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 22);
    CHECK_EQ(accel_fifo_count(&R.m.cmdq), 5 * 22);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.n_out, 1);
    for (i = 0; i < 20 && R.n_out < 6; i++) {
        accel_sim_advance(&R.sim, 1);
        accel_tsp1_poll(&R.s);
    }
    CHECK_EQ(R.n_out, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ(R.o_tid[i], t[i]);
        CHECK_ST(R.o_st[i], ACCEL_OK);
    }
    /* a full command buffer: submit says busy, nothing lost */
    {
        uint8_t big[200];
        ACCEL_MEMSET(big, 1, sizeof big);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, big, 200, NULL), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, big, 200, NULL), ACCEL_E_BUSY);
    }
    /* a full pending table (depth 8, one kept for the marker) */
    setup(1024, 512, 1, 1, 4, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    for (i = 0; i < 3; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_E_FULL);
}

static void test_async_while_pending(void)
{
    uint16_t id, tid, n;
    uint8_t out[8];
    size_t len;
    setup(256, 48, 1, 1, 8, 0); /* async through the host queue */
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_READY);
    CHECK_EQ(tid, 0);
    CHECK_EQ(n, 1);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_E_EMPTY);
    /* fill the response buffer so asyncs must wait and coalesce on the device */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789ab", 12, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789ab", 12, NULL), ACCEL_OK);
    accel_sim_advance(&R.sim, 5); /* 48 bytes used */
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC); /* tid 1 */
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU); /* tid 2 */
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC); /* tid 3, replaces 1 */
    accel_sim_advance(&R.sim, 5);
    CHECK_EQ(R.m.async_coalesced, 1);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "z", 1, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK_EQ(R.n_out, 3);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    CHECK_EQ(tid, 2);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_ERR_ECC);
    CHECK_EQ(tid, 3);
    CHECK_EQ(R.s.async_gaps, 1); /* TID 1 was coalesced on the device: reported */
    CHECK_EQ(R.s.async_nonmono, 0);
    /* an async message does not put the queue into the error state */
    CHECK_EQ(R.m.error_state, 0);
    /* host-side coalescing keeps a count */
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    accel_sim_advance(&R.sim, 2);
    accel_tsp1_poll(&R.s);
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    accel_sim_advance(&R.sim, 2);
    accel_tsp1_poll(&R.s);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    CHECK_EQ(tid, 5);
    CHECK_EQ(n, 2);
    CHECK_EQ(R.s.async_gaps, 1);
}

/* ids outside the seed and answers to nothing pending are surfaced, never dropped */
static void test_unknown_and_stray(void)
{
    uint8_t f[24];
    size_t len;
    uint16_t id, tid, n;
    uint16_t t;
    setup(256, 128, 1, 1, 8, 0);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    accel_tsp1_async_take(&R.s, &id, &tid, &n); /* READY */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, &t), ACCEL_OK);
    /* the firmware answers with an id the seed does not list (0x9005), then a stray DATA */
    accel_tsp1_encode_frame(f, sizeof f, ACCEL_TSP1_RSP_PREAMBLE, 0x9005, t, "?", 1, &len);
    accel_fifo_write(&R.m.rspq, f, len);
    accel_tsp1_encode_frame(f, sizeof f, ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA, 4321, NULL, 0,
                            &len);
    accel_fifo_write(&R.m.rspq, f, len);
    accel_sim_advance(&R.sim, 3);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.n_out, 1); /* the ECHO still completed by its own DATA */
    CHECK_ST(R.o_st[0], ACCEL_OK);
    CHECK_EQ(R.s.stray, 1);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_DATA); /* newest unknown wins the unknown slot, counted */
    CHECK_EQ(tid, 4321);
    CHECK_EQ(n, 2);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_E_EMPTY);
    CHECK_EQ(R.m.error_state, 0);
    { /* an NN_INFO answer one byte too long is malformed, never cut to its first 8 bytes */
        static const uint8_t nine[9] = { 1, 0, 3, 1, 1, 2, 3, 0, 0 };
        accel_tsp1_nn_info in;
        accel_tsp1_encode_frame(f, sizeof f, ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_NN_INFO,
                                R.s.next_tid, nine, 9, &len);
        accel_fifo_write(&R.m.rspq, f, len);
        CHECK_ST(accel_tsp1_query_nn(&R.s, 0, &in, 100), ACCEL_E_MALFORMED);
        CHECK_ST(accel_tsp1_query_nn(&R.s, 0, &in, 100), ACCEL_OK); /* the model's own */
    }
}

static void add_fault(accel_sim_fault_kind k, unsigned dir, uint32_t skip, size_t at)
{
    accel_sim_fault f;
    ACCEL_MEMSET(&f, 0, sizeof f);
    f.kind = k;
    f.ops = ACCEL_SIM_OP_SPI;
    f.dir = dir;
    f.skip = skip;
    f.count = 1;
    f.at = at;
    f.mask = 0x04;
    CHECK_ST(accel_sim_add_fault(&R.sim, &f), ACCEL_OK);
}

/* SPI calls of one submit: level (hdr, data), write (hdr, data) -> the frame is call 4 */
static void test_faults(void)
{
    uint8_t out[16];
    size_t len;
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    /* flip in the payload of the command frame: ERR_CHECKSUM for that very command */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 9);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_ERR_CHECKSUM);
    accel_sim_clear_faults(&R.sim);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100), ACCEL_OK);
    /* a dropped byte: the frame is cut off: ERR_FRAMING */
    add_fault(ACCEL_SIM_DROP, ACCEL_SIM_TO_DEVICE, 3, 10);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_ERR_FRAMING);
    accel_sim_clear_faults(&R.sim);
    /* a flip in the TID field: the error cannot be matched: unknown outcome */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 6);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    accel_sim_clear_faults(&R.sim);
    /* the bus fails the write: the submit fails, no outcome, nothing pending */
    {
        accel_sim_fault f;
        unsigned before = R.n_out;
        ACCEL_MEMSET(&f, 0, sizeof f);
        f.kind = ACCEL_SIM_FAIL;
        f.ops = ACCEL_SIM_OP_SPI;
        f.skip = 2; /* the header of the buffer write: the data part is then never sent */
        f.count = 1;
        accel_sim_add_fault(&R.sim, &f);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL), ACCEL_E_IO);
        CHECK_EQ(accel_ring_count(&R.s.pend), 0);
        CHECK_EQ(R.n_out, before);
        accel_sim_clear_faults(&R.sim);
    }
    /* a flipped answer: the DATA is lost; the marker behind proves it ran */
    {
        uint16_t t;
        unsigned i;
        add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 0, 8);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "y", 1, NULL), ACCEL_OK);
        accel_sim_advance(&R.sim, 5);
        accel_sim_clear_faults(&R.sim);
        /* first data read of the response buffer is the level register; flip hits it */
        for (i = 0; i < 10; i++) accel_tsp1_poll(&R.s), accel_sim_advance(&R.sim, 1);
        CHECK(R.n_out >= 2);
    }
    /* a flipped response frame: lost answer, then the next answer reveals it */
    {
        unsigned before = R.n_out;
        uint16_t t1, t2;
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t1), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "y", 1, &t2), ACCEL_OK);
        accel_sim_advance(&R.sim, 5);
        add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 3, 9); /* 4th SPI call: data read */
        accel_tsp1_poll(&R.s);
        accel_sim_clear_faults(&R.sim);
        CHECK_EQ(R.n_out, before + 2);
        CHECK_EQ(R.o_tid[before], t1);
        CHECK_ST(R.o_st[before], ACCEL_E_TSP1_RESPONSE_LOST);
        CHECK_ST(R.o_st[before + 1], ACCEL_OK);
        CHECK(R.s.dec.dropped[ACCEL_TSP1_DROP_CRC] > 0);
    }
    /* a device that stops answering: the command times out, exactly once */
    {
        unsigned before = R.n_out;
        R.m.exec_per_ms = 0;
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL, 0, NULL, 50), ACCEL_E_TIMEOUT);
        CHECK_EQ(R.n_out, before); /* the caller gave up; the command is still pending */
        CHECK_EQ(accel_ring_count(&R.s.pend) >= 1, 1);
        accel_sim_advance(&R.sim, 300);
        accel_tsp1_poll(&R.s);
        CHECK_EQ(R.n_out, before + 1);
        CHECK_ST(R.o_st[before], ACCEL_E_TIMEOUT);
        R.m.exec_per_ms = 2;
    }
}

static void test_reboot_sleep_wake(void)
{
    uint8_t ok[4] = {1, 0, 0, 0};
    uint16_t id, tid, n;
    setup(256, 128, 2, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, ok, 4, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.s.last_async, 1);
    R.m.exec_per_ms = 0; /* keep the next commands queued on the device */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_OK);
    R.m.exec_per_ms = 2;
    CHECK_ST(accel_tsp1_reboot(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.n_ready, 2);
    CHECK_EQ(R.s.last_async, 0); /* TIDs restart after a reboot */
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.m.irq_mask, 2);
    CHECK_EQ(R.s.outcomes, R.n_out);
    /* sleep, refuse while asleep, wake */
    CHECK_ST(accel_tsp1_sleep(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_ASLEEP);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_E_TSP1_ASLEEP);
    CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.n_ready, 3);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    (void)id; (void)tid; (void)n;
    /* sleep refuses with commands pending */
    R.m.exec_per_ms = 0;
    accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL);
    CHECK_ST(accel_tsp1_sleep(&R.s, 100), ACCEL_E_BUSY);
    R.m.exec_per_ms = 2;
}

/* ---------------------------------------------------------------- secure update */
static uint8_t image[144 * 7];
static uint32_t prog_last;
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off + n > sizeof image) return ACCEL_E_TRUNCATED;
    ACCEL_MEMCPY(dst, image + off, n);
    return ACCEL_OK;
}
static void img_prog(void *u, uint32_t done, uint32_t total)
{
    (void)u;
    (void)total;
    prog_last = done;
}

static void reboot_at_288(void *u, uint32_t done, uint32_t total)
{
    (void)u;
    (void)total;
    if (done == 288) {
        uint8_t f[12];
        size_t len;
        accel_tsp1_encode_cmd(f, sizeof f, ACCEL_TSP1_REBOOT, 999, NULL, 0, &len);
        accel_tsp1_buf_write(&R.s.bus, 0, f, len);
    }
}

static void upd_init(accel_tsp1_update *u, uint16_t chunks)
{
    unsigned i;
    for (i = 0; i < sizeof image; i++) image[i] = (uint8_t)(i * 7u);
    ACCEL_MEMSET(u, 0, sizeof *u);
    u->read = img_read;
    u->progress = img_prog;
    u->total = sizeof image;
    u->chunks = chunks;
    prog_last = 0;
}

static void test_update(void)
{
    accel_tsp1_update u;
    uint8_t ok[4] = {1, 0, 0, 0};
    setup(512, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(u.position, sizeof image);
    CHECK_EQ(prog_last, sizeof image);
    CHECK_EQ(R.m.fw_version, 1);
    CHECK_EQ(R.m.fw_valid, 1);
    CHECK_EQ(R.m.upd_crc, accel_crc32(image, sizeof image));
    CHECK_EQ(R.n_ready, 2);
    /* chunks sized to the tx buffer (600 bytes: 4 x 144) */
    upd_init(&u, 0);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 2);
    /* refused while a network runs (known to the driver) */
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 100), ACCEL_OK);
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_BUSY);
    /* ... and ERR_BUSY from the device when the driver did not know */
    R.s.running_mask = 0;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_BUSY);
    CHECK_EQ(u.position, 0);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, ok, 4, NULL, 0, NULL, 100), ACCEL_OK);
    /* NVM write of chunk 3 (in command 2 = chunks 3,4) fails: reported on command 3; blamed on
       command 2, so the resumable position is 2 x 144 */
    upd_init(&u, 2);
    u.no_cancel = 1;
    R.m.mem_fail_chunk = 3;
    R.m.upd_chunks = 0;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_MEM);
    CHECK_EQ(u.position, 288);
    CHECK_EQ(R.m.fw_valid, 0); /* erased */
    /* late ERR_MEM on the last command surfaces at FINISH */
    R.m.mem_fail_chunk = 7;
    R.m.upd_chunks = 0;
    upd_init(&u, 2);
    u.no_cancel = 1;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_MEM);
    CHECK_EQ(u.position, 864); /* start of the last command (chunk 7) */
    R.m.mem_fail_chunk = 0;
    /* ERR_ARG on a chunk header; cancel follows, position back to 0 */
    R.m.arg_fail_chunk = 2;
    R.m.upd_chunks = 0;
    upd_init(&u, 1);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(u.position, 0);
    CHECK_EQ(R.m.upd_active, 0); /* cancelled */
    R.m.arg_fail_chunk = 0;
    /* ERR_CRYPT at FINISH */
    R.m.crypt_fail = 1;
    upd_init(&u, 3);
    u.no_cancel = 1;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_CRYPT);
    CHECK_EQ(u.position, 0);
    R.m.crypt_fail = 0;
    /* stopped part-way (no reboot), then resumed from the position it reported */
    {
        uint32_t v0 = R.m.fw_version;
        upd_init(&u, 1);
        u.total = 144 * 3;
        u.no_reboot = 1;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
        CHECK_EQ(u.position, 432);
        u.total = sizeof image;
        u.no_reboot = 0;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
        CHECK_EQ(u.position, sizeof image);
        CHECK_EQ(R.m.fw_version, v0 + 1);
    }
    /* the device reboots in the middle (a REBOOT slipped in from elsewhere): the command behind
       it is discarded, the position stays resumable, and resuming finishes the image */
    {
        uint32_t v0 = R.m.fw_version;
        upd_init(&u, 2);
        u.progress = reboot_at_288;
        u.no_cancel = 1;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_DISCARDED);
        CHECK_EQ(u.position, 288);
        CHECK_EQ(R.s.ready, 1);
        u.progress = img_prog;
        CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
        CHECK_EQ(u.position, sizeof image);
        CHECK_EQ(R.m.fw_version, v0 + 1);
        CHECK_EQ(R.m.upd_crc, accel_crc32(image, sizeof image));
    }
    /* argument checks */
    upd_init(&u, 1);
    u.total = 100;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_ARG);
    upd_init(&u, 5); /* 5 x 144 does not fit the 600-byte tx buffer */
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

static void test_i2c_path(void)
{
    uint8_t out[8];
    size_t len;
    setup(256, 128, 1, 1, 8, 1);
    R.s.bus.i2c = 1;
    R.s.bus.addr = 0x20;
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "i2c", 3, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK_EQ(len, 3);
    CHECK_MEM(out, "i2c", 3);
}

/* ---------------------------------------------------------------- property test */
static uint32_t rs = 99u;
static uint32_t rnd(void)
{
    rs = rs * 1664525u + 1013904223u;
    return rs >> 8;
}
static uint8_t exec_state[65536]; /* 1 executed, 2 discarded by the device */
static uint8_t outcome_n[65536];
static accel_status outcome_st[65536];
static uint8_t submitted[65536];

static void p_exec(void *u, uint16_t tid, uint16_t id, uint16_t rid)
{
    (void)u;
    if (id == 0) return; /* error entries */
    exec_state[tid] = rid == ACCEL_TSP1_TID_NONE ? 2 : 1;
}
static void p_outcome(void *u, const accel_tsp1_outcome *o)
{
    (void)u;
    outcome_n[o->tid]++;
    outcome_st[o->tid] = o->status;
}
static unsigned p_async;
static void p_async_cb(void *u, const accel_tsp1_frame *f)
{
    (void)u;
    if (f->id == ACCEL_TSP1_R_ASYNC_ERR_ECC || f->id == ACCEL_TSP1_R_ASYNC_ERR_NPU) p_async++;
}

static void test_property_random(void)
{
    unsigned round;
    for (round = 0; round < 20; round++) {
        unsigned step, nsub = 0, i, raised = 0;
        uint8_t pl[200];
        ACCEL_MEMSET(exec_state, 0, sizeof exec_state);
        ACCEL_MEMSET(outcome_n, 0, sizeof outcome_n);
        ACCEL_MEMSET(submitted, 0, sizeof submitted);
        p_async = 0;
        setup(300, 160, 3, (uint8_t)(round & 1u), 8, 1); /* odd rounds clear automatically */
        R.s.on_outcome = p_outcome;
        R.s.on_async = p_async_cb;
        R.m.on_exec = p_exec;
        CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
        for (step = 0; step < 400; step++) {
            unsigned a = rnd() % 16;
            uint16_t tid;
            accel_status st = ACCEL_E_ARG;
            for (i = 0; i < sizeof pl; i++) pl[i] = (uint8_t)rnd();
            if (a < 4) {
                st = accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, pl, rnd() % 60, &tid);
            } else if (a < 6) {
                pl[0] = (uint8_t)(rnd() % 40);
                pl[1] = pl[2] = pl[3] = 0;
                st = accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, pl, 4, &tid);
            } else if (a < 8) {
                pl[0] = (uint8_t)(rnd() % 12);
                pl[1] = pl[2] = pl[3] = 0;
                st = accel_tsp1_submit(&R.s, (uint16_t)(ACCEL_TSP1_NN_START + rnd() % 4), pl, 4,
                                       &tid);
            } else if (a == 8) {
                st = accel_tsp1_submit(&R.s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, &tid);
            } else if (a == 9) {
                accel_tsp1_model_raise(&R.m, (uint16_t)(ACCEL_TSP1_R_ASYNC_ERR_ECC + rnd() % 2));
                raised++;
            } else if (a == 10 && R.sim.nfaults < ACCEL_SIM_MAX_FAULTS) {
                accel_sim_fault f;
                ACCEL_MEMSET(&f, 0, sizeof f);
                f.kind = (accel_sim_fault_kind)(ACCEL_SIM_FLIP + rnd() % 4);
                f.ops = ACCEL_SIM_OP_SPI;
                f.dir = rnd() % 2 ? ACCEL_SIM_TO_DEVICE : ACCEL_SIM_FROM_DEVICE;
                f.skip = rnd() % 8;
                f.count = 1 + rnd() % 4;
                f.at = 3 + rnd() % 10; /* never the assumed transaction header (bytes 0-2) */
                f.mask = (uint8_t)(1u << (rnd() % 8));
                accel_sim_add_fault(&R.sim, &f);
            } else if (a == 11) {
                accel_sim_clear_faults(&R.sim);
                if (R.s.dev_error) accel_tsp1_clear_error(&R.s);
            } else {
                accel_tsp1_poll(&R.s);
                accel_sim_advance(&R.sim, rnd() % 4);
            }
            if (st == ACCEL_OK) {
                CHECK(!submitted[tid]);
                submitted[tid] = 1;
                nsub++;
            }
        }
        /* drain without faults; a final async exposes any lost earlier one as a gap */
        accel_sim_clear_faults(&R.sim);
        if (R.s.dev_error) accel_tsp1_clear_error(&R.s);
        accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU);
        raised++;
        for (i = 0; i < 1000 && (accel_ring_count(&R.s.pend) || R.m.apend); i++) {
            accel_tsp1_poll(&R.s);
            accel_sim_advance(&R.sim, 1);
        }
        accel_tsp1_poll(&R.s);
        CHECK_EQ(accel_ring_count(&R.s.pend), 0);
        for (i = 0; i < 65536; i++) {
            if (submitted[i]) {
                CHECK_EQ(outcome_n[i], 1); /* exactly one outcome */
                if (outcome_n[i] == 1 && outcome_st[i] == ACCEL_OK)
                    CHECK_EQ(exec_state[i], 1); /* "ok" only for what the device ran */
                if (outcome_n[i] == 1 && outcome_st[i] == ACCEL_E_TSP1_DISCARDED)
                    CHECK(exec_state[i] != 1);
            } else {
                CHECK_EQ(outcome_n[i], 0);
            }
        }
        CHECK(nsub > 50);
        /* no async message lost: delivered + reported gaps == raised */
        CHECK_EQ(p_async + R.s.async_gaps, raised);
        CHECK_EQ(R.s.async_nonmono, 0);
    }
}

int main(void)
{
    RUN(test_bus_layer);
    RUN(test_boot_echo_info);
    RUN(test_device_error_paths);
    RUN(test_error_state_pipelining);
    RUN(test_response_buffer_full);
    RUN(test_async_while_pending);
    RUN(test_unknown_and_stray);
    RUN(test_faults);
    RUN(test_reboot_sleep_wake);
    RUN(test_update);
    RUN(test_i2c_path);
    RUN(test_property_random);
    return TEST_END();
}
