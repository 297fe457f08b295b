/* accel_bridge.c - the bridge's frame layer (see accel_bridge.h). */
#include "accel_bridge.h"

/* ------------------------------------------------------------------ decoder */
accel_status accel_bridge_framer_init(accel_bridge_framer *f, void *buf, size_t cap)
{
    if (!f || !buf) return ACCEL_E_NULL;
    if (cap <= ACCEL_BRIDGE_CRC_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    f->buf = (uint8_t *)buf;
    f->cap = cap;
    accel_bridge_framer_reset(f);
    return ACCEL_OK;
}

void accel_bridge_framer_reset(accel_bridge_framer *f)
{
    if (!f) return;
    f->len = 0;
    f->left = 0;
    f->code = 0;
    f->bad = 0;
    f->started = 0;
    f->held = 0;
}

static void accel__bridge_framer_add(accel_bridge_framer *f, uint8_t b)
{
    if (f->len >= f->cap) {
        f->bad = 1; /* overrun: the frame is lost, wait for its end */
        return;
    }
    f->buf[f->len++] = b;
}

accel_status accel_bridge_framer_put(accel_bridge_framer *f, uint8_t byte, size_t *msg_len)
{
    if (!f || !msg_len) return ACCEL_E_NULL;
    if (f->held) { /* the previous message has been handed out */
        f->len = 0;
        f->held = 0;
    }
    if (byte == 0) {
        /* a delimiter ends whatever came since the last one */
        accel_status st = ACCEL_E_EMPTY;
        if (f->started) {
            if (f->bad) st = ACCEL_E_TOO_LONG;
            else if (f->left) st = ACCEL_E_MALFORMED; /* a block cut short */
            else if (f->len < ACCEL_BRIDGE_CRC_SIZE) st = ACCEL_E_TRUNCATED;
            else {
                size_t n = f->len - ACCEL_BRIDGE_CRC_SIZE;
                st = accel_crc32(f->buf, n) == accel_load_u32le(f->buf + n) ? ACCEL_OK
                                                                             : ACCEL_E_CRC;
                if (st == ACCEL_OK) *msg_len = n;
            }
        }
        if (st == ACCEL_OK) f->held = 1; /* stays in buf until the next byte */
        else f->len = 0;
        f->left = 0;
        f->code = 0;
        f->bad = 0;
        f->started = 0;
        return st;
    }
    f->started = 1;
    if (f->bad) return ACCEL_E_EMPTY;
    if (f->left == 0) {
        /* a code byte: the zero the previous block implied comes first (not after 0xFF) */
        if (f->code != 0 && f->code != 0xFFu) accel__bridge_framer_add(f, 0);
        f->code = byte;
        f->left = (uint8_t)(byte - 1u);
    } else {
        accel__bridge_framer_add(f, byte);
        f->left--;
    }
    return ACCEL_E_EMPTY;
}

/* ------------------------------------------------------------------ encoder */
accel_status accel_bridge_frame_seal(uint8_t *buf, size_t n, size_t cap, size_t *body_len)
{
    if (!buf || !body_len) return ACCEL_E_NULL;
    if (cap < ACCEL_BRIDGE_CRC_SIZE || n > cap - ACCEL_BRIDGE_CRC_SIZE)
        return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(buf + n, accel_crc32(buf, n));
    *body_len = n + ACCEL_BRIDGE_CRC_SIZE;
    return ACCEL_OK;
}

accel_status accel_bridge_frame_write(const uint8_t *body, size_t len,
                                      accel_status (*write)(void *user, const uint8_t *data,
                                                            size_t n),
                                      void *user)
{
    uint8_t zero = 0; /* not a static const: on an AVR that would sit in RAM */
    size_t pos = 0;
    accel_status st;
    if (!write || (!body && len)) return ACCEL_E_NULL;
    st = write(user, &zero, 1);
    while (st == ACCEL_OK) {
        /* one block: up to 254 non-zero bytes, its code byte = run + 1 */
        size_t run = 0;
        uint8_t code;
        while (pos + run < len && body[pos + run] != 0 && run < 254u) run++;
        code = (uint8_t)(run + 1u);
        st = write(user, &code, 1);
        if (st == ACCEL_OK && run) st = write(user, body + pos, run);
        if (st != ACCEL_OK) break;
        pos += run;
        if (pos == len) break; /* no zero follows the last block */
        if (run == 254u) continue; /* a full block implies no zero */
        pos++; /* the zero this block implies */
        if (pos == len) { /* the body ended with a zero: an empty block carries it */
            code = 1;
            st = write(user, &code, 1);
            break;
        }
    }
    if (st == ACCEL_OK) st = write(user, &zero, 1);
    return st;
}

typedef struct accel__bridge_sink {
    uint8_t *dst;
    size_t cap, len;
} accel__bridge_sink;

static accel_status accel__bridge_sink_write(void *user, const uint8_t *data, size_t n)
{
    accel__bridge_sink *s = (accel__bridge_sink *)user;
    size_t i;
    if (n > s->cap - s->len) return ACCEL_E_BUFFER_TOO_SMALL;
    for (i = 0; i < n; i++) s->dst[s->len + i] = data[i];
    s->len += n;
    return ACCEL_OK;
}

accel_status accel_bridge_frame_encode(const uint8_t *body, size_t len, uint8_t *dst, size_t cap,
                                       size_t *out_len)
{
    accel__bridge_sink s;
    accel_status st;
    if (!dst || !out_len) return ACCEL_E_NULL;
    s.dst = dst;
    s.cap = cap;
    s.len = 0;
    st = accel_bridge_frame_write(body, len, accel__bridge_sink_write, &s);
    *out_len = st == ACCEL_OK ? s.len : 0;
    return st;
}
