/* accel_bridge.h - what both ends of the accel bridge share: protocol constants, the bridge's
 * status codes, and the frame layer (COBS frames with a CRC-32 over a byte stream).
 *
 * The bridge carries accel_port operations between a host and a microcontroller, one
 * protobuf message per frame (schema: accel_bridge.proto, nanopb code: accel_bridge.pb.c/.h):
 *   host:   accel_bridge_host.h   an accel_port whose callbacks run on the far device
 *   device: accel_bridge_device.h bytes in, requests run on a local accel_port, bytes out
 * Captures (the host's record of every request/response pair) replay through
 * ports/bridge/accel_replay.h.
 *
 * The protocol, rule by rule (enough to write another host or device): PROTOCOL.md here.
 *
 * Frame on the wire:  0x00  COBS(message || CRC-32/ISO-HDLC(message), little-endian)  0x00
 * COBS removes every 0x00 from the body, so a 0x00 always ends a frame: a receiver that joins
 * in the middle, or sees garbage, resynchronises at the next 0x00. The leading 0x00 ends any
 * garbage before the frame so that the frame itself arrives whole.
 *
 * Build: needs nanopb's runtime (pb_encode.c, pb_decode.c, pb_common.c): on a Debian host link
 * -lprotobuf-nanopb (libnanopb-dev); for a cross build, scripts/nanopb_runtime.sh fetches the
 * sources. No malloc, no stdio. */
#ifndef ACCEL_BRIDGE_H
#define ACCEL_BRIDGE_H
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Protocol version carried in Hello. A device serves exactly its own version: another is
 * refused with ACCEL_BRIDGE_E_VERSION, inside an open session too. */
#define ACCEL_BRIDGE_VERSION 1u

/* Largest data field of a message (SPI bytes, I2C bytes, bytes read): the max_size of the
 * bytes fields in accel_bridge.options. The generated structs hold this much. */
#define ACCEL_BRIDGE_MAX_DATA 128u

/* The longest Delay or WaitIrq a device accepts (one minute): a longer one is answered
 * ACCEL_E_ARG without waiting, so a device is never out of reach for longer than this. A host
 * splits a longer wait into pieces (accel_bridge_host does). */
#define ACCEL_BRIDGE_MAX_WAIT_MS 60000u

/* HelloInfo.caps: one bit per accel_port operation the device can run. */
#define ACCEL_BRIDGE_CAP_SPI 0x001u
#define ACCEL_BRIDGE_CAP_I2C 0x002u
#define ACCEL_BRIDGE_CAP_GPIO_SET 0x004u
#define ACCEL_BRIDGE_CAP_WAIT_IRQ 0x008u
#define ACCEL_BRIDGE_CAP_TIME 0x010u
#define ACCEL_BRIDGE_CAP_DELAY 0x020u
#define ACCEL_BRIDGE_CAP_REG_READ32 0x040u
#define ACCEL_BRIDGE_CAP_REG_WRITE32 0x080u
#define ACCEL_BRIDGE_CAP_REG_READ64 0x100u
#define ACCEL_BRIDGE_CAP_REG_WRITE64 0x200u

/* CaptureInfo.magic: the bytes "ACCL" read as a little-endian fixed32. */
#define ACCEL_BRIDGE_CAPTURE_MAGIC 0x4C434341u

/* Status codes: the bridge's own (ACCEL_BRIDGE_E_LINK_TIMEOUT, _VERSION, _NO_SESSION,
 * _DIVERGED, _CAPTURE_END) are in accel.h's accel_status enum with the common codes, and
 * accel_status_str() names them. Where a common code is precise the bridge uses it:
 * ACCEL_E_CRC / ACCEL_E_MALFORMED / ACCEL_E_TOO_LONG (frames and messages), ACCEL_E_IO (the
 * transport failed). accel_bridge_status_str is the name this function had before. */
#define accel_bridge_status_str(s) accel_status_str(s)

/* ---- frames ----
 * Largest body (message + CRC) of each direction, and the wire size of a frame of n body bytes
 * (COBS adds one byte per 254, plus the two delimiters). */
#define ACCEL_BRIDGE_CRC_SIZE 4u
#define ACCEL_BRIDGE_WIRE_SIZE(n) ((n) + (n) / 254u + 3u)

/* Streaming frame decoder over a caller buffer of cap bytes (the largest body expected). */
typedef struct accel_bridge_framer {
    uint8_t *buf;
    size_t cap;
    size_t len;       /* body bytes held */
    uint8_t left;     /* data bytes still due in the current COBS block */
    uint8_t code;     /* code byte of the current block (0: none yet in this frame) */
    uint8_t bad;      /* 1: this frame is already lost (overrun or COBS error); skip to 0x00 */
    uint8_t started;  /* 1: a byte other than 0x00 arrived since the last delimiter */
    uint8_t held;     /* 1: buf holds the message last returned (cleared by the next byte) */
} accel_bridge_framer;

accel_status accel_bridge_framer_init(accel_bridge_framer *f, void *buf, size_t cap);
/* Take one byte. Returns ACCEL_E_EMPTY while a frame is incomplete (and for empty frames);
 * at a frame's end ACCEL_OK with *msg_len = message bytes at f->buf (CRC checked and
 * stripped), or the reason the frame was dropped: ACCEL_E_CRC, ACCEL_E_TOO_LONG (more than cap
 * bytes), ACCEL_E_MALFORMED (a COBS block cut short), ACCEL_E_TRUNCATED (shorter than a CRC).
 * The message stays in buf until the next byte is put. */
accel_status accel_bridge_framer_put(accel_bridge_framer *f, uint8_t byte, size_t *msg_len);
/* Forget a partial frame. */
void accel_bridge_framer_reset(accel_bridge_framer *f);

/* Append the CRC to n message bytes in buf (cap >= n + 4); *body_len = n + 4. */
accel_status accel_bridge_frame_seal(uint8_t *buf, size_t n, size_t cap, size_t *body_len);
/* Send a sealed body as one frame (leading 0x00, COBS blocks, trailing 0x00) through write,
 * in pieces that point into body (no copy): for a device that writes straight to its UART.
 * Stops at the first write error and returns it. */
accel_status accel_bridge_frame_write(const uint8_t *body, size_t len,
                                      accel_status (*write)(void *user, const uint8_t *data,
                                                            size_t n),
                                      void *user);
/* The same frame into dst (cap >= ACCEL_BRIDGE_WIRE_SIZE(len)); *out_len = its size. */
accel_status accel_bridge_frame_encode(const uint8_t *body, size_t len, uint8_t *dst, size_t cap,
                                       size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif
