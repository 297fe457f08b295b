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
 * Each bus lives in its own file (accel_linux_spi/i2c/gpio/usb.c); build them all together.
 * Every callback on a bus that is not open returns ACCEL_E_CLOSED. The register callbacks stay
 * NULL (ACCEL_E_UNSUPPORTED), and so do the USB ones unless built with ACCEL_HAVE_LIBUSB.
 * The .c files compile to nothing off Linux. Not thread-safe: one accel_linux per thread.
 * fd 0 is a valid descriptor, so a zeroed struct is NOT a closed one: always call init. */
#ifndef ACCEL_LINUX_H
#define ACCEL_LINUX_H
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACCEL_LINUX_MAX_LINES
#define ACCEL_LINUX_MAX_LINES 8 /* port GPIO/IRQ line numbers 0 .. MAX-1 */
#endif

/* One requested GPIO line. The port line number is the index in accel_linux.lines. */
typedef struct accel_linux_line {
    int fd;          /* line request fd from GPIO_V2_GET_LINE_IOCTL; -1 = not requested */
    uint32_t offset; /* line offset on the chip */
    int is_irq;      /* 1: edge-event input (wait_irq), 0: output (gpio_set) */
} accel_linux_line;

typedef struct accel_linux {
    int spi_fd;           /* -1 when closed */
    uint8_t spi_cs;       /* the chip select the spidev node drives (C of spidevB.C) */
    uint8_t spi_held;     /* 1: the last transfer kept chip select asserted (KEEP_CS) */
    int i2c_fd;           /* -1 when closed */
    int gpio_fd;          /* gpiochip fd, -1 when closed */
    accel_linux_line lines[ACCEL_LINUX_MAX_LINES];
    void *usb_ctx;        /* libusb_context *, NULL when closed */
    void *usb_handle;     /* libusb_device_handle * */
    int usb_iface;        /* claimed interface, -1 none */
    uint16_t usb_intr_in; /* bit n: IN endpoint n is an interrupt endpoint */
    int last_errno;       /* errno of the last failed OS call (0: none yet) */
    int last_usb_error;   /* libusb error code of the last failed libusb call (0: none) */
} accel_linux;

/* Mark everything closed. Call once before any open. */
accel_status accel_linux_init(accel_linux *lx);
/* Fill *port with the callbacks this build has (user = lx). */
accel_status accel_linux_port(accel_linux *lx, accel_port *port);
/* Close every bus that is open; lx can be reopened afterwards. */
void accel_linux_close(accel_linux *lx);

/* errno -> accel_status: ENOENT/ENODEV/ENXIO no device, EACCES/EPERM access, ETIMEDOUT
 * timeout, EBUSY busy, EINVAL arg, anything else ACCEL_E_IO. */
accel_status accel_linux_errno_status(int err);
/* Keep err in lx->last_errno and return its status (for the bus files). */
accel_status accel_linux_fail(accel_linux *lx, int err);

/* Open a device node read/write into *fd_slot (for the bus files): ACCEL_E_BUSY when the
 * slot already holds an open node, the errno's status (kept in last_errno) when open fails. */
accel_status accel_linux_open_node(accel_linux *lx, const char *path, int *fd_slot);

/* Build "<prefix><a>" or "<prefix><a>.<b>" (has_b) into buf, NUL-terminated (no stdio). */
accel_status accel_linux_devpath(char *buf, size_t cap, const char *prefix, unsigned a,
                                 int has_b, unsigned b);

/* Monotonic clock (CLOCK_MONOTONIC) in ms, and a nanosleep delay; user is ignored. */
uint32_t accel_linux_now_ms(void *user);
void accel_linux_delay_ms(void *user, uint32_t ms);

/* The callbacks, for ports that mix buses from several places (user = accel_linux *). */
accel_status accel_linux_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                      size_t len, unsigned flags);
accel_status accel_linux_i2c_write_read(void *user, uint16_t addr, const uint8_t *w,
                                        size_t wlen, uint8_t *r, size_t rlen);
accel_status accel_linux_gpio_set(void *user, unsigned line, unsigned level);
accel_status accel_linux_wait_irq(void *user, unsigned line, uint32_t timeout_ms);
void accel_linux_spi_close(accel_linux *lx);
void accel_linux_i2c_close(accel_linux *lx);
void accel_linux_gpio_close(accel_linux *lx);
void accel_linux_usb_close(accel_linux *lx); /* no-op without ACCEL_HAVE_LIBUSB */

#ifdef __cplusplus
}
#endif
#endif
