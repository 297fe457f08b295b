/* bridge_avr_test.c - the bridge's device side run on an ATmega328P under simavr and on the
 * host, fed the same frames: both must print the same digest (every response byte, the
 * statistics, what the port saw), which shows the device side and nanopb behave the same with
 * a 16-bit int. On the AVR it also measures the deepest stack a frame takes (the RAM below the
 * stack pointer is painted before each feed and scanned after it). Built and compared by
 * tests/bridge_avr.sh; no stdio, no malloc. */
#include "accel_bridge_device.h"
#include <pb_encode.h>
#include <string.h>

#include "avr_out.h"
#ifdef __AVR__
extern uint8_t __heap_start;
#endif

static accel_bridge_device dev;
static uint32_t out_crc, out_n, port_sum;
static uint32_t clock_ms = 1000;
#ifdef __AVR__
static uint16_t max_stack;
#endif
/* the largest request, and a frame just too long for the device */
#define T_BODY (accel_bridge_Request_size + ACCEL_BRIDGE_CRC_SIZE + 8u)
static uint8_t body[T_BODY];
static uint8_t wire[ACCEL_BRIDGE_WIRE_SIZE(T_BODY)];

static void mix(uint32_t v)
{
    uint8_t b[4];
    accel_store_u32le(b, v);
    port_sum = accel_crc32_update(port_sum, b, 4);
}

static accel_status w(void *u, const uint8_t *d, size_t n)
{
    (void)u;
    out_crc = accel_crc32_update(out_crc, d, n);
    out_n += (uint32_t)n;
    return ACCEL_OK;
}

static accel_status t_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                          unsigned flags)
{
    size_t i;
    (void)u;
    mix(0x100u + cs + ((uint32_t)flags << 12) + ((uint32_t)len << 16));
    for (i = 0; i < len; i++) {
        uint8_t t = tx ? tx[i] : 0xA5u;
        if (tx) mix(t);
        if (rx) rx[i] = (uint8_t)(t ^ 0x5Au ^ (uint8_t)i);
    }
    return len == 77 ? ACCEL_E_IO : ACCEL_OK;
}

static accel_status t_i2c(void *u, uint16_t addr, const uint8_t *wr, size_t wlen, uint8_t *r,
                          size_t rlen)
{
    size_t i;
    (void)u;
    mix(0x200u + addr + ((uint32_t)wlen << 16));
    for (i = 0; i < wlen; i++) mix(wr[i]);
    for (i = 0; i < rlen; i++) r[i] = (uint8_t)(addr + i);
    return ACCEL_OK;
}

static accel_status t_gpio(void *u, unsigned line, unsigned level)
{
    (void)u;
    mix(0x300u + line + (level << 8));
    return ACCEL_OK;
}

static accel_status t_irq(void *u, unsigned line, uint32_t ms)
{
    (void)u;
    mix(0x400u + line);
    mix(ms);
    clock_ms += line == 3 ? ms : 1u;
    return line == 3 ? ACCEL_E_TIMEOUT : ACCEL_OK;
}

static uint32_t t_now(void *u)
{
    (void)u;
    return clock_ms += 7u;
}

static void t_delay(void *u, uint32_t ms)
{
    (void)u;
    clock_ms += ms;
}

static accel_status t_rr32(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    *v = off * 0x01010101u;
    return ACCEL_OK;
}

static accel_status t_rr64(void *u, uint32_t off, uint64_t *v)
{
    (void)u;
    *v = ((uint64_t)off << 33) | 5u;
    return ACCEL_OK;
}

static accel_status t_rw32(void *u, uint32_t off, uint32_t v)
{
    (void)u;
    mix(off);
    mix(v);
    return ACCEL_OK;
}

static accel_status t_rw64(void *u, uint32_t off, uint64_t v)
{
    (void)u;
    mix(off);
    mix((uint32_t)v);
    mix((uint32_t)(v >> 32));
    return ACCEL_OK;
}

static int32_t t_err(void *u)
{
    (void)u;
    return -5;
}

static void feed(const uint8_t *b, size_t n)
{
#ifdef __AVR__
    uint8_t *lo = &__heap_start, *sp = (uint8_t *)SP, *p;
    for (p = lo; p < sp - 32; p++) *p = 0xC5u;
    accel_bridge_device_feed(&dev, b, n);
    for (p = lo; p < sp - 32 && *p == 0xC5u; p++) {
    }
    if ((uint16_t)(sp - p) > max_stack) max_stack = (uint16_t)(sp - p);
#else
    accel_bridge_device_feed(&dev, b, n);
#endif
}

static void send_body(size_t n)
{
    size_t bl, wl;
    accel_bridge_frame_seal(body, n, sizeof body, &bl);
    if (accel_bridge_frame_encode(body, bl, wire, sizeof wire, &wl) == ACCEL_OK) feed(wire, wl);
}

static void send(accel_bridge_Request *q)
{
    pb_ostream_t os = pb_ostream_from_buffer(body, sizeof body - 4u);
    if (pb_encode(&os, accel_bridge_Request_fields, q)) send_body(os.bytes_written);
}

static accel_bridge_Request q;
static void req(uint32_t seq, pb_size_t op)
{
    memset(&q, 0, sizeof q);
    q.seq = seq;
    q.which_op = op;
}

int main(void)
{
    static accel_port port;
    accel_bridge_device_config c;
    uint16_t i;
#ifdef __AVR__
    UBRR0 = 8; /* 115200 at 16 MHz; simavr does not care */
    UCSR0B = (uint8_t)(1u << TXEN0);
#endif
    memset(&port, 0, sizeof port);
    port.spi_transfer = t_spi;
    port.i2c_write_read = t_i2c;
    port.gpio_set = t_gpio;
    port.wait_irq = t_irq;
    port.now_ms = t_now;
    port.delay_ms = t_delay;
    port.reg_read32 = t_rr32;
    port.reg_read64 = t_rr64;
    port.reg_write32 = t_rw32;
    port.reg_write64 = t_rw64;
    memset(&c, 0, sizeof c);
    c.port = &port;
    c.write = w;
    c.port_error = t_err;
    accel_bridge_device_init(&dev, &c);
    req(99, accel_bridge_Request_gpio_set_tag); /* before hello: refused */
    send(&q);
    req(100, accel_bridge_Request_hello_tag);
    q.op.hello.version = 2; /* another version: refused */
    send(&q);
    q.op.hello.version = ACCEL_BRIDGE_VERSION;
    q.op.hello.session = 0x12345678u;
    q.op.hello.max_data = 128;
    send(&q);
    req(101, accel_bridge_Request_spi_tag); /* the largest message */
    q.op.spi.cs = 3;
    q.op.spi.len = 128;
    q.op.spi.tx.size = 128;
    for (i = 0; i < 128; i++) q.op.spi.tx.bytes[i] = (uint8_t)(i * 11u + 1u);
    q.op.spi.read = 1;
    q.op.spi.keep_cs = 1;
    send(&q);
    send(&q); /* retry: the kept answer */
    req(102, accel_bridge_Request_spi_tag);
    q.op.spi.len = 100;
    q.op.spi.read = 1;
    send(&q);
    req(103, accel_bridge_Request_spi_tag); /* the port fails: status and its error code */
    q.op.spi.len = 77;
    q.op.spi.read = 1;
    send(&q);
    req(50, accel_bridge_Request_gpio_set_tag); /* stale */
    send(&q);
    req(104, accel_bridge_Request_i2c_tag);
    q.op.i2c.addr = 0x50;
    q.op.i2c.write.size = 4;
    for (i = 0; i < 4; i++) q.op.i2c.write.bytes[i] = (uint8_t)(0xF0u + i);
    q.op.i2c.read_len = 16;
    send(&q);
    req(105, accel_bridge_Request_gpio_set_tag);
    q.op.gpio_set.line = 300;
    q.op.gpio_set.level = 1;
    send(&q);
    req(106, accel_bridge_Request_wait_irq_tag);
    q.op.wait_irq.line = 3;
    q.op.wait_irq.timeout_ms = 70000u;
    send(&q);
    req(107, accel_bridge_Request_wait_irq_tag);
    q.op.wait_irq.line = 1;
    send(&q);
    req(108, accel_bridge_Request_delay_tag);
    q.op.delay.ms = 65537u;
    send(&q);
    req(109, accel_bridge_Request_time_tag);
    send(&q);
    req(110, accel_bridge_Request_reg_read_tag);
    q.op.reg_read.offset = 0x00ABCDEFu;
    send(&q);
    req(111, accel_bridge_Request_reg_read_tag);
    q.op.reg_read.offset = 0x7FFFFFFFu;
    q.op.reg_read.wide = 1;
    send(&q);
    req(112, accel_bridge_Request_reg_write_tag);
    q.op.reg_write.offset = 0x10;
    q.op.reg_write.value = 0xDEADBEEFu;
    send(&q);
    req(113, accel_bridge_Request_reg_write_tag);
    q.op.reg_write.value = 0x123456789ABCDEF0ull; /* too wide for 32 bits */
    send(&q);
    q.seq = 114;
    q.op.reg_write.wide = 1;
    send(&q);
    req(115, accel_bridge_Request_spi_tag); /* end the held transaction of cs 3? none: cs 3 */
    q.op.spi.cs = 3;
    send(&q);
    req(116, 0); /* no operation */
    send(&q);
    /* garbage, a corrupted frame, a frame too long, a good CRC around no Request */
    for (i = 0; i < 40; i++) wire[i] = (uint8_t)(i * 37u);
    feed(wire, 40);
    req(117, accel_bridge_Request_time_tag);
    {
        pb_ostream_t os = pb_ostream_from_buffer(body, sizeof body - 4u);
        size_t bl, wl;
        pb_encode(&os, accel_bridge_Request_fields, &q);
        accel_bridge_frame_seal(body, os.bytes_written, sizeof body, &bl);
        accel_bridge_frame_encode(body, bl, wire, sizeof wire, &wl);
        wire[3] ^= 0x20u;
        feed(wire, wl);
    }
    for (i = 0; i < T_BODY - 4u; i++) body[i] = (uint8_t)(i | 1u);
    send_body(T_BODY - 4u);
    body[0] = 0x08;
    body[1] = 0x76;
    body[2] = 0x1A;
    body[3] = 0x50; /* field 3, 80 bytes, none follow */
    send_body(4);
    req(0xFFFFFFFFu, accel_bridge_Request_hello_tag); /* a new session across the wrap */
    q.op.hello.version = ACCEL_BRIDGE_VERSION;
    q.op.hello.session = 7;
    send(&q);
    req(0, accel_bridge_Request_time_tag);
    send(&q);
    out_str("digest ");
    out_hex(out_crc);
    out_str(" bytes ");
    out_dec(out_n);
    out_str(" port ");
    out_hex(port_sum);
    out_str(" executed ");
    out_dec(dev.stats.executed);
    out_str(" repeats ");
    out_dec(dev.stats.repeats);
    out_str(" stale ");
    out_dec(dev.stats.stale);
    out_str(" nosession ");
    out_dec(dev.stats.no_session);
    out_str(" crc ");
    out_dec(dev.stats.crc_errors);
    out_str(" frame ");
    out_dec(dev.stats.frame_errors);
    out_str(" decode ");
    out_dec(dev.stats.decode_errors);
    out_str(" end\n");
#ifdef __AVR__
    out_str("stack ");
    out_dec(max_stack);
    out_str(" device ");
    out_dec((uint32_t)sizeof dev);
    out_str(" end\n");
    while (!(UCSR0A & (1u << TXC0))) {
    }
    cli();
    sleep_enable();
    sleep_cpu();
#endif
    return 0;
}
