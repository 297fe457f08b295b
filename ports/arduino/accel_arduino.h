/* accel_arduino.h - the Arduino port: an accel_port over the Arduino core's SPI library (mode 0,
 * MSB first), Wire (write, repeated start, read), digitalWrite/digitalRead/attachInterrupt,
 * millis() and delay(). No heap, no String; the caller owns every struct.
 *
 * Usage (a TSP1 on SPI: chip select on pin SS, INTB on pin 2, WAKE on pin 4):
 *   #include <accel.h>
 *   #include <accel_arduino.h>
 *   accel_arduino board;
 *   accel_port port;
 *   void setup() {
 *     accel_arduino_config cfg;
 *     accel_arduino_config_init(&cfg);         // no pins, 4 MHz, 512-byte transfers
 *     cfg.cs_pin[0] = SS;                      // spi_transfer(cs 0) drives SS low
 *     cfg.irq_pin[0] = 2;                      // wait_irq(line 0): pin 2, active low
 *     cfg.gpio_pin[1] = 4;                     // gpio_set(line 1): pin 4, starts low
 *     accel_arduino_init(&board, &cfg, &port); // SPI.begin(), pin modes, interrupts
 *     // hand &port to a driver, e.g. accel_tsp1_config.bus.port (bus.addr = 0 = cs 0)
 *   }
 * I2C over Wire: include accel_arduino_wire.h in the sketch and call accel_arduino_init_i2c()
 * (a header, so that sketches without I2C do not link Wire's buffers).
 *
 * Line numbers (SPI chip select, GPIO, IRQ) are indexes into the config's pin tables, so a
 * driver's numbers stay the same on every board. A transfer longer than cfg.max_transfer is
 * refused with ACCEL_E_TOO_LONG (nothing is sent), never cut short. Wire's error codes map to
 * distinct statuses and are kept in board.wire_error:
 *   1 data too long -> ACCEL_E_TOO_LONG, 2 address NACK -> ACCEL_E_NO_DEVICE,
 *   3 data NACK -> ACCEL_E_STALL, 4 bus error / lost arbitration -> ACCEL_E_IO,
 *   5 timeout -> ACCEL_E_TIMEOUT. A read that returns no byte counts as 2 (or 5 after a timeout).
 * wait_irq polls the pin and, on pins with an external interrupt, also catches a pulse shorter
 * than one poll while it waits (one edge flag per line number, shared by every accel_arduino).
 * An edge latched before the call is dropped, not reported as a new interrupt: a pending one
 * is still asserted, and the level says so.
 * On AVR the library's status strings are compiled out (they would sit in RAM): print a status
 * with accel_arduino_print_status(Serial, st), whose names live in flash. On AVR the tflite
 * section also reads models from flash (PROGMEM) and, on an Uno, keeps one operator: see
 * accel_arduino_config.h, which this header includes first (include this header before accel.h
 * to see the library's configuration). */
#ifndef ACCEL_ARDUINO_H
#define ACCEL_ARDUINO_H
#include "accel_arduino_config.h"
#include <Arduino.h>
#include "accel.h"

#define ACCEL_ARDUINO_LINES 4     /* cs, gpio and irq line numbers 0..3 */
#define ACCEL_ARDUINO_NO_PIN 0xFFu

typedef struct accel_arduino_config {
    uint32_t spi_hz;      /* SPI clock in Hz (the core rounds down to what it can divide) */
    size_t max_transfer;  /* longest spi_transfer / I2C write or read, in bytes */
    uint8_t cs_pin[ACCEL_ARDUINO_LINES];   /* spi_transfer cs n: this pin, active low */
    uint8_t gpio_pin[ACCEL_ARDUINO_LINES]; /* gpio_set line n: this output pin */
    uint8_t irq_pin[ACCEL_ARDUINO_LINES];  /* wait_irq line n: this input pin */
    uint8_t gpio_high;    /* bit n: gpio line n starts high (default low) */
    uint8_t irq_high;     /* bit n: irq line n is asserted high (default low, like TSP1_INTB) */
    uint8_t irq_pullup;   /* bit n: enable the pull-up on irq line n (open-drain outputs) */
    uint8_t poll_only;    /* 1: never attachInterrupt, only poll the pins */
} accel_arduino_config;

typedef struct accel_arduino {
    accel_arduino_config cfg;
    uint8_t held_cs;      /* cs line left asserted by ACCEL_SPI_KEEP_CS, or NO_PIN */
    uint8_t attached;     /* bit n: irq line n has an interrupt attached */
    uint8_t wire_error;   /* Wire's code (1..5) of the last failed I2C call, 0 after success */
    uint8_t wire_got;     /* bytes the last requestFrom delivered */
} accel_arduino;

/* Defaults: no pins, 4 MHz SPI, max_transfer 512. */
void accel_arduino_config_init(accel_arduino_config *cfg);
/* Check the config, set pin modes (chip selects high, GPIO at their start level), SPI.begin()
 * and fill *port (spi_transfer, gpio_set, wait_irq, now_ms, delay_ms; user = board).
 * ACCEL_E_ARG for a pin used twice or an irq_high/irq_pullup/gpio_high bit without a pin. */
accel_status accel_arduino_init(accel_arduino *board, const accel_arduino_config *cfg,
                                accel_port *port);
/* Wire's code -> status, kept in board->wire_error (board may be NULL); used by
 * accel_arduino_wire.h. */
accel_status accel_arduino_wire_status(accel_arduino *board, uint8_t code);
/* Release the pins' interrupts and a held chip select. */
void accel_arduino_end(accel_arduino *board);

/* Name of a status code, from flash ("ACCEL_E_TIMEOUT"); NULL for a code it does not know
 * (common, TSP1 and MAC codes are known). */
const __FlashStringHelper *accel_arduino_status_name(accel_status st);
/* Print the name, or "status <n>" for an unknown code. Returns the characters printed. */
size_t accel_arduino_print_status(Print &out, accel_status st);

#endif
