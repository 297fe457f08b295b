/* tsp1_rig.h - the TSP1 driver, the device model and ports/sim wired together for the driver
 * tests (test_tsp1_driver.c, test_tsp1_xfer.c, test_tsp1_i2c.c). Include after accel.h (with the
 * implementation), accel_sim.h and testlib.h. Records every outcome, every async message and,
 * per TID, what the model's log says it did with the command (its ground truth). */
#ifndef TSP1_RIG_H
#define TSP1_RIG_H

#define RIG_MAX 512

typedef struct {
    accel_sim sim;
    accel_tsp1_model m;
    uint8_t mmem[4 * 1024 + 64];
    accel_tsp1 s;
    uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(32, 576, 588) + 3) / 4]; /* the driver's */
    /* outcome log */
    uint16_t o_tid[RIG_MAX], o_cmd[RIG_MAX], o_resp[RIG_MAX];
    accel_status o_st[RIG_MAX];
    unsigned n_out;
    unsigned n_async, n_ready;
    uint16_t a_id[64];
    /* model log, per TID: what happened to the command, and the response it sent; a marker
       (an ECHO with the TID of the command ahead of it) comes second, kept in mfate */
    uint8_t fate[65536], mfate[65536];
    uint16_t fate_resp[65536], mfate_resp[65536];
    unsigned n_events[8];
    unsigned n_rsp_wiped;
} rig;

static rig R;

static void rig_outcome(void *u, const accel_tsp1_outcome *o)
{
    rig *r = (rig *)u;
    if (r->n_out < RIG_MAX) {
        r->o_tid[r->n_out] = o->tid;
        r->o_cmd[r->n_out] = o->cmd;
        r->o_st[r->n_out] = o->status;
        r->o_resp[r->n_out] = o->resp ? o->resp->id : 0;
    }
    r->n_out++;
}

static void rig_async(void *u, const accel_tsp1_frame *f)
{
    rig *r = (rig *)u;
    if (r->n_async < 64) r->a_id[r->n_async] = f->id;
    r->n_async++;
    if (f->id == ACCEL_TSP1_R_ASYNC_READY) r->n_ready++;
}

static void rig_log(void *u, const accel_tsp1_model_event *e)
{
    rig *r = (rig *)u;
    if (e->what < 8) r->n_events[e->what]++;
    if (e->what == ACCEL_TSP1_MODEL_RSP_WIPED) r->n_rsp_wiped++;
    if (e->what == ACCEL_TSP1_MODEL_RAN || e->what == ACCEL_TSP1_MODEL_DISCARDED ||
        (e->what == ACCEL_TSP1_MODEL_WIPED && e->id)) {
        if (!r->fate[e->tid]) {
            r->fate[e->tid] = e->what;
            r->fate_resp[e->tid] = e->resp;
        } else {
            r->mfate[e->tid] = e->what;
            r->mfate_resp[e->tid] = e->resp;
        }
    }
}

/* A driver configuration on the rig's simulator port, its outcomes recorded in R: driver
 * memory mem (mem_len bytes), depth pending commands, payloads of 576/588 bytes, 200 ms. A test
 * that opens a session of its own changes what it needs before accel_tsp1_init. */
static inline void rig_config(accel_tsp1_config *c, void *mem, size_t mem_len, size_t depth,
                              uint8_t auto_clear)
{
    memset(c, 0, sizeof *c);
    c->bus.port = &R.sim.port;
    c->mem = mem;
    c->mem_len = mem_len;
    c->depth = (uint16_t)depth;
    c->cmd_payload = 576;
    c->rsp_payload = 588;
    c->timeout_ms = 200;
    c->auto_clear = auto_clear;
    c->on_outcome = rig_outcome;
    c->user = &R;
}

/* queue sizes, networks, auto_clear, pending depth, async by callback (else the host queue) */
static void setup(uint16_t cmd_cap, uint16_t rsp_cap, uint8_t nets, uint8_t auto_clear,
                  size_t depth, int async_cb)
{
    accel_port mp;
    accel_tsp1_config c;
    memset(&R, 0, sizeof R);
    accel_sim_init(&R.sim);
    CHECK_ST(accel_tsp1_model_init(&R.m, R.mmem, sizeof R.mmem, cmd_cap, rsp_cap, nets), ACCEL_OK);
    R.m.on_log = rig_log;
    R.m.user = &R;
    accel_tsp1_model_port(&R.m, &mp);
    accel_sim_attach(&R.sim, &mp);
    rig_config(&c, R.mem, sizeof R.mem, depth, auto_clear);
    c.on_async = async_cb ? rig_async : NULL;
    CHECK_ST(accel_tsp1_init(&R.s, &c), ACCEL_OK);
}

/* Synchronise the session (its first command sends CLEAR_ERROR and an ECHO of its nonce ahead),
 * so that a test's fault counts SPI calls of its own commands only. */
static inline void rig_sync(void)
{
    unsigned i;
    CHECK_ST(accel_tsp1_clear_error(&R.s), ACCEL_OK);
    for (i = 0; i < 100 && !R.s.synced; i++) {
        (void)accel_tsp1_poll(&R.s);
        accel_sim_advance(&R.sim, 1);
    }
    (void)accel_tsp1_poll(&R.s);
    CHECK(R.s.synced);
}

/* The boot's ASYNC_READY, then a synchronised session. */
static inline void rig_ready(void)
{
    CHECK_ST(accel_tsp1_wait_ready(&R.s, 100), ACCEL_OK);
    rig_sync();
}

/* The outcome reported for tid (index into the log), or -1. */
static inline int rig_find(uint16_t tid)
{
    unsigned i;
    for (i = 0; i < R.n_out && i < RIG_MAX; i++)
        if (R.o_tid[i] == tid) return (int)i;
    return -1;
}

/* One-shot SPI fault: `skip` matching calls pass first; FLIP xors `mask` (0: 0x04). */
static inline void add_fault_mask(accel_sim_fault_kind k, unsigned dir, uint32_t skip, size_t at,
                           uint8_t mask)
{
    accel_sim_fault f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.ops = ACCEL_SIM_OP_SPI;
    f.dir = dir;
    f.skip = skip;
    f.count = 1;
    f.at = at;
    f.mask = mask ? mask : 0x04;
    CHECK_ST(accel_sim_add_fault(&R.sim, &f), ACCEL_OK);
}
static inline void add_fault(accel_sim_fault_kind k, unsigned dir, uint32_t skip, size_t at)
{
    add_fault_mask(k, dir, skip, at, 0);
}

/* Poll with 1 ms steps until nothing is pending (or ms pass). */
static inline void drain(unsigned ms)
{
    unsigned i;
    /* the rig only runs the clock: the tests check outcomes (on_outcome), not poll's status */
    for (i = 0; i < ms && accel_ring_count(&R.s.pend); i++) {
        (void)accel_tsp1_poll(&R.s);
        accel_sim_advance(&R.sim, 1);
    }
    (void)accel_tsp1_poll(&R.s);
}

/* The response preamble as it appears on the wire (little-endian unless configured). */
#if ACCEL_TSP1_BIG_ENDIAN
static const uint8_t rsp_pre[2] = {0xCC, 0x55};
#else
static const uint8_t rsp_pre[2] = {0x55, 0xCC};
#endif

/* An NN mask payload in the frames' byte order. */
static inline const uint8_t *mask4(uint8_t *p, uint32_t v)
{
    if (ACCEL_TSP1_BIG_ENDIAN) accel_store_u32be(p, v);
    else accel_store_u32le(p, v);
    return p;
}

#endif
