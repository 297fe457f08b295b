/* test_tsp1_promises.c - each TSP1 driver function keeps what its documentation promises, in the
 * scenarios where it once did not (none needs a bus fault unless it says so): a secure update's
 * position after one failed step, sleep's return, late and full response buffers, answers
 * longer than the receive buffer, a stale running mask, NN_INFO answers with impossible content.
 * Every outcome is checked against the device model's own log (R.fate). */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "tsp1_rig.h"

/* A model with larger queues than the rig's (rsp_cap over 4 KiB), on the rig's port. */
static uint8_t big_mem[32 * 1024];
static void setup_big(uint16_t cmd_cap, uint16_t rsp_cap, uint8_t auto_clear)
{
    accel_port mp;
    setup(256, 128, 1, auto_clear, 32, 1);
    CHECK_ST(accel_tsp1_model_init(&R.m, big_mem, sizeof big_mem, cmd_cap, rsp_cap, 1), ACCEL_OK);
    R.m.on_log = rig_log;
    R.m.user = &R;
    accel_tsp1_model_port(&R.m, &mp);
    accel_sim_attach(&R.sim, &mp);
}

/* ---------------------------------------------------------------- NN_INFO content */
/* A crafted NN_INFO answer for the next TID, queued ahead of the model's own. */
static void queue_nn_info(const uint8_t p[8])
{
    uint8_t f[24];
    size_t len;
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_NN_INFO,
                                         R.s.next_tid, p, 8, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
}

static void test_nn_info_content(void)
{
    /* VALID IDX N_TOTAL N_IN N_OUT BUF_IN0 BUF_OUT0 STATE */
    static const uint8_t idx5[8] = {1, 5, 6, 1, 1, 4, 5, 0};   /* asked for slot 3 */
    static const uint8_t none[8] = {1, 3, 0, 1, 1, 4, 5, 0};   /* valid, of 0 networks */
    static const uint8_t past[8] = {1, 3, 2, 1, 1, 4, 5, 0};   /* valid slot 3 of 2 */
    static const uint8_t hole[8] = {0, 3, 6, 0, 0, 0, 0, 0};   /* invalid slot 3 of 6 */
    static const uint8_t many[8] = {1, 3, 33, 1, 1, 4, 5, 0};  /* 33 networks of 32 slots */
    static const uint8_t good[8] = {1, 3, 4, 1, 1, 4, 5, 1};
    static const uint8_t *const bad[5] = {idx5, none, past, hole, many};
    accel_tsp1_nn_info in;
    unsigned i;
    setup(256, 256, 4, 1, 8, 1);
    rig_ready();
    for (i = 0; i < 5; i++) {
        queue_nn_info(bad[i]);
        CHECK_ST(accel_tsp1_nn_query(&R.s, 3, &in, 100), ACCEL_E_MALFORMED);
        drain(20); /* the model's own answer: a stray */
    }
    {
        /* decoded alone (no slot asked for): an IDX past the 32 slots, a STATE past FINISHED */
        static const uint8_t idx32[8] = {0, 32, 4, 0, 0, 0, 0, 0};
        static const uint8_t state4[8] = {1, 3, 4, 1, 1, 4, 5, 4};
        accel_tsp1_frame f;
        memset(&f, 0, sizeof f);
        f.id = ACCEL_TSP1_R_NN_INFO;
        f.n_bytes = 8;
        f.payload = idx32;
        CHECK_ST(accel_tsp1_decode_nn_info(&f, &in), ACCEL_E_MALFORMED);
        f.payload = state4;
        CHECK_ST(accel_tsp1_decode_nn_info(&f, &in), ACCEL_E_MALFORMED);
        f.payload = good;
        CHECK_ST(accel_tsp1_decode_nn_info(&f, &in), ACCEL_OK);
    }
    queue_nn_info(good);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 3, &in, 100), ACCEL_OK);
    CHECK_EQ(in.idx, 3);
    CHECK_EQ(in.n_total, 4);
    CHECK_EQ(in.state, ACCEL_TSP1_NN_RUNNING);
    drain(20);
    /* the model's own answers pass */
    CHECK_ST(accel_tsp1_nn_query(&R.s, 2, &in, 100), ACCEL_OK);
    CHECK_EQ(in.idx, 2);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 3, &in, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 4, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 0);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- stale running mask */
static uint8_t image[144 * 7];
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off + n > sizeof image) return ACCEL_E_TRUNCATED;
    memcpy(dst, image + off, n);
    return ACCEL_OK;
}
/* The model's stand-in for a signed image: the last 4 bytes are the CRC-32 (LE) of the rest. */
static void upd_init(accel_tsp1_update *u, uint16_t chunks)
{
    unsigned i;
    for (i = 0; i < sizeof image - 4; i++) image[i] = (uint8_t)(i * 7u + 3u);
    accel_store_u32le(image + sizeof image - 4, accel_crc32(image, sizeof image - 4));
    memset(u, 0, sizeof *u);
    u->read = img_read;
    u->total = sizeof image;
    u->chunks = chunks;
}

static void test_stale_running_mask(void)
{
    accel_tsp1_update u;
    uint8_t m[4];
    setup(512, 128, 2, 1, 8, 1);
    rig_ready();
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 1, 100), ACCEL_OK);
    /* stopped with a plain submit: the driver's mask is not told */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, mask4(m, 1), 4, NULL), ACCEL_OK);
    drain(50);
    CHECK_ST(R.o_st[R.n_out - 1], ACCEL_OK);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 2);
    CHECK_EQ(R.m.rom, 0);
    /* a network that does run: the device refuses (ERR_BUSY), nothing of the image is lost */
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 2, 100), ACCEL_OK);
    upd_init(&u, 2);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_BUSY);
    CHECK_EQ(u.position, 0);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- late and full buffers */
/* More than 4 KiB of answers waiting when a late poll comes: every one decides its command. */
static void test_late_poll_big_backlog(void)
{
    static uint8_t p[576];
    uint16_t t[10];
    unsigned i, k;
    setup_big(6000, 6200, 1);
    rig_ready();
    memset(p, 0xA5, sizeof p);
    for (i = 0; i < 10; i++) {
        p[0] = (uint8_t)i;
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, p, sizeof p, &t[i]), ACCEL_OK);
    }
    accel_sim_advance(&R.sim, 500); /* well past every deadline; all answered meanwhile */
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 10u * 588u);
    for (k = 0; k < 4; k++) (void)accel_tsp1_poll(&R.s);
    CHECK_EQ(R.n_out, 10);
    for (i = 0; i < 10; i++) {
        int j = rig_find(t[i]);
        CHECK(j >= 0);
        if (j >= 0) CHECK_ST(R.o_st[j], ACCEL_OK);
    }
    CHECK_EQ(R.s.dev_error, 0);
}

/* The host reads late, the response buffer fills and the queued commands wait in the command
 * buffer, as documented: they run later and end OK, and nothing puts the session into an
 * error state (auto_clear off). */
static void test_full_response_buffer(void)
{
    uint16_t t[6];
    unsigned i;
    setup(256, 40, 1, 0, 8, 1);
    rig_ready();
    for (i = 0; i < 6; i++)
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789", 10, &t[i]), ACCEL_OK);
    accel_sim_advance(&R.sim, 600); /* one 22-byte answer fits; five commands wait */
    CHECK_EQ(accel_fifo_count(&R.m.cmdq), 5 * 22);
    for (i = 0; i < 40 && R.n_out < 6; i++) {
        (void)accel_tsp1_poll(&R.s);
        accel_sim_advance(&R.sim, 1);
    }
    CHECK_EQ(R.n_out, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ(R.o_tid[i], t[i]);
        CHECK_ST(R.o_st[i], ACCEL_OK);
        CHECK_EQ(R.fate[t[i]], ACCEL_TSP1_MODEL_RAN);
    }
    CHECK_EQ(R.s.dev_error, 0);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL), ACCEL_OK);
    /* the same with a command that answers nothing (its marker waits too) */
    {
        uint8_t m[4];
        uint16_t a;
        drain(50);
        for (i = 0; i < 3; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789", 10, NULL), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(m, 1), 4, &a), ACCEL_OK);
        accel_sim_advance(&R.sim, 700);
        drain(100);
        CHECK_ST(R.o_st[rig_find(a)], ACCEL_OK);
        CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
    }
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- sleep */
/* Async messages fill the response buffer: DEEP_SLEEP waits in the command buffer until the host
 * reads them. sleep must read them (or say it timed out), never return OK with the command still
 * queued (the wake pulse would then come before the device sleeps). */
static void test_sleep_full_response_buffer(void)
{
    setup(256, 36, 1, 1, 8, 1);
    R.m.wake_line = 1;
    R.s.bus.wake_line = 1;
    rig_ready();
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_ECC), ACCEL_OK);
    CHECK_ST(accel_tsp1_model_raise(&R.m, ACCEL_TSP1_R_ASYNC_ERR_NPU), ACCEL_OK);
    accel_sim_advance(&R.sim, 2);
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 24); /* 12 bytes free: no command can complete */
    CHECK_ST(accel_tsp1_sleep(&R.s, 50), ACCEL_OK);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_ASLEEP);
    CHECK_EQ(accel_fifo_count(&R.m.cmdq), 0);
    CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_OK);
    CHECK_ST(R.o_st[R.n_out - 1], ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    /* a device that takes nothing: sleep says it timed out; a later wake waits for the
       command to leave the command buffer before it pulses */
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_sleep(&R.s, 30), ACCEL_E_TIMEOUT);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_READY);
    R.m.exec_per_ms = 2;
    CHECK_ST(accel_tsp1_wake(&R.s, 100), ACCEL_OK);
    CHECK_EQ(R.m.power, ACCEL_TSP1_MODEL_READY);
    CHECK_ST(R.o_st[R.n_out - 1], ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- secure update positions */
/* Ground truth for an update: a FINISH that ran OK must never be followed by a CANCEL that runs
 * before the next reboot (it would invalidate the finished image). */
static int finish_ok, image_destroyed;
static void upd_log(void *u, const accel_tsp1_model_event *e)
{
    rig_log(u, e);
    if (e->what != ACCEL_TSP1_MODEL_RAN) return;
    if (e->id == ACCEL_TSP1_SECURE_UPDATE_FINISH && !e->resp) finish_ok = 1;
    if (e->id == ACCEL_TSP1_SECURE_UPDATE_CANCEL && finish_ok) image_destroyed = 1;
    if (e->id == ACCEL_TSP1_REBOOT) finish_ok = 0;
}

/* The closing reboot fails (the device takes longer to boot than the caller waits): the image is
 * finished, only a reboot is missing. The position says so, and a resume completes it. */
static void test_update_reboot_pending(void)
{
    accel_tsp1_update u;
    setup(512, 128, 1, 1, 8, 1);
    R.m.on_log = upd_log;
    finish_ok = image_destroyed = 0;
    rig_ready();
    upd_init(&u, 2);
    R.m.boot_ms = 400;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_REBOOT_PENDING);
    CHECK_EQ(u.position, u.total);
    CHECK_EQ(image_destroyed, 0);
    R.m.boot_ms = 5;
    accel_sim_advance(&R.sim, 400); /* the device boots meanwhile */
    drain(100);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(image_destroyed, 0);
    CHECK_EQ(R.m.rom, 0);
    CHECK_EQ(R.m.fw_version, 2);
    /* the same with no_reboot: nothing to do but the reboot */
    upd_init(&u, 0);
    u.position = u.total;
    u.no_reboot = 1;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_REBOOT_PENDING);
    CHECK_EQ(u.position, u.total);
}

/* One fault at every SPI call of an update (a failed transfer, or a bit flipped on the way
 * back), with and without no_cancel: the status is true (OK only with the new image running),
 * a FINISHed image is never cancelled, and one resume from the position returned completes. */
static unsigned sweep_one(unsigned kind, uint32_t k, uint8_t no_cancel, uint32_t *calls)
{
    accel_tsp1_update u;
    accel_status st;
    uint32_t c0;
    setup(512, 128, 1, 1, 8, 1);
    R.m.on_log = upd_log;
    finish_ok = image_destroyed = 0;
    rig_ready();
    upd_init(&u, 2);
    u.no_cancel = no_cancel;
    c0 = R.sim.calls;
    if (kind == 0) add_fault(ACCEL_SIM_FAIL, ACCEL_SIM_TO_DEVICE, k, 0);
    else if (kind == 1) add_fault_mask(ACCEL_SIM_FLIP, ACCEL_SIM_FROM_DEVICE, k, 5, 0x10);
    st = accel_tsp1_update_run(&R.s, &u, 200);
    *calls = R.sim.calls - c0;
    accel_sim_clear_faults(&R.sim);
    if (st == ACCEL_OK) {
        return st == ACCEL_OK && R.m.rom == 0 && R.m.fw_version == 2 && !image_destroyed ? 0u : 1u;
    }
    if (getenv("SWEEP_DEBUG"))
        printf("    kind %u k %u nc %u: %s position %u destroyed %d\n", kind, (unsigned)k, no_cancel,
               accel_status_str(st), (unsigned)u.position, image_destroyed);
    if (image_destroyed || u.position > u.total || u.position % 144u) return 1;
    drain(600);
    st = accel_tsp1_update_run(&R.s, &u, 200);
    if (getenv("SWEEP_DEBUG"))
        printf("      resume: %s rom %u fw %u destroyed %d\n", accel_status_str(st), R.m.rom,
               R.m.fw_version, image_destroyed);
    return st == ACCEL_OK && R.m.rom == 0 && R.m.fw_version == 2 && !image_destroyed ? 0u : 1u;
}

static void test_update_fault_sweep(void)
{
    unsigned kind, nc, bad = 0, runs = 0;
    for (kind = 0; kind < 2; kind++)
        for (nc = 0; nc < 2; nc++) {
            uint32_t k, calls;
            bad += sweep_one(2, 0, (uint8_t)nc, &calls); /* no fault: count the calls */
            for (k = 0; k < calls && k < 400u; k++) {
                uint32_t c;
                unsigned b = sweep_one(kind, k, (uint8_t)nc, &c);
                if (b && bad < 5)
                    printf("  sweep: fault kind %u at call %u, no_cancel %u: wrong\n", kind,
                           (unsigned)k, nc);
                bad += b;
                runs++;
            }
        }
    printf("  update fault sweep: %u runs, %u wrong\n", runs, bad);
    CHECK_EQ(bad, 0);
}

/* ---------------------------------------------------------------- a second host */
/* Another host writes CLEAR_ERROR and an ECHO of its own (a second session's synchronisation)
 * between a command of ours that fails and the next one: the device leaves its error state and
 * runs our next command. It must not be reported DISCARDED: it ran (its marker says OK). */
static void second_host_clear(uint16_t tid)
{
    uint8_t f[2 * ACCEL_TSP1_OVERHEAD + 4];
    size_t a, b;
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, tid, NULL, 0, f, sizeof f, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, tid, "B!B!", 4, f + a, sizeof f - a, &b), ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, f, a + b), ACCEL_OK);
}

static void test_second_host(void)
{
    uint8_t m[4], q[4] = {40, 0, 0, 0};
    uint16_t x, y;
    unsigned i;
    setup(512, 256, 2, 0, 8, 1);
    rig_ready();
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &x), ACCEL_OK); /* ERR_ARG */
    second_host_clear(0x7777);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(m, 1), 4, &y), ACCEL_OK);
    drain(50);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING); /* it ran */
    CHECK_EQ(R.fate[y], ACCEL_TSP1_MODEL_RAN);
    CHECK_ST(R.o_st[rig_find(x)], ACCEL_E_TSP1_ERR_ARG);
    CHECK_ST(R.o_st[rig_find(y)], ACCEL_OK);
    /* the second host's ECHO arrives, our next command's marker is lost: unknown, never
       DISCARDED */
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK);
    drain(50);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &x), ACCEL_OK);
    second_host_clear(0x7778);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, mask4(m, 1), 4, &y), ACCEL_OK);
    for (i = 0; i < 20 && accel_fifo_count(&R.m.cmdq); i++) accel_sim_advance(&R.sim, 1);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED); /* it ran */
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 12 + 16 + 12); /* ERR_ARG, B's DATA, our marker's */
    {
        uint8_t buf[64];
        size_t got;
        CHECK_ST(accel_fifo_read(&R.m.rspq, buf, sizeof buf, &got), ACCEL_OK);
        CHECK_ST(accel_fifo_write(&R.m.rspq, buf, 12 + 16), ACCEL_OK); /* the marker's lost */
    }
    drain(50);
    CHECK_ST(R.o_st[rig_find(x)], ACCEL_E_TSP1_ERR_ARG);
    CHECK_ST(R.o_st[rig_find(y)], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    /* without a second host, a command sent into the error state is DISCARDED */
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK);
    drain(50);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &x), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(m, 1), 4, &y), ACCEL_OK);
    drain(50);
    CHECK_ST(R.o_st[rig_find(y)], ACCEL_E_TSP1_DISCARDED);
    CHECK_EQ(R.fate[y], ACCEL_TSP1_MODEL_DISCARDED);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- fixed answers fit */
/* A receive buffer that cannot hold NN_INFO's 8-byte answer is refused at configuration time
 * (it once accepted 4, and every NN_INFO then ended UNKNOWN). */
static void test_rx_holds_fixed_answers(void)
{
    static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(4, 64, 8) + 3) / 4];
    accel_tsp1_config c;
    accel_tsp1 s2;
    accel_tsp1_nn_info in;
    size_t need;
    CHECK_ST(accel_tsp1_driver_mem_size(4, 64, 4, &need), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_driver_mem_size(4, 64, 7, &need), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_driver_mem_size(4, 64, 8, &need), ACCEL_OK);
    CHECK_EQ(need, ACCEL_TSP1_DRIVER_MEM(4, 64, 8));
    setup(256, 128, 2, 1, 8, 1);
    rig_config(&c, mem, sizeof mem, 4, 1);
    c.cmd_payload = 64;
    c.rsp_payload = 4;
    CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_E_ARG);
    c.rsp_payload = 8; /* the smallest that holds every fixed answer: NN_INFO works */
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
    rig_ready();
    CHECK_ST(accel_tsp1_nn_query(&R.s, 1, &in, 100), ACCEL_OK);
    CHECK_EQ(in.valid, 1);
    CHECK_EQ(in.idx, 1);
#ifndef ACCEL_NO_DEPRECATED
    {
        /* the deprecated separate regions: an rx region under 12 + 8 bytes is refused too */
        static accel_tsp1_pending pend[4];
        static uint8_t rx[20], tx[24 + 64];
        rig_config(&c, NULL, 0, 4, 1);
        c.pending_mem = pend;
        c.pending_len = sizeof pend;
        c.tx_mem = tx;
        c.tx_len = sizeof tx;
        c.rx_mem = rx;
        c.rx_len = 12 + 4;
        CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_E_BUFFER_TOO_SMALL);
        c.rx_len = 12 + 7;
        CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_E_BUFFER_TOO_SMALL);
        c.rx_len = 12 + 8;
        CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_OK);
    }
#endif
}

/* ---------------------------------------------------------------- long error detail */
/* An error response whose detail is longer than the receive buffer (rsp_payload 8, the model
 * sending 24 bytes of detail: a 36-byte frame for a 20-byte buffer) still ends its command with
 * its error: the CRC is checked over every byte, the detail is cut to the 8 bytes kept, and
 * resp->cut says 16 are missing. It once was dropped whole and the command ended UNKNOWN. */
static uint16_t cut_n, cut_len;
static uint8_t cut_head[8];
static void cut_outcome(void *u, const accel_tsp1_outcome *o)
{
    rig_outcome(u, o);
    cut_n = o->resp ? o->resp->cut : 0xFFFFu;
    cut_len = o->resp ? o->resp->n_bytes : 0xFFFFu;
    if (o->resp && o->resp->n_bytes >= 8) memcpy(cut_head, o->resp->payload, 8);
}
static void test_long_error_detail(void)
{
    static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(4, 2 * 144, 8) + 3) / 4];
    static const uint8_t want[8] = {0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7};
    accel_tsp1_config c;
    accel_tsp1_update u;
    accel_tsp1_nn_info in;
    uint8_t q[4] = {40, 0, 0, 0}, r[32];
    size_t len = 99;
    uint16_t t;
    unsigned i;
    setup(512, 256, 2, 1, 8, 1);
    R.m.err_detail = 24;
    rig_config(&c, mem, sizeof mem, 4, 1);
    c.cmd_payload = 2 * 144;
    c.rsp_payload = 8;
    c.on_outcome = cut_outcome;
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
    rig_ready();
    /* NN_INFO of slot 40: ERR_ARG with 24 bytes of detail */
    t = R.s.next_tid;
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_NN_INFO, q, 4, r, sizeof r, &len, 100),
             ACCEL_E_TSP1_ERR_ARG);
    CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.fate_resp[t], ACCEL_TSP1_R_ERR_ARG);
    CHECK_EQ(len, 8);
    CHECK_MEM(r, want, 8);
    CHECK_EQ(cut_n, 16);
    CHECK_EQ(cut_len, 8);
    CHECK_MEM(cut_head, want, 8);
    CHECK_EQ(accel__tsp1_drops(&R.s.dec), 0);
    /* the stream stays in step: the next answers decide their commands */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "abc", 3, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(cut_n, 0);
    CHECK_ST(accel_tsp1_nn_query(&R.s, 1, &in, 100), ACCEL_OK);
    CHECK_EQ(in.idx, 1);
    /* ERR_MEM (the second chunk's NVM write fails, reported with the third): the update's
       position is the start of the previous command, as for a short ERR_MEM */
    upd_init(&u, 1);
    u.no_cancel = 1;
    R.m.mem_fail_chunk = 2;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_E_TSP1_ERR_MEM);
    CHECK_EQ(u.position, 144);
    CHECK_EQ(cut_n, 16);
    CHECK_EQ(R.o_st[R.n_out - 1], ACCEL_E_TSP1_ERR_MEM);
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 2);
    for (i = 0; i < R.n_out && i < RIG_MAX; i++)
        CHECK(R.o_st[i] != ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* A long error frame cut short (a reset cleared the rest of the response buffer while it was
 * read) claims more bytes than the buffer holds: the driver tells the decoder what is there, so
 * the header is not followed over the answers placed after it (they would be lost). */
static void test_long_error_cut(void)
{
    static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(4, 64, 8) + 3) / 4];
    accel_tsp1_config c;
    uint8_t f[64], det[24];
    size_t len;
    setup(512, 256, 2, 1, 8, 1);
    rig_config(&c, mem, sizeof mem, 4, 1);
    c.cmd_payload = 64;
    c.rsp_payload = 8;
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
    rig_ready();
    memset(det, 0xD0, sizeof det);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_MEM, 0x7000, det,
                                         sizeof det, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, 14), ACCEL_OK); /* its header and 6 bytes */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "abc", 3, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(R.s.dec.dropped[ACCEL_TSP1_DROP_LENGTH] + R.s.dec.dropped[ACCEL_TSP1_DROP_GARBAGE], 14);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* ---------------------------------------------------------------- deadlines restart */
/* A command waits in the device's command buffer past its deadline (the device is stalled;
 * polls see the buffer hold something), then runs between poll's read of the response level
 * and its read of the command level: its answer is waiting, so its deadline must count from
 * the last poll that saw it waiting, not from when it was sent. The device's progress inside a
 * poll is modelled by a port that advances the simulation before each command-level read. */
static accel_port step_port;
static int step_on;
static accel_status step_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t n,
                             unsigned fl)
{
    if (step_on && tx && n >= 2 && tx[0] == ACCEL_TSP1_SPI_OP_REG_READ &&
        tx[1] == ACCEL_TSP1_REG_BUF_STATUS(ACCEL_TSP1_BUF_CMD))
        accel_sim_advance(&R.sim, 1);
    return R.sim.port.spi_transfer(u, cs, tx, rx, n, fl);
}
static void test_deadline_restarts(void)
{
    uint16_t t;
    unsigned i;
    setup(256, 128, 1, 0, 8, 1);
    rig_ready();
    step_port = R.sim.port;
    step_port.spi_transfer = step_spi;
    R.s.bus.port = &step_port;
    R.m.exec_per_ms = 0; /* stalled: the ECHO waits in the command buffer */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "wait", 4, &t), ACCEL_OK);
    for (i = 0; i < 300; i++) { /* past its 200 ms deadline, polled all along */
        (void)accel_tsp1_poll(&R.s);
        accel_sim_advance(&R.sim, 1);
    }
    CHECK_EQ(R.n_out, 0);
    R.m.exec_per_ms = 2;
    step_on = 1; /* it runs inside the next poll, after the response buffer read empty */
    drain(20);
    step_on = 0;
    R.s.bus.port = &R.sim.port;
    CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_RAN);
    CHECK(rig_find(t) >= 0);
    if (rig_find(t) >= 0) CHECK_ST(R.o_st[rig_find(t)], ACCEL_OK);
    CHECK_EQ(R.s.dev_error, 0);
}

/* ---------------------------------------------------------------- lost: what ends it */
/* While lost (bytes were dropped with a long ECHO still to be answered, so a frame found may lie
 * inside its payload) nothing is matched until the response buffer reads empty. A level read has
 * no CRC: one damaged to say "empty" must not end that state (the next bytes, read as frames,
 * may be an ECHO's payload); it takes two empty reads in a row. Here a DATA frame naming the
 * pending NN_INFO stands for such payload bytes, and the first response-level read after it is
 * zeroed. */
static accel_port dmg_port;
static unsigned dmg_left, dmg_next;
static accel_status dmg_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t n,
                            unsigned fl)
{
    accel_status st = R.sim.port.spi_transfer(u, cs, tx, rx, n, fl);
    if (dmg_next && rx) {
        memset(rx, 0, n); /* the level says 0: empty */
        dmg_next = 0;
    } else if (dmg_left && tx && n >= 2 && tx[0] == ACCEL_TSP1_SPI_OP_REG_READ &&
               tx[1] == ACCEL_TSP1_REG_BUF_STATUS(ACCEL_TSP1_BUF_RSP)) {
        dmg_left--;
        dmg_next = 1;
    }
    return st;
}
static void test_lost_needs_two_empty_reads(void)
{
    uint8_t q[4] = {1, 0, 0, 0}, f[16];
    size_t len;
    uint16_t t;
    int j;
    setup(256, 256, 2, 1, 8, 1);
    rig_ready();
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &t), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA, t, NULL, 0, f,
                                         sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    R.s.lost = 1; /* as after a drop inside a long ECHO's answer */
    dmg_port = R.sim.port;
    dmg_port.spi_transfer = dmg_spi;
    R.s.bus.port = &dmg_port;
    dmg_left = 1;
    (void)accel_tsp1_poll(&R.s);
    (void)accel_tsp1_poll(&R.s);
    R.s.bus.port = &R.sim.port;
    CHECK_EQ(R.n_out, 0); /* the stand-in was read while lost: ignored */
    CHECK_EQ(R.s.lost, 0);
    R.m.exec_per_ms = 2;
    drain(20);
    j = rig_find(t);
    CHECK(j >= 0);
    if (j >= 0) CHECK_ST(R.o_st[j], ACCEL_OK);
}

/* A frame cut short (a reset cleared the rest) is given up once the buffer reads empty; with a
 * long ECHO pending that drop makes the session lost, and the empty read that found it ends it
 * too: the answers placed after it start at a frame boundary. (It once stayed lost until the
 * next empty read, and the ECHO's own answer, read meanwhile, was ignored: UNKNOWN.) */
static void test_lost_ends_after_cut(void)
{
    static const uint8_t p[20] = "twenty bytes of echo";
    uint8_t f[40];
    size_t len;
    uint16_t t;
    int j;
    setup(256, 256, 2, 1, 8, 1);
    rig_ready();
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, p, sizeof p, &t), ACCEL_OK);
    CHECK_EQ(R.s.big, 1);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA, 0x5555, p,
                                         sizeof p, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, 15), ACCEL_OK); /* the rest cleared by a reset */
    (void)accel_tsp1_poll(&R.s);
    CHECK_EQ(R.s.dec.dropped[ACCEL_TSP1_DROP_TRUNCATED], 15);
    CHECK_EQ(R.s.lost, 0);
    R.m.exec_per_ms = 2;
    drain(20);
    j = rig_find(t);
    CHECK(j >= 0);
    if (j >= 0) CHECK_ST(R.o_st[j], ACCEL_OK);
}

/* A command sent into the device's error state is taken for discarded, but another host's
 * CLEAR_ERROR let it run, and its answer came while the driver was lost (ignored), or damaged
 * (dropped by the decoder): it ends UNKNOWN_OUTCOME, never DISCARDED (what was ignored or
 * dropped may have been its own answer). */
static void lost_evidence(int damage)
{
    uint8_t q[4] = {40, 0, 0, 0}, f[ACCEL_TSP1_OVERHEAD];
    size_t a;
    uint16_t t1, t2;
    int j;
    setup(512, 256, 2, 0, 8, 1);
    rig_ready();
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &t1), ACCEL_OK); /* ERR_ARG */
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, 0x7777, NULL, 0, f, sizeof f, &a),
             ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, f, a), ACCEL_OK); /* the other host */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t2), ACCEL_OK);
    R.m.exec_per_ms = 1;
    accel_sim_advance(&R.sim, 1); /* the NN_INFO fails */
    R.m.exec_per_ms = 0;
    (void)accel_tsp1_poll(&R.s); /* its ERR_ARG: the ECHO is taken for discarded */
    CHECK_ST(R.o_st[rig_find(t1)], ACCEL_E_TSP1_ERR_ARG);
    R.m.exec_per_ms = 2;
    accel_sim_advance(&R.sim, 2); /* the other host's CLEAR_ERROR, then the ECHO runs */
    CHECK_EQ(R.fate[t2], ACCEL_TSP1_MODEL_RAN);
    if (damage) { /* its answer damaged on the way: a byte flipped in the buffer */
        uint8_t b[64];
        size_t got = 0;
        CHECK_ST(accel_fifo_read(&R.m.rspq, b, sizeof b, &got), ACCEL_OK);
        CHECK(got >= 13);
        b[got - 5] ^= 0x01; /* its payload byte */
        CHECK_ST(accel_fifo_write(&R.m.rspq, b, got), ACCEL_OK);
    } else {
        R.s.lost = 1; /* its answer comes while lost */
    }
    drain(50);
    j = rig_find(t2);
    CHECK(j >= 0);
    if (j >= 0) CHECK_ST(R.o_st[j], ACCEL_E_TSP1_UNKNOWN_OUTCOME);
}
static void test_lost_hides_evidence(void) { lost_evidence(0); }
static void test_dropped_evidence(void) { lost_evidence(1); }

/* ---------------------------------------------------------------- REBOOT means "booted" */
/* A brown-out reset while a REBOOT waits in the command buffer: the boot's ASYNC_READY is the
 * REBOOT's OK, although the REBOOT itself never ran (wiped). Documented: OK means the device
 * booted; no host can tell the two apart. */
static void test_reboot_ok_means_booted(void)
{
    uint16_t t;
    setup(256, 128, 1, 1, 8, 1);
    rig_ready();
    R.m.exec_per_ms = 0; /* the REBOOT waits */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_REBOOT, NULL, 0, &t), ACCEL_OK);
    accel_sim_advance(&R.sim, 2);
    accel__tsp1_model_reset(&R.m, R.m.boot_ms); /* the supply dips: the device resets itself */
    R.m.exec_per_ms = 2;
    drain(100);
    CHECK_EQ(R.fate[t], ACCEL_TSP1_MODEL_WIPED);
    CHECK_ST(R.o_st[rig_find(t)], ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
}

/* ---------------------------------------------------------------- a bus nobody drives */
/* Every read gives all ones (the device gone, a stuck line): poll says ACCEL_E_IO and no
 * pending command reaches its deadline (nothing is known, least of all that no answer waits);
 * back on the device, the answer decides. */
static accel_port ones_port;
static accel_status ones_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t n, unsigned fl)
{
    (void)u; (void)cs; (void)tx; (void)fl;
    if (rx) memset(rx, 0xFF, n);
    return ACCEL_OK;
}
static void test_all_ones_bus(void)
{
    const accel_port *real;
    uint16_t t;
    setup(256, 128, 1, 1, 8, 1);
    rig_ready();
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "ok", 2, &t), ACCEL_OK);
    ones_port = R.sim.port;
    ones_port.spi_transfer = ones_spi;
    real = R.s.bus.port;
    R.s.bus.port = &ones_port;
    accel_sim_advance(&R.sim, 500);
    CHECK_ST(accel_tsp1_poll(&R.s), ACCEL_E_IO);
    CHECK_EQ(accel_ring_count(&R.s.pend), 1);
    CHECK_EQ(R.n_out, 0);
    R.s.bus.port = real;
    drain(20);
    CHECK_ST(R.o_st[rig_find(t)], ACCEL_OK);
}

/* A second host's CLEAR_ERROR, a bad piece of its own (ERR_FRAMING, no TID) and another
 * CLEAR_ERROR between our failing command and the next: the error naming nothing must not
 * make the next one DISCARDED (it runs after the second CLEAR_ERROR). */
static void test_second_host_framing(void)
{
    uint8_t f[ACCEL_TSP1_OVERHEAD], m[4], q[4] = {40, 0, 0, 0};
    size_t a;
    uint16_t x, y;
    int j;
    setup(512, 256, 2, 0, 8, 1);
    rig_ready();
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_INFO, q, 4, &x), ACCEL_OK); /* ERR_ARG */
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, 0x7777, NULL, 0, f, sizeof f, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, f, a), ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, "xyz", 3), ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, f, a), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(m, 1), 4, &y), ACCEL_OK);
    drain(50);
    CHECK_EQ(R.fate[y], ACCEL_TSP1_MODEL_RAN);
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_RUNNING);
    CHECK_ST(R.o_st[rig_find(x)], ACCEL_E_TSP1_ERR_ARG);
    j = rig_find(y);
    CHECK(j >= 0);
    if (j >= 0) CHECK(R.o_st[j] == ACCEL_OK || R.o_st[j] == ACCEL_E_TSP1_UNKNOWN_OUTCOME);
}

int main(void)
{
    RUN(test_nn_info_content);
    RUN(test_stale_running_mask);
    RUN(test_late_poll_big_backlog);
    RUN(test_full_response_buffer);
    RUN(test_deadline_restarts);
    RUN(test_sleep_full_response_buffer);
    RUN(test_update_reboot_pending);
    RUN(test_update_fault_sweep);
    RUN(test_second_host);
    RUN(test_rx_holds_fixed_answers);
    RUN(test_long_error_detail);
    RUN(test_long_error_cut);
    RUN(test_lost_needs_two_empty_reads);
    RUN(test_lost_hides_evidence);
    RUN(test_dropped_evidence);
    RUN(test_lost_ends_after_cut);
    RUN(test_reboot_ok_means_booted);
    RUN(test_all_ones_bus);
    RUN(test_second_host_framing);
    return TEST_END();
}
