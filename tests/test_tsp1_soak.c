/* test_tsp1_soak.c - the TSP1 driver against the device model for a long random run, with random
 * faults on the bus, every reported outcome checked against the model's own log.
 *
 *   test_tsp1_soak [COMMANDS]     default 50000 (make test); make soak runs 1,000,000
 *   ACCEL_TEST_SEED=n             replay a run (the seed is printed first)
 *
 * Each step picks at random: a command of any kind (ECHO, NN_INFO, NN_START/STOP/PAUSE/FINISH,
 * SECURE_UPDATE with chunks of a valid image or of garbage, CANCEL, FINISH, REBOOT, DEEP_SLEEP
 * then a wake), a pipelined batch, a blocking call, an async event raised on the device, a poll,
 * or a busy host that leaves the response buffer to fill, a host that polls only after the
 * deadline, a host spinning on BUSY (tens of thousands of refused submits while the device's
 * command buffer is full), a blocking reboot whose ROM/firmware verdict is checked against the
 * model, ECHO payloads that hold valid response frames naming pending or next TIDs. The run
 * alternates phases without faults and phases where every SPI transfer (and WAKE pulse) may be
 * hit: a bit flip anywhere (transaction header, frame header, payload, CRC, register values, in
 * either direction: a lost response), a byte dropped or duplicated, a transfer truncated,
 * failed, or stalled. Host sessions end and new ones start on the same running device: between
 * calls with commands still queued and answers still waiting, or killed inside a transfer
 * (a command half written, a response half read); now and then the device is power-cycled.
 * Sessions change between auto_clear on and off (with auto_clear the host never clears by
 * hand), receive buffer and queue sizes; half the devices send 36 to 88 bytes of detail with
 * every error, more than a small receive buffer holds. At every phase change a liveness probe: with the bus
 * quiet, an ECHO must succeed within a bounded time (waking the device, clearing by hand only
 * without auto_clear).
 * The model's log says what it did with every command it received: ran (with the response it
 * sent), discarded in its error state, rejected as framing/checksum, wiped by a reboot or wake,
 * and which unread responses a reset cleared. A contradiction is any outcome that log denies:
 *   OK           the command ran and answered what it answers on success;
 *   ERR_x        the command ran and the device sent ERR_x for it;
 *   DISCARDED    the command did not run (discarded, wiped, or never arrived whole);
 *   UNKNOWN      only where the host could not know: a fault hit the bus from two deadlines
 *                before the command was sent until its outcome, a reset cleared its evidence
 *                (or the device slept with it unread), a REBOOT/DEEP_SLEEP went out while
 *                the session had not seen the boot's ASYNC_READY, it never ran (discarded in
 *                an error state whose cause the host never saw), or an error answering a
 *                command already ended decided it; never with its answer already waiting,
 *                and never because it waited in the device's command buffer (a full response
 *                buffer, a slow device) past its deadline;
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
#include <setjmp.h>

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
static uint8_t evid[65536];       /* the device placed the answer (or marker answer) for it */
static uint32_t last_ignored_ms;  /* a write was not taken (booting, asleep) */
static int have_ignored;
static uint8_t old_tid[65536];    /* an ended session's command may still run with this TID */
static uint8_t ended[65536];      /* an outcome was reported for it (a late answer is stray) */
static accel_status last_st[65536]; /* the outcome reported for it */
static uint32_t async_emitted[3][65536], async_seen[3][65536];

static accel_sim sim;
static accel_tsp1_model model;
static uint8_t mmem[8192];
static accel_port wport; /* the driver's port: sim.port behind a fault injector */
static accel_tsp1 s;
static uint32_t dmem[(ACCEL_TSP1_DRIVER_MEM(16, 576, 588) + 3) / 4]; /* the driver's */

static uint32_t fault_permille;    /* chance per transfer, in 1/1000 */
static uint32_t foreign_clear_ms; /* another host's CLEAR_ERROR ran */
static unsigned long foreign_echo_ran, foreign_echo_seen; /* its ECHOs run, their answers read */
static int have_foreign, have_foreign_wipe;
static uint32_t foreign_wipe_ms;
static uint32_t last_rsp_wipe_ms; /* a reset cleared unread answers */
static int have_rsp_wipe;
static unsigned long hist_foreign;
static uint32_t faults, last_fault_ms, last_sleep_ms;
static unsigned long faults_total;
static int have_sleep;
static unsigned long contradictions, submitted, outcomes, strays;
static unsigned long hist[8]; /* OK, ERR_x, DISCARDED, UNKNOWN: fault, reset, not sure, other */
static unsigned long hist_err[8];
static unsigned long fault_kinds[7];
static unsigned long busy_refusals, rescue_wakes, spins, spin_refusals, late_polls, kills,
    mid_kills, restarts, probes, lost_liveness, reboot_checks, embedded, too_big,
    hist_stray_err, reboot_unready, sleep_timeouts, hist_unseen, backlogs, big_waiting, updates,
    updates_ok, foreign_clears, devices, cut_errors;
static int have_old;
static unsigned long stale_total;
static jmp_buf kill_env;
static int fw_armed;
static uint8_t fw_rom, fw_ready;
static int kill_armed;
static uint32_t next_nonce = 0x2468ACE1u;
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
static int multi_active; /* inside update_run / nn_control: every command it writes is recorded */
static int upd_written;  /* a FINISH or CANCEL was written in this call */
static int finished_image; /* the device holds a FINISHed image, not yet rebooted into */
static unsigned long pending_resumes, resumes, stale_masks;
static uint8_t rec_seen[65536]; /* the TID's pending entry was recorded in this call */
/* the model's events in order: the last error it produced, another host's last CLEAR_ERROR,
   and per TID the last error produced before its command ran */
static uint32_t log_seq, last_err_seq, foreign_clear_seq, err_before_run[65536];
static void on_log(void *u, const accel_tsp1_model_event *e)
{
    (void)u;
    log_seq++;
    if ((e->what == ACCEL_TSP1_MODEL_RAN || e->what == ACCEL_TSP1_MODEL_REJECTED) &&
        accel_tsp1_kind_of(e->resp) == ACCEL_TSP1_KIND_ERROR)
        last_err_seq = log_seq;
    if (traced(e->tid) || (trace_tid >= 0 && e->what == ACCEL_TSP1_MODEL_ASYNC && e->id == ACCEL_TSP1_R_ASYNC_READY))
        printf("    %6lu ms model: event %u tid %u id 0x%04X resp 0x%04X\n", (unsigned long)sim.now,
               e->what, e->tid, e->id, e->resp);
    /* the spec: a partially received command is discarded and an error is produced */
    if (e->what == ACCEL_TSP1_MODEL_REJECTED && !e->resp)
        contra("the device dropped a rejected piece without an error", e->tid);
    /* the new session's synchronising ECHO ran: everything of the ended session ran before */
    if (have_old && e->what == ACCEL_TSP1_MODEL_RAN && e->id == ACCEL_TSP1_ECHO) {
        size_t i;
        accel_tsp1_pending *q;
        for (i = 0; (q = accel__tsp1_at(&s, i)) != NULL; i++)
            if (q->tid == e->tid && (q->flags & ACCEL__TSP1_SYNC)) {
                memset(old_tid, 0, sizeof old_tid);
                have_old = 0;
                break;
            }
    }
    /* the other host's frames carry TID_NONE, which the driver never uses */
    if (e->tid == ACCEL_TSP1_TID_NONE && e->what != ACCEL_TSP1_MODEL_ASYNC) {
        if (e->what == ACCEL_TSP1_MODEL_RAN && e->id == ACCEL_TSP1_CLEAR_ERROR) {
            foreign_clear_ms = sim.now;
            foreign_clear_seq = log_seq;
            have_foreign = 1;
        }
        if (e->what == ACCEL_TSP1_MODEL_RAN && e->id == ACCEL_TSP1_ECHO) foreign_echo_ran++;
        /* its ECHO's answer (the one trace the driver can see) cleared unread or never made */
        if (e->what == ACCEL_TSP1_MODEL_RSP_WIPED || e->what == ACCEL_TSP1_MODEL_WIPED ||
            e->what == ACCEL_TSP1_MODEL_DISCARDED)
            foreign_wipe_ms = sim.now, have_foreign_wipe = 1;
        return;
    }
    if (old_tid[e->tid] && e->what != ACCEL_TSP1_MODEL_ASYNC) return; /* an ended session's */
    switch (e->what) {
    case ACCEL_TSP1_MODEL_RAN:
        /* the first event for a TID is its command's; a marker (same TID) comes second */
        if (!fate[e->tid]) {
            fate[e->tid] = e->what;
            fate_resp[e->tid] = e->resp;
            err_before_run[e->tid] = last_err_seq;
            if (e->resp) evid[e->tid] = 1;
        } else if (e->id == ACCEL_TSP1_ECHO && e->resp == ACCEL_TSP1_R_DATA) {
            evid[e->tid] = 1; /* the marker's answer */
        }
        if (e->id == ACCEL_TSP1_DEEP_SLEEP) {
            have_sleep = 1;
            last_sleep_ms = sim.now;
        }
        /* a FINISHed image lives until a reboot; update_run must never CANCEL it */
        if (e->id == ACCEL_TSP1_SECURE_UPDATE_FINISH && !e->resp && multi_active && rec_seen[e->tid])
            finished_image = 1; /* update_run's own FINISH */
        if (e->id == ACCEL_TSP1_REBOOT) finished_image = 0;
        if (e->id == ACCEL_TSP1_SECURE_UPDATE_CANCEL && finished_image && rec_seen[e->tid] &&
            multi_active)
            contra("update_run cancelled a finished image (the device will boot its ROM)", e->tid);
        if (e->id == ACCEL_TSP1_SECURE_UPDATE_CANCEL) finished_image = 0;
        break;
    case ACCEL_TSP1_MODEL_DISCARDED:
        if (!fate[e->tid]) fate[e->tid] = e->what;
        break;
    case ACCEL_TSP1_MODEL_WIPED:
        if (e->id && !fate[e->tid]) fate[e->tid] = e->what;
        break;
    case ACCEL_TSP1_MODEL_IGNORED: /* a write the device did not take (booting, asleep) */
        last_ignored_ms = sim.now;
        have_ignored = 1;
        break;
    case ACCEL_TSP1_MODEL_RSP_WIPED:
        if (e->id < ACCEL_TSP1_R_ASYNC_READY) rsp_wiped[e->tid] = 1;
        last_rsp_wipe_ms = sim.now;
        have_rsp_wipe = 1;
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

/* Another host's CLEAR_ERROR ran after this command was sent: its outcome may be one the driver
 * cannot know (one session per device is the rule). `hidden`: and nothing of it has reached
 * the driver yet (its ECHO's answer is the one trace it can see: until it is read, or when a
 * reset, a sleep or a fault takes it, the driver cannot tell). */
static int foreign_hidden(void)
{
    if (foreign_echo_seen >= foreign_echo_ran) return 0; /* every answer of it was read */
    /* not read yet: excused only where it cannot be (cleared, never made, taken by a fault, or
       the device not up to be read); the driver waits until nothing more can come */
    return (have_foreign_wipe && (int32_t)(foreign_wipe_ms - foreign_clear_ms) >= 0) ||
           fault_since(foreign_clear_ms) || model.power != ACCEL_TSP1_MODEL_READY;
}
static int foreign_since(uint32_t sub_ms, int hidden)
{
    if (!have_foreign || (int32_t)(foreign_clear_ms - sub_ms) < 0) return 0;
    return !hidden || foreign_hidden();
}

/* A command sent after a command that failed, before the driver read that error, ran: another
 * host's CLEAR_ERROR came between the last error before it ran and its run (maybe before it was
 * sent, which foreign_since does not count). `hidden`: as for foreign_since. */
static int foreign_between(uint16_t tid, int hidden)
{
    return have_foreign && foreign_clear_seq > err_before_run[tid] && (!hidden || foreign_hidden());
}

static void on_outcome(void *u, const accel_tsp1_outcome *o)
{
    rec_t *r = &rec[o->tid];
    (void)u;
    outcomes++;
    if (traced(o->tid))
        printf("    %6lu ms driver: outcome tid %u cmd 0x%04X %s (resp 0x%04X tid %u)\n",
               (unsigned long)sim.now, o->tid, o->cmd, accel_status_str(o->status),
               o->resp ? o->resp->id : 0u, o->resp ? o->resp->tid : 0u);
    if (!r->pending) {
        contra("an outcome for nothing pending", o->tid);
        return;
    }
    r->pending = 0;
    ended[o->tid] = 1;
    last_st[o->tid] = o->status;
    if (o->cmd != r->id) contra("outcome for another command", o->tid);
    if (o->resp && o->resp->cut) cut_errors++;
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
        if (fate[o->tid] == ACCEL_TSP1_MODEL_RAN) {
            if (foreign_since(r->sub_ms, 1) || foreign_between(o->tid, 1))
                hist_foreign++; /* undetectable: evidence gone */
            else contra("DISCARDED, but it ran", o->tid);
        }
    } else if (o->status == ACCEL_E_TSP1_UNKNOWN_OUTCOME) {
        /* the host could not know: a fault near it, or a reset took its evidence */
        if (fault_since(r->sub_ms - 2u * T_MS)) hist[3]++;
        else if (rsp_wiped[o->tid] || fate[o->tid] == ACCEL_TSP1_MODEL_WIPED ||
                 /* a reset since it was sent cleared answers unread: a frame being read may
                    have been cut, and what follows the cut is not matched while a long ECHO
                    may still be answered (its ASYNC_READY among it) */
                 (have_rsp_wipe && (int32_t)(last_rsp_wipe_ms - r->sub_ms) >= 0 &&
                  (r->id == ACCEL_TSP1_REBOOT || r->id == ACCEL_TSP1_DEEP_SLEEP)) ||
                 (have_sleep && (int32_t)(last_sleep_ms - r->sub_ms) >= 0))
            hist[4]++;
        else if ((r->id == ACCEL_TSP1_REBOOT || r->id == ACCEL_TSP1_DEEP_SLEEP) && !r->sure)
            hist[5]++;
        else if (o->resp && (o->resp->id == ACCEL_TSP1_R_ERR_CHECKSUM ||
                             o->resp->id == ACCEL_TSP1_R_ERR_FRAMING) &&
                 fault_since(r->sub_ms - 5u * T_MS))
            hist[3]++; /* a rejected piece's error, held up behind a stalled queue */
        else if (!evid[o->tid] && fate[o->tid] != ACCEL_TSP1_MODEL_RAN)
            hist_unseen++; /* it never ran: discarded in an error state whose cause the host
                              never saw as the answer of a pending command (a lost error, an
                              ended session's). A command that ran is never excused this way:
                              its deadline counts only once its answer cannot be waiting */
        else if (foreign_since(r->sub_ms, 0) || (fate[o->tid] == ACCEL_TSP1_MODEL_RAN &&
                                                 foreign_between(o->tid, 0)))
            hist_foreign++; /* another host's CLEAR_ERROR: nobody can know */
        else if (o->resp && o->resp->tid != o->tid && ended[o->resp->tid] &&
                 accel_tsp1_kind_of(o->resp->id) == ACCEL_TSP1_KIND_ERROR)
            hist_stray_err++; /* an error of a command already ended: whose effect is unknown */
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
    } else if (f->id == ACCEL_TSP1_R_DATA && f->tid == ACCEL_TSP1_TID_NONE) {
        foreign_echo_seen++; /* the other host's ECHO answer */
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
static int sleep_active; /* inside accel_tsp1_sleep: its DEEP_SLEEP is recorded once written */
static void note_call(void)
{
    size_t i;
    accel_tsp1_pending *p;
    if (multi_active)
        for (i = 0; (p = accel__tsp1_at(&s, i)) != NULL; i++)
            if (!(p->flags & ACCEL__TSP1_INTERNAL) && !rec[p->tid].pending && !rec_seen[p->tid]) {
                rec_seen[p->tid] = 1;
                if (p->id == ACCEL_TSP1_SECURE_UPDATE_FINISH || p->id == ACCEL_TSP1_SECURE_UPDATE_CANCEL)
                    upd_written = 1;
                took(p->tid, p->id, NULL, 0, (uint8_t)(p->flags & ACCEL__TSP1_SURE));
            }
    if (sleep_active && call_active && !call_recorded)
        for (i = 0; (p = accel__tsp1_at(&s, i)) != NULL; i++)
            if (p->id == ACCEL_TSP1_DEEP_SLEEP) {
                call_recorded = 1;
                took(p->tid, ACCEL_TSP1_DEEP_SLEEP, NULL, 0, call_sure);
            }
    if (!call_active || call_recorded || s.w_tid == ACCEL_TSP1_TID_NONE) return;
    for (i = 0; (p = accel__tsp1_at(&s, i)) != NULL; i++)
        if (p->tid == s.w_tid && p->id == call_id) {
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
    if (kill_armed && tl_rand_below(8) == 0) {
        /* the host program dies inside this transfer: part of it reaches the device, chip
           select goes high, the session is gone */
        size_t part = len ? tl_rand_below((uint32_t)len) : 0;
        (void)sim.port.spi_transfer(sim.port.user, cs, t, r, part, 0);
        mid_kills++;
        longjmp(kill_env, 1);
    }
    maybe_fault(ACCEL_SIM_OP_SPI, len);
    st = sim.port.spi_transfer(sim.port.user, cs, t, r, len, flags);
    accel_sim_clear_faults(&sim);
    /* the firmware-version value just read: what the device was running then (a stalled
       transfer lets time pass, and a queued REBOOT may run after it) */
    if (fw_armed && r && len == 4) {
        if (getenv("TSP1_SOAK_FW"))
            printf("    %6lu ms fw read %02x%02x%02x%02x rom %u power %u faults %u\n",
                   (unsigned long)sim.now, r[3], r[2], r[1], r[0], model.rom, model.power,
                   (unsigned)faults);
        fw_rom = model.rom;
        fw_ready = model.power == ACCEL_TSP1_MODEL_READY;
    }
    fw_armed = t && len >= 2 && t[0] == ACCEL_TSP1_SPI_OP_REG_READ &&
               t[1] == ACCEL_TSP1_REG_FW_VERSION;
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

/* accel_tsp1_wake, checked: with no fault since it began, a wake that gives up must not leave
 * the device asleep (it pulsed before the device took the DEEP_SLEEP: the device then sleeps
 * while the session takes it to be awake). */
static accel_status soak_wake(void)
{
    uint32_t t0 = sim.now;
    unsigned long f0 = faults_total;
    accel_status st = accel_tsp1_wake(&s, T_MS);
    if (st != ACCEL_OK && faults_total == f0 && !fault_since(t0) &&
        model.power == ACCEL_TSP1_MODEL_ASLEEP && !s.asleep)
        contra("wake gave up on a device that went to sleep after its pulse", 0);
    return st;
}

/* ---------------------------------------------------------------- the run */
static uint8_t image[144 * 3]; /* a valid image for the model: ends with its own CRC-32 */
static unsigned img_next;      /* next chunk of it to send */
static accel_status img_read(void *u, uint32_t off, uint8_t *dst, size_t n)
{
    (void)u;
    if (off + n > sizeof image) return ACCEL_E_TRUNCATED;
    memcpy(dst, image + off, n);
    return ACCEL_OK;
}

/* A new host session. power: a new device too (power cycle); otherwise the device keeps running
 * with whatever the ended session left queued or unread: those TIDs are the old session's until
 * the new one is synchronised (everything of the old one ran before its synchronising ECHO). */
static void open_session(int power)
{
    accel_port mp;
    accel_tsp1_config c;
    uint16_t cmd_cap = (uint16_t)(200u + tl_rand_below(4) * 150u);
    /* one device in three (the second, fifth, ...: every run meets one) has a response buffer
       larger than a poll reads (4 KiB) */
    uint16_t rsp_cap = (uint16_t)(devices % 3u != 1u ? 48u + tl_rand_below(4) * 60u : 5000u);
    uint8_t detail = (uint8_t)(36u + tl_rand_below(3) * 26u);
    static const uint16_t rsp_sizes[5] = {20, 52, 116, 288, 588};
    unsigned k;
    uint16_t from = s.next_tid;
    if (rsp_cap > 4096u) cmd_cap = 650u; /* room for its big ECHOs */
    /* and some so small that two async messages leave no room for a command to complete */
    if (rsp_cap == 48u && tl_rand_below(2)) rsp_cap = 36u;
    stale_total += s.stale;
    for (k = 0; k < 65536u; k++)
        if (rec[k].pending) { /* abandoned with the session: never an outcome */
            rec[k].pending = 0;
            old_tid[k] = 1;
            submitted--;
        }
    for (k = 0; k < 80u; k++) old_tid[(uint16_t)(from - 64u + k)] = 1; /* sent, not recorded */
    if (power) {
        memset(old_tid, 0, sizeof old_tid);
        accel_sim_init(&sim);
        CHECK_ST(accel_tsp1_model_init(&model, mmem, sizeof mmem, cmd_cap, rsp_cap, 4), ACCEL_OK);
        devices++;
        /* half the devices send error detail (36..88 bytes: longer than a small receive buffer
           holds), where it leaves room for an error and the three async messages */
        if (tl_rand_below(2) && 16u + detail + 3u * ACCEL_TSP1_OVERHEAD <= rsp_cap)
            model.err_detail = detail;
        model.on_log = on_log;
        model.wake_line = 1;
        accel_tsp1_model_port(&model, &mp);
        accel_sim_attach(&sim, &mp);
        memset(async_emitted, 0, sizeof async_emitted);
        memset(async_seen, 0, sizeof async_seen);
        have_sleep = 0;
        faults = 0;
    }
    memset(&wport, 0, sizeof wport);
    wport.spi_transfer = w_spi;
    wport.gpio_set = w_gpio;
    wport.wait_irq = w_irq;
    wport.now_ms = w_now;
    wport.delay_ms = w_delay;
    memset(&c, 0, sizeof c);
    c.bus.port = &wport;
    c.bus.wake_line = 1;
    c.mem = dmem;
    c.mem_len = sizeof dmem;
    c.depth = (uint16_t)(4u + tl_rand_below(13));
    c.cmd_payload = 576;
    c.rsp_payload = rsp_sizes[tl_rand_below(5)];
    /* on a device with a big response buffer, half the sessions can fill more than 4 KiB */
    if (model.rsp_cap > 4096u && tl_rand_below(2)) c.depth = 16, c.rsp_payload = 588;
    c.timeout_ms = T_MS;
    c.auto_clear = (uint8_t)tl_rand_below(2);
    c.on_outcome = on_outcome;
    c.on_async = on_async;
    /* half the restarts keep the ended session's nonce (a program that always passes the
       same one: the same first TID and synchronising ECHO), the others pick a new one */
    if (power || tl_rand_below(2)) next_nonce = next_nonce * 1664525u + 1013904223u;
    c.nonce = next_nonce;
    CHECK_ST(accel_tsp1_init(&s, &c), ACCEL_OK);
    restarts += !power;
    /* a fault may take the boot's ASYNC_READY: the session then goes on not ready */
    if (power) (void)accel_tsp1_wait_ready(&s, 100);
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
        evid[t] = 0;
        ended[t] = 0;
    }
}

/* An ECHO payload holding valid response frames (an ECHO of captured frames): answers that
 * would decide pending commands or the next ones (their TIDs), between random bytes. Returns
 * its length (up to 250: some do not fit the session's receive buffer, some not the device's
 * response buffer). */
static size_t embed_frames(uint8_t *p)
{
    static const uint16_t ids[5] = {ACCEL_TSP1_R_DATA, ACCEL_TSP1_R_DATA, ACCEL_TSP1_R_NN_INFO,
                                    ACCEL_TSP1_R_ERR_ARG, ACCEL_TSP1_R_ERR_BUSY};
    size_t n = tl_rand_below(8), k, fl, want = 24u + tl_rand_below(226);
    unsigned i;
    for (i = 0; i < n; i++) p[i] = (uint8_t)tl_rand();
    for (k = 0; k < 4 && n + 24u <= want; k++) {
        accel_tsp1_pending *q = accel__tsp1_at(&s, tl_rand_below(8));
        uint16_t t = q && tl_rand_below(2) ? q->tid : (uint16_t)(s.next_tid + tl_rand_below(4));
        uint16_t id = ids[tl_rand_below(5)];
        uint8_t pl[8];
        size_t pn = id == ACCEL_TSP1_R_NN_INFO ? 8u : id == ACCEL_TSP1_R_DATA ? tl_rand_below(2) * 4u : 0u;
        memset(pl, 0, sizeof pl);
        if (id == ACCEL_TSP1_R_NN_INFO) pl[0] = 1, pl[2] = 4;
        if (accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, id, t, pl, pn, p + n, 24,
                                        &fl) != ACCEL_OK)
            break;
        n += fl;
        for (i = 0; i < 3u && n < want; i++) p[n++] = (uint8_t)tl_rand();
    }
    embedded++;
    return n;
}

/* A blocking call, recorded: when it returns an outcome, it is the one reported. */
static accel_status rec_call(uint16_t id, const uint8_t *p, size_t n, uint8_t sure)
{
    uint8_t out[300];
    size_t len = 0;
    accel_status st;
    call_active = 1;
    call_recorded = 0;
    call_id = id;
    call_p = p;
    call_n = n;
    call_sure = sure;
    st = accel_tsp1_call(&s, id, p, n, out, sizeof out, &len, T_MS + 50u);
    note_call();
    call_active = 0;
    if (!call_recorded) return st; /* refused before anything was sent */
    /* a return that is no outcome (the caller's deadline, a bus error while polling) leaves it
       pending: never once its outcome has arrived (the outcome is what the call returns) */
    if (!rec[last_call_tid].pending && st != last_st[last_call_tid])
        contra("a blocking call returned another status than its outcome", last_call_tid);
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
    return st;
}

/* The blocking helper: CLEAR_ERROR, REBOOT, ASYNC_READY, then the firmware-version register (no
 * CRC on it) decides ROM or firmware: checked against the device. */
static void reboot_check(uint8_t sure)
{
    accel_status st;
    call_active = 1;
    call_recorded = 0;
    call_id = ACCEL_TSP1_REBOOT;
    call_p = NULL;
    call_n = 0;
    call_sure = sure;
    st = accel_tsp1_reboot(&s, T_MS + 50u);
    note_call();
    call_active = 0;
    if (st != ACCEL_OK && st != ACCEL_E_TSP1_ROM) return;
    if (!fw_ready) {
        reboot_unready++; /* registers unreadable then (an older boot's ASYNC_READY) */
    } else {
        reboot_checks++;
        if ((st == ACCEL_E_TSP1_ROM) != (fw_rom != 0))
            contra(st == ACCEL_OK ? "reboot said firmware, the device runs its ROM"
                                  : "reboot said ROM, the device runs its firmware", 0);
    }
}

/* One random command: through submit, or (blocking) through call. */
static void one_command(int blocking)
{
    uint8_t p[2 * 144 + 16];
    size_t n = 0, i;
    uint16_t id, tid = 0;
    accel_status st;
    uint32_t a = tl_rand_below(100);
    uint8_t sure = s.settled;
    if (a < 30) {
        id = ACCEL_TSP1_ECHO;
        n = tl_rand_below(4) ? tl_rand_below(12) : tl_rand_below(60);
        for (i = 0; i < n; i++) p[i] = (uint8_t)tl_rand();
        if (tl_rand_below(4) == 0) n = embed_frames(p);
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
    if (blocking && id == ACCEL_TSP1_REBOOT && tl_rand_below(2)) {
        reboot_check(sure);
        return;
    }
    if (blocking && id != ACCEL_TSP1_DEEP_SLEEP) {
        (void)rec_call(id, p, n, sure);
        return;
    }
    if (id == ACCEL_TSP1_DEEP_SLEEP && !accel_ring_count(&s.pend) && tl_rand_below(2)) {
        /* the blocking helper: it returns once the device took the command, reading answers
           meanwhile (its outcome may come inside: it is recorded as soon as it is written) */
        uint32_t tmo;
        if (tl_rand_below(3) == 0) { /* async messages fill a small response buffer first */
            (void)accel_tsp1_model_raise(&model, ACCEL_TSP1_R_ASYNC_ERR_ECC);
            (void)accel_tsp1_model_raise(&model, ACCEL_TSP1_R_ASYNC_ERR_NPU);
            accel_sim_advance(&sim, 2);
        }
        sleep_active = call_active = 1;
        call_recorded = 0;
        call_sure = sure;
        tmo = tl_rand_below(4) ? T_MS : tl_rand_below(3);
        st = accel_tsp1_sleep(&s, tmo);
        note_call();
        sleep_active = call_active = 0;
        /* a whole deadline on a quiet bus: the device takes it (2 commands a millisecond) once
           the host reads what blocks its response buffer */
        if (st == ACCEL_E_TIMEOUT && tmo == T_MS && call_recorded &&
            !fault_since(rec[last_call_tid].sub_ms - 2u * T_MS) && model.power == ACCEL_TSP1_MODEL_READY)
            contra("sleep timed out on a device that takes commands", last_call_tid);
        /* OK: the device took it from its command buffer (ran or discarded it) */
        if (st == ACCEL_OK && call_recorded && !fate[last_call_tid] &&
            !(have_ignored && (int32_t)(last_ignored_ms - rec[last_call_tid].sub_ms + T_MS) >= 0) &&
            !fault_since(rec[last_call_tid].sub_ms - 2u * T_MS))
            contra("sleep returned OK with its DEEP_SLEEP still queued", last_call_tid);
        if (st == ACCEL_E_TIMEOUT) sleep_timeouts++;
        return;
    }
    st = accel_tsp1_submit(&s, id, p, n, &tid);
    if (st == ACCEL_OK) took(tid, id, p, n, sure);
    else if (st == ACCEL_E_BUFFER_TOO_SMALL) too_big++; /* an ECHO answer rx cannot hold */
    /* with auto_clear the host never clears by hand: the driver must get out by itself */
    else if (st == ACCEL_E_TSP1_ERROR_STATE && !s.auto_clear) (void)accel_tsp1_clear_error(&s);
    if (st == ACCEL_E_BUSY) {
        busy_refusals++;
        if (!busy_streak++) busy_since = sim.now;
    } else {
        busy_streak = 0;
    }
}

/* A host spinning on BUSY: the device's command buffer is filled (no time passes, so it stays
 * full) and submit is retried, up to as many times as it takes the TID counter to reach the
 * oldest pending command's TID if refusals took TIDs; then the device goes on. */
static void busy_spin(void)
{
    uint8_t p[100];
    size_t n = s.dec.cap - ACCEL_TSP1_OVERHEAD < sizeof p ? s.dec.cap - ACCEL_TSP1_OVERHEAD : sizeof p;
    accel_tsp1_pending *q;
    accel_status st = ACCEL_OK;
    uint32_t k, want;
    uint16_t tid;
    memset(p, 0x5A, sizeof p);
    for (k = 0; k < 64u && st == ACCEL_OK; k++) {
        forget_ahead();
        st = accel_tsp1_submit(&s, ACCEL_TSP1_ECHO, p, n, &tid);
        if (st == ACCEL_OK) took(tid, ACCEL_TSP1_ECHO, p, n, s.settled);
    }
    if (st != ACCEL_E_BUSY) return;
    q = accel__tsp1_at(&s, 0);
    want = q ? (uint16_t)(q->tid - s.next_tid) : 65534u;
    if (want < 1000u) want += 65535u;
    spins++;
    for (k = 0; k <= want; k++) { /* the last one: BUSY still, or the next TID */
        st = accel_tsp1_submit(&s, ACCEL_TSP1_ECHO, p, n, &tid);
        if (st == ACCEL_OK) took(tid, ACCEL_TSP1_ECHO, p, n, s.settled);
        if (st != ACCEL_E_BUSY) break;
        spin_refusals++;
    }
}

/* A device whose response buffer holds more than one poll reads (5000 bytes, a poll reads 4
 * KiB): big ECHOs queued, then a host that reads late. Every answer already waiting decides its
 * command (the ground truth: UNKNOWN never with its answer waiting), and those still in the
 * command buffer behind a full response buffer wait for their turn. */
static void big_backlog(void)
{
    static uint8_t p[500];
    size_t n = s.dec.cap - ACCEL_TSP1_OVERHEAD < sizeof p ? s.dec.cap - ACCEL_TSP1_OVERHEAD : sizeof p;
    unsigned k, tries;
    uint16_t tid;
    backlogs++;
    memset(p, 0xC3, sizeof p);
    for (k = 0; k < 12u; k++) {
        accel_status st = ACCEL_E_BUSY;
        p[0] = (uint8_t)k;
        forget_ahead();
        for (tries = 0; tries < 8u && st == ACCEL_E_BUSY; tries++) {
            st = accel_tsp1_submit(&s, ACCEL_TSP1_ECHO, p, n, &tid);
            if (st == ACCEL_OK) took(tid, ACCEL_TSP1_ECHO, p, n, s.settled);
            else if (st == ACCEL_E_BUSY) accel_sim_advance(&sim, 1);
        }
        if (st != ACCEL_OK) break;
    }
    accel_sim_advance(&sim, 2u * T_MS + tl_rand_below(T_MS));
    if (accel_fifo_count(&model.rspq) > 4096u) big_waiting++;
}

/* Network control through the driver (its running mask follows) mixed with plain NN_START /
 * NN_STOP submits (it does not): the mask goes stale. A secure update must then be decided by
 * the device (ERR_BUSY while a network runs), never refused on the stale mask. */
/* Resolve what is pending with the bus quiet (1 ms steps, at most a second). */
static void drain_quiet(void)
{
    unsigned i;
    for (i = 0; i < 1000u && accel_ring_count(&s.pend); i++) {
        (void)accel_tsp1_poll(&s);
        accel_sim_advance(&sim, 1);
    }
}

/* Another host's CLEAR_ERROR in the last two deadlines (it may have reordered the device's
 * view of the update: not this session's doing). */
static int have_foreign_recent(void)
{
    return have_foreign && (uint32_t)(sim.now - foreign_clear_ms) < 4u * T_MS;
}

static void nn_and_update(void)
{
    int checkable;
    uint32_t k;
    finished_image = 0;
    multi_active = 1;
    memset(rec_seen, 0, sizeof rec_seen);
    forget_ahead();
    k = tl_rand_below(3);
    if (k != 1) { /* the driver's mask follows nn_control */
        uint32_t m = 1u + tl_rand_below(3);
        accel_status st = accel_tsp1_nn_control(&s, (uint16_t)(ACCEL_TSP1_NN_START + (k == 0 ? tl_rand_below(2) : 0u)), m,
                                                T_MS + 50u);
        if (k == 2 && st == ACCEL_OK) { /* stopped behind its back: the mask is stale */
            uint8_t pl[4];
            uint16_t tid;
            if (ACCEL_TSP1_BIG_ENDIAN) accel_store_u32be(pl, m);
            else accel_store_u32le(pl, m);
            if (accel_tsp1_submit(&s, ACCEL_TSP1_NN_STOP, pl, 4, &tid) == ACCEL_OK) {
                rec_seen[tid] = 1;
                took(tid, ACCEL_TSP1_NN_STOP, pl, 4, s.settled);
                stale_masks++;
            }
        }
    }
    if (k != 0) {
        accel_tsp1_update u;
        accel_status st;
        memset(&u, 0, sizeof u);
        u.read = img_read;
        u.total = sizeof image;
        u.chunks = (uint16_t)tl_rand_below(3);
        u.no_cancel = (uint8_t)tl_rand_below(2);
        u.no_reboot = (uint8_t)tl_rand_below(2);
        updates++;
        /* a run whose failure position is checked: nothing else queued ahead of it, no NVM or
           header failure planned on the device */
        checkable = !accel_ring_count(&s.pend) && !model.mem_fail_chunk && !model.arg_fail_chunk;
        st = accel_tsp1_update_run(&s, &u, T_MS + 50u);
        if (st == ACCEL_E_BUSY) contra("update_run refused (ACCEL_E_BUSY) without asking the device", 0);
        if (st == ACCEL_OK) updates_ok++;
        if (st == ACCEL_E_TSP1_REBOOT_PENDING) { /* the resume from total only reboots */
            if (u.position != u.total) contra("REBOOT_PENDING with a position other than total", 0);
            upd_written = 0;
            pending_resumes++;
            (void)accel_tsp1_update_run(&s, &u, T_MS + 50u);
            note_call();
            if (upd_written) contra("a resume from total sent FINISH or CANCEL", 0);
        } else if (st != ACCEL_OK && checkable && model.power == ACCEL_TSP1_MODEL_READY) {
            /* the position contract: one resume from where it says, on a quiet bus, completes
               (or meets the same refusal: a network running) */
            uint32_t saved = fault_permille;
            accel_status st2;
            fault_permille = 0;
            drain_quiet();
            st2 = accel_tsp1_update_run(&s, &u, T_MS + 50u);
            note_call();
            fault_permille = saved;
            resumes++;
            /* a wrong position shows as ERR_CRYPT at FINISH (a chunk missing or repeated);
               other failures (an error state without auto_clear, a device asleep) say nothing
               about it */
            if (st2 == ACCEL_E_TSP1_ERR_CRYPT && !model.mem_fail_chunk && !model.arg_fail_chunk &&
                !model.crypt_fail && !have_foreign_recent()) {
                printf("  update_run %s (position %lu) then resume %s\n", accel_status_str(st),
                       (unsigned long)u.position, accel_status_str(st2));
                contra("one resume from the position returned did not complete the update", 0);
            }
        }
        img_next = 0;
    }
    note_call();
    multi_active = 0;
}

/* Another host on the same device (the rule is one session per device; this is what the
 * driver can still detect): it writes CLEAR_ERROR and an ECHO of its own, TID_NONE (never one
 * of ours), while the device has room. A command of ours that its CLEAR_ERROR let run must
 * never be reported DISCARDED. */
static void second_host(void)
{
    uint8_t f[2 * ACCEL_TSP1_OVERHEAD + 4];
    size_t a, b;
    accel_tsp1_bus bus = s.bus;
    bus.port = &sim.port; /* the other host's bus: no faults of ours */
    if (model.power != ACCEL_TSP1_MODEL_READY || accel_fifo_space(&model.cmdq) < sizeof f + 64u)
        return;
    if (accel_tsp1_encode_command(ACCEL_TSP1_CLEAR_ERROR, ACCEL_TSP1_TID_NONE, NULL, 0, f,
                                  sizeof f, &a) != ACCEL_OK ||
        accel_tsp1_encode_command(ACCEL_TSP1_ECHO, ACCEL_TSP1_TID_NONE, "host", 4, f + a,
                                  sizeof f - a, &b) != ACCEL_OK)
        return;
    if (accel_tsp1_buf_write(&bus, ACCEL_TSP1_BUF_CMD, f, a + b) == ACCEL_OK) foreign_clears++;
}

/* Liveness: with the bus quiet, an ECHO must succeed within a bounded time (about 60 calls): a
 * sleeping device is woken, the error state cleared by hand only without auto_clear. */
static void liveness_probe(void)
{
    uint32_t saved = fault_permille;
    unsigned tries;
    fault_permille = 0;
    probes++;
    for (tries = 0; tries < 60u; tries++) {
        accel_status st;
        if (s.asleep) {
            (void)soak_wake();
            continue;
        }
        forget_ahead();
        st = rec_call(ACCEL_TSP1_ECHO, (const uint8_t *)"live", 4, s.settled);
        if (st == ACCEL_OK) {
            fault_permille = saved;
            return;
        }
        if (st == ACCEL_E_TSP1_ERROR_STATE && !s.auto_clear) (void)accel_tsp1_clear_error(&s);
        if (!accel_ring_count(&s.pend) && tries % 4u == 3u)
            (void)soak_wake(); /* it may have gone to sleep unseen */
        accel_sim_advance(&sim, 5);
        (void)accel_tsp1_poll(&s);
    }
    lost_liveness++;
    if (lost_liveness <= 5)
        printf("  lost liveness: synced %u dev_error %u auto_clear %u lost %u pending %u asleep %u;"
               " device power %u error %u rom %u cmd %u rsp %u\n", s.synced, s.dev_error,
               s.auto_clear, s.lost, (unsigned)accel_ring_count(&s.pend), s.asleep, model.power,
               model.error_state, model.rom, (unsigned)accel_fifo_count(&model.cmdq),
               (unsigned)accel_fifo_count(&model.rspq));
    contra("lost liveness: no ECHO succeeded on a quiet bus", 0);
    fault_permille = saved;
}

static unsigned long step, next_phase, sessions;

static void one_step(void)
{
    uint32_t a;
    if (step++ >= next_phase) { /* phases: clean, light faults, heavy faults */
        uint32_t ph = tl_rand_below(3);
        if (step > 1) liveness_probe();
        fault_permille = ph == 0 ? 0u : ph == 1 ? 5u : 40u;
        next_phase = step + 2000u + tl_rand_below(4000);
    }
    if (s.asleep) { /* a DEEP_SLEEP went out: wake the device before anything else */
        accel_sim_advance(&sim, 1u + tl_rand_below(5));
        (void)accel_tsp1_poll(&s); /* a failure shows in what follows */
        if (accel_ring_count(&s.pend) <= 1 || tl_rand_below(4) == 0)
            (void)soak_wake(); /* on failure the DEEP_SLEEP ends unknown */
        return;
    }
    /* a device that takes nothing for long, with nothing pending: it may have gone to sleep
       after a wake pulse that came too early (or an ended session put it to sleep). A user
       would pulse WAKE again. */
    if (busy_streak && !accel_ring_count(&s.pend) && sim.now - busy_since > 2u * T_MS) {
        rescue_wakes++;
        busy_streak = 0;
        (void)soak_wake(); /* its status: the next commands tell */
        return;
    }
    if (tl_rand_below(500) == 0) { /* NVM and header failures ahead in the update */
        model.mem_fail_chunk = 1u + tl_rand_below(3);
        model.arg_fail_chunk = tl_rand_below(2) ? 0u : 1u + tl_rand_below(3);
    }
    a = tl_rand_below(1000);
    if (a < 450) {
        one_command(0);
    } else if (a < 500) { /* a pipelined batch */
        unsigned k = 2u + tl_rand_below(6);
        while (k--) one_command(0);
    } else if (a < 530) {
        one_command(1);
    } else if (a < 560) {
        (void)accel_tsp1_model_raise(&model, (uint16_t)(ACCEL_TSP1_R_ASYNC_ERR_ECC +
                                                        tl_rand_below(2)));
    } else if (a < 580) { /* a busy host: the response buffer fills */
        accel_sim_advance(&sim, 5u + tl_rand_below(30));
    } else if (a < 590) { /* a host that polls only after the deadline */
        late_polls++;
        accel_sim_advance(&sim, T_MS + tl_rand_below(2u * T_MS));
    } else {
        accel_status st = accel_tsp1_poll(&s);
        if (st == ACCEL_E_TSP1_ERROR_STATE && !s.auto_clear) (void)accel_tsp1_clear_error(&s);
        accel_sim_advance(&sim, tl_rand_below(4));
    }
    if (tl_rand_below(20000) == 0) busy_spin();
    if (model.rsp_cap > 4096u && tl_rand_below(100) == 0) big_backlog();
    if (tl_rand_below(150) == 0) nn_and_update();
    if (tl_rand_below(300) == 0) second_host();
    if (tl_rand_below(200) == 0) { /* a blocking reboot: its ROM verdict checked */
        forget_ahead();
        reboot_check(s.settled);
    }
}

int main(int argc, char **argv)
{
    unsigned long want = argc > 1 ? strtoul(argv[1], NULL, 10) : 50000ul;
    uint32_t seed = tl_seed(12);
    struct timespec t0, t1;
    double secs;
    unsigned i;
    (void)seed;
    if (getenv("TSP1_SOAK_TRACE")) trace_tid = strtol(getenv("TSP1_SOAK_TRACE"), NULL, 0);
    for (i = 0; i < sizeof image - 4; i++) image[i] = (uint8_t)(i * 13u + 1u);
    accel_store_u32le(image + sizeof image - 4, accel_crc32(image, sizeof image - 4));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    open_session(1);
    sessions++;
    while (submitted < want) {
        if (setjmp(kill_env)) { /* killed inside a transfer: a new host session */
            kill_armed = 0;
            call_active = sleep_active = multi_active = 0;
            open_session(0);
            have_old = 1;
            sessions++;
            continue;
        }
        kill_armed = tl_rand_below(1500) == 0;
        one_step();
        kill_armed = 0;
        if (tl_rand_below(6000) == 0) { /* the host program ends between calls: a new one */
            kills++;
            open_session(0);
            have_old = 1;
            sessions++;
        } else if (tl_rand_below(4000) == 0 && !accel_ring_count(&s.pend)) { /* power cycle */
            open_session(1);
            have_old = 0;
            sessions++;
        }
    }
    /* drain: no more faults, wake a sleeping device, resolve everything */
    fault_permille = 0;
    for (i = 0; i < 2000 && (accel_ring_count(&s.pend) || s.asleep); i++) {
        if (s.asleep) (void)soak_wake();
        if (accel_tsp1_poll(&s) == ACCEL_E_TSP1_ERROR_STATE && !s.auto_clear)
            (void)accel_tsp1_clear_error(&s);
        accel_sim_advance(&sim, 1);
    }
    liveness_probe();
    (void)accel_tsp1_poll(&s);
    for (i = 0; i < 2000 && accel_ring_count(&s.pend); i++) {
        (void)accel_tsp1_poll(&s);
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
    printf("  UNKNOWN also: never ran, error state of unseen cause %lu, decided by an ended"
           " command's error %lu; sleeps that timed out %lu\n", hist_unseen, hist_stray_err,
           sleep_timeouts);
    printf("full command buffer refusals %lu, wakes of a device that slept unseen %lu\n",
           busy_refusals, rescue_wakes);
    printf("host sessions: %lu restarts (%lu ended between calls, %lu killed inside a transfer),"
           " late polls %lu\n", restarts, kills, mid_kills, late_polls);
    printf("BUSY spins %lu (%lu refused submits), ECHOs holding frames %lu (refused, answer too big"
           " for rx: %lu), reboot verdicts checked %lu (device not up at the check %lu)\n",
           spins, spin_refusals, embedded, too_big, reboot_checks, reboot_unready);
    printf("late reads of a 5000-byte response buffer %lu (more than 4 KiB waiting %lu), update_run"
           " %lu (OK %lu, reboot pending then resumed %lu, failed then resumed %lu, after a stale"
           " mask %lu), another host's CLEAR_ERROR %lu (outcomes it made unknowable %lu)\n",
           backlogs, big_waiting, updates, updates_ok, pending_resumes, resumes, stale_masks,
           foreign_clears, hist_foreign);
    printf("liveness probes %lu, lost %lu; stale answers ignored by new sessions %lu\n", probes,
           lost_liveness, stale_total + s.stale);
    printf("devices %lu, errors whose detail was cut to the receive buffer %lu\n", devices,
           cut_errors);
    printf("contradictions: %lu\n", contradictions);
    tl_case = "soak";
    CHECK_EQ(contradictions, 0);
    CHECK_EQ(outcomes, submitted); /* exactly one outcome each */
    if (tl_case_failed) tl_failed++;
    else tl_passed++;
    return TEST_END();
}
