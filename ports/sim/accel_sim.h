/* accel_sim.h - the simulator port: an accel_port served by an in-memory device model, with a
 * virtual clock and on-demand fault injection. Host and MCU alike (no malloc, no stdio).
 *
 * Usage:
 *   accel_sim sim;
 *   accel_port model = {0};            // the device model's side: a device section fills it,
 *   accel_xxx_model_port(&dev, &model); // e.g. its SPI or USB callbacks served by the model
 *   accel_sim_init(&sim);
 *   accel_sim_attach(&sim, &model);
 *   accel_xxx_open(&drv, &sim.port);   // the driver talks to sim.port as to real hardware
 *
 * The model is described with the same accel_port struct a driver uses, with two twists:
 *   - model.wait_irq(user, line, 0) is asked "is the line asserted now?" (OK = yes);
 *   - model.delay_ms(user, ms) is told that ms of simulated time passed (the model may finish
 *     work then). model.now_ms is never called: the simulator owns the clock;
 *   - model.spi_transfer(user, cs, NULL, NULL, 0, 0) says "chip select went high": the
 *     simulator sends it when a fault fails or stalls an SPI transfer, since on a real bus a
 *     failed transfer ends the transaction (see ACCEL_SPI_KEEP_CS in accel.h), and passes on
 *     a driver's own len 0 release of a held transaction (none held: the model hears nothing;
 *     a release is not a bus transfer, so no fault applies to it).
 * Time moves only when the driver delays, waits for an IRQ, or a transfer times out (the
 * simulator then charges the call's whole timeout), so tests are deterministic.
 *
 * Faults (accel_sim_add_fault) apply to matching calls: flip bits, drop or duplicate a byte,
 * truncate a transfer, fail a call with a status, or stall it past its timeout. Each fault counts
 * the calls it matches on its own; when two are due on one call, the one added first applies. */
#ifndef ACCEL_SIM_H
#define ACCEL_SIM_H
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACCEL_SIM_MAX_FAULTS
#define ACCEL_SIM_MAX_FAULTS 8
#endif
#ifndef ACCEL_SIM_SCRATCH
#define ACCEL_SIM_SCRATCH 4096 /* largest to-device transfer a data fault can rewrite */
#endif

/* which calls a fault applies to (bit mask) */
#define ACCEL_SIM_OP_SPI 0x001u
#define ACCEL_SIM_OP_I2C 0x002u
#define ACCEL_SIM_OP_USB_CONTROL 0x004u
#define ACCEL_SIM_OP_USB_BULK_OUT 0x008u
#define ACCEL_SIM_OP_USB_BULK_IN 0x010u
#define ACCEL_SIM_OP_REG_READ 0x020u  /* 32- and 64-bit */
#define ACCEL_SIM_OP_REG_WRITE 0x040u /* 32- and 64-bit */
#define ACCEL_SIM_OP_GPIO 0x080u
#define ACCEL_SIM_OP_WAIT_IRQ 0x100u
#define ACCEL_SIM_OP_ALL 0x1FFu

typedef enum accel_sim_fault_kind {
    ACCEL_SIM_FLIP = 1, /* data[at] ^= mask */
    ACCEL_SIM_DROP,     /* byte `at` vanishes (later bytes move up) */
    ACCEL_SIM_DUP,      /* byte `at` arrives twice (later bytes move down) */
    ACCEL_SIM_TRUNCATE, /* only the first `at` bytes are transferred */
    ACCEL_SIM_FAIL,     /* the call returns `status`; the model never sees it */
    ACCEL_SIM_STALL     /* the call takes stall_ms (at least its timeout), then ACCEL_E_TIMEOUT */
} accel_sim_fault_kind;

/* data direction a data fault (FLIP/DROP/DUP/TRUNCATE) corrupts */
#define ACCEL_SIM_TO_DEVICE 1u
#define ACCEL_SIM_FROM_DEVICE 2u

typedef struct accel_sim_fault {
    accel_sim_fault_kind kind;
    unsigned ops;        /* ACCEL_SIM_OP_* mask */
    unsigned dir;        /* ACCEL_SIM_TO_DEVICE / ACCEL_SIM_FROM_DEVICE (data faults) */
    int has_target;      /* 1: only calls whose target (SPI cs, I2C address, USB endpoint or
                            bRequest for control, register offset, GPIO/IRQ line) == target */
    uint32_t target;
    uint32_t skip;       /* let this many matching calls pass untouched first */
    uint32_t count;      /* then hit this many calls (0 = every later one) */
    size_t at;           /* byte index (FLIP/DROP/DUP) or bytes kept (TRUNCATE) */
    uint8_t mask;        /* FLIP xor mask (0 means 0x01) */
    accel_status status; /* FAIL status (0 means ACCEL_E_IO) */
    uint32_t stall_ms;   /* STALL duration */
    uint32_t hits_;      /* internal: how many calls it hit */
    uint32_t seen_;      /* internal: matching calls seen */
} accel_sim_fault;

/* One line of the transfer log (accel_sim_set_trace). */
typedef struct accel_sim_event {
    unsigned op;          /* one ACCEL_SIM_OP_* bit */
    uint32_t target;      /* as for faults */
    uint8_t request_type; /* USB control only */
    uint16_t value, index;/* USB control only */
    const uint8_t *data;  /* bytes as the driver sent or received them (may be NULL) */
    size_t len;           /* requested length */
    size_t done;          /* transferred length */
    uint64_t reg_value;   /* register reads and writes, GPIO level */
    accel_status status;
} accel_sim_event;

typedef struct accel_sim {
    accel_port port;  /* give &sim.port to a driver */
    accel_port model; /* the device model's callbacks (copied by accel_sim_attach) */
    uint32_t now;     /* simulated milliseconds */
    int closed;       /* after accel_sim_close every call returns ACCEL_E_CLOSED */
    accel_sim_fault faults[ACCEL_SIM_MAX_FAULTS];
    unsigned nfaults;
    uint32_t calls;        /* calls made through port */
    uint32_t faults_fired; /* calls a fault changed */
    uint8_t spi_held;      /* 1: a KEEP_CS transfer left chip select spi_held_cs asserted */
    uint8_t spi_held_cs;
    void (*trace)(void *ctx, const accel_sim_event *ev);
    void *trace_ctx;
    uint8_t scratch[ACCEL_SIM_SCRATCH + 1];
} accel_sim;

accel_status accel_sim_init(accel_sim *sim);
/* The model's callbacks; callbacks it leaves NULL make the port report ACCEL_E_UNSUPPORTED. */
accel_status accel_sim_attach(accel_sim *sim, const accel_port *model);
accel_status accel_sim_add_fault(accel_sim *sim, const accel_sim_fault *f);
void accel_sim_clear_faults(accel_sim *sim);
void accel_sim_close(accel_sim *sim);
void accel_sim_reopen(accel_sim *sim);
/* Advance simulated time (and tell the model). */
void accel_sim_advance(accel_sim *sim, uint32_t ms);
void accel_sim_set_trace(accel_sim *sim, void (*fn)(void *ctx, const accel_sim_event *ev),
                         void *ctx);

#ifdef __cplusplus
}
#endif
#endif
