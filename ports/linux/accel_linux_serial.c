/* accel_linux_serial.c - raw serial line for the bridge (see accel_linux_serial.h). */
#if defined(__linux__)
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* cfmakeraw, the B* constants above 38400 */
#endif
#include "accel_linux_serial.h"
#include "accel_linux_base.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

void accel_linux_serial_init(accel_linux_serial *s)
{
    if (!s) return;
    s->fd = -1;
    s->baud = 0;
    s->last_errno = 0;
}

static speed_t accel__serial_speed(uint32_t baud)
{
    switch (baud) {
    case 1200: return B1200;
    case 2400: return B2400;
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 576000: return B576000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 1152000: return B1152000;
    case 1500000: return B1500000;
    case 2000000: return B2000000;
    case 2500000: return B2500000;
    case 3000000: return B3000000;
    case 3500000: return B3500000;
    case 4000000: return B4000000;
    default: return B0;
    }
}

static accel_status accel__serial_fail(accel_linux_serial *s, int err)
{
    s->last_errno = err;
    return accel_linux_errno_status(err);
}

accel_status accel_linux_serial_open(accel_linux_serial *s, const char *path, uint32_t baud)
{
    struct termios t;
    speed_t sp;
    int fd;
    if (!s || !path) return ACCEL_E_NULL;
    if (s->fd >= 0) return ACCEL_E_BUSY;
    sp = accel__serial_speed(baud);
    if (sp == B0) return ACCEL_E_ARG;
    /* non-blocking: neither open nor a read may hang on modem lines; poll() does the waiting */
    fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return accel__serial_fail(s, errno);
    if (tcgetattr(fd, &t) != 0) {
        int e = errno;
        close(fd);
        return accel__serial_fail(s, e); /* ENOTTY: not a serial line */
    }
    cfmakeraw(&t);
    t.c_cflag |= (tcflag_t)(CLOCAL | CREAD);
    /* no HUPCL: closing keeps DTR up, so a board that resets on DTR (an Arduino) resets on the
       first open only, not on every tool run */
    t.c_cflag &= (tcflag_t) ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS | HUPCL);
    t.c_iflag &= (tcflag_t) ~(tcflag_t)(IXON | IXOFF | IXANY);
    /* VMIN 1 with O_NONBLOCK: an empty line reads as EAGAIN (VMIN 0 would read as 0 bytes,
       which is what a hang-up looks like) */
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (cfsetispeed(&t, sp) != 0 || cfsetospeed(&t, sp) != 0 || tcsetattr(fd, TCSANOW, &t) != 0) {
        int e = errno;
        close(fd);
        return accel__serial_fail(s, e);
    }
    (void)tcflush(fd, TCIOFLUSH); /* bytes from before this session */
    s->fd = fd;
    s->baud = baud;
    return ACCEL_OK;
}

void accel_linux_serial_close(accel_linux_serial *s)
{
    if (!s || s->fd < 0) return;
    close(s->fd);
    s->fd = -1;
}

accel_status accel_linux_serial_parse(const char *spec, char *path, size_t cap, uint32_t *baud)
{
    size_t n = 0, i;
    const char *comma;
    if (!spec || !path || !baud) return ACCEL_E_NULL;
    comma = spec;
    while (*comma && *comma != ',') comma++;
    n = (size_t)(comma - spec);
    if (n == 0) return ACCEL_E_ARG;
    if (n >= cap) return ACCEL_E_BUFFER_TOO_SMALL;
    for (i = 0; i < n; i++) path[i] = spec[i];
    path[n] = '\0';
    *baud = ACCEL_LINUX_SERIAL_BAUD;
    if (*comma == ',') {
        uint32_t v = 0;
        const char *p = comma + 1;
        if (*p == '\0') return ACCEL_E_ARG;
        for (; *p; p++) {
            uint32_t d = (uint32_t)(*p - '0');
            if (*p < '0' || *p > '9' || v > (0xFFFFFFFFu - d) / 10u) return ACCEL_E_ARG;
            v = v * 10u + d;
        }
        if (v == 0) return ACCEL_E_ARG;
        *baud = v;
    }
    return ACCEL_OK;
}

/* poll one fd for events up to ms: 1 ready, 0 timed out, -1 error (errno) */
static int accel__serial_poll(int fd, short events, uint32_t ms)
{
    struct pollfd p;
    uint32_t t0 = accel_linux_now_ms(NULL);
    for (;;) {
        uint32_t spent = accel_linux_now_ms(NULL) - t0;
        int left = spent >= ms ? 0 : (int)((ms - spent) > 0x7FFFFFFFu ? 0x7FFFFFFF : ms - spent);
        int r;
        p.fd = fd;
        p.events = events;
        p.revents = 0;
        r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return 0;
        if (p.revents & (POLLERR | POLLNVAL)) {
            errno = EIO;
            return -1;
        }
        return 1; /* readable, writable, or hung up (read then says so) */
    }
}

accel_status accel_linux_serial_write(void *user, const uint8_t *data, size_t n)
{
    accel_linux_serial *s = (accel_linux_serial *)user;
    size_t done = 0;
    if (!s || (!data && n)) return ACCEL_E_NULL;
    if (s->fd < 0) return ACCEL_E_CLOSED;
    while (done < n) {
        ssize_t w = write(s->fd, data + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* the line's buffer is full: it drains at the baud rate; 1 s without progress is
               a dead line */
            int r = accel__serial_poll(s->fd, POLLOUT, 1000);
            if (r > 0) continue;
            return accel__serial_fail(s, r == 0 ? ETIMEDOUT : errno);
        }
        return accel__serial_fail(s, w < 0 ? errno : EIO);
    }
    return ACCEL_OK;
}

accel_status accel_linux_serial_read(void *user, uint8_t *buf, size_t cap, size_t *got,
                                     uint32_t timeout_ms)
{
    accel_linux_serial *s = (accel_linux_serial *)user;
    if (got) *got = 0;
    if (!s || !buf || !got) return ACCEL_E_NULL;
    if (s->fd < 0) return ACCEL_E_CLOSED;
    if (cap == 0) return ACCEL_E_ZERO_LENGTH;
    for (;;) {
        ssize_t r = read(s->fd, buf, cap);
        int p;
        if (r > 0) {
            *got = (size_t)r;
            return ACCEL_OK;
        }
        if (r == 0) return accel__serial_fail(s, EIO); /* hung up: the device went away */
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return accel__serial_fail(s, errno);
        p = accel__serial_poll(s->fd, POLLIN, timeout_ms);
        if (p == 0) return ACCEL_E_TIMEOUT;
        if (p < 0) return accel__serial_fail(s, errno);
        timeout_ms = 0; /* readable now (or hung up): the next read says which */
    }
}
#else
typedef int accel_linux_serial_unused; /* ISO C forbids an empty translation unit */
#endif
