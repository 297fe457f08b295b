/* demo_tflite - a whole quantized model on caller memory, and how a hardware result is traced to
 * the first layer where it diverges. The model is one of the project's hand-made ones
 * (tests/vectors/tflite/models.h, from scripts/gen/gen_tflite_models.py): FULLY_CONNECTED then
 * QUANTIZE to uint8, its numbers worked out by hand there: in [4, 6] -> [3, -3] -> [131, 125]. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <string.h>
#include "vectors/tflite/models.h"

/* what "the accelerator" returned for each layer: right first, then one value off in layer 1 */
static const uint8_t device_layers[2][2] = {{3, 0xFD}, {131, 126}};

typedef struct trace {
    int first_bad; /* operator index, -1 while all match */
} trace;

static void on_op(void *user, uint32_t op, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    trace *tr = (trace *)user;
    int same = t->bytes == 2 && memcmp(data, device_layers[op], 2) == 0;
    printf("   op %u %-16s tensor %u: reference %3u %3u, device %3u %3u %s\n", (unsigned)op,
           accel_tflite_op_name(code), (unsigned)tensor, ((const uint8_t *)data)[0], ((const uint8_t *)data)[1],
           device_layers[op][0], device_layers[op][1], same ? "same" : "DIFFERENT");
    if (!same && tr->first_bad < 0) tr->first_bad = (int)op;
}

int main(void)
{
    const tfl_case *tc = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[256];
    size_t need = 0, got = 0, i;
    uint8_t out[2];
    trace tr = {-1};
    accel_status st;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++)
        if (strcmp(tfl_cases[i].name, "fc_then_quantize") == 0) tc = &tfl_cases[i];
    if (!tc) return 1;
    st = accel_tflite_open(&m, tc->model, tc->len);
    if (st == ACCEL_OK) st = accel_tflite_arena_size(&m, arena, sizeof arena, &need);
    if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, sizeof arena);
    printf("1) model: %u tensors, %u operators, arena %zu bytes (plan table and every tensor)\n",
           (unsigned)m.n_tensors, (unsigned)m.n_ops, need);
    rt.on_op = on_op;
    rt.user = &tr;
    printf("2) one inference, each operator's output against the device's:\n");
    if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, tc->in, tc->in_len);
    if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
    if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, sizeof out, &got);
    if (st != ACCEL_OK) {
        printf("   %s (operator %u)\n", accel_status_str(st), (unsigned)rt.bad_op);
        return 1;
    }
    printf("3) output [%u, %u] (worked out by hand: [131, 125]); first diverging layer: %d\n", out[0], out[1],
           tr.first_bad);
    return got == 2 && out[0] == 131 && out[1] == 125 && tr.first_bad == 1 ? 0 : 1;
}
