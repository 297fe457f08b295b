/* tests/test_common.c - the common section: status strings, byte order, reader/writer, CRC-32,
 * slot ring, byte FIFO, deadlines, port wrappers. scripts/test.sh builds this file once per
 * ACCEL_CRC32_IMPL choice, so every CRC variant meets the same expectations (the CRC cases are in
 * crc_cases.h, which tests/crc_simd.sh also runs on the x86 and AArch64 instruction paths). */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

/* ------------------------------------------------------------------ status */
static void test_status_strings(void)
{
    int s;
    CHECK_STR(accel_status_str(ACCEL_OK), "ACCEL_OK: success");
    /* each string is right in every context its code is returned in: UNSUPPORTED also for a
       model or a build (no port involved), BUFFER_TOO_SMALL for scratch and driver memory too,
       EMPTY for a lookup that found nothing */
    CHECK_STR(accel_status_str(ACCEL_E_UNSUPPORTED),
              "ACCEL_E_UNSUPPORTED: not supported (by the port, this build or this library)");
    CHECK_STR(accel_status_str(ACCEL_E_BUFFER_TOO_SMALL),
              "ACCEL_E_BUFFER_TOO_SMALL: a buffer the caller gave is too small");
    CHECK_STR(accel_status_str(ACCEL_E_EMPTY),
              "ACCEL_E_EMPTY: nothing there (nothing queued, or no such item)");
    CHECK_STR(accel_status_str((accel_status)5), "?");
    CHECK_STR(accel_status_str((accel_status)-23), "?");
    CHECK_STR(accel_status_str((accel_status)-94), "?");
    /* every common code has its own name, starting with its identifier */
    for (s = -1; s >= ACCEL_E_FAULT; s--) {
        const char *t = accel_status_str((accel_status)s);
        CHECK(strncmp(t, "ACCEL_E_", 8) == 0);
    }
    /* the bridge port's codes, at the end of the common range */
    CHECK_EQ((int)ACCEL_BRIDGE_E_CAPTURE_END, -95);
    CHECK_EQ((int)ACCEL_BRIDGE_E_LINK_TIMEOUT, -99);
    CHECK_STR(accel_status_str(ACCEL_BRIDGE_E_CAPTURE_END),
              "ACCEL_BRIDGE_E_CAPTURE_END: the capture has no more exchanges");
    CHECK_STR(accel_status_str(ACCEL_BRIDGE_E_DIVERGED),
              "ACCEL_BRIDGE_E_DIVERGED: request differs from the capture");
    CHECK_STR(accel_status_str(ACCEL_BRIDGE_E_NO_SESSION),
              "ACCEL_BRIDGE_E_NO_SESSION: the bridge device restarted or saw no hello");
    CHECK_STR(accel_status_str(ACCEL_BRIDGE_E_VERSION),
              "ACCEL_BRIDGE_E_VERSION: the far end speaks another bridge protocol version");
    CHECK_STR(accel_status_str(ACCEL_BRIDGE_E_LINK_TIMEOUT),
              "ACCEL_BRIDGE_E_LINK_TIMEOUT: no answer over the bridge link (request may or may not have run)");
    CHECK(strncmp(accel_status_str(ACCEL_E_TIMEOUT), "ACCEL_E_TIMEOUT:", 16) == 0);
    CHECK(strncmp(accel_status_str(ACCEL_E_FULL), "ACCEL_E_FULL:", 13) == 0);
    CHECK(ACCEL_OK == 0);
}

/* ------------------------------------------------------------------ byte order */
static void test_load_store(void)
{
    static const uint8_t b[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
    uint8_t o[8];
    CHECK_EQ(accel_load_u16le(b), 0x2301);
    CHECK_EQ(accel_load_u16be(b), 0x0123);
    CHECK_EQ(accel_load_u32le(b), 0x67452301UL);
    CHECK_EQ(accel_load_u32be(b), 0x01234567UL);
    CHECK_EQ_U64(accel_load_u64le(b), 0xEFCDAB8967452301ULL);
    CHECK_EQ_U64(accel_load_u64be(b), 0x0123456789ABCDEFULL);
    memset(o, 0, 8);
    accel_store_u16le(o, 0xBEEF);
    CHECK_MEM(o, "\xEF\xBE", 2);
    accel_store_u16be(o, 0xBEEF);
    CHECK_MEM(o, "\xBE\xEF", 2);
    accel_store_u32le(o, 0xDEADBEEFUL);
    CHECK_MEM(o, "\xEF\xBE\xAD\xDE", 4);
    accel_store_u32be(o, 0xDEADBEEFUL);
    CHECK_MEM(o, "\xDE\xAD\xBE\xEF", 4);
    accel_store_u64le(o, 0x0123456789ABCDEFULL);
    CHECK_MEM(o, "\xEF\xCD\xAB\x89\x67\x45\x23\x01", 8);
    accel_store_u64be(o, 0x0123456789ABCDEFULL);
    CHECK_MEM(o, "\x01\x23\x45\x67\x89\xAB\xCD\xEF", 8);
    /* unaligned pointers are fine: byte access only */
    {
        uint8_t u[9] = {0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
        CHECK_EQ(accel_load_u32le(u + 1), 0x44332211UL);
        CHECK_EQ_U64(accel_load_u64be(u + 1), 0x1122334455667788ULL);
    }
}

/* ------------------------------------------------------------------ reader */
static void test_reader(void)
{
    static const uint8_t b[] = {0xAA, 0x34, 0x12, 0x12, 0x34, 0x78, 0x56, 0x34, 0x12,
                                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    accel_reader r;
    uint8_t u8 = 0, tmp[4];
    uint16_t u16 = 0;
    uint32_t u32 = 0;
    uint64_t u64 = 0;
    const uint8_t *view = NULL;

    CHECK_ST(accel_reader_init(NULL, b, 1), ACCEL_E_NULL);
    CHECK_ST(accel_reader_init(&r, NULL, 3), ACCEL_E_NULL);
    CHECK_ST(accel_read_u8(&r, &u8), ACCEL_E_NULL); /* sticky from init */
    REQUIRE_ST(accel_reader_init(&r, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_read_u8(&r, &u8), ACCEL_E_TRUNCATED);

    REQUIRE_ST(accel_reader_init(&r, b, sizeof b), ACCEL_OK);
    CHECK_EQ(accel_reader_remaining(&r), sizeof b);
    CHECK_ST(accel_read_u8(&r, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_read_u8(NULL, &u8), ACCEL_E_NULL);
    CHECK_ST(accel_read_u8(&r, &u8), ACCEL_OK);
    CHECK_EQ(u8, 0xAA);
    CHECK_ST(accel_read_u16le(&r, &u16), ACCEL_OK);
    CHECK_EQ(u16, 0x1234);
    CHECK_ST(accel_read_u16be(&r, &u16), ACCEL_OK);
    CHECK_EQ(u16, 0x1234);
    CHECK_ST(accel_read_u32le(&r, &u32), ACCEL_OK);
    CHECK_EQ(u32, 0x12345678UL);
    CHECK_ST(accel_read_u64be(&r, &u64), ACCEL_OK);
    CHECK_EQ_U64(u64, 0x0102030405060708ULL);
    CHECK_EQ(accel_reader_remaining(&r), 0);
    /* a failed read changes neither the output nor the position, and the error sticks */
    u32 = 0x5A5A5A5AUL;
    CHECK_ST(accel_read_u32be(&r, &u32), ACCEL_E_TRUNCATED);
    CHECK_EQ(u32, 0x5A5A5A5AUL);
    CHECK_EQ(r.pos, sizeof b);
    CHECK_ST(accel_reader_seek(&r, 0), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_read_u8(&r, &u8), ACCEL_E_TRUNCATED);

    /* partial reads near the end: 3 bytes left, ask 4 */
    REQUIRE_ST(accel_reader_init(&r, b, 3), ACCEL_OK);
    CHECK_ST(accel_read_u32le(&r, &u32), ACCEL_E_TRUNCATED);
    CHECK_EQ(r.pos, 0);
    REQUIRE_ST(accel_reader_init(&r, b, 9), ACCEL_OK);
    CHECK_ST(accel_read_u64le(&r, &u64), ACCEL_OK);
    CHECK_EQ_U64(u64, 0x34567834121234AAULL);
    CHECK_ST(accel_read_u16le(&r, &u16), ACCEL_E_TRUNCATED);

    /* bytes, view, skip, seek */
    REQUIRE_ST(accel_reader_init(&r, b, sizeof b), ACCEL_OK);
    CHECK_ST(accel_read_bytes(&r, NULL, 2), ACCEL_E_NULL);
    CHECK_ST(accel_read_bytes(&r, tmp, 0), ACCEL_OK);
    CHECK_ST(accel_read_bytes(&r, tmp, 3), ACCEL_OK);
    CHECK_MEM(tmp, "\xAA\x34\x12", 3);
    CHECK_ST(accel_read_view(&r, &view, 2), ACCEL_OK);
    CHECK(view == b + 3);
    CHECK_ST(accel_read_view(&r, NULL, 2), ACCEL_E_NULL);
    CHECK_ST(accel_reader_skip(&r, 4), ACCEL_OK);
    CHECK_EQ(r.pos, 9);
    CHECK_ST(accel_reader_seek(&r, sizeof b), ACCEL_OK);
    CHECK_EQ(accel_reader_remaining(&r), 0);
    CHECK_ST(accel_reader_seek(&r, 2), ACCEL_OK);
    CHECK_ST(accel_reader_seek(&r, sizeof b + 1), ACCEL_E_TRUNCATED);
    REQUIRE_ST(accel_reader_init(&r, b, sizeof b), ACCEL_OK);
    CHECK_ST(accel_reader_skip(&r, sizeof b + 1), ACCEL_E_TRUNCATED);
    REQUIRE_ST(accel_reader_init(&r, b, sizeof b), ACCEL_OK);
    /* a huge length must not wrap the bounds check */
    CHECK_ST(accel_read_view(&r, &view, (size_t)-1), ACCEL_E_TRUNCATED);
    CHECK_EQ(accel_reader_remaining(NULL), 0);
}

/* ------------------------------------------------------------------ writer */
static void test_writer(void)
{
    uint8_t buf[16];
    accel_writer w;
    CHECK_ST(accel_writer_init(NULL, buf, 4), ACCEL_E_NULL);
    CHECK_ST(accel_writer_init(&w, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_write_u8(&w, 1), ACCEL_E_NULL);
    CHECK_ST(accel_write_u8(NULL, 1), ACCEL_E_NULL);

    memset(buf, 0xEE, sizeof buf);
    REQUIRE_ST(accel_writer_init(&w, buf, 15), ACCEL_OK);
    CHECK_ST(accel_write_u8(&w, 0x11), ACCEL_OK);
    CHECK_ST(accel_write_u16le(&w, 0x3322), ACCEL_OK);
    CHECK_ST(accel_write_u16be(&w, 0x4455), ACCEL_OK);
    CHECK_ST(accel_write_u32le(&w, 0x99887766UL), ACCEL_OK);
    CHECK_ST(accel_write_u32be(&w, 0xAABBCCDDUL), ACCEL_OK);
    CHECK_EQ(accel_writer_remaining(&w), 2);
    CHECK_MEM(buf, "\x11\x22\x33\x44\x55\x66\x77\x88\x99\xAA\xBB\xCC\xDD", 13);
    /* no room: nothing written, error sticks, byte 15 of the buffer untouched */
    CHECK_ST(accel_write_u32le(&w, 0), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(w.pos, 13);
    CHECK_MEM(buf + 13, "\xEE\xEE\xEE", 3);
    CHECK_ST(accel_write_u8(&w, 0), ACCEL_E_BUFFER_TOO_SMALL);

    REQUIRE_ST(accel_writer_init(&w, buf, 16), ACCEL_OK);
    CHECK_ST(accel_write_u64le(&w, 0x0807060504030201ULL), ACCEL_OK);
    CHECK_ST(accel_write_u64be(&w, 0x0102030405060708ULL), ACCEL_OK);
    CHECK_MEM(buf, "\x01\x02\x03\x04\x05\x06\x07\x08\x01\x02\x03\x04\x05\x06\x07\x08", 16);
    REQUIRE_ST(accel_writer_init(&w, buf, 4), ACCEL_OK);
    CHECK_ST(accel_write_bytes(&w, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_write_bytes(&w, "ab", 2), ACCEL_OK);
    CHECK_ST(accel_write_fill(&w, 0x5A, 2), ACCEL_OK);
    CHECK_MEM(buf, "ab\x5A\x5A", 4);
    CHECK_ST(accel_write_fill(&w, 0, 1), ACCEL_E_BUFFER_TOO_SMALL);
    REQUIRE_ST(accel_writer_init(&w, buf, 4), ACCEL_OK);
    CHECK_ST(accel_write_bytes(&w, buf, (size_t)-1), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(accel_writer_remaining(NULL), 0);
}

/* ------------------------------------------------------------------ CRC-32 */
/* The cases live in crc_cases.h so that tests/crc_simd.sh runs them on the instruction paths. */
#include "crc_cases.h"

/* ------------------------------------------------------------------ ring */
typedef struct {
    uint16_t id;
    uint8_t tag;
} slot_t;

static void test_ring(void)
{
    slot_t storage[4], s, o;
    accel_ring r;
    unsigned i, next_push = 0, next_pop = 0;
    CHECK_ST(accel_ring_init(NULL, storage, sizeof storage, sizeof(slot_t)), ACCEL_E_NULL);
    CHECK_ST(accel_ring_init(&r, NULL, sizeof storage, sizeof(slot_t)), ACCEL_E_NULL);
    CHECK_ST(accel_ring_init(&r, storage, sizeof storage, 0), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_ring_init(&r, storage, 0, sizeof(slot_t)), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_ring_init(&r, storage, sizeof(slot_t) - 1, sizeof(slot_t)),
             ACCEL_E_BUFFER_TOO_SMALL);
    /* 3.5 slots of room -> capacity 3 */
    CHECK_ST(accel_ring_init(&r, storage, sizeof(slot_t) * 3 + sizeof(slot_t) / 2, sizeof(slot_t)),
             ACCEL_OK);
    CHECK_EQ(accel_ring_capacity(&r), 3);
    CHECK(accel_ring_empty(&r));
    CHECK(!accel_ring_full(&r));
    CHECK_ST(accel_ring_pop(&r, &o), ACCEL_E_EMPTY);
    CHECK_ST(accel_ring_peek(&r, &o), ACCEL_E_EMPTY);
    CHECK(accel_ring_at(&r, 0) == NULL);
    CHECK_ST(accel_ring_push(&r, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ring_peek(&r, NULL), ACCEL_E_NULL);
    /* push/pop across many wraps keeps FIFO order; a full ring refuses and keeps its content */
    for (i = 0; i < 50; i++) {
        while (!accel_ring_full(&r)) {
            s.id = (uint16_t)next_push++;
            s.tag = (uint8_t)(s.id * 7u);
            CHECK_ST(accel_ring_push(&r, &s), ACCEL_OK);
        }
        s.id = 0xFFFF;
        CHECK_ST(accel_ring_push(&r, &s), ACCEL_E_FULL);
        CHECK_EQ(accel_ring_count(&r), 3);
        CHECK_EQ(((slot_t *)accel_ring_at(&r, 2))->id, next_pop + 2);
        CHECK(accel_ring_at(&r, 3) == NULL);
        CHECK_ST(accel_ring_peek(&r, &o), ACCEL_OK);
        CHECK_EQ(o.id, next_pop);
        CHECK_ST(accel_ring_pop(&r, &o), ACCEL_OK);
        CHECK_EQ(o.id, next_pop);
        CHECK_EQ(o.tag, (uint8_t)(next_pop * 7u));
        next_pop++;
        if (i % 3 == 0) {
            CHECK_ST(accel_ring_pop(&r, NULL), ACCEL_OK);
            next_pop++;
        }
    }
    accel_ring_clear(&r);
    CHECK(accel_ring_empty(&r));
    CHECK_EQ(accel_ring_count(NULL), 0);
    CHECK(accel_ring_full(NULL));
}

/* ------------------------------------------------------------------ FIFO */
static void test_fifo(void)
{
    uint8_t storage[7], out[16];
    accel_fifo f;
    size_t got = 99;
    unsigned round;
    uint8_t next_w = 0, next_r = 0;
    CHECK_ST(accel_fifo_init(NULL, storage, 7), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_init(&f, NULL, 7), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_init(&f, storage, 0), ACCEL_E_ZERO_LENGTH);
    REQUIRE_ST(accel_fifo_init(&f, storage, 7), ACCEL_OK);
    CHECK_ST(accel_fifo_read(&f, out, 4, &got), ACCEL_E_EMPTY);
    CHECK_EQ(got, 0);
    CHECK_ST(accel_fifo_read(&f, out, 0, &got), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_fifo_read(&f, NULL, 4, &got), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_read(&f, out, 4, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_write(&f, NULL, 3), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_write(&f, out, 0), ACCEL_OK);
    /* all-or-nothing: 8 bytes into 7 stores none */
    CHECK_ST(accel_fifo_write(&f, "12345678", 8), ACCEL_E_FULL);
    CHECK_EQ(accel_fifo_count(&f), 0);
    /* stream with varying chunk sizes across the wrap */
    for (round = 0; round < 200; round++) {
        uint8_t chunk[7];
        size_t n = (round % 5) + 1, i;
        if (accel_fifo_space(&f) >= n) {
            for (i = 0; i < n; i++) chunk[i] = next_w++;
            CHECK_ST(accel_fifo_write(&f, chunk, n), ACCEL_OK);
        } else {
            CHECK_ST(accel_fifo_write(&f, chunk, n), ACCEL_E_FULL);
        }
        if (accel_fifo_count(&f) >= 2) {
            uint8_t pk[2];
            CHECK_ST(accel_fifo_peek(&f, 1, pk, 1), ACCEL_OK);
            CHECK_EQ(pk[0], (uint8_t)(next_r + 1));
        }
        CHECK_ST(accel_fifo_read(&f, out, (round % 3) + 1, &got), ACCEL_OK);
        for (i = 0; i < got; i++) CHECK_EQ(out[i], next_r++);
    }
    accel_fifo_clear(&f);
    CHECK_ST(accel_fifo_write(&f, "abcdefg", 7), ACCEL_OK);
    CHECK_EQ(accel_fifo_space(&f), 0);
    CHECK_ST(accel_fifo_write(&f, "x", 1), ACCEL_E_FULL);
    CHECK_ST(accel_fifo_peek(&f, 5, out, 3), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_fifo_peek(&f, 8, out, 0), ACCEL_OK);
    CHECK_ST(accel_fifo_peek(&f, 4, out, 3), ACCEL_OK);
    CHECK_MEM(out, "efg", 3);
    CHECK_ST(accel_fifo_discard(&f, 8), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_fifo_discard(&f, 5), ACCEL_OK);
    CHECK_ST(accel_fifo_read(&f, out, 16, &got), ACCEL_OK);
    CHECK_EQ(got, 2);
    CHECK_MEM(out, "fg", 2);
    CHECK_EQ(accel_fifo_count(NULL), 0);
}

/* ------------------------------------------------------------------ deadlines */
static void test_deadline(void)
{
    accel_deadline d;
    accel_deadline_start(&d, 100, 50);
    CHECK(!accel_deadline_expired(&d, 100));
    CHECK(!accel_deadline_expired(&d, 149));
    CHECK(accel_deadline_expired(&d, 150));
    CHECK_EQ(accel_deadline_remaining(&d, 120), 30);
    CHECK_EQ(accel_deadline_remaining(&d, 200), 0);
    /* across the 2^32 wrap */
    accel_deadline_start(&d, 0xFFFFFFF0UL, 0x20);
    CHECK(!accel_deadline_expired(&d, 0xFFFFFFFFUL));
    CHECK(!accel_deadline_expired(&d, 0x0000000FUL));
    CHECK(accel_deadline_expired(&d, 0x00000010UL));
    CHECK_EQ(accel_deadline_remaining(&d, 0x00000005UL), 0x0B);
    accel_deadline_start(&d, 5, 0);
    CHECK(accel_deadline_expired(&d, 5));
    CHECK(accel_deadline_expired(NULL, 0));
    CHECK_EQ(accel_time_diff(10, 4), 6);
    CHECK_EQ(accel_time_diff(4, 10), -6);
    CHECK_EQ(accel_time_diff(3, 0xFFFFFFFEUL), 5);
    CHECK_EQ(accel_time_diff(0xFFFFFFFEUL, 3), -5);
    CHECK_EQ(accel_time_diff(0x80000000UL, 0), INT32_MIN);
    CHECK_EQ(accel_time_diff(0x7FFFFFFFUL, 0), INT32_MAX);
}

/* ------------------------------------------------------------------ port wrappers */
typedef struct {
    uint32_t now;
    uint32_t reg;
    unsigned reads, delays;
    int spi_calls;
    uint8_t last_cs;
    unsigned last_flags;
    size_t last_len;
    const uint8_t *last_tx;
    uint8_t *last_rx;
} fake_t;

static accel_status fake_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                             unsigned flags)
{
    fake_t *f = (fake_t *)u;
    size_t i;
    f->spi_calls++;
    f->last_cs = cs;
    f->last_flags = flags;
    f->last_len = len;
    f->last_tx = tx;
    f->last_rx = rx;
    for (i = 0; i < len; i++)
        if (rx) rx[i] = (uint8_t)((tx ? tx[i] : 0) ^ 0xFF);
    return ACCEL_OK;
}
static accel_status fake_rr32(void *u, uint32_t off, uint32_t *v)
{
    fake_t *f = (fake_t *)u;
    (void)off;
    f->reads++;
    if (f->reads == 4) f->reg |= 0x80u; /* becomes ready on the 4th read */
    *v = f->reg;
    return ACCEL_OK;
}
static uint32_t fake_now(void *u) { return ((fake_t *)u)->now; }
static void fake_delay(void *u, uint32_t ms)
{
    ((fake_t *)u)->now += ms;
    ((fake_t *)u)->delays++;
}
static uint32_t fake_now_ticking(void *u) { return ((fake_t *)u)->now++; }

static void test_port_wrappers(void)
{
    accel_port p;
    fake_t f;
    uint8_t tx[3] = {1, 2, 3}, rx[3], buf[4];
    uint32_t v = 0, now = 1;
    uint64_t v64 = 0;
    size_t done = 7;
    memset(&p, 0, sizeof p);
    memset(&f, 0, sizeof f);
    p.user = &f;
    /* a NULL port */
    CHECK_ST(accel_port_spi_transfer(NULL, 0, tx, rx, 3, 0), ACCEL_E_NULL);
    CHECK_ST(accel_port_reg_read32(NULL, 0, &v), ACCEL_E_NULL);
    CHECK_ST(accel_port_now_ms(NULL, &now), ACCEL_E_NULL);
    /* every callback missing: ACCEL_E_UNSUPPORTED */
    CHECK_ST(accel_port_spi_transfer(&p, 0, tx, rx, 3, 0), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_i2c_write_read(&p, 0x10, tx, 1, rx, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_usb_control(&p, 0xC0, 1, 0, 0, buf, 4, 100, &done), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_usb_bulk_out(&p, 1, buf, 4, 100, &done), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x81, buf, 4, 100, &done), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_read32(&p, 0, &v), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_write32(&p, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_read64(&p, 0, &v64), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_write64(&p, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_gpio_set(&p, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_wait_irq(&p, 0, 10), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_now_ms(&p, &now), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(now, 0);
    CHECK_ST(accel_port_delay_ms(&p, 5), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_poll32(&p, 0, 1, 1, 10, 1, NULL), ACCEL_E_UNSUPPORTED);

    /* argument checks in the wrappers */
    p.spi_transfer = fake_spi;
    CHECK_ST(accel_port_spi_transfer(&p, 2, tx, rx, 0, ACCEL_SPI_KEEP_CS), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(f.spi_calls, 0); /* refused before the port */
    CHECK_ST(accel_port_spi_transfer(&p, 2, tx, rx, 3, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_MEM(rx, "\xFE\xFD\xFC", 3);
    CHECK_EQ(f.last_cs, 2);
    CHECK_EQ(f.last_flags, ACCEL_SPI_KEEP_CS);
    /* len 0, flags 0: the release of the held transaction reaches the port, without buffers */
    f.last_tx = tx;
    f.last_rx = rx;
    f.last_len = 99;
    CHECK_ST(accel_port_spi_transfer(&p, 2, tx, rx, 0, 0), ACCEL_OK);
    CHECK_EQ(f.spi_calls, 2);
    CHECK_EQ(f.last_len, 0);
    CHECK_EQ(f.last_flags, 0);
    CHECK(f.last_tx == NULL && f.last_rx == NULL);
    CHECK_ST(accel_port_gpio_set(&p, 0, 2), ACCEL_E_UNSUPPORTED); /* missing beats arg */

    /* poll32 needs a clock, then times out or succeeds */
    p.reg_read32 = fake_rr32;
    CHECK_ST(accel_port_poll32(&p, 0, 0x80, 0x80, 10, 1, &v), ACCEL_E_UNSUPPORTED);
    p.now_ms = fake_now;
    p.delay_ms = fake_delay;
    CHECK_ST(accel_port_poll32(&p, 0x10, 0x80, 0x80, 100, 2, &v), ACCEL_OK);
    CHECK_EQ(f.reads, 4);
    CHECK_EQ(v & 0x80u, 0x80);
    CHECK_EQ(f.now, 6); /* three 2 ms waits before the 4th read */
    CHECK_ST(accel_port_poll32(&p, 0x10, 0x01, 0x01, 9, 2, &v), ACCEL_E_TIMEOUT);
    CHECK_EQ(f.now, 16); /* reads at 6,8,...,16; 16 - 6 >= 9 */
    CHECK_ST(accel_port_delay_ms(&p, 7), ACCEL_OK);
    CHECK_EQ(f.delays, 9); /* 3 + 5 polling waits + this one */
    /* delay without a delay callback busy-waits on the clock */
    p.delay_ms = NULL;
    p.now_ms = fake_now_ticking;
    f.now = 0xFFFFFFFEUL; /* across the wrap */
    CHECK_ST(accel_port_delay_ms(&p, 5), ACCEL_OK);
    CHECK_EQ(f.now, 4);
    CHECK_ST(accel_port_now_ms(&p, NULL), ACCEL_E_NULL);
}

static uint32_t rmw_reg;
static unsigned rmw_writes;
static accel_status rmw_rd(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    if (off == 0xBAD) return ACCEL_E_IO;
    *v = rmw_reg;
    return ACCEL_OK;
}
static accel_status rmw_wr(void *u, uint32_t off, uint32_t v)
{
    (void)u;
    (void)off;
    rmw_reg = v;
    rmw_writes++;
    return ACCEL_OK;
}

static void test_port_update32(void)
{
    accel_port p;
    memset(&p, 0, sizeof p);
    CHECK_ST(accel_port_update32(NULL, 0, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_update32(&p, 0, 0, 1), ACCEL_E_UNSUPPORTED);
    p.reg_read32 = rmw_rd;
    CHECK_ST(accel_port_update32(&p, 0, 0, 1), ACCEL_E_UNSUPPORTED); /* no write callback */
    p.reg_write32 = rmw_wr;
    rmw_reg = 0xF0F0F0F0UL;
    CHECK_ST(accel_port_update32(&p, 4, 0x000000FFUL, 0x00000003UL), ACCEL_OK);
    CHECK_EQ(rmw_reg, 0xF0F0F003UL);
    CHECK_ST(accel_port_update32(&p, 4, 0xF0000000UL, 0), ACCEL_OK);
    CHECK_EQ(rmw_reg, 0x00F0F003UL);
    CHECK_EQ(rmw_writes, 2);
    CHECK_ST(accel_port_update32(&p, 0xBAD, 0, 1), ACCEL_E_IO); /* failed read: no write */
    CHECK_EQ(rmw_writes, 2);
}

/* Every wrapper's argument check, and that a refused call never reaches the port. */
static unsigned stub_calls;
static accel_status stub_i2c(void *u, uint16_t a, const uint8_t *w, size_t wl, uint8_t *r, size_t rl)
{
    (void)u; (void)a; (void)w; (void)wl; (void)r; (void)rl;
    stub_calls++;
    return ACCEL_OK;
}
static accel_status stub_ctrl(void *u, uint8_t rt, uint8_t rq, uint16_t v, uint16_t i, uint8_t *d,
                              uint16_t l, uint32_t t, size_t *done)
{
    (void)u; (void)rt; (void)rq; (void)v; (void)i; (void)d; (void)t;
    stub_calls++;
    *done = l;
    return ACCEL_OK;
}
static accel_status stub_out(void *u, uint8_t ep, const uint8_t *d, size_t l, uint32_t t, size_t *done)
{
    (void)u; (void)ep; (void)d; (void)t;
    stub_calls++;
    *done = l;
    return ACCEL_OK;
}
static accel_status stub_in(void *u, uint8_t ep, uint8_t *d, size_t l, uint32_t t, size_t *done)
{
    (void)u; (void)ep; (void)d; (void)t;
    stub_calls++;
    *done = l;
    return ACCEL_OK;
}
static accel_status stub_w32(void *u, uint32_t o, uint32_t v) { (void)u; (void)o; (void)v; stub_calls++; return ACCEL_OK; }
static accel_status stub_r64(void *u, uint32_t o, uint64_t *v) { (void)u; (void)o; *v = 7; stub_calls++; return ACCEL_OK; }
static accel_status stub_w64(void *u, uint32_t o, uint64_t v) { (void)u; (void)o; (void)v; stub_calls++; return ACCEL_OK; }
static accel_status stub_gpio(void *u, unsigned l, unsigned v) { (void)u; (void)l; (void)v; stub_calls++; return ACCEL_OK; }
static accel_status stub_irq(void *u, unsigned l, uint32_t t) { (void)u; (void)l; (void)t; stub_calls++; return ACCEL_E_TIMEOUT; }

static void test_port_argument_checks(void)
{
    accel_port p;
    uint8_t b[4] = {0};
    size_t done = 99;
    uint64_t v64 = 0;
    memset(&p, 0, sizeof p);
    p.i2c_write_read = stub_i2c;
    p.usb_control = stub_ctrl;
    p.usb_bulk_out = stub_out;
    p.usb_bulk_in = stub_in;
    p.reg_write32 = stub_w32;
    p.reg_read64 = stub_r64;
    p.reg_write64 = stub_w64;
    p.gpio_set = stub_gpio;
    p.wait_irq = stub_irq;
    stub_calls = 0;
    CHECK_ST(accel_port_i2c_write_read(&p, 0x10, NULL, 1, b, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_i2c_write_read(&p, 0x10, b, 1, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_i2c_write_read(&p, 0x10, b, 0, b, 0), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_port_i2c_write_read(&p, 0x80, b, 1, b, 1), ACCEL_E_ARG); /* 7-bit only */
    CHECK_ST(accel_port_usb_control(&p, 0xC0, 0, 0, 0, NULL, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_bulk_out(&p, 0x01, NULL, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_bulk_out(&p, 0x81, b, 4, 10, &done), ACCEL_E_ARG); /* an IN endpoint */
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x81, NULL, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x81, b, 0, 10, &done), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x01, b, 4, 10, &done), ACCEL_E_ARG); /* an OUT endpoint */
    CHECK_ST(accel_port_reg_read64(&p, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_port_gpio_set(&p, 0, 2), ACCEL_E_ARG);
    CHECK_EQ(stub_calls, 0);
    /* valid calls pass through; done pointers are optional */
    CHECK_ST(accel_port_i2c_write_read(&p, 0x7F, b, 1, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_port_usb_control(&p, 0x40, 1, 2, 3, NULL, 0, 10, NULL), ACCEL_OK);
    CHECK_ST(accel_port_usb_control(&p, 0xC0, 1, 2, 3, b, 4, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 4);
    CHECK_ST(accel_port_usb_bulk_out(&p, 0x01, NULL, 0, 10, NULL), ACCEL_OK); /* zero-length packet */
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x82, b, 4, 10, NULL), ACCEL_OK);
    CHECK_ST(accel_port_reg_write32(&p, 0, 1), ACCEL_OK);
    CHECK_ST(accel_port_reg_read64(&p, 0, &v64), ACCEL_OK);
    CHECK_EQ(v64, 7);
    CHECK_ST(accel_port_reg_write64(&p, 0, 1), ACCEL_OK);
    CHECK_ST(accel_port_gpio_set(&p, 3, 0), ACCEL_OK);
    CHECK_ST(accel_port_wait_irq(&p, 0, 5), ACCEL_E_TIMEOUT); /* the port's status comes back */
    CHECK_EQ(stub_calls, 10);
}

/* Every code a section defines has its own string, which starts with its own name. */
static void test_status_strings_all(void)
{
    static const char *seen[600];
    int s, n = 0, per[7] = {0, 0, 0, 0, 0, 0, 0};
    for (s = -1; s > ACCEL_STATUS_MIN_; s--) {
        const char *t = accel_status_str((accel_status)s);
        int j;
        if (strcmp(t, "?") == 0) continue;
        CHECK(strncmp(t, "ACCEL_E_", 8) == 0 || (s >= -99 && s <= -95 &&
                                                  strncmp(t, "ACCEL_BRIDGE_E_", 15) == 0));
        CHECK(strchr(t, ':') != NULL);
        for (j = 0; j < n; j++)
            if (strcmp(seen[j], t) == 0) {
                printf("  duplicate string for %d: %s\n", s, t);
                CHECK(0);
            }
        seen[n++] = t;
        per[-s / 100]++;
    }
    /* common, tsp1, edgetpu, refsi, ane, mac, tflite: each section has codes in its own range */
    for (s = 0; s < 7; s++) CHECK(per[s] > 0);
}

int main(void)
{
    printf("test_common (ACCEL_CRC32_IMPL=%d, ACCEL_CRC32_SIMD=%d)\n", ACCEL_CRC32_IMPL,
           ACCEL_CRC32_SIMD);
    tl_seed(12345);
    RUN(test_status_strings);
    RUN(test_load_store);
    RUN(test_reader);
    RUN(test_writer);
    crc_cases_run();
    RUN(test_ring);
    RUN(test_fifo);
    RUN(test_deadline);
    RUN(test_port_wrappers);
    RUN(test_port_update32);
    RUN(test_port_argument_checks);
    RUN(test_status_strings_all);
    return TEST_END();
}
