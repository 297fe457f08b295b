/* fake_arduino.cpp - the fake core behind the headers in tests/avr/fake (host unit tests). */
#include "Arduino.h"
#include "SPI.h"
#include "Wire.h"
#include <stdarg.h>
#include <stdio.h>

char fake_log[4096];
int fake_pin_in[80];
unsigned long fake_ms, fake_ms_step = 1;
void (*fake_isr[2])(void);
void (*fake_millis_hook)(unsigned long now);
SPIClass SPI;
TwoWire Wire;
uint8_t fake_wire_code, fake_wire_avail, fake_wire_data[32];
bool fake_wire_timeout;
static uint8_t wire_rx[32], wire_rx_len, wire_rx_pos;

void fake_logf(const char *fmt, ...)
{
    size_t n = strlen(fake_log);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fake_log + n, sizeof fake_log - n, fmt, ap);
    va_end(ap);
}

void fake_reset(void)
{
    fake_log[0] = 0;
    memset(fake_pin_in, 0, sizeof fake_pin_in);
    fake_ms = 0;
    fake_ms_step = 1;
    fake_isr[0] = fake_isr[1] = NULL;
    fake_millis_hook = NULL;
    fake_wire_code = 0;
    fake_wire_avail = 32;
    for (unsigned i = 0; i < 32; i++) fake_wire_data[i] = (uint8_t)(0xD0 + i);
    fake_wire_timeout = false;
    wire_rx_len = wire_rx_pos = 0;
}

void pinMode(uint8_t pin, uint8_t mode) { fake_logf("M%u=%u ", pin, mode); }
void digitalWrite(uint8_t pin, uint8_t val) { fake_logf("W%u=%u ", pin, val); }
int digitalRead(uint8_t pin) { return fake_pin_in[pin] ? HIGH : LOW; }
unsigned long millis(void)
{
    unsigned long t = fake_ms;
    fake_ms += fake_ms_step;
    if (fake_millis_hook) fake_millis_hook(t);
    return t;
}
void delay(unsigned long ms) { fake_logf("D%lu ", ms); }
void attachInterrupt(uint8_t irq, void (*fn)(void), int mode)
{
    fake_logf("A%u/%d ", irq, mode);
    if (irq < 2) fake_isr[irq] = fn;
}
void detachInterrupt(uint8_t irq)
{
    fake_logf("X%u ", irq);
    if (irq < 2) fake_isr[irq] = NULL;
}
void noInterrupts(void) {}
void interrupts(void) {}

size_t Print::print(const char *s)
{
    size_t n = strlen(s);
    if (len + n < sizeof text) {
        memcpy(text + len, s, n + 1);
        len += n;
    }
    return n;
}
size_t Print::print(int v)
{
    char b[16];
    snprintf(b, sizeof b, "%d", v);
    return print(b);
}

void SPIClass::begin() { fake_logf("Sbegin "); }
void SPIClass::beginTransaction(SPISettings s) { fake_logf("S[%lu/%u/%u ", (unsigned long)s.clock, s.order, s.mode); }
uint8_t SPIClass::transfer(uint8_t b)
{
    fake_logf("%02x ", b);
    return (uint8_t)~b;
}
void SPIClass::endTransaction() { fake_logf("S] "); }

void TwoWire::begin() { fake_logf("Ibegin "); }
void TwoWire::setClock(uint32_t hz) { fake_logf("Ihz%lu ", (unsigned long)hz); }
void TwoWire::setWireTimeout(uint32_t us, bool reset) { fake_logf("Ito%lu/%d ", (unsigned long)us, reset); }
bool TwoWire::getWireTimeoutFlag() { return fake_wire_timeout; }
void TwoWire::clearWireTimeoutFlag() { fake_logf("Iclr "); }
void TwoWire::beginTransmission(uint8_t addr) { fake_logf("I<%02x ", addr); }
size_t TwoWire::write(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++) fake_logf("w%02x ", d[i]);
    return n;
}
uint8_t TwoWire::endTransmission(uint8_t stop)
{
    fake_logf("I>%u ", stop);
    return fake_wire_code;
}
uint8_t TwoWire::requestFrom(uint8_t addr, uint8_t n, uint8_t stop)
{
    uint8_t got = n < fake_wire_avail ? n : fake_wire_avail;
    fake_logf("R%02x/%u/%u ", addr, n, stop);
    memcpy(wire_rx, fake_wire_data, got);
    wire_rx_len = got;
    wire_rx_pos = 0;
    return got;
}
int TwoWire::available() { return wire_rx_len - wire_rx_pos; }
int TwoWire::read() { return wire_rx_pos < wire_rx_len ? wire_rx[wire_rx_pos++] : -1; }
