/* Wire.h (fake) - see Arduino.h (fake). endTransmission returns fake_wire_code; requestFrom
 * delivers min(asked, fake_wire_avail) bytes of fake_wire_data; getWireTimeoutFlag returns
 * fake_wire_timeout. */
#ifndef FAKE_WIRE_H
#define FAKE_WIRE_H
#include "Arduino.h"
#define BUFFER_LENGTH 32
class TwoWire {
public:
    void begin();
    void setClock(uint32_t hz);
    void setWireTimeout(uint32_t us, bool reset);
    bool getWireTimeoutFlag();
    void clearWireTimeoutFlag();
    void beginTransmission(uint8_t addr);
    size_t write(const uint8_t *d, size_t n);
    uint8_t endTransmission(uint8_t stop);
    uint8_t requestFrom(uint8_t addr, uint8_t n, uint8_t stop);
    int available();
    int read();
};
extern TwoWire Wire;
extern uint8_t fake_wire_code, fake_wire_avail, fake_wire_data[32];
extern bool fake_wire_timeout;
#endif
