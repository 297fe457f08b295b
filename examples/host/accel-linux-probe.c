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
 * Numbers take C prefixes (0x..). Exit status 0 when the transfer gave ACCEL_OK. */
#include "accel.h"
#include "accel_linux.h"
#include "accel_linux_spi.h"
#include "accel_linux_i2c.h"
#include "accel_linux_gpio.h"
#include "accel_linux_usb.h"
#include "bridge_tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
static unsigned long num(const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "not a number: %s\n", s);
        exit(2);
    }
    return v;
}

static size_t hex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    if (strcmp(s, "-") == 0) return 0;
    while (s[0] && s[1] && n < cap) {
        char b[3] = {s[0], s[1], 0};
        out[n++] = (uint8_t)strtoul(b, NULL, 16);
        s += 2;
    }
    if (*s) {
        fprintf(stderr, "bad or too long hex string\n");
        exit(2);
    }
    return n;
}

static void dump(const char *what, const uint8_t *b, size_t n)
{
    size_t i;
    printf("%s (%zu):", what, n);
    for (i = 0; i < n; i++) printf(" %02x", b[i]);
    printf("\n");
}

static int report(const char *step, accel_status st, const accel_linux *lx)
{
    printf("%s: %s", step, accel_status_str(st));
    if (st != ACCEL_OK && lx->last_errno) printf(" (errno %d: %s)", lx->last_errno,
                                                  strerror(lx->last_errno));
    if (st != ACCEL_OK && lx->last_usb_error) printf(" (libusb %d)", lx->last_usb_error);
    printf("\n");
    return st == ACCEL_OK ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: accel-linux-probe spi B.C HEX [SPEED [MODE]] | i2c N ADDR HEX RLEN"
                    " | gpio-set CHIP OFF LEVEL | gpio-wait CHIP OFF MS [low]"
                    " | usb VID:PID [IFACE] | usb-in VID:PID IFACE EP LEN MS\n"
                    "       accel-linux-probe --bridge DEV[,BAUD] hello | spi CS HEX"
                    " | i2c - ADDR HEX RLEN | gpio-set - LINE LEVEL | gpio-wait - LINE MS\n");
    return 2;
}

/* The same probes on a board behind the bridge: its port, its numbering. */
static int bridge_report(const char *step, accel_status st)
{
    printf("%s: %s", step, accel_status_str(st));
    fflush(stdout);
    if (st != ACCEL_OK) bt_explain();
    printf("\n");
    return st == ACCEL_OK ? 0 : 1;
}

static int bridge_probe(int argc, char **argv, const accel_port *bp)
{
    static uint8_t tx[4096], rx[4096];
    int rc;
    if (strcmp(argv[1], "hello") == 0 && argc == 2) {
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
    } else if (strcmp(argv[1], "spi") == 0 && argc >= 4) {
        const char *dot = strchr(argv[2], '.');
        unsigned long cs = num(dot ? dot + 1 : argv[2]);
        size_t n = hex(argv[3], tx, sizeof tx);
        if (n == 0 || cs > 255) return usage();
        rc = bridge_report("transfer", accel_port_spi_transfer(bp, (uint8_t)cs, tx, rx, n, 0));
        if (!rc) dump("rx", rx, n);
    } else if (strcmp(argv[1], "i2c") == 0 && argc >= 6) {
        size_t wn = hex(argv[4], tx, sizeof tx), rn = (size_t)num(argv[5]);
        if (rn > sizeof rx) return usage();
        rc = bridge_report("write_read", accel_port_i2c_write_read(bp, (uint16_t)num(argv[3]), tx,
                                                                    wn, rx, rn));
        if (!rc) dump("read", rx, rn);
    } else if (strcmp(argv[1], "gpio-set") == 0 && argc >= 5) {
        rc = bridge_report("set", accel_port_gpio_set(bp, (unsigned)num(argv[3]),
                                                      (unsigned)num(argv[4])));
    } else if (strcmp(argv[1], "gpio-wait") == 0 && argc >= 5) {
        rc = bridge_report("wait_irq", accel_port_wait_irq(bp, (unsigned)num(argv[3]),
                                                           (uint32_t)num(argv[4])));
    } else if (strncmp(argv[1], "usb", 3) == 0) {
        fprintf(stderr, "accel-linux-probe: USB is not carried by the bridge\n");
        rc = 2;
    } else {
        return usage();
    }
    if (bt_close(0) && !rc) rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    static uint8_t tx[4096], rx[4096];
    accel_linux lx;
    accel_port port;
    accel_status st;
    int rc;
    if (argc >= 2 && strcmp(argv[1], "--bridge") == 0) {
        const accel_port *bp;
        if (argc < 4) return usage();
        bp = bt_open("accel-linux-probe", argv[2], NULL);
        if (!bp) return 1;
        return bridge_probe(argc - 2, argv + 2, bp);
    }
    if (argc < 2) return usage();
    accel_linux_init(&lx);
    accel_linux_port(&lx, &port);
    if (strcmp(argv[1], "spi") == 0 && argc >= 4) {
        unsigned bus = 0, cs = 0;
        size_t n = hex(argv[3], tx, sizeof tx);
        if (sscanf(argv[2], "%u.%u", &bus, &cs) != 2 || n == 0 || cs > 255) return usage();
        st = accel_linux_spi_open(&lx, bus, cs, (uint8_t)(argc > 5 ? num(argv[5]) : 0),
                                  (uint32_t)(argc > 4 ? num(argv[4]) : 1000000), 8);
        if (report("open", st, &lx)) return 1;
        rc = report("transfer", accel_port_spi_transfer(&port, (uint8_t)cs, tx, rx, n, 0), &lx);
        if (!rc) dump("rx", rx, n);
    } else if (strcmp(argv[1], "i2c") == 0 && argc >= 6) {
        size_t wn = hex(argv[4], tx, sizeof tx), rn = (size_t)num(argv[5]);
        if (rn > sizeof rx) return usage();
        st = accel_linux_i2c_open(&lx, (unsigned)num(argv[2]));
        if (report("open", st, &lx)) return 1;
        rc = report("write_read", accel_port_i2c_write_read(&port, (uint16_t)num(argv[3]), tx,
                                                             wn, rx, rn), &lx);
        if (!rc) dump("read", rx, rn);
    } else if (strncmp(argv[1], "gpio-", 5) == 0 && argc >= 5) {
        int is_set = strcmp(argv[1], "gpio-set") == 0;
        st = accel_linux_gpio_open(&lx, (unsigned)num(argv[2]));
        if (report("open", st, &lx)) return 1;
        if (is_set) {
            unsigned level = (unsigned)num(argv[4]);
            st = accel_linux_gpio_request_output(&lx, 0, (uint32_t)num(argv[3]), level, 0);
            if (report("request", st, &lx)) return 1;
            rc = report("set", accel_port_gpio_set(&port, 0, level), &lx);
        } else {
            uint32_t t0;
            int low = argc > 5 && strcmp(argv[5], "low") == 0;
            st = accel_linux_gpio_request_irq(&lx, 0, (uint32_t)num(argv[3]), low);
            if (report("request", st, &lx)) return 1;
            t0 = accel_linux_now_ms(NULL);
            rc = report("wait_irq", accel_port_wait_irq(&port, 0, (uint32_t)num(argv[4])), &lx);
            printf("after %ld ms\n", (long)accel_time_diff(accel_linux_now_ms(NULL), t0));
        }
    } else if (strncmp(argv[1], "usb", 3) == 0 && argc >= 3) {
#ifdef ACCEL_HAVE_LIBUSB
        unsigned vid = 0, pid = 0;
        int in = strcmp(argv[1], "usb-in") == 0;
        size_t done = 0;
        if (sscanf(argv[2], "%x:%x", &vid, &pid) != 2 || vid > 0xFFFF || pid > 0xFFFF ||
            (in && argc < 7))
            return usage();
        st = accel_linux_usb_open(&lx, (uint16_t)vid, (uint16_t)pid,
                                  argc > 3 ? (int)num(argv[3]) : 0);
        if (report("open", st, &lx)) return 1;
        if (in) {
            size_t len = (size_t)num(argv[5]);
            if (len == 0 || len > sizeof rx) return usage();
            rc = report("in", accel_port_usb_bulk_in(&port, (uint8_t)num(argv[4]), rx, len,
                                                     (uint32_t)num(argv[6]), &done), &lx);
        } else {
            /* GET_DESCRIPTOR(DEVICE): standard, device-to-host */
            rc = report("get_descriptor", accel_port_usb_control(&port, ACCEL_USB_DIR_IN, 6,
                                                                 0x0100, 0, rx, 18, 1000, &done),
                        &lx);
        }
        dump("data", rx, done);
#else
        fprintf(stderr, "built without libusb-1.0 (ACCEL_HAVE_LIBUSB)\n");
        rc = 2;
#endif
    } else {
        return usage();
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
