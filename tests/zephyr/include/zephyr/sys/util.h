/* Stand-in for <zephyr/sys/util.h> (Zephyr 4.3.0): the one utility the emulator uses.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_SYS_UTIL_H
#define ZEPHYR_STANDIN_SYS_UTIL_H

#include <stddef.h>
#include <zephyr/sys/util_macro.h>

/* The struct of type `type` whose member `field` is at ptr (Zephyr also checks the type). */
#define CONTAINER_OF(ptr, type, field) ((type *)(void *)(((char *)(ptr)) - offsetof(type, field)))

#endif
