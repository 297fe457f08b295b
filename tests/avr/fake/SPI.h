/* SPI.h (fake) - see Arduino.h (fake). transfer(b) answers ~b. */
#ifndef FAKE_SPI_H
#define FAKE_SPI_H
#include "Arduino.h"
#define SPI_MODE0 0x00
class SPISettings {
public:
    SPISettings(uint32_t c, uint8_t o, uint8_t m) : clock(c), order(o), mode(m) {}
    uint32_t clock;
    uint8_t order, mode;
};
class SPIClass {
public:
    static void begin();
    static void beginTransaction(SPISettings s);
    static uint8_t transfer(uint8_t b);
    static void endTransaction();
};
extern SPIClass SPI;
#endif
