/*
  MacSelfTest

  Runs small int8 neural network layers (fully connected, conv2d, depthwise conv2d, max and
  average pooling) through accel's multiply-accumulate reference engine on this board, and
  compares every output byte with the expected result in cases.h, printing "ok" or "FAIL" per
  case to the serial monitor (115200 baud). The expected bytes come from TensorFlow Lite's
  reference kernels and from hand calculation, so "ok" means this microcontroller computes
  exactly what TensorFlow Lite Micro computes.

  No extra hardware is needed.
*/
#include <accel.h>
#include <accel_arduino.h>
#include "cases.h"
#ifdef __AVR__
#include <avr/sleep.h>
#endif

int8_t arena[480];  // input, filter and output of one case, copied out of flash
int32_t bias[16], multiplier[8], shift[8];

// Run case c on the tensors in the arena; the output goes to out.
accel_status run(const MacCase &c, const int8_t *input, const int8_t *filter, int8_t *out) {
  accel_mac_quant q;
  memset(&q, 0, sizeof q);
  q.dtype = ACCEL_MAC_INT8;
  q.input_offset = c.input_offset;
  q.filter_offset = c.filter_offset;
  q.output_offset = c.output_offset;
  q.multiplier = multiplier;
  q.shift = shift;
  q.count = c.n_quant;
  q.act_min = c.act_min;
  q.act_max = c.act_max;
  q.rounding = ACCEL_MAC_ROUND_DOUBLE;  // TensorFlow Lite's default
  const int32_t *b = c.bias_len ? bias : NULL;
  if (c.op == FC)
    return accel_mac_fully_connected(c.dims[0], c.dims[3], c.dims[6], input, c.input_len, filter,
                                     c.filter_len, b, c.bias_len, &q, out, c.output_len);
  accel_mac_conv g;
  memset(&g, 0, sizeof g);
  g.batches = c.dims[0];
  g.in_h = c.dims[1];
  g.in_w = c.dims[2];
  g.in_c = c.dims[3];
  g.out_h = c.dims[4];
  g.out_w = c.dims[5];
  g.out_c = c.dims[6];
  g.k_h = c.dims[7];
  g.k_w = c.dims[8];
  g.stride_h = c.dims[9];
  g.stride_w = c.dims[10];
  g.dilation_h = c.dims[11];
  g.dilation_w = c.dims[12];
  g.pad_top = c.dims[13];
  g.pad_left = c.dims[14];
  switch (c.op) {
  case CONV:
    g.groups = c.dims[15];
    return accel_mac_conv2d(&g, &q, input, c.input_len, filter, c.filter_len, b, c.bias_len,
                            out, c.output_len);
  case DEPTHWISE:
    g.depth_multiplier = c.dims[15];
    return accel_mac_depthwise_conv2d(&g, &q, input, c.input_len, filter, c.filter_len, b,
                                      c.bias_len, out, c.output_len);
  case MAX_POOL:
    return accel_mac_max_pool2d(&g, ACCEL_MAC_INT8, c.act_min, c.act_max, input, c.input_len,
                                out, c.output_len);
  default:
    return accel_mac_average_pool2d(&g, ACCEL_MAC_INT8, c.act_min, c.act_max, input,
                                    c.input_len, out, c.output_len);
  }
}

void setup() {
  Serial.begin(115200);
  Serial.println(F("MacSelfTest"));
  const unsigned total = sizeof cases / sizeof cases[0];
  unsigned passed = 0;
  for (unsigned i = 0; i < total; i++) {
    MacCase c;
    memcpy_P(&c, &cases[i], sizeof c);
    // The engine reads RAM: copy the tensors out of flash, one after the other.
    int8_t *input = arena, *filter = input + c.input_len, *out = filter + c.filter_len;
    accel_status st = ACCEL_E_BUFFER_TOO_SMALL;
    if ((size_t)(out + c.output_len - arena) <= sizeof arena && c.bias_len <= 16 &&
        c.n_quant <= 8) {
      memcpy_P(input, c.input, c.input_len);
      memcpy_P(filter, c.filter, c.filter_len);
      memcpy_P(bias, c.bias, c.bias_len * sizeof(int32_t));
      memcpy_P(multiplier, c.multiplier, c.n_quant * sizeof(int32_t));
      memcpy_P(shift, c.shift, c.n_quant * sizeof(int32_t));
      memset(out, 0x55, c.output_len);  // a pattern the engine must overwrite
      st = run(c, input, filter, out);
    }
    bool same = st == ACCEL_OK && memcmp_P(out, c.expected, c.output_len) == 0;
    if (same) passed++;
    Serial.print(c.name);
    Serial.print(same ? F(": ok") : F(": FAIL "));
    if (st != ACCEL_OK) accel_arduino_print_status(Serial, st);
    Serial.println();
  }
  Serial.print(passed);
  Serial.print(F(" of "));
  Serial.print(total);
  Serial.println(F(" cases ok"));
}

void loop() {
  // Everything ran once in setup(). Stop: on AVR the CPU halts, which an emulator sees.
  Serial.flush();
#ifdef __AVR__
  cli();
  sleep_enable();
  sleep_cpu();
#endif
}
