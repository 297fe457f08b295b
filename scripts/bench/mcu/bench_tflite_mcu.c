/* bench_tflite_mcu - executed instructions per inference of whole .tflite models on QEMU's
 * Cortex-M boards (run by scripts/bench_tflite_mcu.sh). Counted as bench_mac_mcu.c counts them
 * (mcu_count.h): under qemu-system-arm -icount SysTick (clocked from the virtual clock) is
 * calibrated on a loop of known length. INSTRUCTIONS, not cycles. The models, one input each and TFLM's output for it
 * come from a header the script generates from the shared data (tflite_bench_data.h: they are
 * third-party and never part of the repository), in flash. Each model: init, one invoke to
 * compare with TFLM's output, then one counted invoke (after a reset, so stateful models count
 * the same first step). Prints "row MODEL INSTRUCTIONS ARENA_BYTES EXACT". */
#define ACCEL_IMPLEMENTATION
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#include "accel.h"
#include "mcu_count.h"         /* now(), calibrate(), instr(), put(), put_u() */
#include "tflite_bench_data.h" /* bench_models[]: name, model, len, in, in_len, out, out_len */

static uint32_t arena[(96u * 1024u) / 4u];
static uint8_t out[4096];

int main(void)
{
    size_t i;
    int bad = 0;
    calibrate();
    put("path ");
    put(ACCEL_MAC_FAST ? (ACCEL_MAC_SIMD == 4 ? "fast-dsp" : "fast-portable") : "small");
    put("\n");
    for (i = 0; i < sizeof bench_models / sizeof bench_models[0]; i++) {
        const bench_model *bm = &bench_models[i];
        accel_tflite_model m;
        accel_tflite rt;
        size_t need = 0, got = 0, k;
        uint64_t t0, t1;
        int exact;
        accel_status st = accel_tflite_open(&m, bm->model, bm->len);
        if (st == ACCEL_OK) st = accel_tflite_plan(&m, arena, sizeof arena, &need);
        if (st == ACCEL_OK && need > sizeof arena) st = ACCEL_E_BUFFER_TOO_SMALL;
        if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, need);
        if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, bm->in, bm->in_len);
        if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
        if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, sizeof out, &got);
        exact = st == ACCEL_OK && got == bm->out_len;
        for (k = 0; exact && k < got; k++) exact = out[k] == bm->out[k];
        if (st == ACCEL_OK) st = accel_tflite_reset(&rt);
        if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, bm->in, bm->in_len);
        t0 = now();
        if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
        t1 = now();
        put("row ");
        put(bm->name);
        put(" ");
        put_u(st == ACCEL_OK ? instr(t0, t1) : 0u);
        put(" ");
        put_u((uint32_t)need);
        put(exact ? " 1\n" : " 0\n");
        if (!exact) bad++;
    }
    return bad != 0;
}
