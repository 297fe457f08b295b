/* accel_tsp1_emul.c - accel's TSP1 device model behind Zephyr's SPI and GPIO emulators. Usage
 * and behaviour: see accel_tsp1_emul.h. */
#define DT_DRV_COMPAT abr_tsp1

#include <errno.h>
#include <string.h>
#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/emul.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/drivers/spi_emul.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/drivers/gpio/gpio_emul.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/util.h>
#include "accel.h"
#include "accel_tsp1_emul.h"

#ifndef CONFIG_ACCEL_TSP1_EMUL_NETS
#define CONFIG_ACCEL_TSP1_EMUL_NETS 2
#endif
#define TSP1_EMUL_CMD_CAP 512u
#define TSP1_EMUL_RSP_CAP 256u
#define TSP1_EMUL_LINE_WAKE 1u /* the model's gpio line for WAKE (any value: only it is used) */

struct tsp1_emul_cfg {
    struct gpio_dt_spec intb, wake;
};

struct tsp1_emul_data {
    accel_tsp1_model model;
    accel_port mp;               /* the model's side of the bus */
    struct k_spinlock lock;      /* the model: timer (interrupt) against transactions (thread) */
    struct k_timer tick;
    const struct emul *target;
    int64_t last_ms;             /* uptime the model has been advanced to */
    int intb_pin;                /* logical level last driven onto INTB; -1: not yet */
    int wake;                    /* logical WAKE level last seen */
    accel_tsp1_emul_stats st;
    uint8_t mem[3u * TSP1_EMUL_CMD_CAP + ACCEL_TSP1_MODEL_SLACK + TSP1_EMUL_RSP_CAP];
    uint8_t tx[ACCEL_TSP1_EMUL_XFER_BYTES], rx[ACCEL_TSP1_EMUL_XFER_BYTES];
};

/* Logical level of a pin from its physical one (the devicetree's active-low flag). */
static int tsp1_emul_logical(const struct gpio_dt_spec *s, int physical)
{
    return (s->dt_flags & GPIO_ACTIVE_LOW) ? !physical : physical;
}

/* Bring the model to the current uptime and take in WAKE (lock held). */
static void tsp1_emul_advance(const struct tsp1_emul_cfg *cfg, struct tsp1_emul_data *d)
{
    int64_t now = k_uptime_get();
    int w;
    gpio_flags_t fl = 0;
    if (now > d->last_ms) {
        accel_tsp1_model_advance(&d->model, (uint32_t)(now - d->last_ms));
        d->last_ms = now;
    }
    /* WAKE: only once the application made the pin an output */
    if (gpio_emul_flags_get(cfg->wake.port, cfg->wake.pin, &fl) == 0 && (fl & GPIO_OUTPUT)) {
        w = gpio_emul_output_get(cfg->wake.port, cfg->wake.pin);
        if (w >= 0) {
            w = tsp1_emul_logical(&cfg->wake, w);
            if (w && !d->wake) d->st.wake_edges++;
            if (w != d->wake) (void)d->mp.gpio_set(d->mp.user, TSP1_EMUL_LINE_WAKE, (unsigned)w);
            d->wake = w;
        }
    }
}

/* Drive the model's INTB onto the pin, outside the lock: the pin's interrupt callback (the
 * port's k_sem_give) runs from here. */
static void tsp1_emul_intb(const struct tsp1_emul_cfg *cfg, struct tsp1_emul_data *d, int level)
{
    gpio_flags_t fl = 0;
    if (level == d->intb_pin) return;
    /* an input pin only: gpio_emul refuses (and logs) a pin the application has not set up */
    if (gpio_emul_flags_get(cfg->intb.port, cfg->intb.pin, &fl) != 0 || !(fl & GPIO_INPUT))
        return;
    if (gpio_emul_input_set(cfg->intb.port, cfg->intb.pin, tsp1_emul_logical(&cfg->intb, level)) != 0)
        return;
    if (level) d->st.intb_edges++;
    d->intb_pin = level;
}

static int tsp1_emul_model_intb(struct tsp1_emul_data *d)
{
    return d->mp.wait_irq(d->mp.user, 0, 0) == ACCEL_OK;
}

static void tsp1_emul_tick(struct k_timer *t)
{
    struct tsp1_emul_data *d = CONTAINER_OF(t, struct tsp1_emul_data, tick);
    const struct tsp1_emul_cfg *cfg = (const struct tsp1_emul_cfg *)d->target->cfg;
    k_spinlock_key_t key = k_spin_lock(&d->lock);
    int level;
    tsp1_emul_advance(cfg, d);
    level = tsp1_emul_model_intb(d);
    k_spin_unlock(&d->lock, key);
    tsp1_emul_intb(cfg, d, level);
}

static int tsp1_emul_violation(struct tsp1_emul_data *d, const char *what)
{
    d->st.violations++;
    printk("accel_tsp1_emul: SPI contract broken: %s\n", what);
    return -EIO;
}

static int tsp1_emul_io(const struct emul *target, const struct spi_config *config,
                        const struct spi_buf_set *tx_bufs, const struct spi_buf_set *rx_bufs)
{
    struct tsp1_emul_data *d = (struct tsp1_emul_data *)target->data;
    const struct tsp1_emul_cfg *cfg = (const struct tsp1_emul_cfg *)target->cfg;
    size_t i, n = 0, nr = 0, pos;
    k_spinlock_key_t key;
    int level;
    if (!tx_bufs || !tx_bufs->buffers)
        return tsp1_emul_violation(d, "no tx buffer set (the bytes sent are undefined)");
    for (i = 0; i < tx_bufs->count; i++) {
        const struct spi_buf *b = &tx_bufs->buffers[i];
        if (!b->buf && b->len)
            return tsp1_emul_violation(d, "a NULL tx buffer (sends the overrun character)");
        if (b->len > ACCEL_TSP1_EMUL_XFER_BYTES - n)
            return tsp1_emul_violation(d, "a frame longer than ACCEL_TSP1_EMUL_XFER_BYTES");
        n += b->len;
    }
    if (rx_bufs) {
        if (!rx_bufs->buffers && rx_bufs->count)
            return tsp1_emul_violation(d, "an rx buffer set without buffers");
        for (i = 0; i < rx_bufs->count; i++) nr += rx_bufs->buffers[i].len;
        if (nr != n) return tsp1_emul_violation(d, "tx and rx streams of different lengths");
    }
    /* the bytes take bus time (k_busy_wait advances native_sim's clock) */
    if (config && config->frequency)
        k_busy_wait((uint32_t)(((uint64_t)n * 8u * 1000000u + config->frequency - 1u) /
                               config->frequency));
    key = k_spin_lock(&d->lock);
    tsp1_emul_advance(cfg, d);
    for (i = 0, pos = 0; i < tx_bufs->count; i++) {
        memcpy(d->tx + pos, tx_bufs->buffers[i].buf, tx_bufs->buffers[i].len);
        pos += tx_bufs->buffers[i].len;
    }
    /* one chip-select frame: the transfer ends the transaction */
    (void)d->mp.spi_transfer(d->mp.user, 0, d->tx, d->rx, n, 0);
    d->st.transactions++;
    d->st.bytes += (uint32_t)n;
    for (i = 0, pos = 0; rx_bufs && i < rx_bufs->count; i++) {
        const struct spi_buf *b = &rx_bufs->buffers[i];
        if (b->buf) memcpy(b->buf, d->rx + pos, b->len); /* NULL: bytes skipped */
        pos += b->len;
    }
    level = tsp1_emul_model_intb(d); /* reading the response buffer may release INTB */
    k_spin_unlock(&d->lock, key);
    tsp1_emul_intb(cfg, d, level);
    return 0;
}

static const struct spi_emul_api tsp1_emul_spi_api = {
    .io = tsp1_emul_io,
};

static int tsp1_emul_init(const struct emul *target, const struct device *parent)
{
    struct tsp1_emul_data *d = (struct tsp1_emul_data *)target->data;
    (void)parent;
    memset(&d->st, 0, sizeof d->st);
    if (accel_tsp1_model_init(&d->model, d->mem, sizeof d->mem, TSP1_EMUL_CMD_CAP,
                              TSP1_EMUL_RSP_CAP, CONFIG_ACCEL_TSP1_EMUL_NETS) != ACCEL_OK)
        return -EINVAL;
    d->model.wake_line = TSP1_EMUL_LINE_WAKE;
    accel_tsp1_model_port(&d->model, &d->mp);
    d->target = target;
    d->last_ms = k_uptime_get();
    d->intb_pin = -1;
    d->wake = 0;
    k_timer_init(&d->tick, tsp1_emul_tick, NULL);
    k_timer_start(&d->tick, K_MSEC(1), K_MSEC(1));
    return 0;
}

int accel_tsp1_emul_stats_get(const struct emul *target, accel_tsp1_emul_stats *out)
{
    struct tsp1_emul_data *d;
    k_spinlock_key_t key;
    if (!target || !out) return -EINVAL;
    d = (struct tsp1_emul_data *)target->data;
    key = k_spin_lock(&d->lock);
    *out = d->st;
    out->executed = d->model.executed;
    k_spin_unlock(&d->lock, key);
    return 0;
}

void accel_tsp1_emul_report(const struct emul *target)
{
    accel_tsp1_emul_stats s;
    if (accel_tsp1_emul_stats_get(target, &s) != 0) return;
    printk("accel_tsp1_emul: %u SPI transactions, %u bytes, %u INTB edges, %u model commands, "
           "%u SPI contract violations\n", (unsigned)s.transactions, (unsigned)s.bytes,
           (unsigned)s.intb_edges, (unsigned)s.executed, (unsigned)s.violations);
}

accel_tsp1_model *accel_tsp1_emul_model(const struct emul *target)
{
    return target ? &((struct tsp1_emul_data *)target->data)->model : NULL;
}

/* Per node: the device the SPI emulator needs for the node (no driver behind it: the
 * application talks to the bus, as accel's port does), and the emulator. */
#define TSP1_EMUL_DEFINE(n)                                                                    \
    static struct tsp1_emul_data tsp1_emul_data_##n;                                           \
    static const struct tsp1_emul_cfg tsp1_emul_cfg_##n = {                                    \
        .intb = GPIO_DT_SPEC_INST_GET(n, intb_gpios),                                          \
        .wake = GPIO_DT_SPEC_INST_GET(n, wake_gpios),                                          \
    };                                                                                         \
    DEVICE_DT_INST_DEFINE(n, NULL, NULL, NULL, NULL, POST_KERNEL,                              \
                          CONFIG_APPLICATION_INIT_PRIORITY, NULL);                             \
    EMUL_DT_INST_DEFINE(n, tsp1_emul_init, &tsp1_emul_data_##n, &tsp1_emul_cfg_##n,            \
                        &tsp1_emul_spi_api, NULL)

DT_INST_FOREACH_STATUS_OKAY(TSP1_EMUL_DEFINE)
