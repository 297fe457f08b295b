/* test_common_errors.c - the common section's refusals that test_common.c leaves out: every
 * NULL argument of the reader, writer, ring, FIFO, deadline and port wrappers, a zeroed (never
 * initialised) ring or FIFO, each fixed-width read and write at its end of buffer, zero-length
 * copies, accel_port_poll32's failure paths, and the status strings of a build that leaves
 * sections out (their codes have no string there; every kept code still has its own).
 * Each refusal is checked for its status and for having changed nothing. */
/* common and tsp1 only, as the TSP1 tests build it */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

static void test_status_strings_reduced_build(void)
{
    static char names[200][48];
    int s, n = 0, j;
    /* every kept code (common -1..-99, tsp1 -100..-199) names itself, once */
    for (s = -1; s >= -199; s--) {
        const char *t = accel_status_str((accel_status)s), *colon = strchr(t, ':');
        if (strcmp(t, "?") == 0) continue;
        CHECK(strncmp(t, "ACCEL_", 6) == 0);
        REQUIRE(colon != NULL && (size_t)(colon - t) < sizeof names[0]);
        memcpy(names[n], t, (size_t)(colon - t));
        names[n][colon - t] = '\0';
        for (j = 0; j < n; j++) CHECK(strcmp(names[j], names[n]) != 0);
        n++;
    }
    CHECK(n >= 22 + 15); /* common's 22 codes and tsp1's 15 at least */
    CHECK(strncmp(accel_status_str(ACCEL_E_NULL), "ACCEL_E_NULL:", 13) == 0);
    CHECK(strncmp(accel_status_str(ACCEL_E_FAULT), "ACCEL_E_FAULT:", 14) == 0);
    CHECK(strncmp(accel_status_str(ACCEL_E_TSP1_ROM), "ACCEL_E_TSP1_ROM:", 17) == 0);
    CHECK(strncmp(accel_status_str(ACCEL_OK), "ACCEL_OK:", 9) == 0);
    /* the removed sections' ranges, the sentinel and positive values have no string */
    for (s = -200; s > ACCEL_STATUS_MIN_; s--) CHECK(strcmp(accel_status_str((accel_status)s), "?") == 0);
    CHECK(strcmp(accel_status_str(ACCEL_STATUS_MIN_), "?") == 0);
    CHECK(strcmp(accel_status_str((accel_status)1), "?") == 0);
}

/* Each fixed-width read: NULL reader, NULL out, a value read big- or little-endian, and one
   byte short (sticky ACCEL_E_TRUNCATED, nothing stored). */
static const uint8_t SRC[9] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x55};

#define READ_CASE(fn, type, width, want)                                                   \
    do {                                                                                   \
        accel_reader rc_;                                                                    \
        type v = (type)0x5A;                                                               \
        CHECK_ST(fn(NULL, &v), ACCEL_E_NULL);                                              \
        REQUIRE_ST(accel_reader_init(&rc_, SRC, width), ACCEL_OK);                           \
        CHECK_ST(fn(&rc_, NULL), ACCEL_E_NULL);                                              \
        CHECK_EQ(rc_.pos, 0);                                                                \
        REQUIRE_ST(fn(&rc_, &v), ACCEL_OK);                                                  \
        CHECK_EQ_U64(v, want);                                                             \
        CHECK_EQ(accel_reader_remaining(&rc_), 0);                                           \
        REQUIRE_ST(accel_reader_init(&rc_, SRC, (width) - 1), ACCEL_OK);                     \
        v = (type)0x5A;                                                                    \
        CHECK_ST(fn(&rc_, &v), ACCEL_E_TRUNCATED);                                           \
        CHECK_EQ(v, 0x5A);                                                                 \
        CHECK_ST(rc_.err, ACCEL_E_TRUNCATED);                                                \
    } while (0)

static void test_reader_edges(void)
{
    accel_reader r, bad;
    const uint8_t *view = NULL;
    uint8_t dst[4] = {9, 9, 9, 9};
    READ_CASE(accel_read_u8, uint8_t, 1, 0x01);
    READ_CASE(accel_read_u16le, uint16_t, 2, 0x2301);
    READ_CASE(accel_read_u16be, uint16_t, 2, 0x0123);
    READ_CASE(accel_read_u32le, uint32_t, 4, 0x67452301UL);
    READ_CASE(accel_read_u32be, uint32_t, 4, 0x01234567UL);
    READ_CASE(accel_read_u64le, uint64_t, 8, 0xEFCDAB8967452301ULL);
    READ_CASE(accel_read_u64be, uint64_t, 8, 0x0123456789ABCDEFULL);
    /* bytes: NULL reader; NULL destination with a length; none with none */
    REQUIRE_ST(accel_reader_init(&r, SRC, 3), ACCEL_OK);
    CHECK_ST(accel_read_bytes(NULL, dst, 1), ACCEL_E_NULL);
    CHECK_ST(accel_read_bytes(&r, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_read_bytes(&r, NULL, 0), ACCEL_OK);
    CHECK_EQ(r.pos, 0);
    CHECK_ST(accel_read_bytes(&r, dst, 4), ACCEL_E_TRUNCATED);
    CHECK_EQ(dst[0], 9);
    /* the error is sticky: a read that would fit now fails the same way */
    CHECK_ST(accel_read_bytes(&r, dst, 1), ACCEL_E_TRUNCATED);
    CHECK_EQ(dst[0], 9);
    REQUIRE_ST(accel_reader_init(&r, SRC, 3), ACCEL_OK);
    CHECK_ST(accel_read_view(&r, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_read_view(NULL, &view, 1), ACCEL_E_NULL);
    CHECK(view == NULL);
    CHECK_ST(accel_reader_skip(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_reader_seek(NULL, 0), ACCEL_E_NULL);
    CHECK_EQ(accel_reader_remaining(NULL), 0);
    /* a reader whose position was set past its end (the struct is the caller's) has nothing left */
    bad = r;
    bad.pos = 5;
    CHECK_EQ(accel_reader_remaining(&bad), 0);
}

#define WRITE_CASE(fn, type, width, val, b0)                                               \
    do {                                                                                   \
        accel_writer wc_;                                                                    \
        uint8_t wo_[9];                                                                    \
        memset(wo_, 0xEE, sizeof wo_);                                                     \
        CHECK_ST(fn(NULL, (type)(val)), ACCEL_E_NULL);                                     \
        REQUIRE_ST(accel_writer_init(&wc_, wo_, (width) - 1), ACCEL_OK);                     \
        CHECK_ST(fn(&wc_, (type)(val)), ACCEL_E_BUFFER_TOO_SMALL);                           \
        CHECK_EQ(wo_[0], 0xEE);                                                            \
        CHECK_EQ(wc_.pos, 0);                                                                \
        REQUIRE_ST(accel_writer_init(&wc_, wo_, width), ACCEL_OK);                           \
        REQUIRE_ST(fn(&wc_, (type)(val)), ACCEL_OK);                                         \
        CHECK_EQ(wo_[0], b0);                                                              \
        CHECK_EQ(wo_[width], 0xEE);                                                        \
    } while (0)

static void test_writer_edges(void)
{
    accel_writer w, bad;
    uint8_t out[4] = {7, 7, 7, 7};
    WRITE_CASE(accel_write_u16le, uint16_t, 2, 0x1234, 0x34);
    WRITE_CASE(accel_write_u16be, uint16_t, 2, 0x1234, 0x12);
    WRITE_CASE(accel_write_u32le, uint32_t, 4, 0x12345678UL, 0x78);
    WRITE_CASE(accel_write_u32be, uint32_t, 4, 0x12345678UL, 0x12);
    WRITE_CASE(accel_write_u64le, uint64_t, 8, 0x0102030405060708ULL, 0x08);
    WRITE_CASE(accel_write_u64be, uint64_t, 8, 0x0102030405060708ULL, 0x01);
    /* init: no buffer is fine with no capacity, refused with one */
    CHECK_ST(accel_writer_init(&w, NULL, 0), ACCEL_OK);
    CHECK_EQ(accel_writer_remaining(&w), 0);
    CHECK_ST(accel_writer_init(&w, NULL, 4), ACCEL_E_NULL);
    CHECK_EQ(accel_writer_remaining(&w), 0);
    CHECK_ST(accel_write_u8(&w, 1), ACCEL_E_NULL); /* the init error is sticky */
    REQUIRE_ST(accel_writer_init(&w, out, sizeof out), ACCEL_OK);
    CHECK_ST(accel_write_bytes(NULL, out, 1), ACCEL_E_NULL);
    CHECK_ST(accel_write_bytes(&w, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_write_bytes(&w, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_write_fill(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_write_fill(&w, 0, 0), ACCEL_OK);
    CHECK_EQ(w.pos, 0);
    CHECK_ST(accel_write_fill(&w, 0xAB, 5), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(out[0], 7);
    CHECK_EQ(accel_writer_remaining(NULL), 0);
    bad = w;
    bad.pos = 9; /* past its capacity (the struct is the caller's): nothing left */
    CHECK_EQ(accel_writer_remaining(&bad), 0);
}

static void test_ring_fifo_edges(void)
{
    accel_ring r, zr;
    accel_fifo f, zf;
    uint8_t mem[16], slot[4] = {1, 2, 3, 4}, got_slot[4] = {0}, dst[8] = {0};
    size_t got = 77;
    memset(&zr, 0, sizeof zr);
    memset(&zf, 0, sizeof zf);
    /* NULL and never-initialised (zeroed) rings */
    CHECK_ST(accel_ring_push(NULL, slot), ACCEL_E_NULL);
    CHECK_ST(accel_ring_push(&zr, slot), ACCEL_E_NULL);
    CHECK_ST(accel_ring_peek(NULL, got_slot), ACCEL_E_NULL);
    CHECK_ST(accel_ring_peek(&zr, got_slot), ACCEL_E_NULL);
    CHECK_ST(accel_ring_pop(NULL, got_slot), ACCEL_E_NULL);
    CHECK_ST(accel_ring_pop(&zr, got_slot), ACCEL_E_NULL);
    CHECK(accel_ring_at(NULL, 0) == NULL);
    CHECK(accel_ring_at(&zr, 0) == NULL);
    CHECK_EQ(accel_ring_capacity(NULL), 0);
    CHECK_EQ(accel_ring_empty(NULL), 1);
    accel_ring_clear(NULL); /* no effect, no crash */
    REQUIRE_ST(accel_ring_init(&r, mem, sizeof mem, 4), ACCEL_OK);
    CHECK_ST(accel_ring_push(&r, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ring_peek(&r, NULL), ACCEL_E_NULL);
    CHECK_EQ(accel_ring_count(&r), 0);
    CHECK_EQ(accel_ring_capacity(&r), 4);
    REQUIRE_ST(accel_ring_push(&r, slot), ACCEL_OK);
    CHECK_EQ(accel_ring_empty(&r), 0);
    CHECK(accel_ring_at(&r, 1) == NULL);
    REQUIRE_ST(accel_ring_pop(&r, NULL), ACCEL_OK); /* dropped without a copy */
    CHECK_EQ(accel_ring_empty(&r), 1);
    CHECK_EQ(got_slot[0], 0);

    CHECK_ST(accel_fifo_write(NULL, slot, 1), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_write(&zf, slot, 1), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_read(NULL, dst, 1, &got), ACCEL_E_NULL);
    CHECK_EQ(got, 0);
    CHECK_ST(accel_fifo_read(&zf, dst, 1, &got), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_peek(NULL, 0, dst, 1), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_peek(&zf, 0, dst, 1), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_discard(NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_discard(&zf, 0), ACCEL_E_NULL);
    CHECK_EQ(accel_fifo_space(NULL), 0);
    accel_fifo_clear(NULL);
    REQUIRE_ST(accel_fifo_init(&f, mem, 8), ACCEL_OK);
    REQUIRE_ST(accel_fifo_write(&f, slot, 4), ACCEL_OK);
    got = 77;
    CHECK_ST(accel_fifo_read(&f, NULL, 1, &got), ACCEL_E_NULL);
    CHECK_EQ(got, 0);
    CHECK_ST(accel_fifo_read(&f, dst, 1, NULL), ACCEL_E_NULL);
    CHECK_EQ(accel_fifo_count(&f), 4);
    CHECK_ST(accel_fifo_peek(&f, 0, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_fifo_peek(&f, 0, NULL, 0), ACCEL_OK);
    /* an offset past the content, and a length past it from a valid offset */
    CHECK_ST(accel_fifo_peek(&f, 5, dst, 1), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_fifo_peek(&f, 2, dst, 3), ACCEL_E_TRUNCATED);
    CHECK_EQ(dst[0], 0);
    REQUIRE_ST(accel_fifo_peek(&f, 2, dst, 2), ACCEL_OK);
    CHECK_EQ(dst[0], 3);
    CHECK_EQ(dst[1], 4);
    CHECK_EQ(accel_fifo_space(&f), 4);
}

static void test_deadline_null(void)
{
    accel_deadline d;
    d.start_ms = 5;
    d.timeout_ms = 6;
    accel_deadline_start(NULL, 1, 2); /* no effect, no crash */
    CHECK_EQ(accel_deadline_remaining(NULL, 0), 0);
    CHECK_EQ(accel_deadline_expired(NULL, 0), 1); /* no deadline: nothing to wait for */
    CHECK_EQ(accel_deadline_remaining(&d, 8), 3);
}

/* A port whose callbacks count their calls; reads fail once fail_reads is set. */
static unsigned calls;
static uint32_t clock_ms, reg_value;
static int fail_reads;
static accel_status p_r32(void *u, uint32_t off, uint32_t *v)
{
    (void)u;
    (void)off;
    calls++;
    *v = reg_value;
    clock_ms += 3;
    return fail_reads ? ACCEL_E_IO : ACCEL_OK;
}
static uint32_t p_now(void *u)
{
    (void)u;
    return clock_ms;
}

static void test_port_wrappers_null(void)
{
    uint8_t b[4] = {0};
    uint32_t v32 = 0, last = 0xDEAD;
    uint64_t v64 = 0;
    size_t done = 0;
    accel_port p;
    CHECK_ST(accel_port_spi_transfer(NULL, 0, b, b, 1, 0), ACCEL_E_NULL);
    CHECK_ST(accel_port_i2c_write_read(NULL, 0x10, b, 1, b, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_control(NULL, 0xC0, 0, 0, 0, b, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_bulk_out(NULL, 0x01, b, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_usb_bulk_in(NULL, 0x81, b, 4, 10, &done), ACCEL_E_NULL);
    CHECK_ST(accel_port_reg_read32(NULL, 0, &v32), ACCEL_E_NULL);
    CHECK_ST(accel_port_reg_write32(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_reg_read64(NULL, 0, &v64), ACCEL_E_NULL);
    CHECK_ST(accel_port_reg_write64(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_gpio_set(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_wait_irq(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_delay_ms(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_port_poll32(NULL, 0, 1, 1, 10, 0, &last), ACCEL_E_NULL);
    CHECK_ST(accel_port_update32(NULL, 0, 1, 1), ACCEL_E_NULL);
    CHECK_EQ(last, 0xDEAD);
    memset(&p, 0, sizeof p);
    p.reg_read32 = p_r32;
    p.now_ms = p_now;
    CHECK_ST(accel_port_reg_read32(&p, 0, NULL), ACCEL_E_NULL);
    CHECK_EQ(calls, 0);
    /* poll32 without a `last` and without a pause between reads: the register is read until
       the deadline passes (3 ms per read on this clock: reads at 3, 6, 9, 12) */
    clock_ms = 0;
    reg_value = 0x10;
    CHECK_ST(accel_port_poll32(&p, 0, 0x1, 0x1, 10, 0, NULL), ACCEL_E_TIMEOUT);
    CHECK_EQ(calls, 4);
    /* the first read fails: its status, and *last shows what was read */
    calls = 0;
    fail_reads = 1;
    CHECK_ST(accel_port_poll32(&p, 0, 0x1, 0x1, 10, 5, &last), ACCEL_E_IO);
    CHECK_EQ(calls, 1);
    CHECK_EQ(last, 0x10);
    fail_reads = 0;
}

int main(void)
{
    tl_seed(1);
    RUN(test_status_strings_reduced_build);
    RUN(test_reader_edges);
    RUN(test_writer_edges);
    RUN(test_ring_fifo_edges);
    RUN(test_deadline_null);
    RUN(test_port_wrappers_null);
    return TEST_END();
}
