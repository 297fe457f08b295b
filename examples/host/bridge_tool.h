/* bridge_tool.h - what the host tools share to reach a device through the accel bridge
 * (ports/bridge): `--bridge DEV[,BAUD]` opens a serial line (ports/linux/accel_linux_serial.h)
 * and says hello; `--capture FILE` records the session; `--replay FILE` serves a recorded
 * session instead of a device (ports/bridge/accel_replay.h). Host tools only (stdio).
 * Built without nanopb (ACCEL_HAVE_BRIDGE unset) the options say so and fail. */
#ifndef ACCEL_BRIDGE_TOOL_H
#define ACCEL_BRIDGE_TOOL_H
#include "accel.h"
#include "accel_linux.h"
#include "accel_linux_serial.h"
#include "cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* each tool uses part of this */
#if defined(__GNUC__) || defined(__clang__)
#define BT_FN static __attribute__((unused))
#else
#define BT_FN static
#endif

/* `what` (e.g. "--bridge") given spec, "DEV[,BAUD]": into path (cap bytes) and *baud, or a
 * usage error (exit 2) that names the part at fault: a baud rate that is a number but not in
 * 1 .. 4294967295 is out of range, not a malformed spec. */
BT_FN void bt_serial_spec(const char *what, const char *spec, char *path, size_t cap,
                          uint32_t *baud)
{
    const char *comma = strchr(spec, ',');
    size_t i;
    int digits;
    accel_status st = accel_linux_serial_parse(spec, path, cap, baud);
    if (st == ACCEL_OK) return;
    if (st == ACCEL_E_BUFFER_TOO_SMALL)
        exit(cli_usage("%s: '%s': DEV is longer than %lu bytes", what, spec,
                       (unsigned long)(cap - 1u)));
    digits = comma && comma != spec && comma[1] != 0;
    for (i = 1; digits && comma[i]; i++) digits = comma[i] >= '0' && comma[i] <= '9';
    if (digits)
        exit(cli_usage("%s: '%s': BAUD %s is out of range (1 to 4294967295)", what, spec,
                       comma + 1));
    exit(cli_usage("%s: '%s' is not DEV[,BAUD]", what, spec));
}

#ifdef ACCEL_HAVE_BRIDGE
#include "accel_bridge_host.h"
#include "accel_replay.h"

static accel_linux_serial bt_ser;
static accel_bridge_host bt_host;
static accel_replay bt_replay;
static FILE *bt_cap;
static unsigned char *bt_rep_buf;

BT_FN accel_status bt_capture(void *user, const uint8_t *rec, size_t n)
{
    (void)user;
    return fwrite(rec, 1, n, bt_cap) == n ? ACCEL_OK : ACCEL_E_IO;
}

/* Open the bridge named by spec ("PATH[,BAUD]"), recording to capture_path when set. Returns the
 * port, or NULL after printing why. */
BT_FN const accel_port *bt_open(const char *tool, const char *spec, const char *capture_path)
{
    char path[256];
    uint32_t baud, frame_ms;
    accel_bridge_host_config c;
    accel_status st = accel_linux_serial_parse(spec, path, sizeof path, &baud);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: --bridge %s: want PATH[,BAUD] (%s)\n", tool, spec,
                accel_status_str(st));
        return NULL;
    }
    accel_linux_serial_init(&bt_ser);
    st = accel_linux_serial_open(&bt_ser, path, baud);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: %s: %s", tool, path, accel_status_str(st));
        if (bt_ser.last_errno) fprintf(stderr, " (errno %d: %s)", bt_ser.last_errno,
                                       strerror(bt_ser.last_errno));
        fprintf(stderr, "\n");
        return NULL;
    }
    if (capture_path) {
        bt_cap = fopen(capture_path, "wb");
        if (!bt_cap) {
            fprintf(stderr, "%s: %s: %s\n", tool, capture_path, strerror(errno));
            return NULL;
        }
    }
    memset(&c, 0, sizeof c);
    c.link.write = accel_linux_serial_write;
    c.link.read = accel_linux_serial_read;
    c.link.now_ms = accel_linux_now_ms;
    c.link.user = &bt_ser;
    if (bt_cap) {
        c.capture = bt_capture;
        c.capture_user = NULL;
    }
    /* the largest request and response frames go out and back in the answer time, twice over;
       the hello gets 2.5 s more: opening an Arduino's port resets the board */
    frame_ms = (uint32_t)(2u * 2u * ACCEL_BRIDGE_WIRE_SIZE(accel_bridge_Request_size + 4u) *
                          10u * 1000u / baud);
    c.answer_ms = 500;
    c.max_sends = 6;
    st = accel_bridge_host_open(&bt_host, &c);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: bridge hello on %s: %s\n", tool, path, accel_status_str(st));
        if (st == ACCEL_BRIDGE_E_VERSION)
            fprintf(stderr, "  (device speaks version %lu, this host %u)\n",
                    (unsigned long)bt_host.version, ACCEL_BRIDGE_VERSION);
        return NULL;
    }
    bt_host.answer_ms = 50u + frame_ms;
    bt_host.max_sends = 4;
    return &bt_host.port;
}

/* Serve a capture file instead of a device. Returns the port, or NULL after printing why. */
BT_FN const accel_port *bt_replay_open(const char *tool, const char *file)
{
    size_t n = 0;
    accel_status st;
    /* read whole, streamed (a pipe works); 1 GiB is far beyond any session */
    bt_rep_buf = cli_read_file(file, (size_t)1 << 30, &n);
    if (!bt_rep_buf) return NULL;
    if (n == 0) {
        fprintf(stderr, "%s: %s: empty: not a capture (record one with --bridge DEV --capture "
                        "FILE)\n", tool, file);
        free(bt_rep_buf);
        return NULL;
    }
    st = accel_replay_open(&bt_replay, bt_rep_buf, n);
    if (st != ACCEL_OK) {
        /* the exchange is named only when the reader got as far as one */
        if (bt_replay.diverged_at == ACCEL_REPLAY_NONE)
            fprintf(stderr, "%s: %s: not a bridge capture: %s\n", tool, file, accel_status_str(st));
        else
            fprintf(stderr, "%s: %s: not a bridge capture: %s at exchange %lu\n", tool, file,
                    accel_status_str(st), (unsigned long)bt_replay.diverged_at);
        free(bt_rep_buf);
        return NULL;
    }
    return &bt_replay.host.port;
}

/* After the command: the replay's verdict (0 matched, 1 diverged), or close the bridge. */
BT_FN int bt_close(int replaying)
{
    int rc = 0;
    if (replaying) {
        accel_status st = accel_replay_check(&bt_replay);
        if (st == ACCEL_OK) {
            printf("replay: all %lu exchanges matched\n", (unsigned long)bt_replay.index);
        } else {
            printf("replay: %s at exchange %lu\n", accel_status_str(st),
                   (unsigned long)bt_replay.diverged_at);
            rc = 1;
        }
        free(bt_rep_buf);
        return rc;
    }
    if (bt_host.stats.retries || bt_host.stats.link_timeouts)
        fprintf(stderr, "bridge: %lu requests, %lu retries, %lu given up\n",
                (unsigned long)bt_host.stats.requests, (unsigned long)bt_host.stats.retries,
                (unsigned long)bt_host.stats.link_timeouts);
    if (bt_cap) {
        if (fclose(bt_cap) != 0 || bt_host.stats.capture_errors) {
            fprintf(stderr, "capture: %lu record(s) not written\n",
                    (unsigned long)bt_host.stats.capture_errors);
            rc = 1;
        }
        bt_cap = NULL;
    }
    accel_linux_serial_close(&bt_ser);
    return rc;
}

/* What the bridge saw last, when it says more than the caller's status: a link failure, or
 * the device port's own error code. */
BT_FN void bt_explain(void)
{
    int own = bt_host.last_status <= ACCEL_BRIDGE_E_CAPTURE_END &&
              bt_host.last_status >= ACCEL_BRIDGE_E_LINK_TIMEOUT;
    if (own || bt_host.last_port_error)
        fprintf(stderr, "  (bridge: %s, device port error %ld)\n",
                accel_status_str(bt_host.last_status), (long)bt_host.last_port_error);
}
#else
BT_FN const accel_port *bt_open(const char *tool, const char *spec, const char *capture_path)
{
    (void)spec;
    (void)capture_path;
    fprintf(stderr, "%s: built without nanopb (libnanopb-dev): no --bridge\n", tool);
    return NULL;
}
BT_FN const accel_port *bt_replay_open(const char *tool, const char *file)
{
    (void)file;
    fprintf(stderr, "%s: built without nanopb (libnanopb-dev): no --replay\n", tool);
    return NULL;
}
BT_FN int bt_close(int replaying)
{
    (void)replaying;
    return 0;
}
BT_FN void bt_explain(void) {}
#endif
#endif
