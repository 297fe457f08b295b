/* accel_zephyr.h - the Zephyr port: an accel_port over Zephyr's SPI, I2C and GPIO drivers, its
 * semaphores and its uptime clock. Zephyr 4.1 to 4.3 (see the README, "Zephyr").
 *
 * Usage (the module adds accel.h and this header to the include path when CONFIG_ACCEL=y):
 *   #define TSP1 DT_NODELABEL(tsp1)
 *   static const struct spi_dt_spec spi =
 *       ACCEL_ZEPHYR_SPI_DT_SPEC_GET(TSP1, SPI_WORD_SET(8) | SPI_TRANSFER_MSB);
 *   static const struct gpio_dt_spec intb = GPIO_DT_SPEC_GET(TSP1, intb_gpios);
 *   static const struct gpio_dt_spec wake = GPIO_DT_SPEC_GET(TSP1, wake_gpios);
 *   static accel_zephyr z;                  // holds semaphores and callbacks: keep it alive
 *   accel_port port;
 *   accel_zephyr_init(&z);
 *   accel_zephyr_spi_attach(&z, 0, &spi);   // spi_transfer chip select 0 = this device
 *   accel_zephyr_irq_attach(&z, 0, &intb);  // wait_irq line 0: interrupt on the edge to active
 *   accel_zephyr_output_attach(&z, 1, &wake);  // gpio_set line 1, starts inactive
 *   accel_zephyr_port(&z, &port);           // give &port to a driver
 *   ... on an error, z.last_errno holds the errno Zephyr returned (positive, <errno.h>)
 *   accel_zephyr_close(&z);                 // interrupts off, callbacks removed
 *
 * Levels are logical: a pin flagged GPIO_ACTIVE_LOW in the devicetree is asserted when low.
 *
 * SPI and chip select. Each spi_transfer that ends a transaction (no ACCEL_SPI_KEEP_CS) is
 * exactly one spi_transceive_dt call, so chip select is asserted once for the whole transaction.
 * A transfer with ACCEL_SPI_KEEP_CS is not put on the bus at once: its tx bytes are copied into
 * this struct (at most ACCEL_ZEPHYR_SPI_HOLD_BYTES in all) and its rx buffer remembered; the
 * transfer that ends the transaction sends everything in one spi_buf_set. So rx of a KEEP_CS
 * part is filled only when that last call returns (accel's drivers send a header with KEEP_CS
 * and read nothing during it). Why not SPI_HOLD_ON_CS | SPI_LOCK_ON with spi_release_dt: Zephyr
 * documents HOLD_ON_CS as an attempt "if supported and possible", and the lock is tied to one
 * spi_config pointer, so an error between the two calls could leave the bus locked; a single
 * buffer set is a single transaction on every controller. A transfer with tx NULL sends 0x00
 * bytes from a zeroed block in this struct (Zephyr would send the controller's overrun
 * character, 0xFF on some). A transaction takes at most ACCEL_ZEPHYR_SPI_MAX_BUFS spi_bufs per
 * direction: the held bytes take one, a tx-NULL part one per ACCEL_ZEPHYR_SPI_ZERO_BYTES; more is
 * ACCEL_E_TOO_LONG, with nothing sent. Any failure ends the transaction (held parts dropped).
 *
 * I2C: i2c_write_read is i2c_write_read_dt, i2c_write_dt or i2c_read_dt on the attached device
 * whose address equals addr.
 *
 * IRQ lines: the pin is an input with an interrupt on the edge to active, whose callback gives a
 * semaphore. wait_irq drops stale gives, returns at once while the pin reads active (level
 * semantics), else waits on the semaphore up to timeout_ms (0: no wait). The clock is
 * k_uptime_get truncated to 32 bits; delay_ms is k_msleep.
 *
 * Zephyr's negative errno becomes an accel_status (accel_zephyr_errno_status) and is kept in
 * last_errno; a timeout of wait_irq is ACCEL_E_TIMEOUT and leaves last_errno alone.
 *
 * USB (the Edge TPU): no callbacks. Zephyr 4.3.0's USB host stack is experimental. Its public
 * header, zephyr/usb/usbh.h, has usbh_init/enable/disable/shutdown and a class registration
 * (USBH_DEFINE_CLASS) whose callbacks see connect/remove events and completed transfers, with no
 * device handle and no function to queue a transfer: usbh_xfer_alloc/usbh_xfer_enqueue are in
 * the stack's internal subsys/usb/host/usbh_device.h, and the UHC driver API below them belongs
 * to the stack (using it directly would bypass its enumeration). The release has no vendor
 * class; one with bulk read/write (usbh_vendor.h) was added to Zephyr's repository after 4.3.0,
 * still without control transfers. The Edge TPU needs vendor control requests and bulk
 * transfers, so usb_control, usb_bulk_out and usb_bulk_in stay NULL (ACCEL_E_UNSUPPORTED).
 * The register callbacks stay NULL too (no memory-mapped accelerator on these targets).
 *
 * A bus whose Kconfig option is off (CONFIG_SPI, CONFIG_I2C, CONFIG_GPIO) has no attach
 * function and its callbacks return ACCEL_E_UNSUPPORTED. Not thread-safe: one accel_zephyr per
 * driver, used from one thread. */
#ifndef ACCEL_ZEPHYR_H
#define ACCEL_ZEPHYR_H
#include "accel.h"
#include <zephyr/kernel.h>
#ifdef CONFIG_SPI
#include <zephyr/drivers/spi.h>
#include <zephyr/version.h>
/* SPI_DT_SPEC_GET for every supported release: before 4.3 it takes (node, operation, delay);
 * 4.3 takes (node, operation) and warns on a third argument (fatal with -Werror). */
#if ZEPHYR_VERSION_CODE < ZEPHYR_VERSION(4, 3, 0)
#define ACCEL_ZEPHYR_SPI_DT_SPEC_GET(node_id, operation) SPI_DT_SPEC_GET(node_id, operation, 0)
#else
#define ACCEL_ZEPHYR_SPI_DT_SPEC_GET(node_id, operation) SPI_DT_SPEC_GET(node_id, operation)
#endif
#endif
#ifdef CONFIG_I2C
#include <zephyr/drivers/i2c.h>
#endif
#ifdef CONFIG_GPIO
#include <zephyr/drivers/gpio.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Sizes (Kconfig sets them under the module; these are the defaults elsewhere). */
#ifdef CONFIG_ACCEL_ZEPHYR_MAX_SPI
#define ACCEL_ZEPHYR_MAX_SPI CONFIG_ACCEL_ZEPHYR_MAX_SPI
#else
#define ACCEL_ZEPHYR_MAX_SPI 1 /* chip selects 0 .. MAX-1 */
#endif
#ifdef CONFIG_ACCEL_ZEPHYR_MAX_I2C
#define ACCEL_ZEPHYR_MAX_I2C CONFIG_ACCEL_ZEPHYR_MAX_I2C
#else
#define ACCEL_ZEPHYR_MAX_I2C 1 /* attached I2C devices */
#endif
#ifdef CONFIG_ACCEL_ZEPHYR_MAX_LINES
#define ACCEL_ZEPHYR_MAX_LINES CONFIG_ACCEL_ZEPHYR_MAX_LINES
#else
#define ACCEL_ZEPHYR_MAX_LINES 4 /* gpio_set / wait_irq lines 0 .. MAX-1 */
#endif
#ifdef CONFIG_ACCEL_ZEPHYR_SPI_HOLD_BYTES
#define ACCEL_ZEPHYR_SPI_HOLD_BYTES CONFIG_ACCEL_ZEPHYR_SPI_HOLD_BYTES
#else
#define ACCEL_ZEPHYR_SPI_HOLD_BYTES 16 /* tx bytes of KEEP_CS parts per transaction */
#endif
#ifdef CONFIG_ACCEL_ZEPHYR_SPI_ZERO_BYTES
#define ACCEL_ZEPHYR_SPI_ZERO_BYTES CONFIG_ACCEL_ZEPHYR_SPI_ZERO_BYTES
#else
#define ACCEL_ZEPHYR_SPI_ZERO_BYTES 64 /* zeroed block a tx-NULL transfer sends from */
#endif
#ifdef CONFIG_ACCEL_ZEPHYR_SPI_MAX_BUFS
#define ACCEL_ZEPHYR_SPI_MAX_BUFS CONFIG_ACCEL_ZEPHYR_SPI_MAX_BUFS
#else
#define ACCEL_ZEPHYR_SPI_MAX_BUFS 8 /* spi_bufs per direction in one transaction */
#endif
#if ACCEL_ZEPHYR_SPI_MAX_BUFS < 2 || ACCEL_ZEPHYR_SPI_HOLD_BYTES < 1 || ACCEL_ZEPHYR_SPI_ZERO_BYTES < 1
#error "accel_zephyr: SPI_MAX_BUFS must be >= 2, SPI_HOLD_BYTES and SPI_ZERO_BYTES >= 1"
#endif

/* One gpio_set or wait_irq line. */
typedef struct accel_zephyr_line {
#ifdef CONFIG_GPIO
    struct gpio_callback cb; /* first: the interrupt callback finds its line from it */
    const struct gpio_dt_spec *spec; /* NULL: not attached */
#endif
    struct k_sem sem;        /* given by the interrupt callback */
    uint32_t mask;           /* the pin's bit on its port */
    uint8_t is_irq;          /* 1: input for wait_irq, 0: output for gpio_set */
} accel_zephyr_line;

typedef struct accel_zephyr {
#ifdef CONFIG_SPI
    const struct spi_dt_spec *spi[ACCEL_ZEPHYR_MAX_SPI]; /* by chip select; NULL: none */
    struct spi_buf hold_rx[ACCEL_ZEPHYR_SPI_MAX_BUFS];  /* rx of each held KEEP_CS part */
#endif
#ifdef CONFIG_I2C
    const struct i2c_dt_spec *i2c[ACCEL_ZEPHYR_MAX_I2C];
#endif
    accel_zephyr_line lines[ACCEL_ZEPHYR_MAX_LINES];
    size_t hold_len;     /* tx bytes held in hold_tx */
    uint8_t hold_parts;  /* KEEP_CS parts held (0: no transaction open) */
    uint8_t hold_cs;     /* their chip select */
    uint8_t hold_tx[ACCEL_ZEPHYR_SPI_HOLD_BYTES];
    uint8_t zeros[ACCEL_ZEPHYR_SPI_ZERO_BYTES]; /* in RAM: DMA controllers cannot read flash */
    int last_errno;      /* errno of the last failed Zephyr call (positive; 0: none yet) */
} accel_zephyr;

/* Forget every attachment (no Zephyr call). Call once before any attach. */
accel_status accel_zephyr_init(accel_zephyr *z);
/* Fill *port with this port's callbacks (user = z). */
accel_status accel_zephyr_port(accel_zephyr *z, accel_port *port);
/* Disable and unregister every IRQ line's interrupt, drop a held SPI transaction, forget all
 * attachments. z may then be reused after accel_zephyr_init. */
void accel_zephyr_close(accel_zephyr *z);

/* errno (positive) -> accel_status: ETIMEDOUT/EAGAIN timeout; EBUSY/EALREADY busy; EINVAL arg;
 * ENOTSUP/ENOSYS unsupported; ENODEV/ENXIO/ENOENT no device; EACCES/EPERM access; EMSGSIZE too
 * long; ENOMEM/ENOBUFS/ENOSPC full; EIO and anything else ACCEL_E_IO. */
accel_status accel_zephyr_errno_status(int err);
/* Keep -ret (a negative Zephyr return) in z->last_errno and return its status. */
accel_status accel_zephyr_fail(accel_zephyr *z, int ret);

#ifdef CONFIG_SPI
/* Chip select cs (0 .. ACCEL_ZEPHYR_MAX_SPI-1) is the device spec describes (the spec must
 * outlive z). ACCEL_E_NO_DEVICE when spi_is_ready_dt says no; ACCEL_E_BUSY when cs is taken. */
accel_status accel_zephyr_spi_attach(accel_zephyr *z, uint8_t cs, const struct spi_dt_spec *spec);
#endif
#ifdef CONFIG_I2C
/* Make the device at spec->addr reachable through i2c_write_read (a free slot is used). */
accel_status accel_zephyr_i2c_attach(accel_zephyr *z, const struct i2c_dt_spec *spec);
#endif
#ifdef CONFIG_GPIO
/* Line `line` drives spec through gpio_set; configured as an output at logical 0. */
accel_status accel_zephyr_output_attach(accel_zephyr *z, unsigned line,
                                        const struct gpio_dt_spec *spec);
/* Line `line` is spec for wait_irq: input, interrupt on the edge to active. */
accel_status accel_zephyr_irq_attach(accel_zephyr *z, unsigned line,
                                     const struct gpio_dt_spec *spec);
#endif

/* The callbacks (user = accel_zephyr *), for ports that mix buses from several places. */
accel_status accel_zephyr_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                       size_t len, unsigned flags);
accel_status accel_zephyr_i2c_write_read(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                         uint8_t *r, size_t rlen);
accel_status accel_zephyr_gpio_set(void *user, unsigned line, unsigned level);
accel_status accel_zephyr_wait_irq(void *user, unsigned line, uint32_t timeout_ms);
uint32_t accel_zephyr_now_ms(void *user);
void accel_zephyr_delay_ms(void *user, uint32_t ms);

#ifdef __cplusplus
}
#endif
#endif
