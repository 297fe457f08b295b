/* accel_linux_usb.h - USB through libusb-1.0 (built only with ACCEL_HAVE_LIBUSB; the Makefile
 * defines it when pkg-config finds libusb-1.0).
 *
 * Usage:
 *   if (accel_linux_usb_open(&lx, 0x18d1, 0x9302, 0) != ACCEL_OK)   // VID:PID, interface 0
 *       ... lx.last_usb_error is the libusb code (libusb_error_name() names it)
 *   accel_port_usb_bulk_out(&port, 0x01, buf, n, 1000, &done);
 *   accel_port_usb_bulk_in(&port, 0x81, buf, sizeof buf, 1000, &done);
 *   accel_linux_usb_close(&lx);                                      // release, close, exit
 *
 * Opening claims the interface (detaching a kernel driver if libusb can) and reads the active
 * configuration descriptor: an IN endpoint of that interface that is an interrupt endpoint is
 * read with an interrupt transfer by usb_bulk_in, every other one with a bulk transfer (the
 * endpoints of alternate setting 0, the one a claim starts with).
 * A timeout of 0 ms is passed to libusb as 1 ms: libusb's 0 means "wait forever", which the
 * port interface never asks for. On a timeout *done still says how much got through.
 * libusb codes map to accel_status: TIMEOUT -> ACCEL_E_TIMEOUT, PIPE -> ACCEL_E_STALL,
 * NO_DEVICE/NOT_FOUND -> ACCEL_E_NO_DEVICE, ACCESS -> ACCEL_E_ACCESS, BUSY -> ACCEL_E_BUSY,
 * INVALID_PARAM -> ACCEL_E_ARG, OVERFLOW -> ACCEL_E_BUFFER_TOO_SMALL (the device sent more
 * than the buffer holds), NOT_SUPPORTED -> ACCEL_E_UNSUPPORTED, the rest -> ACCEL_E_IO. */
#ifndef ACCEL_LINUX_USB_H
#define ACCEL_LINUX_USB_H
#include "accel_linux_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef ACCEL_HAVE_LIBUSB
accel_status accel_linux_usb_open(accel_linux *lx, uint16_t vid, uint16_t pid, int iface);
/* libusb error code -> accel_status (see above); 0 and positive values are ACCEL_OK. */
accel_status accel_linux_usb_status(int libusb_code);
accel_status accel_linux_usb_control(void *user, uint8_t request_type, uint8_t request,
                                     uint16_t value, uint16_t index, uint8_t *data,
                                     uint16_t length, uint32_t timeout_ms, size_t *done);
accel_status accel_linux_usb_bulk_out(void *user, uint8_t ep, const uint8_t *data, size_t len,
                                      uint32_t timeout_ms, size_t *done);
accel_status accel_linux_usb_bulk_in(void *user, uint8_t ep, uint8_t *data, size_t len,
                                     uint32_t timeout_ms, size_t *done);
#endif
void accel_linux_usb_close(accel_linux *lx); /* no-op without ACCEL_HAVE_LIBUSB */

#ifdef __cplusplus
}
#endif
#endif
