/* accel_linux_base.h - what every file of the Linux port shares: the accel_linux struct and its
 * init, errno mapping, device node opening and naming, the monotonic clock and the delay.
 * The bus files (accel_linux_spi/i2c/gpio/usb/serial.c) depend on this file only, and
 * accel_linux.c, which assembles the accel_port, depends on them: no file includes back up.
 * Usage: see accel_linux.h (include that one; this header is for the bus files). */
#ifndef ACCEL_LINUX_BASE_H
#define ACCEL_LINUX_BASE_H
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
/* errno -> accel_status: ENOENT/ENODEV/ENXIO no device, EACCES/EPERM access, ETIMEDOUT
 * timeout, EBUSY busy, EINVAL arg, anything else ACCEL_E_IO. */
accel_status accel_linux_errno_status(int err);
/* Keep err in lx->last_errno and return its status (for the bus files). */
accel_status accel_linux_fail(accel_linux *lx, int err);

/* Open a device node read/write into *fd_slot (for the bus files): ACCEL_E_BUSY when the
 * slot already holds an open node, the errno's status (kept in last_errno) when open fails. */
accel_status accel_linux_open_node(accel_linux *lx, const char *path, int *fd_slot);
/* The same, then an exclusive flock on the node (spidev, i2c-dev: one session per device):
 * ACCEL_E_BUSY with last_errno EWOULDBLOCK when another open file holds it (another process,
 * or another accel_linux of this one), the node closed again. */
accel_status accel_linux_open_node_locked(accel_linux *lx, const char *path, int *fd_slot);

/* Build "<prefix><a>" or "<prefix><a>.<b>" (has_b) into buf, NUL-terminated (no stdio). */
accel_status accel_linux_devpath(char *buf, size_t cap, const char *prefix, unsigned a,
                                 int has_b, unsigned b);

/* Monotonic clock (CLOCK_MONOTONIC) in ms, and a nanosleep delay; user is ignored. */
uint32_t accel_linux_now_ms(void *user);
void accel_linux_delay_ms(void *user, uint32_t ms);

#ifdef __cplusplus
}
#endif
#endif
