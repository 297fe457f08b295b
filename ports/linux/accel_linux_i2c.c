/* accel_linux_i2c.c - I2C through i2c-dev. Usage: see accel_linux_i2c.h. */
#define _GNU_SOURCE
#include "accel_linux_i2c.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

accel_status accel_linux_i2c_open_path(accel_linux *lx, const char *path)
{
    if (!lx) return ACCEL_E_NULL;
    return accel_linux_open_node_locked(lx, path, &lx->i2c_fd);
}

accel_status accel_linux_i2c_open(accel_linux *lx, unsigned bus)
{
    char path[32];
    accel_status st;
    if (!lx) return ACCEL_E_NULL;
    st = accel_linux_devpath(path, sizeof path, "/dev/i2c-", bus, 0, 0);
    if (st != ACCEL_OK) return st;
    return accel_linux_i2c_open_path(lx, path);
}

accel_status accel_linux_i2c_write_read(void *user, uint16_t addr, const uint8_t *w,
                                        size_t wlen, uint8_t *r, size_t rlen)
{
    accel_linux *lx = (accel_linux *)user;
    struct i2c_msg msgs[2];
    struct i2c_rdwr_ioctl_data data;
    unsigned n = 0;
    int rc;
    if (!lx) return ACCEL_E_NULL;
    if (lx->i2c_fd < 0) return ACCEL_E_CLOSED;
    if ((!w && wlen) || (!r && rlen)) return ACCEL_E_NULL;
    if (wlen == 0 && rlen == 0) return ACCEL_E_ZERO_LENGTH;
    if (addr > 0x7Fu) return ACCEL_E_ARG;
    if (wlen > 0xFFFFu || rlen > 0xFFFFu) return ACCEL_E_TOO_LONG;
    if (wlen) {
        msgs[n].addr = addr;
        msgs[n].flags = 0;
        msgs[n].len = (uint16_t)wlen;
        msgs[n].buf = (uint8_t *)(uintptr_t)w; /* the kernel only reads a write message */
        n++;
    }
    if (rlen) {
        msgs[n].addr = addr;
        msgs[n].flags = I2C_M_RD;
        msgs[n].len = (uint16_t)rlen;
        msgs[n].buf = r;
        n++;
    }
    data.msgs = msgs;
    data.nmsgs = n;
    do rc = ioctl(lx->i2c_fd, I2C_RDWR, &data);
    while (rc < 0 && errno == EINTR);
    if (rc < 0) return accel_linux_fail(lx, errno);
    if ((unsigned)rc != n) return accel_linux_fail(lx, EIO); /* a message was not done */
    return ACCEL_OK;
}

void accel_linux_i2c_close(accel_linux *lx)
{
    if (!lx || lx->i2c_fd < 0) return;
    close(lx->i2c_fd);
    lx->i2c_fd = -1;
}

#else
typedef int accel_linux_i2c_not_linux_; /* ISO C forbids an empty translation unit */
#endif
