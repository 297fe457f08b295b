/* accel_linux_spi.h - SPI through spidev (/dev/spidevB.C, SPI_IOC_MESSAGE).
 *
 * Usage:
 *   accel_linux_spi_open(&lx, 0, 1, 3, 2000000, 8);   // /dev/spidev0.1, SPI mode 3, 2 MHz
 *   accel_port_spi_transfer(&port, 1, tx, rx, n, 0);   // cs must be 1 (the node's CS)
 *
 * A spidev node drives exactly one chip select, so the port's `cs` argument must equal the C
 * of the opened node (ACCEL_E_ARG otherwise); open_path() takes it explicitly. A transfer
 * longer than ACCEL_LINUX_SPI_CHUNK is sent as several messages with chip select held between
 * them. ACCEL_SPI_KEEP_CS sets cs_change on the last transfer, which spidev treats as a hint:
 * chip select stays asserted until the next message unless another device uses the bus.
 * A transfer of length 0 (flags 0) after it ends the transaction: an empty message without
 * cs_change, after which the SPI core deasserts chip select (nothing is clocked).
 * Opening takes an exclusive flock on the node, held until close (one session drives a device
 * at a time): ACCEL_E_BUSY with lx->last_errno EWOULDBLOCK when another process has it open. */
#ifndef ACCEL_LINUX_SPI_H
#define ACCEL_LINUX_SPI_H
#include "accel_linux_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACCEL_LINUX_SPI_CHUNK
#define ACCEL_LINUX_SPI_CHUNK 4096u /* spidev's default bufsiz limit per message */
#endif

/* Open /dev/spidev<bus>.<cs> and set mode (SPI_MODE_0..3 plus SPI_* flag bits), speed and
 * bits per word. speed_hz 0 keeps the node's current settings (no configuration ioctls). */
accel_status accel_linux_spi_open(accel_linux *lx, unsigned bus, unsigned cs, uint8_t mode,
                                  uint32_t speed_hz, uint8_t bits);
accel_status accel_linux_spi_open_path(accel_linux *lx, const char *path, uint8_t cs,
                                       uint8_t mode, uint32_t speed_hz, uint8_t bits);
/* The port callback (user = accel_linux *), for ports that mix buses from several places. */
accel_status accel_linux_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                      size_t len, unsigned flags);
void accel_linux_spi_close(accel_linux *lx);

#ifdef __cplusplus
}
#endif
#endif
