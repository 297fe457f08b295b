/*
  Tsp1Update

  Installs a new firmware (NVM) image on an Applied Brain Research TSP1 with a secure update.
  The image is streamed from flash (PROGMEM, see image.h) one 144-byte chunk per SECURE_UPDATE
  command, then SECURE_UPDATE_FINISH checks it and a REBOOT starts it. Progress is printed to
  the serial monitor (115200 baud). If the TSP1 reports an error the update is cancelled (the
  chip then boots its ROM loader) and tried once more from the start.

  The circuit (as in Tsp1Basics):
  - TSP1 SPI to the board's SPI pins, TSP1 chip select to pin SS (10 on an Uno, 53 on a Mega)
  - TSP1_INTB to pin 2, TSP1_WAKE to pin 4
*/
#include <accel.h>
#include <accel_arduino.h>
#include "image.h"
#ifdef __AVR__
#include <avr/sleep.h>
#endif

accel_arduino board;
accel_port port;
accel_tsp1 tsp;
// the driver's memory: 4 commands in flight, responses up to 52 payload bytes, commands up to
// one 144-byte chunk of image (the driver adds the 12-byte frame and the 12-byte ECHO marker it
// sends right behind a command that answers nothing, its proof it ran)
uint32_t tspMem[(ACCEL_TSP1_DRIVER_MEM(4, 144, 52) + 3) / 4];

accel_status report(const __FlashStringHelper *what, accel_status st) {
  Serial.print(what);
  Serial.print(F(": "));
  accel_arduino_print_status(Serial, st);
  Serial.println();
  return st;
}

// The driver asks for the image piece by piece: copy it out of flash.
accel_status readImage(void *user, uint32_t offset, uint8_t *dst, size_t n) {
  (void)user;
  memcpy_P(dst, image + offset, n);
  return ACCEL_OK;
}

void progress(void *user, uint32_t done, uint32_t total) {
  (void)user;
  Serial.print(F("  sent "));
  Serial.print(done);
  Serial.print(F(" / "));
  Serial.println(total);
}

void setup() {
  Serial.begin(115200);
  Serial.println(F("Tsp1Update"));

  accel_arduino_config cfg;
  accel_arduino_config_init(&cfg);
  cfg.cs_pin[0] = SS;
  cfg.irq_pin[0] = 2;
  cfg.gpio_pin[1] = 4;
  accel_status st = accel_arduino_init(&board, &cfg, &port);

  accel_tsp1_config tc;
  memset(&tc, 0, sizeof tc);
  tc.bus.port = &port;
  tc.bus.wake_line = 1;
  tc.mem = tspMem;
  tc.mem_len = sizeof tspMem;
  tc.depth = 4;
  tc.cmd_payload = 144;
  tc.rsp_payload = 52;
  tc.nonce = (uint32_t)analogRead(A0) << 16 ^ micros();  // differs from the last session
  tc.timeout_ms = 500;
  if (st == ACCEL_OK) st = accel_tsp1_init(&tsp, &tc);
  if (st == ACCEL_OK) st = accel_tsp1_wait_ready(&tsp, 1000);
  if (report(F("ready"), st) != ACCEL_OK) return;
  // The TSP1 refuses an update while a network runs (ERR_BUSY): stop them all first.
  report(F("scan"), accel_tsp1_nn_scan(&tsp, NULL, 1000));
  report(F("stop all"), accel_tsp1_nn_control(&tsp, ACCEL_TSP1_NN_STOP, tsp.known_mask, 1000));

  Serial.print(F("image: "));
  Serial.print(sizeof image);
  Serial.println(F(" bytes"));
  accel_tsp1_update u;
  memset(&u, 0, sizeof u);
  u.read = readImage;
  u.progress = progress;
  u.total = sizeof image;
  u.chunks = 1;  // one chunk per command: what fits txMem
  for (int attempt = 1; attempt <= 2; attempt++) {
    // Sends every chunk, FINISH, then REBOOT, and waits for the new firmware's ASYNC_READY.
    if (report(F("update"), accel_tsp1_update_run(&tsp, &u, 2000)) == ACCEL_OK) break;
    if (attempt == 2) break;
    // position says where the next attempt starts: 0 after a cancelled update, the image's
    // size when it is finished and only the reboot is missing (ACCEL_E_TSP1_REBOOT_PENDING).
    Serial.print(F("  the next attempt starts at byte "));
    Serial.println(u.position);
  }
  char reply[8];
  size_t len;
  report(F("echo after update"),
         accel_tsp1_call(&tsp, ACCEL_TSP1_ECHO, "new", 3, reply, sizeof reply, &len, 1000));
  Serial.println(F("done"));
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
