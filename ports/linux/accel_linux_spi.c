/* accel_linux_spi.c - SPI through spidev. Usage: see accel_linux_spi.h. */
#define _GNU_SOURCE
#include "accel_linux_spi.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/spi/spidev.h>

static int spi_ioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do r = ioctl(fd, req, arg);
    while (r < 0 && errno == EINTR);
    return r;
}

accel_status accel_linux_spi_open_path(accel_linux *lx, const char *path, uint8_t cs,
                                       uint8_t mode, uint32_t speed_hz, uint8_t bits)
{
    int err;
    accel_status st;
    if (!lx) return ACCEL_E_NULL;
    st = accel_linux_open_node_locked(lx, path, &lx->spi_fd);
    if (st != ACCEL_OK) return st;
    if (speed_hz) {
        if (spi_ioctl(lx->spi_fd, SPI_IOC_WR_MODE, &mode) < 0 ||
            spi_ioctl(lx->spi_fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0 ||
            spi_ioctl(lx->spi_fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) < 0) {
            err = errno;
            close(lx->spi_fd);
            lx->spi_fd = -1;
            return accel_linux_fail(lx, err);
        }
    }
    lx->spi_cs = cs;
    return ACCEL_OK;
}

accel_status accel_linux_spi_open(accel_linux *lx, unsigned bus, unsigned cs, uint8_t mode,
                                  uint32_t speed_hz, uint8_t bits)
{
    char path[40];
    accel_status st;
    if (!lx) return ACCEL_E_NULL;
    if (cs > 0xFFu) return ACCEL_E_ARG;
    st = accel_linux_devpath(path, sizeof path, "/dev/spidev", bus, 1, cs);
    if (st != ACCEL_OK) return st;
    return accel_linux_spi_open_path(lx, path, (uint8_t)cs, mode, speed_hz, bits);
}

accel_status accel_linux_spi_transfer(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                      size_t len, unsigned flags)
{
    accel_linux *lx = (accel_linux *)user;
    struct spi_ioc_transfer t;
    size_t off = 0;
    if (!lx) return ACCEL_E_NULL;
    if (lx->spi_fd < 0) return ACCEL_E_CLOSED;
    if (cs != lx->spi_cs) return ACCEL_E_ARG;
    if (len == 0) {
        /* end the held transaction: one empty transfer without cs_change, after which the
           SPI core deasserts chip select; nothing held, nothing to do */
        if (flags) return ACCEL_E_ZERO_LENGTH;
        if (!lx->spi_held) return ACCEL_OK;
        lx->spi_held = 0;
        memset(&t, 0, sizeof t);
        if (spi_ioctl(lx->spi_fd, SPI_IOC_MESSAGE(1), &t) < 0) return accel_linux_fail(lx, errno);
        return ACCEL_OK;
    }
    lx->spi_held = 0; /* a failed message ends with chip select deasserted */
    while (off < len) {
        size_t n = len - off;
        int last;
        if (n > ACCEL_LINUX_SPI_CHUNK) n = ACCEL_LINUX_SPI_CHUNK;
        last = (off + n == len);
        memset(&t, 0, sizeof t); /* speed_hz/bits_per_word 0: the node's settings */
        t.tx_buf = tx ? (uint64_t)(uintptr_t)(tx + off) : 0u; /* 0: spidev clocks out zeros */
        t.rx_buf = rx ? (uint64_t)(uintptr_t)(rx + off) : 0u;
        t.len = (uint32_t)n;
        /* cs_change on a message's last transfer keeps chip select asserted afterwards:
         * wanted between chunks, and at the end only when the caller asked for it. */
        t.cs_change = (uint8_t)((!last || (flags & ACCEL_SPI_KEEP_CS)) ? 1 : 0);
        if (spi_ioctl(lx->spi_fd, SPI_IOC_MESSAGE(1), &t) < 0) return accel_linux_fail(lx, errno);
        off += n;
    }
    lx->spi_held = (uint8_t)((flags & ACCEL_SPI_KEEP_CS) ? 1 : 0);
    return ACCEL_OK;
}

void accel_linux_spi_close(accel_linux *lx)
{
    if (!lx || lx->spi_fd < 0) return;
    close(lx->spi_fd);
    lx->spi_fd = -1;
    lx->spi_held = 0;
}

#else
typedef int accel_linux_spi_not_linux_; /* ISO C forbids an empty translation unit */
#endif
