/* The plain-loop baseline of bench_tflite: the same runner built with ACCEL_MAC_FAST 0 (the
 * smallest kernels), private to this file (ACCEL_STATIC), behind three wrappers. */
#define ACCEL_STATIC
#define ACCEL_MAC_FAST 0
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_IMPLEMENTATION
#include "accel.h"

int bench_tflite_small_init(const uint8_t *model, size_t len, void *arena, size_t arena_len, void **rt_out);
int bench_tflite_small_run(void *rt, const uint8_t *in, size_t in_len, uint8_t *out, size_t cap);

static accel_tflite_model small_m;
static accel_tflite small_rt;

int bench_tflite_small_init(const uint8_t *model, size_t len, void *arena, size_t arena_len, void **rt_out)
{
    accel_status st = accel_tflite_open(&small_m, model, len);
    if (st == ACCEL_OK) st = accel_tflite_init(&small_rt, &small_m, arena, arena_len);
    *rt_out = &small_rt;
    return (int)st;
}

int bench_tflite_small_run(void *rt, const uint8_t *in, size_t in_len, uint8_t *out, size_t cap)
{
    size_t got;
    accel_status st = accel_tflite_set_input((accel_tflite *)rt, 0, in, in_len);
    if (st == ACCEL_OK) st = accel_tflite_invoke((accel_tflite *)rt);
    if (st == ACCEL_OK) st = accel_tflite_get_output((accel_tflite *)rt, 0, out, cap, &got);
    return (int)st;
}
