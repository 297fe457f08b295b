/* test_tsp1_sessions.c - TSP1 outcomes that must stay true across host sessions, retries and late
 * polls, each on a device model that keeps running: a new session on a device that still holds
 * an earlier session's commands and answers, BUSY refusals, a response frame carried inside an
 * ECHO's payload, a flipped register bit at reboot, an auto_clear that keeps trying, a host that
 * polls after the deadline, and a partial command in the device's error state. Every expected
 * value comes from the scenario (what the device was told and did), not from the driver. */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "tsp1_rig.h"

/* A second driver session on the same device model and port: the host program restarted. */
static accel_tsp1 s2;
static uint32_t mem2[(ACCEL_TSP1_DRIVER_MEM(8, 64, 64) + 3) / 4];
static void open_second(void)
{
    accel_tsp1_config c;
    rig_config(&c, mem2, sizeof mem2, 8, 1);
    c.cmd_payload = 64;
    c.rsp_payload = 64;
    CHECK_ST(accel_tsp1_init(&s2, &c), ACCEL_OK);
}

/* A session ends with its NN_STOP answered but unread; the next session's NN_START for a
 * network that does not exist must report the device's ERR_ARG, not the old answer. Then an ECHO
 * "hello" that timed out in one session must not answer the next session's ECHO "world". */
static void test_restart_takes_no_old_answer(void)
{
    uint8_t mb[4], out[16];
    size_t len = 0;
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, mask4(mb, 1), 4, NULL), ACCEL_OK);
    accel_sim_advance(&R.sim, 10); /* it ran; its marker's answer waits, never read */
    open_second();
    CHECK_ST(accel_tsp1_call(&s2, ACCEL_TSP1_NN_START, mask4(mb, 4), 4, NULL, 0, NULL, 300),
             ACCEL_E_TSP1_ERR_ARG); /* network 2 does not exist */
    CHECK_EQ(R.m.state[0], ACCEL_TSP1_NN_STOPPED);

    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    R.m.exec_per_ms = 0; /* the device is held up: the ECHO times out in this session */
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "hello", 5, out, sizeof out, &len, 50),
             ACCEL_E_TIMEOUT);
    R.m.exec_per_ms = 2;
    open_second();
    CHECK_ST(accel_tsp1_call(&s2, ACCEL_TSP1_ECHO, "world", 5, out, sizeof out, &len, 300),
             ACCEL_OK);
    CHECK_EQ(len, 5);
    CHECK_MEM(out, "world", 5);
}

/* A host spinning on BUSY while the device is held up: refusals take no TID, so the command
 * sent after them has the next TID, not one that wrapped onto a pending command. */
static void test_busy_spin_takes_no_tid(void)
{
    uint16_t t1 = 0, t2 = 0;
    unsigned long i, busy = 0;
    setup(64, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    R.m.exec_per_ms = 0;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789abcdef0123456789ab", 28, &t1),
             ACCEL_OK); /* 40 of the 64 bytes */
    for (i = 0; i < 65534ul; i++)
        if (accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "0123456789abcdef0123456789ab", 28, NULL) ==
            ACCEL_E_BUSY)
            busy++;
    CHECK_EQ(busy, 65534ul);
    R.m.exec_per_ms = 2;
    accel_sim_advance(&R.sim, 5); /* the device takes the first ECHO */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "b", 1, &t2), ACCEL_OK);
    CHECK(t2 != t1);
    CHECK_EQ(t2, (uint16_t)(t1 + 1u));
    drain(100);
    CHECK_EQ(R.n_out, 3);
    CHECK_ST(R.o_st[1], ACCEL_OK);
    CHECK_ST(R.o_st[2], ACCEL_OK);
}

/* An ECHO whose payload holds a valid response frame: the marker answer of the NN_START sent
 * behind it. The device refuses that NN_START (ERR_ARG). (a) No fault: the ECHO's answer is
 * larger than the receive buffer, which would drop it and rescan inside; (b) one flipped bit in
 * the ECHO's answer, after the embedded frame. Neither may report the NN_START OK. */
static void test_frame_inside_echo(void)
{
    uint8_t p[20], f[64], mb[4];
    size_t len, fl;
    uint16_t te, tn;
    accel_tsp1_config c;
    int k;
    /* (a) the receive buffer holds 28 bytes: a 20-byte ECHO's answer (32) does not fit */
    setup(256, 128, 1, 1, 8, 1);
    rig_config(&c, R.mem, sizeof R.mem, 8, 1);
    c.cmd_payload = 64;
    c.rsp_payload = 16;
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    te = R.s.next_tid;
    memset(p, 0xEE, sizeof p);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA,
                                         (uint16_t)(te + 1u), NULL, 0, p + 4, 12, &fl), ACCEL_OK);
    (void)accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, p, sizeof p, NULL); /* refused, or sent */
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(mb, 2), 4, &tn), ACCEL_OK);
    drain(300);
    k = rig_find(tn);
    REQUIRE(k >= 0);
    CHECK_ST(R.o_st[k], ACCEL_E_TSP1_ERR_ARG);

    /* (b) a held-up device; its answers placed by hand: the ECHO's with one flipped bit after
       the embedded frame, then the NN_START's ERR_ARG */
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    R.m.exec_per_ms = 0;
    te = R.s.next_tid;
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA,
                                         (uint16_t)(te + 1u), NULL, 0, p + 4, 12, &fl), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, p, sizeof p, &te), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(mb, 2), 4, &tn), ACCEL_OK);
    CHECK_EQ(tn, (uint16_t)(te + 1u));
    accel_fifo_clear(&R.m.cmdq); /* the device lost them: only the frames below answer */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_DATA, te, p,
                                         sizeof p, f, sizeof f, &len), ACCEL_OK);
    f[8 + 18] ^= 0x10; /* payload byte 18: past the embedded frame (bytes 4..15) */
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_ARG, tn, NULL,
                                         0, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    R.m.exec_per_ms = 2;
    drain(300);
    k = rig_find(tn);
    REQUIRE(k >= 0);
    CHECK(R.o_st[k] != ACCEL_OK); /* the device refused it */
}

/* The device comes up in its ROM bootloader (register 0x00 reads 0); one flipped bit turns the
 * first read of it into 1. The driver must still say ROM. */
static int flips_left, armed;
static accel_status (*inner_spi)(void *, uint8_t, const uint8_t *, uint8_t *, size_t, unsigned);
/* a register read is two transfers: op, register, dummy (chip select held), then the value */
static accel_status flip_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t n,
                             unsigned fl)
{
    accel_status st = inner_spi(u, cs, tx, rx, n, fl);
    if (armed && rx && n == 4 && flips_left) {
        rx[0] ^= 1u; /* bit 0 of the value (little-endian) */
        flips_left--;
    }
    armed = tx && n >= 2 && tx[0] == ACCEL_TSP1_SPI_OP_REG_READ && tx[1] == ACCEL_TSP1_REG_FW_VERSION;
    return st;
}
static void test_rom_bit_flip(void)
{
    setup(256, 128, 1, 1, 8, 1);
    inner_spi = R.sim.port.spi_transfer;
    R.sim.port.spi_transfer = flip_spi;
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    R.m.fw_valid = 0; /* an unfinished update: the next boot runs the ROM bootloader */
    flips_left = 1;
    CHECK_ST(accel_tsp1_reboot(&R.s, 200), ACCEL_E_TSP1_ROM);
    CHECK_EQ(R.m.rom, 1);
    CHECK_EQ(R.s.rom, 1);
    CHECK_EQ(flips_left, 0);
    /* and the other way round: firmware 1 read once as 0 is not ROM */
    R.m.fw_valid = 1;
    flips_left = 1;
    CHECK_ST(accel_tsp1_reboot(&R.s, 200), ACCEL_OK);
    CHECK_EQ(R.s.rom, 0);
}

/* auto_clear: a CLEAR_ERROR refused (full command buffer) for longer than timeout_ms is still
 * retried; once the device drains, commands run again with no manual clear_error. */
static void test_auto_clear_keeps_trying(void)
{
    uint8_t f[16];
    size_t len;
    unsigned i;
    setup(96, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    R.m.exec_per_ms = 0;
    for (i = 0; i < 7; i++) CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, NULL, 0, NULL), ACCEL_OK);
    /* an error naming no command: the device may be in its error state */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_FRAMING,
                                         ACCEL_TSP1_TID_NONE, NULL, 0, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_fifo_write(&R.m.rspq, f, len), ACCEL_OK);
    (void)accel_tsp1_poll(&R.s);
    accel_sim_advance(&R.sim, 400); /* the CLEAR_ERROR stays refused past its deadline */
    (void)accel_tsp1_poll(&R.s);
    R.m.exec_per_ms = 2; /* the device recovers */
    for (i = 0; i < 50; i++) {
        (void)accel_tsp1_poll(&R.s);
        accel_sim_advance(&R.sim, 1);
    }
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "z", 1, NULL, 0, NULL, 200), ACCEL_OK);
}

/* A host that polls only after the deadline: the answer already waiting decides the command, and
 * no CLEAR_ERROR is sent for it. */
static void test_late_poll(void)
{
    uint8_t mb[4];
    uint16_t t1, t2;
    uint32_t ran;
    int k;
    setup(256, 128, 1, 1, 8, 1);
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "a", 1, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "late", 4, &t1), ACCEL_OK);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(mb, 1), 4, &t2), ACCEL_OK);
    accel_sim_advance(&R.sim, 500); /* both ran long ago */
    ran = R.m.executed;
    (void)accel_tsp1_poll(&R.s);
    k = rig_find(t1);
    REQUIRE(k >= 0);
    CHECK_ST(R.o_st[k], ACCEL_OK);
    k = rig_find(t2);
    REQUIRE(k >= 0);
    CHECK_ST(R.o_st[k], ACCEL_OK);
    accel_sim_advance(&R.sim, 10);
    CHECK_EQ(R.m.executed, ran); /* no CLEAR_ERROR went out */
}

/* The spec: a partially received command is discarded and an error is produced, also while the
 * queue is in its error state. */
static void test_partial_in_error_state(void)
{
    uint8_t f[32], rb[12];
    size_t len, used;
    accel_tsp1_frame fr;
    setup(256, 128, 1, 1, 8, 1);
    accel_sim_advance(&R.sim, 20);
    R.m.error_state = 1;
    accel_fifo_clear(&R.m.rspq);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 7, "abc", 3, f, sizeof f, &len), ACCEL_OK);
    CHECK_ST(accel_tsp1_buf_write(&R.s.bus, ACCEL_TSP1_BUF_CMD, f, len - 2), ACCEL_OK);
    accel_sim_advance(&R.sim, 5);
    CHECK_EQ(accel_fifo_count(&R.m.rspq), 12);
    CHECK_ST(accel_tsp1_buf_read(&R.s.bus, ACCEL_TSP1_BUF_RSP, rb, 12), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&R.s.dec, rb, 12, &used, &fr), ACCEL_OK);
    CHECK_EQ(fr.id, ACCEL_TSP1_R_ERR_FRAMING);
    CHECK_EQ(fr.tid, 7);
    CHECK_EQ(R.m.error_state, 1);
}

int main(void)
{
    RUN(test_restart_takes_no_old_answer);
    RUN(test_busy_spin_takes_no_tid);
    RUN(test_frame_inside_echo);
    RUN(test_rom_bit_flip);
    RUN(test_auto_clear_keeps_trying);
    RUN(test_late_poll);
    RUN(test_partial_in_error_state);
    return TEST_END();
}
