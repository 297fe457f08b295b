/*
  TfliteHello

  Runs a whole TensorFlow Lite model on this board with accel's tflite runner, which computes
  exactly what TensorFlow Lite Micro computes (and runs where it cannot, on 8-bit AVRs). The
  model in model.h is accel's own "hello world": y = sin(x) for x in [0, 2pi), made of
  straight pieces by two FULLY_CONNECTED layers. For each input the sketch prints
  "in Q -> out Q" (int8 values: x = (in + 128) * 2pi/256, and sin(x) is about out/128) to the
  serial monitor (115200 baud), then the arena's size and the time one inference takes.

  The model stays in flash. On AVR the library reads every model through memcpy_P, so a model
  given to accel_tflite_open must be in PROGMEM there; on an Uno the library keeps only the
  FULLY_CONNECTED kernel (accel_arduino_config.h says why and how to change both). To run your
  own model, replace model.h (same names: model, inputs, MODEL_NAME), e.g. with
    python3 scripts/gen/gen_tflite_models.py progmem my.tflite my in0.bin in1.bin > model.h
  from the accel repository (the .bin files: one input tensor's bytes each).

  No extra hardware is needed.
*/
#include <accel_arduino.h>  // first: it sets the library's configuration, then includes accel.h
#include "model.h"
#ifdef __AVR__
#include <avr/sleep.h>
#endif

// The runner's memory for one model: tensor data, the plan and its bookkeeping, int32-aligned.
// The sketch prints what its model used; TFLM's hello_world_int8 needs all 272 bytes. For
// another model, `accel-run MODEL.tflite --info` (a host tool of the accel repository) prints
// the bytes it needs.
uint32_t arena[68];

#if defined(__AVR__) && !ACCEL_ARDUINO_MODEL_PROGMEM
uint8_t modelInRam[sizeof model];  // built with ACCEL_ARDUINO_MODEL_IN_RAM: models are read from RAM
#endif

accel_tflite_model net;
accel_tflite rt;

void report(const __FlashStringHelper *what, accel_status st) {
  Serial.print(what);
  Serial.print(F(": "));
  accel_arduino_print_status(Serial, st);
  if (st == ACCEL_E_TFLITE_UNSUPPORTED) {  // an operator this build does not keep
    Serial.print(F(" (operator "));
    Serial.print(rt.bad_op);
    Serial.print(F(", code "));
    Serial.print(rt.bad_code);
    Serial.print(')');
  }
  Serial.println();
}

// A tensor's bytes as numbers: int8 signed, anything else byte by byte.
void printTensor(const uint8_t *p, size_t n, int type) {
  for (size_t i = 0; i < n; i++) {
    if (i) Serial.print(' ');
    if (type == ACCEL_TFLITE_INT8) Serial.print((int)(int8_t)p[i]);
    else Serial.print(p[i]);
  }
}

void setup() {
  Serial.begin(115200);
  Serial.print(F("TfliteHello: "));
  Serial.println(F(MODEL_NAME));
  const uint8_t *buf = model;
#if defined(__AVR__) && !ACCEL_ARDUINO_MODEL_PROGMEM
  memcpy_P(modelInRam, model, sizeof model);
  buf = modelInRam;
#endif
  // Validate the whole model in place (offsets, shapes, quantization, operators), then plan
  // and lay it out in the arena; the weights stay where they are.
  accel_status st = accel_tflite_open(&net, buf, sizeof model);
  if (st != ACCEL_OK) return report(F("open"), st);
  st = accel_tflite_init(&rt, &net, arena, sizeof arena);
  if (st != ACCEL_OK) return report(F("init"), st);
  uint32_t inIndex = 0, outIndex = 0;
  accel_tflite_tensor in, out;
  st = accel_tflite_graph_tensor(&net, 0, 0, &inIndex);
  if (st == ACCEL_OK) st = accel_tflite_graph_tensor(&net, 1, 0, &outIndex);
  if (st == ACCEL_OK) st = accel_tflite_tensor_info(&net, inIndex, &in);
  if (st == ACCEL_OK) st = accel_tflite_tensor_info(&net, outIndex, &out);
  if (st == ACCEL_OK && in.bytes != sizeof inputs[0]) st = ACCEL_E_ARG;  // model.h's rows
  if (st != ACCEL_OK) return report(F("tensors"), st);

  const unsigned n = sizeof inputs / sizeof inputs[0];
  unsigned long spent = 0;
  for (unsigned i = 0; i < n; i++) {
    uint8_t x[sizeof inputs[0]], y[16];
    size_t got = 0;
    memcpy_P(x, inputs[i], sizeof x);
    st = accel_tflite_set_input(&rt, 0, x, sizeof x);
    unsigned long t0 = micros();
    if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
    spent += micros() - t0;
    if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, y, sizeof y, &got);
    if (st != ACCEL_OK) return report(F("invoke"), st);
    Serial.print(F("in "));
    printTensor(x, sizeof x, in.type);
    Serial.print(F(" -> out "));
    printTensor(y, got, out.type);
    Serial.println();
  }
  Serial.print(n);
  Serial.println(F(" inferences"));
  Serial.print(F("arena "));
  Serial.print(rt.arena_used);
  Serial.print(F(" of "));
  Serial.print(sizeof arena);
  Serial.print(F(" bytes, "));
  Serial.print(spent / n);
  Serial.println(F(" us per inference"));
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
