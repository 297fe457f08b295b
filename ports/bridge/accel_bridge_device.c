/* accel_bridge_device.c - the device side of the accel bridge (see accel_bridge_device.h). */
#include "accel_bridge_device.h"
#include <pb_decode.h>
#include <pb_encode.h>
#include <string.h>

static uint16_t accel__bridge_caps(const accel_port *p)
{
    unsigned c = 0;
    if (p->spi_transfer) c |= ACCEL_BRIDGE_CAP_SPI;
    if (p->i2c_write_read) c |= ACCEL_BRIDGE_CAP_I2C;
    if (p->gpio_set) c |= ACCEL_BRIDGE_CAP_GPIO_SET;
    if (p->wait_irq) c |= ACCEL_BRIDGE_CAP_WAIT_IRQ;
    if (p->now_ms) c |= ACCEL_BRIDGE_CAP_TIME;
    if (p->delay_ms || p->now_ms) c |= ACCEL_BRIDGE_CAP_DELAY; /* busy-waits on now_ms */
    if (p->reg_read32) c |= ACCEL_BRIDGE_CAP_REG_READ32;
    if (p->reg_write32) c |= ACCEL_BRIDGE_CAP_REG_WRITE32;
    if (p->reg_read64) c |= ACCEL_BRIDGE_CAP_REG_READ64;
    if (p->reg_write64) c |= ACCEL_BRIDGE_CAP_REG_WRITE64;
    return (uint16_t)c;
}

accel_status accel_bridge_device_init(accel_bridge_device *d, const accel_bridge_device_config *c)
{
    if (!d || !c || !c->port || !c->write) return ACCEL_E_NULL;
    memset(d, 0, sizeof *d);
    d->port = c->port;
    d->write = c->write;
    d->port_error = c->port_error;
    d->on_execute = c->on_execute;
    d->user = c->user;
    d->caps = accel__bridge_caps(c->port);
    d->max_data = (uint16_t)(c->max_data == 0 || c->max_data > ACCEL_BRIDGE_MAX_DATA
                                 ? ACCEL_BRIDGE_MAX_DATA
                                 : c->max_data);
    d->sess_max = d->max_data;
    return accel_bridge_framer_init(&d->rx, d->u.frame, sizeof d->u.frame);
}

void accel_bridge_device_reset(accel_bridge_device *d)
{
    if (!d) return;
    d->have_session = 0;
    d->have_kept = 0;
    d->kept_len = 0;
    accel_bridge_framer_reset(&d->rx);
}

static void accel__bridge_dev_send(accel_bridge_device *d, const uint8_t *body, size_t len,
                                   accel_status *wst)
{
    accel_status st = accel_bridge_frame_write(body, len, d->write, d->user);
    if (st != ACCEL_OK) {
        d->stats.write_errors++;
        if (*wst == ACCEL_OK) *wst = st;
    }
}

/* An answer that is not kept (nothing ran): seq, status and, for a version mismatch, the
 * device's HelloInfo. The received frame is decoded already, so the response struct that
 * overlays it is free; the encoding is small enough for the stack. */
static void accel__bridge_dev_refuse(accel_bridge_device *d, uint32_t seq, accel_status status,
                                     int with_info, accel_status *wst)
{
    uint8_t buf[40];
    accel_bridge_Response *r = &d->u.rsp;
    pb_ostream_t os;
    size_t len;
    memset(r, 0, sizeof *r);
    r->seq = seq;
    r->status = (int32_t)status;
    if (with_info) {
        r->which_result = accel_bridge_Response_hello_tag;
        r->result.hello.version = ACCEL_BRIDGE_VERSION;
        r->result.hello.max_data = d->max_data;
        r->result.hello.caps = d->caps;
    }
    os = pb_ostream_from_buffer(buf, sizeof buf - ACCEL_BRIDGE_CRC_SIZE);
    if (!pb_encode(&os, accel_bridge_Response_fields, r)) return; /* cannot happen: bounded */
    if (accel_bridge_frame_seal(buf, os.bytes_written, sizeof buf, &len) == ACCEL_OK)
        accel__bridge_dev_send(d, buf, len, wst);
}

/* Run d->req on the port into d->u.rsp. */
static accel_status accel__bridge_dev_run(accel_bridge_device *d)
{
    const accel_bridge_Request *q = &d->req;
    accel_bridge_Response *r = &d->u.rsp;
    const accel_port *p = d->port;
    switch (q->which_op) {
    case accel_bridge_Request_hello_tag:
        r->which_result = accel_bridge_Response_hello_tag;
        r->result.hello.version = ACCEL_BRIDGE_VERSION;
        r->result.hello.caps = d->caps;
        if (q->op.hello.version != ACCEL_BRIDGE_VERSION) {
            /* a device serves its own version only, inside a session too; the session and its
               limit stay as they were */
            r->result.hello.max_data = d->max_data;
            return ACCEL_BRIDGE_E_VERSION;
        }
        /* the smaller of the two limits holds for the session (0: the host states none) */
        d->sess_max = q->op.hello.max_data != 0 && q->op.hello.max_data < d->max_data
                          ? q->op.hello.max_data
                          : d->max_data;
        r->result.hello.max_data = d->sess_max;
        return ACCEL_OK;
    case accel_bridge_Request_spi_tag: {
        const accel_bridge_SpiTransfer *s = &q->op.spi;
        uint8_t *rx = NULL;
        accel_status st;
        if (s->len > d->sess_max) return ACCEL_E_TOO_LONG;
        if (s->tx.size != 0 && s->tx.size != s->len) return ACCEL_E_MALFORMED;
        if (s->read) {
            r->which_result = accel_bridge_Response_data_tag;
            r->result.data.size = s->len;
            rx = r->result.data.bytes;
        }
        if (s->len == 0) {
            /* end a transaction left open (the host lost track of it), else nothing to do */
            if (!d->cs_held || d->held_cs != s->cs || s->keep_cs) return ACCEL_OK;
            d->cs_held = 0;
            return accel_port_spi_transfer(p, s->cs, NULL, NULL, 0, 0u);
        }
        st = accel_port_spi_transfer(p, s->cs, s->tx.size ? s->tx.bytes : NULL, rx, s->len,
                                     s->keep_cs ? ACCEL_SPI_KEEP_CS : 0u);
        /* a failed transfer releases chip select (port contract) */
        d->cs_held = (uint8_t)(st == ACCEL_OK && s->keep_cs);
        d->held_cs = s->cs;
        return st;
    }
    case accel_bridge_Request_i2c_tag: {
        const accel_bridge_I2cWriteRead *s = &q->op.i2c;
        if (s->write.size > d->sess_max || s->read_len > d->sess_max) return ACCEL_E_TOO_LONG;
        r->which_result = accel_bridge_Response_data_tag;
        r->result.data.size = s->read_len;
        return accel_port_i2c_write_read(p, s->addr, s->write.size ? s->write.bytes : NULL,
                                         s->write.size, s->read_len ? r->result.data.bytes : NULL,
                                         s->read_len);
    }
    case accel_bridge_Request_gpio_set_tag:
        return accel_port_gpio_set(p, q->op.gpio_set.line, q->op.gpio_set.level);
    case accel_bridge_Request_wait_irq_tag:
        /* bounded, so that the device answers again within a known time */
        if (q->op.wait_irq.timeout_ms > ACCEL_BRIDGE_MAX_WAIT_MS) return ACCEL_E_ARG;
        return accel_port_wait_irq(p, q->op.wait_irq.line, q->op.wait_irq.timeout_ms);
    case accel_bridge_Request_delay_tag:
        if (q->op.delay.ms > ACCEL_BRIDGE_MAX_WAIT_MS) return ACCEL_E_ARG;
        return accel_port_delay_ms(p, q->op.delay.ms);
    case accel_bridge_Request_time_tag:
        r->which_result = accel_bridge_Response_now_ms_tag;
        return accel_port_now_ms(p, &r->result.now_ms);
    case accel_bridge_Request_reg_read_tag: {
        accel_status st;
        r->which_result = accel_bridge_Response_value_tag;
        if (q->op.reg_read.wide) return accel_port_reg_read64(p, q->op.reg_read.offset,
                                                              &r->result.value);
        {
            uint32_t v = 0;
            st = accel_port_reg_read32(p, q->op.reg_read.offset, &v);
            r->result.value = v;
        }
        return st;
    }
    case accel_bridge_Request_reg_write_tag:
        if (q->op.reg_write.wide)
            return accel_port_reg_write64(p, q->op.reg_write.offset, q->op.reg_write.value);
        if (q->op.reg_write.value > 0xFFFFFFFFu) return ACCEL_E_ARG;
        return accel_port_reg_write32(p, q->op.reg_write.offset,
                                      (uint32_t)q->op.reg_write.value);
    default:
        return ACCEL_E_UNSUPPORTED; /* no operation, or one a newer protocol added */
    }
}

static void accel__bridge_dev_execute(accel_bridge_device *d, accel_status *wst)
{
    accel_bridge_Response *r = &d->u.rsp; /* the frame it overlays is decoded already */
    pb_ostream_t os;
    accel_status st;
    memset(r, 0, sizeof *r);
    r->seq = d->req.seq;
    st = accel__bridge_dev_run(d);
    if (st != ACCEL_OK) {
        /* a failed operation returns no data; a version refusal says which version is served */
        if (st != ACCEL_BRIDGE_E_VERSION) r->which_result = 0;
        r->port_error = d->port_error ? d->port_error(d->user) : 0;
    }
    r->status = (int32_t)st;
    d->stats.executed++;
    d->last_seq = d->req.seq;
    if (d->on_execute) d->on_execute(d->user, &d->req, r);
    os = pb_ostream_from_buffer(d->kept, sizeof d->kept - ACCEL_BRIDGE_CRC_SIZE);
    if (!pb_encode(&os, accel_bridge_Response_fields, r) ||
        accel_bridge_frame_seal(d->kept, os.bytes_written, sizeof d->kept, &d->kept_len) !=
            ACCEL_OK) {
        /* cannot happen (every field is bounded); never answer with a half-written message */
        d->have_kept = 0;
        return;
    }
    d->have_kept = 1;
    accel__bridge_dev_send(d, d->kept, d->kept_len, wst);
}

static void accel__bridge_dev_frame(accel_bridge_device *d, size_t n, accel_status *wst)
{
    pb_istream_t is = pb_istream_from_buffer(d->u.frame, n);
    uint32_t ahead;
    d->stats.frames++;
    if (!pb_decode(&is, accel_bridge_Request_fields, &d->req)) {
        d->stats.decode_errors++;
        accel__bridge_dev_refuse(d, d->req.seq, ACCEL_E_MALFORMED, 0, wst);
        return;
    }
    if (d->req.which_op == accel_bridge_Request_hello_tag &&
        (!d->have_session || d->req.op.hello.session != d->session)) {
        /* a new session: its hello runs whatever the sequence number */
        if (d->req.op.hello.version != ACCEL_BRIDGE_VERSION) {
            accel__bridge_dev_refuse(d, d->req.seq, ACCEL_BRIDGE_E_VERSION, 1, wst);
            return;
        }
        d->have_session = 1;
        d->session = d->req.op.hello.session;
        accel__bridge_dev_execute(d, wst);
        return;
    }
    if (!d->have_session) {
        d->stats.no_session++;
        accel__bridge_dev_refuse(d, d->req.seq, ACCEL_BRIDGE_E_NO_SESSION, 0, wst);
        return;
    }
    ahead = d->req.seq - d->last_seq; /* wraps: sequence numbers are modulo 2^32 */
    if (ahead == 0) {
        /* a retry: the request ran already; its answer again, never a second run */
        d->stats.repeats++;
        if (d->have_kept) accel__bridge_dev_send(d, d->kept, d->kept_len, wst);
        return;
    }
    if (ahead >= 0x80000000u) {
        d->stats.stale++; /* an old copy that arrived late: its request ran or was given up */
        return;
    }
    accel__bridge_dev_execute(d, wst);
}

accel_status accel_bridge_device_feed(accel_bridge_device *d, const uint8_t *data, size_t n)
{
    accel_status wst = ACCEL_OK;
    size_t i;
    if (!d || (!data && n)) return ACCEL_E_NULL;
    for (i = 0; i < n; i++) {
        size_t len = 0;
        accel_status st = accel_bridge_framer_put(&d->rx, data[i], &len);
        if (st == ACCEL_OK) accel__bridge_dev_frame(d, len, &wst);
        else if (st == ACCEL_E_CRC) d->stats.crc_errors++;
        else if (st != ACCEL_E_EMPTY) d->stats.frame_errors++;
    }
    return wst;
}
