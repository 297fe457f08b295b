/* fuzz_bridge.c - libFuzzer target for the nanopb bridge: its frame decoder, the nanopb decoding
 * of requests, responses and capture records, and what each side does with what it decodes.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Iports/sim -Iports/bridge \
 *         tests/fuzz/fuzz_bridge.c -lprotobuf-nanopb -o fuzz_bridge
 * Without libFuzzer: add -DACCEL_FUZZ_MAIN and give files (no files: pseudo-random inputs).
 * The first byte picks what the rest is:
 *   0  a byte stream into the device side (after a hello): framing, decoding, running
 *   1  the body of one Request: framed with a good CRC, so it reaches pb_decode and the device
 *   2  the body of one Response, as the host's answer to a request of each kind
 *   3  a capture file, replayed against a few port calls
 * Invariants (abort otherwise): the device's port never sees more than 128 bytes or a length
 * that does not match; every frame is counted once; the host never hands out more data than
 * was asked for; a replay never serves past its capture. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "../../ports/bridge/accel_bridge.c"
#include "../../ports/bridge/accel_bridge.pb.c"
#include "../../ports/bridge/accel_bridge_device.c"
#include "../../ports/bridge/accel_bridge_host.c"
#include "../../ports/bridge/accel_replay.c"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t sink[1 << 16];
static size_t sink_len;
static unsigned port_calls;

static accel_status f_write(void *u, const uint8_t *d, size_t n)
{
    (void)u;
    if (n > sizeof sink - sink_len) sink_len = 0;
    memcpy(sink + sink_len, d, n);
    sink_len += n;
    return ACCEL_OK;
}

static accel_status f_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                          unsigned flags)
{
    uint8_t tmp[ACCEL_BRIDGE_MAX_DATA];
    (void)u;
    port_calls++;
    if (len > ACCEL_BRIDGE_MAX_DATA || flags > ACCEL_SPI_KEEP_CS) abort();
    if (tx) memcpy(tmp, tx, len); /* every byte readable */
    if (rx) memset(rx, cs, len);  /* every byte writable */
    return len == 7 ? ACCEL_E_IO : ACCEL_OK;
}

static accel_status f_i2c(void *u, uint16_t addr, const uint8_t *w, size_t wlen, uint8_t *r,
                          size_t rlen)
{
    uint8_t tmp[ACCEL_BRIDGE_MAX_DATA];
    (void)u;
    port_calls++;
    if (wlen > ACCEL_BRIDGE_MAX_DATA || rlen > ACCEL_BRIDGE_MAX_DATA) abort();
    if ((wlen && !w) || (rlen && !r)) abort();
    if (wlen) memcpy(tmp, w, wlen);
    if (rlen) memset(r, (int)(addr & 0xFFu), rlen);
    return ACCEL_OK;
}

static accel_status f_gpio(void *u, unsigned line, unsigned level)
{
    (void)u;
    port_calls++;
    return line > 100 || level > 1 ? ACCEL_E_ARG : ACCEL_OK;
}

static accel_status f_irq(void *u, unsigned line, uint32_t ms)
{
    (void)u;
    (void)ms;
    port_calls++;
    return line & 1u ? ACCEL_E_TIMEOUT : ACCEL_OK;
}

static uint32_t f_now(void *u)
{
    (void)u;
    return port_calls * 3u;
}

static void f_delay(void *u, uint32_t ms)
{
    (void)u;
    (void)ms; /* never sleeps: a fuzzed delay of 2^32 ms must not hang the target */
}

static accel_status f_rr32(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    *v = off;
    return ACCEL_OK;
}

static accel_status f_rw64(void *u, uint32_t off, uint64_t v)
{
    (void)u;
    (void)off;
    (void)v;
    return ACCEL_OK;
}

static void fuzz_port(accel_port *p)
{
    memset(p, 0, sizeof *p);
    p->spi_transfer = f_spi;
    p->i2c_write_read = f_i2c;
    p->gpio_set = f_gpio;
    p->wait_irq = f_irq;
    p->now_ms = f_now;
    p->delay_ms = f_delay;
    p->reg_read32 = f_rr32;
    p->reg_write64 = f_rw64;
}

static accel_bridge_device dev;
static accel_bridge_host host;
static accel_replay rep;
static accel_port port;
static const uint8_t *resp_body;
static size_t resp_len;

static void dev_open(void)
{
    accel_bridge_device_config c;
    accel_bridge_Request q;
    uint8_t body[64], wire[128];
    size_t bl, wl;
    pb_ostream_t os;
    fuzz_port(&port);
    memset(&c, 0, sizeof c);
    c.port = &port;
    c.write = f_write;
    if (accel_bridge_device_init(&dev, &c) != ACCEL_OK) abort();
    memset(&q, 0, sizeof q);
    q.seq = 10;
    q.which_op = accel_bridge_Request_hello_tag;
    q.op.hello.version = ACCEL_BRIDGE_VERSION;
    q.op.hello.session = 5;
    os = pb_ostream_from_buffer(body, sizeof body - 4);
    if (!pb_encode(&os, accel_bridge_Request_fields, &q)) abort();
    accel_bridge_frame_seal(body, os.bytes_written, sizeof body, &bl);
    if (accel_bridge_frame_encode(body, bl, wire, sizeof wire, &wl) != ACCEL_OK) abort();
    accel_bridge_device_feed(&dev, wire, wl);
    if (dev.stats.executed != 1) abort();
}

static void dev_check(void)
{
    const accel_bridge_device_stats *s = &dev.stats;
    if (s->executed + s->repeats + s->stale + s->no_session + s->decode_errors > s->frames + 1)
        abort();
}

/* the host's view of an answer made of fuzz bytes */
static accel_status resp_exchange(void *ctx, const accel_bridge_Request *q,
                                  accel_bridge_Response *r, uint32_t *sends)
{
    pb_istream_t is;
    (void)ctx;
    *sends = 1;
    if (q->which_op == accel_bridge_Request_hello_tag) {
        memset(r, 0, sizeof *r);
        r->which_result = accel_bridge_Response_hello_tag;
        r->result.hello.version = ACCEL_BRIDGE_VERSION;
        r->result.hello.max_data = 128;
        r->result.hello.caps = 0x3FF;
        r->seq = q->seq;
        return ACCEL_OK;
    }
    is = pb_istream_from_buffer(resp_body, resp_len);
    if (!pb_decode(&is, accel_bridge_Response_fields, r)) return ACCEL_BRIDGE_E_LINK_TIMEOUT;
    r->seq = q->seq;
    return ACCEL_OK;
}

static void host_calls(const accel_port *p)
{
    uint8_t tx[200], rx[201];
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    memset(tx, 0x5A, sizeof tx);
    rx[200] = 0xEE;
    (void)accel_port_spi_transfer(p, 1, tx, rx, 200, 0);
    (void)accel_port_spi_transfer(p, 1, NULL, rx, 9, ACCEL_SPI_KEEP_CS);
    (void)accel_port_i2c_write_read(p, 0x20, tx, 3, rx, 17);
    (void)accel_port_gpio_set(p, 3, 1);
    (void)accel_port_wait_irq(p, 1, 5);
    (void)accel_port_delay_ms(p, 2);
    (void)accel_port_now_ms(p, &v32);
    (void)accel_port_reg_read32(p, 4, &v32);
    (void)accel_port_reg_read64(p, 8, &v64);
    (void)accel_port_reg_write32(p, 4, 1);
    if (rx[200] != 0xEE) abort(); /* never more than was asked for */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned mode;
    if (size < 1) return 0;
    mode = data[0] % 4u;
    data++;
    size--;
    sink_len = 0;
    port_calls = 0;
    if (mode == 0) {
        dev_open();
        accel_bridge_device_feed(&dev, data, size);
        dev_check();
        {
            /* the same bytes through a host-side frame decoder */
            static uint8_t fb[accel_bridge_Response_size + 4];
            accel_bridge_framer f;
            size_t i, n;
            accel_bridge_framer_init(&f, fb, sizeof fb);
            for (i = 0; i < size; i++)
                if (accel_bridge_framer_put(&f, data[i], &n) == ACCEL_OK && n > sizeof fb - 4)
                    abort();
        }
    } else if (mode == 1) {
        static uint8_t body[4096 + 4], wire[ACCEL_BRIDGE_WIRE_SIZE(4096 + 4)];
        size_t bl, wl;
        if (size > 4096) return 0;
        dev_open();
        memcpy(body, data, size);
        accel_bridge_frame_seal(body, size, sizeof body, &bl);
        if (accel_bridge_frame_encode(body, bl, wire, sizeof wire, &wl) != ACCEL_OK) abort();
        accel_bridge_device_feed(&dev, wire, wl);
        accel_bridge_device_feed(&dev, wire, wl); /* again: answered from the cache */
        dev_check();
        if (port_calls > 1) abort(); /* one request runs at most once */
    } else if (mode == 2) {
        accel_bridge_host_config c;
        memset(&c, 0, sizeof c);
        c.exchange = resp_exchange;
        resp_body = data;
        resp_len = size;
        if (accel_bridge_host_open(&host, &c) != ACCEL_OK) abort();
        host_calls(&host.port);
    } else {
        if (accel_replay_open(&rep, data, size) == ACCEL_OK) {
            host_calls(&rep.host.port);
            (void)accel_replay_check(&rep);
            if (rep.pos > rep.len) abort();
        }
    }
    return 0;
}

#ifdef ACCEL_FUZZ_MAIN
#include <stdio.h>
int main(int argc, char **argv)
{
    static uint8_t buf[1 << 16];
    int i;
    if (argc > 1) {
        for (i = 1; i < argc; i++) {
            FILE *fp = fopen(argv[i], "rb");
            size_t n;
            if (!fp) return 1;
            n = fread(buf, 1, sizeof buf, fp);
            fclose(fp);
            LLVMFuzzerTestOneInput(buf, n);
        }
        return 0;
    }
    {
        uint32_t s = 1;
        for (i = 0; i < 20000; i++) {
            size_t n = 1 + (size_t)(i % 600), k;
            for (k = 0; k < n; k++) {
                s = s * 1103515245u + 12345u;
                buf[k] = (uint8_t)(s >> 16);
                if (k % 7 == 3) buf[k] = 0; /* delimiters */
            }
            LLVMFuzzerTestOneInput(buf, n);
        }
    }
    printf("fuzz_bridge: 20000 inputs ok\n");
    return 0;
}
#endif
