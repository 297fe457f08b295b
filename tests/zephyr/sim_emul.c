/* sim_emul.c - the Zephyr stand-in functions a run of tsp1_basics needs on native_sim with
 * ports/zephyr/emul: a sample's src/main.c (compiled as sample_main) runs through the real port
 * (accel_zephyr.c) and the real emulator (accel_tsp1_emul.c), with this file in place of
 * Zephyr's kernel and emulated controllers, each written from Zephyr's documentation:
 *   SPI emulator controller   spi_transceive_dt on the bus hands the call, unchanged, to the
 *                             emulator whose chip select matches (its api->io), as
 *                             drivers/spi/spi_emul.c does; it calls the emulator's init first
 *   GPIO emulator             32 pins on the one controller: configure, logical get/set (the
 *                             devicetree's active-low flag), edge interrupts with callbacks,
 *                             and the test side gpio_emul_input_set / output_get / flags_get
 *                             with physical levels
 *   kernel                    a simulated clock in microseconds: k_busy_wait and k_msleep move
 *                             it; k_sem_take waits in 1 ms steps; started k_timers expire as
 *                             it passes (their function runs as the interrupt would)
 *   printk                    stdout
 * Exit status: the sample's, or 3 when the emulator counted a contract violation. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/drivers/emul.h>
#include <zephyr/drivers/spi_emul.h>
#include <zephyr/drivers/gpio/gpio_emul.h>
#include "accel_tsp1_emul.h"

#define TSP1 DT_NODELABEL(tsp1)

int sample_main(void);

static struct {
    int64_t now_us;
    struct k_timer *timers;
    int in_timer, locked;
    unsigned lock_errors;
    struct pin {
        gpio_flags_t flags;      /* as configured (extra flags | devicetree flags) */
        gpio_flags_t irq;        /* interrupt flags */
        int in, out;             /* physical levels */
    } pins[32];
    const struct device *gpio_port;
    struct gpio_callback *cbs[4];
} sim;

/* ---------------------------------------------------------------- kernel */
static void run_timers(void)
{
    struct k_timer *t;
    k_ticks_t ms = sim.now_us / 1000;
    for (t = sim.timers; t; t = t->zdt_next) {
        while (t->zdt_due >= 0 && t->zdt_due <= ms) {
            t->zdt_due = t->period.ticks > 0 ? t->zdt_due + t->period.ticks : -1;
            sim.in_timer = 1;
            if (t->expiry_fn) t->expiry_fn(t);
            sim.in_timer = 0;
        }
    }
}

static void advance_us(int64_t us)
{
    int64_t end = sim.now_us + us;
    while (sim.now_us < end) { /* whole milliseconds, so that timers see each one */
        int64_t next = (sim.now_us / 1000 + 1) * 1000;
        sim.now_us = next < end ? next : end;
        run_timers();
    }
}

void k_timer_init(struct k_timer *timer, k_timer_expiry_t expiry_fn, k_timer_stop_t stop_fn)
{
    timer->expiry_fn = expiry_fn;
    timer->stop_fn = stop_fn;
    timer->zdt_due = -1;
    timer->zdt_next = sim.timers;
    sim.timers = timer;
}

void k_timer_start(struct k_timer *timer, k_timeout_t duration, k_timeout_t period)
{
    timer->period = period;
    timer->zdt_due = sim.now_us / 1000 + duration.ticks;
}

void k_timer_stop(struct k_timer *timer)
{
    timer->zdt_due = -1;
    if (timer->stop_fn) timer->stop_fn(timer);
}

void k_busy_wait(uint32_t usec_to_wait) { advance_us((int64_t)usec_to_wait); }

k_spinlock_key_t k_spin_lock(struct k_spinlock *l)
{
    k_spinlock_key_t k;
    if (l->zdt_locked) sim.lock_errors++; /* one CPU: taking a held lock deadlocks */
    l->zdt_locked = 1;
    k.key = 0;
    return k;
}

void k_spin_unlock(struct k_spinlock *l, k_spinlock_key_t key)
{
    (void)key;
    l->zdt_locked = 0;
}

#include "fake_k_sem.h"

int k_sem_take(struct k_sem *sem, k_timeout_t timeout)
{
    k_ticks_t t;
    for (t = 0;; t++) {
        if (sem->count) {
            sem->count--;
            return 0;
        }
        if (t >= timeout.ticks) return timeout.ticks ? -EAGAIN : -EBUSY;
        advance_us(1000);
    }
}

int64_t k_uptime_get(void) { return sim.now_us / 1000; }

int32_t k_msleep(int32_t ms)
{
    if (ms > 0) advance_us((int64_t)ms * 1000);
    return 0;
}

void printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- SPI emulator controller */
bool spi_is_ready_dt(const struct spi_dt_spec *spec)
{
    return spec && spec->bus == DEVICE_DT_GET(DT_BUS(TSP1));
}

int spi_transceive_dt(const struct spi_dt_spec *spec, const struct spi_buf_set *tx_bufs,
                      const struct spi_buf_set *rx_bufs)
{
    const struct emul *e = EMUL_DT_GET(TSP1);
    if (spec->bus != DEVICE_DT_GET(DT_BUS(TSP1)) || spec->config.slave != e->bus.spi->chipsel)
        return -EIO; /* no emulator on that chip select */
    return e->bus.spi->api->io(e->bus.spi->target, &spec->config, tx_bufs, rx_bufs);
}

/* ---------------------------------------------------------------- GPIO emulator */
static struct pin *pin_of(const struct device *port, gpio_pin_t pin)
{
    if (!sim.gpio_port) sim.gpio_port = port;
    return port == sim.gpio_port && pin < 32 ? &sim.pins[pin] : NULL;
}

static int logical(const struct gpio_dt_spec *s, int physical)
{
    return (s->dt_flags & GPIO_ACTIVE_LOW) ? !physical : physical;
}

bool gpio_is_ready_dt(const struct gpio_dt_spec *spec) { return spec && spec->port; }

int gpio_pin_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t extra_flags)
{
    struct pin *p = pin_of(spec->port, spec->pin);
    if (!p) return -EINVAL;
    p->flags = extra_flags | spec->dt_flags;
    if (extra_flags & GPIO_OUTPUT_INIT_LOW) p->out = logical(spec, 0);
    if (extra_flags & GPIO_OUTPUT_INIT_HIGH) p->out = logical(spec, 1);
    if ((extra_flags & GPIO_INPUT) && (spec->dt_flags & GPIO_PULL_UP)) p->in = 1;
    return 0;
}

int gpio_pin_get_dt(const struct gpio_dt_spec *spec)
{
    struct pin *p = pin_of(spec->port, spec->pin);
    if (!p || !(p->flags & GPIO_INPUT)) return -EINVAL;
    return logical(spec, p->in);
}

int gpio_pin_set_dt(const struct gpio_dt_spec *spec, int value)
{
    struct pin *p = pin_of(spec->port, spec->pin);
    if (!p || !(p->flags & GPIO_OUTPUT)) return -EINVAL;
    p->out = logical(spec, value != 0);
    return 0;
}

int gpio_pin_interrupt_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t flags)
{
    struct pin *p = pin_of(spec->port, spec->pin);
    if (!p) return -EINVAL;
    /* the edge to active is the falling one on an active-low pin */
    p->irq = flags == GPIO_INT_DISABLE ? 0 : flags;
    if (p->irq && (spec->dt_flags & GPIO_ACTIVE_LOW)) p->irq |= GPIO_ACTIVE_LOW;
    return 0;
}

void gpio_init_callback(struct gpio_callback *callback, gpio_callback_handler_t handler,
                        gpio_port_pins_t pin_mask)
{
    callback->handler = handler;
    callback->pin_mask = pin_mask;
}

int gpio_add_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    size_t i;
    (void)pin_of(spec->port, spec->pin);
    for (i = 0; i < 4; i++)
        if (!sim.cbs[i]) {
            sim.cbs[i] = callback;
            return 0;
        }
    return -ENOMEM;
}

int gpio_remove_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    size_t i;
    (void)spec;
    for (i = 0; i < 4; i++)
        if (sim.cbs[i] == callback) sim.cbs[i] = NULL;
    return 0;
}

int gpio_emul_input_set(const struct device *port, gpio_pin_t pin, int value)
{
    struct pin *p = pin_of(port, pin);
    int was, act_before, act_after;
    size_t i;
    if (!p || !(p->flags & GPIO_INPUT)) return -EINVAL;
    was = p->in;
    p->in = value != 0;
    if (was == p->in || !(p->irq & GPIO_INT_EDGE)) return 0;
    act_before = (p->irq & GPIO_ACTIVE_LOW) ? !was : was;
    act_after = (p->irq & GPIO_ACTIVE_LOW) ? !p->in : p->in;
    if (!act_before && act_after) /* GPIO_INT_EDGE_TO_ACTIVE */
        for (i = 0; i < 4; i++)
            if (sim.cbs[i] && (sim.cbs[i]->pin_mask & BIT(pin)))
                sim.cbs[i]->handler(port, sim.cbs[i], (gpio_port_pins_t)BIT(pin));
    return 0;
}

int gpio_emul_output_get(const struct device *port, gpio_pin_t pin)
{
    struct pin *p = pin_of(port, pin);
    if (!p) return -EINVAL;
    return (p->flags & GPIO_OUTPUT) ? p->out : 0;
}

int gpio_emul_flags_get(const struct device *port, gpio_pin_t pin, gpio_flags_t *flags)
{
    struct pin *p = pin_of(port, pin);
    if (!p || !flags) return -EINVAL;
    *flags = p->flags;
    return 0;
}

int main(void)
{
    const struct emul *e = EMUL_DT_GET(TSP1);
    accel_tsp1_emul_stats st;
    int rc;
    /* the SPI emulator controller's initialisation: link, then init the emulator */
    e->bus.spi->target = e;
    if (e->init(e, DEVICE_DT_GET(DT_BUS(TSP1))) != 0) {
        printf("sim: emulator init failed\n");
        return 2;
    }
    rc = sample_main();
    if (accel_tsp1_emul_stats_get(e, &st) != 0) return 2;
    printf("sim: %lld ms, %u lock errors\n", (long long)(sim.now_us / 1000), sim.lock_errors);
    if (st.violations || sim.lock_errors) return 3;
    return rc;
}
