// ProbeModel - a negative control for tests/avr_sketches.sh, never shipped: it links the TSP1
// device model and calls accel_status_str(), which the symbol check must find in its ELF, and
// it never halts, which the harness must report as a hang once its cycle budget is spent.
#include <accel.h>
#include <accel_arduino.h>

accel_tsp1_model model;
uint8_t modelMem[128];

void setup() {
  Serial.begin(115200);
  accel_status st = accel_tsp1_model_init(&model, modelMem, sizeof modelMem, 16, 16, 1);
  Serial.print(accel_status_str(st));
  Serial.println(F("probe running"));
}

void loop() {
  accel_tsp1_model_advance(&model, 1);
}
