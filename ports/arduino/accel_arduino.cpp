/* accel_arduino.cpp - the Arduino port (see accel_arduino.h for usage). */
#include "accel_arduino.h"
#include <SPI.h>

/* Edge flags set by the pin interrupts: one bit per irq line. An interrupt handler takes no
 * argument, hence one small handler per line and this file-level byte. */
static volatile uint8_t accel__ard_edges;
static void accel__ard_isr0() { accel__ard_edges |= 1u; }
static void accel__ard_isr1() { accel__ard_edges |= 2u; }
static void accel__ard_isr2() { accel__ard_edges |= 4u; }
static void accel__ard_isr3() { accel__ard_edges |= 8u; }
static void (*accel__ard_isr(unsigned line))()
{
    switch (line) { /* a switch, not a table: a table of pointers would sit in RAM on AVR */
    case 0: return accel__ard_isr0;
    case 1: return accel__ard_isr1;
    case 2: return accel__ard_isr2;
    default: return accel__ard_isr3;
    }
}

static int accel__ard_has(const uint8_t *pins, unsigned line)
{
    return line < ACCEL_ARDUINO_LINES && pins[line] != ACCEL_ARDUINO_NO_PIN;
}

/* End the transaction a KEEP_CS transfer left open (also after an error: the device must not
 * be left mid-transaction). */
static void accel__ard_release(accel_arduino *a)
{
    if (a->held_cs != ACCEL_ARDUINO_NO_PIN) {
        digitalWrite(a->cfg.cs_pin[a->held_cs], HIGH);
        a->held_cs = ACCEL_ARDUINO_NO_PIN;
    }
}

static accel_status accel__ard_spi(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                   size_t len, unsigned flags)
{
    accel_arduino *a = (accel_arduino *)user;
    uint8_t pin;
    size_t i;
    if (len == 0) {
        /* the end of a KEEP_CS transaction: chip select high, nothing clocked; none held on
           this line: nothing to do */
        if (flags) return ACCEL_E_ZERO_LENGTH;
        if (!accel__ard_has(a->cfg.cs_pin, cs)) return ACCEL_E_ARG;
        if (a->held_cs == cs) accel__ard_release(a);
        return ACCEL_OK;
    }
    if (!accel__ard_has(a->cfg.cs_pin, cs) || (a->held_cs != ACCEL_ARDUINO_NO_PIN && a->held_cs != cs)) {
        accel__ard_release(a);
        return ACCEL_E_ARG;
    }
    if (len > a->cfg.max_transfer) {
        accel__ard_release(a);
        return ACCEL_E_TOO_LONG;
    }
    pin = a->cfg.cs_pin[cs];
    SPI.beginTransaction(SPISettings(a->cfg.spi_hz, MSBFIRST, SPI_MODE0));
    digitalWrite(pin, LOW);
    for (i = 0; i < len; i++) {
        uint8_t b = SPI.transfer(tx ? tx[i] : (uint8_t)0);
        if (rx) rx[i] = b;
    }
    if (flags & ACCEL_SPI_KEEP_CS) {
        a->held_cs = cs;
    } else {
        digitalWrite(pin, HIGH);
        a->held_cs = ACCEL_ARDUINO_NO_PIN;
    }
    SPI.endTransaction();
    return ACCEL_OK;
}

/* Wire's codes (twi_writeTo): 1 too long, 2 address NACK, 3 data NACK, 4 other, 5 timeout. */
accel_status accel_arduino_wire_status(accel_arduino *a, uint8_t code)
{
    if (a) a->wire_error = code;
    switch (code) {
    case 0: return ACCEL_OK;
    case 1: return ACCEL_E_TOO_LONG;
    case 2: return ACCEL_E_NO_DEVICE;
    case 3: return ACCEL_E_STALL;
    case 5: return ACCEL_E_TIMEOUT;
    default: return ACCEL_E_IO;
    }
}

static accel_status accel__ard_gpio(void *user, unsigned line, unsigned level)
{
    accel_arduino *a = (accel_arduino *)user;
    if (!accel__ard_has(a->cfg.gpio_pin, line)) return ACCEL_E_ARG;
    digitalWrite(a->cfg.gpio_pin[line], level ? HIGH : LOW);
    return ACCEL_OK;
}

static int accel__ard_asserted(const accel_arduino *a, unsigned line)
{
    unsigned high = digitalRead(a->cfg.irq_pin[line]) == HIGH ? 1u : 0u;
    return high == (((unsigned)a->cfg.irq_high >> line) & 1u);
}

/* Level first (returns at once while asserted); then an edge the interrupt saw during this
 * call, which catches a pulse shorter than the poll. */
static int accel__ard_take_edge(unsigned line)
{
    uint8_t bit = (uint8_t)(1u << line), seen;
    noInterrupts();
    seen = accel__ard_edges & bit;
    accel__ard_edges &= (uint8_t)~bit;
    interrupts();
    return seen != 0;
}

static accel_status accel__ard_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_arduino *a = (accel_arduino *)user;
    uint32_t start = (uint32_t)millis();
    if (!accel__ard_has(a->cfg.irq_pin, line)) return ACCEL_E_ARG;
    /* An edge latched before this call is stale: the interrupt it marked was served without a
       wait (the driver read the device while the line was asserted) or by an earlier wait's
       level. One still pending shows as the level. */
    accel__ard_take_edge(line);
    for (;;) {
        if (accel__ard_asserted(a, line)) {
            accel__ard_take_edge(line); /* the level covers it */
            return ACCEL_OK;
        }
        if (accel__ard_take_edge(line)) return ACCEL_OK;
        if ((uint32_t)millis() - start >= timeout_ms) return ACCEL_E_TIMEOUT;
    }
}

static uint32_t accel__ard_now(void *user)
{
    (void)user;
    return (uint32_t)millis();
}

static void accel__ard_delay(void *user, uint32_t ms)
{
    (void)user;
    delay(ms);
}

void accel_arduino_config_init(accel_arduino_config *cfg)
{
    unsigned i;
    if (!cfg) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->spi_hz = 4000000UL;
    cfg->max_transfer = 512;
    for (i = 0; i < ACCEL_ARDUINO_LINES; i++)
        cfg->cs_pin[i] = cfg->gpio_pin[i] = cfg->irq_pin[i] = ACCEL_ARDUINO_NO_PIN;
}

/* Every pin at most once across the three tables; flag bits only on lines with a pin. */
static accel_status accel__ard_check(const accel_arduino_config *c)
{
    const uint8_t *tables[3] = {c->cs_pin, c->gpio_pin, c->irq_pin};
    unsigned t, i, u, j;
    for (i = 0; i < ACCEL_ARDUINO_LINES; i++) {
        uint8_t bit = (uint8_t)(1u << i);
        if ((c->gpio_high & bit) && c->gpio_pin[i] == ACCEL_ARDUINO_NO_PIN) return ACCEL_E_ARG;
        if (((c->irq_high | c->irq_pullup) & bit) && c->irq_pin[i] == ACCEL_ARDUINO_NO_PIN)
            return ACCEL_E_ARG;
    }
    if ((c->gpio_high | c->irq_high | c->irq_pullup) >> ACCEL_ARDUINO_LINES) return ACCEL_E_ARG;
    for (t = 0; t < 3; t++)
        for (i = 0; i < ACCEL_ARDUINO_LINES; i++) {
            uint8_t p = tables[t][i];
            if (p == ACCEL_ARDUINO_NO_PIN) continue;
            for (u = t; u < 3; u++)
                for (j = (u == t ? i + 1 : 0); j < ACCEL_ARDUINO_LINES; j++)
                    if (tables[u][j] == p) return ACCEL_E_ARG;
        }
    return ACCEL_OK;
}

accel_status accel_arduino_init(accel_arduino *a, const accel_arduino_config *cfg,
                                accel_port *port)
{
    unsigned i;
    accel_status st;
    if (!a || !cfg || !port) return ACCEL_E_NULL;
    st = accel__ard_check(cfg);
    if (st != ACCEL_OK) return st;
    memset(a, 0, sizeof *a);
    a->cfg = *cfg;
    a->held_cs = ACCEL_ARDUINO_NO_PIN;
    for (i = 0; i < ACCEL_ARDUINO_LINES; i++) {
        uint8_t bit = (uint8_t)(1u << i);
        if (cfg->cs_pin[i] != ACCEL_ARDUINO_NO_PIN) { /* high before output: no glitch low */
            digitalWrite(cfg->cs_pin[i], HIGH);
            pinMode(cfg->cs_pin[i], OUTPUT);
        }
        if (cfg->gpio_pin[i] != ACCEL_ARDUINO_NO_PIN) {
            digitalWrite(cfg->gpio_pin[i], (cfg->gpio_high & bit) ? HIGH : LOW);
            pinMode(cfg->gpio_pin[i], OUTPUT);
        }
        if (cfg->irq_pin[i] != ACCEL_ARDUINO_NO_PIN) {
            int irq = digitalPinToInterrupt(cfg->irq_pin[i]);
            pinMode(cfg->irq_pin[i], (cfg->irq_pullup & bit) ? INPUT_PULLUP : INPUT);
            if (!cfg->poll_only && irq != NOT_AN_INTERRUPT) {
                attachInterrupt((uint8_t)irq, accel__ard_isr(i), (cfg->irq_high & bit) ? RISING : FALLING);
                a->attached |= bit;
            }
        }
    }
    SPI.begin();
    memset(port, 0, sizeof *port);
    port->user = a;
    port->spi_transfer = accel__ard_spi;
    port->gpio_set = accel__ard_gpio;
    port->wait_irq = accel__ard_wait_irq;
    port->now_ms = accel__ard_now;
    port->delay_ms = accel__ard_delay;
    return ACCEL_OK;
}

void accel_arduino_end(accel_arduino *a)
{
    unsigned i;
    if (!a) return;
    accel__ard_release(a);
    for (i = 0; i < ACCEL_ARDUINO_LINES; i++)
        if (a->attached & (1u << i)) {
            int irq = digitalPinToInterrupt(a->cfg.irq_pin[i]);
            detachInterrupt((uint8_t)irq);
        }
    a->attached = 0;
}

/* ------------------------------------------------------------------ status names in flash */
#define ACCEL__ARD_NAME(code) \
    case code: return F(#code)

const __FlashStringHelper *accel_arduino_status_name(accel_status st)
{
    switch ((int)st) {
    ACCEL__ARD_NAME(ACCEL_OK);
    ACCEL__ARD_NAME(ACCEL_E_NULL);
    ACCEL__ARD_NAME(ACCEL_E_ZERO_LENGTH);
    ACCEL__ARD_NAME(ACCEL_E_TOO_LONG);
    ACCEL__ARD_NAME(ACCEL_E_BUFFER_TOO_SMALL);
    ACCEL__ARD_NAME(ACCEL_E_TRUNCATED);
    ACCEL__ARD_NAME(ACCEL_E_FULL);
    ACCEL__ARD_NAME(ACCEL_E_EMPTY);
    ACCEL__ARD_NAME(ACCEL_E_CLOSED);
    ACCEL__ARD_NAME(ACCEL_E_TIMEOUT);
    ACCEL__ARD_NAME(ACCEL_E_UNSUPPORTED);
    ACCEL__ARD_NAME(ACCEL_E_IO);
    ACCEL__ARD_NAME(ACCEL_E_ARG);
    ACCEL__ARD_NAME(ACCEL_E_BUSY);
    ACCEL__ARD_NAME(ACCEL_E_STATE);
    ACCEL__ARD_NAME(ACCEL_E_CRC);
    ACCEL__ARD_NAME(ACCEL_E_MALFORMED);
    ACCEL__ARD_NAME(ACCEL_E_NO_DEVICE);
    ACCEL__ARD_NAME(ACCEL_E_ACCESS);
    ACCEL__ARD_NAME(ACCEL_E_OVERFLOW);
    ACCEL__ARD_NAME(ACCEL_E_STALL);
    ACCEL__ARD_NAME(ACCEL_E_ALIGN);
    ACCEL__ARD_NAME(ACCEL_E_FAULT);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_ARG);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_BUSY);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_LEN);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_MEM);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_CRYPT);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_CHECKSUM);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERR_FRAMING);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_DISCARDED);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_UNKNOWN_OUTCOME);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_RESPONSE_LOST);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ERROR_STATE);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_MASK);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_ASLEEP);
    ACCEL__ARD_NAME(ACCEL_E_TSP1_UNEXPECTED);
    ACCEL__ARD_NAME(ACCEL_E_MAC_DTYPE);
    ACCEL__ARD_NAME(ACCEL_E_MAC_ROUNDING);
    ACCEL__ARD_NAME(ACCEL_E_MAC_SHIFT);
    ACCEL__ARD_NAME(ACCEL_E_MAC_MULTIPLIER);
    ACCEL__ARD_NAME(ACCEL_E_MAC_OFFSET);
    ACCEL__ARD_NAME(ACCEL_E_MAC_ACTIVATION);
    ACCEL__ARD_NAME(ACCEL_E_MAC_CHANNELS);
    ACCEL__ARD_NAME(ACCEL_E_MAC_SHAPE);
    ACCEL__ARD_NAME(ACCEL_E_MAC_STRIDE);
    ACCEL__ARD_NAME(ACCEL_E_MAC_GROUPS);
    ACCEL__ARD_NAME(ACCEL_E_MAC_EMPTY_WINDOW);
    ACCEL__ARD_NAME(ACCEL_E_MAC_DEPTH);
#ifndef ACCEL_NO_TFLITE
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_VERSION);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_SUBGRAPH);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_TENSOR_INDEX);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_SHAPE);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_TYPE);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_BUFFER);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_QUANT);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_OPCODE);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_OPTIONS);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_GRAPH);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_ARITY);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_ARENA);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_UNSUPPORTED);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_RANGE);
    ACCEL__ARD_NAME(ACCEL_E_TFLITE_CUSTOM);
#endif
    default: return NULL;
    }
}

size_t accel_arduino_print_status(Print &out, accel_status st)
{
    const __FlashStringHelper *name = accel_arduino_status_name(st);
    if (name) return out.print(name);
    return out.print(F("status ")) + out.print((int)st);
}
