/* accel_replay.h - the replay model: serves a bridge capture (recorded by accel_bridge_host with
 * capture set, e.g. `accel-tsp1 --bridge DEV --capture FILE`) to a driver, so a session seen on
 * real hardware runs again as a test with no hardware. Needs ports/bridge and nanopb.
 *
 * Usage:
 *   static accel_replay r;
 *   st = accel_replay_open(&r, capture_bytes, capture_len);   // serves the recorded hello
 *   accel_tsp1_init(&drv, ...&r.host.port...);                 // the driver as on hardware
 *   ... the same calls as in the recorded session ...
 *   st = accel_replay_check(&r);   // ACCEL_OK: every exchange matched and all were used
 *   if (st != ACCEL_OK) printf("diverged at exchange %lu\n", (unsigned long)r.diverged_at);
 *
 * Each port call becomes the request the bridge host would send; it is compared with the next
 * recorded request (sequence numbers and the hello's session id aside: they differ per run)
 * and answered with the recorded response, including recorded link failures. The first request
 * that differs stops the replay: that call and every later one return ACCEL_BRIDGE_E_DIVERGED,
 * and diverged_at is its exchange index (0 = the hello). Running past the end gives
 * ACCEL_BRIDGE_E_CAPTURE_END. The capture is read in place (the caller's buffer); no malloc. */
#ifndef ACCEL_REPLAY_H
#define ACCEL_REPLAY_H
#include "accel_bridge_host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_REPLAY_NONE 0xFFFFFFFFu

typedef struct accel_replay {
    accel_bridge_host host; /* give &r.host.port to the driver */
    const uint8_t *cap;
    size_t len, pos;        /* pos: offset of the next record */
    uint32_t index;         /* exchanges served so far */
    uint32_t diverged_at;   /* first exchange that did not match, or ACCEL_REPLAY_NONE */
    accel_status status;    /* ACCEL_OK until the replay stops: why it stopped */
    accel_bridge_Exchange ex;
    uint8_t enc_live[accel_bridge_Request_size], enc_rec[accel_bridge_Request_size];
} accel_replay;

/* Check the capture's info record (ACCEL_E_MALFORMED: not a capture; ACCEL_BRIDGE_E_VERSION:
 * another protocol version) and open the host side, which replays the recorded hello. */
accel_status accel_replay_open(accel_replay *r, const void *capture, size_t len);
/* After the session: ACCEL_OK when every call matched and the capture is used up; otherwise why
 * not (ACCEL_BRIDGE_E_DIVERGED also when exchanges are left over: diverged_at is the first). */
accel_status accel_replay_check(accel_replay *r);

#ifdef __cplusplus
}
#endif
#endif
