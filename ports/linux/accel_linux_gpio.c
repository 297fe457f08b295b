/* accel_linux_gpio.c - GPIO character device v2. Usage: see accel_linux_gpio.h. */
#define _GNU_SOURCE
#include "accel_linux_gpio.h"

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/gpio.h>

static int gpio_ioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do r = ioctl(fd, req, arg);
    while (r < 0 && errno == EINTR);
    return r;
}

accel_status accel_linux_gpio_open_path(accel_linux *lx, const char *path)
{
    if (!lx) return ACCEL_E_NULL;
    return accel_linux_open_node(lx, path, &lx->gpio_fd);
}

accel_status accel_linux_gpio_open(accel_linux *lx, unsigned chip)
{
    char path[32];
    accel_status st;
    if (!lx) return ACCEL_E_NULL;
    st = accel_linux_devpath(path, sizeof path, "/dev/gpiochip", chip, 0, 0);
    if (st != ACCEL_OK) return st;
    return accel_linux_gpio_open_path(lx, path);
}

static accel_status gpio_request(accel_linux *lx, unsigned line, uint32_t offset, uint64_t flags,
                                 int is_irq, unsigned initial)
{
    struct gpio_v2_line_request req;
    if (!lx) return ACCEL_E_NULL;
    if (line >= ACCEL_LINUX_MAX_LINES || initial > 1u) return ACCEL_E_ARG;
    if (lx->gpio_fd < 0) return ACCEL_E_CLOSED;
    if (lx->lines[line].fd >= 0) return ACCEL_E_BUSY; /* release it first */
    memset(&req, 0, sizeof req);
    req.offsets[0] = offset;
    req.num_lines = 1;
    memcpy(req.consumer, "accel", 6);
    req.config.flags = flags;
    if (!is_irq) { /* the initial level, so the line never glitches to a default */
        req.config.num_attrs = 1;
        req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
        req.config.attrs[0].attr.values = initial;
        req.config.attrs[0].mask = 1;
    }
    if (gpio_ioctl(lx->gpio_fd, GPIO_V2_GET_LINE_IOCTL, &req) < 0)
        return accel_linux_fail(lx, errno);
    if (req.fd <= 0) return accel_linux_fail(lx, EIO); /* the uAPI says <= 0 is an error */
    lx->lines[line].fd = req.fd;
    lx->lines[line].offset = offset;
    lx->lines[line].is_irq = is_irq;
    return ACCEL_OK;
}

accel_status accel_linux_gpio_request_output(accel_linux *lx, unsigned line, uint32_t offset,
                                             unsigned initial, int active_low)
{
    uint64_t flags = GPIO_V2_LINE_FLAG_OUTPUT;
    if (active_low) flags |= GPIO_V2_LINE_FLAG_ACTIVE_LOW;
    return gpio_request(lx, line, offset, flags, 0, initial);
}

accel_status accel_linux_gpio_request_irq(accel_linux *lx, unsigned line, uint32_t offset,
                                          int active_low)
{
    uint64_t flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING;
    if (active_low) flags |= GPIO_V2_LINE_FLAG_ACTIVE_LOW;
    return gpio_request(lx, line, offset, flags, 1, 0);
}

void accel_linux_gpio_release(accel_linux *lx, unsigned line)
{
    if (!lx || line >= ACCEL_LINUX_MAX_LINES || lx->lines[line].fd < 0) return;
    close(lx->lines[line].fd);
    lx->lines[line].fd = -1;
}

/* The line behind port line `line`, or a status: ARG out of range or wrong kind, CLOSED. */
static accel_status gpio_line(accel_linux *lx, unsigned line, int want_irq, int *fd)
{
    if (!lx) return ACCEL_E_NULL;
    if (line >= ACCEL_LINUX_MAX_LINES) return ACCEL_E_ARG;
    if (lx->lines[line].fd < 0) return ACCEL_E_CLOSED;
    if (lx->lines[line].is_irq != want_irq) return ACCEL_E_ARG;
    *fd = lx->lines[line].fd;
    return ACCEL_OK;
}

accel_status accel_linux_gpio_set(void *user, unsigned line, unsigned level)
{
    accel_linux *lx = (accel_linux *)user;
    struct gpio_v2_line_values v;
    int fd = -1;
    accel_status st = gpio_line(lx, line, 0, &fd);
    if (st != ACCEL_OK) return st;
    if (level > 1u) return ACCEL_E_ARG;
    v.bits = level;
    v.mask = 1; /* bit 0 = the request's only line */
    if (gpio_ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &v) < 0) return accel_linux_fail(lx, errno);
    return ACCEL_OK;
}

/* poll() for an edge event; 1 = one or more came (all read), 0 = none in ms, -1 = errno. */
static int gpio_wait_event(int fd, int ms)
{
    struct pollfd pfd;
    struct gpio_v2_line_event ev[16];
    int r;
    pfd.fd = fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    r = poll(&pfd, 1, ms);
    if (r <= 0) return r;
    if (!(pfd.revents & POLLIN)) { /* POLLERR/POLLHUP: the request went away */
        errno = EIO;
        return -1;
    }
    /* readable: read() returns the queued events without blocking (up to 16 at a time) */
    if (read(fd, ev, sizeof ev) < 0) return -1;
    return 1;
}

accel_status accel_linux_wait_irq(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_linux *lx = (accel_linux *)user;
    struct gpio_v2_line_values v;
    accel_deadline d;
    int fd = -1, r;
    accel_status st = gpio_line(lx, line, 1, &fd);
    if (st != ACCEL_OK) return st;
    v.bits = 0;
    v.mask = 1;
    if (gpio_ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &v) < 0) return accel_linux_fail(lx, errno);
    if (v.bits & 1u) { /* asserted now: drop stale edges so they do not answer a later wait */
        for (r = 0; r < 8 && gpio_wait_event(fd, 0) == 1; r++) {
        }
        return ACCEL_OK;
    }
    accel_deadline_start(&d, accel_linux_now_ms(lx), timeout_ms);
    for (;;) {
        uint32_t left = accel_deadline_remaining(&d, accel_linux_now_ms(lx));
        r = gpio_wait_event(fd, left > (uint32_t)INT_MAX ? INT_MAX : (int)left);
        if (r == 1) return ACCEL_OK;
        if (r < 0 && errno != EINTR) return accel_linux_fail(lx, errno);
        if (r == 0 && accel_deadline_expired(&d, accel_linux_now_ms(lx))) return ACCEL_E_TIMEOUT;
    }
}

void accel_linux_gpio_close(accel_linux *lx)
{
    unsigned i;
    if (!lx) return;
    for (i = 0; i < ACCEL_LINUX_MAX_LINES; i++) accel_linux_gpio_release(lx, i);
    if (lx->gpio_fd >= 0) close(lx->gpio_fd);
    lx->gpio_fd = -1;
}

#else
typedef int accel_linux_gpio_not_linux_; /* ISO C forbids an empty translation unit */
#endif
