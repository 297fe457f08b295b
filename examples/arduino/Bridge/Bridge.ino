/*
  Bridge

  Turns the board into an accel bridge: the host tools (accel-tsp1, accel-linux-probe, ...)
  started with --bridge PORT[,BAUD] drive the accelerator wired to this board as if it sat on
  the host's own bus. Each request from the host (an SPI transfer, a GPIO level, a wait for the
  interrupt line, the time, a delay) runs here on the board's SPI bus and pins, and its answer
  goes back; the bridge runs each request exactly once even when the link drops or garbles
  bytes (the host retries, the board answers a retry from its last answer).

  The circuit (the wiring of the Tsp1Basics example, which the host tools expect):
  - TSP1 SPI (MOSI, MISO, SCK) to the board's SPI pins, TSP1 chip select to pin SS
    (10 on an Uno, 53 on a Mega): chip select 0
  - TSP1_INTB to pin 2: interrupt line 0 (active low)
  - TSP1_WAKE to pin 4: GPIO line 1
  - the USB serial port to the host, at BRIDGE_BAUD (115200 unless set; the host's ",BAUD"
    must match). 1000000 works on a 16 MHz AVR (double speed, divider 1: exact).

  Nothing else may write to Serial: every byte on it belongs to the bridge's frames.
  I2C is left out (Wire's buffers cost RAM on an Uno); the host sees it as unsupported.
*/
#include <accel.h>
#include <accel_arduino.h>
#include <accel_bridge_device.h>

#ifndef BRIDGE_BAUD
#define BRIDGE_BAUD 115200
#endif
const uint8_t INTB_PIN = 2;
const uint8_t WAKE_PIN = 4;

accel_arduino board;       // the port: SPI, pins and time
accel_port port;
accel_bridge_device dev;   // all of the bridge's state and buffers

// Response bytes go straight to the serial port (it blocks while its buffer is full).
accel_status serialWrite(void *user, const uint8_t *data, size_t n) {
  (void)user;
  return Serial.write(data, n) == n ? ACCEL_OK : ACCEL_E_IO;
}

void setup() {
  accel_arduino_config cfg;
  accel_bridge_device_config bc;
  Serial.begin(BRIDGE_BAUD);
  accel_arduino_config_init(&cfg);
  cfg.cs_pin[0] = SS;
  cfg.irq_pin[0] = INTB_PIN;
  cfg.gpio_pin[1] = WAKE_PIN;
  cfg.max_transfer = ACCEL_BRIDGE_MAX_DATA;  // the most one request carries
  memset(&bc, 0, sizeof bc);
  bc.port = &port;
  bc.write = serialWrite;
  if (accel_arduino_init(&board, &cfg, &port) != ACCEL_OK ||
      accel_bridge_device_init(&dev, &bc) != ACCEL_OK) {
    for (;;) {  // a wiring table error: nothing to serve
    }
  }
}

void loop() {
  uint8_t buf[32];
  size_t n = 0;
  int c;
  // take what has arrived (read() alone: at 1000000 baud a byte comes every 160 cycles and
  // the receive interrupt takes half of them); a complete frame runs its request inside feed
  while (n < sizeof buf && (c = Serial.read()) >= 0) buf[n++] = (uint8_t)c;
  if (n) (void)accel_bridge_device_feed(&dev, buf, n);  // a write error: the host retries
}
