/* accel_impl.c - the one file of a Zephyr build that compiles accel.h's implementation
 * (configuration: accel_zephyr_config.h, through ACCEL_CONFIG_HEADER). */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
