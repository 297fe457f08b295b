/* port_host_test.cpp - ports/arduino on the host, over a fake Arduino core that logs every pin,
 * SPI and Wire call (tests/avr/fake). Checks the exact bus sequences, the transfer limit, the
 * chip-select release after an error, wait_irq's level and edge paths, Wire's codes -> distinct
 * statuses, and the status names. Built and run by tests/arduino_port.sh. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_arduino.h"
#include "accel_arduino_wire.h"
#include "SPI.h"
#include "testlib.h"

static accel_arduino board;
static accel_port port;

#define CHECK_LOG(want) CHECK_STR(fake_log, want)

/* cs 0 on pin 10, gpio 1 on pin 4, irq 0 on pin 2 (an interrupt pin), irq 1 on pin 5 (not) */
static void setup_board(size_t max_transfer)
{
    accel_arduino_config c;
    fake_reset();
    accel_arduino_config_init(&c);
    c.cs_pin[0] = 10;
    c.gpio_pin[1] = 4;
    c.irq_pin[0] = 2;
    c.irq_pin[1] = 5;
    c.irq_high = 2;   /* line 1 asserted high */
    c.irq_pullup = 1; /* line 0 open drain */
    c.spi_hz = 8000000UL;
    c.max_transfer = max_transfer;
    REQUIRE_ST(accel_arduino_init(&board, &c, &port), ACCEL_OK);
    fake_log[0] = 0;
}

static void test_config(void)
{
    accel_arduino_config c;
    accel_arduino_config_init(&c);
    CHECK_EQ(c.spi_hz, 4000000UL);
    CHECK_EQ(c.max_transfer, 512);
    for (unsigned i = 0; i < ACCEL_ARDUINO_LINES; i++) {
        CHECK_EQ(c.cs_pin[i], ACCEL_ARDUINO_NO_PIN);
        CHECK_EQ(c.gpio_pin[i], ACCEL_ARDUINO_NO_PIN);
        CHECK_EQ(c.irq_pin[i], ACCEL_ARDUINO_NO_PIN);
    }
    CHECK_ST(accel_arduino_init(NULL, &c, &port), ACCEL_E_NULL);
    CHECK_ST(accel_arduino_init(&board, NULL, &port), ACCEL_E_NULL);
    CHECK_ST(accel_arduino_init(&board, &c, NULL), ACCEL_E_NULL);
    c.cs_pin[0] = 10;
    c.gpio_pin[2] = 10; /* one pin, two jobs */
    CHECK_ST(accel_arduino_init(&board, &c, &port), ACCEL_E_ARG);
    c.gpio_pin[2] = ACCEL_ARDUINO_NO_PIN;
    c.irq_pin[1] = 3;
    c.irq_pin[3] = 3;
    CHECK_ST(accel_arduino_init(&board, &c, &port), ACCEL_E_ARG);
    c.irq_pin[3] = ACCEL_ARDUINO_NO_PIN;
    c.gpio_high = 1; /* gpio line 0 has no pin */
    CHECK_ST(accel_arduino_init(&board, &c, &port), ACCEL_E_ARG);
    c.gpio_high = 0;
    c.irq_high = 0x10; /* beyond the four lines */
    CHECK_ST(accel_arduino_init(&board, &c, &port), ACCEL_E_ARG);
    c.irq_high = 0;
    c.irq_pullup = 1; /* irq line 0 has no pin */
    CHECK_ST(accel_arduino_init(&board, &c, &port), ACCEL_E_ARG);
}

static void test_init_pins(void)
{
    accel_arduino_config c;
    fake_reset();
    accel_arduino_config_init(&c);
    c.cs_pin[0] = 10;
    c.gpio_pin[1] = 4;
    c.gpio_pin[2] = 6;
    c.gpio_high = 4;
    c.irq_pin[0] = 2;
    c.irq_pin[1] = 5;
    c.irq_high = 2;
    c.irq_pullup = 1;
    REQUIRE_ST(accel_arduino_init(&board, &c, &port), ACCEL_OK);
    /* chip select high before it becomes an output (no glitch low); gpio at its start level;
       irq 0: pull-up, falling edge on interrupt 0; irq 1: pin 5 has no interrupt; then SPI */
    CHECK_LOG("W10=1 M10=1 M2=2 A0/2 W4=0 M4=1 M5=0 W6=1 M6=1 Sbegin ");
    CHECK(port.user == &board);
    CHECK(port.spi_transfer && port.gpio_set && port.wait_irq && port.now_ms && port.delay_ms);
    CHECK(!port.i2c_write_read && !port.usb_control && !port.reg_read32);
    CHECK_EQ(board.attached, 1);
    CHECK_EQ(board.held_cs, ACCEL_ARDUINO_NO_PIN);
    fake_log[0] = 0;
    accel_arduino_end(&board);
    CHECK_LOG("X0 ");
    CHECK(fake_isr[0] == NULL);
    /* poll_only: no interrupt at all */
    fake_reset();
    c.poll_only = 1;
    REQUIRE_ST(accel_arduino_init(&board, &c, &port), ACCEL_OK);
    CHECK(strstr(fake_log, "A0") == NULL);
    CHECK_EQ(board.attached, 0);
}

static void test_spi(void)
{
    uint8_t tx[3] = {0x01, 0x80, 0xFF}, rx[3] = {0, 0, 0};
    setup_board(8);
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, rx, 3, 0), ACCEL_OK);
    /* mode 0, MSB first, the configured clock; CS low around the bytes */
    CHECK_LOG("S[8000000/1/0 W10=0 01 80 ff W10=1 S] ");
    CHECK_EQ(rx[0], 0xFE);
    CHECK_EQ(rx[1], 0x7F);
    CHECK_EQ(rx[2], 0x00);
    /* no tx: zeros go out; no rx: answers discarded */
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, rx, 2, 0), ACCEL_OK);
    CHECK_LOG("S[8000000/1/0 W10=0 00 00 W10=1 S] ");
    CHECK_EQ(rx[0], 0xFF);
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, NULL, 1, 0), ACCEL_OK);
    CHECK_LOG("S[8000000/1/0 W10=0 01 W10=1 S] ");
    /* KEEP_CS: one chip-select frame across two calls */
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, NULL, 2, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_EQ(board.held_cs, 0);
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, NULL, 1, 0), ACCEL_OK);
    CHECK_LOG("S[8000000/1/0 W10=0 01 80 S] S[8000000/1/0 W10=0 01 W10=1 S] ");
    CHECK_EQ(board.held_cs, ACCEL_ARDUINO_NO_PIN);
    /* length 0 ends a held transaction: chip select high, nothing clocked, no SPI
       transaction; with none held (or held on another line) it does nothing */
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_LOG("");
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, NULL, 1, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_LOG("S[8000000/1/0 W10=0 01 S] W10=1 ");
    CHECK_EQ(board.held_cs, ACCEL_ARDUINO_NO_PIN);
    CHECK_ST(accel_port_spi_transfer(&port, 0, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_LOG("S[8000000/1/0 W10=0 01 S] W10=1 ");
    CHECK_ST(port.spi_transfer(port.user, 0, NULL, NULL, 0, ACCEL_SPI_KEEP_CS), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_port_spi_transfer(&port, 7, NULL, NULL, 0, 0), ACCEL_E_ARG); /* no such line */
    CHECK_LOG("S[8000000/1/0 W10=0 01 S] W10=1 ");
}

static void test_spi_refused(void)
{
    uint8_t buf[9] = {0}, rx[9];
    setup_board(8);
    /* longer than max_transfer: refused whole, nothing on the bus */
    CHECK_ST(accel_port_spi_transfer(&port, 0, buf, rx, 9, 0), ACCEL_E_TOO_LONG);
    CHECK_LOG("");
    CHECK_ST(accel_port_spi_transfer(&port, 0, buf, rx, 8, 0), ACCEL_OK);
    /* ...and a transaction left open by KEEP_CS is ended: the device must not stay selected */
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, buf, NULL, 2, ACCEL_SPI_KEEP_CS), ACCEL_OK);
    CHECK_ST(accel_port_spi_transfer(&port, 0, buf, NULL, 9, 0), ACCEL_E_TOO_LONG);
    CHECK_LOG("S[8000000/1/0 W10=0 00 00 S] W10=1 ");
    CHECK_EQ(board.held_cs, ACCEL_ARDUINO_NO_PIN);
    /* a chip select without a pin, or out of range */
    fake_log[0] = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 1, buf, NULL, 1, 0), ACCEL_E_ARG);
    CHECK_ST(accel_port_spi_transfer(&port, 200, buf, NULL, 1, 0), ACCEL_E_ARG);
    CHECK_LOG("");
    /* another chip select while cs 0 is held: refused, cs 0 released */
    {
        accel_arduino_config c = board.cfg;
        fake_reset();
        c.cs_pin[1] = 9;
        REQUIRE_ST(accel_arduino_init(&board, &c, &port), ACCEL_OK);
        CHECK_ST(accel_port_spi_transfer(&port, 0, buf, NULL, 1, ACCEL_SPI_KEEP_CS), ACCEL_OK);
        fake_log[0] = 0;
        CHECK_ST(accel_port_spi_transfer(&port, 1, buf, NULL, 1, 0), ACCEL_E_ARG);
        CHECK_LOG("W10=1 ");
    }
}

static void test_gpio_time(void)
{
    setup_board(8);
    CHECK_ST(accel_port_gpio_set(&port, 1, 1), ACCEL_OK);
    CHECK_ST(accel_port_gpio_set(&port, 1, 0), ACCEL_OK);
    CHECK_ST(accel_port_gpio_set(&port, 0, 1), ACCEL_E_ARG);
    CHECK_ST(accel_port_gpio_set(&port, 9, 1), ACCEL_E_ARG);
    CHECK_LOG("W4=1 W4=0 ");
    {
        uint32_t now = 0;
        fake_ms = 1234;
        CHECK_ST(accel_port_now_ms(&port, &now), ACCEL_OK);
        CHECK_EQ(now, 1234);
    }
    fake_log[0] = 0;
    CHECK_ST(accel_port_delay_ms(&port, 7), ACCEL_OK);
    CHECK_LOG("D7 ");
}

static unsigned long pulse_at;
static void pulse_hook(unsigned long now)
{
    if (now == pulse_at && fake_isr[0]) fake_isr[0](); /* pin 2 stays high: a short pulse */
}

static void test_wait_irq(void)
{
    setup_board(8);
    /* line 0 is active low: pin 2 low = asserted, at once */
    fake_pin_in[2] = 0;
    CHECK_ST(accel_port_wait_irq(&port, 0, 100), ACCEL_OK);
    /* high: not asserted; the wait ends at the deadline on the millis() clock */
    fake_pin_in[2] = 1;
    fake_ms = 50;
    CHECK_ST(accel_port_wait_irq(&port, 0, 5), ACCEL_E_TIMEOUT);
    CHECK(fake_ms >= 55 && fake_ms <= 57);
    /* timeout 0: one look */
    fake_ms = 50;
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_E_TIMEOUT);
    CHECK(fake_ms <= 52);
    /* a pulse shorter than the poll, during the wait: the interrupt's edge flag answers once */
    REQUIRE(fake_isr[0] != NULL);
    fake_ms = 100;
    pulse_at = 103;
    fake_millis_hook = pulse_hook;
    CHECK_ST(accel_port_wait_irq(&port, 0, 10), ACCEL_OK);
    CHECK(fake_ms >= 104 && fake_ms <= 106);
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_E_TIMEOUT);
    fake_millis_hook = NULL;
    /* an edge latched before the call, with the line no longer asserted, is stale: an
       interrupt the driver served without waiting (it read the device while the line was
       asserted). Not a new interrupt: the wait runs its time */
    fake_isr[0]();
    fake_ms = 200;
    CHECK_ST(accel_port_wait_irq(&port, 0, 5), ACCEL_E_TIMEOUT);
    CHECK(fake_ms >= 205);
    fake_isr[0]();
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_E_TIMEOUT);
    /* an edge the level already covers is consumed with it */
    fake_isr[0]();
    fake_pin_in[2] = 0;
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_OK);
    fake_pin_in[2] = 1;
    CHECK_ST(accel_port_wait_irq(&port, 0, 0), ACCEL_E_TIMEOUT);
    /* line 1 is active high (pin 5, polled only) */
    fake_pin_in[5] = 0;
    CHECK_ST(accel_port_wait_irq(&port, 1, 3), ACCEL_E_TIMEOUT);
    fake_pin_in[5] = 1;
    CHECK_ST(accel_port_wait_irq(&port, 1, 3), ACCEL_OK);
    CHECK_ST(accel_port_wait_irq(&port, 2, 3), ACCEL_E_ARG);
    CHECK_ST(accel_port_wait_irq(&port, 99, 3), ACCEL_E_ARG);
}

static void test_i2c(void)
{
    uint8_t w[33], r[33];
    memset(w, 0x11, sizeof w);
    memset(r, 0, sizeof r);
    setup_board(16);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 1, r, 1), ACCEL_E_UNSUPPORTED);
    {
        accel_port other;
        memset(&other, 0, sizeof other);
        CHECK_ST(accel_arduino_init_i2c(&board, &other, 400000, 25000), ACCEL_E_ARG);
    }
    CHECK_ST(accel_arduino_init_i2c(&board, &port, 0, 25000), ACCEL_E_ARG);
    CHECK_ST(accel_arduino_init_i2c(NULL, &port, 400000, 25000), ACCEL_E_NULL);
    fake_log[0] = 0;
    CHECK_ST(accel_arduino_init_i2c(&board, &port, 400000, 25000), ACCEL_OK);
    CHECK_LOG("Ibegin Ihz400000 Ito25000/1 ");
    /* write then read: no stop in between (repeated start), stop after the read */
    fake_log[0] = 0;
    w[0] = 0x01;
    w[1] = 0x02;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 2, r, 3), ACCEL_OK);
    CHECK_LOG("I<42 w01 w02 I>0 Iclr R42/3/1 ");
    CHECK_EQ(r[0], 0xD0);
    CHECK_EQ(r[2], 0xD2);
    CHECK_EQ(board.wire_error, 0);
    CHECK_EQ(board.wire_got, 3);
    /* write only: stop at the end; read only: no write phase; both 0: an address probe */
    fake_log[0] = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 1, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 2), ACCEL_OK);
    CHECK_ST(port.i2c_write_read(port.user, 0x42, NULL, 0, NULL, 0), ACCEL_OK); /* the wrapper
                                                                 refuses 0/0: call it direct */
    CHECK_LOG("I<42 w01 I>1 Iclr R42/2/1 I<42 I>1 ");
    /* Wire's codes: each to its own status, the code kept for the caller */
    {
        static const struct { uint8_t code; accel_status st; } map[] = {
            {1, ACCEL_E_TOO_LONG}, {2, ACCEL_E_NO_DEVICE}, {3, ACCEL_E_STALL},
            {4, ACCEL_E_IO}, {5, ACCEL_E_TIMEOUT}};
        for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++) {
            fake_wire_code = map[i].code;
            fake_log[0] = 0;
            CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 1, r, 2), map[i].st);
            CHECK_EQ(board.wire_error, map[i].code);
            CHECK_LOG("I<42 w01 I>0 "); /* no read after a failed write */
        }
        fake_wire_code = 0;
        for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
            for (unsigned j = i + 1; j < sizeof map / sizeof map[0]; j++) CHECK(map[i].st != map[j].st);
    }
    /* a read that delivers nothing: address not acknowledged, or the bus timed out */
    fake_wire_avail = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 2), ACCEL_E_NO_DEVICE);
    CHECK_EQ(board.wire_error, 2);
    fake_wire_timeout = true;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 2), ACCEL_E_TIMEOUT);
    CHECK_EQ(board.wire_error, 5);
    fake_wire_timeout = false;
    /* a partial read is an error, its bytes are not data */
    fake_wire_avail = 1;
    memset(r, 0, sizeof r);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 2), ACCEL_E_IO);
    CHECK_EQ(board.wire_got, 1);
    CHECK_EQ(r[0], 0);
    CHECK_EQ(Wire.available(), 0);
    fake_wire_avail = 32;
    /* limits, refused before the bus: max_transfer 16 here, Wire's buffer 32 */
    fake_log[0] = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 17, NULL, 0), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 17), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x80, w, 1, NULL, 0), ACCEL_E_ARG);
    CHECK_LOG("");
    setup_board(64);
    REQUIRE_ST(accel_arduino_init_i2c(&board, &port, 100000, 0), ACCEL_OK);
    fake_log[0] = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 33, NULL, 0), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, NULL, 0, r, 33), ACCEL_E_TOO_LONG);
    CHECK_LOG("");
    CHECK_ST(accel_port_i2c_write_read(&port, 0x42, w, 32, r, 32), ACCEL_OK);
}

static void test_status_names(void)
{
    /* the name of each code is its identifier in accel.h */
#define N(x) {x, #x}
    static const struct { accel_status st; const char *name; } names[] = {
        N(ACCEL_OK), N(ACCEL_E_NULL), N(ACCEL_E_TOO_LONG), N(ACCEL_E_TIMEOUT), N(ACCEL_E_IO),
        N(ACCEL_E_NO_DEVICE), N(ACCEL_E_STALL), N(ACCEL_E_FAULT), N(ACCEL_E_TSP1_ERR_ARG),
        N(ACCEL_E_TSP1_ERR_CHECKSUM), N(ACCEL_E_TSP1_ERR_FRAMING), N(ACCEL_E_TSP1_ERROR_STATE),
        N(ACCEL_E_TSP1_UNEXPECTED), N(ACCEL_E_MAC_DTYPE), N(ACCEL_E_MAC_DEPTH)};
#undef N
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *got = reinterpret_cast<const char *>(accel_arduino_status_name(names[i].st));
        CHECK(got != NULL);
        if (got) CHECK_STR(got, names[i].name);
    }
    /* every common, tsp1 and mac code has a name: the numbers are dense apart from -105 and
       -108/-109 in tsp1, which are no codes */
    for (int s = 0; s >= -22; s--) CHECK(accel_arduino_status_name((accel_status)s) != NULL);
    for (int s = -100; s >= -116; s--)
        if (s != -105 && s != -108 && s != -109)
            CHECK(accel_arduino_status_name((accel_status)s) != NULL);
    for (int s = -500; s >= -511; s--) CHECK(accel_arduino_status_name((accel_status)s) != NULL);
    CHECK(accel_arduino_status_name((accel_status)-23) == NULL);
    CHECK(accel_arduino_status_name((accel_status)-105) == NULL);
    CHECK(accel_arduino_status_name(ACCEL_E_ANE_QUEUE) == NULL); /* other sections: a number */
    {
        Print p;
        CHECK_EQ(accel_arduino_print_status(p, ACCEL_E_TSP1_ERR_MEM), 20);
        CHECK_STR(p.text, "ACCEL_E_TSP1_ERR_MEM");
        Print q;
        CHECK_EQ(accel_arduino_print_status(q, ACCEL_E_ANE_QUEUE), 11);
        CHECK_STR(q.text, "status -400");
    }
}

int main(void)
{
    RUN(test_config);
    RUN(test_init_pins);
    RUN(test_spi);
    RUN(test_spi_refused);
    RUN(test_gpio_time);
    RUN(test_wait_irq);
    RUN(test_i2c);
    RUN(test_status_names);
    return TEST_END();
}
