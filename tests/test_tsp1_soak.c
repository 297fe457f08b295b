/* test_tsp1_soak.c - the TSP1 driver against the device model for a long random run, with random
 * faults on the bus, every reported outcome checked against the model's own log.
 *
 *   test_tsp1_soak [COMMANDS]     default 50000 (make test); make soak runs 1,000,000
 *   ACCEL_TEST_SEED=n             replay a run (the seed is printed first)
 *
 * Each step picks at random: a command of any kind (ECHO, NN_INFO, NN_START/STOP/PAUSE/FINISH,
 * SECURE_UPDATE with chunks of a valid image or of garbage, CANCEL, FINISH, REBOOT, DEEP_SLEEP
 * then a wake), a pipelined batch, a blocking call, an async event raised on the device, a poll,
 * or a busy host that leaves the response buffer to fill. The run alternates phases without
 * faults and phases where every SPI transfer (and WAKE pulse) may be hit: a bit flip anywhere
 * (transaction header, frame header, payload, CRC, in either direction: a lost response), a byte
 * dropped or duplicated, a transfer truncated, failed, or stalled. Sessions change between
 * auto_clear on and off and between queue sizes.
 * The model's log says what it did with every command it received: ran (with the response it
 * sent), discarded in its error state, rejected as framing/checksum, wiped by a reboot or wake,
 * and which unread responses a reset cleared. A contradiction is any outcome that log denies:
 *   OK           the command ran and answered what it answers on success;
 *   ERR_x        the command ran and the device sent ERR_x for it;
 *   DISCARDED    the command did not run (discarded, wiped, or never arrived whole);
 *   UNKNOWN      only where the host could not know: a fault hit the bus from two deadlines
 *                before the command was sent until its outcome, a reset cleared its evidence
 *                (or the device slept with it unread), or a REBOOT/DEEP_SLEEP went out while
 *                the session had not seen the boot's ASYNC_READY;
 *   anything else (UNEXPECTED, a second outcome, an outcome for nothing sent, an ECHO answer
 *   with other bytes, an async message the device never emitted, a command never resolved).
 * Prints the commands, commands/s, the outcome histogram and the contradictions. */
#define _POSIX_C_SOURCE 199309L
/* only the tsp1 section (and common): the other sections are not needed, and their absence
   keeps this sanitized build short */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include <time.h>

#define T_MS 200u /* the driver's per-command deadline */

typedef struct {
    uint8_t pending;  /* submitted, no outcome yet */
    uint8_t sure;     /* REBOOT/DEEP_SLEEP sent while the session had seen ASYNC_READY */
    uint16_t id;
    uint16_t len;     /* ECHO payload length */
    uint32_t crc;     /* ECHO payload CRC */
    uint32_t sub_ms;
} rec_t;

static rec_t rec[65536];
static uint8_t fate[65536];       /* the model's first event for an intact frame with this TID */
static uint16_t fate_resp[65536];
static uint8_t rsp_wiped[65536];  /* a reset cleared an unread response with this TID */
static accel_status last_st[65536]; /* the outcome reported for it */
static uint32_t async_emitted[3][65536], async_seen[3][65536];

static accel_sim sim;
static accel_tsp1_model model;
static uint8_t mmem[8192];
static accel_port wport; /* the driver's port: sim.port behind a fault injector */
static accel_tsp1 s;
static accel_tsp1_pending pend[16];
static uint8_t rx[600], tx[600];

static uint32_t fault_permille;    /* chance per transfer, in 1/1000 */
static uint32_t faults, last_fault_ms, last_sleep_ms;
static unsigned long faults_total;
static int have_sleep;
static unsigned long contradictions, submitted, outcomes, strays;
static unsigned long hist[8]; /* OK, ERR_x, DISCARDED, UNKNOWN: fault, reset, not sure, other */
static unsigned long hist_err[8];
static unsigned long fault_kinds[7];
static unsigned long busy_refusals, rescue_wakes;
static uint32_t busy_since;
static int busy_streak;

/* TSP1_SOAK_TRACE=tid prints what happens to TIDs near it (debugging a contradiction). */
static long trace_tid = -1;
static int traced(uint16_t tid)
{
    return trace_tid >= 0 && (uint16_t)(tid - (uint16_t)trace_tid + 12u) < 16u;
}

static void contra(const char *what, uint16_t tid)
{
    contradictions++;
    if (contradictions <= 20)
        printf("  CONTRADICTION at %lu ms: %s (tid %u, cmd 0x%04X, fate %u resp 0x%04X)\n",
               (unsigned long)sim.now, what, tid, rec[tid].id, fate[tid], fate_resp[tid]);
}

/* ---------------------------------------------------------------- ground truth */
static void on_log(void *u, const accel_tsp1_model_event *e)
{
    (void)u;
    if (traced(e->tid) || (trace_tid >= 0 && e->what == ACCEL_TSP1_MODEL_ASYNC && e->id == ACCEL_TSP1_R_ASYNC_READY))
        printf("    %6lu ms model: event %u tid %u id 0x%04X resp 0x%04X\n", (unsigned long)sim.now,
               e->what, e->tid, e->id, e->resp);
    switch (e->what) {
    case ACCEL_TSP1_MODEL_RAN:
        /* the first event for a TID is its command's; a marker (same TID) comes second */
        if (!fate[e->tid]) {
            fate[e->tid] = e->what;
            fate_resp[e->tid] = e->resp;
        }
        if (e->id == ACCEL_TSP1_DEEP_SLEEP) {
            have_sleep = 1;
            last_sleep_ms = sim.now;
        }
        break;
    case ACCEL_TSP1_MODEL_DISCARDED:
        if (!fate[e->tid]) fate[e->tid] = e->what;
        break;
    case ACCEL_TSP1_MODEL_WIPED:
        if (e->id && !fate[e->tid]) fate[e->tid] = e->what;
        break;
    case ACCEL_TSP1_MODEL_RSP_WIPED:
        if (e->id < ACCEL_TSP1_R_ASYNC_READY) rsp_wiped[e->tid] = 1;
        break;
    case ACCEL_TSP1_MODEL_ASYNC:
        async_emitted[e->id - ACCEL_TSP1_R_ASYNC_READY][e->tid]++;
        break;
    default: break;
    }
}

static int fault_since(uint32_t ms)
{
    return faults && (int32_t)(last_fault_ms - ms) >= 0;
}

static void on_outcome(void *u, const accel_tsp1_outcome *o)
{
    rec_t *r = &rec[o->tid];
    (void)u;
    outcomes++;
    if (traced(o->tid))
        printf("    %6lu ms driver: outcome tid %u cmd 0x%04X %s\n", (unsigned long)sim.now, o->tid,
               o->cmd, accel_status_str(o->status));
    if (!r->pending) {
        contra("an outcome for nothing pending", o->tid);
        return;
    }
    r->pending = 0;
    last_st[o->tid] = o->status;
    if (o->cmd != r->id) contra("outcome for another command", o->tid);
    if (o->status == ACCEL_OK) {
        uint16_t want = r->id == ACCEL_TSP1_ECHO ? ACCEL_TSP1_R_DATA
                      : r->id == ACCEL_TSP1_NN_INFO ? ACCEL_TSP1_R_NN_INFO : 0;
        hist[0]++;
        if (fate[o->tid] != ACCEL_TSP1_MODEL_RAN || fate_resp[o->tid] != want)
            contra("OK, but the device did not run it successfully", o->tid);
        if (r->id == ACCEL_TSP1_ECHO &&
            (!o->resp || o->resp->n_bytes != r->len || accel_crc32(o->resp->payload, r->len) != r->crc))
            contra("OK with other bytes than were sent", o->tid);
    } else if (o->status <= ACCEL_E_TSP1_ERR_ARG && o->status >= ACCEL_E_TSP1_ERR_CRYPT) {
        uint16_t e = (uint16_t)(ACCEL_TSP1_R_ERR_ARG + (unsigned)(ACCEL_E_TSP1_ERR_ARG - o->status));
        hist[1]++;
        hist_err[e - ACCEL_TSP1_R_ERR_ARG]++;
        if (fate[o->tid] != ACCEL_TSP1_MODEL_RAN || fate_resp[o->tid] != e)
            contra("an error the device did not send for it", o->tid);
    } else if (o->status == ACCEL_E_TSP1_DISCARDED) {
        hist[2]++;
        if (fate[o->tid] == ACCEL_TSP1_MODEL_RAN) contra("DISCARDED, but it ran", o->tid);
    } else if (o->status == ACCEL_E_TSP1_UNKNOWN_OUTCOME) {
        /* the host could not know: a fault near it, or a reset took its evidence */
        if (fault_since(r->sub_ms - 2u * T_MS)) hist[3]++;
        else if (rsp_wiped[o->tid] || fate[o->tid] == ACCEL_TSP1_MODEL_WIPED ||
                 (have_sleep && (int32_t)(last_sleep_ms - r->sub_ms) >= 0))
            hist[4]++;
        else if ((r->id == ACCEL_TSP1_REBOOT || r->id == ACCEL_TSP1_DEEP_SLEEP) && !r->sure)
            hist[5]++;
        else {
            hist[6]++;
            contra("UNKNOWN where the host could have known", o->tid);
        }
    } else {
        hist[7]++;
        contra(accel_status_str(o->status), o->tid);
    }
}

static void on_async(void *u, const accel_tsp1_frame *f)
{
    (void)u;
    if (f->id >= ACCEL_TSP1_R_ASYNC_READY && f->id <= ACCEL_TSP1_R_ASYNC_ERR_NPU) {
        unsigned k = f->id - ACCEL_TSP1_R_ASYNC_READY;
        if (++async_seen[k][f->tid] > async_emitted[k][f->tid])
            contra("an async message the device did not send", f->tid);
    } else if (f->id == ACCEL_TSP1_R_DATA || f->id == ACCEL_TSP1_R_NN_INFO) {
        strays++; /* an answer after its command's deadline */
    } else {
        contra("an unknown response id", f->tid);
    }
}

/* ---------------------------------------------------------------- fault injection */
static void maybe_fault(unsigned op, size_t len)
{
    accel_sim_fault f;
    if (!fault_permille || tl_rand_below(1000) >= fault_permille) return;
    memset(&f, 0, sizeof f);
    f.ops = op;
    f.count = 1;
    if (op == ACCEL_SIM_OP_GPIO) {
        f.kind = ACCEL_SIM_FAIL;
    } else {
        f.kind = (accel_sim_fault_kind)(ACCEL_SIM_FLIP + tl_rand_below(6));
        if (f.kind == ACCEL_SIM_FLIP && tl_rand_below(2)) f.kind = ACCEL_SIM_FLIP; /* flips: most */
        f.dir = tl_rand_below(2) ? ACCEL_SIM_TO_DEVICE : ACCEL_SIM_FROM_DEVICE;
        f.at = len ? tl_rand_below((uint32_t)len) : 0;
        if (f.kind == ACCEL_SIM_TRUNCATE) f.at = tl_rand_below((uint32_t)len + 1u);
        f.mask = (uint8_t)(1u << tl_rand_below(8));
        f.status = ACCEL_E_IO;
        f.stall_ms = 1u + tl_rand_below(80);
    }
    if (trace_tid >= 0 && traced(s.next_tid))
        printf("    %6lu ms fault %u dir %u at %u on op %u len %u\n", (unsigned long)sim.now,
               f.kind, f.dir, (unsigned)f.at, op, (unsigned)len);
    fault_kinds[f.kind]++;
    faults++;
    faults_total++;
    last_fault_ms = sim.now;
    accel_sim_add_fault(&sim, &f);
}

/* A blocking call in progress: its command is recorded as soon as the driver names its TID
 * (s.w_tid, set once submit took it; the next thing the wait does is poll, which asks the
 * clock first). */
static int call_active, call_recorded;
static uint16_t call_id;
static uint8_t call_sure;
static const uint8_t *call_p;
static size_t call_n;
static void took(uint16_t tid, uint16_t id, const uint8_t *p, size_t n, uint8_t sure);
static void note_call(void)
{
    if (call_active && !call_recorded && s.w_tid != ACCEL_TSP1_TID_NONE) {
        call_recorded = 1;
        took(s.w_tid, call_id, call_p, call_n, call_sure);
    }
}

static accel_status w_spi(void *u, uint8_t cs, const uint8_t *t, uint8_t *r, size_t len,
                          unsigned flags)
{
    accel_status st;
    (void)u;
    note_call();
    maybe_fault(ACCEL_SIM_OP_SPI, len);
    st = sim.port.spi_transfer(sim.port.user, cs, t, r, len, flags);
    accel_sim_clear_faults(&sim);
    return st;
}
static accel_status w_gpio(void *u, unsigned line, unsigned level)
{
    accel_status st;
    (void)u;
    maybe_fault(ACCEL_SIM_OP_GPIO, 0);
    st = sim.port.gpio_set(sim.port.user, line, level);
    accel_sim_clear_faults(&sim);
    return st;
}
static accel_status w_irq(void *u, unsigned line, uint32_t ms)
{
    (void)u;
    return sim.port.wait_irq(sim.port.user, line, ms);
}
static uint32_t w_now(void *u)
{
    (void)u;
    note_call();
    return sim.port.now_ms(sim.port.user);
}
static void w_delay(void *u, uint32_t ms)
{
    (void)u;
    sim.port.delay_ms(sim.port.user, ms);
}

/* ---------------------------------------------------------------- the run */
static uint8_t image[144 * 3]; /* a valid image for the model: ends with its own CRC-32 */
static unsigned img_next;      /* next chunk of it to send */

static void open_session(void)
{
    accel_port mp;
    accel_tsp1_config c;
    uint16_t cmd_cap = (uint16_t)(200u + tl_rand_below(4) * 150u);
    uint16_t rsp_cap = (uint16_t)(48u + tl_rand_below(4) * 60u);
    accel_sim_init(&sim);
    CHECK_ST(accel_tsp1_model_init(&model, mmem, sizeof mmem, cmd_cap, rsp_cap, 4), ACCEL_OK);
    model.on_log = on_log;
    model.wake_line = 1;
    accel_tsp1_model_port(&model, &mp);
    accel_sim_attach(&sim, &mp);
    memset(&wport, 0, sizeof wport);
    wport.spi_transfer = w_spi;
    wport.gpio_set = w_gpio;
    wport.wait_irq = w_irq;
    wport.now_ms = w_now;
    wport.delay_ms = w_delay;
    memset(&c, 0, sizeof c);
    c.bus.port = &wport;
    c.bus.wake_line = 1;
    c.pending_mem = pend;
    c.pending_len = (4u + tl_rand_below(13)) * sizeof(accel_tsp1_pending);
    c.rx_mem = rx;
    c.rx_len = sizeof rx;
    c.tx_mem = tx;
    c.tx_len = sizeof tx;
    c.timeout_ms = T_MS;
    c.auto_clear = (uint8_t)tl_rand_below(2);
    c.on_outcome = on_outcome;
    c.on_async = on_async;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_OK);
    have_sleep = 0;
    faults = 0;
    memset(async_emitted, 0, sizeof async_emitted);
    memset(async_seen, 0, sizeof async_seen);
    /* a fault may take the boot's ASYNC_READY: the session then goes on not ready */
    (void)accel_tsp1_wait_ready(&s, 100);
}

static uint16_t last_call_tid;

/* Record a command the driver took (its marker, if any, carries the same TID). */
static void took(uint16_t tid, uint16_t id, const uint8_t *p, size_t n, uint8_t sure)
{
    rec_t *r = &rec[tid];
    if (r->pending) contra("a TID reused while pending", tid);
    last_call_tid = tid;
    r->pending = 1;
    r->id = id;
    r->sure = sure;
    r->sub_ms = sim.now;
    r->len = (uint16_t)n;
    r->crc = id == ACCEL_TSP1_ECHO ? accel_crc32(p, n) : 0;
    submitted++;
    if (traced(tid))
        printf("    %6lu ms driver: took tid %u cmd 0x%04X settled %u\n", (unsigned long)sim.now,
               tid, id, sure);
}

/* Clear what the log says about TIDs the driver may hand out next (they are reused every 65535
 * commands; a stale entry must not vouch for a new command). */
static void forget_ahead(void)
{
    unsigned k;
    for (k = 0; k < 64; k++) {
        uint16_t t = (uint16_t)(s.next_tid + k);
        if (rec[t].pending) continue;
        fate[t] = 0;
        fate_resp[t] = 0;
        rsp_wiped[t] = 0;
    }
}

/* One random command: through submit, or (blocking) through call. */
static void one_command(int blocking)
{
    uint8_t p[2 * 144];
    size_t n = 0, i;
    uint16_t id, tid = 0;
    accel_status st;
    uint32_t a = tl_rand_below(100);
    uint8_t sure = s.settled;
    if (a < 30) {
        id = ACCEL_TSP1_ECHO;
        n = tl_rand_below(4) ? tl_rand_below(12) : tl_rand_below(60);
        for (i = 0; i < n; i++) p[i] = (uint8_t)tl_rand();
    } else if (a < 42) {
        id = ACCEL_TSP1_NN_INFO;
        n = 4;
        memset(p, 0, 4);
        p[0] = (uint8_t)tl_rand_below(36); /* 32 and up: ERR_ARG */
    } else if (a < 62) {
        uint32_t m = tl_rand_below(10) ? tl_rand_below(16) : tl_rand();
        id = (uint16_t)(ACCEL_TSP1_NN_START + tl_rand_below(4));
        n = 4;
        if (ACCEL_TSP1_BIG_ENDIAN) accel_store_u32be(p, m);
        else accel_store_u32le(p, m);
    } else if (a < 74) {
        id = ACCEL_TSP1_SECURE_UPDATE;
        n = 144u * (1u + tl_rand_below(2));
        if (tl_rand_below(3)) { /* the image's next chunks, in order */
            if (img_next >= 3) img_next = 0;
            if (n > 144u * (3u - img_next)) n = 144u * (3u - img_next);
            memcpy(p, image + 144u * img_next, n);
            img_next += (unsigned)(n / 144u);
        } else {
            for (i = 0; i < n; i++) p[i] = (uint8_t)tl_rand();
        }
    } else if (a < 80) {
        id = ACCEL_TSP1_SECURE_UPDATE_CANCEL;
        img_next = 0;
    } else if (a < 87) {
        id = ACCEL_TSP1_SECURE_UPDATE_FINISH;
    } else if (a < 94) {
        id = ACCEL_TSP1_REBOOT;
    } else {
        id = ACCEL_TSP1_DEEP_SLEEP;
    }
    forget_ahead();
    if (blocking && id != ACCEL_TSP1_DEEP_SLEEP) {
        /* a blocking call: when it returns an outcome, it is the one reported */
        uint8_t out[64];
        size_t len = 0;
        call_active = 1;
        call_recorded = 0;
        call_id = id;
        call_p = p;
        call_n = n;
        call_sure = sure;
        st = accel_tsp1_call(&s, id, p, n, out, sizeof out, &len, T_MS + 50u);
        note_call();
        call_active = 0;
        if (!call_recorded) return; /* refused before anything was sent */
        /* other returns (the caller's deadline, a bus error while polling) leave it pending */
        if (st == ACCEL_OK || st == ACCEL_E_TSP1_DISCARDED || st == ACCEL_E_TSP1_UNKNOWN_OUTCOME ||
            st == ACCEL_E_TSP1_UNEXPECTED ||
            (st <= ACCEL_E_TSP1_ERR_ARG && st >= ACCEL_E_TSP1_ERR_FRAMING)) {
            uint16_t t = last_call_tid;
            if (rec[t].pending) contra("a blocking call returned before its outcome", t);
            else if (last_st[t] != st) contra("a blocking call returned another status", t);
            else if (st == ACCEL_OK && id == ACCEL_TSP1_ECHO &&
                     (len != n || memcmp(out, p, n) != 0))
                contra("a blocking ECHO copied other bytes", t);
        }
        return;
    }
    if (id == ACCEL_TSP1_DEEP_SLEEP && !accel_ring_count(&s.pend) && tl_rand_below(2)) {
        /* the blocking helper: it returns once the device took the command */
        tid = s.next_tid;
        st = accel_tsp1_sleep(&s, T_MS);
        if (accel_ring_count(&s.pend) && accel__tsp1_at(&s, 0)->tid == tid) took(tid, id, p, 0, sure);
        return;
    }
    st = accel_tsp1_submit(&s, id, p, n, &tid);
    if (st == ACCEL_OK) took(tid, id, p, n, sure);
    else if (st == ACCEL_E_TSP1_ERROR_STATE) (void)accel_tsp1_clear_error(&s); /* may fail: later */
    if (st == ACCEL_E_BUSY) {
        busy_refusals++;
        if (!busy_streak++) busy_since = sim.now;
    } else {
        busy_streak = 0;
    }
}

int main(int argc, char **argv)
{
    unsigned long want = argc > 1 ? strtoul(argv[1], NULL, 10) : 50000ul;
    unsigned long step = 0, next_phase = 0, sessions = 0;
    uint32_t seed = tl_seed(12);
    struct timespec t0, t1;
    double secs;
    unsigned i;
    (void)seed;
    if (getenv("TSP1_SOAK_TRACE")) trace_tid = strtol(getenv("TSP1_SOAK_TRACE"), NULL, 0);
    for (i = 0; i < sizeof image - 4; i++) image[i] = (uint8_t)(i * 13u + 1u);
    accel_store_u32le(image + sizeof image - 4, accel_crc32(image, sizeof image - 4));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    open_session();
    sessions++;
    while (submitted < want) {
        uint32_t a;
        if (step++ >= next_phase) { /* phases: clean, light faults, heavy faults */
            uint32_t ph = tl_rand_below(3);
            fault_permille = ph == 0 ? 0u : ph == 1 ? 5u : 40u;
            next_phase = step + 2000u + tl_rand_below(4000);
        }
        if (s.asleep) { /* a DEEP_SLEEP went out: wake the device before anything else */
            accel_sim_advance(&sim, 1u + tl_rand_below(5));
            (void)accel_tsp1_poll(&s); /* a failure shows in what follows */
            if (accel_ring_count(&s.pend) <= 1 || tl_rand_below(4) == 0)
                (void)accel_tsp1_wake(&s, T_MS); /* on failure the DEEP_SLEEP ends unknown */
            continue;
        }
        /* a device that takes nothing for long, with nothing pending: it may have gone to sleep
           after a wake pulse that came too early. A user would pulse WAKE again. */
        if (busy_streak && !accel_ring_count(&s.pend) && sim.now - busy_since > 2u * T_MS) {
            rescue_wakes++;
            busy_streak = 0;
            (void)accel_tsp1_wake(&s, T_MS); /* its status: the next commands tell */
            continue;
        }
        if (tl_rand_below(500) == 0) { /* NVM and header failures ahead in the update */
            model.mem_fail_chunk = 1u + tl_rand_below(3);
            model.arg_fail_chunk = tl_rand_below(2) ? 0u : 1u + tl_rand_below(3);
        }
        a = tl_rand_below(100);
        if (a < 45) {
            one_command(0);
        } else if (a < 50) { /* a pipelined batch */
            unsigned k = 2u + tl_rand_below(6);
            while (k--) one_command(0);
        } else if (a < 53) {
            one_command(1);
        } else if (a < 56) {
            (void)accel_tsp1_model_raise(&model, (uint16_t)(ACCEL_TSP1_R_ASYNC_ERR_ECC +
                                                            tl_rand_below(2)));
        } else if (a < 58) { /* a busy host: the response buffer fills */
            accel_sim_advance(&sim, 5u + tl_rand_below(30));
        } else {
            accel_status st = accel_tsp1_poll(&s);
            if (st == ACCEL_E_TSP1_ERROR_STATE) (void)accel_tsp1_clear_error(&s); /* retried */
            accel_sim_advance(&sim, tl_rand_below(4));
        }
        if (tl_rand_below(20000) == 0 && !accel_ring_count(&s.pend)) { /* a new session */
            open_session();
            sessions++;
        }
    }
    /* drain: no more faults, wake a sleeping device, resolve everything */
    fault_permille = 0;
    for (i = 0; i < 2000 && (accel_ring_count(&s.pend) || s.asleep); i++) {
        if (s.asleep) (void)accel_tsp1_wake(&s, T_MS);
        if (accel_tsp1_poll(&s) == ACCEL_E_TSP1_ERROR_STATE) (void)accel_tsp1_clear_error(&s);
        accel_sim_advance(&sim, 1);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (i = 0; i < 65536; i++)
        if (rec[i].pending) contra("never resolved", (uint16_t)i);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("tsp1 soak: %lu commands in %lu sessions, %.1f s, %.0f commands/s\n", submitted,
           sessions, secs, (double)submitted / (secs > 0 ? secs : 1));
    printf("faults injected: %lu (flip %lu, drop %lu, dup %lu, truncate %lu, fail %lu, stall %lu)\n",
           faults_total, fault_kinds[ACCEL_SIM_FLIP], fault_kinds[ACCEL_SIM_DROP],
           fault_kinds[ACCEL_SIM_DUP], fault_kinds[ACCEL_SIM_TRUNCATE], fault_kinds[ACCEL_SIM_FAIL],
           fault_kinds[ACCEL_SIM_STALL]);
    printf("outcomes: OK %lu, ERR_* %lu (ARG %lu BUSY %lu LEN %lu MEM %lu CRYPT %lu), DISCARDED %lu,\n"
           "  UNKNOWN_OUTCOME %lu (fault nearby %lu, evidence cleared by a reset %lu, reset sent before"
           " ASYNC_READY %lu), other %lu; strays %lu\n",
           hist[0], hist[1], hist_err[0], hist_err[1], hist_err[2], hist_err[3], hist_err[4], hist[2],
           hist[3] + hist[4] + hist[5] + hist[6], hist[3], hist[4], hist[5], hist[7], strays);
    printf("full command buffer refusals %lu, wakes of a device that slept unseen %lu\n",
           busy_refusals, rescue_wakes);
    printf("contradictions: %lu\n", contradictions);
    tl_case = "soak";
    CHECK_EQ(contradictions, 0);
    CHECK_EQ(outcomes, submitted); /* exactly one outcome each */
    if (tl_case_failed) tl_failed++;
    else tl_passed++;
    return TEST_END();
}
