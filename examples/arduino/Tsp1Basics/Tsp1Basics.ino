/*
  Tsp1Basics

  Talks to an Applied Brain Research TSP1 neural accelerator over SPI: waits until it has
  booted, sends an ECHO, lists its neural network slots, starts and stops network 0, provokes
  an error with a bad network mask and recovers from it, queues several ECHOs at once, and
  puts the chip into deep sleep and wakes it up. Every outcome is printed to the serial
  monitor (115200 baud).

  The circuit:
  - TSP1 SPI (MOSI, MISO, SCK) to the board's SPI pins, TSP1 chip select to pin SS
    (10 on an Uno, 53 on a Mega)
  - TSP1_INTB to pin 2, TSP1_WAKE to pin 4

  Note: the TSP1's SPI transaction format is not public; accel.h documents the format it
  assumes (search for "ASSUMED SPI transaction") and keeps it in one function.
*/
#include <accel.h>
#include <accel_arduino.h>
#ifdef __AVR__
#include <avr/sleep.h>
#endif

const uint8_t INTB_PIN = 2;
const uint8_t WAKE_PIN = 4;
const uint32_t WAIT_MS = 1000;  // how long a blocking call waits for its outcome

accel_arduino board;           // the port: SPI, pins and time for the driver
accel_port port;
accel_tsp1 tsp;                // the driver's session
// the driver's memory: 6 commands in flight (one slot stays free for the driver), commands up
// to 24 payload bytes, responses up to 52
uint32_t tspMem[(ACCEL_TSP1_DRIVER_MEM(6, 24, 52) + 3) / 4];
bool pipelining;               // print outcomes as they arrive (step 6 only)
uint8_t queuedDone;            // outcomes printed in step 6

// Print "what: STATUS" and pass the status on.
accel_status report(const __FlashStringHelper *what, accel_status st) {
  Serial.print(what);
  Serial.print(F(": "));
  accel_arduino_print_status(Serial, st);
  Serial.println();
  return st;
}

// Every command ends in exactly one outcome; during step 6 we print them as they come.
void onOutcome(void *user, const accel_tsp1_outcome *o) {
  (void)user;
  if (!pipelining) return;
  queuedDone++;
  Serial.print(F("  queued echo: "));
  accel_arduino_print_status(Serial, o->status);
  if (o->resp) {
    Serial.print(F(" \""));
    Serial.write(o->resp->payload, o->resp->n_bytes);
    Serial.print('"');
  }
  Serial.println();
}

// ECHO round trip; after a failure, clear the error state and try once more.
void echo(const char *text) {
  char reply[16];
  size_t len = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    accel_status st = accel_tsp1_call(&tsp, ACCEL_TSP1_ECHO, text, strlen(text), reply,
                                      sizeof reply, &len, WAIT_MS);
    Serial.print(F("echo \""));
    Serial.print(text);
    report(F("\""), st);
    if (st == ACCEL_OK) {
      Serial.print(F("  reply \""));
      Serial.write((const uint8_t *)reply, len);
      Serial.println('"');
      return;
    }
    // A bus error or a lost answer: the TSP1 may be in its error state, so clear it.
    report(F("clear error"), accel_tsp1_clear_error(&tsp));
  }
}

// Asynchronous messages wait in the driver until taken. An ECC error is fatal for the
// running firmware: reboot the TSP1.
void takeAsync() {
  uint16_t id, tid, count;
  static uint32_t gapsSeen;
  bool reboot = false;
  while (accel_tsp1_async_take(&tsp, &id, &tid, &count) == ACCEL_OK) {
    Serial.print(F("async "));
    Serial.print(id == ACCEL_TSP1_R_ASYNC_READY ? F("ASYNC_READY")
                 : id == ACCEL_TSP1_R_ASYNC_ERR_ECC ? F("ASYNC_ERR_ECC") : F("other"));
    Serial.print(F(" tid "));
    Serial.print(tid);
    if (tsp.async_gaps != gapsSeen) {  // TIDs skipped: the TSP1 kept only the last message
      Serial.print(F(" ("));
      Serial.print(tsp.async_gaps - gapsSeen);
      Serial.print(F(" earlier coalesced)"));
      gapsSeen = tsp.async_gaps;
    }
    Serial.println();
    if (id == ACCEL_TSP1_R_ASYNC_ERR_ECC) reboot = true;
  }
  if (reboot && report(F("reboot"), accel_tsp1_reboot(&tsp, WAIT_MS)) == ACCEL_OK) takeAsync();
}

void showNet(uint8_t i) {
  accel_tsp1_nn_info info;
  if (accel_tsp1_nn_query(&tsp, i, &info, WAIT_MS) != ACCEL_OK) return;
  Serial.print(F("  net "));
  Serial.print(info.idx);
  Serial.print(F(" of "));
  Serial.print(info.n_total);
  // F("...") keeps a string in flash: on AVR a plain string literal also takes RAM
  Serial.println(info.state == ACCEL_TSP1_NN_STOPPED   ? F(": stopped")
                 : info.state == ACCEL_TSP1_NN_RUNNING ? F(": running")
                 : info.state == ACCEL_TSP1_NN_PAUSED  ? F(": paused")
                                                       : F(": finished"));
}

void setup() {
  Serial.begin(115200);
  Serial.println(F("Tsp1Basics"));

  accel_arduino_config cfg;
  accel_arduino_config_init(&cfg);
  cfg.cs_pin[0] = SS;          // spi_transfer chip select 0
  cfg.irq_pin[0] = INTB_PIN;   // wait_irq line 0, active low
  cfg.gpio_pin[1] = WAKE_PIN;  // gpio_set line 1
  accel_status st = accel_arduino_init(&board, &cfg, &port);

  accel_tsp1_config tc;
  memset(&tc, 0, sizeof tc);
  tc.bus.port = &port;
  tc.bus.addr = 0;             // chip select 0
  tc.bus.intb_line = 0;
  tc.bus.wake_line = 1;
  tc.mem = tspMem;
  tc.mem_len = sizeof tspMem;
  tc.depth = 6;
  tc.cmd_payload = 24;
  tc.rsp_payload = 52;
  tc.nonce = (uint32_t)analogRead(A0) << 16 ^ micros();  // differs from the last session
  tc.timeout_ms = 300;         // a command unanswered for 300 ms has timed out
  tc.on_outcome = onOutcome;
  if (st == ACCEL_OK) st = accel_tsp1_init(&tsp, &tc);

  // 1. The TSP1 says ASYNC_READY once it has booted.
  if (st == ACCEL_OK) st = accel_tsp1_wait_ready(&tsp, WAIT_MS);
  if (report(F("ready"), st) != ACCEL_OK) {
    Serial.println(F("no TSP1: check the wiring"));
    return;
  }
  takeAsync();

  // 2. ECHO answers with its own payload.
  echo("hello");
  takeAsync();

  // 3. Network slots: valid ones are contiguous from 0.
  uint8_t count = 0;
  report(F("scan"), accel_tsp1_nn_scan(&tsp, &count, WAIT_MS));
  for (uint8_t i = 0; i < count; i++) showNet(i);

  // 4. Start network 0 (step 5 stops it again).
  report(F("start net 0"), accel_tsp1_nn_control(&tsp, ACCEL_TSP1_NN_START, 1, WAIT_MS));
  showNet(0);

  // 5. A mask with a slot that holds no network: the driver refuses it after a scan...
  uint32_t bad = (uint32_t)1 << count;
  report(F("start bad mask"), accel_tsp1_nn_control(&tsp, ACCEL_TSP1_NN_START, bad, WAIT_MS));
  // ...sent anyway as a raw command, the TSP1 answers ERR_ARG and enters its error state,
  // where it discards every command until CLEAR_ERROR.
  uint8_t raw[4] = {(uint8_t)bad, 0, 0, 0};
  report(F("raw start bad mask"),
         accel_tsp1_call(&tsp, ACCEL_TSP1_NN_START, raw, 4, NULL, 0, NULL, WAIT_MS));
  report(F("stop net 0"), accel_tsp1_nn_control(&tsp, ACCEL_TSP1_NN_STOP, 1, WAIT_MS));
  report(F("clear error"), accel_tsp1_clear_error(&tsp));
  report(F("stop net 0"), accel_tsp1_nn_control(&tsp, ACCEL_TSP1_NN_STOP, 1, WAIT_MS));
  showNet(0);

  // 6. Queue four ECHOs without waiting; answers come back in order. A command completes
  // only when its answer fits in the TSP1's response buffer.
  char text[] = "pipeline-1";
  pipelining = true;
  for (uint8_t i = 0; i < 4; i++) {
    text[9] = (char)('1' + i);  // submit sends at once: text may change afterwards
    st = accel_tsp1_submit(&tsp, ACCEL_TSP1_ECHO, text, strlen(text), NULL);
    if (st != ACCEL_OK) {  // not queued (no room yet, say): no outcome will follow
      report(F("queue echo"), st);
      queuedDone++;
    }
  }
  delay(20);
  uint16_t fill = 0, space = 0;
  if (accel_tsp1_buf_level(&tsp.bus, ACCEL_TSP1_BUF_RSP, &fill, &space) == ACCEL_OK) {
    Serial.print(F("response buffer: "));
    Serial.print(fill);
    Serial.print(F(" bytes waiting, "));
    Serial.print(space);
    Serial.println(F(" free"));
  }
  uint32_t start = millis();
  st = ACCEL_OK;
  while (st == ACCEL_OK && queuedDone < 4 && millis() - start < WAIT_MS) st = accel_tsp1_poll(&tsp);
  if (st != ACCEL_OK) report(F("poll"), st);
  pipelining = false;
  takeAsync();

  // 7. Deep sleep; a rising edge on WAKE wakes the TSP1, which then says ASYNC_READY again.
  report(F("deep sleep"), accel_tsp1_sleep(&tsp, WAIT_MS));
  report(F("wake"), accel_tsp1_wake(&tsp, WAIT_MS));
  takeAsync();
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
