/* accel_linux_i2c.h - I2C through i2c-dev (/dev/i2c-N, one I2C_RDWR ioctl per call).
 *
 * Usage:
 *   accel_linux_i2c_open(&lx, 1);                             // /dev/i2c-1
 *   accel_port_i2c_write_read(&port, 0x48, &reg, 1, buf, 2);  // write reg, repeated start, read
 *
 * A write-then-read is one I2C_RDWR with two messages, so the bus sees START, write, repeated
 * START, read, STOP and no other master can get in between. Each part is at most 65535 bytes
 * (i2c_msg.len is 16 bits; ACCEL_E_TOO_LONG beyond). A NAK usually comes back as EREMOTEIO or
 * ENXIO (ACCEL_E_IO / ACCEL_E_NO_DEVICE), depending on the adapter driver.
 * Opening takes an exclusive flock on the node, held until close (one session drives a device
 * at a time, and i2c-dev has one node per bus, so the lock covers the bus): ACCEL_E_BUSY with
 * lx->last_errno EWOULDBLOCK when another process has it open. */
#ifndef ACCEL_LINUX_I2C_H
#define ACCEL_LINUX_I2C_H
#include "accel_linux_base.h"

#ifdef __cplusplus
extern "C" {
#endif

accel_status accel_linux_i2c_open(accel_linux *lx, unsigned bus);
accel_status accel_linux_i2c_open_path(accel_linux *lx, const char *path);
/* The port callback (user = accel_linux *), for ports that mix buses from several places. */
accel_status accel_linux_i2c_write_read(void *user, uint16_t addr, const uint8_t *w,
                                        size_t wlen, uint8_t *r, size_t rlen);
void accel_linux_i2c_close(accel_linux *lx);

#ifdef __cplusplus
}
#endif
#endif
