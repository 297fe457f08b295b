/* accel_linux.h - the Linux port: an accel_port over spidev, i2c-dev, the GPIO character device
 * (v2 uAPI) and libusb-1.0, with a monotonic clock and nanosleep delays.
 *
 * Usage:
 *   accel_linux lx;  accel_port port;
 *   accel_linux_init(&lx);
 *   accel_linux_spi_open(&lx, 0, 0, 0, 1000000, 8);          // /dev/spidev0.0, mode 0, 1 MHz
 *   accel_linux_gpio_open(&lx, 0);                           // /dev/gpiochip0
 *   accel_linux_gpio_request_irq(&lx, 1, 25, 1);             // port line 1 = offset 25, active low
 *   accel_linux_port(&lx, &port);                            // give &port to a driver
 *   ...  on an error, lx.last_errno (and lx.last_usb_error) say what the OS said
 *   accel_linux_close(&lx);
 *
 * Each bus lives in its own file (accel_linux_spi/i2c/gpio/usb.c) over accel_linux_base.c (the
 * struct, errno mapping, device nodes, clock); accel_linux.c fills the port: build them all.
 * Every callback on a bus that is not open returns ACCEL_E_CLOSED. The register callbacks stay
 * NULL (ACCEL_E_UNSUPPORTED), and so do the USB ones unless built with ACCEL_HAVE_LIBUSB.
 * The .c files compile to nothing off Linux. Not thread-safe: one accel_linux per thread.
 * fd 0 is a valid descriptor, so a zeroed struct is NOT a closed one: always call init. */
#ifndef ACCEL_LINUX_H
#define ACCEL_LINUX_H
#include "accel_linux_base.h"
#include "accel_linux_spi.h"
#include "accel_linux_i2c.h"
#include "accel_linux_gpio.h"
#include "accel_linux_usb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill *port with the callbacks this build has (user = lx). */
accel_status accel_linux_port(accel_linux *lx, accel_port *port);
/* Close every bus that is open; lx can be reopened afterwards. */
void accel_linux_close(accel_linux *lx);

#ifdef __cplusplus
}
#endif
#endif
