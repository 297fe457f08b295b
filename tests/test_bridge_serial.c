/* test_bridge_serial.c - ports/linux/accel_linux_serial (the bridge's serial transport) over a
 * pseudo-terminal pair: raw line settings, bytes through unchanged both ways, timeouts, errors,
 * hang-up; then the bridge itself over the pty (host side on the serial port, device side on the
 * pty's master in the same process). */
#define _DEFAULT_SOURCE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_linux.h"
#include "accel_linux_serial.h"
#include "accel_sim.h"
#include "testlib.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

static int master = -1, slave = -1;
static char slave_name[128];
static accel_linux_serial ser;

static int pty_setup(void)
{
    if (master >= 0) close(master);
    if (slave >= 0) close(slave);
    master = slave = -1;
    if (openpty(&master, &slave, slave_name, NULL, NULL) != 0) return 0;
    /* keep our own slave fd open: the line then never hangs up between opens */
    (void)fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    return 1;
}

/* everything the master has, waiting up to ms for the first byte */
static size_t master_read(uint8_t *b, size_t cap, int ms)
{
    size_t n = 0;
    int waited = 0;
    for (;;) {
        ssize_t r = read(master, b + n, cap - n);
        if (r > 0) {
            n += (size_t)r;
            if (n == cap) return n;
            continue;
        }
        if (n || waited >= ms) return n;
        usleep(1000);
        waited++;
    }
}

static void test_parse(void)
{
    char path[16];
    uint32_t baud = 0;
    CHECK_ST(accel_linux_serial_parse("/dev/ttyACM0", path, sizeof path, &baud), ACCEL_OK);
    CHECK_STR(path, "/dev/ttyACM0");
    CHECK_EQ(baud, 115200);
    CHECK_ST(accel_linux_serial_parse("/dev/ttyS1,1000000", path, sizeof path, &baud), ACCEL_OK);
    CHECK_STR(path, "/dev/ttyS1");
    CHECK_EQ(baud, 1000000);
    CHECK_ST(accel_linux_serial_parse(",9600", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("/dev/x,", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("/dev/x,12a", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("/dev/x,0", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("/dev/x,4294967295", path, sizeof path, &baud), ACCEL_OK);
    CHECK_EQ(baud, 4294967295u);
    CHECK_ST(accel_linux_serial_parse("/dev/x,4294967296", path, sizeof path, &baud), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_parse("/dev/0123456789abcdef", path, sizeof path, &baud),
             ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_serial_parse(NULL, path, sizeof path, &baud), ACCEL_E_NULL);
}

static void test_open_errors(void)
{
    accel_linux_serial s;
    uint8_t b[4];
    size_t got = 9;
    accel_linux_serial_init(&s);
    CHECK_ST(accel_linux_serial_open(&s, "/dev/accel-no-such-tty", 115200), ACCEL_E_NO_DEVICE);
    CHECK_EQ(s.last_errno, ENOENT);
    CHECK_ST(accel_linux_serial_open(&s, "/dev/null", 115200), ACCEL_E_IO);
    CHECK_EQ(s.last_errno, ENOTTY);
    CHECK_EQ(s.fd, -1);
    CHECK_ST(accel_linux_serial_open(&s, "/dev/null", 12345), ACCEL_E_ARG);
    CHECK_ST(accel_linux_serial_open(NULL, "/dev/null", 9600), ACCEL_E_NULL);
    CHECK_ST(accel_linux_serial_write(&s, b, 1), ACCEL_E_CLOSED);
    CHECK_ST(accel_linux_serial_read(&s, b, 4, &got, 1), ACCEL_E_CLOSED);
    CHECK_EQ(got, 0);
    accel_linux_serial_close(&s); /* closing a closed line is harmless */
}

static void test_raw_line(void)
{
    struct termios t;
    static const uint8_t out[] = {'a', 0x00, '\n', '\r', 0x03, 0x11, 0x13, 0x7F, 0xFF, 0x1A, 0x04};
    uint8_t b[64];
    size_t got = 0;
    uint32_t t0;
    REQUIRE(pty_setup());
    accel_linux_serial_init(&ser);
    REQUIRE_ST(accel_linux_serial_open(&ser, slave_name, 1000000), ACCEL_OK);
    CHECK_ST(accel_linux_serial_open(&ser, slave_name, 1000000), ACCEL_E_BUSY);
    REQUIRE(tcgetattr(ser.fd, &t) == 0);
    CHECK_EQ(t.c_lflag & (ICANON | ECHO | ISIG | IEXTEN), 0);
    CHECK_EQ(t.c_iflag & (ICRNL | INLCR | IXON | IXOFF | ISTRIP), 0);
    CHECK_EQ(t.c_oflag & OPOST, 0);
    CHECK_EQ(t.c_cflag & CSIZE, CS8);
    CHECK_EQ(t.c_cflag & (CLOCAL | CREAD), CLOCAL | CREAD);
    CHECK_EQ(t.c_cflag & (PARENB | CSTOPB | HUPCL), 0);
    CHECK_EQ(cfgetospeed(&t), B1000000);
    CHECK_EQ(t.c_cc[VMIN], 1);
    /* host to device: every byte as it is */
    CHECK_ST(accel_linux_serial_write(&ser, out, sizeof out), ACCEL_OK);
    CHECK_EQ(master_read(b, sizeof b, 500), sizeof out);
    CHECK_MEM(b, out, sizeof out);
    /* device to host: no echo, no translation, no signals, no flow control */
    REQUIRE(write(master, out, sizeof out) == (ssize_t)sizeof out);
    {
        size_t n = 0;
        while (n < sizeof out) {
            REQUIRE_ST(accel_linux_serial_read(&ser, b + n, sizeof b - n, &got, 500), ACCEL_OK);
            REQUIRE(got > 0);
            n += got;
        }
        CHECK_EQ(n, sizeof out);
        CHECK_MEM(b, out, sizeof out);
    }
    CHECK_EQ(master_read(b, sizeof b, 20), 0); /* nothing echoed back */
    /* a read takes at most cap bytes; the rest waits */
    REQUIRE(write(master, "0123456789", 10) == 10);
    usleep(20000);
    CHECK_ST(accel_linux_serial_read(&ser, b, 4, &got, 100), ACCEL_OK);
    CHECK_EQ(got, 4);
    CHECK_MEM(b, "0123", 4);
    CHECK_ST(accel_linux_serial_read(&ser, b, sizeof b, &got, 100), ACCEL_OK);
    CHECK_EQ(got, 6);
    CHECK_MEM(b, "456789", 6);
    /* nothing to read: a timeout, on time */
    t0 = accel_linux_now_ms(NULL);
    CHECK_ST(accel_linux_serial_read(&ser, b, sizeof b, &got, 60), ACCEL_E_TIMEOUT);
    CHECK_EQ(got, 0);
    CHECK(accel_linux_now_ms(NULL) - t0 >= 59);
    CHECK(accel_linux_now_ms(NULL) - t0 < 1000);
    CHECK_ST(accel_linux_serial_read(&ser, b, 0, &got, 1), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_linux_serial_read(&ser, NULL, 4, &got, 1), ACCEL_E_NULL);
    CHECK_ST(accel_linux_serial_write(&ser, NULL, 4), ACCEL_E_NULL);
    /* bytes waiting before an open are flushed by it: they belong to an earlier session */
    accel_linux_serial_close(&ser);
    REQUIRE(write(master, "stale", 5) == 5);
    usleep(20000);
    REQUIRE_ST(accel_linux_serial_open(&ser, slave_name, 115200), ACCEL_OK);
    CHECK_ST(accel_linux_serial_read(&ser, b, sizeof b, &got, 30), ACCEL_E_TIMEOUT);
    /* nobody drains the line: a write gives up after a second without progress */
    {
        static uint8_t big[1 << 17];
        t0 = accel_linux_now_ms(NULL);
        CHECK_ST(accel_linux_serial_write(&ser, big, sizeof big), ACCEL_E_TIMEOUT);
        CHECK_EQ(ser.last_errno, ETIMEDOUT);
        CHECK(accel_linux_now_ms(NULL) - t0 >= 999);
        while (master_read(b, sizeof b, 5)) {
        }
    }
    /* the other end goes away: the line reports it */
    close(master);
    master = -1;
    close(slave);
    slave = -1;
    CHECK_ST(accel_linux_serial_read(&ser, b, sizeof b, &got, 100), ACCEL_E_IO);
    CHECK_EQ(ser.last_errno, EIO);
    accel_linux_serial_close(&ser);
    CHECK_EQ(ser.fd, -1);
}

#ifdef ACCEL_HAVE_BRIDGE
#include "accel_bridge_device.h"
#include "accel_bridge_host.h"

/* The device side on the master: whatever the host sent is handled before the host reads. */
static accel_bridge_device dev;
static accel_bridge_host host;
static unsigned spi_calls;

static accel_status dev_write(void *u, const uint8_t *d, size_t n)
{
    (void)u;
    while (n) {
        ssize_t w = write(master, d, n);
        if (w <= 0) return ACCEL_E_IO;
        d += w;
        n -= (size_t)w;
    }
    return ACCEL_OK;
}

static void pump(void)
{
    uint8_t b[512];
    ssize_t r;
    while ((r = read(master, b, sizeof b)) > 0) accel_bridge_device_feed(&dev, b, (size_t)r);
}

static accel_status pty_link_write(void *u, const uint8_t *d, size_t n)
{
    accel_status st = accel_linux_serial_write(u, d, n);
    usleep(200); /* let the pty deliver */
    pump();
    return st;
}

static accel_status pty_link_read(void *u, uint8_t *buf, size_t cap, size_t *got, uint32_t ms)
{
    pump();
    return accel_linux_serial_read(u, buf, cap, got, ms);
}

static accel_status loop_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                             unsigned flags)
{
    size_t i;
    (void)u;
    (void)cs;
    (void)flags;
    spi_calls++;
    for (i = 0; i < len; i++)
        if (rx) rx[i] = (uint8_t)((tx ? tx[i] : 0) + 1u);
    return ACCEL_OK;
}

static void test_bridge_over_pty(void)
{
    accel_port dport;
    accel_bridge_device_config dc;
    accel_bridge_host_config hc;
    uint8_t tx[300], rx[300];
    size_t i;
    REQUIRE(pty_setup());
    accel_linux_serial_init(&ser);
    REQUIRE_ST(accel_linux_serial_open(&ser, slave_name, 115200), ACCEL_OK);
    memset(&dport, 0, sizeof dport);
    dport.spi_transfer = loop_spi;
    dport.now_ms = accel_linux_now_ms;
    dport.delay_ms = accel_linux_delay_ms;
    memset(&dc, 0, sizeof dc);
    dc.port = &dport;
    dc.write = dev_write;
    REQUIRE_ST(accel_bridge_device_init(&dev, &dc), ACCEL_OK);
    memset(&hc, 0, sizeof hc);
    hc.link.write = pty_link_write;
    hc.link.read = pty_link_read;
    hc.link.now_ms = accel_linux_now_ms;
    hc.link.user = &ser;
    hc.answer_ms = 300;
    REQUIRE_ST(accel_bridge_host_open(&host, &hc), ACCEL_OK);
    CHECK_EQ(host.caps, ACCEL_BRIDGE_CAP_SPI | ACCEL_BRIDGE_CAP_TIME | ACCEL_BRIDGE_CAP_DELAY);
    CHECK(host.port.gpio_set == NULL);
    for (i = 0; i < sizeof tx; i++) tx[i] = (uint8_t)(i * 3u);
    CHECK_ST(accel_port_spi_transfer(&host.port, 0, tx, rx, sizeof tx, 0), ACCEL_OK);
    for (i = 0; i < sizeof tx; i++) CHECK_EQ(rx[i], (uint8_t)(tx[i] + 1u));
    CHECK_EQ(spi_calls, 3);
    {
        uint32_t a = 0, b = 0;
        CHECK_ST(accel_port_now_ms(&host.port, &a), ACCEL_OK);
        CHECK_ST(accel_port_delay_ms(&host.port, 30), ACCEL_OK);
        CHECK_ST(accel_port_now_ms(&host.port, &b), ACCEL_OK);
        CHECK(b - a >= 30);
    }
    CHECK_EQ(host.stats.retries, 0);
    CHECK_EQ(host.stats.requests, dev.stats.executed);
    /* bytes lost on the line: the host sends again and the device answers from its cache */
    {
        uint8_t junk[3] = {0x00, 0x42, 0x43};
        REQUIRE(write(master, junk, 3) == 3); /* garbage the host must skip */
        CHECK_ST(accel_port_spi_transfer(&host.port, 0, tx, rx, 5, 0), ACCEL_OK);
        CHECK_EQ(rx[4], (uint8_t)(tx[4] + 1u));
        CHECK(host.stats.frame_errors + host.stats.crc_errors >= 1);
    }
    accel_linux_serial_close(&ser);
}
#endif

int main(void)
{
    RUN(test_parse);
    RUN(test_open_errors);
    RUN(test_raw_line);
#ifdef ACCEL_HAVE_BRIDGE
    RUN(test_bridge_over_pty);
#endif
    return TEST_END();
}
#else
static void test_serial(void)
{
    (void)tl_checks;
    SKIP_CASE("Linux only");
}
int main(void)
{
    RUN(test_serial);
    return TEST_END();
}
#endif
