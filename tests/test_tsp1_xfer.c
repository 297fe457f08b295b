/* test_tsp1_xfer.c - ACCEL_TSP1_XFER_CUSTOM: the SPI transaction format is the user's to define.
 * This file defines accel_tsp1_xfer() for a second format, "format B":
 *   byte 0: 0x80 | 0x40 for a read | 0x20 for a buffer (else a register); byte 1: address;
 *   bytes 2-3: data length, big-endian; no dummy byte; register values big-endian on the wire.
 * The device model speaks the default format, so a test port in front of it translates format
 * B back (and counts anything that is not format B). The driver runs unchanged on top: boot,
 * ECHO, network scan and control, IRQ configuration, a secure update, a fault and recovery. */
#define ACCEL_TSP1_XFER_CUSTOM
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

#define B_READ 0x40u
#define B_BUF 0x20u

/* ---- the user's side: the driver's one transfer function, in format B ---- */
static int refuse_writes; /* test switch: buffer writes refused before anything is sent */
ACCELDEF accel_status accel_tsp1_xfer(const accel_tsp1_bus *b, uint8_t op, uint8_t addr,
                                      const uint8_t *tx, uint8_t *rx, size_t n)
{
    uint8_t h[4], v[4];
    accel_status st;
    unsigned reg = op == ACCEL_TSP1_SPI_OP_REG_READ || op == ACCEL_TSP1_SPI_OP_REG_WRITE;
    if (b->i2c || n > 0xFFFFu || (refuse_writes && tx && !reg))
        return ACCEL_E_UNSUPPORTED; /* nothing sent */
    h[0] = (uint8_t)(0x80u | (tx ? 0u : B_READ) | (reg ? 0u : B_BUF));
    h[1] = addr;
    accel_store_u16be(h + 2, (uint16_t)n);
    if (reg && tx) { /* the driver hands register values over little-endian */
        accel_store_u32be(v, accel_load_u32le(tx));
        tx = v;
    }
    st = accel_port_spi_transfer(b->port, b->addr, h, NULL, 4, ACCEL_SPI_KEEP_CS);
    if (st != ACCEL_OK) return st;
    st = accel_port_spi_transfer(b->port, b->addr, tx, rx, n, 0);
    if (st == ACCEL_OK && reg && rx) accel_store_u32le(rx, accel_load_u32be(rx));
    return st;
}

/* ---- the device's side: format B in front of the model (through ports/sim) ---- */
static accel_port xport;
static uint8_t xhdr[4];
static int xin_frame; /* a header was taken: the next call is its data */
static unsigned xbad, xframes;
static uint8_t first_write_hdr[4];
static int seen_write;

static accel_status x_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                          unsigned flags)
{
    const accel_port *sp = &R.sim.port;
    uint8_t mh[2 + ACCEL_TSP1_SPI_DUMMY], v[4];
    unsigned read, buf, reg;
    accel_status st;
    (void)u;
    if (!xin_frame) {
        if (len != 4 || !tx || !(tx[0] & 0x80u) || (tx[0] & 0x1Fu) || !(flags & ACCEL_SPI_KEEP_CS)) {
            xbad++;
            return ACCEL_E_IO;
        }
        memcpy(xhdr, tx, 4);
        xin_frame = 1;
        return ACCEL_OK;
    }
    xin_frame = 0;
    xframes++;
    read = xhdr[0] & B_READ;
    buf = xhdr[0] & B_BUF;
    reg = !buf;
    if (accel_load_u16be(xhdr + 2) != len || (flags & ACCEL_SPI_KEEP_CS)) {
        xbad++;
        return ACCEL_E_IO;
    }
    if (buf && !read && xhdr[1] == ACCEL_TSP1_BUF_CMD && !seen_write) {
        memcpy(first_write_hdr, xhdr, 4);
        seen_write = 1;
    }
    memset(mh, 0, sizeof mh);
    mh[0] = (uint8_t)(reg ? (read ? ACCEL_TSP1_SPI_OP_REG_READ : ACCEL_TSP1_SPI_OP_REG_WRITE)
                          : (read ? ACCEL_TSP1_SPI_OP_BUF_READ : ACCEL_TSP1_SPI_OP_BUF_WRITE));
    mh[1] = xhdr[1];
    st = sp->spi_transfer(sp->user, cs, mh, NULL, read ? sizeof mh : 2u, ACCEL_SPI_KEEP_CS);
    if (st != ACCEL_OK) return st;
    if (reg && tx && len == 4) { /* big-endian on the wire, little-endian for the model */
        accel_store_u32le(v, accel_load_u32be(tx));
        tx = v;
    }
    st = sp->spi_transfer(sp->user, cs, tx, rx, len, 0);
    if (st == ACCEL_OK && reg && rx && len == 4) accel_store_u32be(rx, accel_load_u32le(rx));
    return st;
}

static void use_format_b(void)
{
    xport = R.sim.port; /* clock, delay, IRQ and GPIO as the simulator has them */
    xport.spi_transfer = x_spi;
    R.s.bus.port = &xport;
    xin_frame = 0;
    xbad = xframes = 0;
    seen_write = 0;
}

static uint8_t image[144 * 4];
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    memcpy(dst, image + off, n);
    return ACCEL_OK;
}

static void test_format_b_session(void)
{
    uint8_t out[16], n, mb[4];
    size_t len;
    uint32_t v;
    unsigned i;
    accel_tsp1_update u;
    setup(512, 128, 3, 1, 8, 1);
    use_format_b();
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "format B", 8, out, sizeof out, &len, 100),
             ACCEL_OK);
    CHECK_EQ(len, 8);
    CHECK_MEM(out, "format B", 8);
    /* the session's first write, one format-B buffer write: CLEAR_ERROR (12 bytes) and the
       ECHO of its 4-byte nonce (16) that synchronise it; the ECHO's own 20 bytes follow */
    CHECK_EQ(seen_write, 1);
    CHECK_EQ(first_write_hdr[0], 0xA0);
    CHECK_EQ(first_write_hdr[1], ACCEL_TSP1_BUF_CMD);
    CHECK_EQ(accel_load_u16be(first_write_hdr + 2), 28);
    CHECK_ST(accel_tsp1_nn_scan(&R.s, &n, 100), ACCEL_OK);
    CHECK_EQ(n, 3);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_START, 6, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[1], ACCEL_TSP1_NN_RUNNING);
    CHECK_EQ(R.m.state[2], ACCEL_TSP1_NN_RUNNING);
    CHECK_ST(accel_tsp1_nn_control(&R.s, ACCEL_TSP1_NN_STOP, 6, 100), ACCEL_OK);
    CHECK_EQ(R.m.state[1], ACCEL_TSP1_NN_STOPPED);
    /* registers: values big-endian on this wire, the same numbers for the driver */
    CHECK_ST(accel_tsp1_irq_config(&R.s.bus, 0x3, 0x0102, 0x0304), ACCEL_OK);
    CHECK_EQ(R.m.irq_mask, 3);
    CHECK_EQ(R.m.thr[0], 0x0102);
    CHECK_EQ(R.m.thr[1], 0x0304);
    CHECK_ST(accel_tsp1_reg_read(&R.s.bus, (uint8_t)ACCEL_TSP1_REG_BUF_CTRL(1), &v), ACCEL_OK);
    CHECK_EQ(v, 0x0304);
    CHECK_ST(accel_tsp1_irq_config(&R.s.bus, 2, 0, 1), ACCEL_OK);
    /* a pipelined error: the device discards behind it, as over the default format */
    {
        uint16_t t1, t2;
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_START, mask4(mb, 0x10), 4, &t1), ACCEL_OK);
        CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, &t2), ACCEL_OK);
        drain(20);
        CHECK_ST(R.o_st[rig_find(t1)], ACCEL_E_TSP1_ERR_ARG);
        CHECK_ST(R.o_st[rig_find(t2)], ACCEL_E_TSP1_DISCARDED);
        CHECK_EQ(R.fate[t2], ACCEL_TSP1_MODEL_DISCARDED);
    }
    /* a secure update end to end */
    for (i = 0; i < sizeof image - 4; i++) image[i] = (uint8_t)(i ^ 0x5Au);
    accel_store_u32le(image + sizeof image - 4, accel_crc32(image, sizeof image - 4));
    memset(&u, 0, sizeof u);
    u.read = img_read;
    u.total = sizeof image;
    CHECK_ST(accel_tsp1_update_run(&R.s, &u, 200), ACCEL_OK);
    CHECK_EQ(R.m.fw_version, 2);
    /* a flipped byte in a frame (data call of a write: the 4th SPI call of a submit) */
    add_fault(ACCEL_SIM_FLIP, ACCEL_SIM_TO_DEVICE, 3, 9);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "y", 1, NULL, 0, NULL, 100),
             ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    accel_sim_clear_faults(&R.sim);
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "z", 1, NULL, 0, NULL, 100), ACCEL_OK);
    CHECK_EQ(xbad, 0);
    CHECK(xframes > 50);
    CHECK_EQ(R.s.outcomes, R.n_out);
}

/* The hook's refusal (nothing sent) reaches the caller; nothing is pending. */
static void test_format_b_refuses(void)
{
    uint32_t v;
    setup(512, 128, 1, 1, 8, 1);
    use_format_b();
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    R.s.bus.i2c = 1;
    CHECK_ST(accel_tsp1_reg_read(&R.s.bus, 0, &v), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(accel_ring_count(&R.s.pend), 0);
    R.s.bus.i2c = 0;
    /* the level read works, the write is refused unsent: no TID is left pending */
    refuse_writes = 1;
    CHECK_ST(accel_tsp1_submit(&R.s, ACCEL_TSP1_NN_STOP, mask4((uint8_t *)&v, 1), 4, NULL),
             ACCEL_E_UNSUPPORTED);
    CHECK_EQ(accel_ring_count(&R.s.pend), 0);
    (void)accel_tsp1_poll(&R.s); /* nothing pending: what matters is that no outcome appears */
    CHECK_EQ(R.n_out, 0);
    refuse_writes = 0;
    CHECK_ST(accel_tsp1_call(&R.s, ACCEL_TSP1_ECHO, "x", 1, NULL, 0, NULL, 100), ACCEL_OK);
}

int main(void)
{
    RUN(test_format_b_session);
    RUN(test_format_b_refuses);
    return TEST_END();
}
