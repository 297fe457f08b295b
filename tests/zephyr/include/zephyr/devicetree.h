/* Stand-in for <zephyr/devicetree.h> (Zephyr 4.3.0): the node-identifier macros the samples use.
 * A node identifier is a token, DT_N_NODELABEL_<label>; properties of a node are macros named
 * <node>_P_<property>, generated per board by tests/zephyr/dt_gen.py from the sample's overlay
 * into devicetree_generated.h (Zephyr's own generator uses path-based names, DT_N_S_...; the
 * pasting scheme is the same). A node or property the overlay does not define is therefore an
 * undeclared identifier, or 0 in #if (an error under -Wundef): the check catches a sample that
 * names a property its overlay lacks. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_DEVICETREE_H
#define ZEPHYR_STANDIN_DEVICETREE_H

#define ZDT_CAT_(a, b) a##b
#define ZDT_CAT(a, b) ZDT_CAT_(a, b)
#define ZDT_CAT3_(a, b, c) a##b##c
#define ZDT_CAT3(a, b, c) ZDT_CAT3_(a, b, c)
#define ZDT_CAT4_(a, b, c, d) a##b##c##d
#define ZDT_CAT4(a, b, c, d) ZDT_CAT4_(a, b, c, d)

#include <devicetree_generated.h>

/* Node identifier of the node with a label. */
#define DT_NODELABEL(label) DT_N_NODELABEL_##label
/* 1 when the node exists in the board's devicetree, usable in #if. */
#define DT_NODE_EXISTS(node_id) ZDT_CAT(node_id, _EXISTS)
/* Node identifier of the bus (parent) node. */
#define DT_BUS(node_id) ZDT_CAT(node_id, _BUS)
/* A property's value; prop is the lowercase-and-underscores name (spi-max-frequency ->
 * spi_max_frequency). */
#define DT_PROP(node_id, prop) ZDT_CAT3(node_id, _P_, prop)
/* Node identifier of the node a /chosen property names (prop in lowercase-and-underscores:
 * zephyr,console -> zephyr_console), and 1 when the property exists, usable in #if (Zephyr:
 * DT_CHOSEN_<prop> and DT_CHOSEN_<prop>_EXISTS, generated from /chosen). */
#define DT_CHOSEN(prop) ZDT_CAT(DT_CHOSEN_, prop)
#define DT_HAS_CHOSEN(prop) ZDT_CAT3(DT_CHOSEN_, prop, _EXISTS)
/* The first address of the node's reg property. */
#define DT_REG_ADDR(node_id) ZDT_CAT(node_id, _REG_ADDR)
/* The node's name with its unit address ("tsp1@0"). */
#define DT_NODE_FULL_NAME(node_id) ZDT_CAT(node_id, _FULL_NAME)

/* Instances of the compatible a driver names in DT_DRV_COMPAT (lowercase-and-underscores:
 * "abr,tsp1" -> abr_tsp1). DT_INST_FOREACH_STATUS_OKAY(fn) expands fn(0) fn(1) ... (Zephyr:
 * DT_FOREACH_OKAY_INST_<compat>, generated; so here, by dt_gen.py). */
#define DT_DRV_INST(inst) ZDT_CAT4(DT_N_INST_, inst, _, DT_DRV_COMPAT)
#define DT_INST_FOREACH_STATUS_OKAY(fn) ZDT_CAT(DT_FOREACH_OKAY_INST_, DT_DRV_COMPAT)(fn)
#define DT_INST_PROP(inst, prop) DT_PROP(DT_DRV_INST(inst), prop)

#endif
