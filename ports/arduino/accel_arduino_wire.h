/* accel_arduino_wire.h - I2C for the Arduino port, over Wire. Include it in the sketch that
 * needs I2C, after accel_arduino.h:
 *   #include <accel_arduino_wire.h>
 *   accel_arduino_init(&board, &cfg, &port);
 *   accel_arduino_init_i2c(&board, &port, 400000, 25000);  // 400 kHz, 25 ms timeout
 * It is a header on purpose: the Arduino build links every library a library's sources
 * include, and Wire's buffers take about 200 bytes of RAM on an Uno, so only sketches that
 * include this file pay for them. One transfer = a write, then (repeated start, no stop in
 * between) a read; a write of 0 bytes with a read of 0 bytes probes the address.
 * Lengths above cfg.max_transfer or Wire's buffer (BUFFER_LENGTH, 32 on AVR) are refused with
 * ACCEL_E_TOO_LONG before anything reaches the bus. Wire's code stays in board.wire_error. */
#ifndef ACCEL_ARDUINO_WIRE_H
#define ACCEL_ARDUINO_WIRE_H
#include "accel_arduino.h"
#include <Wire.h>

#ifndef BUFFER_LENGTH
#define BUFFER_LENGTH 32 /* Wire's buffers on cores that do not name their size */
#endif
#if defined(ARDUINO_ARCH_AVR) || defined(WIRE_HAS_TIMEOUT)
#define ACCEL__ARD_WIRE_TIMEOUT 1
#else
#define ACCEL__ARD_WIRE_TIMEOUT 0
#endif

static accel_status accel__ard_i2c(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                   uint8_t *r, size_t rlen)
{
    accel_arduino *a = (accel_arduino *)user;
    uint8_t got, i;
    if (addr > 0x7Fu) return ACCEL_E_ARG;
    if (wlen > a->cfg.max_transfer || rlen > a->cfg.max_transfer) return ACCEL_E_TOO_LONG;
    if (wlen > BUFFER_LENGTH || rlen > BUFFER_LENGTH) return ACCEL_E_TOO_LONG;
    a->wire_got = 0;
    if (wlen || !rlen) {
        Wire.beginTransmission((uint8_t)addr);
        if (wlen) Wire.write(w, wlen);
        /* endTransmission(false) before a read: the repeated start keeps the bus */
        accel_status st = accel_arduino_wire_status(a, Wire.endTransmission(rlen ? false : true));
        if (st != ACCEL_OK || !rlen) return st;
    }
#if ACCEL__ARD_WIRE_TIMEOUT
    Wire.clearWireTimeoutFlag();
#endif
    got = Wire.requestFrom((uint8_t)addr, (uint8_t)rlen, (uint8_t)true);
    a->wire_got = got;
    if (got != rlen) {
        while (Wire.available()) Wire.read(); /* a partial read is not data */
#if ACCEL__ARD_WIRE_TIMEOUT
        if (Wire.getWireTimeoutFlag()) return accel_arduino_wire_status(a, 5);
#endif
        /* no byte at all: the address was not acknowledged */
        return accel_arduino_wire_status(a, got ? 4 : 2);
    }
    for (i = 0; i < got; i++) r[i] = (uint8_t)Wire.read();
    return accel_arduino_wire_status(a, 0);
}

/* Add i2c_write_read to a port made by accel_arduino_init: Wire.begin(), clock in Hz, timeout
 * in microseconds (0: none; Wire resets its unit after one). */
static inline accel_status accel_arduino_init_i2c(accel_arduino *a, accel_port *port, uint32_t hz,
                                                  uint32_t timeout_us)
{
    if (!a || !port) return ACCEL_E_NULL;
    if (!hz || port->user != a) return ACCEL_E_ARG;
    Wire.begin();
    Wire.setClock(hz);
#if ACCEL__ARD_WIRE_TIMEOUT
    Wire.setWireTimeout(timeout_us, true);
#else
    (void)timeout_us;
#endif
    port->i2c_write_read = accel__ard_i2c;
    return ACCEL_OK;
}
#endif
