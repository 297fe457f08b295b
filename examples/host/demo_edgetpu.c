/* demo_edgetpu - the Edge TPU section end to end on the simulator port: bring the simulated
 * chip up with libedgetpu's open sequence, run a small hand-made DarwiNN package (int16 input,
 * int32 output, two instruction chunks) twice, close. Output bytes come from the device model
 * and are synthetic. Run by `make demo`. */
#include "accel.h"
#include "accel_sim.h"
#include <stdio.h>

#include "accel_sim_sessions.h" /* the simulator + model + driver setup */
#include "edgetpu_synth_pkg.h" /* the package, made by this project (scripts/gen) */

static unsigned transfers;
static void count(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    (void)ev;
    transfers++;
}

int main(void)
{
    static accel_sim_edgetpu_session es; /* es.model is the simulated chip, es.drv the host's driver */
    static uint8_t scratch[256];
    accel_edgetpu_package m;
    accel_edgetpu_exe e;
    uint8_t in[10] = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0}, out[8];
    const uint8_t *ins[1] = {in};
    uint8_t *outs[1] = {out};
    uint32_t in_len[1] = {10}, out_len[1] = {8};
    accel_edgetpu_io io = {0};
    accel_status st;
    int run, k, rc;

    st = accel_sim_edgetpu_session_init(&es, 64, count, NULL); /* MCU-sized 64-byte bulk chunks */
    if (st != ACCEL_OK) {
        printf("simulator setup: %s\n", accel_status_str(st));
        return 1;
    }
    st = accel_edgetpu_package_init(&m, synth_pkg, sizeof synth_pkg);
    if (st == ACCEL_OK) st = accel_edgetpu_package_executable(&m, 0, &e);
    if (st != ACCEL_OK) {
        printf("package: %s\n", accel_status_str(st));
        return 1;
    }
    printf("package: %s, %lu executable(s), %lu hints\n", accel_status_str(st),
           (unsigned long)m.n_executables, (unsigned long)e.n_hints);
    st = accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1);
    printf("open: %s after %u control transfers\n", accel_status_str(st), transfers);
    io.in = ins;
    io.in_len = in_len;
    io.n_in = 1;
    io.out = outs;
    io.out_len = out_len;
    io.n_out = 1;
    io.scratch = scratch;
    io.scratch_len = sizeof scratch;
    for (run = 0; run < 2 && st == ACCEL_OK; run++) {
        transfers = 0;
        st = accel_edgetpu_model_expect_exe(&es.model, &e); /* what the simulated chip accepts */
        if (st == ACCEL_OK) st = accel_edgetpu_invoke(&es.drv, &m, &io, NULL);
        printf("inference %d: %s, %u USB transfers, output", run + 1, accel_status_str(st), transfers);
        for (k = 0; k < 8; k++) printf(" %02x", out[k]);
        printf("\n");
    }
    if (st == ACCEL_OK) st = accel_edgetpu_close(&es.drv.usb);
    printf("close: %s; device-side protocol violations: %lu\n", accel_status_str(st),
           (unsigned long)es.model.nviolations);
    rc = st == ACCEL_OK && es.model.nviolations == 0 ? 0 : 1;
    printf(rc ? "demo_edgetpu: FAILED\n" : "demo_edgetpu: ok\n");
    return rc;
}
