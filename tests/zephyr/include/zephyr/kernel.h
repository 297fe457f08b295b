/* Stand-in for <zephyr/kernel.h> (Zephyr 4.3.0): timeouts, semaphores, uptime and sleep.
 * See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_KERNEL_H
#define ZEPHYR_STANDIN_KERNEL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <zephyr/sys/util_macro.h>
#include <zephyr/sys/printk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ticks: 64-bit with CONFIG_TIMEOUT_64BIT, Zephyr's default. */
typedef int64_t k_ticks_t;

/* A timeout is an opaque struct holding ticks. Zephyr converts milliseconds to ticks with its
 * tick rate (CONFIG_SYS_CLOCK_TICKS_PER_SEC, rounding up); the stand-in's tick is 1 ms. */
typedef struct {
    k_ticks_t ticks;
} k_timeout_t;

#define Z_TIMEOUT_TICKS(t) ((k_timeout_t){.ticks = (t)})
#define K_NO_WAIT Z_TIMEOUT_TICKS(0)
#define K_FOREVER Z_TIMEOUT_TICKS((k_ticks_t)-1) /* K_TICKS_FOREVER */
#define K_MSEC(ms) Z_TIMEOUT_TICKS((k_ticks_t)(ms))

/* Counting semaphore. Zephyr's struct also holds a wait queue; only the fakes read these. */
struct k_sem {
    unsigned int count;
    unsigned int limit;
};

/* 0, or -EINVAL when limit is 0 or initial_count > limit. */
int k_sem_init(struct k_sem *sem, unsigned int initial_count, unsigned int limit);
/* 0 when taken; -EBUSY when timeout is K_NO_WAIT and the count is 0; -EAGAIN when the wait
 * timed out (or the semaphore was reset while waiting). */
int k_sem_take(struct k_sem *sem, k_timeout_t timeout);
/* Count + 1 up to the limit; callable from an interrupt handler. */
void k_sem_give(struct k_sem *sem);
/* Count back to 0; waiters return -EAGAIN. */
void k_sem_reset(struct k_sem *sem);

/* Milliseconds since boot. */
int64_t k_uptime_get(void);
/* Sleep ms milliseconds; returns 0, or the milliseconds left when woken early (k_wakeup). */
int32_t k_msleep(int32_t ms);

#ifdef __cplusplus
}
#endif
#endif
