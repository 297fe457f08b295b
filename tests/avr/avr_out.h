/* avr_out.h - text output for the test programs that run on an AVR under simavr and on the
 * host (tests/avr/mac_avr_test.c, bridge_avr_test.c): the USART0 data register on the AVR
 * (simavr prints what it receives), putchar on the host. No stdio on the AVR, no buffering. */
#ifndef AVR_OUT_H
#define AVR_OUT_H
#include <stdint.h>
#ifdef __AVR__
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
static inline void out_char(char c)
{
    while (!(UCSR0A & (1u << UDRE0))) {
    }
    UDR0 = (uint8_t)c;
}
#else
#include <stdio.h>
static inline void out_char(char c) { putchar(c); }
#endif

static inline void out_str(const char *s)
{
    while (*s) out_char(*s++);
}

static inline void out_hex(uint32_t v)
{
    int i;
    for (i = 28; i >= 0; i -= 4) out_char("0123456789abcdef"[(v >> i) & 0xFu]);
}

static inline void out_dec(uint32_t v)
{
    char b[11];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n) out_char(b[--n]);
}

/* The result line every test program ends with, "N passed, N failed"; on the AVR the program
 * then waits for the last byte to leave the USART and sleeps with interrupts off, which ends
 * the simavr run. Returns the exit code for the host. */
static inline int out_end(unsigned passed, unsigned failed)
{
    out_dec(passed);
    out_str(" passed, ");
    out_dec(failed);
    out_str(" failed\n");
#ifdef __AVR__
    while (!(UCSR0A & (1u << TXC0))) {
    }
    cli();
    sleep_enable();
    sleep_cpu();
#endif
    return failed != 0;
}

#ifdef AVR_OUT_CHECK
/* CHECK(c): one check, counted; a failed one prints its line ("FAIL line N") */
static unsigned passed, failed;
static void check(int line, int ok)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        out_str("FAIL line ");
        out_dec((uint32_t)line);
        out_char('\n');
    }
}
#define CHECK(c) check(__LINE__, (c))
#endif
#endif
