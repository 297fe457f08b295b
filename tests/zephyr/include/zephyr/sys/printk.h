/* Stand-in for <zephyr/sys/printk.h> (Zephyr 4.3.0). See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_SYS_PRINTK_H
#define ZEPHYR_STANDIN_SYS_PRINTK_H

#ifdef __cplusplus
extern "C" {
#endif

/* printf-like output to the console; the format attribute mirrors Zephyr's checking. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
void printk(const char *fmt, ...);

#ifdef __cplusplus
}
#endif
#endif
