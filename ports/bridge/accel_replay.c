/* accel_replay.c - the replay model (see accel_replay.h). */
#include "accel_replay.h"
#include <pb_decode.h>
#include <pb_encode.h>
#include <string.h>

/* Next record as an exchange: ACCEL_OK, or why the capture cannot go on. */
static accel_status accel__replay_next(accel_replay *r, size_t *used)
{
    uint32_t field;
    const uint8_t *msg;
    size_t mlen;
    pb_istream_t is;
    accel_status st;
    if (r->pos >= r->len) return ACCEL_BRIDGE_E_CAPTURE_END;
    st = accel_bridge_capture_record(r->cap + r->pos, r->len - r->pos, &field, &msg, &mlen, used);
    if (st != ACCEL_OK || field != 2u) return ACCEL_E_MALFORMED;
    is = pb_istream_from_buffer(msg, mlen);
    if (!pb_decode(&is, accel_bridge_Exchange_fields, &r->ex) || !r->ex.has_request ||
        !r->ex.has_response)
        return ACCEL_E_MALFORMED;
    return ACCEL_OK;
}

/* The request bytes without what differs per run (seq, the hello's session id). */
static int accel__replay_encode(accel_bridge_Request q, uint8_t *buf, size_t cap, size_t *len)
{
    pb_ostream_t os = pb_ostream_from_buffer(buf, cap);
    q.seq = 0;
    if (q.which_op == accel_bridge_Request_hello_tag) q.op.hello.session = 0;
    if (!pb_encode(&os, accel_bridge_Request_fields, &q)) return 0;
    *len = os.bytes_written;
    return 1;
}

static accel_status accel__replay_stop(accel_replay *r, accel_status why)
{
    r->status = why;
    r->diverged_at = r->index;
    return why;
}

static accel_status accel__replay_exchange(void *ctx, const accel_bridge_Request *req,
                                           accel_bridge_Response *rsp, uint32_t *sends)
{
    accel_replay *r = (accel_replay *)ctx;
    size_t used = 0, la = 0, lb = 0;
    accel_status st;
    *sends = 0;
    if (r->status != ACCEL_OK) return r->status;
    st = accel__replay_next(r, &used);
    if (st != ACCEL_OK) return accel__replay_stop(r, st);
    if (!accel__replay_encode(*req, r->enc_live, sizeof r->enc_live, &la) ||
        !accel__replay_encode(r->ex.request, r->enc_rec, sizeof r->enc_rec, &lb) || la != lb ||
        memcmp(r->enc_live, r->enc_rec, la) != 0)
        return accel__replay_stop(r, ACCEL_BRIDGE_E_DIVERGED);
    *rsp = r->ex.response;
    rsp->seq = req->seq;
    *sends = r->ex.sends;
    r->pos += used;
    r->index++;
    if (r->ex.local) {
        /* the recorded session saw a link failure here: the same failure again */
        if (rsp->status >= 0) return accel__replay_stop(r, ACCEL_E_MALFORMED);
        return (accel_status)rsp->status;
    }
    return ACCEL_OK;
}

accel_status accel_replay_open(accel_replay *r, const void *capture, size_t len)
{
    accel_bridge_host_config c;
    accel_bridge_CaptureInfo info;
    uint32_t field;
    const uint8_t *msg;
    size_t mlen, used;
    pb_istream_t is;
    accel_status st;
    if (!r || !capture) return ACCEL_E_NULL;
    memset(r, 0, sizeof *r);
    r->cap = (const uint8_t *)capture;
    r->len = len;
    r->diverged_at = ACCEL_REPLAY_NONE;
    st = accel_bridge_capture_record(r->cap, len, &field, &msg, &mlen, &used);
    if (st != ACCEL_OK || field != 1u) return ACCEL_E_MALFORMED;
    is = pb_istream_from_buffer(msg, mlen);
    if (!pb_decode(&is, accel_bridge_CaptureInfo_fields, &info) ||
        info.magic != ACCEL_BRIDGE_CAPTURE_MAGIC)
        return ACCEL_E_MALFORMED;
    if (info.version != ACCEL_BRIDGE_VERSION) return ACCEL_BRIDGE_E_VERSION;
    r->pos = used;
    memset(&c, 0, sizeof c);
    c.exchange = accel__replay_exchange;
    c.exchange_ctx = r;
    c.session = 1;
    /* the recording host's data limit, so transfers split into the same pieces */
    if (accel__replay_next(r, &used) == ACCEL_OK &&
        r->ex.request.which_op == accel_bridge_Request_hello_tag)
        c.max_data = r->ex.request.op.hello.max_data;
    return accel_bridge_host_open(&r->host, &c);
}

accel_status accel_replay_check(accel_replay *r)
{
    if (!r) return ACCEL_E_NULL;
    if (r->status == ACCEL_OK && r->pos < r->len)
        return accel__replay_stop(r, ACCEL_BRIDGE_E_DIVERGED); /* the session ended early */
    return r->status;
}
