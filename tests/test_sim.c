/* tests/test_sim.c - the simulator port: routing to a model, virtual clock, every fault kind in
 * each direction, skip/count/target matching, closed device, trace. The model here is a toy
 * written for the test: it records what it received and answers fixed bytes. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"

typedef struct {
    uint8_t got[64];
    size_t got_len;
    unsigned spi_calls;
    unsigned cs_releases; /* zero-length transfers without KEEP_CS */
    uint32_t regs[16];
    uint64_t reg64;
    uint32_t elapsed;   /* time the simulator told us about */
    uint32_t irq_at;    /* IRQ asserts once elapsed >= irq_at */
    unsigned gpio_line, gpio_level;
    int bulk_in_timeout; /* answer bulk IN with a timeout */
} toy_t;

static accel_status toy_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                            unsigned flags)
{
    toy_t *t = (toy_t *)u;
    size_t i;
    (void)cs;
    t->spi_calls++;
    if (len == 0 && !flags) t->cs_releases++;
    t->got_len = len < sizeof t->got ? len : sizeof t->got;
    for (i = 0; i < t->got_len; i++) t->got[i] = tx ? tx[i] : 0;
    if (rx)
        for (i = 0; i < len; i++) rx[i] = (uint8_t)(0xA0 + i); /* A0 A1 A2 ... */
    return ACCEL_OK;
}

static accel_status toy_i2c(void *u, uint16_t addr, const uint8_t *w, size_t wlen, uint8_t *r,
                            size_t rlen)
{
    toy_t *t = (toy_t *)u;
    size_t i;
    t->got_len = wlen;
    for (i = 0; i < wlen && i < sizeof t->got; i++) t->got[i] = w[i];
    for (i = 0; i < rlen; i++) r[i] = (uint8_t)(addr + i);
    return ACCEL_OK;
}

static accel_status toy_ctrl(void *u, uint8_t rt, uint8_t req, uint16_t value, uint16_t index,
                             uint8_t *data, uint16_t length, uint32_t timeout_ms, size_t *done)
{
    toy_t *t = (toy_t *)u;
    size_t i;
    (void)req;
    (void)value;
    (void)index;
    (void)timeout_ms;
    if (rt & ACCEL_USB_DIR_IN) {
        for (i = 0; i < length; i++) data[i] = (uint8_t)(0x10 + i);
    } else {
        t->got_len = length;
        for (i = 0; i < length && i < sizeof t->got; i++) t->got[i] = data[i];
    }
    *done = length;
    return ACCEL_OK;
}

static accel_status toy_bulk_out(void *u, uint8_t ep, const uint8_t *data, size_t len,
                                 uint32_t timeout_ms, size_t *done)
{
    toy_t *t = (toy_t *)u;
    size_t i;
    (void)ep;
    (void)timeout_ms;
    t->got_len = len;
    for (i = 0; i < len && i < sizeof t->got; i++) t->got[i] = data[i];
    *done = len;
    return ACCEL_OK;
}

static accel_status toy_bulk_in(void *u, uint8_t ep, uint8_t *data, size_t len,
                                uint32_t timeout_ms, size_t *done)
{
    toy_t *t = (toy_t *)u;
    size_t i, n = len < 5 ? len : 5; /* the device has 5 bytes to give */
    (void)ep;
    (void)timeout_ms;
    if (t->bulk_in_timeout) return ACCEL_E_TIMEOUT;
    for (i = 0; i < n; i++) data[i] = (uint8_t)(0x50 + i);
    *done = n;
    return ACCEL_OK;
}

static accel_status toy_rr32(void *u, uint32_t off, uint32_t *v)
{
    toy_t *t = (toy_t *)u;
    if (off / 4 >= 16) return ACCEL_E_ARG;
    *v = t->regs[off / 4];
    return ACCEL_OK;
}
static accel_status toy_rw32(void *u, uint32_t off, uint32_t v)
{
    toy_t *t = (toy_t *)u;
    if (off / 4 >= 16) return ACCEL_E_ARG;
    t->regs[off / 4] = v;
    return ACCEL_OK;
}
static accel_status toy_rr64(void *u, uint32_t off, uint64_t *v)
{
    (void)off;
    *v = ((toy_t *)u)->reg64;
    return ACCEL_OK;
}
static accel_status toy_rw64(void *u, uint32_t off, uint64_t v)
{
    (void)off;
    ((toy_t *)u)->reg64 = v;
    return ACCEL_OK;
}
static accel_status toy_gpio(void *u, unsigned line, unsigned level)
{
    ((toy_t *)u)->gpio_line = line;
    ((toy_t *)u)->gpio_level = level;
    return ACCEL_OK;
}
static accel_status toy_irq(void *u, unsigned line, uint32_t timeout_ms)
{
    toy_t *t = (toy_t *)u;
    (void)line;
    (void)timeout_ms;
    return t->elapsed >= t->irq_at ? ACCEL_OK : ACCEL_E_TIMEOUT;
}
static void toy_time(void *u, uint32_t ms) { ((toy_t *)u)->elapsed += ms; }

static accel_sim sim;
static toy_t toy;

static void setup(void)
{
    accel_port m;
    memset(&toy, 0, sizeof toy);
    memset(&m, 0, sizeof m);
    m.user = &toy;
    m.spi_transfer = toy_spi;
    m.i2c_write_read = toy_i2c;
    m.usb_control = toy_ctrl;
    m.usb_bulk_out = toy_bulk_out;
    m.usb_bulk_in = toy_bulk_in;
    m.reg_read32 = toy_rr32;
    m.reg_write32 = toy_rw32;
    m.reg_read64 = toy_rr64;
    m.reg_write64 = toy_rw64;
    m.gpio_set = toy_gpio;
    m.wait_irq = toy_irq;
    m.delay_ms = toy_time;
    accel_sim_init(&sim);
    accel_sim_attach(&sim, &m);
}

static accel_sim_fault fault(accel_sim_fault_kind k, unsigned ops, unsigned dir, size_t at)
{
    accel_sim_fault f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.ops = ops;
    f.dir = dir;
    f.at = at;
    return f;
}

static void test_routing_and_clock(void)
{
    uint8_t rx[4], buf[8];
    uint32_t v = 0, now = 0;
    uint64_t v64 = 0;
    size_t done = 0;
    setup();
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, (const uint8_t *)"\x01\x02\x03\x04", rx, 4, 0),
             ACCEL_OK);
    CHECK_MEM(toy.got, "\x01\x02\x03\x04", 4);
    CHECK_MEM(rx, "\xA0\xA1\xA2\xA3", 4);
    CHECK_ST(accel_port_i2c_write_read(&sim.port, 0x30, (const uint8_t *)"\x07", 1, rx, 2),
             ACCEL_OK);
    CHECK_MEM(rx, "\x30\x31", 2);
    CHECK_ST(accel_port_usb_control(&sim.port, 0xC0, 1, 2, 3, buf, 3, 100, &done), ACCEL_OK);
    CHECK_EQ(done, 3);
    CHECK_MEM(buf, "\x10\x11\x12", 3);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x81, buf, 8, 100, &done), ACCEL_OK);
    CHECK_EQ(done, 5);
    CHECK_ST(accel_port_reg_write32(&sim.port, 8, 0xCAFEF00DUL), ACCEL_OK);
    CHECK_ST(accel_port_reg_read32(&sim.port, 8, &v), ACCEL_OK);
    CHECK_EQ(v, 0xCAFEF00DUL);
    CHECK_ST(accel_port_reg_read32(&sim.port, 400, &v), ACCEL_E_ARG); /* model's own error */
    CHECK_ST(accel_port_reg_write64(&sim.port, 0, 0x1122334455667788ULL), ACCEL_OK);
    CHECK_ST(accel_port_reg_read64(&sim.port, 0, &v64), ACCEL_OK);
    CHECK_EQ_U64(v64, 0x1122334455667788ULL);
    CHECK_ST(accel_port_gpio_set(&sim.port, 3, 1), ACCEL_OK);
    CHECK_EQ(toy.gpio_line, 3);
    CHECK_EQ(toy.gpio_level, 1);
    /* clock: delays and IRQ waits advance it, and the model is told */
    CHECK_ST(accel_port_now_ms(&sim.port, &now), ACCEL_OK);
    CHECK_EQ(now, 0);
    CHECK_ST(accel_port_delay_ms(&sim.port, 25), ACCEL_OK);
    CHECK_EQ(sim.now, 25);
    CHECK_EQ(toy.elapsed, 25);
    toy.irq_at = 40;
    CHECK_ST(accel_port_wait_irq(&sim.port, 0, 10), ACCEL_E_TIMEOUT);
    CHECK_EQ(sim.now, 35);
    CHECK_ST(accel_port_wait_irq(&sim.port, 0, 10), ACCEL_OK);
    CHECK_EQ(sim.now, 40);
    CHECK_ST(accel_port_wait_irq(&sim.port, 0, 0), ACCEL_OK); /* already asserted */
    CHECK_EQ(sim.now, 40);
    /* a model timeout on a USB transfer costs the call's whole timeout */
    toy.bulk_in_timeout = 1;
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x81, buf, 8, 250, &done), ACCEL_E_TIMEOUT);
    CHECK_EQ(sim.now, 290);
    CHECK(sim.calls >= 12);
}

static void test_unsupported_and_closed(void)
{
    accel_port m;
    uint8_t rx[2];
    uint32_t v;
    accel_sim s2;
    memset(&m, 0, sizeof m);
    accel_sim_init(&s2);
    accel_sim_attach(&s2, &m); /* a model with nothing */
    CHECK_ST(accel_port_spi_transfer(&s2.port, 0, NULL, rx, 2, 0), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_read32(&s2.port, 0, &v), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_wait_irq(&s2.port, 0, 5), ACCEL_E_UNSUPPORTED);
    setup();
    accel_sim_close(&sim);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, NULL, rx, 2, 0), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_reg_write32(&sim.port, 0, 1), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_gpio_set(&sim.port, 0, 1), ACCEL_E_CLOSED);
    CHECK_EQ(toy.spi_calls, 0);
    accel_sim_reopen(&sim);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, NULL, rx, 2, 0), ACCEL_OK);
    CHECK_ST(accel_sim_attach(NULL, &m), ACCEL_E_NULL);
    CHECK_ST(accel_sim_init(NULL), ACCEL_E_NULL);
}

static void test_fault_validation(void)
{
    accel_sim_fault f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_SPI, 0, 0);
    unsigned i;
    setup();
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_E_ARG); /* data fault without a direction */
    f = fault((accel_sim_fault_kind)0, ACCEL_SIM_OP_SPI, 0, 0);
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_E_ARG);
    f = fault(ACCEL_SIM_FAIL, 0, 0, 0);
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_E_ARG); /* no ops */
    CHECK_ST(accel_sim_add_fault(&sim, NULL), ACCEL_E_NULL);
    f = fault(ACCEL_SIM_FAIL, ACCEL_SIM_OP_GPIO, 0, 0);
    for (i = 0; i < ACCEL_SIM_MAX_FAULTS; i++) CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_OK);
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_E_FULL);
    accel_sim_clear_faults(&sim);
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_OK);
}

static void test_spi_faults(void)
{
    uint8_t rx[6];
    const uint8_t tx[6] = {1, 2, 3, 4, 5, 6};
    accel_sim_fault f;

    /* to device */
    setup();
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_SPI, ACCEL_SIM_TO_DEVICE, 2);
    f.mask = 0x80;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_MEM(toy.got, "\x01\x02\x83\x04\x05\x06", 6);
    CHECK_MEM(rx, "\xA0\xA1\xA2\xA3\xA4\xA5", 6);
    CHECK_MEM(tx, "\x01\x02\x03\x04\x05\x06", 6); /* the caller's buffer is never touched */

    setup();
    f = fault(ACCEL_SIM_DROP, ACCEL_SIM_OP_SPI, ACCEL_SIM_TO_DEVICE, 1);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_EQ(toy.got_len, 5);
    CHECK_MEM(toy.got, "\x01\x03\x04\x05\x06", 5);
    CHECK_MEM(rx, "\xFF\xFF\xFF\xFF\xFF\xFF", 6); /* host clocked a different frame */

    setup();
    f = fault(ACCEL_SIM_DUP, ACCEL_SIM_OP_SPI, ACCEL_SIM_TO_DEVICE, 5);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_EQ(toy.got_len, 7);
    CHECK_MEM(toy.got, "\x01\x02\x03\x04\x05\x06\x06", 7);

    setup();
    f = fault(ACCEL_SIM_TRUNCATE, ACCEL_SIM_OP_SPI, ACCEL_SIM_TO_DEVICE, 2);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_EQ(toy.got_len, 2);

    /* from device */
    setup();
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_SPI, ACCEL_SIM_FROM_DEVICE, 0);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_MEM(rx, "\xA1\xA1\xA2\xA3\xA4\xA5", 6); /* mask 0 means bit 0 */
    CHECK_MEM(toy.got, tx, 6);

    setup();
    f = fault(ACCEL_SIM_DROP, ACCEL_SIM_OP_SPI, ACCEL_SIM_FROM_DEVICE, 2);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_MEM(rx, "\xA0\xA1\xA3\xA4\xA5\xFF", 6);

    setup();
    f = fault(ACCEL_SIM_DUP, ACCEL_SIM_OP_SPI, ACCEL_SIM_FROM_DEVICE, 2);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_MEM(rx, "\xA0\xA1\xA2\xA2\xA3\xA4", 6);

    setup();
    f = fault(ACCEL_SIM_TRUNCATE, ACCEL_SIM_OP_SPI, ACCEL_SIM_FROM_DEVICE, 4);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 0, tx, rx, 6, 0), ACCEL_OK);
    CHECK_MEM(rx, "\xA0\xA1\xA2\xA3\xFF\xFF", 6);
    CHECK_EQ(sim.faults_fired, 1);
}

static void test_fail_stall_skip_count_target(void)
{
    uint8_t rx[2], buf[8];
    size_t done = 9;
    accel_sim_fault f;
    unsigned i;

    /* fail the 3rd and 4th SPI transfer to cs 1 only */
    setup();
    f = fault(ACCEL_SIM_FAIL, ACCEL_SIM_OP_SPI, 0, 0);
    f.has_target = 1;
    f.target = 1;
    f.skip = 2;
    f.count = 2;
    f.status = ACCEL_E_BUSY;
    accel_sim_add_fault(&sim, &f);
    for (i = 0; i < 6; i++) {
        accel_status want = (i == 2 || i == 3) ? ACCEL_E_BUSY : ACCEL_OK;
        CHECK_ST(accel_port_spi_transfer(&sim.port, 1, NULL, rx, 2, 0), want);
        CHECK_ST(accel_port_spi_transfer(&sim.port, 0, NULL, rx, 2, 0), ACCEL_OK);
    }
    /* the model never saw the failed transfers, only chip select going high after each */
    CHECK_EQ(toy.spi_calls, 12);
    CHECK_EQ(toy.cs_releases, 2);
    CHECK_EQ(sim.faults_fired, 2);

    /* FAIL with status 0 means ACCEL_E_IO; applies to register reads */
    setup();
    f = fault(ACCEL_SIM_FAIL, ACCEL_SIM_OP_REG_READ, 0, 0);
    accel_sim_add_fault(&sim, &f);
    {
        uint32_t v = 0;
        CHECK_ST(accel_port_reg_read32(&sim.port, 0, &v), ACCEL_E_IO);
        CHECK_ST(accel_port_reg_write32(&sim.port, 0, 5), ACCEL_OK);
    }

    /* stall: the clock moves by max(stall, timeout) and the call times out */
    setup();
    f = fault(ACCEL_SIM_STALL, ACCEL_SIM_OP_USB_BULK_IN, 0, 0);
    f.stall_ms = 30;
    f.count = 1;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x81, buf, 8, 100, &done), ACCEL_E_TIMEOUT);
    CHECK_EQ(done, 0);
    CHECK_EQ(sim.now, 100);
    CHECK_EQ(toy.elapsed, 100);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x81, buf, 8, 100, &done), ACCEL_OK);
    f = fault(ACCEL_SIM_STALL, ACCEL_SIM_OP_WAIT_IRQ, 0, 0);
    f.stall_ms = 500;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_wait_irq(&sim.port, 0, 20), ACCEL_E_TIMEOUT);
    CHECK_EQ(sim.now, 600);
    f = fault(ACCEL_SIM_STALL, ACCEL_SIM_OP_GPIO, 0, 0);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_gpio_set(&sim.port, 0, 1), ACCEL_E_TIMEOUT);
    CHECK_EQ(sim.now, 601); /* no timeout, no stall_ms: at least 1 ms passes */
}

static void test_usb_i2c_reg_faults(void)
{
    uint8_t buf[8], rx[3];
    size_t done = 0;
    uint32_t v = 0;
    uint64_t v64 = 0;
    accel_sim_fault f;

    setup(); /* bulk IN: drop shortens, dup lengthens (room permitting), truncate cuts */
    f = fault(ACCEL_SIM_DROP, ACCEL_SIM_OP_USB_BULK_IN, ACCEL_SIM_FROM_DEVICE, 1);
    f.count = 1;
    accel_sim_add_fault(&sim, &f);
    f = fault(ACCEL_SIM_DUP, ACCEL_SIM_OP_USB_BULK_IN, ACCEL_SIM_FROM_DEVICE, 0);
    f.skip = 1;
    f.count = 1;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x82, buf, 8, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 4);
    CHECK_MEM(buf, "\x50\x52\x53\x54", 4);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x82, buf, 8, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 6);
    CHECK_MEM(buf, "\x50\x50\x51\x52\x53\x54", 6);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x82, buf, 5, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 5);

    setup(); /* a duplicate that does not fit pushes the last byte out; a flip changes one bit */
    f = fault(ACCEL_SIM_DUP, ACCEL_SIM_OP_USB_BULK_IN, ACCEL_SIM_FROM_DEVICE, 1);
    f.count = 1;
    accel_sim_add_fault(&sim, &f);
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_USB_BULK_IN, ACCEL_SIM_FROM_DEVICE, 4);
    f.skip = 1;
    f.mask = 0x0F;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x82, buf, 5, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 5);
    CHECK_MEM(buf, "\x50\x51\x51\x52\x53", 5);
    CHECK_ST(accel_port_usb_bulk_in(&sim.port, 0x82, buf, 8, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 5);
    CHECK_MEM(buf, "\x50\x51\x52\x53\x5B", 5);

    setup();
    f = fault(ACCEL_SIM_TRUNCATE, ACCEL_SIM_OP_USB_BULK_OUT, ACCEL_SIM_TO_DEVICE, 3);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_bulk_out(&sim.port, 1, (const uint8_t *)"abcdef", 6, 10, &done),
             ACCEL_OK);
    CHECK_EQ(done, 3); /* the host sees a short write */
    CHECK_EQ(toy.got_len, 3);

    setup();
    f = fault(ACCEL_SIM_TRUNCATE, ACCEL_SIM_OP_USB_CONTROL, ACCEL_SIM_FROM_DEVICE, 1);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_control(&sim.port, 0xC0, 0, 0, 0, buf, 4, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 1);
    /* a to-device fault does not touch an IN control transfer */
    setup();
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_USB_CONTROL, ACCEL_SIM_TO_DEVICE, 0);
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_usb_control(&sim.port, 0xC0, 0, 0, 0, buf, 2, 10, &done), ACCEL_OK);
    CHECK_MEM(buf, "\x10\x11", 2);
    CHECK_EQ(sim.faults_fired, 0);
    CHECK_ST(accel_port_usb_control(&sim.port, 0x40, 0, 0, 0, buf, 2, 10, &done), ACCEL_OK);
    CHECK_MEM(toy.got, "\x11\x11", 2);

    setup();
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_I2C, ACCEL_SIM_FROM_DEVICE, 2);
    f.mask = 0xF0;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_i2c_write_read(&sim.port, 0x20, (const uint8_t *)"\x01", 1, rx, 3),
             ACCEL_OK);
    CHECK_MEM(rx, "\x20\x21\xD2", 3);

    setup(); /* register value flips: byte `at` of the little-endian value */
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_REG_WRITE, ACCEL_SIM_TO_DEVICE, 1);
    f.mask = 0xFF;
    f.has_target = 1;
    f.target = 4;
    accel_sim_add_fault(&sim, &f);
    CHECK_ST(accel_port_reg_write32(&sim.port, 4, 0x11223344UL), ACCEL_OK);
    CHECK_ST(accel_port_reg_write32(&sim.port, 8, 0x11223344UL), ACCEL_OK);
    CHECK_EQ(toy.regs[1], 0x1122CC44UL);
    CHECK_EQ(toy.regs[2], 0x11223344UL);
    f = fault(ACCEL_SIM_FLIP, ACCEL_SIM_OP_REG_READ, ACCEL_SIM_FROM_DEVICE, 7);
    f.mask = 0x01;
    accel_sim_add_fault(&sim, &f);
    toy.reg64 = 0x0200000000000000ULL;
    CHECK_ST(accel_port_reg_read64(&sim.port, 0, &v64), ACCEL_OK);
    CHECK_EQ_U64(v64, 0x0300000000000000ULL);
    CHECK_ST(accel_port_reg_read32(&sim.port, 8, &v), ACCEL_OK);
    CHECK_EQ(v, 0x11223344UL); /* byte 7 of a 32-bit value: nothing to flip */
}

typedef struct {
    unsigned n;
    unsigned ops[8];
    size_t done[8];
    uint8_t rt;
} trace_log;

static void on_trace(void *ctx, const accel_sim_event *ev)
{
    trace_log *t = (trace_log *)ctx;
    if (t->n < 8) {
        t->ops[t->n] = ev->op;
        t->done[t->n] = ev->done;
    }
    if (ev->op == ACCEL_SIM_OP_USB_CONTROL) t->rt = ev->request_type;
    t->n++;
}

/* len 0, flags 0 ends a KEEP_CS transaction: the model hears chip select go high once, and
 * nothing when no transaction is held (or it is held on another chip select). */
static void test_spi_release(void)
{
    uint8_t rx[4];
    accel_sim_fault f = fault(ACCEL_SIM_FAIL, ACCEL_SIM_OP_SPI, 0, 0);
    setup();
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(toy.spi_calls, 0); /* none held: nothing */
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, (const uint8_t *)"\x05\x06", rx, 2,
                                     ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_EQ(sim.spi_held, 1);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 2, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(toy.spi_calls, 1); /* held on cs 1, not 2 */
    CHECK_ST(sim.port.spi_transfer(sim.port.user, 1, NULL, NULL, 0, ACCEL_SPI_KEEP_CS),
             ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(toy.spi_calls, 1);
    /* a fault set on SPI calls does not apply to the release (not a bus transfer) */
    f.count = 1;
    CHECK_ST(accel_sim_add_fault(&sim, &f), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(toy.spi_calls, 2);
    CHECK_EQ(toy.cs_releases, 1);
    CHECK_EQ(sim.spi_held, 0);
    CHECK_EQ(sim.faults_fired, 0);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(toy.spi_calls, 2); /* released already */
    /* a failed KEEP_CS transfer released chip select itself: no second release */
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, (const uint8_t *)"\x07", rx, 1,
                                     ACCEL_SPI_KEEP_CS), ACCEL_E_IO);
    CHECK_EQ(toy.cs_releases, 2);
    CHECK_ST(accel_port_spi_transfer(&sim.port, 1, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(toy.cs_releases, 2);
    CHECK_EQ(sim.spi_held, 0);
}

static void test_trace(void)
{
    trace_log t;
    uint8_t buf[4];
    size_t done;
    memset(&t, 0, sizeof t);
    setup();
    accel_sim_set_trace(&sim, on_trace, &t);
    CHECK_ST(accel_port_usb_control(&sim.port, 0xC0, 1, 0, 0, buf, 4, 10, &done), ACCEL_OK);
    CHECK_ST(accel_port_usb_bulk_out(&sim.port, 1, buf, 4, 10, &done), ACCEL_OK);
    CHECK_ST(accel_port_reg_write32(&sim.port, 0, 1), ACCEL_OK);
    CHECK_EQ(t.n, 3);
    CHECK_EQ(t.ops[0], ACCEL_SIM_OP_USB_CONTROL);
    CHECK_EQ(t.rt, 0xC0);
    CHECK_EQ(t.done[0], 4);
    CHECK_EQ(t.ops[1], ACCEL_SIM_OP_USB_BULK_OUT);
    CHECK_EQ(t.ops[2], ACCEL_SIM_OP_REG_WRITE);
}

int main(void)
{
    RUN(test_routing_and_clock);
    RUN(test_unsupported_and_closed);
    RUN(test_fault_validation);
    RUN(test_spi_faults);
    RUN(test_fail_stall_skip_count_target);
    RUN(test_usb_i2c_reg_faults);
    RUN(test_spi_release);
    RUN(test_trace);
    return TEST_END();
}
