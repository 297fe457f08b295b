/* sim_zephyr.c - the Zephyr stand-in functions backed by accel's TSP1 device model, so that a
 * sample's src/main.c runs unchanged on the host, through the real port (accel_zephyr.c):
 *   spi_transceive_dt  one chip-select frame of the model: the tx buffers as one stream (a NULL
 *                      tx buffer sends 0xFF, as an overrun character would), rx scattered back
 *   gpio_pin_get_dt    the model's INTB (its IRQ status under its mask), 1 = asserted
 *   gpio_pin_set_dt    the model's WAKE input (the samples drive one output: WAKE)
 *   k_sem_take         waits in 1 ms steps of simulated time; at each step a rise of INTB runs
 *                      the registered GPIO callback, as the interrupt would
 *   k_msleep / k_uptime_get   simulated milliseconds (the model advances with them)
 *   printk             stdout
 * The sample's main is compiled as sample_main (-Dmain=sample_main); this file's main sets the
 * model up (2 networks, booting) when the build has it (CONFIG_ACCEL_TSP1_MODEL), runs the
 * sample, and prints what the bus saw. Host builds and Cortex-M4 builds (QEMU, semihosting). Checks the port's SPI
 * contract on every call: tx and rx streams of one length, no more than the port's limit of
 * buffers. Exit status: the sample's, or 3 when a contract check failed. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <zephyr/kernel.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/drivers/i2c.h>
#include "accel.h"
#include "accel_zephyr.h"

int sample_main(void);

static struct {
    int with_model;
#ifdef CONFIG_ACCEL_TSP1_MODEL
    accel_tsp1_model m;
    uint8_t mem[4096];
#endif
    accel_port mp;
    int64_t now;
    int intb_level;
    struct gpio_callback *cb;
    const struct gpio_dt_spec *cb_spec;
    unsigned transactions, edges, contract_errors;
    size_t bytes;
    uintptr_t sp_main, sp_min; /* stack: at the sample's main, and the deepest Zephyr call */
} sim;

/* Note how deep the stack is when the sample, accel and the port call Zephyr (the frames of
 * Zephyr's own drivers, and printk's, come on top of this). */
#define SIM_STACK()                                                          \
    do {                                                                     \
        uintptr_t sp_ = (uintptr_t)__builtin_frame_address(0);               \
        if (!sim.sp_min || sp_ < sim.sp_min) sim.sp_min = sp_;               \
    } while (0)

static void contract(int ok, const char *what)
{
    if (!ok) {
        printf("sim: port contract broken: %s\n", what);
        sim.contract_errors++;
    }
}

static int intb(void)
{
    if (!sim.with_model) return 0;
    return sim.mp.wait_irq(sim.mp.user, 0, 0) == ACCEL_OK;
}

/* One simulated millisecond; a rise of INTB runs the interrupt callback. */
static void tick(void)
{
    int level;
    sim.now++;
    if (!sim.with_model) return;
#ifdef CONFIG_ACCEL_TSP1_MODEL
    accel_tsp1_model_advance(&sim.m, 1);
#endif
    level = intb();
    if (level && !sim.intb_level && sim.cb) {
        sim.edges++;
        sim.cb->handler(sim.cb_spec->port, sim.cb, sim.cb->pin_mask);
    }
    sim.intb_level = level;
}

bool spi_is_ready_dt(const struct spi_dt_spec *spec) { return spec && spec->bus; }

int spi_transceive_dt(const struct spi_dt_spec *spec, const struct spi_buf_set *tx_bufs,
                      const struct spi_buf_set *rx_bufs)
{
    static uint8_t tx[2048], rx[2048];
    size_t i, n = 0, nr = 0;
    SIM_STACK();
    (void)spec;
    contract(tx_bufs != NULL, "no tx buffers");
    if (!tx_bufs || !sim.with_model) return -EIO;
    contract(tx_bufs->count <= ACCEL_ZEPHYR_SPI_MAX_BUFS, "too many tx buffers");
    for (i = 0; i < tx_bufs->count; i++) {
        const struct spi_buf *b = &tx_bufs->buffers[i];
        if (n + b->len > sizeof tx) return -EMSGSIZE;
        contract(b->buf != NULL, "a NULL tx buffer (sends the overrun character, not 0x00)");
        if (b->buf) memcpy(tx + n, b->buf, b->len);
        else memset(tx + n, 0xFF, b->len);
        n += b->len;
    }
    if (rx_bufs) {
        contract(rx_bufs->count <= ACCEL_ZEPHYR_SPI_MAX_BUFS, "too many rx buffers");
        for (i = 0; i < rx_bufs->count; i++) nr += rx_bufs->buffers[i].len;
        contract(nr == n, "rx and tx streams of different lengths");
    }
    /* one chip-select frame: no ACCEL_SPI_KEEP_CS, the model ends the transaction */
    sim.mp.spi_transfer(sim.mp.user, 0, tx, rx, n, 0);
    sim.transactions++;
    sim.bytes += n;
    if (rx_bufs) {
        size_t pos = 0;
        for (i = 0; i < rx_bufs->count; i++) {
            const struct spi_buf *b = &rx_bufs->buffers[i];
            if (b->buf && pos + b->len <= n) memcpy(b->buf, rx + pos, b->len);
            pos += b->len;
        }
    }
    sim.intb_level = intb(); /* reading the response buffer may release INTB */
    return 0;
}

/* no I2C device in the simulation */
bool i2c_is_ready_dt(const struct i2c_dt_spec *spec)
{
    (void)spec;
    return false;
}

int i2c_write_read_dt(const struct i2c_dt_spec *spec, const void *write_buf, size_t num_write,
                      void *read_buf, size_t num_read)
{
    (void)spec, (void)write_buf, (void)num_write, (void)read_buf, (void)num_read;
    return -ENODEV;
}

int i2c_write_dt(const struct i2c_dt_spec *spec, const uint8_t *buf, uint32_t num_bytes)
{
    (void)spec, (void)buf, (void)num_bytes;
    return -ENODEV;
}

int i2c_read_dt(const struct i2c_dt_spec *spec, uint8_t *buf, uint32_t num_bytes)
{
    (void)spec, (void)buf, (void)num_bytes;
    return -ENODEV;
}

bool gpio_is_ready_dt(const struct gpio_dt_spec *spec) { return spec && spec->port; }

int gpio_pin_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t extra_flags)
{
    (void)spec;
    (void)extra_flags;
    return 0;
}

int gpio_pin_get_dt(const struct gpio_dt_spec *spec)
{
    SIM_STACK();
    (void)spec;
    return intb();
}

int gpio_pin_set_dt(const struct gpio_dt_spec *spec, int value)
{
    SIM_STACK();
    (void)spec;
    if (sim.with_model) sim.mp.gpio_set(sim.mp.user, 1u, value ? 1u : 0u); /* model WAKE line */
    return 0;
}

int gpio_pin_interrupt_configure_dt(const struct gpio_dt_spec *spec, gpio_flags_t flags)
{
    (void)spec;
    contract(flags == GPIO_INT_EDGE_TO_ACTIVE || flags == GPIO_INT_DISABLE, "interrupt flags");
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
    sim.cb = callback;
    sim.cb_spec = spec;
    sim.intb_level = intb();
    return 0;
}

int gpio_remove_callback_dt(const struct gpio_dt_spec *spec, struct gpio_callback *callback)
{
    (void)spec;
    if (sim.cb == callback) sim.cb = NULL;
    return 0;
}

#include "fake_k_sem.h"

int k_sem_take(struct k_sem *sem, k_timeout_t timeout)
{
    k_ticks_t t;
    SIM_STACK();
    for (t = 0;; t++) {
        if (sem->count) {
            sem->count--;
            return 0;
        }
        if (t >= timeout.ticks) return timeout.ticks ? -EAGAIN : -EBUSY;
        tick();
    }
}

int64_t k_uptime_get(void) { return sim.now; }

int32_t k_msleep(int32_t ms)
{
    SIM_STACK();
    while (ms-- > 0) tick();
    return 0;
}

void printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

int main(void)
{
    int rc;
#ifdef CONFIG_ACCEL_TSP1_MODEL
    sim.with_model = 1;
    {
        if (accel_tsp1_model_init(&sim.m, sim.mem, sizeof sim.mem, 512, 256, 2) != ACCEL_OK) {
            printf("sim: model init failed\n");
            return 2;
        }
        sim.m.wake_line = 1;
        accel_tsp1_model_port(&sim.m, &sim.mp);
    }
#endif
    sim.sp_main = (uintptr_t)__builtin_frame_address(0);
    rc = sample_main();
#ifdef CONFIG_ACCEL_TSP1_MODEL
    if (sim.with_model)
        printf("sim: %u SPI transactions, %lu bytes, %u INTB edges, %lu ms, %lu model commands\n",
               sim.transactions, (unsigned long)sim.bytes, sim.edges, (unsigned long)sim.now,
               (unsigned long)sim.m.executed);
#endif
    if (sim.sp_min && sim.sp_min < sim.sp_main)
        printf("sim: stack from main to the deepest Zephyr call: %lu bytes\n",
               (unsigned long)(sim.sp_main - sim.sp_min));
    if (sim.contract_errors) return 3;
    return rc;
}
