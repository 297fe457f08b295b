/* test_zephyr_port.c - ports/zephyr/accel_zephyr.c linked against recording fakes of the Zephyr
 * functions it calls (declared by tests/zephyr/include, the Zephyr 4.3.0 stand-ins). Checks what
 * the port asks of Zephyr: one spi_transceive_dt per transaction with the right buffers and
 * lengths, chip select held across ACCEL_SPI_KEEP_CS by gathering into one buffer set, zeros for
 * a NULL tx, errno -> status with the errno kept, the semaphore wait, its timeout and the stale
 * give it drops, the IRQ callback giving the semaphore, I2C write/read buffers, GPIO flags, the
 * clock. Built and run by tests/zephyr_check.sh (it needs the stand-in include path). */
#include "accel.h"
#include "accel_zephyr.h"
#include "testlib.h"
#include <errno.h>
#include <limits.h>

/* ---------------------------------------------------------------- fakes */
static const struct device dev_spi = {"spi"}, dev_gpio = {"gpio"}, dev_i2c = {"i2c"};

#define MAX_CALLS 8
#define MAX_BUFS 16
typedef struct spi_call {
    const struct spi_dt_spec *spec;
    int has_rx;
    size_t ntx, nrx;
    struct spi_buf tx[MAX_BUFS], rx[MAX_BUFS];
    uint8_t tx_bytes[1024]; /* the tx stream as it was at the call (NULL buf: not recorded) */
    size_t tx_total;
} spi_call;

static struct {
    bool spi_ready, gpio_ready, i2c_ready;
    int spi_ret;             /* spi_transceive_dt result */
    uint8_t miso[1024];      /* bytes the device clocks back, as one stream */
    unsigned spi_n;
    spi_call spi[MAX_CALLS];
    /* i2c */
    int i2c_ret;
    unsigned i2c_n;
    char i2c_fn;             /* 'x' write_read, 'w' write, 'r' read */
    const void *i2c_w;
    void *i2c_r;
    size_t i2c_wlen, i2c_rlen;
    const struct i2c_dt_spec *i2c_spec;
    /* gpio */
    gpio_flags_t cfg_flags, int_flags;
    int cfg_ret, int_ret, add_ret, get_ret, set_ret;
    int set_value;
    unsigned set_n, get_n, add_n, remove_n, int_n;
    struct gpio_callback *cb;       /* the registered callback */
    const struct gpio_dt_spec *cb_spec;
    /* kernel */
    int64_t now;
    int edge_at;                    /* ms into a k_sem_take wait when INTB rises; <0 none */
    unsigned take_n;
    k_ticks_t take_ticks;
    unsigned sleep_n;
    int32_t sleeps[4];
    int32_t wake_early;             /* k_msleep returns this once (then 0) */
} f;

static void fake_reset(void)
{
    memset(&f, 0, sizeof f);
    f.spi_ready = f.gpio_ready = f.i2c_ready = true;
    f.edge_at = -1;
}

bool spi_is_ready_dt(const struct spi_dt_spec *spec)
{
    (void)spec;
    return f.spi_ready;
}

int spi_transceive_dt(const struct spi_dt_spec *spec, const struct spi_buf_set *tx_bufs,
                      const struct spi_buf_set *rx_bufs)
{
    spi_call *c;
    size_t i, pos = 0;
    if (f.spi_n >= MAX_CALLS) return -EIO;
    c = &f.spi[f.spi_n++];
    memset(c, 0, sizeof *c);
    c->spec = spec;
    c->ntx = tx_bufs ? tx_bufs->count : 0;
    for (i = 0; i < c->ntx && i < MAX_BUFS; i++) {
        c->tx[i] = tx_bufs->buffers[i];
        if (c->tx[i].buf && pos + c->tx[i].len <= sizeof c->tx_bytes)
            memcpy(c->tx_bytes + pos, c->tx[i].buf, c->tx[i].len);
        pos += c->tx[i].len;
    }
    c->tx_total = pos;
    c->has_rx = rx_bufs != NULL;
    c->nrx = rx_bufs ? rx_bufs->count : 0;
    for (i = 0, pos = 0; i < c->nrx && i < MAX_BUFS; i++) {
        c->rx[i] = rx_bufs->buffers[i];
        if (c->rx[i].buf && f.spi_ret == 0) memcpy(c->rx[i].buf, f.miso + pos, c->rx[i].len);
        pos += c->rx[i].len;
    }
    return f.spi_ret;
}

bool i2c_is_ready_dt(const struct i2c_dt_spec *spec)
{
    (void)spec;
    return f.i2c_ready;
}

static int i2c_record(char fn, const struct i2c_dt_spec *spec, const void *w, size_t wl, void *r,
                      size_t rl)
{
    f.i2c_n++;
    f.i2c_fn = fn;
    f.i2c_spec = spec;
    f.i2c_w = w;
    f.i2c_wlen = wl;
    f.i2c_r = r;
    f.i2c_rlen = rl;
    return f.i2c_ret;
}

int i2c_write_read_dt(const struct i2c_dt_spec *spec, const void *write_buf, size_t num_write,
                      void *read_buf, size_t num_read)
{
    return i2c_record('x', spec, write_buf, num_write, read_buf, num_read);
}

int i2c_write_dt(const struct i2c_dt_spec *spec, const uint8_t *buf, uint32_t num_bytes)
{
    return i2c_record('w', spec, buf, num_bytes, NULL, 0);
}

int i2c_read_dt(const struct i2c_dt_spec *spec, uint8_t *buf, uint32_t num_bytes)
{
    return i2c_record('r', spec, NULL, 0, buf, num_bytes);
}

bool gpio_is_ready_dt(const struct gpio_dt_spec *spec)
{
    (void)spec;
    return f.gpio_ready;
}

int gpio_pin_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t extra_flags)
{
    (void)spec;
    f.cfg_flags = extra_flags;
    return f.cfg_ret;
}

int gpio_pin_get_dt(const struct gpio_dt_spec *spec)
{
    (void)spec;
    f.get_n++;
    return f.get_ret;
}

int gpio_pin_set_dt(const struct gpio_dt_spec *spec, int value)
{
    (void)spec;
    f.set_n++;
    f.set_value = value;
    return f.set_ret;
}

int gpio_pin_interrupt_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t flags)
{
    (void)spec;
    f.int_n++;
    f.int_flags = flags;
    return f.int_ret;
}

void gpio_init_callback(struct gpio_callback *callback, gpio_callback_handler_t handler,
                        gpio_port_pins_t pin_mask)
{
    callback->handler = handler;
    callback->pin_mask = pin_mask;
}

int gpio_add_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    f.add_n++;
    if (f.add_ret) return f.add_ret;
    f.cb = callback;
    f.cb_spec = spec;
    return 0;
}

int gpio_remove_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    (void)spec;
    f.remove_n++;
    if (callback == f.cb) f.cb = NULL;
    return 0;
}

/* The interrupt an edge raises: the registered handler, with the pins of the port that fired. */
static void fire_edge(gpio_port_pins_t pins)
{
    if (f.cb && f.cb->handler) f.cb->handler(f.cb_spec->port, f.cb, pins);
}

#include "fake_k_sem.h"

int k_sem_take(struct k_sem *sem, k_timeout_t timeout)
{
    f.take_n++;
    f.take_ticks = timeout.ticks;
    if (sem->count) {
        sem->count--;
        return 0;
    }
    if (timeout.ticks == 0) return -EBUSY;
    if (f.edge_at >= 0 && f.edge_at <= timeout.ticks) { /* the ISR runs during the wait */
        f.now += f.edge_at;
        f.edge_at = -1;
        fire_edge(f.cb ? f.cb->pin_mask : 0);
        if (sem->count) {
            sem->count--;
            return 0;
        }
    }
    f.now += timeout.ticks;
    return -EAGAIN;
}

int64_t k_uptime_get(void) { return f.now; }

int32_t k_msleep(int32_t ms)
{
    int32_t early = f.wake_early;
    if (f.sleep_n < 4) f.sleeps[f.sleep_n] = ms;
    f.sleep_n++;
    f.wake_early = 0;
    f.now += ms - early;
    return early;
}

void printk(const char *fmt, ...) { (void)fmt; }

/* ---------------------------------------------------------------- fixtures */
static const struct spi_dt_spec spi0 = {.bus = &dev_spi, .config = {.frequency = 1000000, .operation = SPI_WORD_SET(8), .slave = 0}};
static const struct gpio_dt_spec intb = {&dev_gpio, 3, GPIO_ACTIVE_LOW};
static const struct gpio_dt_spec wake = {&dev_gpio, 4, GPIO_ACTIVE_HIGH};
static const struct i2c_dt_spec i2c_dev = {&dev_i2c, 0x2A};
static accel_zephyr z;
static accel_port port;

static void setup(void)
{
    fake_reset();
    accel_zephyr_init(&z);
    accel_zephyr_port(&z, &port);
}

static void setup_spi(void)
{
    setup();
    accel_zephyr_spi_attach(&z, 0, &spi0);
}

/* ---------------------------------------------------------------- errno */
static void test_errno_mapping(void)
{
    /* the table of accel_zephyr.h, written out independently */
    static const struct { int err; accel_status st; } map[] = {
        {ETIMEDOUT, ACCEL_E_TIMEOUT}, {EAGAIN, ACCEL_E_TIMEOUT},   {EBUSY, ACCEL_E_BUSY},
        {EALREADY, ACCEL_E_BUSY},     {EINVAL, ACCEL_E_ARG},       {ENOTSUP, ACCEL_E_UNSUPPORTED},
        {ENOSYS, ACCEL_E_UNSUPPORTED}, {ENODEV, ACCEL_E_NO_DEVICE}, {ENXIO, ACCEL_E_NO_DEVICE},
        {ENOENT, ACCEL_E_NO_DEVICE},  {EACCES, ACCEL_E_ACCESS},    {EPERM, ACCEL_E_ACCESS},
        {EMSGSIZE, ACCEL_E_TOO_LONG}, {ENOMEM, ACCEL_E_FULL},      {ENOBUFS, ACCEL_E_FULL},
        {ENOSPC, ACCEL_E_FULL},       {EIO, ACCEL_E_IO},           {EPIPE, ACCEL_E_IO},
        {EFAULT, ACCEL_E_IO},         {EDOM, ACCEL_E_IO},
    };
    size_t i;
    for (i = 0; i < sizeof map / sizeof map[0]; i++) {
        z.last_errno = 0;
        CHECK_ST(accel_zephyr_errno_status(map[i].err), map[i].st);
        CHECK_ST(accel_zephyr_fail(&z, -map[i].err), map[i].st);
        CHECK_EQ(z.last_errno, map[i].err);
    }
    /* not a negative errno: a driver bug, kept as EIO */
    CHECK_ST(accel_zephyr_fail(&z, 5), ACCEL_E_IO);
    CHECK_EQ(z.last_errno, EIO);
    CHECK_ST(accel_zephyr_fail(&z, INT_MIN), ACCEL_E_IO);
    CHECK_EQ(z.last_errno, EIO);
}

/* ---------------------------------------------------------------- SPI */
static void test_spi_plain(void)
{
    uint8_t tx[5] = {1, 2, 3, 4, 5}, rx[5] = {0};
    static const uint8_t miso[5] = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4};
    setup_spi();
    memcpy(f.miso, miso, 5);
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, rx, 5, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    CHECK(f.spi[0].spec == &spi0);
    REQUIRE_EQ(f.spi[0].ntx, 1);
    CHECK(f.spi[0].tx[0].buf == tx);
    CHECK_EQ(f.spi[0].tx[0].len, 5);
    REQUIRE(f.spi[0].has_rx);
    REQUIRE_EQ(f.spi[0].nrx, 1);
    CHECK(f.spi[0].rx[0].buf == rx);
    CHECK_EQ(f.spi[0].rx[0].len, 5);
    CHECK_MEM(rx, miso, 5);
    /* write only: no rx set at all */
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, NULL, 5, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 2);
    CHECK(!f.spi[1].has_rx);
}

/* A header with KEEP_CS and the data: nothing on the bus until the data, then one call. */
static void test_spi_keep_cs_write(void)
{
    uint8_t h[2] = {0x04, 0x00}, data[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    static const uint8_t want[6] = {0x04, 0x00, 0xDE, 0xAD, 0xBE, 0xEF};
    setup_spi();
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 2, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_EQ(f.spi_n, 0);
    h[0] = 0x99; /* the caller may reuse its header buffer: the port copied it */
    CHECK_ST(accel_port_spi_transfer(&port, 0, data, NULL, 4, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    REQUIRE_EQ(f.spi[0].ntx, 2);
    CHECK_EQ(f.spi[0].tx[0].len, 2);
    CHECK(f.spi[0].tx[1].buf == data);
    CHECK_EQ(f.spi[0].tx[1].len, 4);
    CHECK_EQ(f.spi[0].tx_total, 6);
    CHECK_MEM(f.spi[0].tx_bytes, want, 6);
    CHECK(!f.spi[0].has_rx);
    /* the next transaction starts clean */
    CHECK_ST(accel_port_spi_transfer(&port, 0, data, NULL, 4, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 2);
    CHECK_EQ(f.spi[1].ntx, 1);
    CHECK_EQ(f.spi[1].tx_total, 4);
}

/* A read: header with KEEP_CS, then tx NULL: zeros go out, the header's rx bytes are skipped. */
static void test_spi_keep_cs_read(void)
{
    uint8_t h[3] = {0x03, 0x01, 0x00}, rx[4];
    static const uint8_t miso[7] = {0xF0, 0xF1, 0xF2, 0x11, 0x22, 0x33, 0x44};
    static const uint8_t want_tx[7] = {0x03, 0x01, 0, 0, 0, 0, 0};
    setup_spi();
    memcpy(f.miso, miso, 7);
    memset(rx, 0x5A, sizeof rx);
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, rx, 4, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    REQUIRE_EQ(f.spi[0].ntx, 2);
    CHECK_EQ(f.spi[0].tx[0].len, 3);
    CHECK(f.spi[0].tx[1].buf != NULL); /* never NULL: that would send the overrun character */
    CHECK_EQ(f.spi[0].tx[1].len, 4);
    CHECK_MEM(f.spi[0].tx_bytes, want_tx, 7);
    REQUIRE(f.spi[0].has_rx);
    REQUIRE_EQ(f.spi[0].nrx, 2);
    CHECK(f.spi[0].rx[0].buf == NULL);
    CHECK_EQ(f.spi[0].rx[0].len, 3);
    CHECK(f.spi[0].rx[1].buf == rx);
    CHECK_EQ(f.spi[0].rx[1].len, 4);
    CHECK_MEM(rx, miso + 3, 4);
}

/* The TSP1 bus layer through the port: a register read and a buffer write, one call each. */
static void test_spi_tsp1_bus(void)
{
    accel_tsp1_bus b;
    uint32_t v = 0;
    uint8_t cmd[20];
    size_t i;
    static const uint8_t miso[7] = {0, 0, 0, 0x78, 0x56, 0x34, 0x12};
    setup_spi();
    memset(&b, 0, sizeof b);
    b.port = &port;
    memcpy(f.miso, miso, 7);
    CHECK_ST(accel_tsp1_reg_read(&b, 0x20, &v), ACCEL_OK);
    CHECK_EQ(v, 0x12345678);
    REQUIRE_EQ(f.spi_n, 1);
    CHECK_EQ(f.spi[0].tx_total, 7); /* op, register, one dummy byte, 4 value bytes */
    CHECK_EQ(f.spi[0].tx_bytes[0], ACCEL_TSP1_SPI_OP_REG_READ);
    CHECK_EQ(f.spi[0].tx_bytes[1], 0x20);
    for (i = 2; i < 7; i++) CHECK_EQ(f.spi[0].tx_bytes[i], 0);
    for (i = 0; i < sizeof cmd; i++) cmd[i] = (uint8_t)(0x40 + i);
    CHECK_ST(accel_tsp1_buf_write(&b, ACCEL_TSP1_BUF_CMD, cmd, sizeof cmd), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 2);
    CHECK_EQ(f.spi[1].tx_total, 22);
    CHECK_EQ(f.spi[1].tx_bytes[0], ACCEL_TSP1_SPI_OP_BUF_WRITE);
    CHECK_EQ(f.spi[1].tx_bytes[1], ACCEL_TSP1_BUF_CMD);
    CHECK_MEM(f.spi[1].tx_bytes + 2, cmd, sizeof cmd);
    CHECK(!f.spi[1].has_rx);
}

static void test_spi_zero_chunks(void)
{
    static uint8_t rx[7 * ACCEL_ZEPHYR_SPI_ZERO_BYTES + 1];
    uint8_t h[3] = {3, 1, 0};
    size_t i, total = 0;
    int zeros_ok = 1;
    setup_spi();
    /* 200 bytes after a held header: the held bytes, then 64 + 64 + 64 + 8 zeros */
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, rx, 200, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    REQUIRE_EQ(f.spi[0].ntx, 5);
    for (i = 1; i < 5; i++) {
        CHECK_EQ(f.spi[0].tx[i].len, i < 4 ? 64 : 8);
        total += f.spi[0].tx[i].len;
    }
    CHECK_EQ(total, 200);
    for (i = 3; i < 203; i++)
        if (f.spi[0].tx_bytes[i]) zeros_ok = 0;
    CHECK(zeros_ok);
    /* the most one call can carry after a held part: 7 blocks (MAX_BUFS 8 minus the header) */
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, rx, 7 * 64, 0), ACCEL_OK);
    CHECK_EQ(f.spi_n, 2);
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, rx, 7 * 64 + 1, 0), ACCEL_E_TOO_LONG);
    CHECK_EQ(f.spi_n, 2); /* refused before the bus */
    /* and the refused transaction left nothing behind */
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, NULL, 1, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 3);
    CHECK_EQ(f.spi[2].tx_total, 1);
}

/* len 0, flags 0 ends a held transaction: the held parts are the whole frame, their rx filled;
 * with nothing held it puts nothing on the bus. */
static void test_spi_release(void)
{
    uint8_t h[3] = {0x11, 0x22, 0x33}, rx[3] = {0, 0, 0};
    static const uint8_t miso[3] = {0xA1, 0xA2, 0xA3};
    setup_spi();
    memcpy(f.miso, miso, 3);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(f.spi_n, 0);
    CHECK_ST(accel_port_spi_transfer(&port, 0, h, rx, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(port.spi_transfer(port.user, 0, NULL, NULL, 0, ACCEL_SPI_KEEP_CS), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(f.spi_n, 0);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    CHECK_EQ(f.spi[0].tx_total, 3);
    CHECK_MEM(f.spi[0].tx_bytes, h, 3);
    CHECK_MEM(rx, miso, 3);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK); /* over already */
    CHECK_EQ(f.spi_n, 1);
}

static void test_spi_hold_limits(void)
{
    uint8_t b[ACCEL_ZEPHYR_SPI_HOLD_BYTES + 1] = {0};
    unsigned i;
    setup_spi();
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, sizeof b, ACCEL_SPI_KEEP_CS),
             ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, ACCEL_ZEPHYR_SPI_HOLD_BYTES,
                                     ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 1, ACCEL_SPI_KEEP_CS), ACCEL_E_TOO_LONG);
    CHECK_EQ(f.spi_n, 0);
    /* parts: MAX_BUFS - 1 held, the last one ends the frame */
    for (i = 0; i < ACCEL_ZEPHYR_SPI_MAX_BUFS - 1; i++)
        CHECK_ST(accel_port_spi_transfer(&port, 0, b, b, 1, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, b, 1, ACCEL_SPI_KEEP_CS), ACCEL_E_TOO_LONG);
    for (i = 0; i < ACCEL_ZEPHYR_SPI_MAX_BUFS - 1; i++)
        CHECK_ST(accel_port_spi_transfer(&port, 0, b, b, 1, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, b, 1, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 1);
    CHECK_EQ(f.spi[0].ntx, 2); /* the held bytes in one buffer, then the last part */
    CHECK_EQ(f.spi[0].tx_total, ACCEL_ZEPHYR_SPI_MAX_BUFS);
    CHECK_EQ(f.spi[0].nrx, ACCEL_ZEPHYR_SPI_MAX_BUFS); /* one rx buffer per part */
}

static void test_spi_errors(void)
{
    static const struct spi_dt_spec spi1 = {.bus = &dev_spi, .config = {.frequency = 1000000, .operation = SPI_WORD_SET(8), .slave = 1}};
    uint8_t b[4] = {1, 2, 3, 4};
    setup();
    f.spi_ready = false;
    CHECK_ST(accel_zephyr_spi_attach(&z, 0, &spi0), ACCEL_E_NO_DEVICE);
    f.spi_ready = true;
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 4, 0), ACCEL_E_CLOSED);
    CHECK_ST(accel_zephyr_spi_attach(&z, 0, &spi0), ACCEL_OK);
    CHECK_ST(accel_zephyr_spi_attach(&z, 0, &spi1), ACCEL_E_BUSY);
    CHECK_ST(accel_zephyr_spi_attach(&z, ACCEL_ZEPHYR_MAX_SPI, &spi1), ACCEL_E_ARG);
    REQUIRE(ACCEL_ZEPHYR_MAX_SPI >= 2); /* the build sets CONFIG_ACCEL_ZEPHYR_MAX_SPI=2 */
    CHECK_ST(accel_zephyr_spi_attach(&z, 1, &spi1), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, ACCEL_ZEPHYR_MAX_SPI, b, NULL, 4, 0), ACCEL_E_ARG);
    /* a transaction must not continue on another chip select */
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 2, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 1, b, NULL, 2, 0), ACCEL_E_STATE);
    CHECK_EQ(f.spi_n, 0);
    CHECK_ST(accel_port_spi_transfer(&port, 1, b, NULL, 2, 0), ACCEL_OK); /* nothing held */
    REQUIRE_EQ(f.spi_n, 1);
    CHECK(f.spi[0].spec == &spi1);
    CHECK_EQ(f.spi[0].tx_total, 2);
    f.spi_n = 0;
    /* the bus fails: errno kept, the frame is over (nothing held for the next one) */
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 2, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    f.spi_ret = -EIO;
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 4, 0), ACCEL_E_IO);
    CHECK_EQ(z.last_errno, EIO);
    f.spi_ret = -EBUSY;
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 4, 0), ACCEL_E_BUSY);
    CHECK_EQ(z.last_errno, EBUSY);
    f.spi_ret = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, NULL, 4, 0), ACCEL_OK);
    REQUIRE_EQ(f.spi_n, 3);
    CHECK_EQ(f.spi[0].tx_total, 6);
    CHECK_EQ(f.spi[2].tx_total, 4);
}

/* ---------------------------------------------------------------- I2C */
static void test_i2c(void)
{
    uint8_t w[3] = {1, 2, 3}, r[5];
    setup();
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2A, w, 3, r, 5), ACCEL_E_CLOSED);
    f.i2c_ready = false;
    CHECK_ST(accel_zephyr_i2c_attach(&z, &i2c_dev), ACCEL_E_NO_DEVICE);
    f.i2c_ready = true;
    CHECK_ST(accel_zephyr_i2c_attach(&z, &i2c_dev), ACCEL_OK);
    CHECK_ST(accel_zephyr_i2c_attach(&z, &i2c_dev), ACCEL_E_BUSY);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2A, w, 3, r, 5), ACCEL_OK);
    CHECK_EQ(f.i2c_n, 1);
    CHECK_EQ(f.i2c_fn, 'x');
    CHECK(f.i2c_spec == &i2c_dev);
    CHECK(f.i2c_w == w);
    CHECK_EQ(f.i2c_wlen, 3);
    CHECK(f.i2c_r == r);
    CHECK_EQ(f.i2c_rlen, 5);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2A, w, 3, NULL, 0), ACCEL_OK);
    CHECK_EQ(f.i2c_fn, 'w');
    CHECK(f.i2c_w == w);
    CHECK_EQ(f.i2c_wlen, 3);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2A, NULL, 0, r, 5), ACCEL_OK);
    CHECK_EQ(f.i2c_fn, 'r');
    CHECK(f.i2c_r == r);
    CHECK_EQ(f.i2c_rlen, 5);
    CHECK_EQ(f.i2c_n, 3);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2B, w, 3, r, 5), ACCEL_E_ARG);
    CHECK_EQ(f.i2c_n, 3);
    f.i2c_ret = -ENXIO; /* no acknowledge from the address */
    CHECK_ST(accel_port_i2c_write_read(&port, 0x2A, w, 3, r, 5), ACCEL_E_NO_DEVICE);
    CHECK_EQ(z.last_errno, ENXIO);
}

/* ---------------------------------------------------------------- GPIO, IRQ */
static void test_gpio_output(void)
{
    setup();
    CHECK_ST(accel_port_gpio_set(&port, 1, 1), ACCEL_E_CLOSED);
    f.gpio_ready = false;
    CHECK_ST(accel_zephyr_output_attach(&z, 1, &wake), ACCEL_E_NO_DEVICE);
    f.gpio_ready = true;
    f.cfg_ret = -EIO;
    CHECK_ST(accel_zephyr_output_attach(&z, 1, &wake), ACCEL_E_IO);
    CHECK_ST(accel_port_gpio_set(&port, 1, 1), ACCEL_E_CLOSED);
    f.cfg_ret = 0;
    CHECK_ST(accel_zephyr_output_attach(&z, 1, &wake), ACCEL_OK);
    CHECK_EQ(f.cfg_flags, GPIO_OUTPUT | GPIO_OUTPUT_INIT_LOW | GPIO_OUTPUT_INIT_LOGICAL);
    CHECK_ST(accel_zephyr_output_attach(&z, 1, &wake), ACCEL_E_BUSY);
    CHECK_ST(accel_zephyr_output_attach(&z, ACCEL_ZEPHYR_MAX_LINES, &wake), ACCEL_E_ARG);
    CHECK_ST(accel_port_gpio_set(&port, 1, 1), ACCEL_OK);
    CHECK_EQ(f.set_value, 1);
    CHECK_ST(accel_port_gpio_set(&port, 1, 0), ACCEL_OK);
    CHECK_EQ(f.set_value, 0);
    CHECK_EQ(f.set_n, 2);
    CHECK_ST(accel_zephyr_gpio_set(&z, 1, 2), ACCEL_E_ARG);
    CHECK_ST(accel_port_wait_irq(&port, 1, 5), ACCEL_E_ARG); /* an output is not an IRQ */
    f.set_ret = -EIO;
    CHECK_ST(accel_port_gpio_set(&port, 1, 1), ACCEL_E_IO);
    CHECK_EQ(z.last_errno, EIO);
}

static void test_irq_attach(void)
{
    setup();
    f.int_ret = -ENOTSUP; /* the controller cannot do edge interrupts on this pin */
    CHECK_ST(accel_zephyr_irq_attach(&z, 0, &intb), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(z.last_errno, ENOTSUP);
    CHECK_EQ(f.remove_n, 1); /* the callback registered before was taken back */
    CHECK(f.cb == NULL);
    CHECK_ST(accel_port_wait_irq(&port, 0, 5), ACCEL_E_CLOSED);
    f.int_ret = 0;
    CHECK_ST(accel_zephyr_irq_attach(&z, 0, &intb), ACCEL_OK);
    CHECK_EQ(f.cfg_flags, GPIO_INPUT);
    CHECK_EQ(f.int_flags, GPIO_INT_ENABLE | GPIO_INT_LEVELS_LOGICAL | GPIO_INT_EDGE |
                              GPIO_INT_HIGH_1);
    REQUIRE(f.cb != NULL);
    CHECK(f.cb_spec == &intb);
    CHECK(f.cb->handler != NULL);
    CHECK_EQ(f.cb->pin_mask, 1u << 3);
    CHECK_ST(accel_port_gpio_set(&port, 0, 1), ACCEL_E_ARG); /* an IRQ line is not an output */
    /* close: interrupt off, callback removed, line forgotten */
    accel_zephyr_close(&z);
    CHECK_EQ(f.int_flags, GPIO_INT_DISABLE);
    CHECK(f.cb == NULL);
    CHECK_ST(accel_port_wait_irq(&port, 0, 5), ACCEL_E_CLOSED);
}

static void test_wait_irq(void)
{
    setup();
    REQUIRE(accel_zephyr_irq_attach(&z, 0, &intb) == ACCEL_OK);
    /* asserted now: at once, no wait */
    f.get_ret = 1;
    CHECK_ST(accel_port_wait_irq(&port, 0, 50), ACCEL_OK);
    CHECK_EQ(f.take_n, 0);
    /* not asserted, timeout 0: one look, no wait */
    f.get_ret = 0;
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_E_TIMEOUT);
    CHECK_EQ(f.take_n, 0);
    /* the edge comes 3 ms into a 10 ms wait: the callback gives, the take returns */
    f.now = 1000;
    f.edge_at = 3;
    CHECK_ST(accel_port_wait_irq(&port, 0, 10), ACCEL_OK);
    CHECK_EQ(f.take_n, 1);
    CHECK_EQ(f.take_ticks, 10);
    CHECK_EQ(f.now, 1003);
    /* no edge: the full timeout, then ACCEL_E_TIMEOUT, errno untouched */
    z.last_errno = 0;
    CHECK_ST(accel_port_wait_irq(&port, 0, 10), ACCEL_E_TIMEOUT);
    CHECK_EQ(f.take_n, 2);
    CHECK_EQ(f.now, 1013);
    CHECK_EQ(z.last_errno, 0);
    /* the callback: only the line's own pin gives */
    fire_edge(1u << 5);
    CHECK_EQ(z.lines[0].sem.count, 0);
    fire_edge((1u << 3) | (1u << 5));
    CHECK_EQ(z.lines[0].sem.count, 1);
    /* that give, from an edge nobody waited for, does not answer a later wait */
    CHECK_ST(accel_port_wait_irq(&port, 0, 10), ACCEL_E_TIMEOUT);
    CHECK_EQ(f.take_n, 3);
    /* reading the pin fails: errno kept */
    f.get_ret = -EIO;
    CHECK_ST(accel_port_wait_irq(&port, 0, 10), ACCEL_E_IO);
    CHECK_EQ(z.last_errno, EIO);
}

/* ---------------------------------------------------------------- clock, port */
static void test_clock(void)
{
    setup();
    f.now = ((int64_t)1 << 32) + 5; /* 32-bit wrap: the low bits */
    CHECK_EQ(accel_zephyr_now_ms(&z), 5);
    accel_zephyr_delay_ms(&z, 25);
    CHECK_EQ(f.sleep_n, 1);
    CHECK_EQ(f.sleeps[0], 25);
    f.wake_early = 10; /* woken 10 ms early: the rest is slept */
    accel_zephyr_delay_ms(&z, 30);
    CHECK_EQ(f.sleep_n, 3);
    CHECK_EQ(f.sleeps[1], 30);
    CHECK_EQ(f.sleeps[2], 10);
    accel_zephyr_delay_ms(&z, 0);
    CHECK_EQ(f.sleep_n, 3);
    CHECK_ST(accel_port_delay_ms(&port, 7), ACCEL_OK);
    CHECK_EQ(f.sleeps[3], 7);
}

static void test_port_fill(void)
{
    uint8_t d[4];
    size_t done = 0;
    setup();
    CHECK(port.user == &z);
    CHECK(port.spi_transfer && port.i2c_write_read && port.gpio_set && port.wait_irq);
    CHECK(port.now_ms && port.delay_ms);
    CHECK_ST(accel_port_usb_control(&port, 0xC0, 0, 0, 0, d, 4, 10, &done),
             ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_usb_bulk_in(&port, 0x81, d, 4, 10, &done), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_write32(&port, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_zephyr_port(NULL, &port), ACCEL_E_NULL);
    CHECK_ST(accel_zephyr_spi_transfer(NULL, 0, d, NULL, 4, 0), ACCEL_E_NULL);
}

int main(void)
{
    RUN(test_errno_mapping);
    RUN(test_spi_plain);
    RUN(test_spi_keep_cs_write);
    RUN(test_spi_keep_cs_read);
    RUN(test_spi_tsp1_bus);
    RUN(test_spi_zero_chunks);
    RUN(test_spi_release);
    RUN(test_spi_hold_limits);
    RUN(test_spi_errors);
    RUN(test_i2c);
    RUN(test_gpio_output);
    RUN(test_irq_attach);
    RUN(test_wait_irq);
    RUN(test_clock);
    RUN(test_port_fill);
    return TEST_END();
}
