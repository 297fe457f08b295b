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

/* Timer: expiry_fn runs in interrupt context when the timer expires (then every period). */
struct k_timer;
typedef void (*k_timer_expiry_t)(struct k_timer *timer);
typedef void (*k_timer_stop_t)(struct k_timer *timer);
/* Zephyr's struct holds a timeout record, a wait queue, status and user data; the stand-in
 * keeps what its fakes need. */
struct k_timer {
    k_timer_expiry_t expiry_fn;
    k_timer_stop_t stop_fn;
    k_timeout_t period;
    k_ticks_t zdt_due;           /* fakes: the tick it expires at next, -1 when stopped */
    struct k_timer *zdt_next;    /* fakes: the list of started timers */
};
void k_timer_init(struct k_timer *timer, k_timer_expiry_t expiry_fn, k_timer_stop_t stop_fn);
/* First expiry after duration, then every period (K_NO_WAIT: once). */
void k_timer_start(struct k_timer *timer, k_timeout_t duration, k_timeout_t period);
void k_timer_stop(struct k_timer *timer);
/* Spin for usec microseconds (on native_sim this advances the simulated clock). */
void k_busy_wait(uint32_t usec_to_wait);

/* Spinlock (<zephyr/spinlock.h>, included by kernel.h): on one CPU, interrupts locked. */
struct k_spinlock {
    unsigned char zdt_locked; /* Zephyr's is empty on one CPU without debugging */
};
typedef struct {
    int key;
} k_spinlock_key_t;
k_spinlock_key_t k_spin_lock(struct k_spinlock *l);
void k_spin_unlock(struct k_spinlock *l, k_spinlock_key_t key);

/* Milliseconds since boot. */
int64_t k_uptime_get(void);
/* Sleep ms milliseconds; returns 0, or the milliseconds left when woken early (k_wakeup). */
int32_t k_msleep(int32_t ms);

#ifdef __cplusplus
}
#endif
#endif
