/* Stand-in for <zephyr/drivers/spi.h> (Zephyr 4.3.0): operation flags, the controller
 * configuration, a device spec from the devicetree, buffer sets and one transceive call.
 * In 4.3.0 SPI_DT_SPEC_GET takes (node_id, operation); the delay argument of earlier releases
 * is deprecated (still accepted with a warning) and gone later. Before 4.3 (4.1.0 read from
 * its header) it takes (node_id, operation, delay): the stand-in has the arity of the release
 * ZEPHYR_VERSION_CODE names (<zephyr/version.h>), and refuses the other one, as -Werror does.
 * In Zephyr spi_transceive_dt is a static inline over the spi_transceive system call.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_SPI_H
#define ZEPHYR_STANDIN_DRIVERS_SPI_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <zephyr/sys/util_macro.h>
#include <zephyr/device.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPI_TRANSFER_MSB (0U)
#define SPI_WORD_SIZE_SHIFT (5U)
#define SPI_WORD_SET(word_size) ((word_size) << SPI_WORD_SIZE_SHIFT)

typedef uint16_t spi_operation_t; /* uint32_t with CONFIG_SPI_EXTENDED_MODES */

/* Chip select by GPIO (gpio + delay) or by the controller (setup/hold times). Zephyr 4.3.0
 * declares the two forms as a C11 anonymous union; __extension__ keeps the same layout and
 * member names valid in this project's C99 -Wpedantic checks. */
struct spi_cs_control {
    __extension__ union {
        __extension__ struct {
            struct gpio_dt_spec gpio;
            uint32_t delay;
        };
        __extension__ struct {
            uint32_t setup_ns;
            uint32_t hold_ns;
        };
    };
    bool cs_is_gpio;
};

struct spi_config {
    uint32_t frequency;
    spi_operation_t operation;
    uint16_t slave;
    struct spi_cs_control cs;
    uint16_t word_delay;
};

struct spi_dt_spec {
    const struct device *bus;
    struct spi_config config;
};

/* Initializer for a device node on an SPI bus: bus device, spi-max-frequency, reg (the chip
 * select index) and the bus's cs-gpios entry for it (Zephyr also folds the node's spi-cpol,
 * spi-cpha and duplex properties into the operation; the stand-in's generator checks none of
 * those, so it passes operation_ through). */
#define ZDT_SPI_DT_SPEC(node_id, operation_)                                  \
    {                                                                         \
        .bus = DEVICE_DT_GET(DT_BUS(node_id)),                                \
        .config = {                                                           \
            .frequency = DT_PROP(node_id, spi_max_frequency),                 \
            .operation = (spi_operation_t)(operation_),                       \
            .slave = DT_REG_ADDR(node_id),                                    \
            .cs = ZDT_CAT(node_id, _SPI_CS_INIT),                             \
            .word_delay = 0,                                                  \
        },                                                                    \
    }
#if ZEPHYR_VERSION_CODE >= ZEPHYR_VERSION(4, 3, 0)
#define SPI_DT_SPEC_GET(node_id, operation_) ZDT_SPI_DT_SPEC(node_id, operation_)
#else /* delay_: microseconds between the transfer and chip select's release */
#define SPI_DT_SPEC_GET(node_id, operation_, delay_) ZDT_SPI_DT_SPEC(node_id, operation_)
#endif

/* One buffer of a transfer. tx: buf NULL sends len bytes of the controller's overrun character
 * (not necessarily 0x00); rx: buf NULL skips len received bytes. */
struct spi_buf {
    void *buf;
    size_t len;
};

/* A transfer's buffers, consumed in order as one stream per direction. */
struct spi_buf_set {
    const struct spi_buf *buffers;
    size_t count;
};

bool spi_is_ready_dt(const struct spi_dt_spec *spec);
/* One transaction (one chip-select frame): clocks out tx_bufs while filling rx_bufs (either set
 * may be NULL). 0 on success (a frame count in peripheral mode), a negative errno on failure,
 * after which chip select is released. */
int spi_transceive_dt(const struct spi_dt_spec *spec, const struct spi_buf_set *tx_bufs,
                      const struct spi_buf_set *rx_bufs);

#ifdef __cplusplus
}
#endif
#endif
