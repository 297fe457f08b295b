/* accel-tsp1 - talk to an ABR TSP1 through the accel_tsp1 driver.
 *
 *   accel-tsp1 [--spidev B.C] [--gpiochip N --intb OFF --wake OFF] [--hz HZ] COMMAND
 *   accel-tsp1 --bridge DEV[,BAUD] [--cs N] [--capture FILE] COMMAND
 *   accel-tsp1 --replay FILE COMMAND
 *     echo TEXT        ECHO round trip
 *     info             NN_INFO for every slot (valid slots are contiguous from 0)
 *     start MASK       NN_START (mask: networks as bits, e.g. 0x3)
 *     stop MASK        NN_STOP
 *     update FILE      secure update from an NVM image (k x 144 bytes), then reboot
 *
 * Without --spidev it runs against the device model on the simulator port (4 networks).
 * With --spidev it uses ports/linux (SPI mode 0). The SPI transaction format of the TSP1 is
 * not public: accel.h's assumed format (the TSP1 ASSUMPTIONS in accel.h) must be checked on
 * real hardware.
 * With --bridge the TSP1 sits on a microcontroller that runs the accel bridge (ports/bridge),
 * reached over the serial line DEV (default 115200 baud): chip select N (default 0), IRQ line
 * 0 = INTB, GPIO line 1 = WAKE on the board's side. --capture records every request/response
 * of the session; --replay runs the command against such a recording instead of a device and
 * says whether the session went exactly as recorded (exit 1 at the first difference).
 * The whole command line is checked before any device is touched: numbers whole and in range,
 * the command and its arguments, and an update image (not empty, k x 144 bytes, below 4 GiB).
 * Exit status: 0 ok, 1 the operation failed (one line: device or file, and why), 2 usage. */
#include "accel.h"
#include "accel_sim.h"
#include "accel_linux.h"
#include "accel_linux_gpio.h"
#include "accel_linux_spi.h"
#include "bridge_tool.h"
#include "cli.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static accel_sim sim;
static accel_tsp1_model model;
static uint8_t model_mem[4 * 1024 + 128];
static accel_linux lx;
static accel_port lport;
static accel_tsp1 s;
/* the driver's memory: 8 commands in flight, payloads up to CMD_MAX bytes out and 1088 in (an
   ECHO's text is its payload: the longest text the tool sends) */
#define CMD_MAX 1076u
static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(8, CMD_MAX, 1088) + 3) / 4];
static unsigned char *img; /* the update image, read whole before the device is touched */
static size_t img_len;
static int remote, replaying;

static void on_async(void *u, const accel_tsp1_frame *f)
{
    (void)u;
    printf("async 0x%04X tid %u\n", f->id, f->tid);
}

static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off > img_len || n > img_len - off) return ACCEL_E_IO;
    memcpy(dst, img + off, n);
    return ACCEL_OK;
}

static void progress(void *u, uint32_t done, uint32_t total)
{
    (void)u;
    printf("\rupdate %lu / %lu bytes", (unsigned long)done, (unsigned long)total);
    if (done == total) printf("\n");
    fflush(stdout);
}

static int fail(const char *what, accel_status st)
{
    fflush(stdout);
    if (st == ACCEL_E_BUSY && lx.last_errno == EWOULDBLOCK) {
        /* the port's lock: one session per device (another session's CLEAR_ERROR or REBOOT
           would change what this one's outcomes mean) */
        fprintf(stderr, "accel-tsp1: %s: in use by another process (it holds the device's lock:"
                        " one session per device); stop it first\n", what);
        return 1;
    }
    fprintf(stderr, "accel-tsp1: %s: %s", what, accel_status_str(st));
    if (lx.last_errno) fprintf(stderr, " (errno %d: %s)", lx.last_errno, strerror(lx.last_errno));
    fprintf(stderr, "\n");
    if (remote) bt_explain();
    if (remote) (void)bt_close(replaying);
    return 1;
}

static const char usage_text[] =
    "usage: accel-tsp1 [DEVICE] COMMAND\n"
    "  DEVICE (default: the simulated TSP1, 4 networks):\n"
    "    --spidev B.C [--gpiochip N --intb OFF --wake OFF] [--hz HZ]   /dev/spidevB.C\n"
    "    --bridge DEV[,BAUD] [--cs N] [--capture FILE]   a board running the accel bridge\n"
    "    --replay FILE [--cs N]   a session recorded with --capture, instead of a device\n"
    "  COMMAND:\n"
    "    echo TEXT      ECHO round trip\n"
    "    info           NN_INFO for every network slot\n"
    "    start MASK     NN_START (MASK: networks as bits, e.g. 0x3)\n"
    "    stop MASK      NN_STOP\n"
    "    update FILE    secure update from an NVM image (k x 144 bytes), then reboot\n"
    "  Numbers: decimal, 0x hex or 0 octal.\n"
    "exit status: 0 ok, 1 the operation failed, 2 usage\n";

int main(int argc, char **argv)
{
    accel_tsp1_config c;
    accel_status st;
    int i = 1, spi = 0, have_cs = 0, spi_only = 0;
    unsigned bus = 0, cs = 0, chip = 0, hz = 1000000;
    long intb = -1, wake = -1;
    uint32_t mask = 0;
    uint64_t a, b;
    uint32_t baud;
    char dev[256];
    const char *cmd, *bridge = NULL, *capture = NULL, *replay = NULL;
    memset(&c, 0, sizeof c);
    cli_start("accel-tsp1", "talk to an ABR TSP1 neural processor (simulated, on spidev, or on a "
              "board running the accel bridge)", usage_text, argc, argv);
    /* the whole command line first: nothing reaches a device before it is known to be valid */
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        cli_std_option(o);
        if (strcmp(o, "--spidev") && strcmp(o, "--gpiochip") && strcmp(o, "--intb") &&
            strcmp(o, "--wake") && strcmp(o, "--hz") && strcmp(o, "--bridge") &&
            strcmp(o, "--capture") && strcmp(o, "--replay") && strcmp(o, "--cs"))
            return cli_usage("unknown option %s", o);
        if (!val) return cli_usage("%s needs a value", o);
        if (!strcmp(o, "--spidev")) {
            cli_num_pair(o, "B.C", val, 0, UINT32_MAX, &a, 255, &b);
            bus = (unsigned)a;
            cs = (unsigned)b;
            spi = 1;
        } else if (!strcmp(o, "--gpiochip")) {
            chip = (unsigned)cli_num(o, val, 0, UINT32_MAX);
            spi_only = 1;
        } else if (!strcmp(o, "--intb")) {
            intb = (long)cli_num(o, val, 0, 0x7FFFFFFF);
            spi_only = 1;
        } else if (!strcmp(o, "--wake")) {
            wake = (long)cli_num(o, val, 0, 0x7FFFFFFF);
            spi_only = 1;
        } else if (!strcmp(o, "--hz")) {
            hz = (unsigned)cli_num(o, val, 1, UINT32_MAX);
            spi_only = 1;
        } else if (!strcmp(o, "--bridge")) bridge = val;
        else if (!strcmp(o, "--capture")) capture = val;
        else if (!strcmp(o, "--replay")) replay = val;
        else {
            cs = (unsigned)cli_num(o, val, 0, 255);
            have_cs = 1;
        }
    }
    if ((spi && (bridge || replay)) || (bridge && replay))
        return cli_usage("choose one of --spidev, --bridge and --replay");
    if (capture && !bridge) return cli_usage("--capture needs --bridge");
    if (bridge) bt_serial_spec("--bridge", bridge, dev, sizeof dev, &baud);
    if (spi_only && !spi) return cli_usage("--gpiochip, --intb, --wake and --hz need --spidev");
    if (have_cs && !bridge && !replay)
        return cli_usage("--cs needs --bridge or --replay (--spidev B.C names its chip select)");
    if (i >= argc) return cli_usage("no COMMAND given");
    cmd = argv[i++];
    if (!strcmp(cmd, "echo") || !strcmp(cmd, "start") || !strcmp(cmd, "stop") ||
        !strcmp(cmd, "update")) {
        if (argc - i != 1)
            return cli_usage("%s takes one %s", cmd,
                             cmd[0] == 'e' ? "TEXT" : cmd[0] == 'u' ? "FILE" : "MASK");
    } else if (!strcmp(cmd, "info")) {
        if (argc - i != 0) return cli_usage("info takes no arguments");
    } else {
        return cli_usage("unknown command %s", cmd);
    }
    if (!strcmp(cmd, "echo") && strlen(argv[i]) > CMD_MAX)
        return cli_usage("echo: TEXT is %lu bytes, at most %u", (unsigned long)strlen(argv[i]),
                         CMD_MAX);
    if (!strcmp(cmd, "start") || !strcmp(cmd, "stop"))
        mask = (uint32_t)cli_num("MASK", argv[i], 0, UINT32_MAX);
    if (!strcmp(cmd, "update")) {
        /* the driver's total is 32 bits: the largest whole number of chunks below 4 GiB */
        img = cli_read_file(argv[i], UINT32_MAX - UINT32_MAX % ACCEL_TSP1_CHUNK_SIZE, &img_len);
        if (!img) return 1;
        if (img_len == 0 || img_len % ACCEL_TSP1_CHUNK_SIZE != 0) {
            free(img);
            if (img_len == 0) return cli_fail("%s: empty: an update image is k x %u bytes", argv[i],
                                              ACCEL_TSP1_CHUNK_SIZE);
            return cli_fail("%s: %lu bytes, not a whole number of %u-byte NVM chunks", argv[i],
                            (unsigned long)img_len, ACCEL_TSP1_CHUNK_SIZE);
        }
    }
    if (bridge || replay) {
        const accel_port *bp = replay ? bt_replay_open("accel-tsp1", replay)
                                      : bt_open("accel-tsp1", bridge, capture);
        if (!bp) return 1;
        remote = 1;
        replaying = replay != NULL;
        c.bus.port = bp;
        c.bus.addr = (uint8_t)cs;
        c.bus.intb_line = 0;
        c.bus.wake_line = 1;
    } else if (spi) {
        accel_linux_init(&lx);
        snprintf(dev, sizeof dev, "/dev/spidev%u.%u", bus, cs);
        st = accel_linux_spi_open(&lx, bus, cs, 0, hz, 8);
        if (st != ACCEL_OK) return fail(dev, st);
        if (intb >= 0 || wake >= 0) {
            snprintf(dev, sizeof dev, "/dev/gpiochip%u", chip);
            st = accel_linux_gpio_open(&lx, chip);
            if (st == ACCEL_OK && intb >= 0) st = accel_linux_gpio_request_irq(&lx, 0, (uint32_t)intb, 1);
            if (st == ACCEL_OK && wake >= 0) st = accel_linux_gpio_request_output(&lx, 1, (uint32_t)wake, 0, 0);
            if (st != ACCEL_OK) return fail(dev, st);
        }
        accel_linux_port(&lx, &lport);
        c.bus.port = &lport;
        c.bus.addr = (uint8_t)cs;
        c.bus.intb_line = 0;
        c.bus.wake_line = 1;
    } else {
        accel_port mp;
        accel_sim_init(&sim);
        st = accel_tsp1_model_init(&model, model_mem, sizeof model_mem, 1024, 512, 4);
        if (st != ACCEL_OK) return fail("model", st);
        model.wake_line = 1;
        accel_tsp1_model_port(&model, &mp);
        accel_sim_attach(&sim, &mp);
        c.bus.port = &sim.port;
        c.bus.wake_line = 1;
    }
    c.mem = mem;
    c.mem_len = sizeof mem;
    c.depth = 8;
    c.cmd_payload = CMD_MAX;
    c.rsp_payload = 1088;
    /* real hardware: each run a different first TID and ECHO nonce (a capture replays only
       with the nonce it was recorded with: 0 on the other transports) */
    if (spi) c.nonce = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
    c.timeout_ms = 1000;
    c.auto_clear = 1;
    c.on_async = on_async;
    st = accel_tsp1_init(&s, &c);
    if (st != ACCEL_OK) return fail("open", st);
    if (!spi && !remote) {
        st = accel_tsp1_wait_ready(&s, 1000);
        if (st != ACCEL_OK) return fail("wait for ASYNC_READY", st);
    }
    /* on every transport: the device may have been running (an earlier run killed or timed
       out), with its commands still queued and answers waiting. The session takes no answer
       as its own before its synchronising ECHO comes back. */
    st = accel_tsp1_sync(&s, 1000);
    if (st != ACCEL_OK) return fail("session start", st);
    if (!strcmp(cmd, "echo") && i < argc) {
        uint8_t out[1088]; /* any answer the session takes (rsp_payload) */
        size_t len;
        size_t n = strlen(argv[i]);
        st = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, argv[i], n, out, sizeof out, &len, 1000);
        if (st != ACCEL_OK) return fail("echo", st);
        printf("echo: %.*s\n", (int)len, (const char *)out);
    } else if (!strcmp(cmd, "info")) {
        static const char *names[] = {"stopped", "running", "paused", "finished"};
        uint8_t k;
        for (k = 0; k < ACCEL_TSP1_MAX_NETS; k++) {
            accel_tsp1_nn_info in;
            st = accel_tsp1_nn_query(&s, k, &in, 1000);
            if (st != ACCEL_OK) return fail("nn info", st);
            if (!in.valid) break;
            printf("net %u: %u total, %u in (buffer %u), %u out (buffer %u), %s\n", in.idx,
                   in.n_total, in.n_in, in.buf_in0, in.n_out, in.buf_out0, names[in.state]);
        }
        if (k == 0) printf("no networks\n");
    } else if ((!strcmp(cmd, "start") || !strcmp(cmd, "stop")) && i < argc) {
        st = accel_tsp1_nn_scan(&s, NULL, 1000);
        if (st == ACCEL_OK)
            st = accel_tsp1_nn_control(&s, cmd[2] == 'a' ? ACCEL_TSP1_NN_START : ACCEL_TSP1_NN_STOP,
                                       mask, 1000);
        if (st != ACCEL_OK) return fail(cmd, st);
        printf("%s 0x%lx: ok\n", cmd, (unsigned long)mask);
    } else if (!strcmp(cmd, "update") && i < argc) {
        accel_tsp1_update u;
        memset(&u, 0, sizeof u);
        u.read = img_read;
        u.progress = progress;
        u.total = (uint32_t)img_len; /* checked above: below 4 GiB */
        st = accel_tsp1_update_run(&s, &u, 2000);
        free(img);
        if (st != ACCEL_OK) {
            fprintf(stderr, "failed at byte %lu\n", (unsigned long)u.position);
            return fail("update", st);
        }
        printf("update done%s\n", spi || remote ? "" : " (simulated device rebooted into the new image)");
    } else {
        return cli_usage(NULL); /* checked before the device was opened: never */
    }
    if (spi) accel_linux_close(&lx);
    if (remote) return bt_close(replaying);
    return 0;
}
