/* bridge - the accel bridge's device side on Zephyr: the board runs accel_port operations that a
 * host sends over a UART, so every host tool drives the TSP1 wired to this board:
 *   accel-tsp1 --bridge /dev/ttyACM0,115200 info
 * Protocol: ports/bridge (COBS frames with a CRC-32, nanopb messages, exactly-once execution by
 * sequence number). This file only moves bytes: the UART's receive interrupt puts them into a
 * ring buffer and wakes the main thread, which feeds them to accel_bridge_device_feed; requests
 * run on the accel Zephyr port in that thread, and responses go out with uart_poll_out.
 *
 * Wiring (boards/<board>.overlay): the devicetree node labelled tsp1 (its SPI bus and chip
 * select, intb-gpios, wake-gpios) and the chosen accel,bridge-uart. The port's numbering is the
 * one the host tools use: chip select 0 is the TSP1, wait_irq line 0 is INTB, gpio_set line 1
 * is WAKE. A part that is not ready still leaves the bridge running: its requests answer with
 * the port's status (ACCEL_E_CLOSED, ...), which the host reports.
 *
 * One limit of the port shows through: it sends a transfer flagged ACCEL_SPI_KEEP_CS together
 * with the transfer that ends the transaction (one spi_transceive_dt, see accel_zephyr.h), so
 * the bytes such a transfer reads do not exist when its response must go out. Such a request
 * is refused (ACCEL_E_UNSUPPORTED) rather than answered with bytes not yet read, and the
 * bytes before a transaction's last message are held up to CONFIG_ACCEL_ZEPHYR_SPI_HOLD_BYTES
 * (255 here). accel's TSP1 driver reads nothing before a transaction's last transfer, and the
 * host splits a transfer into KEEP_CS messages only beyond 128 bytes: TSP1 reads of up to 128
 * bytes and writes of up to 256 bytes per transaction pass (the driver reads 64 at a time).
 *
 * Build: west build -b nrf52840dk/nrf52840 examples/zephyr/bridge (README, "Zephyr"). */
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/drivers/uart.h>
#include <zephyr/sys/ring_buffer.h>
#include <string.h>
#include "accel.h"
#include "accel_zephyr.h"
#include "accel_bridge_device.h"

#define TSP1_NODE DT_NODELABEL(tsp1)
#if !DT_NODE_EXISTS(TSP1_NODE)
#error "no devicetree node labelled tsp1: add boards/<board>.overlay (see the README)"
#endif
#if !DT_HAS_CHOSEN(accel_bridge_uart)
#error "no chosen accel,bridge-uart: name the bridge's UART in boards/<board>.overlay"
#endif

/* Port numbering, as the host tools expect it. */
#define LINE_INTB 0u
#define LINE_WAKE 1u
#define CS_TSP1 0u

/* Received bytes wait here while a request runs (a wait_irq can take seconds). The host has
 * one request in flight, plus its retry after a timeout: room for two of the largest frames. */
#define RX_RING_BYTES \
    (2u * ACCEL_BRIDGE_WIRE_SIZE(accel_bridge_Request_size + ACCEL_BRIDGE_CRC_SIZE))

static const struct spi_dt_spec tsp1_spi =
    ACCEL_ZEPHYR_SPI_DT_SPEC_GET(TSP1_NODE, SPI_WORD_SET(8) | SPI_TRANSFER_MSB);
static const struct gpio_dt_spec tsp1_intb = GPIO_DT_SPEC_GET(TSP1_NODE, intb_gpios);
static const struct gpio_dt_spec tsp1_wake = GPIO_DT_SPEC_GET(TSP1_NODE, wake_gpios);
static const struct device *const bridge_uart = DEVICE_DT_GET(DT_CHOSEN(accel_bridge_uart));

RING_BUF_DECLARE(bridge_rx_ring, RX_RING_BYTES);
static struct k_sem bridge_rx_sem;        /* given by the ISR when bytes arrived */
static volatile uint32_t bridge_rx_dropped; /* bytes lost to a full ring (the host retries) */
static accel_zephyr bridge_z;
static accel_port bridge_port;
static accel_bridge_device bridge_dev;

/* UART interrupt: move every received byte into the ring (the only producer). */
static void bridge_uart_isr(const struct device *dev, void *user_data)
{
    uint8_t buf[16];
    (void)user_data;
    if (uart_irq_update(dev) == 0) return; /* negative: the driver has no such step */
    while (uart_irq_rx_ready(dev) > 0) {
        int n = uart_fifo_read(dev, buf, (int)sizeof buf);
        uint32_t put;
        if (n <= 0) break;
        put = ring_buf_put(&bridge_rx_ring, buf, (uint32_t)n);
        if (put < (uint32_t)n) bridge_rx_dropped += (uint32_t)n - put;
        k_sem_give(&bridge_rx_sem);
    }
}

static accel_status bridge_write(void *user, const uint8_t *data, size_t n)
{
    size_t i;
    (void)user;
    for (i = 0; i < n; i++) uart_poll_out(bridge_uart, data[i]);
    return ACCEL_OK;
}

/* The errno behind the failure just reported, once: a later failure without one reports 0. */
static int32_t bridge_port_error(void *user)
{
    int32_t e = (int32_t)bridge_z.last_errno;
    (void)user;
    bridge_z.last_errno = 0;
    return e;
}

/* The port's SPI, minus what it cannot answer truthfully over the bridge (head comment). */
static accel_status bridge_spi(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                               unsigned flags)
{
    if ((flags & ACCEL_SPI_KEEP_CS) && rx && len) {
        /* a failure ends the transaction: its held parts were never clocked, drop them */
        bridge_z.hold_parts = 0;
        bridge_z.hold_len = 0;
        return ACCEL_E_UNSUPPORTED;
    }
    return accel_zephyr_spi_transfer(user, cs, tx, rx, len, flags);
}

/* Set up the port, the device side and the UART. 0, or -1 when the UART cannot be used. */
static int bridge_setup(void)
{
    accel_bridge_device_config c;
    if (!device_is_ready(bridge_uart)) return -1;
    if (k_sem_init(&bridge_rx_sem, 0, 1) != 0) return -1;
    if (accel_zephyr_init(&bridge_z) != ACCEL_OK) return -1;
    /* each part on its own: one that is not ready leaves the others usable */
    (void)accel_zephyr_spi_attach(&bridge_z, CS_TSP1, &tsp1_spi);
    (void)accel_zephyr_irq_attach(&bridge_z, LINE_INTB, &tsp1_intb);
    (void)accel_zephyr_output_attach(&bridge_z, LINE_WAKE, &tsp1_wake);
    if (accel_zephyr_port(&bridge_z, &bridge_port) != ACCEL_OK) return -1;
    bridge_z.last_errno = 0;
    bridge_port.spi_transfer = bridge_spi;
#ifndef CONFIG_I2C
    bridge_port.i2c_write_read = NULL; /* no I2C in this build: not announced at hello */
#endif
    memset(&c, 0, sizeof c);
    c.port = &bridge_port;
    c.write = bridge_write;
    c.port_error = bridge_port_error;
    if (accel_bridge_device_init(&bridge_dev, &c) != ACCEL_OK) return -1;
    if (uart_irq_callback_user_data_set(bridge_uart, bridge_uart_isr, NULL) < 0) return -1;
    uart_irq_rx_enable(bridge_uart);
    return 0;
}

/* Wait up to timeout for received bytes, then feed every byte the ring holds (the only
 * consumer). Returns the bytes fed. A response the UART could not take is counted in
 * bridge_dev.stats; the host retries it. */
static size_t bridge_service(k_timeout_t timeout)
{
    uint8_t chunk[64];
    size_t total = 0;
    uint32_t n;
    (void)k_sem_take(&bridge_rx_sem, timeout);
    while ((n = ring_buf_get(&bridge_rx_ring, chunk, (uint32_t)sizeof chunk)) > 0) {
        (void)accel_bridge_device_feed(&bridge_dev, chunk, n);
        total += n;
    }
    return total;
}

int main(void)
{
    if (bridge_setup() != 0) return 0; /* no UART: nothing can reach this board */
    for (;;) (void)bridge_service(K_FOREVER);
    return 0;
}
