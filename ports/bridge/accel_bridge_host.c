/* accel_bridge_host.c - the host side of the accel bridge (see accel_bridge_host.h). */
#include "accel_bridge_host.h"
#include <pb_decode.h>
#include <pb_encode.h>
#include <string.h>

#define ACCEL__BRIDGE_ANSWER_MS 200u
#define ACCEL__BRIDGE_MAX_SENDS 5u

static uint32_t accel__bridge_host_now(const accel_bridge_host *h)
{
    return h->link.now_ms ? h->link.now_ms(h->link.user) : 0u;
}

/* ------------------------------------------------------------------ capture records */
static accel_status accel__bridge_varint(const uint8_t *b, size_t len, size_t *pos, uint32_t *v)
{
    uint32_t x = 0;
    unsigned shift = 0;
    for (;;) {
        uint8_t c;
        if (*pos >= len) return ACCEL_E_TRUNCATED;
        c = b[(*pos)++];
        if (shift == 28 && (c & 0xF0u)) return ACCEL_E_MALFORMED; /* beyond 32 bits */
        x |= (uint32_t)(c & 0x7Fu) << shift;
        if (!(c & 0x80u)) break;
        shift += 7;
    }
    *v = x;
    return ACCEL_OK;
}

accel_status accel_bridge_capture_record(const uint8_t *buf, size_t len, uint32_t *field,
                                         const uint8_t **msg, size_t *msg_len, size_t *used)
{
    size_t pos = 0;
    uint32_t tag = 0, n = 0;
    accel_status st;
    if (!buf || !field || !msg || !msg_len || !used) return ACCEL_E_NULL;
    if (len == 0) return ACCEL_E_TRUNCATED;
    st = accel__bridge_varint(buf, len, &pos, &tag);
    if (st != ACCEL_OK) return st;
    if ((tag & 7u) != 2u || ((tag >> 3) != 1u && (tag >> 3) != 2u)) return ACCEL_E_MALFORMED;
    st = accel__bridge_varint(buf, len, &pos, &n);
    if (st != ACCEL_OK) return st;
    if (n > len - pos) return ACCEL_E_TRUNCATED;
    *field = tag >> 3;
    *msg = buf + pos;
    *msg_len = n;
    *used = pos + n;
    return ACCEL_OK;
}

accel_status accel_bridge_capture_encode(uint32_t field, const void *msg, uint8_t *dst,
                                         size_t cap, size_t *len)
{
    pb_ostream_t os;
    const pb_msgdesc_t *desc;
    if (!msg || !dst || !len) return ACCEL_E_NULL;
    if (field == 1u) desc = accel_bridge_CaptureInfo_fields;
    else if (field == 2u) desc = accel_bridge_Exchange_fields;
    else return ACCEL_E_ARG;
    os = pb_ostream_from_buffer(dst, cap);
    if (!pb_encode_tag(&os, PB_WT_STRING, field) || !pb_encode_submessage(&os, desc, msg)) {
        *len = 0;
        return ACCEL_E_BUFFER_TOO_SMALL;
    }
    *len = os.bytes_written;
    return ACCEL_OK;
}

static void accel__bridge_capture_put(accel_bridge_host *h, uint32_t field, const void *msg)
{
    size_t len;
    if (!h->capture) return;
    if (accel_bridge_capture_encode(field, msg, h->record, sizeof h->record, &len) != ACCEL_OK ||
        h->capture(h->capture_user, h->record, len) != ACCEL_OK)
        h->stats.capture_errors++;
}

/* ------------------------------------------------------------------ one exchange over the link */
static uint32_t accel__bridge_op_ms(const accel_bridge_Request *q)
{
    if (q->which_op == accel_bridge_Request_wait_irq_tag) return q->op.wait_irq.timeout_ms;
    if (q->which_op == accel_bridge_Request_delay_tag) return q->op.delay.ms;
    return 0;
}

static accel_status accel__bridge_link_exchange(accel_bridge_host *h,
                                                const accel_bridge_Request *req,
                                                accel_bridge_Response *rsp, uint32_t *sends)
{
    pb_ostream_t os = pb_ostream_from_buffer(h->body, sizeof h->body - ACCEL_BRIDGE_CRC_SIZE);
    size_t body_len, wire_len;
    uint32_t wait, op = accel__bridge_op_ms(req);
    unsigned send;
    accel_status st;
    *sends = 0;
    if (!pb_encode(&os, accel_bridge_Request_fields, req)) return ACCEL_E_TOO_LONG;
    st = accel_bridge_frame_seal(h->body, os.bytes_written, sizeof h->body, &body_len);
    if (st == ACCEL_OK)
        st = accel_bridge_frame_encode(h->body, body_len, h->wire, sizeof h->wire, &wire_len);
    if (st != ACCEL_OK) return st;
    wait = op > 0xFFFFFFFFu - h->answer_ms ? 0xFFFFFFFFu : op + h->answer_ms;
    for (send = 1; send <= h->max_sends; send++) {
        uint32_t start;
        if (send > 1) h->stats.retries++;
        h->stats.sends++;
        *sends = send;
        st = h->link.write(h->link.user, h->wire, wire_len);
        if (st != ACCEL_OK) return st;
        start = accel__bridge_host_now(h);
        for (;;) {
            uint32_t elapsed;
            size_t got = 0;
            while (h->in_pos < h->in_len) {
                size_t n = 0;
                accel_status fs = accel_bridge_framer_put(&h->rx, h->in[h->in_pos++], &n);
                if (fs == ACCEL_OK) {
                    pb_istream_t is = pb_istream_from_buffer(h->rx_buf, n);
                    if (!pb_decode(&is, accel_bridge_Response_fields, rsp)) {
                        h->stats.decode_errors++;
                    } else if (rsp->seq != req->seq) {
                        h->stats.stale++; /* an answer to an earlier send of another request */
                    } else {
                        return ACCEL_OK;
                    }
                } else if (fs == ACCEL_E_CRC) {
                    h->stats.crc_errors++;
                } else if (fs != ACCEL_E_EMPTY) {
                    h->stats.frame_errors++;
                }
            }
            elapsed = accel__bridge_host_now(h) - start;
            if (elapsed >= wait) break;
            st = h->link.read(h->link.user, h->in, sizeof h->in, &got, wait - elapsed);
            if (st == ACCEL_E_TIMEOUT || (st == ACCEL_OK && got == 0)) break;
            if (st != ACCEL_OK) return st;
            h->in_pos = 0;
            h->in_len = got > sizeof h->in ? sizeof h->in : got;
        }
    }
    h->stats.link_timeouts++;
    return ACCEL_BRIDGE_E_LINK_TIMEOUT;
}

accel_status accel_bridge_host_call(accel_bridge_host *h, accel_bridge_Request *req,
                                    accel_bridge_Response *rsp)
{
    accel_status st;
    uint32_t sends = 0, at;
    if (!h || !req || !rsp) return ACCEL_E_NULL;
    req->seq = ++h->seq;
    at = accel__bridge_host_now(h) - h->t0;
    if (h->exchange) st = h->exchange(h->exchange_ctx, req, rsp, &sends);
    else st = accel__bridge_link_exchange(h, req, rsp, &sends);
    h->stats.requests++;
    if (st != ACCEL_OK) {
        /* the caller sees the link's failure as the status of an answer the host made */
        memset(rsp, 0, sizeof *rsp);
        rsp->seq = req->seq;
        rsp->status = (int32_t)st;
    }
    if (h->capture) {
        accel_bridge_Exchange ex;
        memset(&ex, 0, sizeof ex);
        ex.has_request = 1;
        ex.request = *req;
        ex.has_response = 1;
        ex.response = *rsp;
        ex.host_ms = at;
        ex.sends = sends;
        ex.local = st != ACCEL_OK;
        accel__bridge_capture_put(h, 2u, &ex);
    }
    return st;
}

/* ------------------------------------------------------------------ port operations */
/* Run h->req: the status the caller gets. *link_failed: the device may not have seen it run. */
static accel_status accel__bridge_do(accel_bridge_host *h, pb_size_t want, int *link_failed)
{
    accel_status st = accel_bridge_host_call(h, &h->req, &h->rsp);
    int32_t s = h->rsp.status;
    *link_failed = st != ACCEL_OK;
    if (st != ACCEL_OK) {
        h->last_status = st;
        h->last_port_error = 0;
        return st;
    }
    if (s > 0 || s <= (int32_t)ACCEL_STATUS_MIN_) s = (int32_t)ACCEL_E_MALFORMED;
    if (s == (int32_t)ACCEL_BRIDGE_E_NO_SESSION) {
        h->stats.restarts++;
        h->need_hello = 1;
        *link_failed = 1;
    }
    if (s == ACCEL_OK && want && h->rsp.which_result != want) s = (int32_t)ACCEL_E_MALFORMED;
    if (s != ACCEL_OK) {
        h->last_status = (accel_status)s;
        h->last_port_error = h->rsp.port_error;
    }
    return (accel_status)s;
}

static void accel__bridge_fill_port(accel_bridge_host *h);

static accel_status accel__bridge_hello(accel_bridge_host *h)
{
    int lf;
    accel_status st;
    memset(&h->req, 0, sizeof h->req);
    h->req.which_op = accel_bridge_Request_hello_tag;
    h->req.op.hello.version = ACCEL_BRIDGE_VERSION;
    h->req.op.hello.session = h->session;
    h->req.op.hello.max_data = h->max_data;
    st = accel__bridge_do(h, accel_bridge_Response_hello_tag, &lf);
    if (h->rsp.which_result == accel_bridge_Response_hello_tag)
        h->version = h->rsp.result.hello.version;
    if (st == ACCEL_OK && h->rsp.result.hello.version != ACCEL_BRIDGE_VERSION)
        st = ACCEL_BRIDGE_E_VERSION;
    if (st == ACCEL_OK && h->rsp.result.hello.max_data == 0) st = ACCEL_E_MALFORMED;
    if (st != ACCEL_OK) {
        h->last_status = st;
        return st;
    }
    if (h->rsp.result.hello.max_data < h->max_data) h->max_data = h->rsp.result.hello.max_data;
    h->caps = h->rsp.result.hello.caps;
    h->need_hello = 0;
    accel__bridge_fill_port(h);
    return ACCEL_OK;
}

static accel_status accel__bridge_session(accel_bridge_host *h)
{
    return h->need_hello ? accel__bridge_hello(h) : ACCEL_OK;
}

static void accel__bridge_req(accel_bridge_host *h, pb_size_t op)
{
    memset(&h->req, 0, sizeof h->req);
    h->req.which_op = op;
}

static accel_status accel__bridge_spi(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                      size_t len, unsigned flags)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    size_t pos = 0;
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    if (h->cs_dirty) {
        /* a failed exchange may have left the device inside a transaction: end it */
        accel__bridge_req(h, accel_bridge_Request_spi_tag);
        h->req.op.spi.cs = h->dirty_cs;
        h->stats.cs_releases++;
        st = accel__bridge_do(h, 0, &lf);
        if (lf) return st;
        h->cs_dirty = 0;
    }
    do {
        size_t n = len - pos > h->max_data ? h->max_data : len - pos;
        accel_bridge_SpiTransfer *s;
        accel__bridge_req(h, accel_bridge_Request_spi_tag);
        s = &h->req.op.spi;
        s->cs = cs;
        s->len = (uint16_t)n;
        if (tx && n) {
            memcpy(s->tx.bytes, tx + pos, n);
            s->tx.size = (pb_size_t)n;
        }
        s->read = rx != NULL;
        s->keep_cs = pos + n < len || (flags & ACCEL_SPI_KEEP_CS);
        st = accel__bridge_do(h, rx ? accel_bridge_Response_data_tag : 0, &lf);
        if (st == ACCEL_OK && rx && h->rsp.result.data.size != n) st = ACCEL_E_MALFORMED;
        if (st != ACCEL_OK) {
            if (lf || st == ACCEL_E_MALFORMED) {
                h->cs_dirty = 1;
                h->dirty_cs = cs;
            }
            if (st == ACCEL_E_MALFORMED) h->last_status = st;
            return st;
        }
        if (rx && n) memcpy(rx + pos, h->rsp.result.data.bytes, n);
        pos += n;
    } while (pos < len);
    return ACCEL_OK;
}

static accel_status accel__bridge_i2c(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                      uint8_t *r, size_t rlen)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    /* one I2C transaction cannot be split (repeated start): it must fit one message */
    if (wlen > h->max_data || rlen > h->max_data) return ACCEL_E_TOO_LONG;
    accel__bridge_req(h, accel_bridge_Request_i2c_tag);
    h->req.op.i2c.addr = addr;
    if (wlen) memcpy(h->req.op.i2c.write.bytes, w, wlen);
    h->req.op.i2c.write.size = (pb_size_t)wlen;
    h->req.op.i2c.read_len = (uint16_t)rlen;
    st = accel__bridge_do(h, accel_bridge_Response_data_tag, &lf);
    if (st == ACCEL_OK && h->rsp.result.data.size != rlen) st = h->last_status = ACCEL_E_MALFORMED;
    if (st == ACCEL_OK && rlen) memcpy(r, h->rsp.result.data.bytes, rlen);
    return st;
}

static accel_status accel__bridge_gpio(void *user, unsigned line, unsigned level)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    if (line > 0xFFFFu || level > 0xFFu) return ACCEL_E_ARG;
    accel__bridge_req(h, accel_bridge_Request_gpio_set_tag);
    h->req.op.gpio_set.line = (uint16_t)line;
    h->req.op.gpio_set.level = (uint8_t)level;
    return accel__bridge_do(h, 0, &lf);
}

static accel_status accel__bridge_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    if (line > 0xFFFFu) return ACCEL_E_ARG;
    for (;;) {
        /* the device takes waits up to ACCEL_BRIDGE_MAX_WAIT_MS: a longer one goes in pieces */
        uint32_t part = timeout_ms > ACCEL_BRIDGE_MAX_WAIT_MS ? ACCEL_BRIDGE_MAX_WAIT_MS : timeout_ms;
        accel__bridge_req(h, accel_bridge_Request_wait_irq_tag);
        h->req.op.wait_irq.line = (uint16_t)line;
        h->req.op.wait_irq.timeout_ms = part;
        st = accel__bridge_do(h, 0, &lf);
        timeout_ms -= part;
        if (st != ACCEL_E_TIMEOUT || timeout_ms == 0) return st;
    }
}

static uint32_t accel__bridge_now(void *user)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    int lf, fresh = 0;
    uint32_t v;
    if (accel__bridge_session(h) == ACCEL_OK) {
        accel__bridge_req(h, accel_bridge_Request_time_tag);
        if (accel__bridge_do(h, accel_bridge_Response_now_ms_tag, &lf) == ACCEL_OK) {
            h->dev_ms = h->rsp.result.now_ms;
            h->dev_at = accel__bridge_host_now(h);
            h->have_dev_ms = 1;
            fresh = 1;
        }
    }
    /* without a fresh reading, time keeps moving on the host's clock so deadlines expire */
    v = h->have_dev_ms ? h->dev_ms + (accel__bridge_host_now(h) - h->dev_at)
                       : accel__bridge_host_now(h) - h->t0;
    /* never backwards (an estimate may have run ahead of the device's clock) */
    if (h->have_now && accel_time_diff(v, h->last_now) < 0) v = h->last_now;
    /* no reading and no host clock (an exchange hook, as in a replay that ran out): one
     * millisecond per reading, or a wait on this clock (accel_port_delay_ms) never ends */
    if (!fresh && !h->link.now_ms && h->have_now && v == h->last_now) v = h->last_now + 1u;
    h->last_now = v;
    h->have_now = 1;
    return v;
}

static void accel__bridge_delay(void *user, uint32_t ms)
{
    accel_bridge_host *h = (accel_bridge_host *)user;
    int lf;
    if (accel__bridge_session(h) != ACCEL_OK) return;
    do {
        uint32_t part = ms > ACCEL_BRIDGE_MAX_WAIT_MS ? ACCEL_BRIDGE_MAX_WAIT_MS : ms;
        accel__bridge_req(h, accel_bridge_Request_delay_tag);
        h->req.op.delay.ms = part;
        if (accel__bridge_do(h, 0, &lf) != ACCEL_OK) return;
        ms -= part;
    } while (ms);
}

static accel_status accel__bridge_reg_read(accel_bridge_host *h, uint32_t off, uint64_t *v,
                                           int wide)
{
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    accel__bridge_req(h, accel_bridge_Request_reg_read_tag);
    h->req.op.reg_read.offset = off;
    h->req.op.reg_read.wide = wide != 0;
    st = accel__bridge_do(h, accel_bridge_Response_value_tag, &lf);
    if (st == ACCEL_OK && !wide && h->rsp.result.value > 0xFFFFFFFFu)
        st = h->last_status = ACCEL_E_MALFORMED;
    if (st == ACCEL_OK) *v = h->rsp.result.value;
    return st;
}

static accel_status accel__bridge_rr32(void *user, uint32_t off, uint32_t *v)
{
    uint64_t w = 0;
    accel_status st = accel__bridge_reg_read((accel_bridge_host *)user, off, &w, 0);
    if (st == ACCEL_OK) *v = (uint32_t)w;
    return st;
}

static accel_status accel__bridge_rr64(void *user, uint32_t off, uint64_t *v)
{
    return accel__bridge_reg_read((accel_bridge_host *)user, off, v, 1);
}

static accel_status accel__bridge_reg_write(accel_bridge_host *h, uint32_t off, uint64_t v,
                                            int wide)
{
    int lf;
    accel_status st = accel__bridge_session(h);
    if (st != ACCEL_OK) return st;
    accel__bridge_req(h, accel_bridge_Request_reg_write_tag);
    h->req.op.reg_write.offset = off;
    h->req.op.reg_write.value = v;
    h->req.op.reg_write.wide = wide != 0;
    return accel__bridge_do(h, 0, &lf);
}

static accel_status accel__bridge_rw32(void *user, uint32_t off, uint32_t v)
{
    return accel__bridge_reg_write((accel_bridge_host *)user, off, v, 0);
}

static accel_status accel__bridge_rw64(void *user, uint32_t off, uint64_t v)
{
    return accel__bridge_reg_write((accel_bridge_host *)user, off, v, 1);
}

static void accel__bridge_fill_port(accel_bridge_host *h)
{
    accel_port *p = &h->port;
    unsigned c = h->caps;
    memset(p, 0, sizeof *p);
    p->user = h;
    if (c & ACCEL_BRIDGE_CAP_SPI) p->spi_transfer = accel__bridge_spi;
    if (c & ACCEL_BRIDGE_CAP_I2C) p->i2c_write_read = accel__bridge_i2c;
    if (c & ACCEL_BRIDGE_CAP_GPIO_SET) p->gpio_set = accel__bridge_gpio;
    if (c & ACCEL_BRIDGE_CAP_WAIT_IRQ) p->wait_irq = accel__bridge_wait_irq;
    if (c & ACCEL_BRIDGE_CAP_TIME) p->now_ms = accel__bridge_now;
    if (c & ACCEL_BRIDGE_CAP_DELAY) p->delay_ms = accel__bridge_delay;
    if (c & ACCEL_BRIDGE_CAP_REG_READ32) p->reg_read32 = accel__bridge_rr32;
    if (c & ACCEL_BRIDGE_CAP_REG_WRITE32) p->reg_write32 = accel__bridge_rw32;
    if (c & ACCEL_BRIDGE_CAP_REG_READ64) p->reg_read64 = accel__bridge_rr64;
    if (c & ACCEL_BRIDGE_CAP_REG_WRITE64) p->reg_write64 = accel__bridge_rw64;
}

accel_status accel_bridge_host_open(accel_bridge_host *h, const accel_bridge_host_config *c)
{
    accel_status st;
    if (!h || !c) return ACCEL_E_NULL;
    if (!c->exchange && (!c->link.write || !c->link.read || !c->link.now_ms)) return ACCEL_E_NULL;
    memset(h, 0, sizeof *h);
    h->link = c->link;
    h->exchange = c->exchange;
    h->exchange_ctx = c->exchange_ctx;
    h->capture = c->capture;
    h->capture_user = c->capture_user;
    h->answer_ms = c->answer_ms ? c->answer_ms : ACCEL__BRIDGE_ANSWER_MS;
    h->max_sends = (uint8_t)(c->max_sends ? c->max_sends : ACCEL__BRIDGE_MAX_SENDS);
    h->max_data = (uint16_t)(c->max_data == 0 || c->max_data > ACCEL_BRIDGE_MAX_DATA
                                 ? ACCEL_BRIDGE_MAX_DATA
                                 : c->max_data);
    h->t0 = accel__bridge_host_now(h);
    /* a session id that differs from the last run's, so the device starts a new sequence */
    h->session = c->session ? c->session
                            : (h->t0 * 2654435761u) ^ (uint32_t)((uintptr_t)h & 0xFFFFFFFFu);
    h->seq = h->session - 1u; /* the hello goes out with seq == session */
    h->port.user = h;
    st = accel_bridge_framer_init(&h->rx, h->rx_buf, sizeof h->rx_buf);
    if (st != ACCEL_OK) return st;
    if (h->capture) {
        accel_bridge_CaptureInfo info;
        info.magic = ACCEL_BRIDGE_CAPTURE_MAGIC;
        info.version = ACCEL_BRIDGE_VERSION;
        accel__bridge_capture_put(h, 1u, &info);
    }
    return accel__bridge_hello(h);
}
