/* accel_linux_base.c - Linux port: what the bus files share (see accel_linux_base.h). */
#define _GNU_SOURCE
#include "accel_linux_base.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

accel_status accel_linux_errno_status(int err)
{
    switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO: return ACCEL_E_NO_DEVICE;
    case EACCES:
    case EPERM: return ACCEL_E_ACCESS;
    case ETIMEDOUT: return ACCEL_E_TIMEOUT;
    case EBUSY: return ACCEL_E_BUSY;
    case EINVAL: return ACCEL_E_ARG;
    default: return ACCEL_E_IO;
    }
}

accel_status accel_linux_fail(accel_linux *lx, int err)
{
    lx->last_errno = err;
    return accel_linux_errno_status(err);
}

accel_status accel_linux_open_node(accel_linux *lx, const char *path, int *fd_slot)
{
    int fd;
    if (!lx || !path || !fd_slot) return ACCEL_E_NULL;
    if (*fd_slot >= 0) return ACCEL_E_BUSY; /* close the current node first */
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return accel_linux_fail(lx, errno);
    *fd_slot = fd;
    return ACCEL_OK;
}

accel_status accel_linux_open_node_locked(accel_linux *lx, const char *path, int *fd_slot)
{
    accel_status st = accel_linux_open_node(lx, path, fd_slot);
    int r;
    if (st != ACCEL_OK) return st;
    /* one host session per device: the protocol cannot share one (another session's
       CLEAR_ERROR or REBOOT changes what this session's outcomes mean). The lock is advisory:
       every accel program takes it; it ends with the descriptor, also when a program dies */
    do r = flock(*fd_slot, LOCK_EX | LOCK_NB);
    while (r < 0 && errno == EINTR);
    if (r == 0) return ACCEL_OK;
    r = errno;
    close(*fd_slot);
    *fd_slot = -1;
    /* EWOULDBLOCK: another open file holds the lock (last_errno tells it from other busy) */
    if (r == EWOULDBLOCK) {
        lx->last_errno = r;
        return ACCEL_E_BUSY;
    }
    return accel_linux_fail(lx, r);
}

accel_status accel_linux_init(accel_linux *lx)
{
    unsigned i;
    if (!lx) return ACCEL_E_NULL;
    lx->spi_fd = -1;
    lx->spi_cs = 0;
    lx->spi_held = 0;
    lx->i2c_fd = -1;
    lx->gpio_fd = -1;
    for (i = 0; i < ACCEL_LINUX_MAX_LINES; i++) {
        lx->lines[i].fd = -1;
        lx->lines[i].offset = 0;
        lx->lines[i].is_irq = 0;
    }
    lx->usb_ctx = NULL;
    lx->usb_handle = NULL;
    lx->usb_iface = -1;
    lx->usb_intr_in = 0;
    lx->last_errno = 0;
    lx->last_usb_error = 0;
    return ACCEL_OK;
}

static size_t lx_put_uint(char *buf, size_t cap, size_t pos, unsigned v)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    while (n && pos < cap) buf[pos++] = digits[--n];
    return n ? cap : pos; /* cap signals "did not fit" */
}

accel_status accel_linux_devpath(char *buf, size_t cap, const char *prefix, unsigned a,
                                 int has_b, unsigned b)
{
    size_t pos = 0;
    if (!buf || !prefix) return ACCEL_E_NULL;
    while (*prefix && pos < cap) buf[pos++] = *prefix++;
    if (*prefix) return ACCEL_E_BUFFER_TOO_SMALL;
    pos = lx_put_uint(buf, cap, pos, a);
    if (has_b) {
        if (pos < cap) buf[pos++] = '.';
        pos = lx_put_uint(buf, cap, pos, b);
    }
    if (pos >= cap) return ACCEL_E_BUFFER_TOO_SMALL; /* no room for the NUL */
    buf[pos] = '\0';
    return ACCEL_OK;
}

uint32_t accel_linux_now_ms(void *user)
{
    struct timespec ts;
    (void)user;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0; /* cannot fail on Linux */
    /* Truncation to 32 bits is the documented wrap of accel_port.now_ms. */
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

void accel_linux_delay_ms(void *user, uint32_t ms)
{
    struct timespec req, rem;
    (void)user;
    req.tv_sec = (time_t)(ms / 1000u);
    req.tv_nsec = (long)(ms % 1000u) * 1000000L;
    /* a signal must not cut the delay short: sleep the remainder */
    while (nanosleep(&req, &rem) != 0 && errno == EINTR) req = rem;
}

#else
typedef int accel_linux_base_not_linux_; /* ISO C forbids an empty translation unit */
#endif
