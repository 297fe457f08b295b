/* accel_sim.c - the simulator port (see accel_sim.h for usage). */
#include "accel_sim.h"

#define SIM_FILL 0xFFu /* what an idle bus reads as when a byte goes missing */

static void sim_move(uint8_t *d, const uint8_t *s, size_t n)
{
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        d += n;
        s += n;
        while (n--) *--d = *--s;
    }
}

static int sim_is_data_fault(accel_sim_fault_kind k)
{
    return k == ACCEL_SIM_FLIP || k == ACCEL_SIM_DROP || k == ACCEL_SIM_DUP ||
           k == ACCEL_SIM_TRUNCATE;
}

/* The fault (if any) that hits this call. dirs: which data directions the call carries. */
static accel_sim_fault *sim_fire(accel_sim *sim, unsigned op, uint32_t target, unsigned dirs,
                                 size_t to_dev_len)
{
    unsigned i;
    accel_sim_fault *hit = NULL;
    /* every fault counts every matching call, so skip/count of one fault do not depend on
       another; when two are due on the same call, the first added wins */
    for (i = 0; i < sim->nfaults; i++) {
        accel_sim_fault *f = &sim->faults[i];
        if (!(f->ops & op)) continue;
        if (f->has_target && f->target != target) continue;
        if (sim_is_data_fault(f->kind)) {
            if (!(f->dir & dirs)) continue;
            if (f->dir == ACCEL_SIM_TO_DEVICE && to_dev_len > ACCEL_SIM_SCRATCH) continue;
        }
        f->seen_++;
        if (f->seen_ <= f->skip) continue;
        if (f->count && f->hits_ >= f->count) continue;
        if (hit) continue;
        f->hits_++;
        sim->faults_fired++;
        hit = f;
    }
    return hit;
}

static void sim_tell_model(accel_sim *sim, uint32_t ms)
{
    if (ms && sim->model.delay_ms) sim->model.delay_ms(sim->model.user, ms);
}

void accel_sim_advance(accel_sim *sim, uint32_t ms)
{
    if (!sim) return;
    sim->now += ms;
    sim_tell_model(sim, ms);
}

/* FAIL and STALL: the model never sees the call. Returns 1 when f was one of them. */
static int sim_fail_or_stall(accel_sim *sim, const accel_sim_fault *f, uint32_t timeout_ms,
                             accel_status *st)
{
    if (!f) return 0;
    if (f->kind == ACCEL_SIM_FAIL) {
        *st = f->status ? f->status : ACCEL_E_IO;
        return 1;
    }
    if (f->kind == ACCEL_SIM_STALL) {
        uint32_t ms = f->stall_ms > timeout_ms ? f->stall_ms : timeout_ms;
        accel_sim_advance(sim, ms ? ms : 1u);
        *st = ACCEL_E_TIMEOUT;
        return 1;
    }
    return 0;
}

/* Rewrite to-device bytes into scratch. Returns the bytes and length the model should see. */
static const uint8_t *sim_to_device(accel_sim *sim, const accel_sim_fault *f, const uint8_t *src,
                                    size_t len, size_t *out_len)
{
    uint8_t *s = sim->scratch;
    size_t i;
    *out_len = len;
    if (!f || !sim_is_data_fault(f->kind) || f->dir != ACCEL_SIM_TO_DEVICE) return src;
    for (i = 0; i < len; i++) s[i] = src ? src[i] : 0u;
    switch (f->kind) {
    case ACCEL_SIM_FLIP:
        if (f->at < len) s[f->at] ^= f->mask ? f->mask : 1u;
        break;
    case ACCEL_SIM_DROP:
        if (f->at < len) {
            sim_move(s + f->at, s + f->at + 1, len - f->at - 1);
            *out_len = len - 1;
        }
        break;
    case ACCEL_SIM_DUP:
        if (f->at < len) {
            sim_move(s + f->at + 1, s + f->at, len - f->at);
            *out_len = len + 1;
        }
        break;
    case ACCEL_SIM_TRUNCATE:
        if (f->at < len) *out_len = f->at;
        break;
    default: break;
    }
    return s;
}

/* Corrupt from-device bytes of a fixed-length transfer (SPI, I2C read): the length stays. */
static void sim_from_device_fixed(const accel_sim_fault *f, uint8_t *b, size_t len)
{
    size_t i;
    if (!f || !b || !sim_is_data_fault(f->kind) || f->dir != ACCEL_SIM_FROM_DEVICE) return;
    if (f->at >= len) return;
    switch (f->kind) {
    case ACCEL_SIM_FLIP: b[f->at] ^= f->mask ? f->mask : 1u; break;
    case ACCEL_SIM_DROP:
        sim_move(b + f->at, b + f->at + 1, len - f->at - 1);
        b[len - 1] = SIM_FILL;
        break;
    case ACCEL_SIM_DUP: sim_move(b + f->at + 1, b + f->at, len - f->at - 1); break;
    case ACCEL_SIM_TRUNCATE:
        for (i = f->at; i < len; i++) b[i] = SIM_FILL;
        break;
    default: break;
    }
}

/* Corrupt from-device bytes of a variable-length transfer (USB IN): *done changes. */
static void sim_from_device_var(const accel_sim_fault *f, uint8_t *b, size_t cap, size_t *done)
{
    size_t n = *done;
    if (!f || !sim_is_data_fault(f->kind) || f->dir != ACCEL_SIM_FROM_DEVICE) return;
    if (f->at >= n) return;
    switch (f->kind) {
    case ACCEL_SIM_FLIP: b[f->at] ^= f->mask ? f->mask : 1u; break;
    case ACCEL_SIM_DROP:
        sim_move(b + f->at, b + f->at + 1, n - f->at - 1);
        *done = n - 1;
        break;
    case ACCEL_SIM_DUP:
        if (n < cap) {
            sim_move(b + f->at + 1, b + f->at, n - f->at);
            *done = n + 1;
        } else {
            sim_move(b + f->at + 1, b + f->at, n - f->at - 1);
        }
        break;
    case ACCEL_SIM_TRUNCATE: *done = f->at; break;
    default: break;
    }
}

static void sim_trace(accel_sim *sim, unsigned op, uint32_t target, const uint8_t *data,
                      size_t len, size_t done, uint64_t regv, accel_status st)
{
    accel_sim_event ev;
    if (!sim->trace) return;
    ev.op = op;
    ev.target = target;
    ev.request_type = 0;
    ev.value = 0;
    ev.index = 0;
    ev.data = data;
    ev.len = len;
    ev.done = done;
    ev.reg_value = regv;
    ev.status = st;
    sim->trace(sim->trace_ctx, &ev);
}

/* Every port callback: count the call, refuse on a closed port or a model without the op. */
static accel_status sim_enter(accel_sim *sim, int has_op)
{
    sim->calls++;
    if (sim->closed) return ACCEL_E_CLOSED;
    return has_op ? ACCEL_OK : ACCEL_E_UNSUPPORTED;
}

/* ------------------------------------------------------------------ port callbacks */
static accel_status sim_spi(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                            unsigned flags)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, sim->model.spi_transfer != NULL);
    if (st != ACCEL_OK) return st;
    if (len == 0) {
        /* the end of a KEEP_CS transaction: chip select high, nothing clocked */
        if (flags) {
            st = ACCEL_E_ZERO_LENGTH;
        } else if (sim->spi_held && sim->spi_held_cs == cs) {
            sim->spi_held = 0;
            st = sim->model.spi_transfer(sim->model.user, cs, NULL, NULL, 0, 0);
        }
        sim_trace(sim, ACCEL_SIM_OP_SPI, cs, NULL, 0, 0, 0, st);
        return st;
    }
    f = sim_fire(sim, ACCEL_SIM_OP_SPI, cs, ACCEL_SIM_TO_DEVICE | ACCEL_SIM_FROM_DEVICE, len);
    sim->spi_held = 0; /* set again below by a transfer that keeps chip select */
    if (sim_fail_or_stall(sim, f, 0, &st)) {
        /* a failed transfer ends the transaction: the device sees chip select go high */
        sim->model.spi_transfer(sim->model.user, cs, NULL, NULL, 0, 0);
    } else {
        size_t mlen;
        const uint8_t *mtx = sim_to_device(sim, f, tx, len, &mlen);
        if (mlen == len) {
            st = sim->model.spi_transfer(sim->model.user, cs, mtx, rx, len, flags);
        } else {
            /* the device clocked a different number of bytes than the host did */
            st = sim->model.spi_transfer(sim->model.user, cs, mtx, NULL, mlen, flags);
            if (rx) {
                size_t i;
                for (i = 0; i < len; i++) rx[i] = SIM_FILL;
            }
        }
        if (st == ACCEL_OK) sim_from_device_fixed(f, rx, len);
        if (st == ACCEL_OK && (flags & ACCEL_SPI_KEEP_CS)) {
            sim->spi_held = 1;
            sim->spi_held_cs = cs;
        }
    }
    sim_trace(sim, ACCEL_SIM_OP_SPI, cs, tx, len, len, 0, st);
    return st;
}

static accel_status sim_i2c(void *user, uint16_t addr, const uint8_t *w, size_t wlen, uint8_t *r,
                            size_t rlen)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, sim->model.i2c_write_read != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_I2C, addr,
                 (wlen ? ACCEL_SIM_TO_DEVICE : 0u) | (rlen ? ACCEL_SIM_FROM_DEVICE : 0u), wlen);
    if (!sim_fail_or_stall(sim, f, 0, &st)) {
        size_t mlen;
        const uint8_t *mw = sim_to_device(sim, f, w, wlen, &mlen);
        st = sim->model.i2c_write_read(sim->model.user, addr, mw, mlen, r, rlen);
        if (st == ACCEL_OK) sim_from_device_fixed(f, r, rlen);
    }
    sim_trace(sim, ACCEL_SIM_OP_I2C, addr, w, wlen, wlen, 0, st);
    return st;
}

static accel_status sim_usb_control(void *user, uint8_t request_type, uint8_t request,
                                    uint16_t value, uint16_t index, uint8_t *data,
                                    uint16_t length, uint32_t timeout_ms, size_t *done)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    int in = (request_type & ACCEL_USB_DIR_IN) != 0;
    *done = 0;
    st = sim_enter(sim, sim->model.usb_control != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_USB_CONTROL, request,
                 in ? ACCEL_SIM_FROM_DEVICE : ACCEL_SIM_TO_DEVICE, in ? 0u : length);
    if (!sim_fail_or_stall(sim, f, timeout_ms, &st)) {
        if (in) {
            st = sim->model.usb_control(sim->model.user, request_type, request, value, index,
                                        data, length, timeout_ms, done);
            if (st == ACCEL_OK) sim_from_device_var(f, data, length, done);
        } else {
            size_t mlen;
            const uint8_t *md = sim_to_device(sim, f, data, length, &mlen);
            /* control OUT data is const to the model in spirit; it gets the scratch copy */
            st = sim->model.usb_control(sim->model.user, request_type, request, value, index,
                                        (uint8_t *)(uintptr_t)md, (uint16_t)mlen, timeout_ms,
                                        done);
        }
        if (st == ACCEL_E_TIMEOUT) accel_sim_advance(sim, timeout_ms);
    }
    if (sim->trace) {
        accel_sim_event ev;
        ev.op = ACCEL_SIM_OP_USB_CONTROL;
        ev.target = request;
        ev.request_type = request_type;
        ev.value = value;
        ev.index = index;
        ev.data = data;
        ev.len = length;
        ev.done = *done;
        ev.reg_value = 0;
        ev.status = st;
        sim->trace(sim->trace_ctx, &ev);
    }
    return st;
}

static accel_status sim_bulk_out(void *user, uint8_t ep, const uint8_t *data, size_t len,
                                 uint32_t timeout_ms, size_t *done)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    *done = 0;
    st = sim_enter(sim, sim->model.usb_bulk_out != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_USB_BULK_OUT, ep, ACCEL_SIM_TO_DEVICE, len);
    if (!sim_fail_or_stall(sim, f, timeout_ms, &st)) {
        size_t mlen, mdone = 0;
        const uint8_t *md = sim_to_device(sim, f, data, len, &mlen);
        st = sim->model.usb_bulk_out(sim->model.user, ep, md, mlen, timeout_ms, &mdone);
        /* the host's count: what left the host, capped at its own length */
        *done = mdone > len ? len : mdone;
        if (st == ACCEL_E_TIMEOUT) accel_sim_advance(sim, timeout_ms);
    }
    sim_trace(sim, ACCEL_SIM_OP_USB_BULK_OUT, ep, data, len, *done, 0, st);
    return st;
}

static accel_status sim_bulk_in(void *user, uint8_t ep, uint8_t *data, size_t len,
                                uint32_t timeout_ms, size_t *done)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    *done = 0;
    st = sim_enter(sim, sim->model.usb_bulk_in != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_USB_BULK_IN, ep, ACCEL_SIM_FROM_DEVICE, 0);
    if (!sim_fail_or_stall(sim, f, timeout_ms, &st)) {
        st = sim->model.usb_bulk_in(sim->model.user, ep, data, len, timeout_ms, done);
        if (*done > len) *done = len; /* a model bug must not become a host overflow */
        if (st == ACCEL_OK) sim_from_device_var(f, data, len, done);
        if (st == ACCEL_E_TIMEOUT) accel_sim_advance(sim, timeout_ms);
    }
    sim_trace(sim, ACCEL_SIM_OP_USB_BULK_IN, ep, data, len, *done, 0, st);
    return st;
}

/* FLIP on a register value: byte `at` of its little-endian form. */
static uint64_t sim_flip_value(const accel_sim_fault *f, uint64_t v)
{
    if (f && f->kind == ACCEL_SIM_FLIP && f->at < 8)
        v ^= (uint64_t)(f->mask ? f->mask : 1u) << (8u * (unsigned)f->at);
    return v;
}

static accel_status sim_reg_read(accel_sim *sim, uint32_t off, uint64_t *v, int wide)
{
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, wide ? sim->model.reg_read64 != NULL : sim->model.reg_read32 != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_REG_READ, off, ACCEL_SIM_FROM_DEVICE, 0);
    if (!sim_fail_or_stall(sim, f, 0, &st)) {
        if (wide) {
            st = sim->model.reg_read64(sim->model.user, off, v);
        } else {
            uint32_t v32 = 0;
            st = sim->model.reg_read32(sim->model.user, off, &v32);
            *v = v32;
        }
        if (st == ACCEL_OK) *v = sim_flip_value(f, *v);
        if (!wide) *v &= 0xFFFFFFFFu;
    }
    sim_trace(sim, ACCEL_SIM_OP_REG_READ, off, NULL, wide ? 8u : 4u, 0, *v, st);
    return st;
}

static accel_status sim_reg_write(accel_sim *sim, uint32_t off, uint64_t v, int wide)
{
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, wide ? sim->model.reg_write64 != NULL : sim->model.reg_write32 != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_REG_WRITE, off, ACCEL_SIM_TO_DEVICE, 0);
    if (!sim_fail_or_stall(sim, f, 0, &st)) {
        uint64_t mv = sim_flip_value(f, v);
        st = wide ? sim->model.reg_write64(sim->model.user, off, mv)
                  : sim->model.reg_write32(sim->model.user, off, (uint32_t)(mv & 0xFFFFFFFFu));
    }
    sim_trace(sim, ACCEL_SIM_OP_REG_WRITE, off, NULL, wide ? 8u : 4u, 0, v, st);
    return st;
}

static accel_status sim_rr32(void *user, uint32_t off, uint32_t *v)
{
    uint64_t w = 0;
    accel_status st = sim_reg_read((accel_sim *)user, off, &w, 0);
    *v = (uint32_t)(w & 0xFFFFFFFFu);
    return st;
}
static accel_status sim_rr64(void *user, uint32_t off, uint64_t *v)
{
    return sim_reg_read((accel_sim *)user, off, v, 1);
}
static accel_status sim_rw32(void *user, uint32_t off, uint32_t v)
{
    return sim_reg_write((accel_sim *)user, off, v, 0);
}
static accel_status sim_rw64(void *user, uint32_t off, uint64_t v)
{
    return sim_reg_write((accel_sim *)user, off, v, 1);
}

static accel_status sim_gpio(void *user, unsigned line, unsigned level)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, sim->model.gpio_set != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_GPIO, line, 0, 0);
    if (!sim_fail_or_stall(sim, f, 0, &st)) st = sim->model.gpio_set(sim->model.user, line, level);
    sim_trace(sim, ACCEL_SIM_OP_GPIO, line, NULL, 0, 0, level, st);
    return st;
}

static accel_status sim_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_sim *sim = (accel_sim *)user;
    accel_sim_fault *f;
    accel_status st;
    st = sim_enter(sim, sim->model.wait_irq != NULL);
    if (st != ACCEL_OK) return st;
    f = sim_fire(sim, ACCEL_SIM_OP_WAIT_IRQ, line, 0, 0);
    if (!sim_fail_or_stall(sim, f, timeout_ms, &st)) {
        uint32_t waited = 0;
        for (;;) {
            st = sim->model.wait_irq(sim->model.user, line, 0);
            if (st != ACCEL_E_TIMEOUT) break; /* asserted, or a model error */
            if (waited >= timeout_ms) break;
            accel_sim_advance(sim, 1);
            waited++;
        }
    }
    sim_trace(sim, ACCEL_SIM_OP_WAIT_IRQ, line, NULL, 0, 0, 0, st);
    return st;
}

static uint32_t sim_now(void *user) { return ((accel_sim *)user)->now; }
static void sim_delay(void *user, uint32_t ms) { accel_sim_advance((accel_sim *)user, ms); }

/* ------------------------------------------------------------------ setup */
accel_status accel_sim_init(accel_sim *sim)
{
    unsigned char *p = (unsigned char *)sim;
    size_t i;
    if (!sim) return ACCEL_E_NULL;
    for (i = 0; i < sizeof *sim; i++) p[i] = 0;
    sim->port.user = sim;
    sim->port.spi_transfer = sim_spi;
    sim->port.i2c_write_read = sim_i2c;
    sim->port.usb_control = sim_usb_control;
    sim->port.usb_bulk_out = sim_bulk_out;
    sim->port.usb_bulk_in = sim_bulk_in;
    sim->port.reg_read32 = sim_rr32;
    sim->port.reg_write32 = sim_rw32;
    sim->port.reg_read64 = sim_rr64;
    sim->port.reg_write64 = sim_rw64;
    sim->port.gpio_set = sim_gpio;
    sim->port.wait_irq = sim_wait_irq;
    sim->port.now_ms = sim_now;
    sim->port.delay_ms = sim_delay;
    return ACCEL_OK;
}

accel_status accel_sim_attach(accel_sim *sim, const accel_port *model)
{
    if (!sim || !model) return ACCEL_E_NULL;
    sim->model = *model;
    return ACCEL_OK;
}

accel_status accel_sim_add_fault(accel_sim *sim, const accel_sim_fault *f)
{
    if (!sim || !f) return ACCEL_E_NULL;
    if (f->kind < ACCEL_SIM_FLIP || f->kind > ACCEL_SIM_STALL || f->ops == 0) return ACCEL_E_ARG;
    if (sim_is_data_fault(f->kind) &&
        f->dir != ACCEL_SIM_TO_DEVICE && f->dir != ACCEL_SIM_FROM_DEVICE)
        return ACCEL_E_ARG;
    if (sim->nfaults >= ACCEL_SIM_MAX_FAULTS) return ACCEL_E_FULL;
    sim->faults[sim->nfaults] = *f;
    sim->faults[sim->nfaults].hits_ = 0;
    sim->faults[sim->nfaults].seen_ = 0;
    sim->nfaults++;
    return ACCEL_OK;
}

void accel_sim_clear_faults(accel_sim *sim)
{
    if (sim) sim->nfaults = 0;
}
void accel_sim_close(accel_sim *sim)
{
    if (sim) sim->closed = 1;
}
void accel_sim_reopen(accel_sim *sim)
{
    if (sim) sim->closed = 0;
}

void accel_sim_set_trace(accel_sim *sim, void (*fn)(void *ctx, const accel_sim_event *ev),
                         void *ctx)
{
    if (!sim) return;
    sim->trace = fn;
    sim->trace_ctx = ctx;
}
