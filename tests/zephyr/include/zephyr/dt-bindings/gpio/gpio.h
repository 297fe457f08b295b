/* Stand-in for <zephyr/dt-bindings/gpio/gpio.h> (Zephyr 4.3.0): the devicetree GPIO flag
 * values, for the overlays and for C. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DT_BINDINGS_GPIO_GPIO_H
#define ZEPHYR_STANDIN_DT_BINDINGS_GPIO_GPIO_H

#define GPIO_ACTIVE_HIGH (0 << 0)
#define GPIO_ACTIVE_LOW (1 << 0)
#define GPIO_PULL_UP (1 << 4)

#endif
