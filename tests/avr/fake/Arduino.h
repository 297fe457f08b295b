/* Arduino.h (fake) - the slice of the Arduino core API that ports/arduino uses, for host unit
 * tests (tests/arduino_port.sh). Every call is logged into fake_log as a short token so a test
 * can check the exact sequence of pin, SPI and Wire operations. Not an Arduino core. */
#ifndef FAKE_ARDUINO_H
#define FAKE_ARDUINO_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HIGH 0x1
#define LOW 0x0
#define INPUT 0x0
#define OUTPUT 0x1
#define INPUT_PULLUP 0x2
#define CHANGE 1
#define FALLING 2
#define RISING 3
#define MSBFIRST 1
#define NOT_AN_INTERRUPT -1
/* as on an Uno: external interrupts on pins 2 and 3 only */
#define digitalPinToInterrupt(p) ((p) == 2 ? 0 : ((p) == 3 ? 1 : NOT_AN_INTERRUPT))
#define ARDUINO_ARCH_AVR 1

void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t val);
int digitalRead(uint8_t pin);
unsigned long millis(void);
void delay(unsigned long ms);
void attachInterrupt(uint8_t irq, void (*fn)(void), int mode);
void detachInterrupt(uint8_t irq);
void noInterrupts(void);
void interrupts(void);

class __FlashStringHelper;
#define F(s) (reinterpret_cast<const __FlashStringHelper *>(s))

class Print {
public:
    char text[256];
    size_t len;
    Print() : len(0) { text[0] = 0; }
    size_t print(const char *s);
    size_t print(const __FlashStringHelper *s) { return print(reinterpret_cast<const char *>(s)); }
    size_t print(int v);
};

/* test side */
extern char fake_log[4096];
extern int fake_pin_in[80];            /* what digitalRead returns */
extern unsigned long fake_ms, fake_ms_step; /* millis() returns fake_ms, then adds the step */
extern void (*fake_isr[2])(void);      /* attached handlers, by interrupt number */
extern void (*fake_millis_hook)(unsigned long now); /* called by millis(): events during a wait */
void fake_reset(void);
void fake_logf(const char *fmt, ...);
#endif
