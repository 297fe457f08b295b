/* Stand-in for <zephyr/sys/util_macro.h> (Zephyr 4.3.0), declarations for accel's checks only:
 * see tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_SYS_UTIL_MACRO_H
#define ZEPHYR_STANDIN_SYS_UTIL_MACRO_H

/* Bit n set, as an unsigned long (Zephyr's definition on 32-bit targets). */
#define BIT(n) (1UL << (n))

#endif
