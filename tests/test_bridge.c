/* test_bridge.c - the nanopb bridge (ports/bridge): frame layer, device side, host side over a
 * simulated link with injected faults, the TSP1 driver through the bridge against the TSP1
 * device model (compared with the same run without the bridge), exactly-once execution, and
 * captures replayed through ports/bridge/accel_replay. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

#ifndef ACCEL_HAVE_BRIDGE
static void test_bridge(void)
{
    (void)tl_checks;
    SKIP_CASE("built without nanopb (libnanopb-dev): ports/bridge left out");
}
int main(void)
{
    RUN(test_bridge);
    return TEST_END();
}
#else
#include "accel_bridge.h"
#include "accel_bridge_device.h"
#include "accel_bridge_host.h"
#include "accel_replay.h"
#include "accel_sim.h"
#include "bridge_link.h"
#include <pb_decode.h>
#include <pb_encode.h>

/* ================================================================ frame layer */
static size_t enc(const uint8_t *body, size_t n, uint8_t *out, size_t cap)
{
    size_t len = 0;
    CHECK_ST(accel_bridge_frame_encode(body, n, out, cap, &len), ACCEL_OK);
    return len;
}

static void test_cobs_vectors(void)
{
    /* known COBS encodings (Cheshire & Baker), framed by a 0x00 on each side */
    uint8_t body[300], out[320], want[320];
    size_t n, i;
    static const uint8_t b1[] = {0x11, 0x22, 0x00, 0x33};
    static const uint8_t w1[] = {0x00, 0x03, 0x11, 0x22, 0x02, 0x33, 0x00};
    static const uint8_t b2[] = {0x00};
    static const uint8_t w2[] = {0x00, 0x01, 0x01, 0x00};
    static const uint8_t b3[] = {0x00, 0x00};
    static const uint8_t w3[] = {0x00, 0x01, 0x01, 0x01, 0x00};
    static const uint8_t b4[] = {0x11, 0x00, 0x00, 0x00};
    static const uint8_t w4[] = {0x00, 0x02, 0x11, 0x01, 0x01, 0x01, 0x00};
    n = enc(b1, sizeof b1, out, sizeof out);
    CHECK_EQ(n, sizeof w1);
    CHECK_MEM(out, w1, sizeof w1);
    n = enc(b2, sizeof b2, out, sizeof out);
    CHECK_EQ(n, sizeof w2);
    CHECK_MEM(out, w2, sizeof w2);
    n = enc(b3, sizeof b3, out, sizeof out);
    CHECK_EQ(n, sizeof w3);
    CHECK_MEM(out, w3, sizeof w3);
    n = enc(b4, sizeof b4, out, sizeof out);
    CHECK_EQ(n, sizeof w4);
    CHECK_MEM(out, w4, sizeof w4);
    /* 254 non-zero bytes: one full block, no trailing code */
    for (i = 0; i < 254; i++) body[i] = (uint8_t)(i + 1);
    n = enc(body, 254, out, sizeof out);
    CHECK_EQ(n, 257);
    CHECK_EQ(out[1], 0xFF);
    CHECK_MEM(out + 2, body, 254);
    CHECK_EQ(out[256], 0);
    /* 255 non-zero bytes: a full block, then a block of one */
    for (i = 0; i < 255; i++) body[i] = (uint8_t)(i + 1 ? i + 1 : 1);
    body[254] = 0xFF;
    n = enc(body, 255, out, sizeof out);
    want[0] = 0;
    want[1] = 0xFF;
    memcpy(want + 2, body, 254);
    want[256] = 0x02;
    want[257] = 0xFF;
    want[258] = 0;
    CHECK_EQ(n, 259);
    CHECK_MEM(out, want, 259);
    /* 254 non-zero bytes then a zero: full block, then an empty block and the zero's block */
    body[254] = 0;
    n = enc(body, 255, out, sizeof out);
    CHECK_EQ(n, 259);
    CHECK_EQ(out[256], 0x01);
    CHECK_EQ(out[257], 0x01);
    /* no room */
    CHECK_ST(accel_bridge_frame_encode(b1, sizeof b1, out, 6, &n), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(n, 0);
    CHECK_ST(accel_bridge_frame_encode(b1, sizeof b1, NULL, 6, &n), ACCEL_E_NULL);
    CHECK_ST(accel_bridge_frame_write(NULL, 3, lk_dev_write, NULL), ACCEL_E_NULL);
}

/* feed bytes; returns the number of good frames, the last one copied to msg */
static unsigned feed_all(accel_bridge_framer *f, const uint8_t *b, size_t n, uint8_t *msg,
                         size_t *mlen, accel_status *last_err)
{
    unsigned good = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        size_t len = 0;
        accel_status st = accel_bridge_framer_put(f, b[i], &len);
        if (st == ACCEL_OK) {
            good++;
            memcpy(msg, f->buf, len);
            *mlen = len;
        } else if (st != ACCEL_E_EMPTY) {
            *last_err = st;
        }
    }
    return good;
}

static void test_framer(void)
{
    uint8_t buf[64], body[80], wire[200], msg[80];
    accel_bridge_framer f;
    size_t n, bl, ml = 0, i, round;
    accel_status err = ACCEL_OK;
    CHECK_ST(accel_bridge_framer_init(&f, buf, 4), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_bridge_framer_init(NULL, buf, 64), ACCEL_E_NULL);
    CHECK_ST(accel_bridge_framer_init(&f, buf, sizeof buf), ACCEL_OK);
    CHECK_ST(accel_bridge_framer_put(&f, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_bridge_frame_seal(body, 61, sizeof body, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_bridge_frame_seal(body, 77, sizeof body, &bl), ACCEL_E_BUFFER_TOO_SMALL);
    /* random bodies, zeros likely, round trip byte-exact */
    for (round = 0; round < 300; round++) {
        size_t len = tl_rand_below(61);
        for (i = 0; i < len; i++) body[i] = tl_rand_below(3) == 0 ? 0 : (uint8_t)tl_rand();
        CHECK_ST(accel_bridge_frame_seal(body, len, sizeof body, &bl), ACCEL_OK);
        CHECK_EQ(bl, len + 4);
        CHECK_EQ(accel_load_u32le(body + len), accel_crc32(body, len));
        n = enc(body, bl, wire, sizeof wire);
        for (i = 1; i + 1 < n; i++) CHECK(wire[i] != 0); /* no zero inside a frame */
        err = ACCEL_OK;
        CHECK_EQ(feed_all(&f, wire, n, msg, &ml, &err), 1);
        CHECK_EQ(ml, len);
        CHECK_MEM(msg, body, len);
        CHECK_ST(err, ACCEL_OK);
    }
    /* garbage before, between and after frames: each frame still arrives */
    {
        uint8_t s[600];
        size_t k = 0;
        unsigned good;
        static const uint8_t junk[] = {0x55, 0x13, 0x00, 0x07, 0x99};
        memcpy(s + k, junk, sizeof junk);
        k += sizeof junk;
        memcpy(body, "abc", 3);
        accel_bridge_frame_seal(body, 3, sizeof body, &bl);
        n = enc(body, bl, wire, sizeof wire);
        memcpy(s + k, wire, n);
        k += n;
        memcpy(s + k, junk, sizeof junk);
        k += sizeof junk;
        memcpy(s + k, wire + 1, n - 1); /* no leading delimiter: the junk's 0x00 ... */
        k += n - 1;
        err = ACCEL_OK;
        good = feed_all(&f, s, k, msg, &ml, &err);
        CHECK_EQ(good, 1); /* ... so the second copy is glued to the junk and lost */
        CHECK(err != ACCEL_OK);
        s[0] = 0;
        memcpy(s + 1, wire, n);
        good = feed_all(&f, s, n + 1, msg, &ml, &err);
        CHECK_EQ(good, 1);
        CHECK_MEM(msg, "abc", 3);
    }
    /* each way a frame can be bad */
    memcpy(body, "hello", 5);
    accel_bridge_frame_seal(body, 5, sizeof body, &bl);
    n = enc(body, bl, wire, sizeof wire);
    wire[4] ^= 0x40; /* a data byte: CRC */
    err = ACCEL_OK;
    CHECK_EQ(feed_all(&f, wire, n, msg, &ml, &err), 0);
    CHECK_ST(err, ACCEL_E_CRC);
    { /* a block cut short by the delimiter */
        static const uint8_t cut[] = {0x00, 0x05, 0x11, 0x22, 0x00};
        err = ACCEL_OK;
        CHECK_EQ(feed_all(&f, cut, sizeof cut, msg, &ml, &err), 0);
        CHECK_ST(err, ACCEL_E_MALFORMED);
    }
    { /* fewer bytes than a CRC */
        static const uint8_t shortf[] = {0x00, 0x03, 0x11, 0x22, 0x00};
        err = ACCEL_OK;
        CHECK_EQ(feed_all(&f, shortf, sizeof shortf, msg, &ml, &err), 0);
        CHECK_ST(err, ACCEL_E_TRUNCATED);
    }
    { /* longer than the buffer: dropped, the next frame is fine */
        uint8_t big[100];
        memset(big, 0x42, sizeof big);
        accel_bridge_frame_seal(big, 70, sizeof big, &bl);
        n = enc(big, bl, wire, sizeof wire);
        err = ACCEL_OK;
        CHECK_EQ(feed_all(&f, wire, n, msg, &ml, &err), 0);
        CHECK_ST(err, ACCEL_E_TOO_LONG);
        accel_bridge_frame_seal(big, 60, sizeof big, &bl);
        n = enc(big, bl, wire, sizeof wire);
        CHECK_EQ(feed_all(&f, wire, n, msg, &ml, &err), 1);
        CHECK_EQ(ml, 60);
    }
    /* a reset drops a partial frame */
    memcpy(body, "xyz", 3);
    accel_bridge_frame_seal(body, 3, sizeof body, &bl);
    n = enc(body, bl, wire, sizeof wire);
    err = ACCEL_OK;
    CHECK_EQ(feed_all(&f, wire, 4, msg, &ml, &err), 0);
    accel_bridge_framer_reset(&f);
    CHECK_EQ(feed_all(&f, wire + 4, n - 4, msg, &ml, &err), 0); /* the tail alone is no frame */
    CHECK(err != ACCEL_OK);
    /* the bridge's codes are accel_status values named by accel_status_str (and by the old
       name, kept as an alias) */
    CHECK_STR(accel_bridge_status_str(ACCEL_BRIDGE_E_LINK_TIMEOUT),
              "ACCEL_BRIDGE_E_LINK_TIMEOUT: no answer over the bridge link (request may or may not have run)");
    CHECK(strncmp(accel_status_str(ACCEL_BRIDGE_E_CAPTURE_END), "ACCEL_BRIDGE_E_CAPTURE_END:", 27) == 0);
}

/* ================================================================ a stub device port */
typedef struct stub {
    unsigned calls, spi_calls, i2c_calls, gpio_calls, irq_calls, delay_calls, now_calls, rr, rw;
    uint8_t last_cs;
    unsigned last_flags;
    size_t last_len;
    uint8_t spi_seen[4096];
    size_t spi_total;
    unsigned flags_log[64];
    size_t len_log[64];
    uint16_t i2c_addr;
    uint8_t i2c_w[256];
    size_t i2c_wlen;
    unsigned gpio_line, gpio_level;
    uint32_t clock;
    uint32_t last_off;
    uint64_t last_val;
    int fail_next; /* the next call fails with ACCEL_E_IO, port error 42 */
    int32_t err;
} stub;

static stub S;

static accel_status stub_enter(void)
{
    S.calls++;
    if (S.fail_next) {
        S.fail_next = 0;
        S.err = 42;
        return ACCEL_E_IO;
    }
    S.err = 0;
    return ACCEL_OK;
}

static accel_status stub_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                             unsigned flags)
{
    size_t i;
    accel_status st = stub_enter();
    (void)u;
    if (S.spi_calls < 64) {
        S.flags_log[S.spi_calls] = flags;
        S.len_log[S.spi_calls] = len;
    }
    S.spi_calls++;
    if (st != ACCEL_OK) return st;
    S.last_cs = cs;
    S.last_flags = flags;
    S.last_len = len;
    for (i = 0; i < len; i++) {
        uint8_t t = tx ? tx[i] : 0;
        if (S.spi_total < sizeof S.spi_seen) S.spi_seen[S.spi_total++] = t;
        if (rx) rx[i] = (uint8_t)(t ^ 0xA5u ^ (uint8_t)i);
    }
    return ACCEL_OK;
}

static accel_status stub_i2c(void *u, uint16_t addr, const uint8_t *w, size_t wlen, uint8_t *r,
                             size_t rlen)
{
    size_t i;
    accel_status st = stub_enter();
    (void)u;
    S.i2c_calls++;
    if (st != ACCEL_OK) return st;
    S.i2c_addr = addr;
    S.i2c_wlen = wlen;
    if (wlen) memcpy(S.i2c_w, w, wlen);
    for (i = 0; i < rlen; i++) r[i] = (uint8_t)(addr + i);
    return ACCEL_OK;
}

static accel_status stub_gpio(void *u, unsigned line, unsigned level)
{
    (void)u;
    S.gpio_calls++;
    S.gpio_line = line;
    S.gpio_level = level;
    return stub_enter();
}

static accel_status stub_irq(void *u, unsigned line, uint32_t ms)
{
    (void)u;
    S.irq_calls++;
    S.clock += ms;
    if (stub_enter() != ACCEL_OK) return ACCEL_E_IO;
    return line == 7 ? ACCEL_E_TIMEOUT : ACCEL_OK;
}

static uint32_t stub_now(void *u)
{
    (void)u;
    S.now_calls++;
    S.calls++;
    return S.clock;
}

static void stub_delay(void *u, uint32_t ms)
{
    (void)u;
    S.delay_calls++;
    S.calls++;
    S.clock += ms;
}

static accel_status stub_rr32(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    S.rr++;
    *v = off * 3u + 0x80000000u;
    return stub_enter();
}

static accel_status stub_rr64(void *u, uint32_t off, uint64_t *v)
{
    (void)u;
    S.rr++;
    *v = ((uint64_t)off << 40) | 0x123456789ull;
    return stub_enter();
}

static accel_status stub_rw32(void *u, uint32_t off, uint32_t v)
{
    (void)u;
    S.rw++;
    S.last_off = off;
    S.last_val = v;
    return stub_enter();
}

static accel_status stub_rw64(void *u, uint32_t off, uint64_t v)
{
    (void)u;
    S.rw++;
    S.last_off = off;
    S.last_val = v;
    return stub_enter();
}

static int32_t stub_err(void *u)
{
    (void)u;
    return S.err;
}

static void stub_port(accel_port *p, int full)
{
    memset(p, 0, sizeof *p);
    memset(&S, 0, sizeof S);
    S.clock = 5000;
    p->spi_transfer = stub_spi;
    p->i2c_write_read = stub_i2c;
    p->gpio_set = stub_gpio;
    p->wait_irq = stub_irq;
    p->now_ms = stub_now;
    p->delay_ms = stub_delay;
    if (full) {
        p->reg_read32 = stub_rr32;
        p->reg_read64 = stub_rr64;
        p->reg_write32 = stub_rw32;
        p->reg_write64 = stub_rw64;
    }
}

/* ================================================================ device side, frame by frame */
typedef struct devrig {
    accel_bridge_device d;
    accel_port port;
    uint8_t out[4096];
    size_t out_len;
    int fail_write;
    unsigned executed;
} devrig;

static devrig D;

static accel_status d_write(void *user, const uint8_t *data, size_t n)
{
    devrig *r = (devrig *)user;
    if (r->fail_write) return ACCEL_E_IO;
    if (n > sizeof r->out - r->out_len) return ACCEL_E_FULL;
    memcpy(r->out + r->out_len, data, n);
    r->out_len += n;
    return ACCEL_OK;
}

static void d_exec(void *user, const accel_bridge_Request *q, const accel_bridge_Response *r)
{
    (void)q;
    (void)r;
    ((devrig *)user)->executed++;
}

static void dev_setup(int full_port, uint16_t max_data)
{
    accel_bridge_device_config c;
    memset(&D, 0, sizeof D);
    stub_port(&D.port, full_port);
    memset(&c, 0, sizeof c);
    c.port = &D.port;
    c.write = d_write;
    c.port_error = stub_err;
    c.on_execute = d_exec;
    c.user = &D;
    c.max_data = max_data;
    CHECK_ST(accel_bridge_device_init(&D.d, &c), ACCEL_OK);
}

/* a request as the wire carries it */
static size_t wire_of(const accel_bridge_Request *q, uint8_t *wire, size_t cap)
{
    uint8_t body[accel_bridge_Request_size + 4];
    pb_ostream_t os = pb_ostream_from_buffer(body, sizeof body - 4);
    size_t bl = 0;
    CHECK(pb_encode(&os, accel_bridge_Request_fields, q));
    accel_bridge_frame_seal(body, os.bytes_written, sizeof body, &bl);
    return enc(body, bl, wire, cap);
}

/* Send one request to D; returns how many response frames came back, the last in *r. */
static unsigned dev_send(const accel_bridge_Request *q, accel_bridge_Response *r)
{
    uint8_t wire[400], fb[accel_bridge_Response_size + 4], msg[accel_bridge_Response_size + 4];
    accel_bridge_framer f;
    accel_status err = ACCEL_OK;
    size_t n = wire_of(q, wire, sizeof wire), ml = 0;
    unsigned good;
    D.out_len = 0;
    CHECK_ST(accel_bridge_device_feed(&D.d, wire, n), ACCEL_OK);
    accel_bridge_framer_init(&f, fb, sizeof fb);
    good = feed_all(&f, D.out, D.out_len, msg, &ml, &err);
    CHECK_ST(err, ACCEL_OK);
    if (good) {
        pb_istream_t is = pb_istream_from_buffer(msg, ml);
        CHECK(pb_decode(&is, accel_bridge_Response_fields, r));
    }
    return good;
}

static accel_bridge_Request mkreq(uint32_t seq, pb_size_t op)
{
    accel_bridge_Request q;
    memset(&q, 0, sizeof q);
    q.seq = seq;
    q.which_op = op;
    return q;
}

static accel_bridge_Request hello(uint32_t seq, uint32_t session, uint32_t version)
{
    accel_bridge_Request q = mkreq(seq, accel_bridge_Request_hello_tag);
    q.op.hello.version = version;
    q.op.hello.session = session;
    q.op.hello.max_data = 128;
    return q;
}

static void test_device_session(void)
{
    accel_bridge_Request q;
    accel_bridge_Response r;
    dev_setup(0, 0);
    /* before hello nothing runs */
    q = mkreq(5, accel_bridge_Request_gpio_set_tag);
    q.op.gpio_set.line = 3;
    q.op.gpio_set.level = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.seq, 5);
    CHECK_ST((accel_status)r.status, ACCEL_BRIDGE_E_NO_SESSION);
    CHECK_EQ(S.calls, 0);
    CHECK_EQ(D.d.stats.no_session, 1);
    /* a hello of another version: refused with the device's own */
    q = hello(100, 77, 2);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_BRIDGE_E_VERSION);
    CHECK_EQ(r.which_result, accel_bridge_Response_hello_tag);
    CHECK_EQ(r.result.hello.version, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(D.d.have_session, 0);
    /* hello: caps of a port without registers */
    q = hello(100, 77, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(r.seq, 100);
    CHECK_EQ(r.which_result, accel_bridge_Response_hello_tag);
    CHECK_EQ(r.result.hello.version, 1);
    CHECK_EQ(r.result.hello.max_data, 128);
    CHECK_EQ(r.result.hello.caps, 0x3F);
    CHECK_EQ(D.executed, 1);
    /* the next seq runs once; its retry is answered byte for byte from the cache */
    q = mkreq(101, accel_bridge_Request_gpio_set_tag);
    q.op.gpio_set.line = 3;
    q.op.gpio_set.level = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.gpio_calls, 1);
    CHECK_EQ(S.gpio_line, 3);
    CHECK_EQ(S.gpio_level, 1);
    {
        uint8_t first[200];
        size_t fl = D.out_len;
        memcpy(first, D.out, fl);
        CHECK_EQ(dev_send(&q, &r), 1);
        CHECK_EQ(D.out_len, fl);
        CHECK_MEM(D.out, first, fl);
        q.op.gpio_set.level = 0; /* even with other contents: the seq decides */
        CHECK_EQ(dev_send(&q, &r), 1);
        CHECK_MEM(D.out, first, fl);
    }
    CHECK_EQ(S.gpio_calls, 1);
    CHECK_EQ(D.d.stats.repeats, 2);
    /* older: ignored, no answer */
    q = mkreq(99, accel_bridge_Request_gpio_set_tag);
    CHECK_EQ(dev_send(&q, &r), 0);
    q.seq = 101u - 0x7FFFFFFFu; /* the far edge of "behind" */
    CHECK_EQ(dev_send(&q, &r), 0);
    CHECK_EQ(D.d.stats.stale, 2);
    CHECK_EQ(S.gpio_calls, 1);
    /* a gap (the host gave up on some requests): runs */
    q = mkreq(105, accel_bridge_Request_gpio_set_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(S.gpio_calls, 2);
    /* the same session's hello again: an ordinary request by the seq rule */
    q = hello(105, 77, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.which_result, 0); /* the kept answer of the gpio */
    CHECK_EQ(D.executed, 3);
    /* a new session starts a new sequence, even behind */
    q = hello(7, 78, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.seq, 7);
    CHECK_EQ(r.which_result, accel_bridge_Response_hello_tag);
    q = mkreq(8, accel_bridge_Request_gpio_set_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(S.gpio_calls, 3);
    /* sequence numbers wrap */
    q = hello(0xFFFFFFFFu, 79, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    q = mkreq(0, accel_bridge_Request_gpio_set_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.gpio_calls, 4);
    /* restart: the session is gone */
    accel_bridge_device_reset(&D.d);
    q = mkreq(1, accel_bridge_Request_gpio_set_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_BRIDGE_E_NO_SESSION);
    CHECK_EQ(S.gpio_calls, 4);
    /* init checks */
    {
        accel_bridge_device_config c;
        memset(&c, 0, sizeof c);
        CHECK_ST(accel_bridge_device_init(&D.d, &c), ACCEL_E_NULL);
        CHECK_ST(accel_bridge_device_init(NULL, &c), ACCEL_E_NULL);
        CHECK_ST(accel_bridge_device_feed(NULL, (const uint8_t *)"", 1), ACCEL_E_NULL);
    }
}

static void test_device_ops(void)
{
    accel_bridge_Request q;
    accel_bridge_Response r;
    uint32_t s = 10;
    unsigned i;
    dev_setup(1, 0);
    q = hello(s, 1, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.result.hello.caps, 0x3FF);
    /* SPI with tx and read */
    q = mkreq(++s, accel_bridge_Request_spi_tag);
    q.op.spi.cs = 2;
    q.op.spi.len = 128;
    q.op.spi.tx.size = 128;
    for (i = 0; i < 128; i++) q.op.spi.tx.bytes[i] = (uint8_t)(i * 7u);
    q.op.spi.read = 1;
    q.op.spi.keep_cs = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(r.which_result, accel_bridge_Response_data_tag);
    CHECK_EQ(r.result.data.size, 128);
    for (i = 0; i < 128; i++) CHECK_EQ(r.result.data.bytes[i], (uint8_t)((i * 7u) ^ 0xA5u ^ i));
    CHECK_EQ(S.last_cs, 2);
    CHECK_EQ(S.last_flags, ACCEL_SPI_KEEP_CS);
    CHECK_MEM(S.spi_seen, q.op.spi.tx.bytes, 128);
    /* SPI without tx (zeros out), without read: no data back */
    q = mkreq(++s, accel_bridge_Request_spi_tag);
    q.op.spi.len = 3;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(r.which_result, 0);
    CHECK_EQ(S.last_len, 3);
    CHECK_EQ(S.last_flags, 0);
    CHECK_EQ(S.spi_seen[128], 0);
    /* bounds */
    q = mkreq(++s, accel_bridge_Request_spi_tag);
    q.op.spi.len = 129;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    q = mkreq(++s, accel_bridge_Request_spi_tag);
    q.op.spi.len = 4;
    q.op.spi.tx.size = 3;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_MALFORMED);
    CHECK_EQ(S.spi_calls, 2);
    /* a failing port: status, the port's own code, no data */
    S.fail_next = 1;
    q = mkreq(++s, accel_bridge_Request_spi_tag);
    q.op.spi.len = 2;
    q.op.spi.read = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_IO);
    CHECK_EQ(r.port_error, 42);
    CHECK_EQ(r.which_result, 0);
    /* I2C */
    q = mkreq(++s, accel_bridge_Request_i2c_tag);
    q.op.i2c.addr = 0x50;
    q.op.i2c.write.size = 2;
    q.op.i2c.write.bytes[0] = 0xAB;
    q.op.i2c.write.bytes[1] = 0xCD;
    q.op.i2c.read_len = 5;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.i2c_addr, 0x50);
    CHECK_EQ(S.i2c_wlen, 2);
    CHECK_EQ(S.i2c_w[1], 0xCD);
    CHECK_EQ(r.result.data.size, 5);
    CHECK_EQ(r.result.data.bytes[4], 0x54);
    q.seq = ++s;
    q.op.i2c.read_len = 200;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    /* wait_irq: the port's timeout comes back as a delivered status */
    q = mkreq(++s, accel_bridge_Request_wait_irq_tag);
    q.op.wait_irq.line = 7;
    q.op.wait_irq.timeout_ms = 30;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TIMEOUT);
    CHECK_EQ(S.clock, 5030);
    q.seq = ++s;
    q.op.wait_irq.line = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    /* delay and time */
    q = mkreq(++s, accel_bridge_Request_delay_tag);
    q.op.delay.ms = 40;
    CHECK_EQ(dev_send(&q, &r), 1);
    q = mkreq(++s, accel_bridge_Request_time_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.which_result, accel_bridge_Response_now_ms_tag);
    CHECK_EQ(r.result.now_ms, 5100);
    /* registers */
    q = mkreq(++s, accel_bridge_Request_reg_read_tag);
    q.op.reg_read.offset = 0x10;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.which_result, accel_bridge_Response_value_tag);
    CHECK_EQ_U64(r.result.value, 0x80000030u);
    q.seq = ++s;
    q.op.reg_read.wide = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ_U64(r.result.value, 0x100123456789ull);
    q = mkreq(++s, accel_bridge_Request_reg_write_tag);
    q.op.reg_write.offset = 0x44;
    q.op.reg_write.value = 0xFFFFFFFFu;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.last_off, 0x44);
    CHECK_EQ_U64(S.last_val, 0xFFFFFFFFu);
    q.seq = ++s;
    q.op.reg_write.value = 0x100000000ull; /* does not fit 32 bits */
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_ARG);
    q.seq = ++s;
    q.op.reg_write.wide = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ_U64(S.last_val, 0x100000000ull);
    /* no operation at all (or one from a newer protocol): unsupported, and kept */
    q = mkreq(++s, 0);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_UNSUPPORTED);
    /* a port without the callback */
    D.port.reg_read32 = NULL;
    q = mkreq(++s, accel_bridge_Request_reg_read_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_UNSUPPORTED);
    CHECK_EQ(D.executed, s - 10 + 1);
}

/* Rules of ports/bridge/PROTOCOL.md the device must keep (each names its rule). */
static void test_device_protocol_rules(void)
{
    accel_bridge_Request q;
    accel_bridge_Response r;
    uint8_t first[200];
    size_t fl;
    unsigned gpio0;
    dev_setup(1, 0);
    /* S3 (hello's max_data): the smaller limit holds for the session, and the answer says so */
    q = hello(20, 5, ACCEL_BRIDGE_VERSION);
    q.op.hello.max_data = 16;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(r.result.hello.max_data, 16);
    q = mkreq(21, accel_bridge_Request_spi_tag);
    q.op.spi.len = 32;
    q.op.spi.read = 1;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    CHECK_EQ(r.which_result, 0);
    CHECK_EQ(S.spi_calls, 0);
    q.seq = 22;
    q.op.spi.len = 16;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(r.result.data.size, 16);
    q = mkreq(23, accel_bridge_Request_i2c_tag);
    q.op.i2c.read_len = 17;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    q.op.i2c.read_len = 0;
    q.op.i2c.write.size = 17;
    q.seq = 24;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    CHECK_EQ(S.i2c_calls, 0);
    /* max_data 0 in a hello: no limit stated, the device's own; above it: the device's own */
    q = hello(30, 6, ACCEL_BRIDGE_VERSION);
    q.op.hello.max_data = 0;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.result.hello.max_data, 128);
    q = hello(40, 7, ACCEL_BRIDGE_VERSION);
    q.op.hello.max_data = 1000;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.result.hello.max_data, 128);
    q = mkreq(41, accel_bridge_Request_spi_tag);
    q.op.spi.len = 128;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    /* S4 (version inside a session): another version is refused with the device's HelloInfo,
       even in the open session; the refusal is kept under its seq and the session lives on */
    q = hello(42, 7, ACCEL_BRIDGE_VERSION + 1u);
    q.op.hello.max_data = 8;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.seq, 42);
    CHECK_ST((accel_status)r.status, ACCEL_BRIDGE_E_VERSION);
    CHECK_EQ(r.which_result, accel_bridge_Response_hello_tag);
    CHECK_EQ(r.result.hello.version, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(r.result.hello.max_data, 128);
    CHECK_EQ(D.d.have_session, 1);
    CHECK_EQ(D.d.session, 7);
    fl = D.out_len;
    memcpy(first, D.out, fl);
    CHECK_EQ(dev_send(&q, &r), 1); /* its retry: the same bytes */
    CHECK_EQ(D.out_len, fl);
    CHECK_MEM(D.out, first, fl);
    q = mkreq(43, accel_bridge_Request_spi_tag); /* the limit is still 128, not 8 */
    q.op.spi.len = 128;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    /* S4 too: a hello of version 0 (field left out) is another version */
    q = hello(44, 7, 0);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_BRIDGE_E_VERSION);
    /* T1 (timing bound): up to ACCEL_BRIDGE_MAX_WAIT_MS runs; beyond, ACCEL_E_ARG at once */
    gpio0 = S.irq_calls;
    q = mkreq(45, accel_bridge_Request_wait_irq_tag);
    q.op.wait_irq.line = 1;
    q.op.wait_irq.timeout_ms = ACCEL_BRIDGE_MAX_WAIT_MS + 1u;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_ARG);
    CHECK_EQ(S.irq_calls, gpio0);
    q.seq = 46;
    q.op.wait_irq.timeout_ms = ACCEL_BRIDGE_MAX_WAIT_MS;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.irq_calls, gpio0 + 1u);
    q = mkreq(47, accel_bridge_Request_delay_tag);
    q.op.delay.ms = 0xFFFFFFFFu;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_ARG);
    CHECK_EQ(S.delay_calls, 0);
    q.seq = 48;
    q.op.delay.ms = ACCEL_BRIDGE_MAX_WAIT_MS;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_OK);
    CHECK_EQ(S.delay_calls, 1);
}

static void test_device_bad_input(void)
{
    accel_bridge_Request q;
    accel_bridge_Response r;
    uint8_t body[64], wire[128];
    size_t bl, n;
    unsigned kept_before;
    dev_setup(0, 16);
    q = hello(1, 1, ACCEL_BRIDGE_VERSION);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(r.result.hello.max_data, 16); /* the configured limit */
    q = mkreq(2, accel_bridge_Request_spi_tag);
    q.op.spi.len = 17;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    kept_before = D.d.stats.executed;
    /* a good CRC around bytes that are no Request: MALFORMED, not kept */
    body[0] = 0x08; /* seq = 3 */
    body[1] = 0x03;
    body[2] = 0x1A; /* field 3 (spi), length 50: runs past the end */
    body[3] = 50;
    accel_bridge_frame_seal(body, 4, sizeof body, &bl);
    n = enc(body, bl, wire, sizeof wire);
    D.out_len = 0;
    CHECK_ST(accel_bridge_device_feed(&D.d, wire, n), ACCEL_OK);
    CHECK_EQ(D.d.stats.decode_errors, 1);
    CHECK_EQ(D.d.stats.executed, kept_before);
    {
        accel_bridge_framer f;
        uint8_t fb[200], msg[200];
        size_t ml = 0;
        accel_status err = ACCEL_OK;
        pb_istream_t is;
        accel_bridge_framer_init(&f, fb, sizeof fb);
        CHECK_EQ(feed_all(&f, D.out, D.out_len, msg, &ml, &err), 1);
        is = pb_istream_from_buffer(msg, ml);
        CHECK(pb_decode(&is, accel_bridge_Response_fields, &r));
        CHECK_EQ(r.seq, 3);
        CHECK_ST((accel_status)r.status, ACCEL_E_MALFORMED);
    }
    /* the retry of seq 2 still gets its kept answer */
    q = mkreq(2, accel_bridge_Request_spi_tag);
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_ST((accel_status)r.status, ACCEL_E_TOO_LONG);
    /* a value too large for the field's width is refused by the decoder */
    body[0] = 0x08;
    body[1] = 0x04;
    body[2] = 0x2A; /* field 5 (gpio_set), length 3 */
    body[3] = 3;
    body[4] = 0x10; /* level (field 2) = 300: does not fit IS_8 */
    body[5] = 0xAC;
    body[6] = 0x02;
    accel_bridge_frame_seal(body, 7, sizeof body, &bl);
    n = enc(body, bl, wire, sizeof wire);
    CHECK_ST(accel_bridge_device_feed(&D.d, wire, n), ACCEL_OK);
    CHECK_EQ(D.d.stats.decode_errors, 2);
    CHECK_EQ(S.gpio_calls, 0);
    /* frame errors are counted by kind */
    wire[3] ^= 0x10;
    CHECK_ST(accel_bridge_device_feed(&D.d, wire, n), ACCEL_OK);
    CHECK_EQ(D.d.stats.crc_errors, 1);
    {
        static const uint8_t cut[] = {0x00, 0x09, 0x11, 0x00};
        CHECK_ST(accel_bridge_device_feed(&D.d, cut, sizeof cut), ACCEL_OK);
        CHECK_EQ(D.d.stats.frame_errors, 1);
    }
    /* a failing write is reported (every byte still taken) and counted */
    D.fail_write = 1;
    q = mkreq(9, accel_bridge_Request_gpio_set_tag);
    n = wire_of(&q, wire, sizeof wire);
    CHECK_ST(accel_bridge_device_feed(&D.d, wire, n), ACCEL_E_IO);
    CHECK_EQ(D.d.stats.write_errors, 1);
    CHECK_EQ(S.gpio_calls, 1); /* it ran: the retry is answered from the cache */
    D.fail_write = 0;
    CHECK_EQ(dev_send(&q, &r), 1);
    CHECK_EQ(S.gpio_calls, 1);
    CHECK_EQ(r.seq, 9);
}


/* ================================================================ host and device over a link */
typedef struct hostrig {
    link_sim link;
    accel_bridge_host h;
    uint8_t cap[1u << 20];
    size_t cap_len;
    unsigned cap_records;
} hostrig;

static hostrig H;

static accel_status cap_sink(void *user, const uint8_t *rec, size_t n)
{
    hostrig *r = (hostrig *)user;
    if (n > sizeof r->cap - r->cap_len) return ACCEL_E_FULL;
    memcpy(r->cap + r->cap_len, rec, n);
    r->cap_len += n;
    r->cap_records++;
    return ACCEL_OK;
}

/* stub device behind a link; returns the open status */
static accel_status host_setup(int full_port, uint8_t max_sends, uint16_t max_data)
{
    accel_bridge_host_config c;
    dev_setup(full_port, 0);
    memset(&H.link, 0, sizeof H.link);
    H.cap_len = 0;
    H.cap_records = 0;
    lk_init(&H.link, &D.d, &S.clock);
    D.d.write = lk_dev_write;
    D.d.user = &H.link;
    D.d.on_execute = NULL;
    memset(&c, 0, sizeof c);
    lk_transport(&H.link, &c.link);
    c.answer_ms = 20;
    c.max_sends = max_sends;
    c.max_data = max_data;
    c.session = 0x5E55;
    c.capture = cap_sink;
    c.capture_user = &H;
    return accel_bridge_host_open(&H.h, &c);
}

static void test_host_ops(void)
{
    accel_port *p = &H.h.port;
    uint8_t tx[300], rx[300], r8[8];
    uint32_t v32;
    uint64_t v64;
    size_t i;
    REQUIRE_ST(host_setup(0, 3, 0), ACCEL_OK);
    CHECK_EQ(H.h.max_data, 128);
    CHECK_EQ(H.h.caps, 0x3F);
    CHECK_EQ(H.h.version, 1);
    CHECK(p->spi_transfer != NULL && p->now_ms != NULL && p->delay_ms != NULL);
    CHECK(p->reg_read32 == NULL && p->reg_write64 == NULL && p->usb_control == NULL);
    CHECK_ST(accel_port_reg_read32(p, 0, &v32), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(D.d.stats.executed, 1); /* the hello */
    /* a 300-byte transfer: three messages in one transaction */
    for (i = 0; i < sizeof tx; i++) tx[i] = (uint8_t)(i * 13u + 1u);
    CHECK_ST(accel_port_spi_transfer(p, 1, tx, rx, 300, 0), ACCEL_OK);
    CHECK_EQ(S.spi_calls, 3);
    CHECK_EQ(S.len_log[0], 128);
    CHECK_EQ(S.len_log[1], 128);
    CHECK_EQ(S.len_log[2], 44);
    CHECK_EQ(S.flags_log[0], ACCEL_SPI_KEEP_CS);
    CHECK_EQ(S.flags_log[1], ACCEL_SPI_KEEP_CS);
    CHECK_EQ(S.flags_log[2], 0);
    CHECK_MEM(S.spi_seen, tx, 300);
    for (i = 0; i < 300; i++) CHECK_EQ(rx[i], (uint8_t)(tx[i] ^ 0xA5u ^ (uint8_t)(i % 128)));
    /* the caller's keep_cs stays on the last piece; no tx, no rx */
    CHECK_ST(accel_port_spi_transfer(p, 1, NULL, NULL, 130, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_EQ(S.spi_calls, 5);
    CHECK_EQ(S.flags_log[4], ACCEL_SPI_KEEP_CS);
    CHECK_EQ(S.spi_seen[300], 0);
    /* length 0 (flags 0) ends the transaction: the device's port hears it once */
    CHECK_ST(accel_port_spi_transfer(p, 1, NULL, NULL, 0, ACCEL_SPI_KEEP_CS), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(S.spi_calls, 5);
    CHECK_ST(accel_port_spi_transfer(p, 1, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(S.spi_calls, 6);
    CHECK_EQ(S.len_log[5], 0);
    CHECK_EQ(S.flags_log[5], 0);
    CHECK_ST(accel_port_spi_transfer(p, 1, NULL, NULL, 0, 0), ACCEL_OK); /* none open: nothing */
    CHECK_EQ(S.spi_calls, 6);
    /* I2C */
    CHECK_ST(accel_port_i2c_write_read(p, 0x21, tx, 3, r8, 4), ACCEL_OK);
    CHECK_EQ(S.i2c_addr, 0x21);
    CHECK_MEM(S.i2c_w, tx, 3);
    CHECK_EQ(r8[3], 0x24);
    {
        uint32_t reqs = H.h.stats.requests;
        CHECK_ST(accel_port_i2c_write_read(p, 0x21, tx, 129, NULL, 0), ACCEL_E_TOO_LONG);
        CHECK_ST(accel_port_i2c_write_read(p, 0x21, NULL, 0, rx, 200), ACCEL_E_TOO_LONG);
        CHECK_ST(accel_port_gpio_set(p, 0x10000u, 1), ACCEL_E_ARG);
        CHECK_ST(accel_port_gpio_set(p, 1, 256), ACCEL_E_ARG);
        CHECK_ST(accel_port_wait_irq(p, 0x10000u, 1), ACCEL_E_ARG);
        CHECK_EQ(H.h.stats.requests, reqs); /* refused before sending */
    }
    /* GPIO, IRQ, clock */
    CHECK_ST(accel_port_gpio_set(p, 9, 1), ACCEL_OK);
    CHECK_EQ(S.gpio_line, 9);
    CHECK_EQ(S.gpio_level, 1);
    CHECK_ST(accel_port_wait_irq(p, 7, 10), ACCEL_E_TIMEOUT); /* the device's answer */
    CHECK_ST(H.h.last_status, ACCEL_E_TIMEOUT);
    CHECK_EQ(H.h.stats.link_timeouts, 0);
    {
        /* an operation longer than answer_ms: no retry, its own time is allowed for */
        uint32_t sends = H.h.stats.sends, t = H.link.now;
        CHECK_ST(accel_port_wait_irq(p, 1, 500), ACCEL_OK);
        CHECK_EQ(H.h.stats.sends, sends + 1);
        CHECK(H.link.now - t >= 500);
        accel_port_delay_ms(p, 300);
        CHECK_EQ(H.h.stats.sends, sends + 2);
    }
    {
        uint32_t now = 0;
        CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
        CHECK_EQ(now, S.clock);
        CHECK_EQ(now, 5000 + 10 + 500 + 300);
    }
    {
        /* waits longer than a device accepts (PROTOCOL.md T1) go in pieces of at most
           ACCEL_BRIDGE_MAX_WAIT_MS: a wait until one piece is not a timeout, a delay until its
           time is spent */
        uint32_t reqs = H.h.stats.requests, irqs = S.irq_calls, delays = S.delay_calls;
        uint32_t clock = S.clock;
        CHECK_ST(accel_port_wait_irq(p, 7, 2u * ACCEL_BRIDGE_MAX_WAIT_MS + 5u), ACCEL_E_TIMEOUT);
        CHECK_EQ(H.h.stats.requests - reqs, 3);
        CHECK_EQ(S.irq_calls - irqs, 3);
        CHECK_EQ(S.clock - clock, 2u * ACCEL_BRIDGE_MAX_WAIT_MS + 5u);
        CHECK_ST(accel_port_wait_irq(p, 1, 3u * ACCEL_BRIDGE_MAX_WAIT_MS), ACCEL_OK);
        CHECK_EQ(H.h.stats.requests - reqs, 4); /* the first piece saw the line */
        accel_port_delay_ms(p, ACCEL_BRIDGE_MAX_WAIT_MS + 1u);
        CHECK_EQ(S.delay_calls - delays, 2);
        /* the stub's clock moves by each piece's time: 2M + 5, then M, then M + 1 */
        CHECK_EQ(S.clock - clock, 4u * ACCEL_BRIDGE_MAX_WAIT_MS + 6u);
        CHECK_EQ(H.h.stats.link_timeouts, 0);
    }
    /* the port's own error code comes along */
    S.fail_next = 1;
    CHECK_ST(accel_port_gpio_set(p, 9, 0), ACCEL_E_IO);
    CHECK_ST(H.h.last_status, ACCEL_E_IO);
    CHECK_EQ(H.h.last_port_error, 42);
    /* registers need a device that has them */
    REQUIRE_ST(host_setup(1, 3, 0), ACCEL_OK);
    CHECK_EQ(H.h.caps, 0x3FF);
    CHECK_ST(accel_port_reg_read32(p, 0x10, &v32), ACCEL_OK);
    CHECK_EQ(v32, 0x80000030u);
    CHECK_ST(accel_port_reg_read64(p, 0x1, &v64), ACCEL_OK);
    CHECK_EQ_U64(v64, 0x10123456789ull);
    CHECK_ST(accel_port_reg_write32(p, 0x20, 0xDEADBEEFu), ACCEL_OK);
    CHECK_EQ_U64(S.last_val, 0xDEADBEEFu);
    CHECK_ST(accel_port_reg_write64(p, 0x28, 0xFEDCBA9876543210ull), ACCEL_OK);
    CHECK_EQ_U64(S.last_val, 0xFEDCBA9876543210ull);
    CHECK_EQ(S.last_off, 0x28);
    /* a smaller data limit from the host's config */
    REQUIRE_ST(host_setup(0, 3, 50), ACCEL_OK);
    CHECK_EQ(H.h.max_data, 50);
    CHECK_ST(accel_port_spi_transfer(p, 0, tx, rx, 120, 0), ACCEL_OK);
    CHECK_EQ(S.spi_calls, 3);
    CHECK_EQ(S.len_log[2], 20);
    CHECK_EQ(H.h.stats.retries, 0);
}

static void test_host_link_failures(void)
{
    accel_port *p = &H.h.port;
    uint8_t tx[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t t0, now = 0;
    REQUIRE_ST(host_setup(0, 3, 0), ACCEL_OK);
    /* a transaction left open, then the link dies */
    CHECK_ST(accel_port_spi_transfer(p, 3, tx, NULL, 4, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    H.link.device_off = 1;
    t0 = H.link.now;
    CHECK_ST(accel_port_spi_transfer(p, 3, tx + 4, NULL, 4, 0), ACCEL_BRIDGE_E_LINK_TIMEOUT);
    CHECK_EQ(H.h.stats.link_timeouts, 1);
    CHECK_EQ(H.h.stats.retries, 2); /* three sends */
    CHECK_EQ(H.link.now - t0, 60);
    CHECK_ST(H.h.last_status, ACCEL_BRIDGE_E_LINK_TIMEOUT);
    CHECK_EQ(H.h.cs_dirty, 1);
    /* the clock keeps going on the host's time */
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    CHECK_EQ(now, H.link.now - 1000); /* no reading yet: time since open */
    CHECK_EQ(H.h.stats.link_timeouts, 2);
    H.link.device_off = 0;
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    CHECK_EQ(now, 5000);
    H.link.device_off = 1;
    t0 = H.link.now;
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    CHECK_EQ(now, 5000 + (H.link.now - t0)); /* on from the last reading */
    S.clock = 5010; /* a reading behind the estimate: the clock stays put, never goes back */
    H.link.device_off = 0;
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    CHECK_EQ(now, 5000 + 60);
    S.clock = 5100;
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    CHECK_EQ(now, 5100);
    H.link.device_off = 0;
    /* the next SPI call first ends the transaction the device may still hold */
    CHECK_EQ(S.spi_calls, 1);
    CHECK_ST(accel_port_spi_transfer(p, 4, tx, NULL, 2, 0), ACCEL_OK);
    CHECK_EQ(S.spi_calls, 3);
    CHECK_EQ(S.len_log[1], 0);
    CHECK_EQ(S.flags_log[1], 0);
    CHECK_EQ(S.last_cs, 4);
    CHECK_EQ(H.h.cs_dirty, 0);
    CHECK_EQ(H.h.stats.cs_releases, 1);
    /* the device restarts: the next call is refused, the one after says hello again */
    accel_bridge_device_reset(&D.d);
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_BRIDGE_E_NO_SESSION);
    CHECK_EQ(S.gpio_calls, 0);
    CHECK_EQ(H.h.stats.restarts, 1);
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_OK);
    CHECK_EQ(S.gpio_calls, 1);
    CHECK_EQ(D.d.have_session, 1);
    /* nothing answers at open */
    dev_setup(0, 0);
    {
        accel_bridge_host_config c;
        lk_init(&H.link, &D.d, &S.clock);
        H.link.device_off = 1;
        memset(&c, 0, sizeof c);
        lk_transport(&H.link, &c.link);
        c.max_sends = 2;
        t0 = H.link.now;
        CHECK_ST(accel_bridge_host_open(&H.h, &c), ACCEL_BRIDGE_E_LINK_TIMEOUT);
        CHECK_EQ(H.link.now - t0, 400); /* the default answer time, 200 ms per send */
        c.link.read = NULL;
        CHECK_ST(accel_bridge_host_open(&H.h, &c), ACCEL_E_NULL);
        CHECK_ST(accel_bridge_host_open(&H.h, NULL), ACCEL_E_NULL);
    }
}

/* a far end that answers whatever fake_rsp says */
static accel_bridge_Response fake_rsp;
static int fake_mode; /* 0: fake_rsp; 1: hello OK then fake_rsp; 2: the link write fails */
static accel_status fake_exchange(void *ctx, const accel_bridge_Request *q, accel_bridge_Response *r,
                                  uint32_t *sends)
{
    (void)ctx;
    *sends = 1;
    if (fake_mode == 2) return ACCEL_E_IO;
    if (fake_mode == 1 && q->which_op == accel_bridge_Request_hello_tag) {
        memset(r, 0, sizeof *r);
        r->which_result = accel_bridge_Response_hello_tag;
        r->result.hello.version = 1;
        r->result.hello.max_data = 64;
        r->result.hello.caps = 0x3FF;
    } else {
        *r = fake_rsp;
    }
    r->seq = q->seq;
    return ACCEL_OK;
}

static accel_status fake_open(int mode)
{
    accel_bridge_host_config c;
    memset(&c, 0, sizeof c);
    c.exchange = fake_exchange;
    fake_mode = mode;
    return accel_bridge_host_open(&H.h, &c);
}

static void test_host_bad_answers(void)
{
    accel_port *p = &H.h.port;
    uint8_t rx[4];
    uint32_t v;
    /* a device of another version */
    memset(&fake_rsp, 0, sizeof fake_rsp);
    fake_rsp.which_result = accel_bridge_Response_hello_tag;
    fake_rsp.result.hello.version = 2;
    fake_rsp.result.hello.max_data = 64;
    CHECK_ST(fake_open(0), ACCEL_BRIDGE_E_VERSION);
    CHECK_EQ(H.h.version, 2);
    fake_rsp.status = (int32_t)ACCEL_BRIDGE_E_VERSION; /* ... or one that says so itself */
    CHECK_ST(fake_open(0), ACCEL_BRIDGE_E_VERSION);
    fake_rsp.status = 0;
    fake_rsp.result.hello.version = 1;
    fake_rsp.result.hello.max_data = 0;
    CHECK_ST(fake_open(0), ACCEL_E_MALFORMED);
    fake_rsp.which_result = accel_bridge_Response_data_tag; /* not a hello answer */
    CHECK_ST(fake_open(0), ACCEL_E_MALFORMED);
    CHECK_ST(fake_open(2), ACCEL_E_IO);
    /* answers that do not fit the request */
    REQUIRE_ST(fake_open(1), ACCEL_OK);
    CHECK_EQ(H.h.max_data, 64);
    memset(&fake_rsp, 0, sizeof fake_rsp);
    CHECK_ST(accel_port_spi_transfer(p, 0, NULL, rx, 4, 0), ACCEL_E_MALFORMED); /* no data */
    CHECK_EQ(H.h.cs_dirty, 1);
    fake_rsp.which_result = accel_bridge_Response_data_tag;
    fake_rsp.result.data.size = 3;
    CHECK_ST(accel_port_spi_transfer(p, 0, NULL, rx, 4, 0), ACCEL_E_MALFORMED); /* short */
    CHECK_ST(accel_port_i2c_write_read(p, 1, NULL, 0, rx, 4), ACCEL_E_MALFORMED);
    fake_rsp.which_result = accel_bridge_Response_value_tag;
    fake_rsp.result.value = 0x100000000ull;
    CHECK_ST(accel_port_reg_read32(p, 0, &v), ACCEL_E_MALFORMED); /* wider than 32 bits */
    fake_rsp.which_result = 0;
    fake_rsp.status = 5; /* not a status */
    CHECK_ST(accel_port_gpio_set(p, 0, 0), ACCEL_E_MALFORMED);
    fake_rsp.status = -700;
    CHECK_ST(accel_port_gpio_set(p, 0, 0), ACCEL_E_MALFORMED);
    fake_rsp.status = (int32_t)ACCEL_E_TSP1_ERR_ARG; /* any real code passes through */
    CHECK_ST(accel_port_gpio_set(p, 0, 0), ACCEL_E_TSP1_ERR_ARG);
    fake_mode = 2;
    CHECK_ST(accel_port_gpio_set(p, 0, 0), ACCEL_E_IO);
    CHECK_ST(H.h.last_status, ACCEL_E_IO);
}

/* Random operations through a faulty link: every call returns the right answer, and the stub
 * saw each operation exactly once. */
static void test_host_faults(void)
{
    static uint8_t tx[400], rx[400];
    accel_port *p = &H.h.port;
    lk_faults f;
    unsigned step, gpio_n = 0;
    size_t spi_bytes = 0;
    memset(&f, 0, sizeof f);
    f.drop = 60;
    f.dup = 60;
    f.flip = 60;
    f.byte_drop = 40;
    f.byte_dup = 40;
    f.garbage = 60;
    f.delay = 40;
    f.reorder = 100;
    REQUIRE_ST(host_setup(0, 30, 0), ACCEL_OK);
    lk_set_faults(&H.link, &f);
    for (step = 0; step < 600; step++) {
        unsigned a = tl_rand_below(4);
        if (a < 2) {
            size_t n = 1 + tl_rand_below(400), i;
            int with_rx = tl_rand_below(2) != 0;
            for (i = 0; i < n; i++) tx[i] = (uint8_t)tl_rand();
            S.spi_total = 0;
            CHECK_ST(accel_port_spi_transfer(p, 2, tx, with_rx ? rx : NULL, n, 0), ACCEL_OK);
            CHECK_EQ(S.spi_total, n); /* every byte clocked once */
            CHECK_MEM(S.spi_seen, tx, n);
            if (with_rx)
                for (i = 0; i < n; i++)
                    if (rx[i] != (uint8_t)(tx[i] ^ 0xA5u ^ (uint8_t)(i % 128))) {
                        CHECK_EQ(rx[i], (uint8_t)(tx[i] ^ 0xA5u ^ (uint8_t)(i % 128)));
                        break;
                    }
            spi_bytes += n;
        } else if (a == 2) {
            unsigned line = tl_rand_below(16), level = tl_rand_below(2);
            CHECK_ST(accel_port_gpio_set(p, line, level), ACCEL_OK);
            gpio_n++;
            CHECK_EQ(S.gpio_calls, gpio_n);
            CHECK_EQ(S.gpio_line, line);
            CHECK_EQ(S.gpio_level, level);
        } else {
            uint32_t now = 0, want = S.clock;
            CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
            CHECK_EQ(now, want);
            accel_port_delay_ms(p, tl_rand_below(3));
        }
    }
    CHECK_EQ(H.h.stats.link_timeouts, 0);
    CHECK_EQ(D.d.stats.executed, H.h.stats.requests); /* each request ran exactly once */
    CHECK(H.h.stats.retries > 0);
    CHECK(D.d.stats.repeats > 0);
    CHECK(D.d.stats.crc_errors + D.d.stats.frame_errors > 0);
    CHECK(H.h.stats.stale > 0);
    printf("  random ops through a faulty link (%lu SPI bytes):\n", (unsigned long)spi_bytes);
    lk_print(&H.link, "ops");
    lk_print_stats(&H.h, &D.d, "ops");
}

/* ================================================================ TSP1 through the bridge */
/* A port wrapper that counts calls and folds every argument and every byte into a hash, to show
 * that the device ran exactly the calls the driver made, once each, with the same data. */
typedef struct counter {
    accel_port inner;
    accel_port port;
    uint32_t calls, spi, spi_bytes;
    uint32_t hash;
} counter;

static void ct_mix(counter *c, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < n; i++) c->hash = (c->hash ^ b[i]) * 16777619u;
}

static void ct_mix32(counter *c, uint32_t v)
{
    uint8_t b[4];
    accel_store_u32le(b, v);
    ct_mix(c, b, 4);
}

static accel_status ct_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                           unsigned flags)
{
    counter *c = (counter *)u;
    accel_status st = c->inner.spi_transfer(c->inner.user, cs, tx, rx, len, flags);
    c->calls++;
    c->spi++;
    c->spi_bytes += (uint32_t)len;
    ct_mix32(c, 1u + ((uint32_t)cs << 8) + ((uint32_t)flags << 16));
    ct_mix32(c, (uint32_t)len);
    if (tx) ct_mix(c, tx, len);
    if (rx && st == ACCEL_OK) ct_mix(c, rx, len);
    ct_mix32(c, (uint32_t)st);
    return st;
}

static accel_status ct_gpio(void *u, unsigned line, unsigned level)
{
    counter *c = (counter *)u;
    accel_status st = c->inner.gpio_set(c->inner.user, line, level);
    c->calls++;
    ct_mix32(c, 2u + (line << 8) + (level << 24));
    ct_mix32(c, (uint32_t)st);
    return st;
}

static accel_status ct_irq(void *u, unsigned line, uint32_t ms)
{
    counter *c = (counter *)u;
    accel_status st = c->inner.wait_irq(c->inner.user, line, ms);
    c->calls++;
    ct_mix32(c, 3u + (line << 8));
    ct_mix32(c, ms);
    ct_mix32(c, (uint32_t)st);
    return st;
}

static uint32_t ct_now(void *u)
{
    counter *c = (counter *)u;
    uint32_t v = c->inner.now_ms(c->inner.user);
    c->calls++;
    ct_mix32(c, 4u);
    ct_mix32(c, v);
    return v;
}

static void ct_delay(void *u, uint32_t ms)
{
    counter *c = (counter *)u;
    c->inner.delay_ms(c->inner.user, ms);
    c->calls++;
    ct_mix32(c, 5u);
    ct_mix32(c, ms);
}

static void ct_wrap(counter *c, const accel_port *inner)
{
    memset(c, 0, sizeof *c);
    c->inner = *inner;
    c->hash = 2166136261u;
    c->port.user = c;
    c->port.spi_transfer = inner->spi_transfer ? ct_spi : NULL;
    c->port.gpio_set = inner->gpio_set ? ct_gpio : NULL;
    c->port.wait_irq = inner->wait_irq ? ct_irq : NULL;
    c->port.now_ms = inner->now_ms ? ct_now : NULL;
    c->port.delay_ms = inner->delay_ms ? ct_delay : NULL;
}

#define T_MAXOUT 4096
#define T_MAXX 200000

typedef struct tlog {
    unsigned n_out, n_async;
    uint16_t o_tid[T_MAXOUT], o_cmd[T_MAXOUT], o_resp[T_MAXOUT];
    int32_t o_st[T_MAXOUT];
    uint32_t o_hash[T_MAXOUT];
    uint16_t a_id[T_MAXOUT], a_tid[T_MAXOUT];
    uint32_t m_executed, m_discarded, m_errors, m_async_emitted, m_lost, m_ignored, sim_now;
    uint32_t s_gaps, s_nonmono, s_stray, s_outcomes;
    uint32_t calls, spi_bytes, hash;
} tlog;

typedef struct trig {
    accel_sim sim;
    accel_tsp1_model m;
    uint8_t mmem[4 * 1024 + 64];
    accel_tsp1 s;
    uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(8, 576, 588) + 3) / 4]; /* the driver's */
    counter host_side, dev_side;
    accel_bridge_device dev;
    link_sim link;
    accel_bridge_host h;
    tlog *log;
    /* exactly once: executions per sequence number, and what the device answered */
    uint32_t base;
    uint8_t exec_n[T_MAXX];
    uint32_t exec_hash[T_MAXX];
    uint32_t answered, local, mismatched, exec_twice, unknown_seq;
    /* the TSP1 properties of tests/test_tsp1_driver.c */
    uint8_t exec_state[65536], outcome_n[65536], submitted[65536];
    uint8_t model_seen[65536]; /* commands the model took per TID: > 1 means a TID was reused */
    uint32_t wrong_outcomes, reused_tids;
    uint8_t *capbuf; /* when set, every capture record is also kept here (1 MiB) */
    size_t cap_len;
    int32_t outcome_st[65536];
    unsigned p_async;
} trig;

static trig T;
static tlog LOG_DIRECT, LOG_BRIDGE;

static uint32_t rsp_hash(const accel_bridge_Response *r)
{
    uint8_t b[accel_bridge_Response_size];
    pb_ostream_t os = pb_ostream_from_buffer(b, sizeof b);
    accel_bridge_Response c = *r;
    uint32_t h = 2166136261u;
    size_t i;
    c.seq = 0;
    if (!pb_encode(&os, accel_bridge_Response_fields, &c)) return 0;
    for (i = 0; i < os.bytes_written; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

static void t_exec(void *u, const accel_bridge_Request *q, const accel_bridge_Response *r)
{
    trig *t = (trig *)u;
    uint32_t i = q->seq - t->base;
    if (i >= T_MAXX) {
        t->unknown_seq++;
        return;
    }
    if (t->exec_n[i]) t->exec_twice++;
    t->exec_n[i]++;
    t->exec_hash[i] = rsp_hash(r);
}

/* the host's record of each exchange, checked against what the device ran */
static accel_status t_capture(void *u, const uint8_t *rec, size_t n)
{
    trig *t = (trig *)u;
    uint32_t field, i;
    const uint8_t *msg;
    size_t ml, used;
    accel_bridge_Exchange ex;
    pb_istream_t is;
    if (accel_bridge_capture_record(rec, n, &field, &msg, &ml, &used) != ACCEL_OK || used != n)
        return ACCEL_E_MALFORMED;
    if (t->capbuf) {
        if (n > sizeof H.cap - t->cap_len) return ACCEL_E_FULL;
        memcpy(t->capbuf + t->cap_len, rec, n);
        t->cap_len += n;
    }
    if (field != 2) return ACCEL_OK;
    is = pb_istream_from_buffer(msg, ml);
    if (!pb_decode(&is, accel_bridge_Exchange_fields, &ex)) return ACCEL_E_MALFORMED;
    i = ex.request.seq - t->base;
    if (i >= T_MAXX) {
        t->unknown_seq++;
        return ACCEL_OK;
    }
    if (ex.local) {
        t->local++; /* given up: ran at most once (checked at the end) */
    } else {
        t->answered++;
        /* an answer the host took must be the answer of the one run of that request */
        if (t->exec_n[i] != 1 || t->exec_hash[i] != rsp_hash(&ex.response)) t->mismatched++;
    }
    return ACCEL_OK;
}

static void t_outcome(void *u, const accel_tsp1_outcome *o)
{
    trig *t = (trig *)u;
    tlog *l = t->log;
    if (l->n_out < T_MAXOUT) {
        uint32_t h = 2166136261u;
        unsigned k;
        if (o->resp)
            for (k = 0; k < o->resp->n_bytes; k++) h = (h ^ o->resp->payload[k]) * 16777619u;
        l->o_tid[l->n_out] = o->tid;
        l->o_cmd[l->n_out] = o->cmd;
        l->o_st[l->n_out] = (int32_t)o->status;
        l->o_resp[l->n_out] = o->resp ? o->resp->id : 0;
        l->o_hash[l->n_out] = h;
    }
    l->n_out++;
    t->outcome_n[o->tid]++;
    t->outcome_st[o->tid] = (int32_t)o->status;
}

static void t_async(void *u, const accel_tsp1_frame *f)
{
    trig *t = (trig *)u;
    tlog *l = t->log;
    if (l->n_async < T_MAXOUT) {
        l->a_id[l->n_async] = f->id;
        l->a_tid[l->n_async] = f->tid;
    }
    l->n_async++;
    if (f->id == ACCEL_TSP1_R_ASYNC_ERR_ECC || f->id == ACCEL_TSP1_R_ASYNC_ERR_NPU) t->p_async++;
}

/* The model's ground-truth log: a command that ran (1) or was discarded in the error state (2) */
static void t_model_log(void *u, const accel_tsp1_model_event *e)
{
    trig *t = (trig *)u;
    if (e->id == 0) return;
    if (e->what != ACCEL_TSP1_MODEL_RAN && e->what != ACCEL_TSP1_MODEL_DISCARDED) return;
    t->exec_state[e->tid] = e->what == ACCEL_TSP1_MODEL_DISCARDED ? 2 : 1;
    if (t->model_seen[e->tid] < 255 && ++t->model_seen[e->tid] == 2) t->reused_tids++;
}

/* the device's write callback gets T (shared user): forward to the link */
static accel_status t_dev_write(void *user, const uint8_t *data, size_t n)
{
    return lk_dev_write(&((trig *)user)->link, data, n);
}

/* The TSP1 rig: model on the simulator; the driver on it directly (bridged 0) or through the
 * bridge over the simulated link (bridged 1). */
static accel_status t_setup(int bridged, uint8_t auto_clear, const lk_faults *f, uint8_t max_sends,
                            uint32_t session)
{
    accel_port mp;
    accel_tsp1_config c;
    accel_status st;
    tlog *keep = T.log;
    uint8_t *capbuf = T.capbuf;
    memset(&T, 0, sizeof T);
    T.log = keep;
    T.capbuf = capbuf;
    memset(T.log, 0, sizeof *T.log);
    accel_sim_init(&T.sim);
    CHECK_ST(accel_tsp1_model_init(&T.m, T.mmem, sizeof T.mmem, 300, 160, 3), ACCEL_OK);
    accel_tsp1_model_port(&T.m, &mp);
    T.m.on_log = t_model_log;
    T.m.user = &T;
    accel_sim_attach(&T.sim, &mp);
    memset(&c, 0, sizeof c);
    if (bridged) {
        accel_bridge_device_config dc;
        accel_bridge_host_config hc;
        ct_wrap(&T.dev_side, &T.sim.port);
        memset(&dc, 0, sizeof dc);
        dc.port = &T.dev_side.port;
        dc.write = t_dev_write; /* on_execute and write share user */
        dc.on_execute = t_exec;
        dc.user = &T;
        CHECK_ST(accel_bridge_device_init(&T.dev, &dc), ACCEL_OK);
        lk_init(&T.link, &T.dev, &T.sim.now);
        if (f) lk_set_faults(&T.link, f);
        memset(&hc, 0, sizeof hc);
        lk_transport(&T.link, &hc.link);
        hc.answer_ms = 20;
        hc.max_sends = max_sends;
        hc.session = session;
        hc.capture = t_capture;
        hc.capture_user = &T;
        T.base = session;
        st = accel_bridge_host_open(&T.h, &hc);
        if (st != ACCEL_OK) return st;
        ct_wrap(&T.host_side, &T.h.port);
    } else {
        ct_wrap(&T.host_side, &T.sim.port);
    }
    c.bus.port = &T.host_side.port;
    c.mem = T.mem;
    c.mem_len = sizeof T.mem;
    c.depth = 8;
    c.cmd_payload = 576;
    c.rsp_payload = 588;
    c.timeout_ms = 200;
    c.auto_clear = auto_clear;
    c.on_outcome = t_outcome;
    c.on_async = t_async;
    c.user = &T;
    return accel_tsp1_init(&T.s, &c);
}

static uint32_t prs;
static uint32_t prnd(void)
{
    prs = prs * 1664525u + 1013904223u;
    return prs >> 8;
}

/* One round of the random program of tests/test_tsp1_driver.c (commands, async messages, SPI faults
 * on the accelerator's bus, polls), then a drain. Returns the number of commands submitted. */
static unsigned t_program(uint32_t seed, int sim_faults)
{
    unsigned step, nsub = 0, i;
    uint8_t pl[200];
    prs = seed;
    for (step = 0; step < 400; step++) {
        unsigned a = prnd() % 16;
        uint16_t tid = 0;
        accel_status st = ACCEL_E_ARG;
        for (i = 0; i < sizeof pl; i++) pl[i] = (uint8_t)prnd();
        if (a < 4) {
            st = accel_tsp1_submit(&T.s, ACCEL_TSP1_ECHO, pl, prnd() % 60, &tid);
        } else if (a < 6) {
            pl[0] = (uint8_t)(prnd() % 40);
            pl[1] = pl[2] = pl[3] = 0;
            st = accel_tsp1_submit(&T.s, ACCEL_TSP1_NN_INFO, pl, 4, &tid);
        } else if (a < 8) {
            pl[0] = (uint8_t)(prnd() % 12);
            pl[1] = pl[2] = pl[3] = 0;
            st = accel_tsp1_submit(&T.s, (uint16_t)(ACCEL_TSP1_NN_START + prnd() % 4), pl, 4,
                                   &tid);
        } else if (a == 8) {
            st = accel_tsp1_submit(&T.s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, &tid);
        } else if (a == 9) {
            accel_tsp1_model_raise(&T.m, (uint16_t)(ACCEL_TSP1_R_ASYNC_ERR_ECC + prnd() % 2));
        } else if (a == 10) {
            accel_sim_fault f;
            memset(&f, 0, sizeof f);
            f.kind = (accel_sim_fault_kind)(ACCEL_SIM_FLIP + prnd() % 4);
            f.ops = ACCEL_SIM_OP_SPI;
            f.dir = prnd() % 2 ? ACCEL_SIM_TO_DEVICE : ACCEL_SIM_FROM_DEVICE;
            f.skip = prnd() % 8;
            f.count = 1 + prnd() % 4;
            f.at = 3 + prnd() % 10;
            f.mask = (uint8_t)(1u << (prnd() % 8));
            if (sim_faults && T.sim.nfaults < ACCEL_SIM_MAX_FAULTS) accel_sim_add_fault(&T.sim, &f);
        } else if (a == 11) {
            accel_sim_clear_faults(&T.sim);
            if (T.s.dev_error) (void)accel_tsp1_clear_error(&T.s);
        } else {
            (void)accel_tsp1_poll(&T.s);
            accel_sim_advance(&T.sim, prnd() % 4);
        }
        if (st == ACCEL_OK) {
            CHECK(!T.submitted[tid]);
            T.submitted[tid] = 1;
            nsub++;
        }
    }
    return nsub;
}

/* drain with every fault off; a final async exposes any lost earlier one as a gap */
static void t_drain(void)
{
    unsigned i;
    accel_sim_clear_faults(&T.sim);
    memset(&T.link.h2d.f, 0, sizeof T.link.h2d.f);
    memset(&T.link.d2h.f, 0, sizeof T.link.d2h.f);
    if (T.s.dev_error) (void)accel_tsp1_clear_error(&T.s);
    accel_tsp1_model_raise(&T.m, ACCEL_TSP1_R_ASYNC_ERR_NPU);
    for (i = 0; i < 2000 && (accel_ring_count(&T.s.pend) || T.m.apend); i++) {
        (void)accel_tsp1_poll(&T.s);
        accel_sim_advance(&T.sim, 1);
    }
    (void)accel_tsp1_poll(&T.s);
}

static void t_finish_log(void)
{
    tlog *l = T.log;
    l->m_executed = T.m.executed;
    l->m_discarded = T.m.discarded;
    l->m_errors = T.m.errors;
    l->m_async_emitted = T.m.async_emitted;
    l->m_lost = T.m.lost_entries;
    l->m_ignored = T.m.ignored_xfers;
    l->sim_now = T.sim.now;
    l->s_gaps = T.s.async_gaps;
    l->s_nonmono = T.s.async_nonmono;
    l->s_stray = T.s.stray;
    l->s_outcomes = T.s.outcomes;
    l->calls = T.host_side.calls;
    l->spi_bytes = T.host_side.spi_bytes;
    l->hash = T.host_side.hash;
}

/* Exactly one outcome per submitted command (checked here); OK only for what the device ran,
 * DISCARDED only for what it did not (counted in wrong_outcomes, which every caller checks is
 * 0). A bus call that fails after it took effect (ACCEL_BRIDGE_E_LINK_TIMEOUT: "may or may not
 * have run") leaves its command pending, and it ends UNKNOWN_OUTCOME unless the device's answer
 * or its marker ECHO confirms it; the bridge's own promises are checked in t_check_once. */
static void t_check_outcomes(void)
{
    unsigned i;
    CHECK_EQ(accel_ring_count(&T.s.pend), 0);
    for (i = 0; i < 65536; i++) {
        if (T.submitted[i]) {
            int wrong = 0;
            CHECK_EQ(T.outcome_n[i], 1);
            if (T.outcome_n[i] == 1 && T.outcome_st[i] == ACCEL_OK && T.exec_state[i] != 1)
                wrong = 1;
            if (T.outcome_n[i] == 1 && T.outcome_st[i] == (int32_t)ACCEL_E_TSP1_DISCARDED &&
                T.exec_state[i] == 1)
                wrong = 1;
            if (wrong) T.wrong_outcomes++;
        } else {
            CHECK_EQ(T.outcome_n[i], 0);
        }
    }
}

/* every request ran at most once; each answer the host took is that run's answer */
static void t_check_once(void)
{
    uint32_t i, ran = 0;
    CHECK_EQ(T.exec_twice, 0);
    CHECK_EQ(T.mismatched, 0);
    CHECK_EQ(T.unknown_seq, 0);
    CHECK_EQ(T.h.stats.capture_errors, 0);
    for (i = 0; i < T_MAXX; i++) {
        CHECK(T.exec_n[i] <= 1);
        ran += T.exec_n[i];
    }
    CHECK_EQ(ran, T.dev.stats.executed);
    /* answered requests ran; given-up ones ran at most once: in between */
    CHECK(ran >= T.answered && ran <= T.answered + T.local);
    CHECK_EQ(T.answered + T.local, T.h.stats.requests);
}

static void test_tsp1_bridge_same_outcomes(void)
{
    unsigned round, total_nsub = 0;
    lk_faults f;
    accel_bridge_host_stats hs;
    accel_bridge_device_stats ds;
    uint32_t pk[2] = {0, 0}, lost[2] = {0, 0};
    memset(&f, 0, sizeof f);
    f.drop = 40;
    f.dup = 40;
    f.flip = 40;
    f.byte_drop = 25;
    f.byte_dup = 25;
    f.garbage = 40;
    f.delay = 25;
    f.reorder = 80;
    memset(&hs, 0, sizeof hs);
    memset(&ds, 0, sizeof ds);
    for (round = 0; round < 8; round++) {
        uint32_t seed = tl_rand();
        unsigned nsub, i;
        uint8_t ac = (uint8_t)(round & 1u);
        /* 1) directly on the simulator: the ground truth */
        T.log = &LOG_DIRECT;
        REQUIRE_ST(t_setup(0, ac, NULL, 0, 0), ACCEL_OK);
        REQUIRE_ST(accel_tsp1_wait_ready(&T.s, 100), ACCEL_OK);
        (void)t_program(seed, 1);
        t_drain();
        t_finish_log();
        /* 2) the same program through the bridge over a faulty link */
        T.log = &LOG_BRIDGE;
        REQUIRE_ST(t_setup(1, ac, &f, 40, 0x10000u * (round + 1)), ACCEL_OK);
        REQUIRE_ST(accel_tsp1_wait_ready(&T.s, 100), ACCEL_OK);
        nsub = t_program(seed, 1);
        t_drain();
        t_finish_log();
        total_nsub += nsub;

        t_check_outcomes();
        CHECK_EQ(T.wrong_outcomes, 0); /* no bus call failed here: every outcome is true */
        t_check_once();
        /* the link lost nothing for good, so everything equals the direct run */
        CHECK_EQ(T.h.stats.link_timeouts, 0);
        CHECK_EQ(LOG_BRIDGE.n_out, LOG_DIRECT.n_out);
        CHECK_EQ(LOG_BRIDGE.n_async, LOG_DIRECT.n_async);
        for (i = 0; i < LOG_DIRECT.n_out && i < T_MAXOUT; i++) {
            if (LOG_BRIDGE.o_tid[i] != LOG_DIRECT.o_tid[i] ||
                LOG_BRIDGE.o_st[i] != LOG_DIRECT.o_st[i] ||
                LOG_BRIDGE.o_resp[i] != LOG_DIRECT.o_resp[i] ||
                LOG_BRIDGE.o_hash[i] != LOG_DIRECT.o_hash[i] ||
                LOG_BRIDGE.o_cmd[i] != LOG_DIRECT.o_cmd[i]) {
                printf("  outcome %u differs: tid %u/%u status %d/%d\n", i, LOG_BRIDGE.o_tid[i],
                       LOG_DIRECT.o_tid[i], (int)LOG_BRIDGE.o_st[i], (int)LOG_DIRECT.o_st[i]);
                CHECK(0);
                break;
            }
        }
        CHECK_MEM(LOG_BRIDGE.a_id, LOG_DIRECT.a_id, sizeof LOG_DIRECT.a_id);
        CHECK_MEM(LOG_BRIDGE.a_tid, LOG_DIRECT.a_tid, sizeof LOG_DIRECT.a_tid);
        CHECK_EQ(LOG_BRIDGE.m_executed, LOG_DIRECT.m_executed);
        CHECK_EQ(LOG_BRIDGE.m_discarded, LOG_DIRECT.m_discarded);
        CHECK_EQ(LOG_BRIDGE.m_errors, LOG_DIRECT.m_errors);
        CHECK_EQ(LOG_BRIDGE.m_async_emitted, LOG_DIRECT.m_async_emitted);
        CHECK_EQ(LOG_BRIDGE.m_lost, LOG_DIRECT.m_lost);
        CHECK_EQ(LOG_BRIDGE.m_ignored, LOG_DIRECT.m_ignored);
        CHECK_EQ(LOG_BRIDGE.sim_now, LOG_DIRECT.sim_now);
        CHECK_EQ(LOG_BRIDGE.s_gaps, LOG_DIRECT.s_gaps);
        CHECK_EQ(LOG_BRIDGE.s_stray, LOG_DIRECT.s_stray);
        CHECK_EQ(LOG_BRIDGE.s_outcomes, LOG_DIRECT.s_outcomes);
        /* the driver made the same port calls, and the device ran exactly those */
        CHECK_EQ(LOG_BRIDGE.calls, LOG_DIRECT.calls);
        CHECK_EQ(LOG_BRIDGE.hash, LOG_DIRECT.hash);
        CHECK_EQ(T.dev_side.calls, T.host_side.calls);
        CHECK_EQ(T.dev_side.hash, T.host_side.hash);
        CHECK_EQ(T.dev_side.spi_bytes, T.host_side.spi_bytes);
        CHECK_EQ(T.p_async + T.s.async_gaps, 0u + T.p_async + T.s.async_gaps); /* logged */
        hs.requests += T.h.stats.requests;
        hs.sends += T.h.stats.sends;
        hs.retries += T.h.stats.retries;
        hs.crc_errors += T.h.stats.crc_errors;
        hs.frame_errors += T.h.stats.frame_errors;
        hs.stale += T.h.stats.stale;
        ds.executed += T.dev.stats.executed;
        ds.repeats += T.dev.stats.repeats;
        ds.stale += T.dev.stats.stale;
        ds.crc_errors += T.dev.stats.crc_errors;
        ds.frame_errors += T.dev.stats.frame_errors;
        pk[0] += T.link.h2d.packets;
        pk[1] += T.link.d2h.packets;
        lost[0] += T.link.h2d.dropped;
        lost[1] += T.link.d2h.dropped;
    }
    CHECK(total_nsub > 300);
    printf("  TSP1 random program, 8 rounds, %u commands: outcomes identical to the direct run\n",
           total_nsub);
    printf("  retries: %lu requests, %lu sends (%lu retries, %.1f%%); host dropped %lu crc + %lu "
           "frame errors, %lu stale answers; device ran %lu, answered %lu retries from its "
           "cache, ignored %lu stale, dropped %lu crc + %lu frame errors; link packets %lu/%lu, "
           "dropped %lu/%lu\n",
           (unsigned long)hs.requests, (unsigned long)hs.sends, (unsigned long)hs.retries,
           hs.requests ? 100.0 * hs.retries / hs.requests : 0.0, (unsigned long)hs.crc_errors,
           (unsigned long)hs.frame_errors, (unsigned long)hs.stale, (unsigned long)ds.executed,
           (unsigned long)ds.repeats, (unsigned long)ds.stale, (unsigned long)ds.crc_errors,
           (unsigned long)ds.frame_errors, (unsigned long)pk[0], (unsigned long)pk[1],
           (unsigned long)lost[0], (unsigned long)lost[1]);
}

/* Faults heavy enough that requests are given up (ACCEL_BRIDGE_E_LINK_TIMEOUT reaches the
 * driver as a bus error): still one outcome per command, and no request ever runs twice. */
static void test_tsp1_bridge_link_timeouts(void)
{
    unsigned round;
    uint32_t given_up = 0, reqs = 0, retries = 0, releases = 0, reused = 0, wrong = 0;
    unsigned nsub, total = 0;
    lk_faults f;
    memset(&f, 0, sizeof f);
    f.drop = 120;
    f.dup = 100;
    f.flip = 80;
    f.byte_drop = 50;
    f.byte_dup = 50;
    f.garbage = 80;
    f.delay = 80;
    f.reorder = 150;
    for (round = 0; round < 6; round++) {
        T.log = &LOG_BRIDGE;
        REQUIRE_ST(t_setup(1, (uint8_t)(round & 1u), NULL, 3, 0x20000u * (round + 1)), ACCEL_OK);
        REQUIRE_ST(accel_tsp1_wait_ready(&T.s, 100), ACCEL_OK);
        lk_set_faults(&T.link, &f);
        nsub = t_program(tl_rand(), round >= 3);
        CHECK(nsub > 5); /* fewer than without faults: a failed bus call fails the submit */
        total += nsub;
        t_drain();
        t_check_outcomes();
        t_check_once();
        reused += T.reused_tids;
        wrong += T.wrong_outcomes;
        given_up += T.h.stats.link_timeouts;
        reqs += T.h.stats.requests;
        retries += T.h.stats.retries;
        releases += T.h.stats.cs_releases;
        if (round == 5) {
            lk_print(&T.link, "last round");
            lk_print_stats(&T.h, &T.dev, "last round");
        }
    }
    CHECK(given_up > 0); /* the case this test is about did happen */
    printf("  heavy faults, 6 rounds, %u commands with one outcome each: %lu requests, %lu "
           "retries, %lu given up (ACCEL_BRIDGE_E_LINK_TIMEOUT), %lu chip-select releases; no "
           "request ran twice\n",
           total, (unsigned long)reqs, (unsigned long)retries, (unsigned long)given_up,
           (unsigned long)releases);
    CHECK_EQ(wrong, 0); /* UNKNOWN_OUTCOME where the driver cannot know, never a false OK */
    printf("  TSP1 driver under bus calls that fail after taking effect: %lu wrong outcome(s); "
           "%lu commands the model logged twice under one TID (each with its marker ECHO)\n",
           (unsigned long)wrong, (unsigned long)reused);
}

/* ================================================================ captures and replay */
typedef struct sess_result {
    accel_status st[12];
    uint8_t echo[32];
    size_t echo_len;
    uint8_t nets;
    accel_tsp1_nn_info info[4];
    uint32_t position, fw_version;
} sess_result;

static uint8_t sess_image[144 * 5];
static accel_status sess_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off + n > sizeof sess_image) return ACCEL_E_TRUNCATED;
    memcpy(dst, sess_image + off, n);
    return ACCEL_OK;
}

/* The tool's session (accel-tsp1 echo, info, start/stop, update) on any port. */
static void t_session(const accel_port *port, sess_result *r)
{
    static accel_tsp1 s;
    static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(8, 676, 688) + 3) / 4];
    accel_tsp1_config c;
    accel_tsp1_update u;
    unsigned k;
    memset(r, 0, sizeof *r);
    memset(&c, 0, sizeof c);
    c.bus.port = port;
    c.bus.wake_line = 1;
    c.mem = mem;
    c.mem_len = sizeof mem;
    c.depth = 8;
    c.cmd_payload = 676;
    c.rsp_payload = 688;
    c.timeout_ms = 300;
    c.auto_clear = 1;
    r->st[0] = accel_tsp1_init(&s, &c);
    r->st[1] = accel_tsp1_wait_ready(&s, 200);
    r->st[2] = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "hello bridge", 12, r->echo, sizeof r->echo,
                               &r->echo_len, 300);
    r->st[3] = accel_tsp1_nn_scan(&s, &r->nets, 300);
    for (k = 0; k < 4; k++) (void)accel_tsp1_nn_query(&s, (uint8_t)k, &r->info[k], 300);
    r->st[4] = accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_START, 0x3, 300);
    r->st[5] = accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_STOP, 0x1, 300);
    r->st[6] = accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_STOP, 0x2, 300);
    for (k = 0; k < sizeof sess_image - 4u; k++) sess_image[k] = (uint8_t)(k * 31u + 7u);
    /* the model verifies an image at FINISH: it ends with the CRC-32 of what comes before it */
    accel_store_u32le(sess_image + sizeof sess_image - 4u, accel_crc32(sess_image, sizeof sess_image - 4u));
    memset(&u, 0, sizeof u);
    u.read = sess_read;
    u.total = sizeof sess_image;
    r->st[7] = accel_tsp1_update_run(&s, &u, 500); /* 4 chunks per command: split SPI writes */
    r->position = u.position;
    r->st[8] = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "after", 5, r->echo, sizeof r->echo,
                               &r->echo_len, 300);
}

static size_t cap_count(const uint8_t *cap, size_t len, uint32_t want_field)
{
    size_t pos = 0, n = 0;
    while (pos < len) {
        uint32_t field;
        const uint8_t *msg;
        size_t ml, used;
        if (accel_bridge_capture_record(cap + pos, len - pos, &field, &msg, &ml, &used) !=
            ACCEL_OK)
            return (size_t)-1;
        if (field == want_field) n++;
        pos += used;
    }
    return n;
}

/* offset and length of record i (0 = the info) */
static int cap_find(const uint8_t *cap, size_t len, size_t i, size_t *off, size_t *rlen)
{
    size_t pos = 0, n = 0;
    while (pos < len) {
        uint32_t field;
        const uint8_t *msg;
        size_t ml, used;
        if (accel_bridge_capture_record(cap + pos, len - pos, &field, &msg, &ml, &used) !=
            ACCEL_OK)
            return 0;
        if (n == i) {
            *off = pos;
            *rlen = used;
            return 1;
        }
        n++;
        pos += used;
    }
    return 0;
}

static uint8_t cap2[1u << 20];
static accel_replay RP;

static void test_capture_replay(void)
{
    sess_result live, again;
    lk_faults f;
    size_t len, n_ex, i, k = 0, off = 0, rl = 0, len2;
    accel_status st;
    memset(&f, 0, sizeof f);
    f.drop = 50;
    f.dup = 50;
    f.flip = 50;
    f.garbage = 50;
    f.delay = 30;
    f.reorder = 80;
    /* a session on the device model through the bridge, over a faulty link, recorded */
    T.log = &LOG_BRIDGE;
    T.capbuf = H.cap;
    REQUIRE_ST(t_setup(1, 1, &f, 40, 0x777), ACCEL_OK);
    T.m.wake_line = 1;
    t_session(&T.h.port, &live);
    T.capbuf = NULL;
    len = T.cap_len;
    for (i = 0; i < 9; i++) CHECK_ST(live.st[i], ACCEL_OK);
    CHECK_EQ(live.echo_len, 5);
    CHECK_MEM(live.echo, "after", 5);
    CHECK_EQ(live.nets, 3);
    CHECK_EQ(live.position, sizeof sess_image);
    CHECK_EQ(T.m.fw_version, 2); /* 1 at power-on, +1 for the update FINISH accepted */
    CHECK_EQ(T.m.rom, 0);        /* the reboot found a valid image */
    CHECK(T.h.stats.retries > 0);
    CHECK_EQ(T.h.stats.link_timeouts, 0);
    n_ex = cap_count(H.cap, len, 2);
    CHECK_EQ(cap_count(H.cap, len, 1), 1);
    CHECK_EQ(n_ex, T.h.stats.requests); /* one record per exchange, retries not repeated */
    printf("  session capture: %lu exchanges, %lu bytes (%lu sends on the link)\n",
           (unsigned long)n_ex, (unsigned long)len, (unsigned long)T.h.stats.sends);
    /* 1) it replays: the same results, every exchange used, no device anywhere */
    REQUIRE_ST(accel_replay_open(&RP, H.cap, len), ACCEL_OK);
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_OK);
    CHECK_EQ(RP.index, n_ex);
    CHECK_EQ(RP.diverged_at, ACCEL_REPLAY_NONE);
    CHECK_MEM(again.st, live.st, sizeof live.st);
    CHECK_EQ(again.echo_len, live.echo_len);
    CHECK_MEM(again.echo, live.echo, live.echo_len);
    CHECK_MEM(again.info, live.info, sizeof live.info);
    CHECK_EQ(again.position, live.position);
    /* 2) an edited request is reported at its exchange: the first byte of the third SPI write
       that carries 64 bytes or more (part of the update) */
    {
        unsigned seen = 0;
        for (i = 1; i <= n_ex && !k; i++) {
            uint32_t field;
            const uint8_t *msg;
            size_t ml, used;
            accel_bridge_Exchange ex;
            pb_istream_t is;
            REQUIRE(cap_find(H.cap, len, i, &off, &rl));
            accel_bridge_capture_record(H.cap + off, rl, &field, &msg, &ml, &used);
            is = pb_istream_from_buffer(msg, ml);
            REQUIRE(pb_decode(&is, accel_bridge_Exchange_fields, &ex));
            if (ex.request.which_op == accel_bridge_Request_spi_tag &&
                ex.request.op.spi.tx.size >= 64 && ++seen == 3) {
                size_t nl;
                k = i - 1; /* exchange index: records count the info first */
                ex.request.op.spi.tx.bytes[0] ^= 0x01;
                memcpy(cap2, H.cap, off);
                REQUIRE_ST(accel_bridge_capture_encode(2, &ex, cap2 + off, sizeof cap2 - off, &nl),
                           ACCEL_OK);
                REQUIRE_EQ(nl, rl);
                memcpy(cap2 + off + nl, H.cap + off + rl, len - off - rl);
            }
        }
    }
    REQUIRE(k > 5);
    REQUIRE_ST(accel_replay_open(&RP, cap2, len), ACCEL_OK);
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_EQ(RP.diverged_at, k);
    CHECK_EQ(RP.index, k);
    printf("  edited exchange %lu (one bit of an SPI write): replay diverged at %lu\n",
           (unsigned long)k, (unsigned long)RP.diverged_at);
    /* the same edit made to the raw bytes: a byte inside that request's tx data */
    memcpy(cap2, H.cap, len);
    REQUIRE(cap_find(H.cap, len, k + 1, &off, &rl));
    {
        /* the request's tx bytes are the only 64+-byte run equal to the recorded data: find it
           by decoding, then flip the byte at the same place in the file */
        uint32_t field;
        const uint8_t *msg;
        size_t ml, used, j;
        accel_bridge_Exchange ex;
        pb_istream_t is;
        accel_bridge_capture_record(H.cap + off, rl, &field, &msg, &ml, &used);
        is = pb_istream_from_buffer(msg, ml);
        REQUIRE(pb_decode(&is, accel_bridge_Exchange_fields, &ex));
        for (j = off; j + ex.request.op.spi.tx.size <= off + rl; j++)
            if (memcmp(cap2 + j, ex.request.op.spi.tx.bytes, ex.request.op.spi.tx.size) == 0) break;
        REQUIRE(j + ex.request.op.spi.tx.size <= off + rl);
        cap2[j + 10] ^= 0x80;
    }
    REQUIRE_ST(accel_replay_open(&RP, cap2, len), ACCEL_OK);
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_EQ(RP.diverged_at, k);
    /* 3) a capture cut short: the end is reported where it is */
    REQUIRE(cap_find(H.cap, len, 41, &off, &rl));
    REQUIRE_ST(accel_replay_open(&RP, H.cap, off), ACCEL_OK); /* info + exchanges 0..39 */
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_BRIDGE_E_CAPTURE_END);
    CHECK_EQ(RP.diverged_at, 40);
    CHECK(again.st[8] != ACCEL_OK);
    /* ... and one cut inside a record */
    REQUIRE_ST(accel_replay_open(&RP, H.cap, off + 3), ACCEL_OK);
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_E_MALFORMED);
    CHECK_EQ(RP.diverged_at, 40);
    /* 4) exchanges left over: the session did less than the recording */
    memcpy(cap2, H.cap, len);
    REQUIRE(cap_find(H.cap, len, 5, &off, &rl));
    memcpy(cap2 + len, H.cap + off, rl);
    len2 = len + rl;
    REQUIRE_ST(accel_replay_open(&RP, cap2, len2), ACCEL_OK);
    t_session(&RP.host.port, &again);
    CHECK_ST(accel_replay_check(&RP), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_EQ(RP.diverged_at, n_ex);
    CHECK_MEM(again.st, live.st, sizeof live.st);
    /* 5) not a capture */
    CHECK_ST(accel_replay_open(&RP, H.cap + 3, 100), ACCEL_E_MALFORMED);
    CHECK_ST(accel_replay_open(&RP, H.cap, 0), ACCEL_E_MALFORMED);
    CHECK_ST(accel_replay_open(NULL, H.cap, 10), ACCEL_E_NULL);
    {
        accel_bridge_CaptureInfo info;
        size_t il;
        info.magic = ACCEL_BRIDGE_CAPTURE_MAGIC;
        info.version = 2;
        REQUIRE_ST(accel_bridge_capture_encode(1, &info, cap2, sizeof cap2, &il), ACCEL_OK);
        CHECK_ST(accel_replay_open(&RP, cap2, il), ACCEL_BRIDGE_E_VERSION);
        info.version = 1;
        info.magic = 0x12345678u;
        accel_bridge_capture_encode(1, &info, cap2, sizeof cap2, &il);
        CHECK_ST(accel_replay_open(&RP, cap2, il), ACCEL_E_MALFORMED);
        info.magic = ACCEL_BRIDGE_CAPTURE_MAGIC;
        accel_bridge_capture_encode(1, &info, cap2, sizeof cap2, &il);
        st = accel_replay_open(&RP, cap2, il); /* an info and nothing else: no hello to serve */
        CHECK_ST(st, ACCEL_BRIDGE_E_CAPTURE_END);
        CHECK_ST(accel_bridge_capture_encode(3, &info, cap2, sizeof cap2, &il), ACCEL_E_ARG);
        CHECK_ST(accel_bridge_capture_encode(1, &info, cap2, 4, &il), ACCEL_E_BUFFER_TOO_SMALL);
    }
}

/* Link failures and device restarts are recorded and replayed as they happened. */
static void test_capture_failures(void)
{
    accel_port *p;
    uint32_t now = 0;
    size_t len;
    REQUIRE_ST(host_setup(0, 2, 0), ACCEL_OK);
    p = &H.h.port;
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_OK);
    H.link.device_off = 1;
    CHECK_ST(accel_port_gpio_set(p, 1, 0), ACCEL_BRIDGE_E_LINK_TIMEOUT);
    H.link.device_off = 0;
    accel_bridge_device_reset(&D.d);
    CHECK_ST(accel_port_gpio_set(p, 2, 1), ACCEL_BRIDGE_E_NO_SESSION);
    CHECK_ST(accel_port_wait_irq(p, 7, 5), ACCEL_E_TIMEOUT);
    CHECK_ST(accel_port_now_ms(p, &now), ACCEL_OK);
    len = H.cap_len;
    CHECK_EQ(H.cap_records, 1 + 1 + 6); /* info, hello, gpio x3, hello again, irq, time */
    REQUIRE_ST(accel_replay_open(&RP, H.cap, len), ACCEL_OK);
    p = &RP.host.port;
    CHECK_EQ(RP.host.caps, 0x3F);
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_OK);
    CHECK_ST(accel_port_gpio_set(p, 1, 0), ACCEL_BRIDGE_E_LINK_TIMEOUT);
    CHECK_ST(accel_port_gpio_set(p, 2, 1), ACCEL_BRIDGE_E_NO_SESSION);
    CHECK_ST(accel_port_wait_irq(p, 7, 5), ACCEL_E_TIMEOUT);
    {
        uint32_t again = 0;
        CHECK_ST(accel_port_now_ms(p, &again), ACCEL_OK);
        CHECK_EQ(again, now);
    }
    CHECK_ST(accel_replay_check(&RP), ACCEL_OK);
    /* a different argument is a divergence at that call, and everything after it too */
    REQUIRE_ST(accel_replay_open(&RP, H.cap, len), ACCEL_OK);
    p = &RP.host.port;
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_OK);
    CHECK_ST(accel_port_gpio_set(p, 1, 1), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_EQ(RP.diverged_at, 2);
    CHECK_ST(accel_port_gpio_set(p, 2, 1), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_ST(accel_replay_check(&RP), ACCEL_BRIDGE_E_DIVERGED);
    CHECK_EQ(RP.diverged_at, 2);
}

int main(void)
{
    tl_seed(14);
    RUN(test_cobs_vectors);
    RUN(test_framer);
    RUN(test_device_session);
    RUN(test_device_ops);
    RUN(test_device_protocol_rules);
    RUN(test_device_bad_input);
    RUN(test_host_ops);
    RUN(test_host_link_failures);
    RUN(test_host_bad_answers);
    RUN(test_host_faults);
    RUN(test_tsp1_bridge_same_outcomes);
    RUN(test_tsp1_bridge_link_timeouts);
    RUN(test_capture_replay);
    RUN(test_capture_failures);
    return TEST_END();
}
#endif
