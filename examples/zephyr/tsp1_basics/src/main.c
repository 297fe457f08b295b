/* tsp1_basics - a TSP1 session through the accel Zephyr port, the same session as the Arduino
 * sketch Tsp1Basics: wait for ASYNC_READY, ECHO, scan the network slots with NN_INFO, start and
 * stop network 0, then a network mask naming a slot without a network: refused on the host,
 * then sent anyway so the device answers with an error and enters its error state, and the
 * session recovers with CLEAR_ERROR. Every step prints its outcome; the last line counts the
 * steps whose outcome was not the expected one.
 *
 * Wiring: the devicetree node labelled tsp1 (compatible "abr,tsp1", see boards/<board>.overlay): its
 * SPI bus and chip select, intb-gpios (INTB, active low) and wake-gpios (WAKE).
 * On native_sim/native/64 the TSP1 is ports/zephyr/emul's emulator (boards/native_sim_native_64.*):
 * the same session on Zephyr's SPI and GPIO emulators, ending with the emulator's counts.
 * Build: west build -b nrf52840dk/nrf52840 examples/zephyr/tsp1_basics (README, "Zephyr"). */
#include <zephyr/kernel.h>
#include <zephyr/devicetree.h>
#include <zephyr/drivers/spi.h>
#include <zephyr/drivers/gpio.h>
#include <zephyr/sys/printk.h>
#include <string.h>
#include "accel.h"
#include "accel_zephyr.h"
#ifdef CONFIG_ACCEL_TSP1_EMUL
#include "accel_tsp1_emul.h"
#endif

#define TSP1_NODE DT_NODELABEL(tsp1)
#if !DT_NODE_EXISTS(TSP1_NODE)
#error "no devicetree node labelled tsp1: add boards/<board>.overlay (see the README)"
#endif

/* Port lines: wait_irq line 0 is INTB, gpio_set line 1 is WAKE; chip select 0 is the TSP1. */
#define LINE_INTB 0u
#define LINE_WAKE 1u
#define CS_TSP1 0u
#define TIMEOUT_MS 500u

/* 8-bit words, MSB first; clock polarity and phase come from the node (spi-cpol, spi-cpha) */
static const struct spi_dt_spec tsp1_spi =
    ACCEL_ZEPHYR_SPI_DT_SPEC_GET(TSP1_NODE, SPI_WORD_SET(8) | SPI_TRANSFER_MSB);
static const struct gpio_dt_spec tsp1_intb = GPIO_DT_SPEC_GET(TSP1_NODE, intb_gpios);
static const struct gpio_dt_spec tsp1_wake = GPIO_DT_SPEC_GET(TSP1_NODE, wake_gpios);

static accel_zephyr z;
static accel_port port;
static accel_tsp1 s;
/* the driver's memory: 8 commands in flight, payloads up to 52 bytes out, 64 in */
static uint32_t tsp_mem[(ACCEL_TSP1_DRIVER_MEM(8, 52, 64) + 3) / 4];
static unsigned unexpected;

static const char *cmd_name(uint16_t id)
{
    switch (id) {
    case ACCEL_TSP1_ECHO: return "ECHO";
    case ACCEL_TSP1_NN_INFO: return "NN_INFO";
    case ACCEL_TSP1_NN_START: return "NN_START";
    case ACCEL_TSP1_NN_STOP: return "NN_STOP";
    case ACCEL_TSP1_REBOOT: return "REBOOT";
    case ACCEL_TSP1_CLEAR_ERROR: return "CLEAR_ERROR";
    default: return "?";
    }
}

/* Every command's one outcome, as the driver reports it. */
static void on_outcome(void *user, const accel_tsp1_outcome *o)
{
    (void)user;
    printk("  outcome: tid %u %s -> %s\n", o->tid, cmd_name(o->cmd), accel_status_str(o->status));
}

static void on_async(void *user, const accel_tsp1_frame *f)
{
    (void)user;
    printk("  async 0x%04x tid %u\n", f->id, f->tid);
}

/* Print a step's status and count it when it is not the one expected. */
static void step(const char *what, accel_status st, accel_status want)
{
    printk("%s: %s%s\n", what, accel_status_str(st), st == want ? "" : "  (unexpected)");
    if (st != want) unexpected++;
}

static int setup(void)
{
    accel_tsp1_config c;
    accel_status st = accel_zephyr_init(&z);
    if (st == ACCEL_OK) st = accel_zephyr_spi_attach(&z, CS_TSP1, &tsp1_spi);
    if (st == ACCEL_OK) st = accel_zephyr_irq_attach(&z, LINE_INTB, &tsp1_intb);
    if (st == ACCEL_OK) st = accel_zephyr_output_attach(&z, LINE_WAKE, &tsp1_wake);
    if (st == ACCEL_OK) st = accel_zephyr_port(&z, &port);
    if (st != ACCEL_OK) {
        printk("port setup: %s (errno %d)\n", accel_status_str(st), z.last_errno);
        return -1;
    }
    memset(&c, 0, sizeof c);
    c.bus.port = &port;
    c.bus.i2c = 0;
    c.bus.addr = CS_TSP1;
    c.bus.intb_line = LINE_INTB;
    c.bus.wake_line = LINE_WAKE;
    c.mem = tsp_mem;
    c.mem_len = sizeof tsp_mem;
    c.depth = 8;
    c.cmd_payload = 52;
    c.rsp_payload = 64;
    /* c.nonce: a value that differs between sessions (a boot counter, the entropy driver) */
    c.timeout_ms = TIMEOUT_MS;
    c.auto_clear = 0; /* recover by hand, to show the error state */
    c.on_outcome = on_outcome;
    c.on_async = on_async;
    c.user = NULL;
    st = accel_tsp1_init(&s, &c);
    if (st != ACCEL_OK) {
        printk("open: %s\n", accel_status_str(st));
        return -1;
    }
    return 0;
}

static void echo(const char *what)
{
    static const char msg[] = "hello";
    uint8_t out[16];
    size_t len = 0;
    accel_status st = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, msg, 5, out, sizeof out, &len,
                                      TIMEOUT_MS);
    if (st == ACCEL_OK && (len != 5 || memcmp(out, msg, 5) != 0)) {
        printk("%s: ACCEL_OK but the echo differs (%u bytes)  (unexpected)\n", what,
               (unsigned)len);
        unexpected++;
        return;
    }
    step(what, st, ACCEL_OK);
}

int main(void)
{
    accel_tsp1_nn_info info;
    accel_status st;
    uint8_t n = 0, i, bad[4];
    uint32_t bad_mask;

    printk("tsp1_basics: accel %s\n", ACCEL_VERSION_STRING);
    if (setup() != 0) return 0;

    /* 1. the device says ASYNC_READY once booted; if it booted before we listened, a REBOOT
          makes it say so again */
    st = accel_tsp1_wait_ready(&s, 2000);
    if (st == ACCEL_E_TIMEOUT) {
        printk("no ASYNC_READY yet: rebooting the device\n");
        st = accel_tsp1_reboot(&s, 2000);
    }
    step("ready", st, ACCEL_OK);
    if (st != ACCEL_OK) {
        printk("tsp1_basics: done, %u unexpected (no device)\n", unexpected);
#ifdef CONFIG_ACCEL_TSP1_EMUL
        accel_tsp1_emul_report(EMUL_DT_GET(TSP1_NODE));
#endif
        return 0;
    }

    /* 2. ECHO */
    echo("echo");

    /* 3. NN_INFO over the slots until the first empty one */
    st = accel_tsp1_nn_scan(&s, &n, TIMEOUT_MS);
    step("scan", st, ACCEL_OK);
    printk("  %u network(s), mask 0x%08x\n", n, (unsigned)s.known_mask);
    for (i = 0; st == ACCEL_OK && i < n; i++) {
        accel_status q = accel_tsp1_nn_query(&s, i, &info, TIMEOUT_MS);
        if (q == ACCEL_OK)
            printk("  slot %u: %u inputs, %u outputs, state %u\n", i, info.n_in, info.n_out,
                   (unsigned)info.state);
        else
            step("  slot query", q, ACCEL_OK);
    }

    /* 4. start and stop network 0 */
    if (n > 0) {
        step("start net 0", accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_START, 1u, TIMEOUT_MS),
             ACCEL_OK);
        step("stop net 0", accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_STOP, 1u, TIMEOUT_MS),
             ACCEL_OK);
    } else {
        printk("no network loaded: start/stop skipped\n");
    }

    /* 5. a mask naming the first slot without a network */
    if (n < ACCEL_TSP1_MAX_NETS) {
        bad_mask = (uint32_t)1u << n;
        step("bad mask, host check",
             accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_START, bad_mask, TIMEOUT_MS),
             ACCEL_E_TSP1_MASK);
        /* sent anyway (accel_tsp1_call does not check masks): the device refuses it and then
           discards every command until CLEAR_ERROR */
        bad[0] = (uint8_t)(bad_mask & 0xFFu);
        bad[1] = (uint8_t)((bad_mask >> 8) & 0xFFu);
        bad[2] = (uint8_t)((bad_mask >> 16) & 0xFFu);
        bad[3] = (uint8_t)(bad_mask >> 24);
        step("bad mask, device",
             accel_tsp1_call(&s, ACCEL_TSP1_NN_START, bad, 4, NULL, 0, NULL, TIMEOUT_MS),
             ACCEL_E_TSP1_ERR_ARG);
        step("echo in the error state",
             accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "x", 1, NULL, 0, NULL, TIMEOUT_MS),
             ACCEL_E_TSP1_ERROR_STATE);
        /* 6. recover */
        step("clear error", accel_tsp1_clear_error(&s), ACCEL_OK);
        echo("recovered");
    } else {
        printk("all %u slots hold networks: no bad mask to send\n", n);
    }

    printk("tsp1_basics: done, %u unexpected\n", unexpected);
#ifdef CONFIG_ACCEL_TSP1_EMUL
    accel_tsp1_emul_report(EMUL_DT_GET(TSP1_NODE));
#endif
    return 0;
}
