/* accel_linux_serial.h - a serial device (a board's USB CDC or UART adapter, a pty) as a raw
 * byte stream: the Linux transport of the accel bridge (ports/bridge/accel_bridge_host.h).
 *
 * Usage:
 *   accel_linux_serial ser;
 *   char path[256]; uint32_t baud;
 *   accel_linux_serial_parse("/dev/ttyACM0,1000000", path, sizeof path, &baud);
 *   accel_linux_serial_init(&ser);
 *   if (accel_linux_serial_open(&ser, path, baud) != ACCEL_OK) ... ser.last_errno says why
 *   bridge_config.link.write = accel_linux_serial_write;   // user = &ser
 *   bridge_config.link.read = accel_linux_serial_read;
 *   bridge_config.link.now_ms = accel_linux_now_ms;        // ports/linux/accel_linux_base.h
 *   bridge_config.link.user = &ser;
 *   ...
 *   accel_linux_serial_close(&ser);
 *
 * The line is set raw (termios: no echo, no translation, 8N1, no flow control, CLOCAL) at the
 * given baud rate, and whatever was waiting in it is flushed at open, so bytes of an earlier
 * session never reach this one. Opening an Arduino's port resets the board (DTR): its bridge is
 * ready after its bootloader, so give the first hello time (answer_ms, max_sends). HUPCL is
 * cleared, so closing keeps DTR up and later opens do not reset the board again.
 * Baud rates: the standard termios ones from 1200 to 4000000 (ACCEL_E_ARG otherwise). The file
 * compiles to nothing off Linux. Not thread-safe. */
#ifndef ACCEL_LINUX_SERIAL_H
#define ACCEL_LINUX_SERIAL_H
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_LINUX_SERIAL_BAUD 115200u /* default when a spec names no baud rate */

typedef struct accel_linux_serial {
    int fd;         /* -1 when closed */
    uint32_t baud;
    int last_errno; /* errno of the last failed OS call (0: none yet) */
} accel_linux_serial;

void accel_linux_serial_init(accel_linux_serial *s);
/* Open path (e.g. /dev/ttyACM0) raw at baud. ACCEL_E_BUSY if s is open already, ACCEL_E_ARG for
 * an unsupported baud, the errno's status (kept in last_errno) when the OS refuses. */
accel_status accel_linux_serial_open(accel_linux_serial *s, const char *path, uint32_t baud);
void accel_linux_serial_close(accel_linux_serial *s);
/* "PATH" or "PATH,BAUD" -> path (NUL-terminated) and baud (default ACCEL_LINUX_SERIAL_BAUD).
 * ACCEL_E_ARG for an empty path or a baud that is not a positive decimal number,
 * ACCEL_E_BUFFER_TOO_SMALL when the path does not fit. */
accel_status accel_linux_serial_parse(const char *spec, char *path, size_t cap, uint32_t *baud);

/* Transport callbacks (user = accel_linux_serial *): write all n bytes (waits while the line's
 * buffer is full); read waits up to timeout_ms for the first byte, then takes what is there
 * (at most cap): ACCEL_OK with *got > 0, or ACCEL_E_TIMEOUT with *got = 0. ACCEL_E_CLOSED when
 * not open, ACCEL_E_IO (last_errno) when the device went away. */
accel_status accel_linux_serial_write(void *user, const uint8_t *data, size_t n);
accel_status accel_linux_serial_read(void *user, uint8_t *buf, size_t cap, size_t *got,
                                     uint32_t timeout_ms);

#ifdef __cplusplus
}
#endif
#endif
