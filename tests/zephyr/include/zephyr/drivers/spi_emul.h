/* Stand-in for <zephyr/drivers/spi_emul.h> (Zephyr 4.3.0): what an emulator on a
 * "zephyr,spi-emul-controller" bus provides. The controller passes each spi_transceive on the
 * emulator's chip select to api->io, unchanged. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_SPI_EMUL_H
#define ZEPHYR_STANDIN_DRIVERS_SPI_EMUL_H

#include <stdint.h>
#include <zephyr/device.h>
#include <zephyr/drivers/emul.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/sys/slist.h>

#ifdef __cplusplus
extern "C" {
#endif

struct spi_emul_api;

/* One emulator on the bus (Zephyr keeps them in a list; the stand-in harness holds one). */
struct spi_emul {
    sys_snode_t node;
    const struct emul *target;
    const struct spi_emul_api *api;
    struct spi_emul_api *mock_api;
    uint16_t chipsel;
};

/* One transaction: 0 or a negative errno, as spi_transceive returns. */
typedef int (*spi_emul_io_t)(const struct emul *target, const struct spi_config *config,
                             const struct spi_buf_set *tx_bufs, const struct spi_buf_set *rx_bufs);

struct spi_emul_api {
    spi_emul_io_t io;
};

#ifdef __cplusplus
}
#endif
#endif
