/* test_linux_port.c - the Linux port (ports/linux) without hardware: errno and libusb code
 * mapping, opening missing nodes, calls on closed buses, the real spidev/i2c-dev/GPIO ioctls
 * against files that are not devices (the kernel answers ENOTTY), no fd leaks on error paths,
 * the clock and delay, libusb init and a missing VID:PID, NULL callbacks through the wrappers.
 * Nothing here can exercise a real SPI/I2C/GPIO/USB device: see accel-linux-probe for that. */
#define _GNU_SOURCE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "accel_linux.h"
#include "accel_linux_spi.h"
#include "accel_linux_i2c.h"
#include "accel_linux_gpio.h"
#include "accel_linux_usb.h"

#ifdef __linux__
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#ifdef ACCEL_HAVE_LIBUSB
#include <libusb.h>
#endif

static int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void test_errno_map(void)
{
    accel_linux lx;
    CHECK_ST(accel_linux_errno_status(ENOENT), ACCEL_E_NO_DEVICE);
    CHECK_ST(accel_linux_errno_status(ENODEV), ACCEL_E_NO_DEVICE);
    CHECK_ST(accel_linux_errno_status(ENXIO), ACCEL_E_NO_DEVICE);
    CHECK_ST(accel_linux_errno_status(EACCES), ACCEL_E_ACCESS);
    CHECK_ST(accel_linux_errno_status(EPERM), ACCEL_E_ACCESS);
    CHECK_ST(accel_linux_errno_status(ETIMEDOUT), ACCEL_E_TIMEOUT);
    CHECK_ST(accel_linux_errno_status(EBUSY), ACCEL_E_BUSY);
    CHECK_ST(accel_linux_errno_status(EINVAL), ACCEL_E_ARG);
    CHECK_ST(accel_linux_errno_status(EIO), ACCEL_E_IO);
    CHECK_ST(accel_linux_errno_status(ENOTTY), ACCEL_E_IO);
    CHECK_ST(accel_linux_errno_status(EREMOTEIO), ACCEL_E_IO);
    CHECK_ST(accel_linux_errno_status(EMSGSIZE), ACCEL_E_IO);
    CHECK_ST(accel_linux_errno_status(0), ACCEL_E_IO); /* a failure without errno is still one */
    accel_linux_init(&lx);
    CHECK_EQ(lx.last_errno, 0);
    CHECK_ST(accel_linux_fail(&lx, EACCES), ACCEL_E_ACCESS);
    CHECK_EQ(lx.last_errno, EACCES);
}

static void test_init_and_paths(void)
{
    accel_linux lx;
    char p[24];
    unsigned i;
    memset(&lx, 0x5A, sizeof lx);
    REQUIRE_ST(accel_linux_init(&lx), ACCEL_OK);
    CHECK_ST(accel_linux_init(NULL), ACCEL_E_NULL);
    CHECK_EQ(lx.spi_fd, -1);
    CHECK_EQ(lx.i2c_fd, -1);
    CHECK_EQ(lx.gpio_fd, -1);
    for (i = 0; i < ACCEL_LINUX_MAX_LINES; i++) CHECK_EQ(lx.lines[i].fd, -1);
    CHECK(lx.usb_ctx == NULL && lx.usb_handle == NULL);
    CHECK_EQ(lx.usb_iface, -1);
    CHECK_EQ(lx.last_errno, 0);
    CHECK_EQ(lx.last_usb_error, 0);
    accel_linux_close(&lx); /* closing what was never opened is harmless */
    CHECK_EQ(lx.spi_fd, -1);

    CHECK_ST(accel_linux_devpath(p, sizeof p, "/dev/i2c-", 0, 0, 0), ACCEL_OK);
    CHECK_STR(p, "/dev/i2c-0");
    CHECK_ST(accel_linux_devpath(p, sizeof p, "/dev/spidev", 10, 1, 205), ACCEL_OK);
    CHECK_STR(p, "/dev/spidev10.205");
    CHECK_ST(accel_linux_devpath(p, 18, "/dev/spidev", 10, 1, 205), ACCEL_OK); /* 17 + NUL */
    CHECK_STR(p, "/dev/spidev10.205");
    CHECK_ST(accel_linux_devpath(p, 17, "/dev/spidev", 10, 1, 205), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_devpath(p, 13, "/dev/spidev", 10, 1, 205), ACCEL_E_BUFFER_TOO_SMALL);
    /* "/dev/i2c-123456" is 15 chars: fits 16 with its NUL, not 15 */
    CHECK_ST(accel_linux_devpath(p, 16, "/dev/i2c-", 123456, 0, 0), ACCEL_OK);
    CHECK_STR(p, "/dev/i2c-123456");
    CHECK_ST(accel_linux_devpath(p, 15, "/dev/i2c-", 123456, 0, 0), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_devpath(p, 4, "/dev/i2c-", 1, 0, 0), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_devpath(p, 20, "/dev/spidev", 1234, 1, 5678),
             ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_devpath(NULL, 8, "x", 1, 0, 0), ACCEL_E_NULL);
}

static void test_missing_nodes(void)
{
    accel_linux lx;
    int fds = count_fds();
    accel_linux_init(&lx);
    CHECK_ST(accel_linux_spi_open(&lx, 99, 0, 0, 1000000, 8), ACCEL_E_NO_DEVICE);
    CHECK_EQ(lx.last_errno, ENOENT);
    CHECK_EQ(lx.spi_fd, -1);
    lx.last_errno = 0;
    CHECK_ST(accel_linux_i2c_open(&lx, 99), ACCEL_E_NO_DEVICE);
    CHECK_EQ(lx.last_errno, ENOENT);
    CHECK_EQ(lx.i2c_fd, -1);
    lx.last_errno = 0;
    CHECK_ST(accel_linux_gpio_open(&lx, 99), ACCEL_E_NO_DEVICE);
    CHECK_EQ(lx.last_errno, ENOENT);
    CHECK_EQ(lx.gpio_fd, -1);
    CHECK_ST(accel_linux_spi_open(&lx, 0, 256, 0, 1000000, 8), ACCEL_E_ARG);
    CHECK_ST(accel_linux_spi_open(NULL, 0, 0, 0, 1, 8), ACCEL_E_NULL);
    CHECK_ST(accel_linux_i2c_open_path(&lx, NULL), ACCEL_E_NULL);
    CHECK_EQ(count_fds(), fds);
}

static void test_closed(void)
{
    accel_linux lx;
    accel_port port;
    uint8_t b[4] = {1, 2, 3, 4};
    size_t done = 99;
    accel_linux_init(&lx);
    CHECK_ST(accel_linux_port(&lx, &port), ACCEL_OK);
    CHECK_ST(accel_linux_port(NULL, &port), ACCEL_E_NULL);
    CHECK(port.user == &lx);
    CHECK_ST(accel_port_spi_transfer(&port, 0, b, b, 4, 0), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x48, b, 1, b, 2), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_gpio_set(&port, 0, 1), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_wait_irq(&port, 0, 5), ACCEL_E_CLOSED);
    CHECK_ST(accel_port_gpio_set(&port, ACCEL_LINUX_MAX_LINES, 1), ACCEL_E_ARG);
    CHECK_ST(accel_port_wait_irq(&port, ACCEL_LINUX_MAX_LINES, 0), ACCEL_E_ARG);
    CHECK_ST(accel_linux_gpio_request_output(&lx, 0, 1, 0, 0), ACCEL_E_CLOSED);
    CHECK_ST(accel_linux_gpio_request_irq(&lx, 0, 1, 0), ACCEL_E_CLOSED);
#ifdef ACCEL_HAVE_LIBUSB
    CHECK_ST(accel_port_usb_control(&port, 0xC0, 1, 0, 0, b, 4, 10, &done), ACCEL_E_CLOSED);
    CHECK_EQ(done, 0);
    done = 99;
    CHECK_ST(accel_port_usb_bulk_out(&port, 0x01, b, 4, 10, &done), ACCEL_E_CLOSED);
    CHECK_EQ(done, 0);
    done = 99;
    CHECK_ST(accel_port_usb_bulk_in(&port, 0x81, b, 4, 10, &done), ACCEL_E_CLOSED);
    CHECK_EQ(done, 0);
    /* direction is checked by the callbacks too (a port may be called without the wrappers) */
    done = 99;
    CHECK_ST(accel_linux_usb_bulk_out(&lx, 0x81, b, 4, 10, &done), ACCEL_E_ARG);
    CHECK_EQ(done, 0);
    done = 99;
    CHECK_ST(accel_linux_usb_bulk_in(&lx, 0x01, b, 4, 10, &done), ACCEL_E_ARG);
    CHECK_EQ(done, 0);
    CHECK_ST(accel_linux_usb_control(&lx, 0xC0, 1, 0, 0, NULL, 4, 10, &done), ACCEL_E_NULL);
#else
    CHECK_ST(accel_port_usb_control(&port, 0xC0, 1, 0, 0, b, 4, 10, &done), ACCEL_E_UNSUPPORTED);
#endif
    CHECK_EQ(lx.last_errno, 0); /* no OS call was made */
}

static void test_spidev_on_non_device(void)
{
    accel_linux lx;
    accel_port port;
    uint8_t tx[3] = {0x9F, 0, 0}, rx[3] = {0xEE, 0xEE, 0xEE};
    char node[] = "/tmp/accel_spi_XXXXXX"; /* not /dev/null: the port locks what it opens */
    int fds = count_fds(), tfd = mkstemp(node);
    CHECK(tfd >= 0);
    if (tfd < 0) return;
    close(tfd);
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    /* configuring: SPI_IOC_WR_MODE on a regular file is refused with ENOTTY; the fd is closed */
    CHECK_ST(accel_linux_spi_open_path(&lx, node, 0, 0, 1000000, 8), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(lx.spi_fd, -1);
    CHECK_EQ(count_fds(), fds);
    /* speed 0 keeps settings: opens, then the transfer ioctl itself gets ENOTTY */
    lx.last_errno = 0;
    CHECK_ST(accel_linux_spi_open_path(&lx, node, 2, 0, 0, 8), ACCEL_OK);
    CHECK(lx.spi_fd >= 0);
    CHECK_EQ(lx.spi_cs, 2);
    CHECK_ST(accel_linux_spi_open_path(&lx, node, 2, 0, 0, 8), ACCEL_E_BUSY);
    CHECK_ST(accel_port_spi_transfer(&port, 2, tx, rx, 3, 0), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    lx.last_errno = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 2, NULL, rx, 3, ACCEL_SPI_KEEP_CS), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(rx[0], 0xEE); /* nothing was written on failure */
    CHECK_EQ(lx.spi_held, 0); /* a failed message leaves chip select deasserted */
    /* length 0 ends a held transaction: with none held no ioctl is made... */
    lx.last_errno = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 2, NULL, NULL, 0, 0), ACCEL_OK);
    CHECK_EQ(lx.last_errno, 0);
    /* ...with one held, the empty message goes to spidev (here: ENOTTY from a regular file) */
    lx.spi_held = 1;
    CHECK_ST(accel_port_spi_transfer(&port, 2, NULL, NULL, 0, 0), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(lx.spi_held, 0);
    CHECK_ST(port.spi_transfer(port.user, 2, NULL, NULL, 0, ACCEL_SPI_KEEP_CS), ACCEL_E_ZERO_LENGTH);
    lx.last_errno = 0;
    CHECK_ST(accel_port_spi_transfer(&port, 0, tx, rx, 3, 0), ACCEL_E_ARG); /* wrong cs */
    CHECK_EQ(lx.last_errno, 0);
    accel_linux_close(&lx);
    CHECK_EQ(lx.spi_fd, -1);
    CHECK_ST(accel_port_spi_transfer(&port, 2, tx, rx, 3, 0), ACCEL_E_CLOSED);
    CHECK_EQ(count_fds(), fds);
    unlink(node);
}

static void test_i2cdev_on_non_device(void)
{
    static uint8_t big[65536];
    accel_linux lx;
    accel_port port;
    char tmpl[] = "/tmp/accel_i2c_XXXXXX";
    uint8_t w[1] = {0x0F}, r[2] = {0xEE, 0xEE};
    int fds = count_fds(), tfd = mkstemp(tmpl);
    CHECK(tfd >= 0);
    if (tfd < 0) return;
    close(tfd);
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    CHECK_ST(accel_linux_i2c_open_path(&lx, tmpl), ACCEL_OK); /* a regular file opens fine */
    CHECK_ST(accel_linux_i2c_open_path(&lx, tmpl), ACCEL_E_BUSY);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, w, 1, r, 2), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    lx.last_errno = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, NULL, 0, r, 2), ACCEL_E_IO); /* read only */
    CHECK_EQ(lx.last_errno, ENOTTY);
    lx.last_errno = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, w, 1, NULL, 0), ACCEL_E_IO); /* write only */
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(r[0], 0xEE);
    /* refused before the ioctl: i2c_msg.len is 16 bits, addresses are 7 bits */
    lx.last_errno = 0;
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, big, sizeof big, r, 2), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, w, 1, big, sizeof big), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_port_i2c_write_read(&port, 0x50, big, 65535, big, 65535), ACCEL_E_IO);
    CHECK_ST(accel_linux_i2c_write_read(&lx, 0x80, w, 1, r, 2), ACCEL_E_ARG);
    CHECK_ST(accel_linux_i2c_write_read(&lx, 0x50, NULL, 1, r, 2), ACCEL_E_NULL);
    CHECK_ST(accel_linux_i2c_write_read(&lx, 0x50, w, 0, r, 0), ACCEL_E_ZERO_LENGTH);
    accel_linux_close(&lx);
    CHECK_EQ(lx.i2c_fd, -1);
    unlink(tmpl);
    CHECK_EQ(count_fds(), fds);
}

static void test_gpio_on_non_device(void)
{
    accel_linux lx;
    accel_port port;
    int fds = count_fds();
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    CHECK_ST(accel_linux_gpio_open_path(&lx, "/dev/null"), ACCEL_OK);
    CHECK_ST(accel_linux_gpio_open_path(&lx, "/dev/null"), ACCEL_E_BUSY);
    CHECK_ST(accel_linux_gpio_request_output(&lx, 0, 17, 1, 0), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(lx.lines[0].fd, -1);
    lx.last_errno = 0;
    CHECK_ST(accel_linux_gpio_request_irq(&lx, 1, 25, 1), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_EQ(lx.lines[1].fd, -1);
    CHECK_ST(accel_linux_gpio_request_output(&lx, ACCEL_LINUX_MAX_LINES, 1, 0, 0), ACCEL_E_ARG);
    CHECK_ST(accel_linux_gpio_request_output(&lx, 0, 1, 2, 0), ACCEL_E_ARG);
    CHECK_ST(accel_port_gpio_set(&port, 0, 1), ACCEL_E_CLOSED); /* line never requested */

    /* Pretend line 2 is an output and line 3 an IRQ whose request fds are not GPIO lines:
     * the value ioctls really run and the kernel answers ENOTTY. */
    lx.lines[2].fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    lx.lines[2].is_irq = 0;
    lx.lines[3].fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    lx.lines[3].is_irq = 1;
    CHECK(lx.lines[2].fd >= 0 && lx.lines[3].fd >= 0);
    lx.last_errno = 0;
    CHECK_ST(accel_port_gpio_set(&port, 2, 1), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    lx.last_errno = 0;
    CHECK_ST(accel_port_wait_irq(&port, 3, 10), ACCEL_E_IO);
    CHECK_EQ(lx.last_errno, ENOTTY);
    CHECK_ST(accel_port_gpio_set(&port, 3, 1), ACCEL_E_ARG); /* an IRQ line is not an output */
    CHECK_ST(accel_port_wait_irq(&port, 2, 0), ACCEL_E_ARG); /* nor an output an IRQ */
    CHECK_ST(accel_linux_gpio_request_output(&lx, 2, 1, 0, 0), ACCEL_E_BUSY);
    accel_linux_gpio_release(&lx, 2);
    CHECK_EQ(lx.lines[2].fd, -1);
    CHECK_ST(accel_port_gpio_set(&port, 2, 1), ACCEL_E_CLOSED);
    accel_linux_close(&lx); /* closes line 3 and the chip */
    CHECK_EQ(lx.lines[3].fd, -1);
    CHECK_EQ(lx.gpio_fd, -1);
    CHECK_EQ(count_fds(), fds);
}

static void test_clock_and_delay(void)
{
    accel_linux lx;
    accel_port port;
    uint32_t a, b, c;
    double t0, t1;
    int i, mono = 1;
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    CHECK_ST(accel_port_now_ms(&port, &a), ACCEL_OK);
    for (i = 0; i < 100000; i++) {
        CHECK_ST(accel_port_now_ms(&port, &b), ACCEL_OK);
        if (accel_time_diff(b, a) < 0) mono = 0;
        a = b;
    }
    CHECK(mono);
    CHECK_ST(accel_port_now_ms(&port, &a), ACCEL_OK);
    t0 = mono_ms();
    CHECK_ST(accel_port_delay_ms(&port, 20), ACCEL_OK);
    t1 = mono_ms();
    CHECK_ST(accel_port_now_ms(&port, &b), ACCEL_OK);
    printf("  delay_ms(20): %.3f ms measured, now_ms advanced %ld ms\n", t1 - t0,
           (long)accel_time_diff(b, a));
    CHECK(t1 - t0 >= 20.0);
    CHECK(t1 - t0 < 200.0); /* generous: a loaded CI machine may oversleep */
    CHECK(accel_time_diff(b, a) >= 20 && accel_time_diff(b, a) < 200);
    t0 = mono_ms();
    accel_linux_delay_ms(NULL, 0);
    CHECK(mono_ms() - t0 < 50.0);
    /* now_ms is CLOCK_MONOTONIC in ms, truncated to 32 bits */
    c = accel_linux_now_ms(NULL);
    CHECK(accel_time_diff(c, (uint32_t)(uint64_t)mono_ms()) <= 1 &&
          accel_time_diff(c, (uint32_t)(uint64_t)mono_ms()) >= -1);
}

static void test_null_callbacks_unsupported(void)
{
    accel_linux lx;
    accel_port full, p;
    uint8_t b[4] = {0};
    uint32_t v32 = 0, now = 0;
    uint64_t v64 = 0;
    size_t done = 0;
    accel_linux_init(&lx);
    accel_linux_port(&lx, &full);
    /* the Linux port has no register access */
    CHECK_ST(accel_port_reg_read32(&full, 0, &v32), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_write32(&full, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_read64(&full, 0, &v64), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_reg_write64(&full, 0, 1), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_poll32(&full, 0, 1, 1, 10, 1, &v32), ACCEL_E_UNSUPPORTED);
    /* each callback it does have, once removed, is reported unsupported */
    p = full; p.spi_transfer = NULL;
    CHECK_ST(accel_port_spi_transfer(&p, 0, b, b, 4, 0), ACCEL_E_UNSUPPORTED);
    p = full; p.i2c_write_read = NULL;
    CHECK_ST(accel_port_i2c_write_read(&p, 0x10, b, 1, b, 1), ACCEL_E_UNSUPPORTED);
    p = full; p.usb_control = NULL;
    CHECK_ST(accel_port_usb_control(&p, 0x40, 0, 0, 0, b, 4, 10, &done), ACCEL_E_UNSUPPORTED);
    p = full; p.usb_bulk_out = NULL;
    CHECK_ST(accel_port_usb_bulk_out(&p, 1, b, 4, 10, &done), ACCEL_E_UNSUPPORTED);
    p = full; p.usb_bulk_in = NULL;
    CHECK_ST(accel_port_usb_bulk_in(&p, 0x81, b, 4, 10, &done), ACCEL_E_UNSUPPORTED);
    p = full; p.gpio_set = NULL;
    CHECK_ST(accel_port_gpio_set(&p, 0, 1), ACCEL_E_UNSUPPORTED);
    p = full; p.wait_irq = NULL;
    CHECK_ST(accel_port_wait_irq(&p, 0, 1), ACCEL_E_UNSUPPORTED);
    p = full; p.now_ms = NULL;
    CHECK_ST(accel_port_now_ms(&p, &now), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_port_delay_ms(&p, 1), ACCEL_OK); /* delay_ms is still there */
    p.delay_ms = NULL;
    CHECK_ST(accel_port_delay_ms(&p, 1), ACCEL_E_UNSUPPORTED);
    p = full; p.delay_ms = NULL; /* busy-waits on now_ms instead */
    CHECK_ST(accel_port_delay_ms(&p, 2), ACCEL_OK);
}

#ifdef ACCEL_HAVE_LIBUSB
static void test_usb_status_map(void)
{
    CHECK_ST(accel_linux_usb_status(LIBUSB_SUCCESS), ACCEL_OK);
    CHECK_ST(accel_linux_usb_status(5), ACCEL_OK); /* a byte count */
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_TIMEOUT), ACCEL_E_TIMEOUT);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_PIPE), ACCEL_E_STALL);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_NO_DEVICE), ACCEL_E_NO_DEVICE);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_NOT_FOUND), ACCEL_E_NO_DEVICE);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_ACCESS), ACCEL_E_ACCESS);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_BUSY), ACCEL_E_BUSY);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_INVALID_PARAM), ACCEL_E_ARG);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_OVERFLOW), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_NOT_SUPPORTED), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_IO), ACCEL_E_IO);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_INTERRUPTED), ACCEL_E_IO);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_NO_MEM), ACCEL_E_IO);
    CHECK_ST(accel_linux_usb_status(LIBUSB_ERROR_OTHER), ACCEL_E_IO);
}

static void test_usb_missing_device(void)
{
    accel_linux lx;
    libusb_context *ctx = NULL;
    int fds = count_fds(), rc = libusb_init(&ctx);
    CHECK_EQ(rc, 0); /* libusb works here, even with no USB bus */
    if (rc == 0) libusb_exit(ctx);
    accel_linux_init(&lx);
    /* 0xFFFF:0xFFFE is not a device anyone ships */
    CHECK_ST(accel_linux_usb_open(&lx, 0xFFFFu, 0xFFFEu, 0), ACCEL_E_NO_DEVICE);
    CHECK_EQ(lx.last_usb_error, LIBUSB_ERROR_NO_DEVICE);
    CHECK(lx.usb_ctx == NULL && lx.usb_handle == NULL); /* libusb_exit'ed on the error path */
    CHECK_EQ(lx.usb_iface, -1);
    CHECK_ST(accel_linux_usb_open(&lx, 0xFFFFu, 0xFFFEu, -1), ACCEL_E_ARG);
    CHECK_ST(accel_linux_usb_open(&lx, 0xFFFFu, 0xFFFEu, 256), ACCEL_E_ARG);
    CHECK_ST(accel_linux_usb_open(NULL, 1, 2, 0), ACCEL_E_NULL);
    accel_linux_close(&lx);
    CHECK_EQ(count_fds(), fds);
}
#endif

int main(void)
{
    RUN(test_errno_map);
    RUN(test_init_and_paths);
    RUN(test_missing_nodes);
    RUN(test_closed);
    RUN(test_spidev_on_non_device);
    RUN(test_i2cdev_on_non_device);
    RUN(test_gpio_on_non_device);
    RUN(test_clock_and_delay);
    RUN(test_null_callbacks_unsupported);
#ifdef ACCEL_HAVE_LIBUSB
    RUN(test_usb_status_map);
    RUN(test_usb_missing_device);
#else
    printf("  libusb-1.0 not found at build time: USB tests not built\n");
#endif
    return TEST_END();
}
#else
int main(void)
{
    printf("not Linux: nothing to test\n0 passed, 0 failed\n");
    return 0;
}
#endif
