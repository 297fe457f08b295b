/* accel_zephyr.c - the Zephyr port. Usage and behaviour: see accel_zephyr.h. */
#include "accel_zephyr.h"
#include <errno.h>
#include <limits.h>
#include <string.h>

#if defined(CONFIG_ACCEL_TSP1_READ_CHUNK) && \
    CONFIG_ACCEL_TSP1_READ_CHUNK > (ACCEL_ZEPHYR_SPI_MAX_BUFS - 1) * ACCEL_ZEPHYR_SPI_ZERO_BYTES
#error "accel_zephyr: a TSP1 read chunk needs more zero blocks than SPI_MAX_BUFS allows"
#endif

accel_status accel_zephyr_errno_status(int err)
{
    switch (err) {
    case ETIMEDOUT:
    case EAGAIN: return ACCEL_E_TIMEOUT;
    case EBUSY:
    case EALREADY: return ACCEL_E_BUSY;
    case EINVAL: return ACCEL_E_ARG;
    case ENOTSUP:
    case ENOSYS: return ACCEL_E_UNSUPPORTED;
    case ENODEV:
    case ENXIO:
    case ENOENT: return ACCEL_E_NO_DEVICE;
    case EACCES:
    case EPERM: return ACCEL_E_ACCESS;
    case EMSGSIZE: return ACCEL_E_TOO_LONG;
    case ENOMEM:
    case ENOBUFS:
    case ENOSPC: return ACCEL_E_FULL;
    default: return ACCEL_E_IO;
    }
}

accel_status accel_zephyr_fail(accel_zephyr *z, int ret)
{
    /* Zephyr returns -errno; anything else here is a driver bug, reported as EIO */
    int err = (ret < 0 && ret != INT_MIN) ? -ret : EIO;
    if (z) z->last_errno = err;
    return accel_zephyr_errno_status(err);
}

accel_status accel_zephyr_init(accel_zephyr *z)
{
    if (!z) return ACCEL_E_NULL;
    memset(z, 0, sizeof *z); /* NULL specs, nothing held, zeros zeroed */
    return ACCEL_OK;
}

accel_status accel_zephyr_port(accel_zephyr *z, accel_port *port)
{
    if (!z || !port) return ACCEL_E_NULL;
    memset(port, 0, sizeof *port); /* USB and register callbacks: none (see the header) */
    port->user = z;
    port->spi_transfer = accel_zephyr_spi_transfer;
    port->i2c_write_read = accel_zephyr_i2c_write_read;
    port->gpio_set = accel_zephyr_gpio_set;
    port->wait_irq = accel_zephyr_wait_irq;
    port->now_ms = accel_zephyr_now_ms;
    port->delay_ms = accel_zephyr_delay_ms;
    return ACCEL_OK;
}

static void zephyr_drop_hold(accel_zephyr *z)
{
    z->hold_parts = 0;
    z->hold_len = 0;
}

void accel_zephyr_close(accel_zephyr *z)
{
    unsigned i;
    if (!z) return;
#ifdef CONFIG_GPIO
    for (i = 0; i < ACCEL_ZEPHYR_MAX_LINES; i++) {
        accel_zephyr_line *l = &z->lines[i];
        if (l->spec && l->is_irq) {
            /* interrupt off before the callback goes: it must not run on a forgotten line */
            (void)gpio_pin_interrupt_configure_dt(l->spec, GPIO_INT_DISABLE);
            (void)gpio_remove_callback_dt(l->spec, &l->cb);
        }
        l->spec = NULL;
    }
#else
    (void)i;
#endif
#ifdef CONFIG_SPI
    for (i = 0; i < ACCEL_ZEPHYR_MAX_SPI; i++) z->spi[i] = NULL;
#endif
#ifdef CONFIG_I2C
    for (i = 0; i < ACCEL_ZEPHYR_MAX_I2C; i++) z->i2c[i] = NULL;
#endif
    zephyr_drop_hold(z);
}

/* ---------------------------------------------------------------- SPI */
#ifdef CONFIG_SPI
accel_status accel_zephyr_spi_attach(accel_zephyr *z, uint8_t cs, const struct spi_dt_spec *spec)
{
    if (!z || !spec) return ACCEL_E_NULL;
    if (cs >= ACCEL_ZEPHYR_MAX_SPI) return ACCEL_E_ARG;
    if (z->spi[cs]) return ACCEL_E_BUSY;
    if (!spi_is_ready_dt(spec)) return ACCEL_E_NO_DEVICE;
    z->spi[cs] = spec;
    return ACCEL_OK;
}

/* The transaction so far (held parts) plus this last part, as one spi_transceive_dt. */
static accel_status zephyr_spi_send(accel_zephyr *z, const struct spi_dt_spec *spec,
                                    const uint8_t *tx, uint8_t *rx, size_t len)
{
    struct spi_buf tb[ACCEL_ZEPHYR_SPI_MAX_BUFS], rb[ACCEL_ZEPHYR_SPI_MAX_BUFS];
    struct spi_buf_set ts, rs;
    size_t nt = 0, nr = 0, i, left;
    int any_rx = rx != NULL, r;
    if (z->hold_len) { /* every held tx byte, contiguous: one buffer */
        tb[nt].buf = z->hold_tx;
        tb[nt].len = z->hold_len;
        nt++;
    }
    if (tx) {
        /* spi_buf.buf is not const; Zephyr's drivers only read tx buffers */
        tb[nt].buf = (void *)(uintptr_t)tx;
        tb[nt].len = len;
        nt++;
    } else {
        for (left = len; left; nt++) {
            size_t n = left < ACCEL_ZEPHYR_SPI_ZERO_BYTES ? left : ACCEL_ZEPHYR_SPI_ZERO_BYTES;
            if (nt == ACCEL_ZEPHYR_SPI_MAX_BUFS) return ACCEL_E_TOO_LONG;
            tb[nt].buf = z->zeros;
            tb[nt].len = n;
            left -= n;
        }
    }
    for (i = 0; i < z->hold_parts; i++)
        if (z->hold_rx[i].buf) any_rx = 1;
    if (any_rx) { /* same total length both ways; a NULL buf skips those bytes */
        for (i = 0; i < z->hold_parts; i++) rb[nr++] = z->hold_rx[i];
        rb[nr].buf = rx;
        rb[nr].len = len;
        nr++;
    }
    ts.buffers = tb;
    ts.count = nt;
    rs.buffers = rb;
    rs.count = nr;
    r = spi_transceive_dt(spec, &ts, any_rx ? &rs : NULL);
    return r < 0 ? accel_zephyr_fail(z, r) : ACCEL_OK;
}

accel_status accel_zephyr_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                       size_t len, unsigned flags)
{
    accel_zephyr *z = (accel_zephyr *)user;
    const struct spi_dt_spec *spec;
    accel_status st;
    if (!z) return ACCEL_E_NULL;
    if (cs >= ACCEL_ZEPHYR_MAX_SPI || (z->hold_parts && cs != z->hold_cs)) {
        zephyr_drop_hold(z); /* a frame must not continue on another device */
        return cs >= ACCEL_ZEPHYR_MAX_SPI ? ACCEL_E_ARG : ACCEL_E_STATE;
    }
    spec = z->spi[cs];
    if (!spec) {
        zephyr_drop_hold(z);
        return ACCEL_E_CLOSED;
    }
    if (flags & ACCEL_SPI_KEEP_CS) {
        if (!len) return ACCEL_E_ZERO_LENGTH; /* a release takes no flags */
        if (len > ACCEL_ZEPHYR_SPI_HOLD_BYTES - z->hold_len ||
            z->hold_parts >= ACCEL_ZEPHYR_SPI_MAX_BUFS - 1) {
            zephyr_drop_hold(z);
            return ACCEL_E_TOO_LONG;
        }
        if (tx) memcpy(z->hold_tx + z->hold_len, tx, len);
        else memset(z->hold_tx + z->hold_len, 0, len);
        z->hold_rx[z->hold_parts].buf = rx;
        z->hold_rx[z->hold_parts].len = len;
        z->hold_parts++;
        z->hold_len += len;
        z->hold_cs = cs;
        return ACCEL_OK;
    }
    /* len 0 ends a held transaction: the held parts go out as the whole frame; with none
       held there is nothing to clock and no frame at all */
    if (!len && !z->hold_parts) return ACCEL_OK;
    st = zephyr_spi_send(z, spec, tx, rx, len);
    zephyr_drop_hold(z); /* the transaction is over, whatever its outcome */
    return st;
}
#else
accel_status accel_zephyr_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                       size_t len, unsigned flags)
{
    (void)user, (void)cs, (void)tx, (void)rx, (void)len, (void)flags;
    return ACCEL_E_UNSUPPORTED;
}
#endif

/* ---------------------------------------------------------------- I2C */
#ifdef CONFIG_I2C
accel_status accel_zephyr_i2c_attach(accel_zephyr *z, const struct i2c_dt_spec *spec)
{
    unsigned i, slot = ACCEL_ZEPHYR_MAX_I2C;
    if (!z || !spec) return ACCEL_E_NULL;
    for (i = 0; i < ACCEL_ZEPHYR_MAX_I2C; i++) {
        if (z->i2c[i] && z->i2c[i]->addr == spec->addr) return ACCEL_E_BUSY;
        if (!z->i2c[i] && slot == ACCEL_ZEPHYR_MAX_I2C) slot = i;
    }
    if (slot == ACCEL_ZEPHYR_MAX_I2C) return ACCEL_E_FULL;
    if (!i2c_is_ready_dt(spec)) return ACCEL_E_NO_DEVICE;
    z->i2c[slot] = spec;
    return ACCEL_OK;
}

accel_status accel_zephyr_i2c_write_read(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                         uint8_t *r, size_t rlen)
{
    accel_zephyr *z = (accel_zephyr *)user;
    const struct i2c_dt_spec *spec = NULL;
    unsigned i, any = 0;
    int ret;
    if (!z) return ACCEL_E_NULL;
    for (i = 0; i < ACCEL_ZEPHYR_MAX_I2C; i++) {
        if (!z->i2c[i]) continue;
        any = 1;
        if (z->i2c[i]->addr == addr) spec = z->i2c[i];
    }
    if (!spec) return any ? ACCEL_E_ARG : ACCEL_E_CLOSED;
    if ((wlen && !w) || (rlen && !r)) return ACCEL_E_NULL;
    if (wlen > UINT32_MAX || rlen > UINT32_MAX) return ACCEL_E_TOO_LONG;
    /* one message sequence per call; a zero-length message is not sent at all */
    if (wlen && rlen) ret = i2c_write_read_dt(spec, w, wlen, r, rlen);
    else if (wlen) ret = i2c_write_dt(spec, w, (uint32_t)wlen);
    else if (rlen) ret = i2c_read_dt(spec, r, (uint32_t)rlen);
    else return ACCEL_E_ZERO_LENGTH;
    return ret < 0 ? accel_zephyr_fail(z, ret) : ACCEL_OK;
}
#else
accel_status accel_zephyr_i2c_write_read(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                         uint8_t *r, size_t rlen)
{
    (void)user, (void)addr, (void)w, (void)wlen, (void)r, (void)rlen;
    return ACCEL_E_UNSUPPORTED;
}
#endif

/* ---------------------------------------------------------------- GPIO and IRQ */
#ifdef CONFIG_GPIO
/* The line of a pin (or a status): ARG for a line out of range or of the other kind, CLOSED for
 * one not attached. */
static accel_status zephyr_line(accel_zephyr *z, unsigned line, uint8_t want_irq,
                                accel_zephyr_line **out)
{
    if (!z) return ACCEL_E_NULL;
    if (line >= ACCEL_ZEPHYR_MAX_LINES) return ACCEL_E_ARG;
    if (!z->lines[line].spec) return ACCEL_E_CLOSED;
    if (z->lines[line].is_irq != want_irq) return ACCEL_E_ARG;
    *out = &z->lines[line];
    return ACCEL_OK;
}

static accel_status zephyr_line_free(accel_zephyr *z, unsigned line,
                                     const struct gpio_dt_spec *spec)
{
    if (!z || !spec) return ACCEL_E_NULL;
    if (line >= ACCEL_ZEPHYR_MAX_LINES || spec->pin >= 32u) return ACCEL_E_ARG;
    if (z->lines[line].spec) return ACCEL_E_BUSY;
    if (!gpio_is_ready_dt(spec)) return ACCEL_E_NO_DEVICE;
    return ACCEL_OK;
}

accel_status accel_zephyr_output_attach(accel_zephyr *z, unsigned line,
                                        const struct gpio_dt_spec *spec)
{
    accel_zephyr_line *l;
    int r;
    accel_status st = zephyr_line_free(z, line, spec);
    if (st != ACCEL_OK) return st;
    r = gpio_pin_configure_dt(spec, GPIO_OUTPUT_INACTIVE);
    if (r < 0) return accel_zephyr_fail(z, r);
    l = &z->lines[line];
    l->is_irq = 0;
    l->mask = (uint32_t)1u << spec->pin;
    l->spec = spec;
    return ACCEL_OK;
}

/* Interrupt context: wake the waiter. */
static void zephyr_irq_callback(const struct device *port, struct gpio_callback *cb,
                                gpio_port_pins_t pins)
{
    /* cb is the first member of its line (through void *: the line is suitably aligned) */
    accel_zephyr_line *l = (accel_zephyr_line *)(void *)cb;
    (void)port;
    if (pins & l->mask) k_sem_give(&l->sem);
}

accel_status accel_zephyr_irq_attach(accel_zephyr *z, unsigned line,
                                     const struct gpio_dt_spec *spec)
{
    accel_zephyr_line *l;
    int r;
    accel_status st = zephyr_line_free(z, line, spec);
    if (st != ACCEL_OK) return st;
    l = &z->lines[line];
    r = gpio_pin_configure_dt(spec, GPIO_INPUT);
    if (r < 0) return accel_zephyr_fail(z, r);
    r = k_sem_init(&l->sem, 0, 1);
    if (r < 0) return accel_zephyr_fail(z, r);
    l->is_irq = 1;
    l->mask = (uint32_t)1u << spec->pin;
    gpio_init_callback(&l->cb, zephyr_irq_callback, l->mask);
    r = gpio_add_callback_dt(spec, &l->cb);
    if (r < 0) return accel_zephyr_fail(z, r);
    r = gpio_pin_interrupt_configure_dt(spec, GPIO_INT_EDGE_TO_ACTIVE);
    if (r < 0) {
        (void)gpio_remove_callback_dt(spec, &l->cb);
        return accel_zephyr_fail(z, r);
    }
    l->spec = spec;
    return ACCEL_OK;
}

accel_status accel_zephyr_gpio_set(void *user, unsigned line, unsigned level)
{
    accel_zephyr *z = (accel_zephyr *)user;
    accel_zephyr_line *l = NULL;
    int r;
    accel_status st = zephyr_line(z, line, 0, &l);
    if (st != ACCEL_OK) return st;
    if (level > 1u) return ACCEL_E_ARG;
    r = gpio_pin_set_dt(l->spec, (int)level);
    return r < 0 ? accel_zephyr_fail(z, r) : ACCEL_OK;
}

accel_status accel_zephyr_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_zephyr *z = (accel_zephyr *)user;
    accel_zephyr_line *l = NULL;
    int r;
    accel_status st = zephyr_line(z, line, 1, &l);
    if (st != ACCEL_OK) return st;
    /* Drop gives from edges already seen, then read the level: an edge after the reset either
       shows in the level or gives the semaphore again, so no wake-up is lost. */
    k_sem_reset(&l->sem);
    r = gpio_pin_get_dt(l->spec);
    if (r < 0) return accel_zephyr_fail(z, r);
    if (r > 0) return ACCEL_OK;
    if (timeout_ms == 0) return ACCEL_E_TIMEOUT;
    r = k_sem_take(&l->sem, K_MSEC(timeout_ms));
    if (r == 0) return ACCEL_OK;
    if (r == -EAGAIN || r == -EBUSY) return ACCEL_E_TIMEOUT;
    return accel_zephyr_fail(z, r);
}
#else
accel_status accel_zephyr_gpio_set(void *user, unsigned line, unsigned level)
{
    (void)user, (void)line, (void)level;
    return ACCEL_E_UNSUPPORTED;
}

accel_status accel_zephyr_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    (void)user, (void)line, (void)timeout_ms;
    return ACCEL_E_UNSUPPORTED;
}
#endif

/* ---------------------------------------------------------------- clock */
uint32_t accel_zephyr_now_ms(void *user)
{
    (void)user;
    /* the low 32 bits: accel_port.now_ms wraps at 2^32 */
    return (uint32_t)(uint64_t)k_uptime_get();
}

void accel_zephyr_delay_ms(void *user, uint32_t ms)
{
    (void)user;
    while (ms) {
        int32_t step = ms > (uint32_t)INT32_MAX ? INT32_MAX : (int32_t)ms;
        int32_t left = k_msleep(step);
        /* woken early (k_wakeup): sleep the rest */
        ms -= (uint32_t)step - (left > 0 && left <= step ? (uint32_t)left : 0u);
    }
}
