/* Stand-in for <zephyr/drivers/gpio.h> (Zephyr 4.3.0): pin specs from the devicetree, pin
 * configuration, set/get, edge interrupts with callbacks. In Zephyr these functions are static
 * inline wrappers over the driver API (gpio_pin_get_dt/gpio_pin_set_dt use logical levels: the
 * devicetree's GPIO_ACTIVE_LOW inverts). See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_GPIO_H
#define ZEPHYR_STANDIN_DRIVERS_GPIO_H

#include <stdint.h>
#include <stdbool.h>
#include <zephyr/sys/util_macro.h>
#include <zephyr/sys/slist.h>
#include <zephyr/device.h>
#include <zephyr/dt-bindings/gpio/gpio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* configuration flags */
#define GPIO_INPUT BIT(16)
#define GPIO_OUTPUT BIT(17)
#define GPIO_OUTPUT_INIT_LOW BIT(18)
#define GPIO_OUTPUT_INIT_HIGH BIT(19)
#define GPIO_OUTPUT_INIT_LOGICAL BIT(20)
/* output, starting at logical 0 */
#define GPIO_OUTPUT_INACTIVE (GPIO_OUTPUT | GPIO_OUTPUT_INIT_LOW | GPIO_OUTPUT_INIT_LOGICAL)

/* interrupt flags */
#define GPIO_INT_DISABLE BIT(21)
#define GPIO_INT_ENABLE BIT(22)
#define GPIO_INT_LEVELS_LOGICAL BIT(23)
#define GPIO_INT_EDGE BIT(24)
#define GPIO_INT_LOW_0 BIT(25)
#define GPIO_INT_HIGH_1 BIT(26)
/* interrupt on the change to logical level 1 */
#define GPIO_INT_EDGE_TO_ACTIVE \
    (GPIO_INT_ENABLE | GPIO_INT_LEVELS_LOGICAL | GPIO_INT_EDGE | GPIO_INT_HIGH_1)

typedef uint32_t gpio_port_pins_t; /* bit n: pin n */
typedef uint8_t gpio_pin_t;
typedef uint16_t gpio_dt_flags_t;  /* the flags a devicetree gpios cell carries */
typedef uint32_t gpio_flags_t;

struct gpio_dt_spec {
    const struct device *port;
    gpio_pin_t pin;
    gpio_dt_flags_t dt_flags;
};

/* Initializer from a node's "<prop>" gpios property, index 0 (Zephyr reads the generated
 * controller, pin and flags cells; so does the stand-in). */
#define GPIO_DT_SPEC_GET(node_id, prop)                                   \
    {                                                                     \
        .port = DEVICE_DT_GET(ZDT_CAT4(node_id, _P_, prop, _CTLR)),       \
        .pin = ZDT_CAT4(node_id, _P_, prop, _PIN),                        \
        .dt_flags = ZDT_CAT4(node_id, _P_, prop, _FLAGS),                 \
    }

#define GPIO_DT_SPEC_INST_GET(inst, prop) GPIO_DT_SPEC_GET(DT_DRV_INST(inst), prop)

struct gpio_callback;
/* Runs in interrupt context; pins = the pins of port that fired. */
typedef void (*gpio_callback_handler_t)(const struct device *port, struct gpio_callback *cb,
                                        gpio_port_pins_t pins);

/* Caller-owned, registered with gpio_add_callback_dt; must outlive its registration. */
struct gpio_callback {
    sys_snode_t node;
    gpio_callback_handler_t handler;
    gpio_port_pins_t pin_mask;
};

/* true when the port device is ready for use */
bool gpio_is_ready_dt(const struct gpio_dt_spec *spec);
/* Configure with extra_flags | spec->dt_flags. 0 or a negative errno. */
int gpio_pin_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t extra_flags);
/* Logical level: 1 active, 0 inactive, or a negative errno. */
int gpio_pin_get_dt(const struct gpio_dt_spec *spec);
/* Set the logical level (0 inactive, anything else active). 0 or a negative errno. */
int gpio_pin_set_dt(const struct gpio_dt_spec *spec, int value);
/* Configure the pin's interrupt (GPIO_INT_* flags). 0 or a negative errno. */
int gpio_pin_interrupt_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t flags);
/* Fill a callback (Zephyr: a static inline that sets handler and pin_mask). */
void gpio_init_callback(struct gpio_callback *callback, gpio_callback_handler_t handler,
                        gpio_port_pins_t pin_mask);
/* Register / unregister a callback on spec's port. 0 or a negative errno. */
int gpio_add_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback);
int gpio_remove_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback);

#ifdef __cplusplus
}
#endif
#endif
