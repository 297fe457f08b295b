/* test_tsp1_driver.c - TSP1 bus layer, device model and host driver, driven through ports/sim with
 * injected faults. Every outcome the driver reports is checked against the model's own log of
 * what it did with that command (R.fate). Regression tests for three classes of bug: a discarded
 * command reported done after a lost error response, a flipped N_BYTES holding later
 * responses hostage, commands sent during a reboot; and the secure update end to end:
 * resume positions, image verification at FINISH, the ROM bootloader after an unfinished update.
 * The long random fault test is test_tsp1_soak.c. */
/* only the tsp1 section (and common): the other sections are not needed, and their absence
   keeps this sanitized build short */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "tsp1_rig.h"

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
    CHECK_ST(accel_tsp1_reg_read(&R.s.bus, ACCEL_TSP1_REG_FW_VERSION, &v), ACCEL_OK);
    CHECK_EQ(v, 1); /* firmware, not the ROM bootloader */
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
        CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_SECURE_UPDATE_CANCEL, 5, NULL, 0, f, sizeof f, &len), ACCEL_OK);
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
        CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 0), ACCEL_E_TIMEOUT); /* queued */
        R.m.exec_per_ms = 2;
        CHECK_ST(accel_port_wait_irq(&R.sim.port, 0, 5), ACCEL_OK); /* consumed */
        CHECK_EQ(accel_fifo_count(&R.m.cmdq), 0);
        CHECK_EQ(R.fate[5], ACCEL_TSP1_MODEL_RAN);
    }
    CHECK_ST(accel_tsp1_irq_config(&R.s.bus, 3, 0, 20), ACCEL_OK);
    {
        uint8_t b[16];
        CHECK_ST(accel_tsp1_buf_read(&R.s.bus, ACCEL_TSP1_BUF_RSP, b, 16), ACCEL_OK);
        CHECK_EQ(b[0], rsp_pre[0]);
        CHECK_EQ(b[1], rsp_pre[1]);
        CHECK_EQ(b[ACCEL_TSP1_BIG_ENDIAN ? 3 : 2], 0x01); /* ASYNC_READY 0xA001 */
        CHECK_EQ(b[ACCEL_TSP1_BIG_ENDIAN ? 2 : 3], 0xA0);
        CHECK_EQ(b[12], 0); /* past the fill level */
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, b, 0), ACCEL_E_ZERO_LENGTH);
    }
    /* a port without SPI; I2C selected without ACCEL_TSP1_I2C */
    {
        accel_port none;
        accel_tsp1_bus b;
        memset(&none, 0, sizeof none);
        memset(&b, 0, sizeof b);
        b.port = &none;
        CHECK_ST(accel_tsp1_reg_read(&b, 0, &v), ACCEL_E_UNSUPPORTED);
        CHECK_ST(accel_tsp1_wake_pulse(&b), ACCEL_E_UNSUPPORTED);
        b.port = &R.sim.port;
        b.i2c = 1;
        CHECK_ST(accel_tsp1_reg_read(&b, 0, &v), ACCEL_E_UNSUPPORTED);
    }
    /* open needs a clock for its deadlines */
    {
        accel_port noclock = R.sim.port;
        accel_tsp1_config c;
        accel_tsp1 s2;
        memset(&c, 0, sizeof c);
        noclock.now_ms = NULL;
        c.bus.port = &noclock;
        c.mem = R.mem;
        c.mem_len = sizeof R.mem;
        c.depth = 32;
        c.cmd_payload = 576;
        c.rsp_payload = 588;
        CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_E_UNSUPPORTED);
        c.bus.port = &R.sim.port;
        c.depth = 1; /* none left beside the driver's own CLEAR_ERROR */
        CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_E_ARG);
    }
}

/* The bytes of one write transaction to the command buffer, as the driver sent them. */
static uint8_t wire[700];
static size_t wire_len;
static int wire_next_is_cmd_write;
static void trace_writes(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op != ACCEL_SIM_OP_SPI) return;
    if (wire_next_is_cmd_write && ev->data && ev->len <= sizeof wire) {
        memcpy(wire, ev->data, ev->len);
        wire_len = ev->len;
        wire_next_is_cmd_write = 0;
    } else if (ev->data && ev->len == 2 && ev->data[0] == ACCEL_TSP1_SPI_OP_BUF_WRITE &&
               ev->data[1] == ACCEL_TSP1_BUF_CMD) {
        wire_next_is_cmd_write = 1;
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
    CHECK_EQ(R.fate[R.o_tid[0]], ACCEL_TSP1_MODEL_RAN);
    CHECK_ST(accel_tsp1_nn_scan(&R.s, &n, 100), ACCEL_OK);
    CHECK_EQ(n, 3);
    CHECK_EQ(R.s.known_mask, 7);
    /* NN_START answers nothing: its marker ECHO goes in the same transaction, right behind it */
    accel_sim_set_trace(&R.sim, trace_writes, NULL);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 5, 100), ACCEL_OK);
    accel_sim_set_trace(&R.sim, NULL, NULL);
    REQUIRE_EQ(wire_len, 16 + 12);
    {
        accel_tsp1_decoder d;
        accel_tsp1_frame f;
        uint8_t mem[40];
        size_t used;
        const uint16_t t = R.o_tid[R.n_out - 1];
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_CMD_PREAMBLE), ACCEL_OK);
        CHECK_ST(accel_tsp1_decoder_feed(&d, wire, wire_len, &used, &f), ACCEL_OK);
        CHECK_EQ(f.id, ACCEL_TSP1_NN_START);
        CHECK_EQ(f.tid, t);
        CHECK_ST(accel_tsp1_decoder_feed(&d, wire + used, wire_len - used, &used, &f), ACCEL_OK);
        CHECK_EQ(f.id, ACCEL_TSP1_ECHO);
        CHECK_EQ(f.tid, t); /* the marker carries the command's TID */
        CHECK_EQ(f.n_bytes, 0);
        CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN);
        CHECK_EQ(R.fate_resp[t], 0);
        CHECK_EQ(R.mfate[t], ACCEL_TSP1_MODEL_RAN);
        CHECK_EQ(R.mfate_resp[t], ACCEL_TSP1_R_DATA);
    }
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(R.m.state[1], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.m.state[2], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(R.s.running_mask, 5);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 2, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 1);
    CHECK_EQ(in.state, ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(in.n_total, 3);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_PAUSE, 1, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_PAUSED);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_FINISH, 4, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[2], ACCEL_TSP1_NN_FINISHED);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 7, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0] + R.m.state[1] + R.m.state[2], 0);
    CHECK_EQ(R.s.running_mask, 0);
    /* masks checked against known slots: nothing sent */
    {
        uint32_t calls = R.sim.calls;
        CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 8, 100), ACCEL_E_TSP1_MASK);
        CHECK_EQ(R.sim.calls, calls);
        CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_ECHO, 1, 100), ACCEL_E_ARG);
    }
    /* slot 3 is empty: VALID 0, no error; slot 32 is out of range: ERR_ARG */
    CHECK_ST(accel_tsp1_nn_query(&R.s, 3, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 0);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 32, &in, 100), ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(R.fate_resp[R.o_tid[R.n_out - 1]], ACCEL_TSP1_R_ERR_ARG);
    /* auto clear: the next command works */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, out, sizeof out, &len, 100), ACCEL_OK);
    CHECK_EQ(R.m.errors, 1);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

static void test_device_error_paths(void)
{
    uint8_t p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t big[300];
    const uint8_t *m4 = mask4(p + 4, 4), *m1 = mask4(p, 1);
    setup(256, 64, 2, 1, 8, 1);
    rig_ready();
    memset(big, 0, sizeof big);
    /* ERR_LEN: ECHO whose answer cannot fit the 64-byte response buffer */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, big, 53, NULL, 0, NULL, 100), ACCEL_E_TSP1_ERR_LEN);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, big, 52, NULL, 0, NULL, 100), ACCEL_OK);
    /* ERR_ARG: mask beyond the valid networks (the driver did not scan, so it sends it) */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, m4, 4, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_ARG);
    /* ERR_BUSY: secure update while a network runs */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, m1, 4, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE, big, 144, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_BUSY);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, m1, 4, NULL, 0, NULL, 100), ACCEL_OK);
    /* ERR_CRYPT: FINISH with no update */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_FINISH, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_CRYPT);
    drain(10); /* the driver's own CLEAR_ERROR and its marker */
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 0);
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
            CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ids[i], 77, big, i == 1 ? 10u : 3u, f,
                                    sizeof f, &len), ACCEL_OK);
            CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
            accel_sim_advance(&R.sim, 2);
            CHECK_ST(accel_tsp1_buf_read(&R.s.bus, 1, rb, 12), ACCEL_OK);
            accel_tsp1_decoder_reset(&R.s.dec);
            CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
            CHECK_EQ(fr.id, want[i]);
            CHECK_EQ(fr.tid, 77);
            CHECK_EQ(R.fate[77], ACCEL_TSP1_MODEL_RAN);
            CHECK_EQ(R.fate_resp[77], want[i]);
            /* error state: an ECHO is discarded until CLEAR_ERROR */
            CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 78, NULL, 0, f, sizeof f, &len), ACCEL_OK);
            CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
            accel_sim_advance(&R.sim, 2);
            CHECK_EQ(accel_fifo_count(&R.m.rspq), 0);
            CHECK_EQ(R.fate[78], ACCEL_TSP1_MODEL_DISCARDED);
            CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, 79, NULL, 0, f, sizeof f, &len), ACCEL_OK);
            CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
            accel_sim_advance(&R.sim, 2);
            CHECK_EQ(R.m.error_state, 0);
            R.fate[77] = R.fate[78] = 0; /* the same TIDs again next round */
        }
        /* checksum */
        CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 90, NULL, 0, f, sizeof f, &len), ACCEL_OK);
        f[len - 1] ^= 1;
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
        /* framing: garbage, then a frame cut off by the end of the transaction */
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, "zz", 2), ACCEL_OK);
        CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 91, "abc", 3, f, sizeof f, &len), ACCEL_OK);
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len - 1), ACCEL_OK);
        accel_sim_advance(&R.sim, 5);
        CHECK_EQ(R.m.error_state, 1);
        CHECK_EQ(R.fate[90], 0); /* rejected: never a command the model ran or discarded */
        /* the checksum piece, the bytes after it up to no preamble, "zz", the cut frame */
        CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_REJECTED], 4);
        {
            /* the spec: a partially received command is discarded AND an error is produced,
               so every rejected piece answers, in the error state too */
            static const uint16_t want_id[4] = {ACCEL_TSP1_R_ERR_CHECKSUM, ACCEL_TSP1_R_ERR_FRAMING,
                                                ACCEL_TSP1_R_ERR_FRAMING, ACCEL_TSP1_R_ERR_FRAMING};
            static const uint16_t want_tid[4] = {90, ACCEL_TSP1_TID_NONE, ACCEL_TSP1_TID_NONE, 91};
            uint8_t rb[12];
            accel_tsp1_frame fr;
            size_t used;
            unsigned k;
            CHECK_EQ(accel_fifo_count(&R.m.rspq), 48);
            for (k = 0; k < 4; k++) {
                CHECK_ST(accel_tsp1_buf_read(&R.s.bus, 1, rb, 12), ACCEL_OK);
                CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
                CHECK_EQ(fr.id, want_id[k]);
                CHECK_EQ(fr.tid, want_tid[k]);
            }
        }
        CHECK_EQ(R.m.discarded >= 2, 1);
        CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, 92, NULL, 0, f, sizeof f, &len), ACCEL_OK);
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len), ACCEL_OK);
        CHECK_ST(accel_tsp1_buf_write(&R.s.bus, 0, f, len - 1), ACCEL_OK); /* cut: ERR_FRAMING with its TID */
        accel_sim_advance(&R.sim, 5);
        {
            uint8_t rb[12];
            accel_tsp1_frame fr;
            size_t used;
            CHECK_ST(accel_tsp1_buf_read(&R.s.bus, 1, rb, 12), ACCEL_OK);
            CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
            CHECK_EQ(fr.id, ACCEL_TSP1_R_ERR_FRAMING);
            CHECK_EQ(fr.tid, 92);
        }
    }
}

static void test_error_state_pipelining(void)
{
    uint8_t okb[4], badb[4];
    const uint8_t *ok = mask4(okb, 1), *bad = mask4(badb, 0x10);
    uint16_t t[5];
    unsigned i;
    setup(256, 128, 2, 0, 8, 1);
    rig_ready();
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
    /* against the model's log */
    CHECK_EQ(R.fate[t[0]], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.fate_resp[t[0]], 0);
    CHECK_EQ(R.fate_resp[t[1]], ACCEL_TSP1_R_ERR_ARG);
    CHECK_EQ(R.mfate[t[1]], ACCEL_TSP1_MODEL_DISCARDED); /* its marker */
    for (i = 2; i < 5; i++) CHECK_EQ(R.fate[t[i]], ACCEL_TSP1_MODEL_DISCARDED);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING); /* the STOP never ran */
    /* no auto clear: refused until the caller clears */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_E_TSP1_ERROR_STATE);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK); /* nothing is sent on its own */
    CHECK_EQ(R.m.error_state, 1);
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_STOP, ok, 4, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.n_out, 6); /* the driver's own CLEAR_ERROR reports nothing */
}

static void test_response_buffer_full(void)
{
    uint16_t t[6];
    unsigned i;
    setup(256, 40, 1, 1, 8, 1);
    rig_ready();
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
        (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    }
    CHECK_EQ(R.n_out, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ(R.o_tid[i], t[i]);
        CHECK_ST(R.o_st[i], ACCEL_OK);
    }
    /* a full command buffer: submit says busy, nothing lost */
    {
        uint8_t big[200];
        memset(big, 1, sizeof big);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, big, 200, NULL), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, big, 200, NULL), ACCEL_E_BUSY);
        CHECK_EQ(accel_ring_count(&R.s.pend), 1);
    }
    /* a full pending table (depth 4, one kept for the driver's CLEAR_ERROR) */
    setup(1024, 512, 1, 1, 4, 1);
    rig_ready();
    for (i = 0; i < 3; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_E_FULL);
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK); /* the kept slot */
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_E_FULL);
    drain(20);
    CHECK_EQ(R.n_out, 3);
    for (i = 0; i < 3; i++) CHECK_ST(R.o_st[i], ACCEL_OK);
}

static void test_async_while_pending(void)
{
    uint16_t id, tid, n;
    uint8_t out[8];
    size_t len;
    setup(256, 48, 1, 1, 8, 0); /* async through the host queue */
    rig_ready();
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_READY);
    CHECK_EQ(tid, 0);
    CHECK_EQ(n, 1);
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_E_EMPTY);
    /* fill the response buffer so asyncs must wait and coalesce on the device */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789ab", 12, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789ab", 12, NULL), ACCEL_OK);
    accel_sim_advance(&R.sim, 5); /* 48 bytes used */
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC), ACCEL_OK); /* tid 1 */
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU), ACCEL_OK); /* tid 2 */
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC), ACCEL_OK); /* tid 3, replaces 1 */
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
    CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_ASYNC], 3); /* READY, NPU, ECC placed in the queue */
    /* an async message does not put the queue into the error state */
    CHECK_EQ(R.m.error_state, 0);
    /* host-side coalescing keeps a count */
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU), ACCEL_OK);
    accel_sim_advance(&R.sim, 2);
    (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU), ACCEL_OK);
    accel_sim_advance(&R.sim, 2);
    (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK);
    CHECK_EQ(id, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    CHECK_EQ(tid, 5);
    CHECK_EQ(n, 2);
    CHECK_EQ(R.s.async_gaps, 1);
}

/* ids outside the documentation and answers to nothing pending are surfaced, never dropped */
static void test_unknown_and_stray(void)
{
    uint8_t f[24];
    size_t len;
    uint16_t id, tid, n;
    uint16_t t;
    setup(256, 128, 1, 1, 8, 0);
    rig_ready();
    CHECK_ST(accel_tsp1_async_take(&R.s, &id, &tid, &n), ACCEL_OK); /* READY */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, &t), ACCEL_OK);
    /* the firmware answers with an id the documentation does not list (0x9005), then a stray DATA */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x9005, t, "?", 1, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA, 4321, NULL, 0, f, sizeof f,
                            &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
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
        CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_NN_INFO, R.s.next_tid, nine,
                                9, f, sizeof f, &len), ACCEL_OK);
        CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
        CHECK_ST(accel_tsp1_nn_query(&R.s, 0, &in, 100), ACCEL_E_MALFORMED);
        /* the model's own answer to it arrives after: an answer to nothing pending */
        CHECK_ST(accel_tsp1_nn_query(&R.s, 0, &in, 100), ACCEL_OK);
        CHECK_EQ(R.s.stray, 2);
    }
    /* an answer with a pending TID but the wrong id */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, &t), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_NN_INFO, t, "12345678", 8,
                            f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    CHECK_ST(R.o_st[R.n_out - 1], ACCEL_E_TSP1_UNEXPECTED);
}

/* SPI calls of one submit: level (hdr, data), write (hdr, data) -> the frame is call 4 */
static void test_faults(void)
{
    uint8_t out[16];
    size_t len;
    setup(256, 128, 1, 1, 8, 1);
    rig_ready();
    /* a flip in the payload of the command frame: the device answers ERR_CHECKSUM, whose TID
       comes from a header that may be damaged: the outcome is unknown, the error attached */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 9);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.o_resp[R.n_out - 1], ACCEL_TSP1_R_ERR_CHECKSUM);
    CHECK_EQ(R.fate[R.o_tid[R.n_out - 1]], 0); /* truth: rejected, it never ran */
    accel_sim_clear_faults(&R.sim);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100), ACCEL_OK);
    /* a dropped byte: the frame is cut off: ERR_FRAMING, unknown outcome */
    add_fault(ACCEL_SIM_DROP, ACCEL_SIM_TO_DEVICE, 3, 10);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.o_resp[R.n_out - 1], ACCEL_TSP1_R_ERR_FRAMING);
    accel_sim_clear_faults(&R.sim);
    /* a flip in the TID field: the error names a TID nobody sent */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 6);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 100),
             ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    accel_sim_clear_faults(&R.sim);
    /* the marker damaged (a flip in its CRC): the device ran the command, then answers
       ERR_CHECKSUM with the very TID of the command. Never blamed on it. */
    {
        uint8_t m1b[4];
        const uint8_t *m1 = mask4(m1b, 1);
        uint16_t t = R.s.next_tid;
        add_fault_mask(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 16 + 9, 0x01);
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_START, m1, 4, NULL, 0, NULL, 100),
                 ACCEL_E_TSP1_UNKNOWN_OUTCOME);
        CHECK_EQ(R.o_tid[R.n_out - 1], t);
        CHECK_EQ(R.o_resp[R.n_out - 1], ACCEL_TSP1_R_ERR_CHECKSUM);
        CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN); /* it ran: ERR_CHECKSUM would be a lie */
        CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
        accel_sim_clear_faults(&R.sim);
    }
    /* the bus fails the level read: nothing was sent, the submit fails, nothing pending */
    {
        unsigned before = R.n_out;
        drain(10);
        add_fault(ACCEL_SIM_FAIL, 0, 0, 0);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL), ACCEL_E_IO);
        CHECK_EQ(accel_ring_count(&R.s.pend), 0);
        CHECK_EQ(R.n_out, before);
        accel_sim_clear_faults(&R.sim);
    }
    /* the bus fails the write itself: part of it may have arrived, so the command is pending and
       ends unknown at the next poll; a CLEAR_ERROR follows in case the device saw a piece */
    {
        uint16_t t;
        unsigned before = R.n_out, clears = R.m.executed;
        add_fault(ACCEL_SIM_FAIL, 0, 2, 0); /* the write's header: the data part never goes */
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t), ACCEL_OK);
        accel_sim_clear_faults(&R.sim);
        CHECK_EQ(accel_ring_count(&R.s.pend), 1);
        (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
        CHECK_EQ(R.n_out, before + 1);
        CHECK_EQ(R.o_tid[before], t);
        CHECK_ST(R.o_st[before], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
        CHECK_EQ(R.fate[t], 0); /* truth: never arrived */
        drain(10);
        CHECK_EQ(R.m.executed, clears + 2); /* CLEAR_ERROR and its marker */
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "y", 1, NULL, 0, NULL, 100), ACCEL_OK);
    }
    /* a flipped response frame: that answer is lost; the next one shows it will never come */
    {
        unsigned before = R.n_out;
        uint16_t t1, t2;
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t1), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "y", 1, &t2), ACCEL_OK);
        accel_sim_advance(&R.sim, 5);
        add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 3, 9); /* 4th SPI call: data read */
        (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
        accel_sim_clear_faults(&R.sim);
        CHECK_EQ(R.n_out, before + 2);
        CHECK_EQ(R.o_tid[before], t1);
        CHECK_ST(R.o_st[before], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
        CHECK_EQ(R.fate[t1], ACCEL_TSP1_MODEL_RAN); /* it ran, but the host cannot know */
        CHECK_ST(R.o_st[before + 1], ACCEL_OK);
        CHECK(R.s.dec.dropped[ACCEL_TSP1_DROP_CRC] > 0);
        CHECK_EQ(R.s.dev_error, 0); /* a lost answer is no error state */
    }
    /* a device that stops executing: the command waits in its command buffer, so it stays
       pending past its deadline (its answer may still come), and ends OK once it runs */
    {
        unsigned before = R.n_out;
        uint16_t t;
        R.m.exec_per_ms = 0;
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL, 0, NULL, 50), ACCEL_E_TIMEOUT);
        CHECK_EQ(R.n_out, before); /* the caller gave up; the command is still pending */
        CHECK_EQ(accel_ring_count(&R.s.pend), 1);
        t = accel__tsp1_at(&R.s, 0)->tid;
        accel_sim_advance(&R.sim, 300);
        (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
        CHECK_EQ(R.n_out, before);
        R.m.exec_per_ms = 2;
        drain(20);
        CHECK_EQ(R.n_out, before + 1);
        CHECK_EQ(R.o_tid[before], t);
        CHECK_ST(R.o_st[before], ACCEL_OK);
        CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN);
    }
    /* a device that took the command and whose answer is lost (the response buffer cleared
       under it): unknown at its deadline, exactly once */
    {
        unsigned before = R.n_out;
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "z", 1, NULL), ACCEL_OK);
        accel_sim_advance(&R.sim, 5);
        CHECK_EQ(accel_fifo_count(&R.m.cmdq), 0);
        accel_fifo_clear(&R.m.rspq);
        accel_sim_advance(&R.sim, 300);
        (void)accel_tsp1_poll(&R.s);
        CHECK_EQ(R.n_out, before + 1);
        CHECK_ST(R.o_st[before], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
        drain(20);
        CHECK_EQ(R.n_out, before + 1);
    }
}

/* An error response lost on the bus. The device discarded the NN_STOP behind the failing
 * command; the driver must not report it OK when the next real answer arrives (it once did). */
static void test_lost_error_response(void)
{
    uint8_t m1b[4], badb[4];
    const uint8_t *m1 = mask4(m1b, 1), *bad = mask4(badb, 0x10);
    uint16_t tb, ts, te;
    int i;
    setup(256, 128, 2, 1, 8, 1);
    rig_ready();
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, bad, 4, &tb), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, m1, 4, &ts), ACCEL_OK);
    accel_sim_advance(&R.sim, 10); /* ERR_ARG for the bad START; STOP and markers discarded */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 3, 2); /* the ERR_ARG's id, on the read */
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    accel_sim_clear_faults(&R.sim);
    CHECK_EQ(R.n_out, 1); /* nothing known yet */
    /* a command sent now: the device is still in its error state and discards it too */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "e", 1, &te), ACCEL_OK);
    drain(400);
    CHECK_EQ(R.n_out, 4);
    i = rig_find(tb);
    REQUIRE(i >= 0);
    CHECK_ST(R.o_st[i], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    i = rig_find(ts);
    REQUIRE(i >= 0);
    CHECK_ST(R.o_st[i], ACCEL_E_TSP1_UNKNOWN_OUTCOME); /* never OK */
    CHECK_EQ(R.fate[ts], ACCEL_TSP1_MODEL_DISCARDED);
    i = rig_find(te);
    REQUIRE(i >= 0);
    CHECK_ST(R.o_st[i], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.fate[te], ACCEL_TSP1_MODEL_DISCARDED);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING); /* network 0 still runs, as reported */
    /* the deadline sent CLEAR_ERROR: the next command runs */
    CHECK_EQ(R.m.error_state, 0);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 1, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
}

/* One flipped bit in a response's N_BYTES claims more bytes than follow: the 19 answers
 * behind it must arrive in time, not as strays after 20 deadlines. No idle padding. */
static void test_flipped_length_no_hostage(void)
{
    uint16_t t[20];
    unsigned i, ok = 0;
    setup(512, 128, 1, 1, 24, 1);
    rig_ready();
    for (i = 0; i < 20; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t[i]), ACCEL_OK);
    accel_sim_advance(&R.sim, 12);
    /* N_BYTES of the first answer: 1 -> 257 (fits the 600-byte decoder, so it is held) */
    add_fault_mask(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 3, ACCEL_TSP1_BIG_ENDIAN ? 4 : 5, 0x01);
    for (i = 0; i < 20 && R.n_out < 20; i++) {
        (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
        accel_sim_clear_faults(&R.sim);
        accel_sim_advance(&R.sim, 1);
    }
    CHECK_EQ(R.n_out, 20);
    CHECK(R.sim.now < 100); /* well before any deadline */
    CHECK_EQ(rig_find(t[0]), 0);
    CHECK_ST(R.o_st[0], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    for (i = 1; i < 20; i++) {
        int k = rig_find(t[i]);
        if (k >= 0 && R.o_st[k] == ACCEL_OK) ok++;
    }
    CHECK_EQ(ok, 19);
    CHECK_EQ(R.s.stray, 0);
    CHECK(R.s.dec.dropped[ACCEL_TSP1_DROP_TRUNCATED] >= 13);
}

/* Commands issued while a REBOOT awaits ASYNC_READY are held, then run: the driver must never
 * report one DISCARDED that ran, and its network mask must match the device's. */
static void test_reboot_holds_commands(void)
{
    uint8_t m1b[4];
    const uint8_t *m1 = mask4(m1b, 1);
    uint16_t tr, te;
    int i;
    setup(256, 128, 2, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.s.settled, 0); /* an ASYNC_READY may be outstanding until a command confirms */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.s.settled, 1);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_OK);
    CHECK_EQ(R.s.settled, 0);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, &te), ACCEL_E_BUSY);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, m1, 4, NULL), ACCEL_E_BUSY);
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_E_BUSY);
    CHECK_EQ(R.s.ready, 0);
    /* a blocking command waits through the reboot, then runs */
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 200), ACCEL_OK);
    i = rig_find(tr);
    REQUIRE(i >= 0);
    CHECK_ST(R.o_st[i], ACCEL_OK);
    CHECK_EQ(R.fate[tr], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.s.ready, 1);
    CHECK_EQ(R.s.settled, 1);
    CHECK_EQ(R.n_ready, 2);
    CHECK_ST(R.o_st[R.n_out - 1], ACCEL_OK);
    CHECK_EQ(R.fate[R.o_tid[R.n_out - 1]], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(R.s.running_mask, 1);
    CHECK_EQ(R.n_events[ACCEL_TSP1_MODEL_IGNORED], 0); /* nothing was sent into the reboot */
    /* commands before a REBOOT: their answers may be cleared by it; never reported as done
       without their answer */
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "b", 1, &te), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_OK);
    R.m.exec_per_ms = 2;
    accel_sim_advance(&R.sim, 1); /* ECHO and REBOOT run in one millisecond: DATA cleared */
    drain(50);
    i = rig_find(te);
    REQUIRE(i >= 0);
    CHECK_ST(R.o_st[i], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.fate[te], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.n_rsp_wiped, 1); /* the log shows why the host could not know */
    CHECK_ST(R.o_st[rig_find(tr)], ACCEL_OK);
    CHECK_EQ(R.s.running_mask, 0);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    /* a REBOOT timed out (its ASYNC_READY lost) stops holding: the session goes on */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_OK);
    accel_sim_advance(&R.sim, 10);
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, 3, 3);
    (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    accel_sim_clear_faults(&R.sim);
    drain(300);
    CHECK_ST(R.o_st[rig_find(tr)], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.fate[tr], ACCEL_TSP1_MODEL_RAN);
    /* the CLEAR_ERROR that followed the deadline came back: had the REBOOT's ASYNC_READY been
       on its way, it would have come before */
    CHECK_EQ(R.s.settled, 1);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "c", 1, NULL, 0, NULL, 100), ACCEL_OK);
}

/* A REBOOT sent before the session is settled (an ASYNC_READY may still be on its way) cannot
 * tell its own from another: it ends UNKNOWN_OUTCOME (at its deadline), never OK. While booting the device shows
 * no room for commands; the session's first command also waits until nothing is left to read. */
static void test_reboot_before_ready(void)
{
    uint16_t tr;
    int i;
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_E_BUSY); /* booting */
    accel_sim_advance(&R.sim, 10); /* booted: its ASYNC_READY waits in the response buffer */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_E_BUSY); /* unread */
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK); /* reads the boot's ASYNC_READY */
    CHECK_EQ(R.s.ready, 1);
    CHECK_EQ(R.s.settled, 0);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_OK);
    CHECK_EQ(R.n_out, 0);
    CHECK_EQ(R.fate[tr], 0); /* it has not run yet */
    accel_sim_advance(&R.sim, 20);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.fate[tr], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.n_ready, 2);
    /* whose ASYNC_READY is it? An earlier boot's would leave what was sent after that boot
       to answer: the REBOOT stays pending until its deadline */
    CHECK_EQ(R.n_out, 0);
    drain(300);
    CHECK_EQ(R.n_out, 1);
    CHECK_ST(R.o_st[0], ACCEL_E_TSP1_UNKNOWN_OUTCOME); /* not OK: it was sent unsettled */
    i = rig_find(tr);
    CHECK_EQ(i, 0);
    /* its deadline sent CLEAR_ERROR, whose answer came after that boot: settled now, so a
       second REBOOT knows the next ASYNC_READY is its own */
    CHECK_EQ(R.s.settled, 1);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &tr), ACCEL_OK);
    drain(300);
    CHECK_EQ(R.n_out, 2);
    CHECK_ST(R.o_st[1], ACCEL_OK);
    CHECK_EQ(R.fate[tr], ACCEL_TSP1_MODEL_RAN);
    /* the blocking helper: OK once the device is up */
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_reboot(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.s.ready, 1);
    CHECK_EQ(R.s.rom, 0);
}

/* With auto_clear, a CLEAR_ERROR refused for a full command buffer is retried on every poll for
 * as long as the error state lasts; past its deadline poll also says so, and once the device
 * drains the next poll sends it, with no manual clear. */
static void test_clear_retry(void)
{
    uint8_t f[24];
    size_t len;
    unsigned i;
    setup(64, 128, 1, 1, 8, 1);
    rig_ready();
    R.m.exec_per_ms = 0; /* the device stops taking commands: its buffer fills */
    for (i = 0; i < 5; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_E_BUSY); /* 60 of 64 */
    /* an error nobody can be blamed for: the device may be in its error state */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_FRAMING, ACCEL_TSP1_TID_NONE, NULL,
                            0, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.n_out, 5); /* all five: unknown */
    for (i = 0; i < 5; i++) CHECK_ST(R.o_st[i], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.s.dev_error, 1); /* the CLEAR_ERROR did not fit */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_E_TSP1_ERROR_STATE);
    accel_sim_advance(&R.sim, 50);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.s.dev_error, 1);
    R.m.exec_per_ms = 2; /* the device drains its buffer */
    accel_sim_advance(&R.sim, 5);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.s.dev_error, 0); /* retried and sent */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "z", 1, NULL, 0, NULL, 100), ACCEL_OK);
    /* past the deadline: poll reports the error state and stops trying */
    R.m.exec_per_ms = 0;
    for (i = 0; i < 5; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    accel_sim_advance(&R.sim, 250);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_E_TSP1_ERROR_STATE); /* refused past its deadline */
    CHECK_EQ(R.s.dev_error, 1);
    /* the device recovers: auto_clear keeps trying, so no manual clear is needed */
    R.m.exec_per_ms = 2;
    accel_sim_advance(&R.sim, 5);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_OK);
    CHECK_EQ(R.s.dev_error, 0);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "z", 1, NULL, 0, NULL, 100), ACCEL_OK);
}

static void test_sleep_wake(void)
{
    uint16_t t;
    setup(256, 128, 2, 1, 8, 1);
    R.m.wake_line = 1;
    R.s.bus.wake_line = 1;
    rig_ready();
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC), ACCEL_OK);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 100), ACCEL_OK);
    CHECK_EQ(R.s.last_async, 1);
    /* sleep refuses with commands pending */
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_OK);
    CHECK_ST(accel_tsp1_sleep(&R.s, 100), ACCEL_E_BUSY);
    R.m.exec_per_ms = 2;
    drain(20);
    /* sleep: the outcome comes with the wake */
    CHECK_ST(accel_tsp1_sleep(&R.s, 100), ACCEL_OK);
    t = accel__tsp1_at(&R.s, 0)->tid;
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_ASLEEP);
    CHECK_EQ(rig_find(t), -1);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_E_TSP1_ASLEEP);
    accel_sim_advance(&R.sim, 500); /* no deadline for a sleeping device */
    (void)accel_tsp1_poll(&R.s); /* the outcomes it reports are what this test checks */
    CHECK_EQ(rig_find(t), -1);
    CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_OK);
    CHECK_ST(R.o_st[rig_find(t)], ACCEL_OK);
    CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.s.last_async, 0); /* TIDs restart after a wake */
    CHECK_EQ(R.s.running_mask, 0);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    /* a wake pulse the bus refuses: still asleep, wake again */
    CHECK_ST(accel_tsp1_sleep(&R.s, 100), ACCEL_OK);
    {
        accel_sim_fault f;
        memset(&f, 0, sizeof f);
        f.kind = ACCEL_SIM_FAIL;
        f.ops = ACCEL_SIM_OP_GPIO;
        f.count = 1;
        accel_sim_add_fault(&R.sim, &f);
        CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_E_IO);
        accel_sim_clear_faults(&R.sim);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL), ACCEL_E_TSP1_ASLEEP);
        CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_OK);
    }
    /* a DEEP_SLEEP lost on the bus: the device never slept, no ASYNC_READY comes: unknown */
    add_fault(ACCEL_SIM_TRUNCATE, ACCEL_SIM_TO_DEVICE, 3, 0); /* the write's data: nothing */
    CHECK_ST(accel_tsp1_sleep(&R.s, 20), ACCEL_OK);
    accel_sim_clear_faults(&R.sim);
    t = accel__tsp1_at(&R.s, 0)->tid;
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_READY);
    CHECK_ST(accel_tsp1_wake(&R.s, 50), ACCEL_E_TIMEOUT);
    CHECK_ST(R.o_st[rig_find(t)], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.fate[t], 0);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- secure update */
static uint8_t image[144 * 7];
static uint32_t prog_last;
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off + n > sizeof image) return ACCEL_E_TRUNCATED;
    memcpy(dst, image + off, n);
    return ACCEL_OK;
}
static void img_prog(void *u, uint32_t done, uint32_t total)
{
    (void)u;
    (void)total;
    prog_last = done;
}

/* The model's stand-in for a signed image: the last 4 bytes are the CRC-32 (LE) of the rest. */
static void upd_init(accel_tsp1_update *u, uint16_t chunks)
{
    unsigned i;
    uint32_t c;
    for (i = 0; i < sizeof image - 4; i++) image[i] = (uint8_t)(i * 7u + 3u);
    c = accel_crc32(image, sizeof image - 4);
    accel_store_u32le(image + sizeof image - 4, c);
    memset(u, 0, sizeof *u);
    u->read = img_read;
    u->progress = img_prog;
    u->total = sizeof image;
    u->chunks = chunks;
    prog_last = 0;
}

static void test_update(void)
{
    accel_tsp1_update u;
    setup(512, 128, 1, 1, 8, 1);
    rig_ready();
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(u.position, sizeof image);
    CHECK_EQ(prog_last, sizeof image);
    CHECK_EQ(R.m.fw_version, 2);
    CHECK_EQ(R.m.fw_valid, 1);
    CHECK_EQ(R.m.rom, 0);
    CHECK_EQ(R.n_ready, 2);
    /* chunks sized to the tx buffer (600 bytes: 4 x 144 + 2 x 12) */
    upd_init(&u, 0);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 3);
    /* refused by the device while a network runs (ERR_BUSY), whatever the driver's mask says */
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 100), ACCEL_OK);
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_BUSY);
    CHECK_EQ(u.position, 0);
    R.s.running_mask = 0;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_BUSY);
    CHECK_EQ(u.position, 0);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 1, 100), ACCEL_OK);
    /* argument checks */
    upd_init(&u, 1);
    u.total = 100;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_ARG);
    upd_init(&u, 4);
    u.position = 100;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_ARG);
    upd_init(&u, 5); /* 5 x 144 + 24 does not fit the 600-byte tx buffer */
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ERR_MEM: an update of two chunks a command that does not cancel on failure, whose NVM write
 * of chunk 3 (in the command of chunks 3-4) fails; the device says so with the next command and
 * forgets chunks 3-4. The driver blames the previous command, so the position it reports is
 * 288, the place a resume may start from. */
static void upd_fail_at_chunk3(accel_tsp1_update *u)
{
    upd_init(u, 2);
    u->no_cancel = 1;
    R.m.mem_fail_chunk = 3;
    CHECK_ST(accel_tsp1_update_run(&R.s, u, 200), ACCEL_E_TSP1_ERR_MEM);
    CHECK_EQ(u->position, 288);
}

/* After upd_fail_at_chunk3, a resume from the position reported yields an image that verifies.
 * A reboot before the update is finished comes up in ROM; the update goes on from there. */
static void test_update_resume_and_rom(void)
{
    accel_tsp1_update u;
    accel_tsp1_nn_info in;
    setup(512, 128, 2, 1, 8, 1);
    rig_ready();
    upd_fail_at_chunk3(&u);
    CHECK_EQ(R.m.upd_pos, 288); /* what the device kept: the same */
    CHECK_EQ(R.m.fw_valid, 0);  /* erased */
    /* a reboot now: the ROM bootloader (no networks there) */
    CHECK_ST(accel_tsp1_reboot(&R.s, 100), ACCEL_E_TSP1_ROM);
    CHECK_EQ(R.s.rom, 1);
    CHECK_EQ(R.m.rom, 1);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 0, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 0);
    CHECK_EQ(in.n_total, 0);
    /* resume where the driver said */
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(u.position, sizeof image);
    CHECK_EQ(R.m.fw_version, 2);
    CHECK_EQ(R.m.rom, 0);
    CHECK_EQ(R.s.rom, 0);
    /* late ERR_MEM, on the last command (chunk 7): it surfaces at FINISH */
    upd_init(&u, 2);
    u.no_cancel = 1;
    R.m.mem_fail_chunk = 7;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_MEM);
    CHECK_EQ(u.position, 864); /* start of the last command */
    CHECK_EQ(R.m.upd_pos, 864);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 3);
    /* ERR_ARG on chunk 2: that command is refused, the position stays for a resume */
    upd_init(&u, 1);
    u.no_cancel = 1;
    R.m.arg_fail_chunk = 2;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(u.position, 144);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 4);
    /* without no_cancel, a failure cancels: position 0, and CANCEL leaves no image (ROM) */
    upd_init(&u, 1);
    R.m.arg_fail_chunk = 3;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(u.position, 0);
    CHECK_EQ(R.m.upd_active, 0);
    CHECK_ST(accel_tsp1_reboot(&R.s, 100), ACCEL_E_TSP1_ROM);
    upd_init(&u, 3);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 5);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* From the first command's progress on, every byte read back is damaged. */
static void fault_after_first(void *u, uint32_t done, uint32_t total)
{
    accel_sim_fault f;
    (void)u;
    (void)total;
    if (done != 288) return;
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FLIP;
    f.ops = ACCEL_SIM_OP_SPI;
    f.dir = ACCEL_SIM_FROM_DEVICE;
    f.at = 2;
    f.mask = 0x10;
    accel_sim_add_fault(&R.sim, &f); /* count 0: every later SPI call */
}

/* The model verifies the image at FINISH: a skipped, repeated or reordered chunk fails. */
static void test_update_verify(void)
{
    accel_tsp1_update u;
    unsigned i;
    setup(512, 128, 1, 1, 8, 1);
    rig_ready();
    /* resumed from the wrong place after an ERR_MEM: one chunk too far (skipped) */
    upd_fail_at_chunk3(&u);
    u.position = 432;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_CRYPT);
    CHECK_EQ(u.position, 0); /* the image was refused as a whole */
    CHECK_EQ(R.m.fw_version, 1);
    /* one chunk too early (repeated) */
    upd_fail_at_chunk3(&u);
    u.position = 144;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_CRYPT);
    /* two chunks swapped, sent by hand */
    upd_init(&u, 1);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_OK);
    for (i = 0; i < 7; i++) {
        unsigned c = i == 2 ? 3u : i == 3 ? 2u : i;
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE, image + 144 * c, 144, NULL, 0,
                                 NULL, 100), ACCEL_OK);
    }
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_FINISH, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_ERR_CRYPT);
    /* the same chunks in order verify */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_OK);
    for (i = 0; i < 7; i++)
        CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE, image + 144 * i, 144, NULL, 0,
                                 NULL, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_SECURE_UPDATE_FINISH, NULL, 0, NULL, 0, NULL, 100),
             ACCEL_OK);
    CHECK_EQ(R.m.upd_done, 1);
    /* a chunk command whose outcome is unknown (nothing read back gets through while it is
       pending): the device's position is unknown, so the reported position is 0 and the next
       run starts over with CANCEL */
    upd_init(&u, 2);
    u.no_cancel = 1;
    u.progress = fault_after_first;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 300), ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    accel_sim_clear_faults(&R.sim);
    CHECK_EQ(u.position, 0);
    CHECK_EQ(R.m.upd_pos, 576); /* the device did take it: resuming at 288 would repeat */
    drain(300);
    u.progress = img_prog;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 2);
    CHECK_EQ(R.s.outcomes, R.n_out);
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
    RUN(test_lost_error_response);
    RUN(test_flipped_length_no_hostage);
    RUN(test_reboot_holds_commands);
    RUN(test_reboot_before_ready);
    RUN(test_clear_retry);
    RUN(test_sleep_wake);
    RUN(test_update);
    RUN(test_update_resume_and_rom);
    RUN(test_update_verify);
    return TEST_END();
}
