/* test_port_template.c - ports/template, the port a newcomer copies, behaves as its comments
 * say before any TODO is filled in: init does no I/O, the port holds exactly the callbacks it
 * lists (the rest NULL, so drivers get ACCEL_E_UNSUPPORTED without calling anything), every
 * listed callback answers ACCEL_E_UNSUPPORTED, and the error mapping keeps the platform's code.
 * Its builds (C, C++, Cortex-M0+, -Werror) are checked by tests/port_template.sh. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "../ports/template/accel_template.c"

static void test_init_and_port(void)
{
    accel_template t;
    accel_port p;
    t.last_error = 42;
    REQUIRE_ST(accel_template_init(&t), ACCEL_OK);
    CHECK_EQ(t.last_error, 0);
    memset(&p, 0xA5, sizeof p); /* every field must be written, none left over */
    REQUIRE_ST(accel_template_port(&t, &p), ACCEL_OK);
    CHECK(p.user == &t);
    CHECK(p.spi_transfer && p.i2c_write_read && p.gpio_set && p.wait_irq && p.now_ms &&
          p.delay_ms);
    CHECK(!p.usb_control && !p.usb_bulk_out && !p.usb_bulk_in);
    CHECK(!p.reg_read32 && !p.reg_write32 && !p.reg_read64 && !p.reg_write64);
    CHECK_ST(accel_template_init(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_template_port(NULL, &p), ACCEL_E_NULL);
    CHECK_ST(accel_template_port(&t, NULL), ACCEL_E_NULL);
}

static void test_callbacks_unsupported(void)
{
    accel_template t;
    accel_port p;
    uint8_t b[4] = {1, 2, 3, 4};
    uint32_t v = 7, now = 9;
    size_t done = 0;
    REQUIRE_ST(accel_template_init(&t), ACCEL_OK);
    REQUIRE_ST(accel_template_port(&t, &p), ACCEL_OK);
    /* the filled-in callbacks, through the checked calls drivers use */
    CHECK_ST(accel_port_spi_transfer(&p, 0, b, b, 4, 0), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_i2c_write_read(&p, 0x50, b, 1, b, 2), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_gpio_set(&p, 3, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_wait_irq(&p, 1, 10), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(p.now_ms(p.user), 0);
    p.delay_ms(p.user, 5); /* a TODO that does nothing, and says so */
    CHECK_ST(accel_port_now_ms(&p, &now), ACCEL_OK);
    CHECK_EQ(now, 0);
    CHECK_ST(accel_port_delay_ms(&p, 5), ACCEL_OK);
    /* the NULL ones: the checked calls refuse without calling anything */
    CHECK_ST(accel_port_reg_read32(&p, 0, &v), ACCEL_E_UNSUPPORTED);
    CHECK_EQ(v, 7);
    CHECK_ST(accel_port_usb_bulk_out(&p, 1, b, 4, 10, &done), ACCEL_E_UNSUPPORTED);
    CHECK_MEM(b, "\x01\x02\x03\x04", 4);
    CHECK_EQ(t.last_error, 0); /* "unsupported" is not a platform failure */
}

static void test_error_mapping(void)
{
    accel_template t;
    REQUIRE_ST(accel_template_init(&t), ACCEL_OK);
    CHECK_ST(accel_template_fail(&t, 110), ACCEL_E_IO);
    CHECK_EQ(t.last_error, 110);
    CHECK_ST(accel_template_fail(&t, -5), ACCEL_E_IO);
    CHECK_EQ(t.last_error, -5);
}

int main(void)
{
    RUN(test_init_and_port);
    RUN(test_callbacks_unsupported);
    RUN(test_error_mapping);
    return TEST_END();
}
