/* Stand-in for <zephyr/device.h> (Zephyr 4.3.0). The port and the samples pass device
 * pointers around and ask device_is_ready; DEVICE_DT_GET names an object the devicetree
 * stand-in declares.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DEVICE_H
#define ZEPHYR_STANDIN_DEVICE_H

#include <zephyr/devicetree.h>

/* Zephyr's struct device has more members (config, api, state, data, ...); none is used. */
struct device {
    const char *name;
};

/* Address of the device object for a devicetree node (Zephyr: __device_dts_ord_N). */
#define ZDT_DEVICE_NAME_(node_id) zdt_device_##node_id
#define ZDT_DEVICE_NAME(node_id) ZDT_DEVICE_NAME_(node_id) /* own paste: may run inside ZDT_CAT */
#define DEVICE_DT_GET(node_id) (&ZDT_DEVICE_NAME(node_id))

/* A device for a devicetree node: Zephyr registers init_fn to run at level (PRE_KERNEL_1,
 * POST_KERNEL, ...) and priority prio, with data, config and api in the object. The stand-in
 * defines the object with the node's full name and checks that prio is an integer constant
 * (the rest is not used by the fakes). Zephyr's macro also takes optional trailing arguments
 * (-Wpedantic refuses an empty variadic part, so the stand-in has none). */
#define DEVICE_DT_DEFINE(node_id, init_fn, pm, data, config, level, prio, api)            \
    enum { ZDT_CAT(zdt_device_prio_, node_id) = (prio) };                                 \
    const struct device ZDT_DEVICE_NAME(node_id) = {DT_NODE_FULL_NAME(node_id)}
#define DEVICE_DT_INST_DEFINE(inst, ...) DEVICE_DT_DEFINE(DT_DRV_INST(inst), __VA_ARGS__)

#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
/* true when the device's driver finished its initialisation successfully. */
bool device_is_ready(const struct device *dev);
#ifdef __cplusplus
}
#endif

#endif
