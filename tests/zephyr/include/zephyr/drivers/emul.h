/* Stand-in for <zephyr/drivers/emul.h> (Zephyr 4.3.0): an emulator of a device on an emulated
 * bus. Same struct members, typedef and macro names as the release; EMUL_DT_DEFINE here defines
 * the bus record and the struct emul as plain objects named after the node (Zephyr places the
 * emul in an iterable linker section, __emulreg_<node>, and the emulated bus controller's
 * initialisation finds it by the node's device and calls its init). A node given an emulator
 * needs a device of its own (DEVICE_DT_DEFINE), as in Zephyr.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DRIVERS_EMUL_H
#define ZEPHYR_STANDIN_DRIVERS_EMUL_H

#include <stdint.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>

#ifdef __cplusplus
extern "C" {
#endif

struct emul;
struct spi_emul;

enum emul_bus_type {
    EMUL_BUS_TYPE_I2C,
    EMUL_BUS_TYPE_ESPI,
    EMUL_BUS_TYPE_SPI,
    EMUL_BUS_TYPE_MSPI,
    EMUL_BUS_TYPE_UART,
    EMUL_BUS_TYPE_NONE,
};

/* Called once, by the emulated bus controller's initialisation (parent: that controller). */
typedef int (*emul_init_t)(const struct emul *emul, const struct device *parent);

struct emul {
    emul_init_t init;
    const struct device *dev; /* the emulated device (the node's own device) */
    const void *cfg;
    void *data;
    enum emul_bus_type bus_type;
    union bus { /* the stand-in has the SPI member only */
        struct spi_emul *spi;
    } bus;
    const void *backend_api;
};

/* The emulator object of a node (Zephyr: __emulreg_<node>). */
#define EMUL_DT_NAME_GET(node_id) ZDT_CAT(zdt_emul_, node_id)
#define EMUL_DT_GET(node_id) (&EMUL_DT_NAME_GET(node_id))

/* An emulator for node_id on an SPI bus (the only bus the stand-in has): bus_api is its
 * struct spi_emul_api, the chip select its reg. */
#define EMUL_DT_DEFINE(node_id, init_fn, data_ptr, cfg_ptr, bus_api, _backend_api)            \
    static struct spi_emul ZDT_CAT(zdt_emul_bus_, node_id) = {                               \
        .api = (bus_api),                                                                    \
        .chipsel = DT_REG_ADDR(node_id),                                                     \
    };                                                                                       \
    const struct emul EMUL_DT_NAME_GET(node_id) = {                                          \
        .init = (init_fn),                                                                   \
        .dev = DEVICE_DT_GET(node_id),                                                       \
        .cfg = (cfg_ptr),                                                                    \
        .data = (data_ptr),                                                                  \
        .bus_type = EMUL_BUS_TYPE_SPI,                                                       \
        .bus = {.spi = &ZDT_CAT(zdt_emul_bus_, node_id)},                                    \
        .backend_api = (_backend_api),                                                       \
    };
#define EMUL_DT_INST_DEFINE(inst, ...) EMUL_DT_DEFINE(DT_DRV_INST(inst), __VA_ARGS__)

/* Every node's emulator is declared, so EMUL_DT_GET works anywhere (Zephyr does the same over
 * every enabled node). */
#define ZDT_EMUL_DECLARE(node_id) extern const struct emul EMUL_DT_NAME_GET(node_id);
#ifdef ZDT_FOREACH_NODE /* dt_gen.py's list of the board's labelled nodes */
ZDT_FOREACH_NODE(ZDT_EMUL_DECLARE)
#endif

#ifdef __cplusplus
}
#endif
#endif
