/* accel-bridge-sim - the device side of the accel bridge (ports/bridge) on a pseudo-terminal,
 * with the TSP1 device model on its SPI bus (chip select 0, INTB = IRQ line 0, WAKE = GPIO line
 * 1): what a board running the bridge sketch looks like to a host, for trying and testing the
 * host tools without hardware.
 *
 *   accel-bridge-sim [--nets N] [--max-data N] [--mute]
 *     prints "pty PATH" on stdout, then serves requests on PATH until killed
 *     --nets N      valid network slots of the model (default 4)
 *     --max-data N  the device's data limit per message, 1 to 128 (default 128)
 *     --mute        read requests but never answer (a host then reports a link timeout)
 *   accel-tsp1 --bridge PATH echo hi       (in another shell)
 *
 * Host sessions come and go (each tool run opens the pty, says hello and closes it); the
 * model keeps running between them, like a real device. Its clock is the simulator's: it moves
 * when the host delays or waits for an IRQ, not with the wall clock. Hello announces the
 * operations the model has (SPI, GPIO, IRQ, clock, delay; I2C with ACCEL_TSP1_I2C), and the pty
 * is raw from the start, as a board's serial line is once set up. Linux only. */
#define _XOPEN_SOURCE 600
#include "accel.h"
#include "accel_sim.h"
#include "cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PURPOSE "the device side of the accel bridge on a pseudo-terminal, with a simulated TSP1"
static const char usage_text[] =
    "usage: accel-bridge-sim [--nets N] [--max-data N] [--mute]\n"
    "  prints \"pty PATH\" on stdout, then serves requests on PATH until killed\n"
    "  --nets N      valid network slots of the model (default 4)\n"
    "  --max-data N  the device's data limit per message, 1 to 128 (default 128)\n"
    "  --mute        read requests but never answer\n"
    "  then, in another shell: accel-tsp1 --bridge PATH echo hi\n"
    "exit status: 1 the pty could not be made, 2 usage\n";

#if defined(__linux__) && defined(ACCEL_HAVE_BRIDGE)
#include "accel_bridge_device.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static accel_sim sim;
static accel_tsp1_model model;
static uint8_t model_mem[4 * 1024 + 128];
static accel_bridge_device dev;
static accel_port served; /* the simulator's port less what the model cannot do */
static int master = -1;

/* The line as a serial port to a board is once a host sets it up: 8 bits, nothing translated,
 * no echo, no line buffering. A pty starts cooked (the slave would echo our answers back to us
 * and hold them until a newline), so a client that leaves termios alone would see nothing. */
static int pty_raw(int fd)
{
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
    t.c_cflag |= CS8;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSANOW, &t);
}

static accel_status pty_write(void *user, const uint8_t *data, size_t n)
{
    size_t done = 0;
    (void)user;
    while (done < n) {
        ssize_t w = write(master, data + done, n - done);
        if (w > 0) {
            done += (size_t)w;
        } else if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
            struct pollfd p;
            p.fd = master;
            p.events = POLLOUT;
            (void)poll(&p, 1, 100);
        } else {
            return ACCEL_E_IO; /* the host went away: its retry will find the kept answer */
        }
    }
    return ACCEL_OK;
}

static void nap_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    (void)nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    accel_bridge_device_config c;
    accel_port mp;
    int i, mute = 0;
    unsigned nets = 4, max_data = ACCEL_BRIDGE_MAX_DATA;
    const char *name;
    cli_start("accel-bridge-sim", PURPOSE, usage_text, argc, argv);
    for (i = 1; i < argc; i++) {
        cli_std_option(argv[i]);
        if (!strcmp(argv[i], "--mute")) mute = 1;
        else if (!strcmp(argv[i], "--nets") && i + 1 < argc)
            nets = (unsigned)cli_num("--nets", argv[++i], 0, ACCEL_TSP1_MAX_NETS);
        else if (!strcmp(argv[i], "--max-data") && i + 1 < argc)
            max_data = (unsigned)cli_num("--max-data", argv[++i], 1, ACCEL_BRIDGE_MAX_DATA);
        else if (!strcmp(argv[i], "--nets") || !strcmp(argv[i], "--max-data"))
            return cli_usage("%s needs a value", argv[i]);
        else
            return cli_usage("unknown argument %s", argv[i]);
    }
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 || !(name = ptsname(master))) {
        perror("accel-bridge-sim: pty");
        return 1;
    }
    if (pty_raw(master) != 0) {
        perror("accel-bridge-sim: raw pty");
        return 1;
    }
    (void)fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    accel_sim_init(&sim);
    if (accel_tsp1_model_init(&model, model_mem, sizeof model_mem, 1024, 512, (uint8_t)nets) !=
        ACCEL_OK) {
        fprintf(stderr, "accel-bridge-sim: model init failed\n");
        return 1;
    }
    model.wake_line = 1;
    accel_tsp1_model_port(&model, &mp);
    accel_sim_attach(&sim, &mp);
    accel_sim_advance(&sim, 10); /* booted: its ASYNC_READY waits in the response queue */
    /* announce at hello only what runs: the simulator's port has every callback, but those
       the model lacks would answer ACCEL_E_UNSUPPORTED (USB is never carried) */
    served = sim.port;
    if (!mp.i2c_write_read) served.i2c_write_read = NULL;
    if (!mp.reg_read32) served.reg_read32 = NULL;
    if (!mp.reg_write32) served.reg_write32 = NULL;
    if (!mp.reg_read64) served.reg_read64 = NULL;
    if (!mp.reg_write64) served.reg_write64 = NULL;
    served.usb_control = NULL;
    served.usb_bulk_out = NULL;
    served.usb_bulk_in = NULL;
    memset(&c, 0, sizeof c);
    c.port = &served;
    c.write = pty_write;
    c.max_data = (uint16_t)max_data;
    if (accel_bridge_device_init(&dev, &c) != ACCEL_OK) return 1;
    printf("pty %s\n", name);
    fflush(stdout);
    for (;;) {
        uint8_t buf[256];
        struct pollfd p;
        ssize_t n;
        p.fd = master;
        p.events = POLLIN;
        p.revents = 0;
        if (poll(&p, 1, 200) < 0 && errno != EINTR) return 1;
        n = read(master, buf, sizeof buf);
        if (n > 0) {
            if (!mute) (void)accel_bridge_device_feed(&dev, buf, (size_t)n);
        } else {
            nap_ms(5); /* no host has the pty open (EIO), or nothing yet */
        }
    }
}
#else
int main(int argc, char **argv)
{
    cli_start("accel-bridge-sim", PURPOSE, usage_text, argc, argv);
    fprintf(stderr, "accel-bridge-sim: needs Linux and nanopb (libnanopb-dev)\n");
    return 2;
}
#endif
