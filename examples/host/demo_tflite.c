/* demo_tflite - a whole quantized model on caller memory, and how a hardware result is traced to
 * the first layer where it diverges. The model is one of the project's hand-made ones (from
 * scripts/gen/gen_tflite_models.py): FULLY_CONNECTED then QUANTIZE to uint8, its numbers worked
 * out by hand there: in [4, 6] -> [3, -3] -> [131, 125]. */
#include "accel.h"
#include <stdio.h>
#include <string.h>
#include "tflite_demo_model.h"

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
    static const int8_t in[2] = {4, 6};
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[256];
    size_t need = 0, got = 0;
    uint8_t out[2];
    trace tr = {-1};
    accel_status st;
    st = accel_tflite_open(&m, tfl_model_fc_then_quantize, sizeof tfl_model_fc_then_quantize);
    if (st == ACCEL_OK) st = accel_tflite_plan(&m, arena, sizeof arena, &need);
    if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, sizeof arena);
    printf("1) model: %u tensors, %u operators, arena %zu bytes (plan table and every tensor)\n",
           (unsigned)m.n_tensors, (unsigned)m.n_ops, need);
    rt.on_op = on_op;
    rt.user = &tr;
    printf("2) one inference, each operator's output against the device's:\n");
    if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, in, sizeof in);
    if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
    if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, sizeof out, &got);
    if (st != ACCEL_OK) {
        printf("   %s (operator %u)\ndemo_tflite: FAILED\n", accel_status_str(st), (unsigned)rt.bad_op);
        return 1;
    }
    printf("3) output [%u, %u] (worked out by hand: [131, 125]); first diverging layer: %d\n", out[0], out[1],
           tr.first_bad);
    st = got == 2 && out[0] == 131 && out[1] == 125 && tr.first_bad == 1 ? ACCEL_OK : ACCEL_E_MALFORMED;
    printf(st == ACCEL_OK ? "demo_tflite: ok\n" : "demo_tflite: FAILED\n");
    return st == ACCEL_OK ? 0 : 1;
}
