/* Stand-in for <zephyr/drivers/uart.h> (Zephyr 4.3.0): the interrupt-driven receive API and
 * polled output, as the bridge sample uses them. In Zephyr uart_fifo_read and
 * uart_irq_callback_user_data_set are static inlines over the driver API and the others system
 * calls; all need CONFIG_SERIAL, the irq/fifo ones CONFIG_UART_INTERRUPT_DRIVEN (without it they
 * return -ENOTSUP). See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_UART_H
#define ZEPHYR_STANDIN_DRIVERS_UART_H

#include <stdint.h>
#include <zephyr/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The application's interrupt callback: dev is the UART, user_data what was registered. */
typedef void (*uart_irq_callback_user_data_t)(const struct device *dev, void *user_data);

/* Register the interrupt callback. 0, -ENOSYS (driver without interrupt support) or -ENOTSUP
 * (CONFIG_UART_INTERRUPT_DRIVEN off). */
int uart_irq_callback_user_data_set(const struct device *dev, uart_irq_callback_user_data_t cb,
                                    void *user_data);
/* Start/stop receive interrupts. */
void uart_irq_rx_enable(const struct device *dev);
void uart_irq_rx_disable(const struct device *dev);
/* Latch the interrupt status, first thing in the callback: 1, or a negative errno when the
 * driver has no such step (-ENOSYS) or the API is off (-ENOTSUP). */
int uart_irq_update(const struct device *dev);
/* 1 when the receive FIFO holds a byte (after uart_irq_update), 0 when not, negative errno. */
int uart_irq_rx_ready(const struct device *dev);
/* From the interrupt callback: move up to size received bytes into rx_data. The count read,
 * or a negative errno. */
int uart_fifo_read(const struct device *dev, uint8_t *rx_data, const int size);
/* Send one byte, waiting while the transmitter is busy. */
void uart_poll_out(const struct device *dev, unsigned char out_char);

#ifdef __cplusplus
}
#endif
#endif
