/* Stand-in for <zephyr/drivers/gpio/gpio_emul.h> (Zephyr 4.3.0): the test side of a
 * "zephyr,gpio-emul" controller. Levels here are physical (the devicetree's active-low flag does
 * not apply). In Zephyr gpio_emul_input_set and gpio_emul_output_get are static inlines over
 * the _masked functions. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_GPIO_GPIO_EMUL_H
#define ZEPHYR_STANDIN_DRIVERS_GPIO_GPIO_EMUL_H

#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set an input pin's level (0 or 1); a change runs the pin's interrupt callbacks as its
 * interrupt configuration says. -EINVAL for a pin not configured as an input. */
int gpio_emul_input_set(const struct device *port, gpio_pin_t pin, int value);
/* An output pin's level, 0 or 1, or a negative errno. */
int gpio_emul_output_get(const struct device *port, gpio_pin_t pin);
/* The flags the pin is configured with (GPIO_INPUT, GPIO_OUTPUT, ...). 0 or -EINVAL. */
int gpio_emul_flags_get(const struct device *port, gpio_pin_t pin, gpio_flags_t *flags);

#ifdef __cplusplus
}
#endif
#endif
