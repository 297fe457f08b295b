/* test_ane_model.c - ANE firmware reference model: every state machine as an exhaustive
 * state x event table (each transition and each rejection), scheduler order and back-pressure
 * under random load, deadline abort and recovery-gate rate limiting on a fake clock, kernel
 * objects, bring-up, statistics buffer round trip and truncation. */
/* only the ane section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

/* ---- exec loop: 6 starting situations (RUN split by phase) x 4 events ---- */
enum { S_INIT, S_RUN, S_RUN_SEC, S_EXEC, S_EXEC_SEC, S_PAUSE, S_N };
/* The loop in situation s by legal steps (each must succeed: the table's first row says so). */
static accel_status xl_reach(accel_ane_xl_fsm *f, int s)
{
    accel_status st;
    accel_ane_xl_fsm_init(f);
    if (s == S_INIT) return ACCEL_OK;
    st = accel_ane_xl_fsm_arm(f);
    if (st == ACCEL_OK && (s == S_RUN_SEC || s == S_EXEC_SEC)) {
        st = accel_ane_xl_fsm_event(f, ACCEL_ANE_XL_EV_ENTER_SECURE);
        if (st == ACCEL_OK) st = accel_ane_xl_fsm_resume(f);
    }
    if (st == ACCEL_OK && (s == S_EXEC || s == S_EXEC_SEC))
        st = accel_ane_xl_fsm_event(f, ACCEL_ANE_XL_EV_DISPATCH);
    if (st == ACCEL_OK && s == S_PAUSE) st = accel_ane_xl_fsm_event(f,
                                                                    ACCEL_ANE_XL_EV_ENTER_SECURE);
    return st;
}

static void test_exec_loop_table(void)
{
    /* expected status and (state, secure) after each event */
    static const struct { accel_status st; uint8_t state, secure; } T[S_N][4] = {
        /* DISPATCH, DRAIN, ENTER_SECURE, EXIT_SECURE */
        {{ACCEL_E_STATE, 0, 0}, {ACCEL_E_STATE, 0, 0}, {ACCEL_E_STATE, 0, 0}, {ACCEL_E_STATE, 0, 0}},
        {{ACCEL_OK, 2, 0}, {ACCEL_OK, 1, 0}, {ACCEL_OK, 4, 0}, {ACCEL_E_STATE, 1, 0}},
        {{ACCEL_OK, 3, 1}, {ACCEL_OK, 1, 1}, {ACCEL_E_STATE, 1, 1}, {ACCEL_OK, 4, 1}},
        {{ACCEL_E_BUSY, 2, 0}, {ACCEL_OK, 1, 0}, {ACCEL_E_STATE, 2, 0}, {ACCEL_E_STATE, 2, 0}},
        {{ACCEL_E_BUSY, 3, 1}, {ACCEL_OK, 1, 1}, {ACCEL_E_STATE, 3, 1}, {ACCEL_E_STATE, 3, 1}},
        {{ACCEL_E_ANE_INVARIANT, 4, 0}, {ACCEL_E_ANE_INVARIANT, 4, 0},
         {ACCEL_E_ANE_INVARIANT, 4, 0}, {ACCEL_E_ANE_INVARIANT, 4, 0}},
    };
    static const int hw[S_N] = {0, 0, 0, 1, 1, 0};
    static const uint8_t st0[S_N] = {0, 1, 1, 2, 3, 4};
    int s;
    unsigned e;
    accel_ane_xl_fsm f;
    for (s = 0; s < S_N; s++) {
        REQUIRE_ST(xl_reach(&f, s), ACCEL_OK);
        CHECK_EQ(f.state, st0[s]);
        CHECK_EQ(accel_ane_xl_fsm_hw_allowed(&f), hw[s]);
        for (e = 0; e < 4; e++) {
            REQUIRE_ST(xl_reach(&f, s), ACCEL_OK);
            CHECK_ST(accel_ane_xl_fsm_event(&f, e), T[s][e].st);
            CHECK_EQ(f.state, T[s][e].state);
            CHECK_EQ(f.secure, T[s][e].secure);
            CHECK_EQ(f.asserted, s == S_PAUSE);
        }
        REQUIRE_ST(xl_reach(&f, s), ACCEL_OK);
        CHECK_ST(accel_ane_xl_fsm_event(&f, 4), ACCEL_E_ARG);
        /* resume only from PAUSE */
        CHECK_ST(accel_ane_xl_fsm_resume(&f), s == S_PAUSE ? ACCEL_OK : ACCEL_E_STATE);
        REQUIRE_ST(xl_reach(&f, s), ACCEL_OK);
        CHECK_ST(accel_ane_xl_fsm_arm(&f), s == S_INIT ? ACCEL_OK : ACCEL_E_STATE);
    }
    /* a pause completes into the secure phase, and back through PAUSE */
    REQUIRE_ST(xl_reach(&f, S_PAUSE), ACCEL_OK);
    CHECK_ST(accel_ane_xl_fsm_resume(&f), ACCEL_OK);
    CHECK_EQ(f.state, 1); CHECK_EQ(f.secure, 1);
    CHECK_ST(accel_ane_xl_fsm_event(&f, ACCEL_ANE_XL_EV_EXIT_SECURE), ACCEL_OK);
    CHECK_ST(accel_ane_xl_fsm_resume(&f), ACCEL_OK);
    CHECK_EQ(f.secure, 0);
    /* once asserted, the loop stays dead */
    REQUIRE_ST(xl_reach(&f, S_PAUSE), ACCEL_OK);
    CHECK_ST(accel_ane_xl_fsm_event(&f, 0), ACCEL_E_ANE_INVARIANT);
    CHECK_ST(accel_ane_xl_fsm_resume(&f), ACCEL_E_STATE);
}

static void test_process_table(void)
{
    static const struct { accel_status st; uint8_t next; } T[2][3] = {
        /* START, STOP, CALL */
        {{ACCEL_OK, 1}, {ACCEL_E_STATE, 0}, {ACCEL_E_ANE_NOT_RUNNING, 0}},
        {{ACCEL_E_STATE, 1}, {ACCEL_OK, 0}, {ACCEL_OK, 1}},
    };
    unsigned s, e;
    accel_ane_proc_fsm p;
    for (s = 0; s < 2; s++)
        for (e = 0; e < 3; e++) {
            accel_ane_proc_fsm_init(&p);
            if (s) REQUIRE_ST(accel_ane_proc_fsm_event(&p, ACCEL_ANE_PROC_EV_START), ACCEL_OK);
            CHECK_ST(accel_ane_proc_fsm_event(&p, e), T[s][e].st);
            CHECK_EQ(p.state, T[s][e].next);
            CHECK_EQ(p.dropped, (s == 0 && e == 2) ? 1 : 0);
            CHECK_EQ(p.calls, (s == 1 && e == 2) ? 1 : 0);
        }
    CHECK_ST(accel_ane_proc_fsm_event(&p, 3), ACCEL_E_ARG);
}

/* ---- cache requests: 4 situations x 5 operations ---- */
enum { C_STALE, C_INUSE, C_INUSE_EXEC, C_INVAL, C_N };
/* A pool whose slot 0 is in situation s; *h its handle. Each step is legal and must succeed. */
static accel_status cr_reach(accel_ane_cr_pool *p, int s, uint64_t *h)
{
    accel_status st = accel_ane_cr_init(p, 2);
    *h = 0;
    if (st == ACCEL_OK) st = accel_ane_cr_install(p, 7, h);
    if (st == ACCEL_OK && s == C_STALE) {
        st = accel_ane_cr_invalidate(p, *h);
        if (st == ACCEL_OK) st = accel_ane_cr_finish_invalidate(p, *h);
    }
    if (st == ACCEL_OK && s == C_INUSE_EXEC) st = accel_ane_cr_trigger(p, *h, 10);
    if (st == ACCEL_OK && s == C_INVAL) st = accel_ane_cr_invalidate(p, *h);
    p->dropped = 0;
    return st;
}

static void test_cache_request_table(void)
{
    /* trigger(ts 11), recycle, invalidate, finish, select */
    static const struct { accel_status st; uint8_t state, out; } T[C_N][5] = {
        {{ACCEL_E_ANE_HANDLE, 0, 0}, {ACCEL_E_ANE_HANDLE, 0, 0}, {ACCEL_E_ANE_HANDLE, 0, 0},
         {ACCEL_E_ANE_HANDLE, 0, 0}, {ACCEL_E_ANE_HANDLE, 0, 0}},
        {{ACCEL_OK, 1, 1}, {ACCEL_E_STATE, 1, 0}, {ACCEL_OK, 2, 0}, {ACCEL_E_ANE_HANDLE, 1, 0},
         {ACCEL_OK, 1, 0}},
        {{ACCEL_E_BUSY, 1, 1}, {ACCEL_OK, 1, 0}, {ACCEL_E_BUSY, 1, 1}, {ACCEL_E_ANE_HANDLE, 1, 1},
         {ACCEL_OK, 1, 1}},
        {{ACCEL_E_ANE_HANDLE, 2, 0}, {ACCEL_E_ANE_HANDLE, 2, 0}, {ACCEL_E_ANE_HANDLE, 2, 0},
         {ACCEL_OK, 0, 0}, {ACCEL_E_ANE_HANDLE, 2, 0}},
    };
    accel_ane_cr_pool p;
    int s, op;
    for (s = 0; s < C_N; s++)
        for (op = 0; op < 5; op++) {
            uint64_t h;
            accel_status st = ACCEL_OK;
            REQUIRE_ST(cr_reach(&p, s, &h), ACCEL_OK);
            switch (op) {
            case 0: st = accel_ane_cr_trigger(&p, h, 11); break;
            case 1: st = accel_ane_cr_recycle(&p, h); break;
            case 2: st = accel_ane_cr_invalidate(&p, h); break;
            case 3: st = accel_ane_cr_finish_invalidate(&p, h); break;
            default: st = accel_ane_cr_select(&p, h); break;
            }
            CHECK_ST(st, T[s][op].st);
            CHECK_EQ(p.slot[0].state, T[s][op].state);
            CHECK_EQ(p.slot[0].out_state, T[s][op].out);
            CHECK_EQ(p.dropped, (op == 0 && (s == C_STALE || s == C_INVAL)) ? 1 : 0);
        }
}

static void test_cache_request_rules(void)
{
    accel_ane_cr_pool p;
    uint64_t a, b, c, old;
    CHECK_ST(accel_ane_cr_init(&p, 0), ACCEL_E_ARG);
    CHECK_ST(accel_ane_cr_init(&p, ACCEL_ANE_MAX_CACHE_REQUESTS + 1), ACCEL_E_ARG);
    REQUIRE_ST(accel_ane_cr_init(&p, 2), ACCEL_OK);
    CHECK_ST(accel_ane_cr_install(&p, 1, &a), ACCEL_OK);
    CHECK_ST(accel_ane_cr_install(&p, 1, &b), ACCEL_OK);
    CHECK_ST(accel_ane_cr_install(&p, 1, &c), ACCEL_E_FULL);
    CHECK(a != b);
    /* strictly increasing timestamps */
    CHECK_ST(accel_ane_cr_trigger(&p, a, 5), ACCEL_OK);
    REQUIRE_ST(accel_ane_cr_recycle(&p, a), ACCEL_OK);
    CHECK_ST(accel_ane_cr_trigger(&p, a, 5), ACCEL_E_ANE_TIMESTAMP);
    CHECK_ST(accel_ane_cr_trigger(&p, a, 4), ACCEL_E_ANE_TIMESTAMP);
    CHECK_ST(accel_ane_cr_trigger(&p, a, 6), ACCEL_OK);
    CHECK_EQ(p.triggers, 2);
    /* a stale handle of a recycled slot does not reach the new owner */
    REQUIRE_ST(accel_ane_cr_recycle(&p, a), ACCEL_OK);
    old = a;
    REQUIRE_ST(accel_ane_cr_invalidate(&p, a), ACCEL_OK);
    REQUIRE_ST(accel_ane_cr_finish_invalidate(&p, a), ACCEL_OK);
    CHECK_ST(accel_ane_cr_install(&p, 2, &c), ACCEL_OK);
    CHECK((c & 0xff) == (old & 0xff) && c != old);
    CHECK_ST(accel_ane_cr_trigger(&p, old, 100), ACCEL_E_ANE_HANDLE);
    CHECK_ST(accel_ane_cr_trigger(&p, 0xFFFFFFFFFFFFFFFFULL, 100), ACCEL_E_ANE_HANDLE);
    CHECK_ST(accel_ane_cr_trigger(&p, c, 0), ACCEL_OK); /* a fresh request starts its own clock */
    /* group select: one active member per group */
    CHECK_ST(accel_ane_cr_select(&p, b), ACCEL_OK);
    CHECK_EQ(p.slot[b & 0xff].active, 1);
    CHECK_ST(accel_ane_cr_select(&p, c), ACCEL_OK);
    CHECK_EQ(p.slot[b & 0xff].active, 1); /* different group: untouched */
    /* global force-disable: only true is admitted */
    CHECK_ST(accel_ane_cr_force_disable(&p, 0), ACCEL_E_ANE_FORCE_DISABLE);
    CHECK_ST(accel_ane_cr_force_disable(&p, 1), ACCEL_OK);
    CHECK_ST(accel_ane_cr_trigger(&p, b, 50), ACCEL_E_ANE_CR_DISABLED);
    CHECK_ST(accel_ane_cr_install(&p, 1, &a), ACCEL_E_ANE_CR_DISABLED);
}

/* ---- scheduler ---- */
static accel_ane_job job(uint32_t tag, uint8_t prio, uint8_t tq)
{
    accel_ane_job j;
    j.tag = tag; j.prio = prio; j.tq = tq; j.start_ms = 0;
    return j;
}

static void test_sched_order_and_credit(void)
{
    accel_ane_sched s;
    accel_ane_job j, o;
    static const uint32_t want[6] = {10, 30, 31, 70, 11, 12};
    int i;
    CHECK_ST(accel_ane_sched_init(&s, 0, 0, 0), ACCEL_E_ARG);
    CHECK_ST(accel_ane_sched_init(&s, ACCEL_ANE_SCHED_MAX_INFLIGHT + 1, 0, 0), ACCEL_E_ARG);
    REQUIRE_ST(accel_ane_sched_init(&s, 1, 100, 0), ACCEL_OK);
    /* level 0 has credit 1: after one job it waits until every waiting level spent its credit
     * (3 and 7 still have some), then all refill */
    j = job(70, 7, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(10, 0, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(11, 0, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(12, 0, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(30, 3, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(31, 3, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    for (i = 0; i < 6; i++) {
        CHECK_ST(accel_ane_sched_dispatch(&s, 0, &o), ACCEL_OK);
        CHECK_EQ(o.tag, want[i]);
        CHECK_ST(accel_ane_sched_dispatch(&s, 0, &o), (i < 5) ? ACCEL_E_BUSY : ACCEL_E_EMPTY);
        CHECK_ST(accel_ane_sched_complete(&s, want[i]), ACCEL_OK);
    }
    CHECK_ST(accel_ane_sched_dispatch(&s, 0, &o), ACCEL_E_EMPTY);
    CHECK_EQ(s.throttled, 5);
    CHECK_ST(accel_ane_sched_complete(&s, 999), ACCEL_E_ARG);
    /* submission rules */
    j = job(1, 8, 1); CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_E_ANE_PRIORITY);
    j = job(1, 7, 0); CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_E_ANE_TQ_RANGE);
    for (i = 0; i < (int)ACCEL_ANE_SCHED_DEPTH; i++) {
        j = job((uint32_t)i, 2, 1);
        CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    }
    j = job(99, 2, 1); CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_E_FULL);
    j = job(99, 1, 1); CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK); /* other level */
}

static void test_sched_random_load(void)
{
    accel_ane_sched s;
    static uint8_t seen[4000];
    uint32_t next_tag = 0, done = 0, step;
    accel_ane_job j, o;
    unsigned p;
    REQUIRE_ST(accel_ane_sched_init(&s, 3, 100, 0), ACCEL_OK);
    memset(seen, 0, sizeof seen);
    for (step = 0; step < 20000 && next_tag < 4000; step++) {
        uint32_t r = tl_rand() % 3;
        if (r == 0) {
            j = job(next_tag, (uint8_t)(tl_rand() % 8), 1);
            if (accel_ane_sched_submit(&s, &j) == ACCEL_OK) next_tag++;
        } else if (r == 1) {
            uint8_t cnt[8], cred[8];
            unsigned best = 8;
            accel_status st;
            memcpy(cnt, s.count, 8); memcpy(cred, s.credit, 8);
            for (p = 0; p < 8 && best == 8; p++) if (cnt[p] && cred[p]) best = p;
            if (best == 8) for (p = 0; p < 8 && best == 8; p++) if (cnt[p]) best = p;
            st = accel_ane_sched_dispatch(&s, 0, &o);
            if (st == ACCEL_OK) {
                CHECK_EQ(o.prio, best);
                CHECK(o.tag < 4000 && !seen[o.tag]);
                if (o.tag < 4000) seen[o.tag] = 1;
            } else {
                CHECK(st == ACCEL_E_BUSY || st == ACCEL_E_EMPTY);
                if (st == ACCEL_E_BUSY) CHECK_EQ(s.ninflight, 3);
            }
        } else if (s.ninflight) {
            CHECK_ST(accel_ane_sched_complete(&s, s.inflight[tl_rand() % s.ninflight].tag),
                     ACCEL_OK);
            done++;
        }
        CHECK(s.ninflight <= 3);
    }
    /* drain: nothing is lost */
    while (accel_ane_sched_dispatch(&s, 0, &o) != ACCEL_E_EMPTY) {
        if (s.ninflight) REQUIRE_ST(accel_ane_sched_complete(&s, s.inflight[0].tag), ACCEL_OK);
        if (o.tag < 4000) seen[o.tag] = 1;
    }
    for (step = 0; step < next_tag; step++) CHECK(seen[step]);
    CHECK(next_tag > 1000);
    CHECK(s.throttled > 0);
}

static void test_sched_deadline_and_gate(void)
{
    accel_ane_sched s;
    accel_ane_job j, o;
    uint32_t n, t;
    REQUIRE_ST(accel_ane_sched_init(&s, 2, 100, 500), ACCEL_OK);
    j = job(1, 2, 4); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    j = job(2, 2, 9); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_dispatch(&s, 1000, &o), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_dispatch(&s, 1500, &o), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_tick(&s, 2999, 1, &n), ACCEL_OK);
    CHECK_EQ(n, 0);
    REQUIRE_ST(accel_ane_sched_tick(&s, 3000, 1, &n),
               ACCEL_OK); /* the 1000 job hits 2 s; abort clears it */
    CHECK_EQ(n, 1); CHECK_EQ(s.ninflight, 1); CHECK_EQ(s.resets, 0); CHECK(s.ready);
    REQUIRE_ST(accel_ane_sched_tick(&s, 3500, 0, &n),
               ACCEL_OK); /* this one does not clear: escalate */
    CHECK_EQ(n, 1); CHECK_EQ(s.resets, 1);
    CHECK_EQ(s.reset_first_tq, 9); CHECK_EQ(s.reset_last_tq, 9);
    CHECK(!s.ready);
    j = job(3, 2, 1);
    CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_E_ANE_NOT_READY);
    CHECK_ST(accel_ane_sched_dispatch(&s, 3550, &o), ACCEL_E_ANE_NOT_READY);
    REQUIRE_ST(accel_ane_sched_tick(&s, 3599, 1, NULL), ACCEL_OK);
    CHECK(!s.ready);
    REQUIRE_ST(accel_ane_sched_tick(&s, 3600, 1, NULL), ACCEL_OK); /* recovery took 100 ms */
    CHECK(s.ready);
    CHECK_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    /* rate limit: a fault 200 ms after the last start waits for the 500 ms gap */
    REQUIRE_ST(accel_ane_sched_fault(&s, 3700), ACCEL_OK);
    CHECK(!s.ready); CHECK_EQ(s.recoveries, 1); CHECK_EQ(s.ninflight, 0);
    REQUIRE_ST(accel_ane_sched_tick(&s, 3999, 1, NULL), ACCEL_OK);
    CHECK(!s.ready); CHECK_EQ(s.recoveries, 1);
    REQUIRE_ST(accel_ane_sched_tick(&s, 4000, 1, NULL), ACCEL_OK);
    CHECK_EQ(s.recoveries, 2); CHECK(!s.ready);
    REQUIRE_ST(accel_ane_sched_tick(&s, 4100, 1, NULL), ACCEL_OK);
    CHECK(s.ready);
    /* faults faster than recovery keep the channel not ready */
    for (t = 5000; t < 8000; t += 50) {
        REQUIRE_ST(accel_ane_sched_fault(&s, t), ACCEL_OK);
        REQUIRE_ST(accel_ane_sched_tick(&s, t + 25, 1, NULL), ACCEL_OK);
        CHECK(!s.ready);
    }
    CHECK(s.recoveries <= 2 + 3000 / 500 + 1);
    REQUIRE_ST(accel_ane_sched_tick(&s, 9000, 1, NULL), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_tick(&s, 9200, 1, NULL), ACCEL_OK);
    CHECK(s.ready);
    /* wrap-safe clock */
    REQUIRE_ST(accel_ane_sched_init(&s, 1, 10, 0), ACCEL_OK);
    j = job(5, 3, 1); REQUIRE_ST(accel_ane_sched_submit(&s, &j), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_dispatch(&s, 0xFFFFFF00u, &o), ACCEL_OK);
    REQUIRE_ST(accel_ane_sched_tick(&s, 0xFFFFFF00u + 1999u, 1, &n), ACCEL_OK); CHECK_EQ(n, 0);
    REQUIRE_ST(accel_ane_sched_tick(&s, 0xFFFFFF00u + 2000u, 1, &n), ACCEL_OK); CHECK_EQ(n, 1);
}

static void test_msgq_and_pool(void)
{
    uint8_t mem[2 * 6], out[8];
    size_t n;
    accel_ane_msgq q;
    accel_ane_pool p;
    unsigned s, i;
    CHECK_ST(accel_ane_msgq_init(&q, mem, sizeof mem, 0), ACCEL_E_ARG);
    REQUIRE_ST(accel_ane_msgq_init(&q, mem, sizeof mem, 4), ACCEL_OK);
    CHECK_ST(accel_ane_msgq_recv(&q, out, 8, &n), ACCEL_E_EMPTY);
    CHECK_ST(accel_ane_msgq_send(&q, "abcde", 5), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_ane_msgq_send(&q, "abcd", 4), ACCEL_OK);
    CHECK_ST(accel_ane_msgq_send(&q, "x", 1), ACCEL_OK);
    CHECK_ST(accel_ane_msgq_send(&q, "y", 1), ACCEL_E_FULL);
    CHECK_ST(accel_ane_msgq_recv(&q, out, 3, &n), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_ane_msgq_recv(&q, out, 8, &n), ACCEL_OK);
    CHECK_EQ(n, 4); CHECK_MEM(out, "abcd", 4);
    CHECK_ST(accel_ane_msgq_send(&q, "", 0), ACCEL_OK);
    CHECK_ST(accel_ane_msgq_recv(&q, out, 8, &n), ACCEL_OK);
    CHECK_EQ(n, 1); CHECK_EQ(out[0], 'x');
    CHECK_ST(accel_ane_msgq_recv(&q, out, 8, &n), ACCEL_OK);
    CHECK_EQ(n, 0);
    /* the memory query: depth slots of 2 + width bytes, the refusals of init, overflow */
    n = 1;
    CHECK_ST(accel_ane_msgq_mem_size(2, 4, &n), ACCEL_OK);
    CHECK_EQ(n, sizeof mem); /* 2 x (2 + 4) = 12, the buffer above that holds two messages */
    CHECK_ST(accel_ane_msgq_mem_size(7, 0xFFFF, &n), ACCEL_OK);
    CHECK_EQ(n, 7 * 0x10001UL);
    CHECK_ST(accel_ane_msgq_mem_size(0, 4, &n), ACCEL_E_ARG);
    CHECK_EQ(n, 0);
    CHECK_ST(accel_ane_msgq_mem_size(2, 0, &n), ACCEL_E_ARG);
    CHECK_ST(accel_ane_msgq_mem_size(2, 0x10000, &n), ACCEL_E_ARG);
    CHECK_ST(accel_ane_msgq_mem_size((size_t)-1 / 6 + 1, 4, &n), ACCEL_E_OVERFLOW);
    CHECK_EQ(n, 0);
    CHECK_ST(accel_ane_msgq_mem_size((size_t)-1 / 6, 4, &n), ACCEL_OK);
    CHECK_EQ(n, (size_t)-1 / 6 * 6);
    CHECK_ST(accel_ane_msgq_mem_size(2, 4, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_pool_init(&p, 0), ACCEL_E_ARG);
    CHECK_ST(accel_ane_pool_init(&p, 33), ACCEL_E_ARG);
    REQUIRE_ST(accel_ane_pool_init(&p, 32), ACCEL_OK);
    for (i = 0; i < 32; i++) CHECK_ST(accel_ane_pool_alloc(&p, &s), ACCEL_OK);
    CHECK_EQ(accel_ane_pool_available(&p), 0);
    CHECK_ST(accel_ane_pool_alloc(&p, &s), ACCEL_E_FULL);
    CHECK_ST(accel_ane_pool_free(&p, 31), ACCEL_OK);
    CHECK_ST(accel_ane_pool_free(&p, 31), ACCEL_E_ARG);
    CHECK_ST(accel_ane_pool_free(&p, 32), ACCEL_E_ARG);
    CHECK_EQ(accel_ane_pool_available(&p), 1);
    CHECK_ST(accel_ane_pool_alloc(&p, &s), ACCEL_OK);
    CHECK_EQ(s, 31);
}

/* ---- bring-up: 7 states x 6 events ---- */
/* Bring-up in state s by legal events; FAILED is reached by a timeout while waiting for scratch
 * 7, which reports ACCEL_E_TIMEOUT (the table's second row). */
static accel_status bu_reach(accel_ane_bringup *b, unsigned s)
{
    accel_status st;
    accel_ane_bringup_init(b, 2);
    if (s == ACCEL_ANE_BU_OFF) return ACCEL_OK;
    st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_POWER_ON, 0);
    if (st == ACCEL_OK && s == ACCEL_ANE_BU_FAILED) {
        st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_TIMEOUT, 0);
        return st == ACCEL_E_TIMEOUT ? ACCEL_OK : (st == ACCEL_OK ? ACCEL_E_STATE : st);
    }
    if (st == ACCEL_OK && s >= ACCEL_ANE_BU_WAIT_CHANNELS)
        st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_SCRATCH7, 0);
    if (st == ACCEL_OK && s >= ACCEL_ANE_BU_WAIT_ACK)
        st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_SCRATCH7, 0);
    if (st == ACCEL_OK && s >= ACCEL_ANE_BU_FIRST_CMDS) {
        uint32_t c;
        for (c = 0; c < ACCEL_ANE_BU_CHANNELS && st == ACCEL_OK; c++)
            st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_CHANNEL, c);
        if (st == ACCEL_OK) st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_SCRATCH3,
                                                         ACCEL_ANE_BU_MAGIC1);
    }
    if (st == ACCEL_OK && s == ACCEL_ANE_BU_READY) {
        uint32_t i;
        for (i = 0; i < ACCEL_ANE_BU_FIRST_CMD_COUNT && st == ACCEL_OK; i++)
            st = accel_ane_bringup_event(b, ACCEL_ANE_BU_EV_FIRST_CMD, i);
    }
    return st;
}

static void test_bringup_table(void)
{
    /* events: POWER_ON, SCRATCH7, CHANNEL(0), SCRATCH3(magic), TIMEOUT, FIRST_CMD(0) */
    static const struct { accel_status st; uint8_t next; } T[7][6] = {
        {{ACCEL_OK, 1}, {ACCEL_E_STATE, 0}, {ACCEL_E_STATE, 0}, {ACCEL_E_STATE, 0}, {ACCEL_E_STATE, 0}, {ACCEL_E_STATE, 0}},
        {{ACCEL_E_ANE_HANDSHAKE, 1}, {ACCEL_OK, 2}, {ACCEL_E_ANE_HANDSHAKE, 1}, {ACCEL_E_ANE_HANDSHAKE, 1}, {ACCEL_E_TIMEOUT, 6}, {ACCEL_E_ANE_HANDSHAKE, 1}},
        {{ACCEL_E_ANE_HANDSHAKE, 2}, {ACCEL_OK, 3}, {ACCEL_E_ANE_HANDSHAKE, 2}, {ACCEL_E_ANE_HANDSHAKE, 2}, {ACCEL_OK, 1}, {ACCEL_E_ANE_HANDSHAKE, 2}},
        {{ACCEL_E_ANE_HANDSHAKE, 3}, {ACCEL_E_ANE_HANDSHAKE, 3}, {ACCEL_OK, 3}, {ACCEL_E_ANE_HANDSHAKE, 3}, {ACCEL_E_TIMEOUT, 6}, {ACCEL_E_ANE_HANDSHAKE, 3}},
        {{ACCEL_E_ANE_HANDSHAKE, 4}, {ACCEL_E_ANE_HANDSHAKE, 4}, {ACCEL_E_ANE_HANDSHAKE, 4}, {ACCEL_E_ANE_HANDSHAKE, 4}, {ACCEL_E_TIMEOUT, 6}, {ACCEL_OK, 4}},
        {{ACCEL_E_STATE, 5}, {ACCEL_E_STATE, 5}, {ACCEL_E_STATE, 5}, {ACCEL_E_STATE, 5}, {ACCEL_E_STATE, 5}, {ACCEL_E_STATE, 5}},
        {{ACCEL_OK, 1}, {ACCEL_E_STATE, 6}, {ACCEL_E_STATE, 6}, {ACCEL_E_STATE, 6}, {ACCEL_E_STATE, 6}, {ACCEL_E_STATE, 6}},
    };
    accel_ane_bringup b;
    unsigned s, e;
    for (s = 0; s < 7; s++) {
        REQUIRE_ST(bu_reach(&b, s), ACCEL_OK);
        CHECK_EQ(b.state, s);
        for (e = 0; e < 6; e++) {
            REQUIRE_ST(bu_reach(&b, s), ACCEL_OK);
            CHECK_ST(accel_ane_bringup_event(&b, e, e == 3 ? ACCEL_ANE_BU_MAGIC1 : 0), T[s][e].st);
            CHECK_EQ(b.state, T[s][e].next);
        }
        CHECK_ST(accel_ane_bringup_event(&b, 6, 0), ACCEL_E_ARG);
    }
    /* scratch 3: wrong magic; channel table walked first */
    REQUIRE_ST(bu_reach(&b, ACCEL_ANE_BU_WAIT_ACK), ACCEL_OK);
    for (e = 0; e < 7; e++) CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_CHANNEL, e),
                                     ACCEL_OK);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_SCRATCH3, ACCEL_ANE_BU_MAGIC1),
             ACCEL_E_ANE_HANDSHAKE);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_CHANNEL, 6), ACCEL_E_ANE_HANDSHAKE);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_CHANNEL, 8), ACCEL_E_ARG);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_CHANNEL, 7), ACCEL_OK);
    CHECK_STR(accel_ane_channel_name(7), "DATA_CHAIN_H2T");
    CHECK_STR(accel_ane_channel_name(8), "");
    /* heap must exceed twice the reservation */
    CHECK_ST(accel_ane_check_boot_heap(201, 100), ACCEL_OK);
    CHECK_ST(accel_ane_check_boot_heap(200, 100), ACCEL_E_ANE_INVARIANT);
    CHECK_ST(accel_ane_check_boot_heap(0xFFFFFFFFu, 0x7FFFFFFFu), ACCEL_OK);
    CHECK_ST(accel_ane_check_boot_heap(0xFFFFFFFFu, 0x80000000u), ACCEL_E_ANE_INVARIANT);
    CHECK_ST(accel_ane_check_boot_heap(1, 0), ACCEL_OK);
    CHECK_ST(accel_ane_check_boot_heap(0, 0), ACCEL_E_ANE_INVARIANT);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_SCRATCH3, ACCEL_ANE_BU_MAGIC1 + 1),
             ACCEL_E_ANE_HANDSHAKE);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_SCRATCH3, ACCEL_ANE_BU_MAGIC1), ACCEL_OK);
    /* first commands strictly in order */
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_FIRST_CMD, 1), ACCEL_E_ANE_HANDSHAKE);
    for (e = 0; e < 9; e++) CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_FIRST_CMD, e),
                                     ACCEL_OK);
    CHECK_EQ(b.state, ACCEL_ANE_BU_READY);
    CHECK_STR(accel_ane_first_cmd_name(0), "PRINT_ENABLE");
    CHECK_STR(accel_ane_first_cmd_name(8), "SHARED_EVENT_INFO_INIT");
    CHECK_STR(accel_ane_first_cmd_name(9), "");
    /* bounded power-cycle retries */
    REQUIRE_ST(bu_reach(&b, ACCEL_ANE_BU_WAIT_CHANNELS), ACCEL_OK);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_TIMEOUT, 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_SCRATCH7, 0), ACCEL_OK);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_TIMEOUT, 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_SCRATCH7, 0), ACCEL_OK);
    CHECK_ST(accel_ane_bringup_event(&b, ACCEL_ANE_BU_EV_TIMEOUT, 0), ACCEL_E_TIMEOUT);
    CHECK_EQ(b.state, ACCEL_ANE_BU_FAILED);
    CHECK_EQ(b.failures, 3);
}

static void test_stats_buffer(void)
{
    accel_ane_stats_hdr h, g;
    accel_ane_stats_engine e[33], ge;
    uint8_t buf[0x28 + 33 * 0x20];
    size_t len, i;
    unsigned n;
    memset(e, 0, sizeof e);
    h.timing = 0x1122334455667788ULL; h.word0c = 0xc; h.word18 = 0x18; h.counter = 0x99;
    for (i = 0; i < 33; i++) {
        e[i].engine_id = (uint32_t)i; e[i].type = 1; e[i].call_index = 2; e[i].engine_index = (uint32_t)i;
        e[i].counters[0] = 0xa0 + (uint32_t)i; e[i].counters[3] = 0xd0;
    }
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 2, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_EQ(len, 0x28 + 0x40);
    CHECK_EQ(buf[0], 0x01); CHECK_EQ(buf[1], 0x01);
    CHECK_EQ(buf[4], 0x88); CHECK_EQ(buf[11], 0x11);
    CHECK_EQ(buf[0x0c], 0x0c); CHECK_EQ(buf[0x18], 0x18); CHECK_EQ(buf[0x1c], 0x99);
    CHECK_EQ(accel_load_u32le(buf + 0x24), 0x40);
    CHECK_EQ(accel_load_u32le(buf + 0x28 + 0x20 + 16), 0xa1);
    CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n), ACCEL_OK);
    CHECK_EQ(n, 2); CHECK_EQ_U64(g.timing, h.timing); CHECK_EQ(g.counter, 0x99);
    CHECK_ST(accel_ane_stats_engine_at(buf, len, 1, &ge), ACCEL_OK);
    CHECK_EQ(ge.engine_id, 1); CHECK_EQ(ge.counters[0], 0xa1); CHECK_EQ(ge.counters[3], 0xd0);
    CHECK_ST(accel_ane_stats_engine_at(buf, len, 2, &ge), ACCEL_E_ARG);
    for (i = 0; i < len; i++) CHECK_ST(accel_ane_decode_run_stats(buf, i, &g, &n), ACCEL_E_TRUNCATED);
    buf[1] = 0x02; CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n), ACCEL_E_ANE_STATS_MAGIC);
    buf[1] = 0x01; buf[0x24] = 0x41; CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n),
                                              ACCEL_E_MALFORMED);
    buf[0x24] = 0x40; buf[0x10] = 1; CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n),
                                              ACCEL_E_MALFORMED);
    buf[0x10] = 0;
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 32, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n), ACCEL_OK); CHECK_EQ(n, 32);
    accel_store_u32le(buf + 0x24, 33 * 0x20);
    CHECK_ST(accel_ane_decode_run_stats(buf, sizeof buf, &g, &n), ACCEL_E_MALFORMED);
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 33, buf, sizeof buf, &len), ACCEL_E_ARG);
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 2, buf, 0x28 + 0x3f, &len), ACCEL_E_BUFFER_TOO_SMALL);
    /* null-buffer rule: never mapped -> nothing written, no error */
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 2, NULL, 100, &len), ACCEL_OK); CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 2, buf, 0, &len), ACCEL_OK); CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_run_stats(&h, e, 0, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_EQ(len, 0x28);
    CHECK_ST(accel_ane_decode_run_stats(buf, len, &g, &n), ACCEL_OK); CHECK_EQ(n, 0);
}


/* ---- fast-path dispatcher: each id class and each outcome ---- */
/* A valid plain procedure call for program prog into b (256 bytes); *n its length. */
static accel_status mk_call(uint8_t *b, uint32_t id, uint32_t prog, size_t *n)
{
    accel_ane_proc_call pc;
    memset(&pc, 0, sizeof pc);
    pc.id = id; pc.program_id = prog; pc.priority = 4;
    pc.nbr_output_sets = 1; pc.nbr_td_partitions = 1; pc.nbr_event_masks = 1;
    return accel_ane_encode_xl_proc_call(&pc, b, 256, n);
}

static void test_dispatcher(void)
{
    accel_ane_fw_model fw;
    uint8_t b[256];
    size_t n;
    uint32_t id, fastn = 0;
    uint64_t h;
    accel_ane_trigger t;
    REQUIRE_ST(accel_ane_fw_model_init(&fw, 4), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_program(&fw, 144, 1, 1), ACCEL_E_ANE_PROGRAM_ID);
    CHECK_ST(accel_ane_fw_model_program(&fw, 5, 0, 1), ACCEL_E_STATE);
    CHECK_ST(accel_ane_fw_model_program(&fw, 143, 1, 1), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_program(&fw, 5, 1, 0), ACCEL_OK); /* loaded, process not running */
    /* program not loaded: rejected (validity byte) */
    REQUIRE_ST(mk_call(b, 0x204, 7, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_PROGRAM_ID);
    CHECK_EQ(fw.rejected, 1);
    /* not running: dropped and counted */
    REQUIRE_ST(mk_call(b, 0x204, 5, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_NOT_RUNNING);
    CHECK_EQ(fw.dropped, 1);
    /* running: accepted, loop in EXEC, hardware allowed; a second call waits */
    REQUIRE_ST(mk_call(b, 0x204, 143, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_OK);
    CHECK(accel_ane_xl_fsm_hw_allowed(&fw.loop));
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_BUSY);
    CHECK_ST(accel_ane_fw_model_complete(&fw), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_complete(&fw), ACCEL_E_STATE);
    REQUIRE_ST(mk_call(b, 0x212, 143, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_OK);
    REQUIRE_ST(accel_ane_fw_model_complete(&fw), ACCEL_OK);
    CHECK_EQ(fw.accepted, 2);
    /* a bad field: rejected, nothing runs */
    REQUIRE_ST(mk_call(b, 0x204, 143, &n), ACCEL_OK);
    accel_store_u32le(b + 0x0c, 288);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_PROCEDURE_ID);
    CHECK_EQ(fw.loop.state, ACCEL_ANE_XL_RUN);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, 7), ACCEL_E_TRUNCATED);
    /* cache trigger: live handle runs, a stale one is dropped */
    REQUIRE_ST(accel_ane_cr_install(&fw.cr, 0, &h), ACCEL_OK);
    memset(&t, 0, sizeof t);
    t.id = 0x209; t.cache_handler = h; t.exec_timestamp = 1; t.priority = 2;
    t.nbr_requests = 1; t.nbr_output_sets = 1;
    REQUIRE_ST(accel_ane_encode_xl_trigger(&t, b, sizeof b, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_BUSY); /* loop busy: not consumed */
    REQUIRE_ST(accel_ane_fw_model_complete(&fw), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_TIMESTAMP); /* ts 1 again */
    accel_store_u64le(b + 0x10, 2);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n),
             ACCEL_E_BUSY); /* output set still in execution */
    REQUIRE_ST(accel_ane_cr_recycle(&fw.cr, h), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_OK);
    REQUIRE_ST(accel_ane_fw_model_complete(&fw), ACCEL_OK);
    accel_store_u64le(b + 8, h ^ 0x100u);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_HANDLE);
    /* RPC, return pid, data-file load guard */
    b[0] = b[1] = b[2] = b[3] = 0; accel_store_u16le(b + 4, 0xff00);
    REQUIRE_ST(accel_ane_encode_rpc((const uint8_t *)"hi", 2, b + 8, sizeof b - 8, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n + 8), ACCEL_OK);
    CHECK_EQ(fw.rpcs, 1);
    b[8] = 0;
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n + 8), ACCEL_E_ANE_RPC_MAGIC);
    REQUIRE_ST(accel_ane_encode_xl_return_pid(3, b, sizeof b, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n - 1), ACCEL_E_TRUNCATED);
    REQUIRE_ST(accel_ane_encode_xl_hdr(0x2d, b, 8), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, 8), ACCEL_E_STATE);
    fw.data_file_load_enabled = 1;
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, 8), ACCEL_OK);
    /* every id outside the fast path faults the firmware */
    for (id = 0; id <= 0xFFFFu; id++) {
        accel_ane_fw_model f2;
        REQUIRE_ST(accel_ane_fw_model_init(&f2, 1), ACCEL_OK);
        REQUIRE_ST(accel_ane_encode_xl_hdr(id, b, 8), ACCEL_OK);
        if (accel_ane_fw_model_dispatch(&f2, b, 8) == ACCEL_E_ANE_UNSUPPORTED_CMD) {
            CHECK(!accel_ane_xl_accepts(id));
            CHECK_EQ(f2.faulted, 1);
        } else {
            fastn++;
        }
    }
    CHECK_EQ(fastn, 9);
    REQUIRE_ST(accel_ane_encode_xl_hdr(0x200, b, 8), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, 8), ACCEL_E_ANE_UNSUPPORTED_CMD);
    REQUIRE_ST(mk_call(b, 0x204, 143, &n), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, b, n), ACCEL_E_ANE_INVARIANT);
}


static void test_doorbell_and_fabric(void)
{
    accel_ane_fabric f;
    memset(&f, 0, sizeof f);
    f.sysreg = ACCEL_ANE_FAB_WINDOW | ACCEL_ANE_FAB_PATH_EN | ACCEL_ANE_FAB_LINK;
    CHECK_ST(accel_ane_doorbell_emit(&f, ACCEL_ANE_GPU_DOORBELL, 1), ACCEL_OK);
    CHECK_EQ_U64(f.last_target, 0x206468000ULL); CHECK_EQ(f.last_value, 1);
    CHECK(f.window_seen_open); CHECK(f.sysreg & ACCEL_ANE_FAB_WINDOW);
    /* rejected: sticky 1/7 cleared, retry */
    f.response = ACCEL_ANE_FAB_REJECT;
    CHECK_ST(accel_ane_doorbell_emit(&f, 0x1000, 4), ACCEL_E_BUSY);
    CHECK_EQ_U64(f.sysreg & (ACCEL_ANE_FAB_REJECT | ACCEL_ANE_FAB_L2C_UNCORR), 0);
    CHECK(f.sysreg & ACCEL_ANE_FAB_WINDOW);
    CHECK_ST(accel_ane_doorbell_emit(&f, 0x1000, 4), ACCEL_OK);
    CHECK_EQ(f.stores, 3);
    /* uncorrectable L2C error: fatal, even with reject also set */
    f.response = ACCEL_ANE_FAB_L2C_UNCORR | ACCEL_ANE_FAB_REJECT;
    CHECK_ST(accel_ane_doorbell_emit(&f, 0x1000, 4), ACCEL_E_ANE_INVARIANT);
    CHECK_EQ_U64(f.sysreg & ACCEL_ANE_FAB_WINDOW, 0);
    /* power gate: bit 2 set and bit 4 clear */
    f.sysreg = ACCEL_ANE_FAB_PATH_EN | ACCEL_ANE_FAB_LINK | ACCEL_ANE_FAB_LINK2;
    CHECK_ST(accel_ane_fabric_power_gate(&f), ACCEL_E_STATE);
    f.sysreg = ACCEL_ANE_FAB_PATH_EN;
    CHECK_ST(accel_ane_fabric_power_gate(&f), ACCEL_E_STATE);
    f.sysreg = ACCEL_ANE_FAB_PATH_EN | ACCEL_ANE_FAB_LINK | ACCEL_ANE_FAB_WINDOW;
    CHECK_ST(accel_ane_fabric_power_gate(&f), ACCEL_OK);
    CHECK_EQ_U64(f.sysreg, ACCEL_ANE_FAB_WINDOW);
}

int main(void)
{
    tl_seed(12345);
    RUN(test_exec_loop_table);
    RUN(test_process_table);
    RUN(test_cache_request_table);
    RUN(test_cache_request_rules);
    RUN(test_sched_order_and_credit);
    RUN(test_sched_random_load);
    RUN(test_sched_deadline_and_gate);
    RUN(test_msgq_and_pool);
    RUN(test_bringup_table);
    RUN(test_stats_buffer);
    RUN(test_dispatcher);
    RUN(test_doorbell_and_fabric);
    return TEST_END();
}
