/* bridge_fw.c - a minimal bridge firmware for an ATmega328P without the Arduino core: UART0 in
 * and out, the bridge's device side, and an accel_port on the chip's own SPI (chip select on
 * PB2), GPIO on PORTD and Timer0 milliseconds. tests/bridge_avr.sh links it to report what the
 * device side costs in flash and RAM; the Arduino sketch (examples/arduino/Bridge) uses the
 * Arduino port instead. I2C is left out (a TWI driver is the port's business). */
#include "accel_bridge_device.h"
#include <avr/interrupt.h>
#include <avr/io.h>

static volatile uint32_t ms;

ISR(TIMER0_COMPA_vect) { ms++; }

static uint32_t fw_now(void *u)
{
    uint32_t v;
    uint8_t s = SREG;
    (void)u;
    cli();
    v = ms;
    SREG = s;
    return v;
}

static accel_status fw_spi(void *u, uint8_t cs, const uint8_t *tx, uint8_t *rx, size_t len,
                           unsigned flags)
{
    size_t i;
    (void)u;
    if (cs != 0) return ACCEL_E_ARG;
    if (len == 0) { /* the end of a held transaction (or nothing): chip select high */
        if (flags) return ACCEL_E_ZERO_LENGTH;
        PORTB = (uint8_t)(PORTB | (1u << PB2));
        return ACCEL_OK;
    }
    PORTB = (uint8_t)(PORTB & ~(1u << PB2));
    for (i = 0; i < len; i++) {
        SPDR = tx ? tx[i] : 0u;
        while (!(SPSR & (1u << SPIF))) {
        }
        if (rx) rx[i] = SPDR;
    }
    if (!(flags & ACCEL_SPI_KEEP_CS)) PORTB = (uint8_t)(PORTB | (1u << PB2));
    return ACCEL_OK;
}

static accel_status fw_gpio(void *u, unsigned line, unsigned level)
{
    (void)u;
    if (line < 2 || line > 7) return ACCEL_E_ARG; /* PD0/PD1 are the UART */
    if (level) PORTD = (uint8_t)(PORTD | (1u << line));
    else PORTD = (uint8_t)(PORTD & ~(1u << line));
    return ACCEL_OK;
}

static accel_status fw_wait_irq(void *u, unsigned line, uint32_t timeout_ms)
{
    uint32_t t0 = fw_now(u);
    if (line > 7) return ACCEL_E_ARG;
    while (PINC & (1u << line)) { /* active low */
        if (fw_now(u) - t0 >= timeout_ms) return ACCEL_E_TIMEOUT;
    }
    return ACCEL_OK;
}

static void fw_delay(void *u, uint32_t d)
{
    uint32_t t0 = fw_now(u);
    while (fw_now(u) - t0 < d) {
    }
}

static accel_status uart_write(void *u, const uint8_t *d, size_t n)
{
    size_t i;
    (void)u;
    for (i = 0; i < n; i++) {
        while (!(UCSR0A & (1u << UDRE0))) {
        }
        UDR0 = d[i];
    }
    return ACCEL_OK;
}

static accel_port port;
static accel_bridge_device dev;

int main(void)
{
    accel_bridge_device_config c;
    UBRR0 = 16; /* 115200 baud at 16 MHz with U2X0 */
    UCSR0A = (uint8_t)(1u << U2X0);
    UCSR0B = (uint8_t)((1u << RXEN0) | (1u << TXEN0));
    DDRB = (uint8_t)(DDRB | (1u << PB2) | (1u << PB3) | (1u << PB5));
    PORTB = (uint8_t)(PORTB | (1u << PB2));
    SPCR = (uint8_t)((1u << SPE) | (1u << MSTR));
    TCCR0A = (uint8_t)(1u << WGM01);
    TCCR0B = (uint8_t)((1u << CS01) | (1u << CS00));
    OCR0A = 249;
    TIMSK0 = (uint8_t)(1u << OCIE0A);
    sei();
    port.spi_transfer = fw_spi;
    port.gpio_set = fw_gpio;
    port.wait_irq = fw_wait_irq;
    port.now_ms = fw_now;
    port.delay_ms = fw_delay;
    c.port = &port;
    c.write = uart_write;
    c.port_error = 0;
    c.on_execute = 0;
    c.user = 0;
    c.max_data = 0;
    accel_bridge_device_init(&dev, &c);
    for (;;) {
        if (UCSR0A & (1u << RXC0)) {
            uint8_t b = UDR0;
            accel_bridge_device_feed(&dev, &b, 1);
        }
    }
}
