/* test_zephyr_bridge.c - examples/zephyr/bridge/src/main.c (included below, its main renamed)
 * with the real port (accel_zephyr.c), the bridge's device side and nanopb's runtime, against
 * fakes of the Zephyr functions it calls (declared by tests/zephyr/include, the Zephyr 4.3.0
 * stand-ins): a fake UART whose receive interrupt the test raises with bytes, a working ring
 * buffer, and recording fakes of SPI, GPIO and the kernel. Frames in are built here by hand
 * (protobuf bytes written from the schema, CRC-32 and COBS done here); frames out are split and
 * COBS-decoded here and compared byte for byte with hand-written responses.
 * Built and run by tests/zephyr_check.sh (it needs the stand-in include path, the bridge
 * overlay's devicetree stand-in and the sample's autoconf.h). */
#define main bridge_sample_main
#include "../../examples/zephyr/bridge/src/main.c"
#undef main

#include "testlib.h"
#include <errno.h>

/* ---------------------------------------------------------------- fakes */
#define MAX_SPI 8
static struct {
    /* uart */
    bool uart_ready;
    uart_irq_callback_user_data_t isr;
    void *isr_user;
    int rx_enabled;
    const uint8_t *fifo;     /* bytes the "hardware" holds for the ISR */
    size_t fifo_len, fifo_pos;
    uint8_t out[4096];       /* bytes sent with uart_poll_out */
    size_t out_len;
    /* spi */
    int spi_ret;
    unsigned spi_n;
    uint8_t spi_tx[MAX_SPI][512]; /* each call's tx stream */
    size_t spi_len[MAX_SPI];
    int spi_has_rx[MAX_SPI];
    uint8_t miso[512];       /* the device's answer, as one stream per call */
    /* gpio */
    int intb;                /* logical level gpio_pin_get_dt reads */
    unsigned set_n;
    const struct gpio_dt_spec *set_spec;
    int set_value;
    struct gpio_callback *cb;
    /* kernel */
    int64_t now;
    unsigned take_n;
} f;

static void fake_reset(void)
{
    memset(&f, 0, sizeof f);
    f.uart_ready = true;
}

bool device_is_ready(const struct device *dev) { return dev == bridge_uart ? f.uart_ready : true; }

int uart_irq_callback_user_data_set(const struct device *dev, uart_irq_callback_user_data_t cb,
                                    void *user_data)
{
    CHECK(dev == bridge_uart);
    f.isr = cb;
    f.isr_user = user_data;
    return 0;
}

void uart_irq_rx_enable(const struct device *dev)
{
    CHECK(dev == bridge_uart);
    f.rx_enabled = 1;
}

void uart_irq_rx_disable(const struct device *dev)
{
    (void)dev;
    f.rx_enabled = 0;
}

int uart_irq_update(const struct device *dev)
{
    (void)dev;
    return 1;
}

int uart_irq_rx_ready(const struct device *dev)
{
    (void)dev;
    return f.fifo_pos < f.fifo_len;
}

int uart_fifo_read(const struct device *dev, uint8_t *rx_data, const int size)
{
    size_t n = f.fifo_len - f.fifo_pos;
    (void)dev;
    if (size <= 0) return 0;
    if (n > (size_t)size) n = (size_t)size;
    memcpy(rx_data, f.fifo + f.fifo_pos, n);
    f.fifo_pos += n;
    return (int)n;
}

void uart_poll_out(const struct device *dev, unsigned char out_char)
{
    CHECK(dev == bridge_uart);
    if (f.out_len < sizeof f.out) f.out[f.out_len++] = out_char;
}

/* a working ring buffer (the stand-in's fields: head = taken, tail = put) */
uint32_t ring_buf_put(struct ring_buf *buf, const uint8_t *data, uint32_t size)
{
    uint32_t i, room = buf->size - (buf->tail - buf->head);
    if (size > room) size = room;
    for (i = 0; i < size; i++) buf->buffer[(buf->tail + i) % buf->size] = data[i];
    buf->tail += size;
    return size;
}

uint32_t ring_buf_get(struct ring_buf *buf, uint8_t *data, uint32_t size)
{
    uint32_t i, have = buf->tail - buf->head;
    if (size > have) size = have;
    for (i = 0; i < size; i++)
        if (data) data[i] = buf->buffer[(buf->head + i) % buf->size];
    buf->head += size;
    return size;
}

bool spi_is_ready_dt(const struct spi_dt_spec *spec) { return spec == &tsp1_spi; }

int spi_transceive_dt(const struct spi_dt_spec *spec, const struct spi_buf_set *tx_bufs,
                      const struct spi_buf_set *rx_bufs)
{
    size_t i, pos = 0, k;
    CHECK(spec == &tsp1_spi);
    if (f.spi_n >= MAX_SPI || !tx_bufs) return -EIO;
    k = f.spi_n++;
    for (i = 0; i < tx_bufs->count; i++) {
        const struct spi_buf *b = &tx_bufs->buffers[i];
        CHECK(pos + b->len <= sizeof f.spi_tx[k]);
        if (pos + b->len > sizeof f.spi_tx[k]) return -EIO;
        memcpy(f.spi_tx[k] + pos, b->buf, b->len); /* the port never sends a NULL tx buffer */
        pos += b->len;
    }
    f.spi_len[k] = pos;
    f.spi_has_rx[k] = rx_bufs != NULL;
    if (rx_bufs && f.spi_ret == 0) {
        size_t r = 0;
        for (i = 0; i < rx_bufs->count; i++) {
            const struct spi_buf *b = &rx_bufs->buffers[i];
            if (b->buf && r + b->len <= sizeof f.miso) memcpy(b->buf, f.miso + r, b->len);
            r += b->len;
        }
        CHECK_EQ(r, pos);
    }
    return f.spi_ret;
}

bool gpio_is_ready_dt(const struct gpio_dt_spec *spec) { return spec && spec->port; }
int gpio_pin_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t extra_flags)
{
    (void)spec, (void)extra_flags;
    return 0;
}
int gpio_pin_get_dt(const struct gpio_dt_spec *spec)
{
    CHECK(spec == &tsp1_intb);
    return f.intb;
}
int gpio_pin_set_dt(const struct gpio_dt_spec *spec, int value)
{
    f.set_n++;
    f.set_spec = spec;
    f.set_value = value;
    return 0;
}
int gpio_pin_interrupt_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t flags)
{
    (void)spec, (void)flags;
    return 0;
}
void gpio_init_callback(struct gpio_callback *callback, gpio_callback_handler_t handler,
                        gpio_port_pins_t pin_mask)
{
    callback->handler = handler;
    callback->pin_mask = pin_mask;
}
int gpio_add_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    (void)spec;
    f.cb = callback;
    return 0;
}
int gpio_remove_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    (void)spec, (void)callback;
    f.cb = NULL;
    return 0;
}

#include "fake_k_sem.h"
int k_sem_take(struct k_sem *sem, k_timeout_t timeout)
{
    f.take_n++;
    if (sem->count) {
        sem->count--;
        return 0;
    }
    if (timeout.ticks == 0) return -EBUSY;
    if (timeout.ticks > 0) f.now += timeout.ticks; /* nothing comes in this fake */
    return -EAGAIN;
}
int64_t k_uptime_get(void) { return f.now; }
int32_t k_msleep(int32_t ms)
{
    f.now += ms;
    return 0;
}

/* ---------------------------------------------------------------- the host's side, by hand */
/* A frame as the protocol defines it: 0x00, COBS(msg || CRC-32 little-endian), 0x00. */
static size_t frame(const uint8_t *msg, size_t n, uint8_t *out)
{
    uint8_t body[300];
    uint32_t crc = accel_crc32(msg, n);
    size_t i, o = 0, code_at;
    uint8_t code = 1;
    memcpy(body, msg, n);
    for (i = 0; i < 4; i++) body[n + i] = (uint8_t)(crc >> (8 * i));
    n += 4;
    out[o++] = 0;
    code_at = o++;
    for (i = 0; i < n; i++) {
        if (body[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = body[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    out[o++] = 0;
    return o;
}

/* Split the UART output into messages: COBS-decoded, CRC checked and stripped. Returns how
 * many; a bad frame counts as a message of length (size_t)-1. */
#define MAX_MSGS 8
static size_t msgs_len[MAX_MSGS];
static uint8_t msgs[MAX_MSGS][300];
static unsigned split_output(void)
{
    unsigned m = 0;
    size_t i = 0;
    while (i < f.out_len && m < MAX_MSGS) {
        size_t start, n = 0;
        int ok = 1;
        if (f.out[i] == 0) {
            i++;
            continue;
        }
        start = i;
        while (i < f.out_len && f.out[i] != 0) i++; /* the frame's body: start .. i-1 */
        {
            size_t p = start;
            while (p < i) {
                uint8_t code = f.out[p++];
                size_t k;
                for (k = 1; k < code; k++) {
                    if (p >= i || n >= sizeof msgs[m]) {
                        ok = 0;
                        break;
                    }
                    msgs[m][n++] = f.out[p++];
                }
                if (!ok) break;
                if (code < 0xFF && p < i) msgs[m][n++] = 0;
            }
        }
        if (ok && n >= 4) {
            uint32_t crc = (uint32_t)msgs[m][n - 4] | (uint32_t)msgs[m][n - 3] << 8 |
                           (uint32_t)msgs[m][n - 2] << 16 | (uint32_t)msgs[m][n - 1] << 24;
            ok = crc == accel_crc32(msgs[m], n - 4);
            n -= 4;
        } else {
            ok = 0;
        }
        msgs_len[m++] = ok ? n : (size_t)-1;
    }
    f.out_len = 0;
    return m;
}

/* The UART's interrupt with these bytes in its FIFO (as many interrupts as `per` says). */
static void uart_in(const uint8_t *b, size_t n, size_t per)
{
    size_t pos;
    REQUIRE(f.isr != NULL);
    for (pos = 0; pos < n; pos += per) {
        f.fifo = b + pos;
        f.fifo_len = n - pos < per ? n - pos : per;
        f.fifo_pos = 0;
        f.isr(bridge_uart, f.isr_user);
        CHECK_EQ(f.fifo_pos, f.fifo_len); /* the ISR drains the FIFO */
    }
}

/* Send one request message as a frame and run the sample's loop once. */
static void request(const uint8_t *msg, size_t n)
{
    uint8_t fr[400];
    size_t len = frame(msg, n, fr);
    uart_in(fr, len, 16);
    CHECK_EQ(bridge_service(K_NO_WAIT), len);
}

static size_t varint(uint8_t *p, uint32_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Response{seq, status, port_error} with no result: the bytes of a failed operation. */
static size_t failed(uint8_t *p, uint32_t seq, accel_status st, int32_t err)
{
    size_t n = 0;
    int32_t s = (int32_t)st;
    p[n++] = 0x08;
    n += varint(p + n, seq);
    p[n++] = 0x10; /* sint32: zigzag */
    n += varint(p + n, ((uint32_t)s << 1) ^ (uint32_t)(s >> 31));
    if (err) {
        p[n++] = 0x18;
        n += varint(p + n, ((uint32_t)err << 1) ^ (uint32_t)(err >> 31));
    }
    return n;
}

#define CHECK_ONE_RESPONSE(want, wlen)                                 \
    do {                                                               \
        unsigned tm_ = split_output();                                 \
        CHECK_EQ(tm_, 1);                                              \
        CHECK_EQ(msgs_len[0], (wlen));                                 \
        if (tm_ == 1 && msgs_len[0] == (wlen)) CHECK_MEM(msgs[0], (want), (wlen)); \
    } while (0)

/* Hello: version 1, session 42, max_data 128 */
static const uint8_t HELLO[] = {0x08, 0x01, 0x12, 0x07, 0x08, 0x01, 0x10, 0x2A, 0x18, 0x80, 0x01};
/* HelloInfo: version 1, max_data 128, caps SPI | GPIO_SET | WAIT_IRQ | TIME | DELAY (0x3D):
   the Zephyr port's callbacks without I2C (the sample's prj.conf leaves CONFIG_I2C off) */
static const uint8_t HELLO_INFO[] = {0x08, 0x01, 0x22, 0x07, 0x08, 0x01,
                                     0x10, 0x80, 0x01, 0x18, 0x3D};

static void setup_session(void)
{
    fake_reset();
    REQUIRE_EQ(bridge_setup(), 0);
    REQUIRE(f.rx_enabled);
    while (ring_buf_get(&bridge_rx_ring, NULL, 64)) {
    } /* a previous case's leftovers */
    bridge_rx_dropped = 0;
    request(HELLO, sizeof HELLO);
    CHECK_ONE_RESPONSE(HELLO_INFO, sizeof HELLO_INFO);
}

/* ---------------------------------------------------------------- cases */
static void test_hello_then_spi(void)
{
    static const uint8_t noise[] = {'A', 'T', '\r', '\n', 0x55, 0x12};
    /* SpiTransfer cs 0, len 4, tx de ad be ef, read */
    static const uint8_t spi[] = {0x08, 0x02, 0x1A, 0x0A, 0x10, 0x04, 0x1A, 0x04,
                                  0xDE, 0xAD, 0xBE, 0xEF, 0x20, 0x01};
    static const uint8_t tx[] = {0xDE, 0xAD, 0xBE, 0xEF};
    /* data 11 00 33 44: a zero byte inside the frame body */
    static const uint8_t want[] = {0x08, 0x02, 0x2A, 0x04, 0x11, 0x00, 0x33, 0x44};
    fake_reset();
    REQUIRE_EQ(bridge_setup(), 0);
    CHECK(f.isr != NULL);
    CHECK(f.rx_enabled);
    /* line noise before the first frame is dropped at the frame's leading 0x00 */
    uart_in(noise, sizeof noise, 16);
    CHECK_EQ(bridge_service(K_NO_WAIT), sizeof noise);
    CHECK_EQ(f.out_len, 0);
    request(HELLO, sizeof HELLO);
    CHECK_ONE_RESPONSE(HELLO_INFO, sizeof HELLO_INFO);
    CHECK_EQ(f.spi_n, 0);

    f.miso[0] = 0x11, f.miso[1] = 0x00, f.miso[2] = 0x33, f.miso[3] = 0x44;
    request(spi, sizeof spi);
    CHECK_ONE_RESPONSE(want, sizeof want);
    REQUIRE_EQ(f.spi_n, 1); /* one transaction, the request's bytes */
    CHECK_EQ(f.spi_len[0], 4);
    CHECK_MEM(f.spi_tx[0], tx, 4);
    CHECK(f.spi_has_rx[0]);
    CHECK_EQ(bridge_dev.stats.executed, 2);

    /* the host's retry (same seq): the kept answer again, never a second transaction */
    memset(f.miso, 0xEE, 4);
    request(spi, sizeof spi);
    CHECK_ONE_RESPONSE(want, sizeof want);
    CHECK_EQ(f.spi_n, 1);
    CHECK_EQ(bridge_dev.stats.repeats, 1);
    CHECK_EQ(bridge_dev.stats.executed, 2);
}

/* A frame that arrives one byte per interrupt, with the loop running in between. */
static void test_byte_per_interrupt(void)
{
    static const uint8_t spi[] = {0x08, 0x02, 0x1A, 0x07, 0x10, 0x01, 0x1A, 0x01, 0x5A, 0x20, 0x01};
    static const uint8_t want[] = {0x08, 0x02, 0x2A, 0x01, 0xA5};
    uint8_t fr[64];
    size_t len, i, fed = 0;
    setup_session();
    f.miso[0] = 0xA5;
    len = frame(spi, sizeof spi, fr);
    for (i = 0; i < len; i++) {
        uart_in(fr + i, 1, 1);
        fed += bridge_service(K_NO_WAIT);
        if (i + 1 < len) CHECK_EQ(f.out_len, 0); /* nothing before the frame ends */
    }
    CHECK_EQ(fed, len);
    CHECK_ONE_RESPONSE(want, sizeof want);
    CHECK_EQ(f.spi_n, 1);
    CHECK_EQ(f.spi_tx[0][0], 0x5A);
    /* no bytes: the loop waits on its semaphore and feeds nothing */
    f.take_n = 0;
    CHECK_EQ(bridge_service(K_MSEC(5)), 0);
    CHECK_EQ(f.take_n, 1);
    CHECK_EQ(f.out_len, 0);
}

/* KEEP_CS parts: tx-only ones join the transaction's last message in one spi_transceive_dt;
 * one that must read is refused (its bytes would be read only later), with nothing clocked. */
static void test_keep_cs(void)
{
    /* seq 2: len 3, tx 01 02 03, keep_cs */
    static const uint8_t part1[] = {0x08, 0x02, 0x1A, 0x09, 0x10, 0x03, 0x1A, 0x03,
                                    0x01, 0x02, 0x03, 0x28, 0x01};
    /* seq 3: len 2, tx 04 05, read (ends the transaction) */
    static const uint8_t part2[] = {0x08, 0x03, 0x1A, 0x08, 0x10, 0x02, 0x1A, 0x02,
                                    0x04, 0x05, 0x20, 0x01};
    static const uint8_t ok2[] = {0x08, 0x02};
    static const uint8_t want3[] = {0x08, 0x03, 0x2A, 0x02, 0x61, 0x62}; /* bytes 3, 4 of MISO */
    static const uint8_t stream[] = {0x01, 0x02, 0x03, 0x04, 0x05};
    /* seq 4: len 3 tx-only keep_cs; seq 5: len 2, read, keep_cs -> refused */
    static const uint8_t part4[] = {0x08, 0x04, 0x1A, 0x09, 0x10, 0x03, 0x1A, 0x03,
                                    0x07, 0x08, 0x09, 0x28, 0x01};
    static const uint8_t part5[] = {0x08, 0x05, 0x1A, 0x06, 0x10, 0x02, 0x20, 0x01, 0x28, 0x01};
    static const uint8_t ok4[] = {0x08, 0x04};
    /* seq 6: len 0: end a transaction the host lost track of */
    static const uint8_t end6[] = {0x08, 0x06, 0x1A, 0x00};
    static const uint8_t ok6[] = {0x08, 0x06};
    uint8_t want[16];
    size_t n;
    setup_session();
    f.miso[0] = 0x5F, f.miso[1] = 0x60, f.miso[2] = 0x5E, f.miso[3] = 0x61, f.miso[4] = 0x62;
    request(part1, sizeof part1);
    CHECK_ONE_RESPONSE(ok2, sizeof ok2);
    CHECK_EQ(f.spi_n, 0); /* held until the transaction ends */
    request(part2, sizeof part2);
    CHECK_ONE_RESPONSE(want3, sizeof want3);
    REQUIRE_EQ(f.spi_n, 1);
    CHECK_EQ(f.spi_len[0], 5);
    CHECK_MEM(f.spi_tx[0], stream, 5);

    request(part4, sizeof part4);
    CHECK_ONE_RESPONSE(ok4, sizeof ok4);
    request(part5, sizeof part5);
    n = failed(want, 5, ACCEL_E_UNSUPPORTED, 0);
    CHECK_ONE_RESPONSE(want, n);
    CHECK_EQ(f.spi_n, 1);              /* nothing clocked */
    CHECK_EQ(bridge_z.hold_parts, 0); /* and the held part dropped */
    /* so ending the transaction now clocks nothing */
    request(end6, sizeof end6);
    CHECK_ONE_RESPONSE(ok6, sizeof ok6);
    CHECK_EQ(f.spi_n, 1);
}

/* Failures carry the port's status and the errno behind it, once. */
static void test_errors(void)
{
    /* seq 2: len 1 tx 00, no read */
    static const uint8_t spi[] = {0x08, 0x02, 0x1A, 0x05, 0x10, 0x01, 0x1A, 0x01, 0x00};
    /* seq 3: GpioSet line 2 (not attached) level 1 */
    static const uint8_t gpio_bad[] = {0x08, 0x03, 0x2A, 0x04, 0x08, 0x02, 0x10, 0x01};
    /* seq 4: GpioSet line 1 (WAKE) level 1 */
    static const uint8_t wake[] = {0x08, 0x04, 0x2A, 0x04, 0x08, 0x01, 0x10, 0x01};
    static const uint8_t ok4[] = {0x08, 0x04};
    /* seq 5: WaitIrq line 0 timeout 10 ms, INTB inactive; seq 6: the same, INTB active */
    static const uint8_t wait5[] = {0x08, 0x05, 0x32, 0x02, 0x10, 0x0A};
    static const uint8_t wait6[] = {0x08, 0x06, 0x32, 0x02, 0x10, 0x0A};
    static const uint8_t ok6[] = {0x08, 0x06};
    uint8_t want[16];
    size_t n;
    setup_session();
    f.spi_ret = -EIO;
    request(spi, sizeof spi);
    n = failed(want, 2, ACCEL_E_IO, EIO);
    CHECK_ONE_RESPONSE(want, n);
    CHECK_EQ(f.spi_n, 1);
    CHECK_EQ(bridge_z.last_errno, 0); /* consumed by the response */
    /* a failure without an errno must not report the old one */
    request(gpio_bad, sizeof gpio_bad);
    n = failed(want, 3, ACCEL_E_CLOSED, 0);
    CHECK_ONE_RESPONSE(want, n);
    CHECK_EQ(f.set_n, 0);
    request(wake, sizeof wake);
    CHECK_ONE_RESPONSE(ok4, sizeof ok4);
    CHECK_EQ(f.set_n, 1);
    CHECK(f.set_spec == &tsp1_wake);
    CHECK_EQ(f.set_value, 1);
    f.now = 0;
    request(wait5, sizeof wait5);
    n = failed(want, 5, ACCEL_E_TIMEOUT, 0);
    CHECK_ONE_RESPONSE(want, n);
    CHECK_EQ(f.now, 10); /* the port waited the timeout on its semaphore */
    f.intb = 1;
    request(wait6, sizeof wait6);
    CHECK_ONE_RESPONSE(ok6, sizeof ok6);
}

/* More bytes than the ring holds while the loop is busy: the excess is counted and lost, the
 * damaged frame dropped, and the host's retry goes through. */
static void test_ring_overflow(void)
{
    static const uint8_t spi[] = {0x08, 0x02, 0x1A, 0x07, 0x10, 0x01, 0x1A, 0x01, 0x77, 0x20, 0x01};
    static const uint8_t want[] = {0x08, 0x02, 0x2A, 0x01, 0x99};
    static uint8_t flood[RX_RING_BYTES + 40];
    uint8_t fr[64];
    size_t len;
    setup_session();
    memset(flood, 0x41, sizeof flood); /* no 0x00: one endless frame, too long for the framer */
    uart_in(flood, sizeof flood, 16);
    CHECK_EQ(bridge_rx_dropped, 40);
    CHECK_EQ(bridge_service(K_NO_WAIT), RX_RING_BYTES);
    CHECK_EQ(f.out_len, 0);
    f.miso[0] = 0x99;
    len = frame(spi, sizeof spi, fr);
    uart_in(fr, len, 16);
    CHECK_EQ(bridge_service(K_NO_WAIT), len);
    CHECK_ONE_RESPONSE(want, sizeof want);
    CHECK_EQ(f.spi_n, 1);
    CHECK_EQ(bridge_dev.stats.frame_errors, 1);
}

/* No UART: setup says so and the sample's main returns. */
static void test_no_uart(void)
{
    fake_reset();
    f.uart_ready = false;
    CHECK_EQ(bridge_setup(), -1);
    CHECK(f.isr == NULL);
    CHECK_EQ(bridge_sample_main(), 0);
}

int main(void)
{
    RUN(test_hello_then_spi);
    RUN(test_byte_per_interrupt);
    RUN(test_keep_cs);
    RUN(test_errors);
    RUN(test_ring_overflow);
    RUN(test_no_uart);
    return TEST_END();
}
