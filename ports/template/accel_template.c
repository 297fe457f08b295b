/* accel_template.c - see accel_template.h. Every callback answers ACCEL_E_UNSUPPORTED until its
 * TODO is done; on a platform failure a callback returns accel_template_fail(t, code). */
#include "accel_template.h"

accel_status accel_template_fail(accel_template *t, int err)
{
    t->last_error = err;
    /* TODO: one line per platform code that has a precise status, for example
     *   if (err == PLATFORM_TIMEOUT) return ACCEL_E_TIMEOUT;
     *   if (err == PLATFORM_NACK) return ACCEL_E_NO_DEVICE; */
    return ACCEL_E_IO;
}

/* TODO: clock len bytes out of tx (NULL: zeros) and into rx (NULL: discard) with chip select
 * cs low; leave it low afterwards when flags has ACCEL_SPI_KEEP_CS. len 0 with flags 0 ends
 * such a held transaction: chip select high, nothing clocked (nothing at all when none is
 * held); len 0 with ACCEL_SPI_KEEP_CS is ACCEL_E_ZERO_LENGTH. */
static accel_status tpl_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                     size_t len, unsigned flags)
{
    (void)user, (void)cs, (void)tx, (void)rx, (void)len, (void)flags;
    return ACCEL_E_UNSUPPORTED;
}
/* TODO: write wlen bytes, then (repeated start) read rlen bytes, at 7-bit address addr. */
static accel_status tpl_i2c_write_read(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                       uint8_t *r, size_t rlen)
{
    (void)user, (void)addr, (void)w, (void)wlen, (void)r, (void)rlen;
    return ACCEL_E_UNSUPPORTED;
}
/* TODO: drive output `line` (the port's own numbering) to level 0 or 1. */
static accel_status tpl_gpio_set(void *user, unsigned line, unsigned level)
{
    (void)user, (void)line, (void)level;
    return ACCEL_E_UNSUPPORTED;
}
/* TODO: return ACCEL_OK while input `line` is asserted, else wait up to timeout_ms for it
 * (0: look once), then ACCEL_E_TIMEOUT. */
static accel_status tpl_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    (void)user, (void)line, (void)timeout_ms;
    return ACCEL_E_UNSUPPORTED;
}
static uint32_t tpl_now_ms(void *user) { (void)user; return 0; /* TODO: a monotonic ms tick */ }
static void tpl_delay_ms(void *user, uint32_t ms) { (void)user, (void)ms; /* TODO: sleep ms */ }

accel_status accel_template_init(accel_template *t)
{
    if (!t) return ACCEL_E_NULL;
    t->last_error = 0;
    return ACCEL_OK;
}

accel_status accel_template_port(accel_template *t, accel_port *port)
{
    if (!t || !port) return ACCEL_E_NULL;
    port->user = t;
    port->spi_transfer = tpl_spi_transfer;
    port->i2c_write_read = tpl_i2c_write_read;
    port->usb_control = NULL; /* TODO or NULL: USB and register callbacks, written the same way */
    port->usb_bulk_out = NULL;
    port->usb_bulk_in = NULL;
    port->reg_read32 = NULL;
    port->reg_write32 = NULL;
    port->reg_read64 = NULL;
    port->reg_write64 = NULL;
    port->gpio_set = tpl_gpio_set;
    port->wait_irq = tpl_wait_irq;
    port->now_ms = tpl_now_ms;
    port->delay_ms = tpl_delay_ms;
    return ACCEL_OK;
}
