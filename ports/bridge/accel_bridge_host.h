/* accel_bridge_host.h - the host side of the accel bridge: an accel_port whose callbacks run on
 * a far device (a microcontroller running accel_bridge_device) over a byte stream.
 *
 * Usage:
 *   static accel_bridge_host h;                 // state and buffers (a few KiB: host only)
 *   accel_bridge_host_config c = {0};
 *   c.link.write = ...; c.link.read = ...; c.link.now_ms = ...; c.link.user = ...;
 *   // e.g. ports/linux/accel_linux_serial.h: accel_linux_serial_write/_read, accel_linux_now_ms
 *   st = accel_bridge_host_open(&h, &c);        // hello: version check, device limits and caps
 *   accel_tsp1_init(&drv, ...&h.port...);       // any driver, as with a local port
 *   ... h.last_status / h.last_port_error say what failed; h.stats counts retries
 *
 * Each port call becomes one request (an SPI transfer longer than the device's max_data becomes
 * several, chained with keep_cs so the bus transaction stays one) and waits for its response:
 * one request in flight. A response that does not come within answer_ms (plus the operation's
 * own wait, for wait_irq and delay) is asked for again by resending the same request: the device
 * answers a repeated sequence number from its cache, so a request never runs twice. After
 * max_sends the call returns ACCEL_BRIDGE_E_LINK_TIMEOUT (the request may or may not have run).
 * Frames with a bad CRC, bad framing, or another sequence number are dropped and counted.
 * After a link failure inside an SPI transaction, the next SPI call first releases the chip
 * select (a zero-length transfer without keep_cs), since the device may still hold it.
 * The port's now_ms is the device's clock; when the link fails it keeps counting on the host's
 * clock from the last reading, so a driver's deadlines still pass (and it never goes back).
 * USB operations are not carried (their callbacks stay NULL: ACCEL_E_UNSUPPORTED), nor are
 * operations the device did not announce at hello.
 *
 * Captures: with capture set, every request/response pair is written as one record of the
 * Capture message of accel_bridge.proto (a field tag, a length, an Exchange), after a first
 * record with CaptureInfo; ports/bridge/accel_replay.h serves such a file to a driver. */
#ifndef ACCEL_BRIDGE_HOST_H
#define ACCEL_BRIDGE_HOST_H
#include "accel_bridge.h"
#include "accel_bridge.pb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The byte stream to the device. */
typedef struct accel_bridge_transport {
    /* Send all n bytes, or fail (ACCEL_E_IO, ACCEL_E_CLOSED, ...). */
    accel_status (*write)(void *user, const uint8_t *data, size_t n);
    /* Wait up to timeout_ms for bytes; take up to cap of them. ACCEL_OK with *got > 0, or
     * ACCEL_E_TIMEOUT with *got = 0 when none came, or an error. */
    accel_status (*read)(void *user, uint8_t *buf, size_t cap, size_t *got, uint32_t timeout_ms);
    /* The host's monotonic millisecond clock (retry timers). */
    uint32_t (*now_ms)(void *user);
    void *user;
} accel_bridge_transport;

/* Where an exchange goes: the link (default) or something else that answers requests, such as
 * a capture being replayed. Returns ACCEL_OK with *rsp filled (rsp->status is the device's
 * status), or the link's own failure; *sends = times the request went out. */
typedef accel_status (*accel_bridge_exchange_fn)(void *ctx, const accel_bridge_Request *req,
                                                 accel_bridge_Response *rsp, uint32_t *sends);

typedef struct accel_bridge_host_config {
    accel_bridge_transport link;
    uint32_t session;   /* host session id; 0: taken from the clock and the struct's address */
    uint32_t answer_ms; /* wait per send for an answer, beyond the operation's own time; 0: 200 */
    uint8_t max_sends;  /* sends per request before ACCEL_BRIDGE_E_LINK_TIMEOUT; 0: 5 */
    uint16_t max_data;  /* largest data field to use; 0: the device's (at most 128) */
    /* Optional capture sink: one record per call, in order; a failure is counted, never fatal. */
    accel_status (*capture)(void *user, const uint8_t *record, size_t n);
    void *capture_user;
    /* Optional: another exchange backend instead of link (ports/bridge/accel_replay.c). */
    accel_bridge_exchange_fn exchange;
    void *exchange_ctx;
} accel_bridge_host_config;

typedef struct accel_bridge_host_stats {
    uint32_t requests;      /* exchanges completed or given up */
    uint32_t sends;         /* frames sent (requests and their retries) */
    uint32_t retries;       /* sends after the first of a request */
    uint32_t crc_errors;    /* received frames dropped: CRC mismatch */
    uint32_t frame_errors;  /* received frames dropped: bad COBS, too long, too short */
    uint32_t decode_errors; /* good CRC but not a Response */
    uint32_t stale;         /* responses to another sequence number (late or duplicated) */
    uint32_t link_timeouts; /* requests given up (ACCEL_BRIDGE_E_LINK_TIMEOUT) */
    uint32_t restarts;      /* ACCEL_BRIDGE_E_NO_SESSION answers: the device restarted */
    uint32_t cs_releases;   /* chip-select releases sent after a failed SPI exchange */
    uint32_t capture_errors;/* records the capture sink refused */
} accel_bridge_host_stats;

typedef struct accel_bridge_host {
    accel_port port;           /* give &h.port to a driver */
    accel_bridge_transport link;
    accel_bridge_exchange_fn exchange;
    void *exchange_ctx;
    accel_status (*capture)(void *user, const uint8_t *record, size_t n);
    void *capture_user;
    uint32_t session, seq;     /* seq: the last sequence number used */
    uint32_t answer_ms;
    uint8_t max_sends;
    uint8_t need_hello;        /* the device restarted: say hello before the next request */
    uint8_t cs_dirty, dirty_cs;/* a chip select the device may still hold */
    uint16_t max_data, caps;   /* agreed at hello */
    uint32_t version;          /* the device's protocol version */
    uint32_t t0;               /* host clock at open (capture times count from here) */
    uint32_t dev_ms, dev_at;   /* last device clock reading, and the host clock then */
    uint8_t have_dev_ms, have_now;
    uint32_t last_now;         /* the port's clock never goes back */
    accel_status last_status;  /* of the last call that failed (ACCEL_OK: none yet) */
    int32_t last_port_error;   /* the device port's own code with it (0: none) */
    accel_bridge_host_stats stats;
    accel_bridge_framer rx;
    size_t in_pos, in_len;     /* unread bytes in in[] */
    accel_bridge_Request req;
    accel_bridge_Response rsp;
    uint8_t in[256];
    uint8_t rx_buf[accel_bridge_Response_size + ACCEL_BRIDGE_CRC_SIZE];
    uint8_t body[accel_bridge_Request_size + ACCEL_BRIDGE_CRC_SIZE];
    uint8_t wire[ACCEL_BRIDGE_WIRE_SIZE(accel_bridge_Request_size + ACCEL_BRIDGE_CRC_SIZE)];
    uint8_t record[accel_bridge_Exchange_size + 8];
} accel_bridge_host;

/* Say hello (check the version, learn max_data and caps) and fill h->port. Errors: the link's,
 * ACCEL_BRIDGE_E_LINK_TIMEOUT (nothing answered), ACCEL_BRIDGE_E_VERSION (h->version says the
 * device's). With config.capture set, the capture starts with this hello. */
accel_status accel_bridge_host_open(accel_bridge_host *h, const accel_bridge_host_config *c);
/* One request as is (seq is set here) and its response, through the retry machinery: for
 * tools and tests. The response's status is in rsp->status. */
accel_status accel_bridge_host_call(accel_bridge_host *h, accel_bridge_Request *req,
                                    accel_bridge_Response *rsp);

/* Capture records, for readers: parse the record at buf (a field tag and length, then the
 * message). *field = 1 (CaptureInfo) or 2 (Exchange); *msg and *msg_len = the message bytes;
 * *used = the record's size. ACCEL_E_TRUNCATED when buf ends inside the record,
 * ACCEL_E_MALFORMED for anything that is not a record. */
accel_status accel_bridge_capture_record(const uint8_t *buf, size_t len, uint32_t *field,
                                         const uint8_t **msg, size_t *msg_len, size_t *used);
/* Encode one capture record into dst: field 1 with an info, or field 2 with an exchange. */
accel_status accel_bridge_capture_encode(uint32_t field, const void *msg, uint8_t *dst,
                                         size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
