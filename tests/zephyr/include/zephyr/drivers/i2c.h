/* Stand-in for <zephyr/drivers/i2c.h> (Zephyr 4.3.0): a device on a bus from the devicetree and
 * the three transfer shapes. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_I2C_H
#define ZEPHYR_STANDIN_DRIVERS_I2C_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <zephyr/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct i2c_dt_spec {
    const struct device *bus;
    uint16_t addr; /* 7-bit (or 10-bit) target address */
};

bool i2c_is_ready_dt(const struct i2c_dt_spec *spec);
/* Write num_write bytes, repeated start, read num_read bytes. 0 or a negative errno. */
int i2c_write_read_dt(const struct i2c_dt_spec *spec, const void *write_buf, size_t num_write,
                      void *read_buf, size_t num_read);
int i2c_write_dt(const struct i2c_dt_spec *spec, const uint8_t *buf, uint32_t num_bytes);
int i2c_read_dt(const struct i2c_dt_spec *spec, uint8_t *buf, uint32_t num_bytes);

#ifdef __cplusplus
}
#endif
#endif
