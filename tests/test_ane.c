/* test_ane.c - Apple Neural Engine section: direct submission, argument checks, and the TM/TQ
 * register model. One case replays tm_submit_trace.txt (the register accesses of one submission
 * as the Asahi Linux driver performs them, transcribed from its ane_tm.c and m1n1's hw/ane.py):
 * a third-party artefact, not in the repository, read from $ACCEL_ANE_DATA (testlib.h's
 * tl_data_dir); that case skips by name without it. Protocol and firmware-model tests are
 * in test_ane_proto.c / test_ane_model.c. */
/* only the ane section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "accel_sim_sessions.h"
#include <stdlib.h>

#define MAXLOG 512
typedef struct logent {
    unsigned op; /* ACCEL_SIM_OP_REG_READ / _WRITE */
    uint32_t off, val;
} logent;
static logent g_log[MAXLOG];
static size_t g_n;

static void trace_cb(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (g_n < MAXLOG && (ev->op == ACCEL_SIM_OP_REG_READ || ev->op == ACCEL_SIM_OP_REG_WRITE)) {
        g_log[g_n].op = ev->op;
        g_log[g_n].off = ev->target;
        g_log[g_n].val = (uint32_t)ev->reg_value;
        g_n++;
    }
}

/* A rig: the register model behind the simulator (r.model.tm / r.model.tq are the registers),
 * the host's TM on its port, every register access logged in g_log. */
typedef accel_sim_ane_session rig;

static accel_status rig_init(rig *r)
{
    g_n = 0;
    return accel_sim_ane_session_init(r, trace_cb, NULL);
}

/* The trace's example: qid 4, nid 0x40, td_size 0x274, td_count 1. */
static uint32_t g_bar[32];
static accel_ane_request example_req(void)
{
    accel_ane_request q;
    unsigned i;
    for (i = 0; i < 32; i++) g_bar[i] = 0x10000000u + i * 0x1000u;
    q.qid = 4;
    q.nid = 0x40;
    q.td_size = 0x274;
    q.td_count = 1;
    q.btsp_iova = 0x0badc000u;
    q.bar = g_bar;
    q.nbar = 32;
    return q;
}

/* One expected access parsed from the trace file. */
typedef struct expect {
    char op; /* 'W', 'R' or 'P' */
    uint32_t off;
    int kind; /* 0 exact, 1 or-into-previous (|=), 2 =R(addr), 3 bar[i], 4 btsp_iova */
    uint32_t val, from;
} expect;

static int parse_trace(const char *path, expect *ex, int max)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0;
    if (!f) {
        printf("  cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char op, *p, *e;
        unsigned long a, b;
        if (line[0] != 'W' && line[0] != 'R' && line[0] != 'P') continue;
        op = line[0];
        a = strtoul(line + 1, &p, 16);
        b = a;
        if (p[0] == '.' && p[1] == '.') b = strtoul(p + 2, &p, 16);
        while (*p == ' ') p++;
        for (; a <= b && n < max; a += 4, n++) {
            ex[n].op = op;
            ex[n].off = (uint32_t)a;
            ex[n].kind = 0;
            ex[n].val = 0;
            if (op != 'W') continue;
            if ((e = strstr(p, "|=")) != NULL) {
                ex[n].kind = 1;
                ex[n].val = (uint32_t)strtoul(e + 2, NULL, 16);
            } else if (strncmp(p, "=R(", 3) == 0) {
                ex[n].kind = 2;
                ex[n].from = (uint32_t)strtoul(p + 3, NULL, 16);
            } else if (strncmp(p, "bar[", 4) == 0) {
                ex[n].kind = 3;
                ex[n].val = (uint32_t)((a - 0x21540u) / 4u);
            } else if (strncmp(p, "btsp_iova", 9) == 0) {
                ex[n].kind = 4;
            } else {
                ex[n].val = (uint32_t)strtoul(p, NULL, 16);
            }
        }
    }
    fclose(f);
    return n;
}

/* Reproduce the trace write for write: every W line in order with its value, and every R/P
 * line as a read of that register between the neighbouring writes. */
static void test_trace_reproduced(void)
{
    static expect ex[128];
    char path[600];
    rig r;
    accel_ane_request q = example_req();
    accel_ane_result res;
    const char *dir;
    int n, i, nw = 0;
    size_t li = 0;
    uint32_t regs_written[64][2];
    int nrw = 0;
    REQUIRE_DATA("ACCEL_ANE_DATA", "ane");
    dir = tl_data_dir("ACCEL_ANE_DATA", "ane");
    snprintf(path, sizeof path, "%s/tm_submit_trace.txt", dir);
    n = parse_trace(path, ex, 128);
    REQUIRE(n > 40);
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_submit(&r.tm, &q, &res), ACCEL_OK);
    CHECK_EQ(res.irq_count[0], 1);
    CHECK_EQ(res.irq_count[1], 0);
    CHECK_EQ(res.tm_status & 1u, 1);
    for (i = 0; i < n; i++) {
        /* find the next access of the same kind; reads the trace does not list are allowed only
         * before their write (e.g. the read half of |=), never extra writes */
        if (ex[i].op == 'W') {
            uint32_t want = ex[i].val;
            while (li < g_n && g_log[li].op != ACCEL_SIM_OP_REG_WRITE) li++;
            REQUIRE(li < g_n);
            if (ex[i].kind == 1) {
                /* |=: the value read from that register just before, or-ed */
                CHECK(li > 0 && g_log[li - 1].op == ACCEL_SIM_OP_REG_READ &&
                      g_log[li - 1].off == ex[i].off);
                want = (li > 0 ? g_log[li - 1].val : 0) | ex[i].val;
            } else if (ex[i].kind == 2) {
                int k, found = 0;
                for (k = 0; k < nrw; k++)
                    if (regs_written[k][0] == ex[i].from) { want = regs_written[k][1]; found = 1; }
                CHECK(found);
                CHECK(li > 0 && g_log[li - 1].op == ACCEL_SIM_OP_REG_READ &&
                      g_log[li - 1].off == ex[i].from);
            } else if (ex[i].kind == 3) {
                want = g_bar[ex[i].val];
            } else if (ex[i].kind == 4) {
                want = q.btsp_iova;
            }
            CHECK_EQ(g_log[li].off, ex[i].off);
            CHECK_EQ(g_log[li].val, want);
            if (nrw < 64) {
                regs_written[nrw][0] = ex[i].off;
                regs_written[nrw][1] = want;
                nrw++;
            }
            nw++;
            li++;
        } else {
            while (li < g_n && !(g_log[li].op == ACCEL_SIM_OP_REG_READ && g_log[li].off == ex[i].off)) {
                CHECK(g_log[li].op == ACCEL_SIM_OP_REG_READ); /* no write may be skipped */
                li++;
            }
            REQUIRE(li < g_n);
            if (ex[i].op == 'P') CHECK_EQ(g_log[li].val & 1u, 1);
            li++;
        }
    }
    /* nothing after the trace's last access but reads */
    for (; li < g_n; li++) CHECK(g_log[li].op == ACCEL_SIM_OP_REG_READ);
    CHECK_EQ(nw, 1 + 8 + 2 + 1 + 32 + 3 + 3 + 1 + 1);
}

/* The trace's example submission, with the values it spells out written down here (so this part
 * runs without the trace): size word, request info and push word, NID, released queue. */
static void test_example_submission(void)
{
    rig r;
    accel_ane_request q = example_req();
    accel_ane_result res;
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_submit(&r.tm, &q, &res), ACCEL_OK);
    CHECK_EQ(res.irq_count[0], 1);
    CHECK_EQ(res.irq_count[1], 0);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0x130) / 4], 0x009c0000u);
    CHECK_EQ(r.model.tm[0x04 / 4], 0x009c0001u);
    CHECK_EQ(r.model.tm[0x08 / 4], 0x00000405u);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0xa0) / 4], 0x00004001u);
    CHECK_EQ(r.model.tq[(4 * 0x148) / 4], 0);
    CHECK_EQ(r.model.bad_writes, 0);
}

static void test_priority_and_push_words(void)
{
    static const uint32_t want[8] = {1, 2, 3, 4, 5, 6, 30, 31};
    unsigned q;
    for (q = 0; q < 8; q++) CHECK_EQ(accel_ane_tq_priority(q), want[q]);
    CHECK_EQ(accel_ane_tq_priority(8), 0);
    CHECK_EQ(accel_ane_tq_reg(4, ACCEL_ANE_TQ_PRTY), 0x21530u);
    CHECK_EQ(accel_ane_tq_reg(7, ACCEL_ANE_TQ_PRTY), 0x21908u);
    CHECK_EQ(accel_ane_tm_reg(ACCEL_ANE_TM_STATUS), 0x20054u);
    /* every queue: push word prty | q << 8 */
    for (q = 0; q < 8; q++) {
        rig r;
        accel_ane_request rq = example_req();
        rq.qid = q;
        REQUIRE_ST(rig_init(&r), ACCEL_OK);
        REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
        CHECK_ST(accel_ane_tm_submit(&r.tm, &rq, NULL), ACCEL_OK);
        CHECK_EQ(r.model.tm[0x08 / 4], want[q] | (q << 8));
        CHECK_EQ(r.model.tq[(q * 0x148 + 0x134) / 4], 0x0badc000u);
    }
}

static void test_request_limits(void)
{
    accel_ane_request q = example_req();
    CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    CHECK_ST(accel_ane_check_request(NULL), ACCEL_E_NULL);
    q.qid = 7; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.qid = 8; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_QUEUE);
    q = example_req();
    q.nid = 255; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.nid = 256; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_NID);
    q = example_req();
    q.nbar = 32; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.nbar = 33; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_BAR_COUNT);
    q.nbar = 1; q.bar = NULL; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_NULL);
    q.nbar = 0; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q = example_req();
    q.td_size = 4; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.td_size = 0; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_TD_SIZE);
    q.td_size = 0x40000; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.td_size = 0x40004; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_TD_SIZE);
    q.td_size = 0x276; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_TD_SIZE);
    q = example_req();
    q.td_count = 0xFFFF; CHECK_ST(accel_ane_check_request(&q), ACCEL_OK);
    q.td_count = 0x10000; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_TD_COUNT);
    q.td_count = 0; CHECK_ST(accel_ane_check_request(&q), ACCEL_E_ANE_TD_COUNT);
}

static void test_size_word_extremes(void)
{
    rig r;
    accel_ane_request q = example_req();
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    q.td_size = 0x40000; q.td_count = 0xFFFF; q.nbar = 2;
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, NULL), ACCEL_OK);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0x130) / 4], 0xFFFF0000u);
    CHECK_EQ(r.model.tm[0x04 / 4], 0xFFFFFFFFu);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0x20 + 8) / 4], 0); /* BAR2..31 zero-filled */
    q.td_size = 4; q.td_count = 1; q.nid = 0xff;
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, NULL), ACCEL_OK);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0x130) / 4], 0);
    CHECK_EQ(r.model.tq[(4 * 0x148 + 0xa0) / 4], 0xff01u);
}

static void test_state_errors(void)
{
    rig r;
    accel_ane_request q = example_req();
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_E_STATE); /* not enabled */
    CHECK_EQ(g_n, 0);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    CHECK_ST(accel_ane_tm_push(&r.tm, &q), ACCEL_E_STATE); /* nothing enqueued */
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    g_n = 0;
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_E_ANE_QUEUE_BUSY);
    CHECK_EQ(g_n, 0); /* rejected before any register access */
    q.qid = 9;
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_E_ANE_QUEUE);
    CHECK_EQ(g_n, 0);
    q.qid = 4;
    CHECK_ST(accel_ane_tm_execute(&r.tm, &q, NULL), ACCEL_OK);
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK); /* free again */
    CHECK_ST(accel_ane_tm_release(&r.tm, 8), ACCEL_E_ANE_QUEUE);
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 2, NULL, 0, NULL), ACCEL_E_ARG);
    CHECK_ST(accel_ane_tm_init(NULL, &r.sim.port), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_enable(NULL), ACCEL_E_NULL);
    /* disable clears the enables and the TQ_EN bit, keeps the others */
    r.model.tm[0x0c / 4] |= 0x2000u;
    CHECK_ST(accel_ane_tm_disable(&r.tm), ACCEL_OK);
    CHECK_EQ(r.model.tm[0x0c / 4], 0x2000u);
    CHECK_EQ(r.model.tm[0x68 / 4], 0);
    CHECK_EQ(r.model.tm[0x70 / 4], 0);
}

static void test_timeout_and_stuck(void)
{
    rig r;
    accel_ane_request q = example_req();
    accel_ane_result res;
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    r.model.stuck = 1;
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, &res), ACCEL_E_TIMEOUT);
    CHECK(r.sim.now >= 1000 && r.sim.now <= 1002);
    CHECK_EQ(res.tm_status & 1u, 0);
    CHECK_EQ(r.model.tq[(4 * 0x148) / 4], 0);         /* released anyway */
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK); /* and usable */
    /* slow but in time: exec 999 ms */
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    r.model.exec_ms = 999;
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, &res), ACCEL_OK);
    CHECK_EQ(res.irq_count[0], 1);
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    r.model.exec_ms = 1002;
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, &res), ACCEL_E_TIMEOUT);
}

static void test_irq_events(void)
{
    rig r;
    accel_ane_irq_event ev[2];
    uint32_t n = 0;
    accel_ane_request q = example_req();
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_push(&r.tm, &q), ACCEL_OK);
    CHECK_ST(accel_ane_tm_wait_idle(&r.tm, NULL), ACCEL_OK);
    CHECK_EQ(r.model.tm[0x44 / 4] >> 16 & 0xff, 0x40);
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 0, ev, 2, &n), ACCEL_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(ev[0].info, 0x01400000u); /* CNT 1, NID 0x40 */
    CHECK_EQ(r.model.tm[0x14 / 4], 0);     /* acked */
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 0, NULL, 1, &n), ACCEL_E_NULL);
    /* an absurd device count is bounded */
    r.model.tm[0x28 / 4] = 0xFFFFFFFFu;
    g_n = 0;
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 1, ev, 2, &n), ACCEL_E_OVERFLOW);
    CHECK_EQ(n, 0xFFFFFFFFu);
    CHECK_EQ(g_n, 1 + 4 * ACCEL_ANE_IRQ_MAX_EVENTS);
    r.model.tm[0x28 / 4] = ACCEL_ANE_IRQ_MAX_EVENTS;
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 1, ev, 2, &n), ACCEL_OK);
}

static void test_port_faults(void)
{
    rig r;
    accel_sim_fault f;
    accel_ane_request q = example_req();
    accel_port none;
    accel_ane_tm tm;
    REQUIRE_ST(rig_init(&r), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enable(&r.tm), ACCEL_OK);
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FAIL;
    f.ops = ACCEL_SIM_OP_REG_WRITE;
    f.skip = 5; /* fail inside the BAR writes */
    f.count = 1;
    accel_sim_add_fault(&r.sim, &f);
    CHECK_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_E_IO);
    CHECK_EQ(r.tm.busy, 0); /* the queue is given back */
    CHECK_EQ(r.model.tq[(4 * 0x148) / 4], 0);
    CHECK_ST(accel_ane_tm_submit(&r.tm, &q, NULL), ACCEL_OK);
    memset(&none, 0, sizeof none);
    REQUIRE_ST(accel_ane_tm_init(&tm, &none), ACCEL_OK);
    CHECK_ST(accel_ane_tm_enable(&tm), ACCEL_E_UNSUPPORTED);
}

static void test_td_header(void)
{
    accel_ane_td_hdr0 h;
    uint8_t td[8] = {0xaa, 0xbb, 0xcc, 0xfd, 1, 2, 3, 4};
    h.tid = 0x12; h.nid = 0x34; h.lnid = 0x56; h.eon = 0x78;
    CHECK_EQ(accel_ane_pack_td_hdr0(&h), 0x12345678u);
    accel_ane_unpack_td_hdr0(0xfedcba98u, &h);
    CHECK_EQ(h.tid, 0xfe); CHECK_EQ(h.nid, 0xdc); CHECK_EQ(h.lnid, 0xba); CHECK_EQ(h.eon, 0x98);
    /* libane: (hdr0 & 0x0f00ffff) | nid << 16 */
    CHECK_EQ(accel_ane_td_hdr0_set_nid(0xfedcba98u, 0x40), 0x0e40ba98u);
    CHECK_ST(accel_ane_td_patch_nid(td, 8, 0x40), ACCEL_OK);
    CHECK_EQ(td[0], 0xaa); CHECK_EQ(td[1], 0xbb); CHECK_EQ(td[2], 0x40); CHECK_EQ(td[3], 0x0d);
    CHECK_EQ(td[4], 1);
    CHECK_ST(accel_ane_td_patch_nid(td, 3, 0x40), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_td_patch_nid(td, 4, 256), ACCEL_E_ANE_NID);
    CHECK_ST(accel_ane_td_patch_nid(NULL, 4, 1), ACCEL_E_NULL);
}

int main(void)
{
    RUN(test_example_submission);
    RUN(test_trace_reproduced);
    RUN(test_priority_and_push_words);
    RUN(test_request_limits);
    RUN(test_size_word_extremes);
    RUN(test_state_errors);
    RUN(test_timeout_and_stuck);
    RUN(test_irq_events);
    RUN(test_port_faults);
    RUN(test_td_header);
    return TEST_END();
}
