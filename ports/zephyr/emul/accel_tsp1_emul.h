/* accel_tsp1_emul.h - a TSP1 on Zephyr's emulated buses, so that code written for a real TSP1
 * (tsp1_basics, any application on the accel Zephyr port) runs on native_sim without hardware.
 *
 * accel's TSP1 device model (accel.h, accel_tsp1_model) sits behind Zephyr's SPI emulator: the
 * devicetree node with compatible "abr,tsp1" on a "zephyr,spi-emul-controller" bus gets this
 * emulator (CONFIG_ACCEL_TSP1_EMUL=y, which needs CONFIG_EMUL, the SPI emulator and the GPIO
 * emulator). Its intb-gpios and wake-gpios must be pins of a "zephyr,gpio-emul" controller.
 *   SPI     every spi_transceive on the node is one chip-select frame of the model (accel's
 *           TSP1 transactions are whole frames: opcode/address bytes, then data). The bytes
 *           take bus time at the spec's frequency (k_busy_wait, which advances native_sim's
 *           clock).
 *   INTB    the model's interrupt output, driven onto the emulated input pin (the pin's
 *           devicetree flags apply: active low is a low level), so the port's GPIO
 *           interrupt callback and k_sem run for real.
 *   WAKE    the emulated output pin, sampled at each transaction and each millisecond (a pulse
 *           shorter than that is not seen).
 *   time    the model advances with k_uptime_get: a 1 ms k_timer, and each transaction.
 * The SPI contract accel's port keeps (and that the model relies on) is checked on every call:
 * a tx buffer set, no NULL tx buffer (Zephyr would send the controller's overrun character),
 * tx and rx streams of equal length, at most ACCEL_TSP1_EMUL_XFER_BYTES bytes. A violation is
 * printed (printk, "accel_tsp1_emul: SPI contract broken: ..."), counted, and the call fails
 * with -EIO.
 * Model settings: CONFIG_ACCEL_TSP1_EMUL_NETS valid network slots; the model's defaults
 * otherwise (boot 5 ms, command queue 512 bytes, response queue 256 bytes). */
#ifndef ACCEL_TSP1_EMUL_H
#define ACCEL_TSP1_EMUL_H
#include <stdint.h>
#include <zephyr/drivers/emul.h>
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_TSP1_EMUL_XFER_BYTES 1024u /* largest frame one spi_transceive may carry */

typedef struct accel_tsp1_emul_stats {
    uint32_t transactions; /* spi_transceive calls that reached the model */
    uint32_t bytes;        /* their bytes */
    uint32_t intb_edges;   /* INTB assertions driven onto the pin */
    uint32_t wake_edges;   /* WAKE rises seen */
    uint32_t violations;   /* SPI contract violations (each also printed) */
    uint32_t executed;     /* commands the model executed */
} accel_tsp1_emul_stats;

/* The counters of the emulator target (EMUL_DT_GET(node)); -EINVAL for NULL. */
int accel_tsp1_emul_stats_get(const struct emul *target, accel_tsp1_emul_stats *out);
/* One line, through printk: "accel_tsp1_emul: T SPI transactions, B bytes, E INTB edges,
 * C model commands, V SPI contract violations". */
void accel_tsp1_emul_report(const struct emul *target);
/* The model itself, to configure it or raise async messages (lock out the emulator's timer
 * with k_sched_lock / irq_lock while changing it); NULL for NULL. */
accel_tsp1_model *accel_tsp1_emul_model(const struct emul *target);

#ifdef __cplusplus
}
#endif
#endif
