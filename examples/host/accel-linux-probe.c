/* accel-linux-probe - open one Linux device through ports/linux and do one transfer, printing
 * the accel_status name and the errno / libusb code. For checking wiring and permissions on a
 * real board before a driver is pointed at it.
 *
 *   accel-linux-probe spi B.C HEX [SPEED_HZ [MODE]]   full-duplex HEX bytes on /dev/spidevB.C
 *   accel-linux-probe i2c N ADDR HEX RLEN             write HEX (may be "-"), read RLEN bytes
 *   accel-linux-probe gpio-set CHIP OFFSET LEVEL      drive a line of /dev/gpiochipCHIP
 *   accel-linux-probe gpio-wait CHIP OFFSET MS [low]  wait for a line to go active ("low":
 *                                                     active low)
 *   accel-linux-probe usb VID:PID [IFACE]             read the 18-byte device descriptor
 *   accel-linux-probe usb-in VID:PID IFACE EP LEN MS  one bulk/interrupt IN transfer
 *   accel-linux-probe --bridge DEV[,BAUD] COMMAND     the same on a microcontroller that runs the
 *       accel bridge (ports/bridge), over the serial line DEV: spi CS HEX, i2c - ADDR HEX RLEN,
 *       gpio-set - LINE LEVEL, gpio-wait - LINE MS (the board numbers its own chip selects and
 *       lines; "-" stands where a Linux device number would be, B.C is taken as chip select C),
 *       and hello (the device's protocol version, data limit and operations). USB is not carried
 *       by the bridge. Speed, mode and polarity are the board's.
 * Numbers are decimal, 0x hex or 0 octal, whole and in range; HEX is pairs of hex digits. The
 * whole command line is checked before a device is opened. Exit status: 0 the transfer gave
 * ACCEL_OK, 1 it did not (or the device could not be opened), 2 usage. */
#include "accel.h"
#include "accel_linux.h"
#include "accel_linux_spi.h"
#include "accel_linux_i2c.h"
#include "accel_linux_gpio.h"
#include "accel_linux_usb.h"
#include "bridge_tool.h"
#include "cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
enum { P_HELLO, P_SPI, P_I2C, P_GPIO_SET, P_GPIO_WAIT, P_USB, P_USB_IN };

/* One probe, as the command line asked for it (checked whole before any device is opened). */
typedef struct probe {
    int cmd, low;
    unsigned bus, chip;
    uint32_t speed, line, level, ms;
    uint8_t cs, mode, ep;
    uint16_t addr, vid, pid;
    int iface;
    size_t n, rlen;
} probe;

static uint8_t tx[4096], rx[4096];

static const char usage_text[] =
    "usage: accel-linux-probe spi B.C HEX [SPEED_HZ [MODE]]   full duplex on /dev/spidevB.C\n"
    "       accel-linux-probe i2c N ADDR HEX RLEN     write HEX (\"-\": nothing) to ADDR on\n"
    "                                                 /dev/i2c-N, read RLEN bytes\n"
    "       accel-linux-probe gpio-set CHIP OFFSET LEVEL     drive a line of /dev/gpiochipCHIP\n"
    "       accel-linux-probe gpio-wait CHIP OFFSET MS [low] wait for a line to go active\n"
    "       accel-linux-probe usb VID:PID [IFACE]     read the device descriptor\n"
    "       accel-linux-probe usb-in VID:PID IFACE EP LEN MS   one bulk/interrupt IN transfer\n"
    "       accel-linux-probe --bridge DEV[,BAUD] hello | spi CS HEX | i2c - ADDR HEX RLEN\n"
    "                         | gpio-set - LINE LEVEL | gpio-wait - LINE MS\n"
    "           the same on a board running the accel bridge (its own numbering; no USB)\n"
    "  Numbers: decimal, 0x hex or 0 octal; HEX: pairs of hex digits (e.g. 9f00).\n"
    "exit status: 0 the transfer gave ACCEL_OK, 1 it did not, 2 usage\n";

/* argv[0] is the command; a usage error exits 2. */
static void parse(int argc, char **argv, int bridge, probe *p)
{
    const char *c = argv[0];
    uint64_t a, b;
    memset(p, 0, sizeof *p);
#define ARGS(lo, hi, form)                                                                         \
    do {                                                                                           \
        if (argc < (lo) || argc > (hi)) exit(cli_usage("%s takes %s", c, form));                  \
    } while (0)
    if (bridge && strncmp(c, "usb", 3) == 0) {
        fprintf(stderr, "accel-linux-probe: USB is not carried by the bridge\n");
        exit(2);
    }
    if (bridge && strcmp(c, "spi") && strcmp(c, "hello") && argc > 1 && strcmp(argv[1], "-"))
        exit(cli_usage("%s: write - for the bus: the board numbers its own", c));
    if (bridge && !strcmp(c, "hello")) {
        ARGS(1, 1, "no arguments");
        p->cmd = P_HELLO;
    } else if (!strcmp(c, "spi")) {
        if (bridge) ARGS(3, 3, "CS HEX");
        else ARGS(3, 5, "B.C HEX [SPEED_HZ [MODE]]");
        if (strchr(argv[1], '.') || !bridge) {
            cli_num_pair("spi", "B.C", argv[1], 0, UINT32_MAX, &a, 255, &b);
            p->bus = (unsigned)a;
            p->cs = (uint8_t)b;
        } else {
            p->cs = (uint8_t)cli_num("CS", argv[1], 0, 255);
        }
        p->n = cli_hex("HEX", argv[2], tx, sizeof tx);
        if (p->n == 0) exit(cli_usage("HEX: at least one byte"));
        p->speed = argc > 3 ? (uint32_t)cli_num("SPEED_HZ", argv[3], 1, UINT32_MAX) : 1000000u;
        p->mode = argc > 4 ? (uint8_t)cli_num("MODE", argv[4], 0, 3) : 0;
        p->cmd = P_SPI;
    } else if (!strcmp(c, "i2c")) {
        ARGS(5, 5, bridge ? "- ADDR HEX RLEN" : "N ADDR HEX RLEN");
        if (!bridge) p->bus = (unsigned)cli_num("N", argv[1], 0, UINT32_MAX);
        /* Linux's i2c-dev takes 7-bit addresses; a board may take 10-bit ones */
        p->addr = (uint16_t)cli_num("ADDR", argv[2], 0, bridge ? 0x3FF : 0x7F);
        p->n = strcmp(argv[3], "-") ? cli_hex("HEX", argv[3], tx, sizeof tx) : 0;
        p->rlen = (size_t)cli_num("RLEN", argv[4], 0, sizeof rx);
        p->cmd = P_I2C;
    } else if (!strcmp(c, "gpio-set")) {
        ARGS(4, 4, bridge ? "- LINE LEVEL" : "CHIP OFFSET LEVEL");
        if (!bridge) p->chip = (unsigned)cli_num("CHIP", argv[1], 0, UINT32_MAX);
        p->line = (uint32_t)cli_num(bridge ? "LINE" : "OFFSET", argv[2], 0, UINT32_MAX);
        p->level = (uint32_t)cli_num("LEVEL", argv[3], 0, 1);
        p->cmd = P_GPIO_SET;
    } else if (!strcmp(c, "gpio-wait")) {
        if (bridge) ARGS(4, 4, "- LINE MS");
        else ARGS(4, 5, "CHIP OFFSET MS [low]");
        if (!bridge) p->chip = (unsigned)cli_num("CHIP", argv[1], 0, UINT32_MAX);
        p->line = (uint32_t)cli_num(bridge ? "LINE" : "OFFSET", argv[2], 0, UINT32_MAX);
        p->ms = (uint32_t)cli_num("MS", argv[3], 0, UINT32_MAX);
        if (argc > 4 && strcmp(argv[4], "low"))
            exit(cli_usage("gpio-wait: '%s' is not \"low\"", argv[4]));
        p->low = argc > 4;
        p->cmd = P_GPIO_WAIT;
    } else if (!strcmp(c, "usb") || !strcmp(c, "usb-in")) {
        int in = !strcmp(c, "usb-in");
        if (in) ARGS(6, 6, "VID:PID IFACE EP LEN MS");
        else ARGS(2, 3, "VID:PID [IFACE]");
        cli_num_pair(c, "VID:PID", argv[1], 1, 0xFFFF, &a, 0xFFFF, &b);
        p->vid = (uint16_t)a;
        p->pid = (uint16_t)b;
        p->iface = argc > 2 ? (int)cli_num("IFACE", argv[2], 0, 255) : 0;
        if (in) {
            p->ep = (uint8_t)cli_num("EP", argv[3], 0, 255);
            p->rlen = (size_t)cli_num("LEN", argv[4], 1, sizeof rx);
            p->ms = (uint32_t)cli_num("MS", argv[5], 0, UINT32_MAX);
        }
        p->cmd = in ? P_USB_IN : P_USB;
    } else {
        exit(cli_usage("unknown command %s", c));
    }
#undef ARGS
}

static void dump(const char *what, const uint8_t *b, size_t n)
{
    size_t i;
    printf("%s (%zu):", what, n);
    for (i = 0; i < n; i++) printf(" %02x", b[i]);
    printf("\n");
}

/* the device a probe opens, for its messages: /dev/spidevB.C, /dev/i2c-N, ... */
static char dev[256];

/* A step's outcome: "step: ACCEL_OK" on stdout, or one line on stderr naming the device, the
 * step, the status and the OS's own code. */
static int report(const char *step, accel_status st, const accel_linux *lx)
{
    char os[96] = "";
    if (st == ACCEL_OK) {
        printf("%s: %s\n", step, accel_status_str(st));
        return 0;
    }
    if (lx->last_errno)
        snprintf(os, sizeof os, " (errno %d: %s)", lx->last_errno, strerror(lx->last_errno));
    else if (lx->last_usb_error)
        snprintf(os, sizeof os, " (libusb %d)", lx->last_usb_error);
    return cli_fail("%s: %s: %s%s", dev, step, accel_status_str(st), os);
}

/* The same probes on a board behind the bridge: its port, its numbering. */
static int bridge_report(const char *step, accel_status st)
{
    if (st == ACCEL_OK) {
        printf("%s: %s\n", step, accel_status_str(st));
        return 0;
    }
    cli_fail("%s (bridge): %s: %s", dev, step, accel_status_str(st));
    bt_explain();
    return 1;
}

static int bridge_probe(const probe *p, const accel_port *bp)
{
    int rc = 0;
    if (p->cmd == P_HELLO) {
#ifdef ACCEL_HAVE_BRIDGE
        static const char *names[] = {"spi", "i2c", "gpio_set", "wait_irq", "time", "delay",
                                      "reg_read32", "reg_write32", "reg_read64", "reg_write64"};
        unsigned k;
        printf("bridge version %lu, max_data %u, caps 0x%03x:", (unsigned long)bt_host.version,
               (unsigned)bt_host.max_data, (unsigned)bt_host.caps);
        for (k = 0; k < 10; k++)
            if (bt_host.caps & (1u << k)) printf(" %s", names[k]);
        printf("\n");
#endif
        rc = 0;
    } else if (p->cmd == P_SPI) {
        rc = bridge_report("transfer", accel_port_spi_transfer(bp, p->cs, tx, rx, p->n, 0));
        if (!rc) dump("rx", rx, p->n);
    } else if (p->cmd == P_I2C) {
        rc = bridge_report("write_read", accel_port_i2c_write_read(bp, p->addr, tx, p->n, rx,
                                                                    p->rlen));
        if (!rc) dump("read", rx, p->rlen);
    } else if (p->cmd == P_GPIO_SET) {
        rc = bridge_report("set", accel_port_gpio_set(bp, (unsigned)p->line, (unsigned)p->level));
    } else {
        rc = bridge_report("wait_irq", accel_port_wait_irq(bp, (unsigned)p->line, p->ms));
    }
    if (bt_close(0) && !rc) rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    accel_linux lx;
    accel_port port;
    accel_status st;
    probe p;
    int rc;
    cli_start("accel-linux-probe",
              "open one Linux SPI, I2C, GPIO or USB device (or a bridge board's bus) and do one "
              "transfer, to check wiring and permissions",
              usage_text, argc, argv);
    if (argc >= 2 && strcmp(argv[1], "--bridge") == 0) {
        const accel_port *bp;
        char path[256];
        uint32_t baud;
        if (argc < 4) return cli_usage("--bridge needs DEV[,BAUD] and a COMMAND");
        bt_serial_spec("--bridge", argv[2], path, sizeof path, &baud);
        snprintf(dev, sizeof dev, "%s", path);
        parse(argc - 3, argv + 3, 1, &p); /* before the board is opened */
        bp = bt_open("accel-linux-probe", argv[2], NULL);
        if (!bp) return 1;
        return bridge_probe(&p, bp);
    }
    if (argc < 2) return cli_usage(NULL);
    if (argv[1][0] == '-') return cli_usage("unknown option %s", argv[1]);
    parse(argc - 1, argv + 1, 0, &p);
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    if (p.cmd == P_SPI) snprintf(dev, sizeof dev, "/dev/spidev%u.%u", p.bus, (unsigned)p.cs);
    else if (p.cmd == P_I2C) snprintf(dev, sizeof dev, "/dev/i2c-%u", p.bus);
    else if (p.cmd == P_GPIO_SET || p.cmd == P_GPIO_WAIT)
        snprintf(dev, sizeof dev, "/dev/gpiochip%u", p.chip);
    else snprintf(dev, sizeof dev, "USB %04x:%04x", (unsigned)p.vid, (unsigned)p.pid);
    if (p.cmd == P_SPI) {
        st = accel_linux_spi_open(&lx, p.bus, p.cs, p.mode, p.speed, 8);
        if (report("open", st, &lx)) return 1;
        rc = report("transfer", accel_port_spi_transfer(&port, p.cs, tx, rx, p.n, 0), &lx);
        if (!rc) dump("rx", rx, p.n);
    } else if (p.cmd == P_I2C) {
        st = accel_linux_i2c_open(&lx, p.bus);
        if (report("open", st, &lx)) return 1;
        rc = report("write_read", accel_port_i2c_write_read(&port, p.addr, tx, p.n, rx, p.rlen),
                    &lx);
        if (!rc) dump("read", rx, p.rlen);
    } else if (p.cmd == P_GPIO_SET || p.cmd == P_GPIO_WAIT) {
        st = accel_linux_gpio_open(&lx, p.chip);
        if (report("open", st, &lx)) return 1;
        if (p.cmd == P_GPIO_SET) {
            st = accel_linux_gpio_request_output(&lx, 0, p.line, (unsigned)p.level, 0);
            if (report("request", st, &lx)) return 1;
            rc = report("set", accel_port_gpio_set(&port, 0, (unsigned)p.level), &lx);
        } else {
            uint32_t t0;
            st = accel_linux_gpio_request_irq(&lx, 0, p.line, p.low);
            if (report("request", st, &lx)) return 1;
            t0 = accel_linux_now_ms(NULL);
            rc = report("wait_irq", accel_port_wait_irq(&port, 0, p.ms), &lx);
            printf("after %ld ms\n", (long)accel_time_diff(accel_linux_now_ms(NULL), t0));
        }
    } else {
#ifdef ACCEL_HAVE_LIBUSB
        size_t done = 0;
        st = accel_linux_usb_open(&lx, p.vid, p.pid, p.iface);
        if (report("open", st, &lx)) return 1;
        if (p.cmd == P_USB_IN) {
            rc = report("in", accel_port_usb_bulk_in(&port, p.ep, rx, p.rlen, p.ms, &done), &lx);
        } else {
            /* GET_DESCRIPTOR(DEVICE): standard, device-to-host */
            rc = report("get_descriptor", accel_port_usb_control(&port, ACCEL_USB_DIR_IN, 6,
                                                                 0x0100, 0, rx, 18, 1000, &done),
                        &lx);
        }
        dump("data", rx, done);
#else
        rc = cli_fail("%s: built without libusb-1.0 (ACCEL_HAVE_LIBUSB)", argv[1]);
#endif
    }
    accel_linux_close(&lx);
    return rc;
}
#else
int main(void)
{
    fprintf(stderr, "accel-linux-probe: Linux only\n");
    return 2;
}
#endif
