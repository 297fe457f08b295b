/* demo_ane.c - Apple Neural Engine section on the simulator:
 *   1. a direct task-queue submission against the TM/TQ register-file model, printing every
 *      register access (the order the Asahi Linux driver uses; test_ane.c checks it against
 *      that driver's trace when the trace is at hand);
 *   2. a firmware-model session (the firmware protocol accel.h's ANE section describes,
 *      UNVERIFIED on hardware): bring-up, a procedure call, a cache-request chain, and a stuck
 *      queue aborted by the 2 s deadline and recovered.
 * Every step is checked: the demo stops with "FAILED" at the first unexpected status. */
#include "accel.h"
#include "accel_sim.h"
#include "accel_sim_sessions.h" /* simulator + register model + TM host in one call */
#include <stdio.h>

/* Run a step that must succeed; on anything else say which and fail the demo. */
#define TRY(call)                                                                        \
    do {                                                                                 \
        accel_status try_st = (call);                                                    \
        if (try_st != ACCEL_OK) {                                                        \
            printf("  %s: %s\n", #call, accel_status_str(try_st));                       \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static void trace(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op == ACCEL_SIM_OP_REG_WRITE)
        printf("  W  0x%05lx  0x%08lx\n", (unsigned long)ev->target, (unsigned long)ev->reg_value);
    else if (ev->op == ACCEL_SIM_OP_REG_READ)
        printf("  R  0x%05lx  0x%08lx\n", (unsigned long)ev->target, (unsigned long)ev->reg_value);
}

static void hexdump(const char *what, const uint8_t *b, size_t n)
{
    size_t i;
    printf("  %s (%u bytes):", what, (unsigned)n);
    for (i = 0; i < n; i++) printf("%s%02x", (i % 16) ? " " : "\n    ", b[i]);
    printf("\n");
}

static int direct_submission(void)
{
    static accel_sim_ane_session as; /* as.model: the register file; as.tm: the host's task manager */
    accel_ane_request q;
    accel_ane_result res;
    uint32_t bar[32];
    unsigned i;
    accel_status st;
    for (i = 0; i < 32; i++) bar[i] = 0x10000000u + i * 0x1000u;
    TRY(accel_sim_ane_session_init(&as, trace, NULL));
    printf("== direct submission: qid 4, nid 0x40, td_size 0x274, td_count 1\n");
    printf("-- enable\n");
    st = accel_ane_tm_enable(&as.tm);
    if (st != ACCEL_OK) return 1;
    q.qid = 4; q.nid = 0x40; q.td_size = 0x274; q.td_count = 1; q.btsp_iova = 0x0badc000u;
    q.bar = bar; q.nbar = 32;
    printf("-- enqueue, push (doorbell), poll idle, drain IRQs, release\n");
    st = accel_ane_tm_submit(&as.tm, &q, &res);
    printf("  -> %s; TM_STATUS 0x%lx, irq events %lu/%lu, committed nid 0x%02lx\n",
           accel_status_str(st), (unsigned long)res.tm_status, (unsigned long)res.irq_count[0],
           (unsigned long)res.irq_count[1], (unsigned long)((as.model.tm[ACCEL_ANE_TM_COMMIT_INFO / 4] >> 16) & 0xff));
    if (st != ACCEL_OK) return 1;
    accel_sim_set_trace(&as.sim, NULL, NULL);
    q.qid = 9;
    printf("-- a bad queue id is refused before any register access: %s\n",
           accel_status_str(accel_ane_tm_submit(&as.tm, &q, NULL)));
    q.qid = 4;
    as.model.stuck = 1;
    st = accel_ane_tm_submit(&as.tm, &q, &res);
    printf("-- a chain that never goes idle: %s after %lu ms (queue released)\n",
           accel_status_str(st), (unsigned long)as.sim.now);
    return st == ACCEL_E_TIMEOUT ? 0 : 1;
}

static int firmware_session(void)
{
    accel_ane_bringup bu;
    static accel_ane_fw_model fw;
    accel_ane_sched sc;
    accel_ane_proc_call pc;
    accel_ane_trigger t;
    accel_ane_job j, o;
    accel_ane_note note, got;
    uint8_t msg[256];
    size_t n;
    unsigned i;
    uint64_t h;
    uint32_t now, aborted;
    accel_status st;

    printf("\n== firmware model (protocol UNVERIFIED on hardware)\n-- bring-up\n");
    accel_ane_bringup_init(&bu, 3);
    TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_POWER_ON, 0));
    printf("  reset vector written, reset released\n");
    TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_SCRATCH7, 0));
    printf("  scratch 7 wake 1: controller alive\n");
    TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_TIMEOUT, 0));
    printf("  scratch 7 wake 2 missing: power cycle (failures %lu)\n", (unsigned long)bu.failures);
    TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_SCRATCH7, 0));
    TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_SCRATCH7, 0));
    printf("  scratch 7 wake 1 and 2: channel table published\n");
    printf("  channels resolved:");
    for (i = 0; i < ACCEL_ANE_BU_CHANNELS; i++) {
        TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_CHANNEL, i));
        printf(" %s", accel_ane_channel_name(i));
    }
    printf("\n");
    st = accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_SCRATCH3, ACCEL_ANE_BU_MAGIC1);
    printf("  scratch 3 + magic-number-1: %s\n", accel_status_str(st));
    for (i = 0; i < ACCEL_ANE_BU_FIRST_CMD_COUNT; i++) {
        TRY(accel_ane_bringup_event(&bu, ACCEL_ANE_BU_EV_FIRST_CMD, i));
        printf("  first command %u: %s\n", i, accel_ane_first_cmd_name(i));
    }
    if (bu.state != ACCEL_ANE_BU_READY) return 1;
    printf("  ready\n");

    printf("-- procedure call (exec-loop id 0x204)\n");
    TRY(accel_ane_fw_model_init(&fw, 4));
    TRY(accel_ane_fw_model_program(&fw, 3, 1, 1));
    memset(&pc, 0, sizeof pc);
    pc.id = ACCEL_ANE_WIRE_PROCEDURE_CALL;
    pc.program_id = 3; pc.proc_id = 1; pc.proc = 0; pc.priority = 4;
    pc.nbr_output_sets = 1; pc.nbr_td_partitions = 1; pc.nbr_event_masks = 1;
    st = accel_ane_encode_xl_proc_call(&pc, msg, sizeof msg, &n);
    if (st != ACCEL_OK) return 1;
    hexdump("message", msg, n);
    st = accel_ane_fw_model_dispatch(&fw, msg, n);
    printf("  dispatch: %s, loop state %u (EXEC), hardware allowed %d\n", accel_status_str(st),
           fw.loop.state, accel_ane_xl_fsm_hw_allowed(&fw.loop));
    TRY(accel_ane_fw_model_complete(&fw));
    pc.nbr_signal = 1;
    printf("  the same call carrying a signal event without the events variant: %s\n",
           accel_status_str(accel_ane_encode_xl_proc_call(&pc, msg, sizeof msg, &n)));

    printf("-- cache-request chain\n");
    TRY(accel_ane_cr_install(&fw.cr, 0, &h));
    printf("  install -> handle 0x%llx\n", (unsigned long long)h);
    memset(&t, 0, sizeof t);
    t.id = ACCEL_ANE_WIRE_CACHE_REQUEST_TRIGGER; t.cache_handler = h; t.priority = 3;
    t.nbr_requests = 1; t.nbr_output_sets = 1;
    for (i = 1; i <= 3; i++) {
        t.exec_timestamp = i;
        TRY(accel_ane_encode_xl_trigger(&t, msg, sizeof msg, &n));
        st = accel_ane_fw_model_dispatch(&fw, msg, n);
        printf("  trigger ts %u: %s", i, accel_status_str(st));
        TRY(accel_ane_fw_model_complete(&fw));
        memset(&note, 0, sizeof note);
        note.id = ACCEL_ANE_WIRE_DATA_CHAINING_EVENT; note.cache_handler = h; note.exec_timestamp = i;
        TRY(accel_ane_encode_note(&note, msg, sizeof msg, &n));
        TRY(accel_ane_decode_note(msg, n, &got));
        printf("; DATA_CHAINING_EVENT ts %llu; recycle: %s\n",
               (unsigned long long)got.exec_timestamp,
               accel_status_str(accel_ane_cr_recycle(&fw.cr, h)));
    }
    t.exec_timestamp = 2;
    TRY(accel_ane_encode_xl_trigger(&t, msg, sizeof msg, &n));
    printf("  a trigger with an older timestamp: %s\n",
           accel_status_str(accel_ane_fw_model_dispatch(&fw, msg, n)));
    TRY(accel_ane_cr_invalidate(&fw.cr, h));
    TRY(accel_ane_cr_finish_invalidate(&fw.cr, h));
    t.exec_timestamp = 9;
    TRY(accel_ane_encode_xl_trigger(&t, msg, sizeof msg, &n));
    printf("  after invalidate: %s (dropped %lu)\n",
           accel_status_str(accel_ane_fw_model_dispatch(&fw, msg, n)),
           (unsigned long)fw.dropped);

    printf("-- stuck queue: 2 s deadline abort, reset notification, recovery gate\n");
    TRY(accel_ane_sched_init(&sc, 2, 300, 1000));
    j.tag = 1; j.prio = 2; j.tq = 5; j.start_ms = 0;
    TRY(accel_ane_sched_submit(&sc, &j));
    now = 10000;
    TRY(accel_ane_sched_dispatch(&sc, now, &o));
    for (now = 10000; now <= 12000; now += 500) {
        TRY(accel_ane_sched_tick(&sc, now, 0, &aborted));
        printf("  t=%5lu ms: aborted %lu, ready %u\n", (unsigned long)now, (unsigned long)aborted,
               sc.ready);
    }
    memset(&note, 0, sizeof note);
    note.id = ACCEL_ANE_WIRE_CH_RESET_NOTIFICATION;
    note.first_tq = sc.reset_first_tq; note.last_tq = sc.reset_last_tq;
    st = accel_ane_encode_note(&note, msg, sizeof msg, &n);
    if (st != ACCEL_OK) return 1;
    hexdump("CH_RESET_NOTIFICATION", msg, n);
    printf("  submit while recovering: %s\n", accel_status_str(accel_ane_sched_submit(&sc, &j)));
    TRY(accel_ane_sched_fault(&sc, 12100));
    printf("  another fault at 12100 ms is serialized behind the gate\n");
    for (now = 12100; now <= 13700; now += 400) {
        TRY(accel_ane_sched_tick(&sc, now, 1, NULL));
        printf("  t=%5lu ms: ready %u, recoveries %lu\n", (unsigned long)now, sc.ready,
               (unsigned long)sc.recoveries);
    }
    st = accel_ane_sched_submit(&sc, &j);
    printf("  submit after recovery: %s\n", accel_status_str(st));
    return st == ACCEL_OK ? 0 : 1;
}

int main(void)
{
    int rc = direct_submission();
    if (!rc) rc = firmware_session();
    printf(rc ? "demo_ane: FAILED\n" : "demo_ane: ok\n");
    return rc;
}
