/* accel_bridge_device.h - the device side of the accel bridge: a microcontroller takes frames
 * from a byte stream (UART, USB CDC, a pipe), runs each request on its local accel_port (the
 * accelerator on its SPI/I2C bus, its GPIO and IRQ lines) and writes the response back.
 *
 * Usage (an Arduino-style loop; any byte source works):
 *   static accel_bridge_device dev;            // all state and buffers: sizeof(dev) bytes
 *   static accel_port port;                    // the board's port (ports/arduino, ...)
 *   static accel_status uart_write(void *u, const uint8_t *d, size_t n) { ...; return ACCEL_OK; }
 *   accel_bridge_device_config c = {0};
 *   c.port = &port;  c.write = uart_write;
 *   accel_bridge_device_init(&dev, &c);
 *   for (;;) { uint8_t b = uart_getc(); accel_bridge_device_feed(&dev, &b, 1); }
 *
 * Requests run synchronously inside feed (a wait_irq or delay blocks for its time), one at a
 * time, in order. Exactly once: every request carries a sequence number; a new one runs and its
 * encoded response is kept; the same number again (the host's retry after a lost response) gets
 * the kept response without running again; an older number is ignored (a delayed duplicate).
 * An SPI request of length 0 ends a transaction the device holds open (its last transfer had
 * keep_cs): accel_port_spi_transfer with len 0 and no flags, which a port takes as "chip select
 * high, nothing clocked" (see ACCEL_SPI_KEEP_CS in accel.h); without such a transaction it does
 * nothing.
 * Hello starts a session (a new session id resets the sequence); a device without a session
 * (just started) runs nothing and answers ACCEL_BRIDGE_E_NO_SESSION, so a host notices a
 * restart. A hello of another protocol version is refused (ACCEL_BRIDGE_E_VERSION, with the
 * device's HelloInfo), inside a session too; the hello's max_data, when smaller than the
 * device's, is the session's limit. Delay and WaitIrq longer than ACCEL_BRIDGE_MAX_WAIT_MS are
 * refused (ACCEL_E_ARG) without waiting. The rules: PROTOCOL.md. No malloc, no stdio; the
 * struct is the caller's (static on an MCU). */
#ifndef ACCEL_BRIDGE_DEVICE_H
#define ACCEL_BRIDGE_DEVICE_H
#include "accel_bridge.h"
#include "accel_bridge.pb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct accel_bridge_device_config {
    const accel_port *port; /* where requests run; its NULL callbacks answer ACCEL_E_UNSUPPORTED
                               and are left out of the caps announced at hello */
    /* Send response bytes (called several times per frame, pieces of any size). */
    accel_status (*write)(void *user, const uint8_t *data, size_t n);
    /* Optional: the port's own last error code (errno-like), sent with a failed status. */
    int32_t (*port_error)(void *user);
    /* Optional: called after each request ran (not for retries answered from the cache). */
    void (*on_execute)(void *user, const accel_bridge_Request *req,
                       const accel_bridge_Response *rsp);
    void *user;
    uint16_t max_data; /* 0 or > ACCEL_BRIDGE_MAX_DATA: ACCEL_BRIDGE_MAX_DATA */
} accel_bridge_device_config;

typedef struct accel_bridge_device_stats {
    uint32_t frames;        /* frames with a good CRC */
    uint32_t crc_errors;    /* frames dropped: CRC mismatch */
    uint32_t frame_errors;  /* frames dropped: bad COBS, too long, too short */
    uint32_t decode_errors; /* good CRC but not a Request: answered ACCEL_E_MALFORMED */
    uint32_t executed;      /* requests run on the port (hello included) */
    uint32_t repeats;       /* retries answered from the kept response */
    uint32_t stale;         /* older sequence numbers ignored */
    uint32_t no_session;    /* requests refused for want of a session */
    uint32_t write_errors;  /* responses the write callback failed */
} accel_bridge_device_stats;

typedef struct accel_bridge_device {
    const accel_port *port;
    accel_status (*write)(void *user, const uint8_t *data, size_t n);
    int32_t (*port_error)(void *user);
    void (*on_execute)(void *user, const accel_bridge_Request *req,
                       const accel_bridge_Response *rsp);
    void *user;
    uint16_t caps, max_data; /* max_data: the device's own limit */
    uint16_t sess_max;       /* the session's: the smaller of max_data and the host's hello */
    uint8_t have_session, have_kept;
    uint8_t cs_held, held_cs; /* the last SPI transfer left chip select held_cs asserted */
    uint32_t session, last_seq;
    size_t kept_len; /* sealed response of last_seq in kept[] */
    accel_bridge_device_stats stats;
    accel_bridge_framer rx;
    accel_bridge_Request req;
    /* The received frame is dead once decoded into req, and the response is dead once encoded
       into kept[]: they share memory (saves ~150 bytes on an ATmega328P). */
    union {
        uint8_t frame[accel_bridge_Request_size + ACCEL_BRIDGE_CRC_SIZE];
        accel_bridge_Response rsp;
    } u;
    uint8_t kept[accel_bridge_Response_size + ACCEL_BRIDGE_CRC_SIZE];
} accel_bridge_device;

accel_status accel_bridge_device_init(accel_bridge_device *d, const accel_bridge_device_config *c);
/* Take n bytes from the stream; frames that complete are handled at once (their requests run,
 * responses are written). Returns ACCEL_OK, or the first error of the write callback (every
 * byte is still taken). */
accel_status accel_bridge_device_feed(accel_bridge_device *d, const uint8_t *data, size_t n);
/* Forget the session (as after a restart): the host must say hello again. */
void accel_bridge_device_reset(accel_bridge_device *d);

#ifdef __cplusplus
}
#endif
#endif
