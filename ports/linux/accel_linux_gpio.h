/* accel_linux_gpio.h - GPIO and interrupt lines through the GPIO character device (v2 uAPI:
 * GPIO_V2_GET_LINE_IOCTL line requests, edge events read after poll()). No sysfs.
 *
 * Usage:
 *   accel_linux_gpio_open(&lx, 0);                         // /dev/gpiochip0
 *   accel_linux_gpio_request_output(&lx, 0, 17, 1, 0);     // port line 0 = offset 17, starts 1
 *   accel_linux_gpio_request_irq(&lx, 1, 25, 1);           // port line 1 = offset 25, active low
 *   accel_port_gpio_set(&port, 0, 0);                      // drive offset 17 inactive
 *   accel_port_wait_irq(&port, 1, 100);                    // wait up to 100 ms for offset 25
 *
 * Port line numbers are indices into lx.lines[] (0 .. ACCEL_LINUX_MAX_LINES-1); each request
 * binds one to a line offset on the open chip. Levels are logical: 1 = active, which is
 * physical high unless the line was requested active_low. wait_irq has the port's level
 * semantics: it returns at once while the line is active, otherwise waits for an
 * inactive-to-active edge event (rising, after active_low inversion) until the timeout. A wait
 * consumes the queued edges it sees, so an edge answers one wait only; a pulse that came and
 * went since the last wait still answers the next one. gpio_set on an IRQ line, or
 * wait_irq on an output, is ACCEL_E_ARG; a line never requested is ACCEL_E_CLOSED. */
#ifndef ACCEL_LINUX_GPIO_H
#define ACCEL_LINUX_GPIO_H
#include "accel_linux_base.h"

#ifdef __cplusplus
extern "C" {
#endif

accel_status accel_linux_gpio_open(accel_linux *lx, unsigned chip);
accel_status accel_linux_gpio_open_path(accel_linux *lx, const char *path);
accel_status accel_linux_gpio_request_output(accel_linux *lx, unsigned line, uint32_t offset,
                                             unsigned initial, int active_low);
accel_status accel_linux_gpio_request_irq(accel_linux *lx, unsigned line, uint32_t offset,
                                          int active_low);
/* Give port line `line` back to the kernel (no-op when it is not requested). */
void accel_linux_gpio_release(accel_linux *lx, unsigned line);
/* The port callbacks (user = accel_linux *), for ports that mix buses from several places. */
accel_status accel_linux_gpio_set(void *user, unsigned line, unsigned level);
accel_status accel_linux_wait_irq(void *user, unsigned line, uint32_t timeout_ms);
void accel_linux_gpio_close(accel_linux *lx);

#ifdef __cplusplus
}
#endif
#endif
