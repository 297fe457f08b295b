/* test_ane_errors.c - ANE section: every argument check and error path that the protocol,
 * model and direct-submission tests leave out. Each case provokes one refusal, checks its
 * precise status, and checks that the outputs or the state it must not touch are unchanged (or
 * cleared, where the function documents clearing them first). */
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

static uint8_t buf[4096];

/* An encoder fn(obj, out, cap, &len) with each pointer NULL in turn: ACCEL_E_NULL, and len (set
 * to 99 before) cleared to 0 whenever it is given. Uses the caller's 64-byte b. */
#define CHECK_ENCODE_NULLS(fn, obj)                                                            \
    do {                                                                                       \
        size_t l_ = 99;                                                                        \
        CHECK_ST(fn(NULL, b, sizeof b, &l_), ACCEL_E_NULL);                                    \
        CHECK_EQ(l_, 0);                                                                       \
        l_ = 99;                                                                               \
        CHECK_ST(fn((obj), NULL, sizeof b, &l_), ACCEL_E_NULL);                                \
        CHECK_EQ(l_, 0);                                                                       \
        CHECK_ST(fn((obj), b, sizeof b, NULL), ACCEL_E_NULL);                                  \
    } while (0)

/* Every pointer argument, one at a time NULL: ACCEL_E_NULL, and no output written except the
 * ones a function clears first. */
static void test_null_arguments(void)
{
    uint8_t b[64];
    uint32_t u32 = 0x5a5a5a5au, id = 7;
    uint64_t u64 = 9, u64b = 9;
    size_t len = 99;
    unsigned v = 3;
    const uint8_t *body = buf;
    accel_ane_td_hdr0 h0;
    accel_ane_tm tm;
    accel_ane_tm_model m;
    accel_port port;
    accel_ane_request req;
    accel_ane_result res;
    accel_ane_irq_event ev[2];
    accel_ane_event e;
    accel_ane_bar bar;
    accel_ane_ctl_hdr ch;
    accel_ane_proc_call pc;
    accel_ane_chain_buf cb;
    accel_ane_trigger t;
    accel_ane_note note;
    accel_ane_xl_fsm xf;
    accel_ane_proc_fsm pf;
    accel_ane_cr_pool crp;
    accel_ane_sched s;
    accel_ane_job job;
    accel_ane_msgq q;
    accel_ane_pool pool;
    accel_ane_bringup bu;
    accel_ane_stats_hdr sh;
    accel_ane_stats_engine se;
    accel_ane_fabric fab;
    accel_ane_fw_model fw;

    memset(b, 0xEE, sizeof b);
    memset(&tm, 0, sizeof tm);
    memset(&req, 0, sizeof req);
    memset(&res, 0xCC, sizeof res);
    memset(&e, 0, sizeof e);
    memset(&bar, 0, sizeof bar);
    memset(&ch, 0, sizeof ch);
    memset(&pc, 0, sizeof pc);
    memset(&cb, 0, sizeof cb);
    memset(&t, 0, sizeof t);
    memset(&note, 0, sizeof note);
    memset(&job, 0, sizeof job);
    memset(&sh, 0, sizeof sh);
    memset(&fab, 0, sizeof fab);

    /* TD header helpers: a NULL header packs to 0 and unpacking into NULL does nothing */
    CHECK_EQ(accel_ane_pack_td_hdr0(NULL), 0);
    accel_ane_unpack_td_hdr0(0x12345678u, NULL);
    h0.tid = 1;
    accel_ane_unpack_td_hdr0(0x12345678u, &h0);
    CHECK_EQ(h0.tid, 0x12);

    /* direct submission: a TM without a port counts as NULL too */
    CHECK_ST(accel_ane_tm_init(NULL, &port), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_init(&tm, NULL), ACCEL_E_NULL);
    CHECK(tm.port == NULL);
    CHECK_ST(accel_ane_tm_enable(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_enable(&tm), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_disable(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_disable(&tm), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_enqueue(NULL, &req), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_enqueue(&tm, &req), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_push(NULL, &req), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_push(&tm, &req), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_wait_idle(NULL, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_wait_idle(&tm, &u32), ACCEL_E_NULL);
    CHECK_EQ(u32, 0x5a5a5a5au);
    CHECK_ST(accel_ane_tm_drain_irq(NULL, 0, ev, 2, &u32), ACCEL_E_NULL);
    CHECK_EQ(u32, 0); /* the count is cleared first */
    u32 = 5;
    CHECK_ST(accel_ane_tm_drain_irq(&tm, 0, ev, 2, &u32), ACCEL_E_NULL);
    CHECK_EQ(u32, 0);
    CHECK_ST(accel_ane_tm_release(NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_release(&tm, 0), ACCEL_E_NULL);
    /* execute / submit refuse a NULL TM and still zero the result */
    CHECK_ST(accel_ane_tm_execute(NULL, &req, &res), ACCEL_E_NULL);
    CHECK_EQ(res.tm_status, 0);
    CHECK_EQ(res.irq_count[0], 0);
    memset(&res, 0xCC, sizeof res);
    CHECK_ST(accel_ane_tm_submit(NULL, &req, &res), ACCEL_E_NULL);
    CHECK_EQ(res.tm_status, 0);
    CHECK_EQ(res.irq_count[1], 0);
    CHECK_ST(accel_ane_tm_execute(NULL, NULL, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_submit(NULL, NULL, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_model_init(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_model_port(NULL, &port), ACCEL_E_NULL);
    CHECK_ST(accel_ane_tm_model_init(&m), ACCEL_OK);
    CHECK_ST(accel_ane_tm_model_port(&m, NULL), ACCEL_E_NULL);

    /* tables and records */
    CHECK(accel_ane_cmd_table(NULL) != NULL);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x204, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_event(NULL, b, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_event(&e, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_event(NULL, sizeof b, &e), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_event(b, sizeof b, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_bar(NULL, b, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_bar(&bar, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_bar(NULL, sizeof b, &bar), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_bar(b, sizeof b, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_xl_hdr(0x204, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_xl_hdr(NULL, 8, &id), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_xl_hdr(b, 8, NULL), ACCEL_E_NULL);
    CHECK_EQ(id, 7);
    CHECK_ST(accel_ane_encode_ctl_hdr(NULL, b, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_ctl_hdr(&ch, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_ctl_hdr(NULL, sizeof b, 4096, &ch, &body), ACCEL_E_NULL);
    CHECK(body == NULL); /* cleared first */
    body = buf;
    CHECK_ST(accel_ane_decode_ctl_hdr(b, sizeof b, 4096, NULL, &body), ACCEL_E_NULL);
    CHECK(body == NULL);
    CHECK_ST(accel_ane_proc_call_variant(0x204, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_check_proc_call(NULL), ACCEL_E_NULL);

    /* procedure calls: len cleared first, each of pc/out/len */
    CHECK_ENCODE_NULLS(accel_ane_encode_xl_proc_call, &pc);
    CHECK_ST(accel_ane_decode_xl_proc_call(NULL, 64, &pc), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_xl_proc_call(b, 64, NULL), ACCEL_E_NULL);
    CHECK_ENCODE_NULLS(accel_ane_encode_ctl_proc_call, &pc);
    CHECK_ST(accel_ane_decode_ctl_proc_call(NULL, 64, 4096, &ch, &pc), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_ctl_proc_call(b, 64, 4096, NULL, &pc), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_ctl_proc_call(b, 64, 4096, &ch, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_check_chain_buf(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_chain_buf(NULL, 64, 1, &cb), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_chain_buf(b, 64, 1, NULL), ACCEL_E_NULL);

    /* trigger, rpc, return pid */
    CHECK_ENCODE_NULLS(accel_ane_encode_xl_trigger, &t);
    t.id = 0x209; /* a valid trigger with a count but no array */
    t.nbr_requests = 1;
    t.nbr_output_sets = 1;
    t.priority = 3;
    t.nbr_inputs = 1;
    t.inputs = NULL;
    len = 99;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, b, sizeof b, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_decode_xl_trigger(NULL, 64, &t), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_xl_trigger(b, 64, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_rpc(b, 4, NULL, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_rpc(b, 4, buf, sizeof buf, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_rpc(NULL, 4, buf, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    body = buf;
    u32 = 5;
    CHECK_ST(accel_ane_decode_rpc(NULL, 16, &body, &u32), ACCEL_E_NULL);
    CHECK(body == NULL);
    CHECK_EQ(u32, 0);
    CHECK_ST(accel_ane_decode_rpc(b, 16, NULL, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_rpc(b, 16, &body, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_xl_return_pid(5, NULL, sizeof b, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_xl_return_pid(5, b, sizeof b, NULL), ACCEL_E_NULL);

    /* control bodies */
    CHECK_ST(accel_ane_encode_property(1, 0x1000, 1, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_property(1, NULL, 16, &u64, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_property(1, b, 16, NULL, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_property(1, b, 16, &u64, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_premap(1, 1, 0x1000, 0x10, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_premap(NULL, 32, &u64, &u64b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_premap(b, 32, NULL, &u64b), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_premap(b, 32, &u64, NULL), ACCEL_E_NULL);
    CHECK_EQ(u64, 9);
    CHECK_EQ(u64b, 9);
    len = 99;
    CHECK_ST(accel_ane_encode_inference(1, 2, 1, 1, &u64, NULL, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_inference(1, 2, 1, 1, &u64, buf, sizeof buf, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_inference(1, 2, 1, 1, NULL, buf, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_decode_inference(NULL, 64, 1, &u32, &u64, &u64b, &body), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_inference(b, 64, 1, NULL, &u64, &u64b, &body), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_inference(b, 64, 1, &u32, NULL, &u64b, &body), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_inference(b, 64, 1, &u32, &u64, NULL, &body), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_inference(b, 64, 1, &u32, &u64, &u64b, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_cr_body(0x46, 1, 0, NULL, sizeof b, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_cr_body(0x46, 1, 0, b, sizeof b, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_cr_body(0x46, NULL, 16, &u64, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_cr_body(0x46, b, 16, NULL, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_cr_body(0x46, b, 16, &u64, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_force_disable(1, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_force_disable(NULL, 4), ACCEL_E_NULL);

    /* notifications */
    CHECK_ENCODE_NULLS(accel_ane_encode_note, &note);
    CHECK_ST(accel_ane_decode_note(NULL, 16, &note), ACCEL_E_NULL);
    CHECK_ST(accel_ane_decode_note(b, 16, NULL), ACCEL_E_NULL);

    /* state machines and firmware-side models: NULL objects */
    accel_ane_xl_fsm_init(NULL);
    CHECK_ST(accel_ane_xl_fsm_arm(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_xl_fsm_event(NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_xl_fsm_resume(NULL), ACCEL_E_NULL);
    CHECK_EQ(accel_ane_xl_fsm_hw_allowed(NULL), 0);
    accel_ane_xl_fsm_init(&xf);
    CHECK_EQ(accel_ane_xl_fsm_hw_allowed(&xf), 0);
    accel_ane_proc_fsm_init(NULL);
    CHECK_ST(accel_ane_proc_fsm_event(NULL, 0), ACCEL_E_NULL);
    accel_ane_proc_fsm_init(&pf);
    CHECK_ST(accel_ane_cr_init(NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_init(&crp, 4), ACCEL_OK);
    u64 = 77;
    CHECK_ST(accel_ane_cr_install(NULL, 0, &u64), ACCEL_E_NULL);
    CHECK_EQ(u64, 0); /* the handle is cleared first */
    CHECK_ST(accel_ane_cr_install(&crp, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_trigger(NULL, 1, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_recycle(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_invalidate(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_finish_invalidate(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_select(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_cr_force_disable(NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_init(NULL, 1, 0, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_init(&s, 1, 0, 0), ACCEL_OK);
    CHECK_ST(accel_ane_sched_submit(NULL, &job), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_submit(&s, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_dispatch(NULL, 0, &job), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_dispatch(&s, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_complete(NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_tick(NULL, 0, 0, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_ane_sched_fault(NULL, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_msgq_init(NULL, buf, 64, 8), ACCEL_E_NULL);
    CHECK_ST(accel_ane_msgq_init(&q, NULL, 64, 8), ACCEL_E_NULL);
    CHECK_ST(accel_ane_msgq_init(&q, buf, 64, 8), ACCEL_OK);
    CHECK_ST(accel_ane_msgq_send(NULL, b, 4), ACCEL_E_NULL);
    CHECK_ST(accel_ane_msgq_send(&q, NULL, 4), ACCEL_E_NULL);
    CHECK_ENCODE_NULLS(accel_ane_msgq_recv, &q);
    CHECK_ST(accel_ane_pool_init(NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_ane_pool_init(&pool, 4), ACCEL_OK);
    CHECK_ST(accel_ane_pool_alloc(NULL, &v), ACCEL_E_NULL);
    CHECK_ST(accel_ane_pool_alloc(&pool, NULL), ACCEL_E_NULL);
    CHECK_EQ(accel_ane_pool_available(&pool), 4); /* nothing taken by the refused call */
    CHECK_ST(accel_ane_pool_free(NULL, 0), ACCEL_E_NULL);
    CHECK_EQ(accel_ane_pool_available(NULL), 0);
    accel_ane_bringup_init(NULL, 1);
    CHECK_ST(accel_ane_bringup_event(NULL, 0, 0), ACCEL_E_NULL);
    accel_ane_bringup_init(&bu, 1);
    len = 99;
    CHECK_ST(accel_ane_encode_run_stats(NULL, &se, 1, buf, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_ane_encode_run_stats(&sh, &se, 1, buf, sizeof buf, NULL), ACCEL_E_NULL);
    len = 99;
    CHECK_ST(accel_ane_encode_run_stats(&sh, NULL, 1, buf, sizeof buf, &len), ACCEL_E_NULL);
    CHECK_EQ(len, 0);
    v = 3;
    CHECK_ST(accel_ane_decode_run_stats(NULL, 64, &sh, &v), ACCEL_E_NULL);
    CHECK_EQ(v, 0);
    v = 3;
    CHECK_ST(accel_ane_decode_run_stats(b, 64, NULL, &v), ACCEL_E_NULL);
    CHECK_EQ(v, 0);
    CHECK_ST(accel_ane_decode_run_stats(b, 64, &sh, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_stats_engine_at(b, 64, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_doorbell_emit(NULL, 0, 0), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fabric_power_gate(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fw_model_init(NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fw_model_program(NULL, 1, 1, 1), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fw_model_init(&fw, 4), ACCEL_OK);
    CHECK_ST(accel_ane_fw_model_dispatch(NULL, b, 8), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fw_model_dispatch(&fw, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_ane_fw_model_complete(NULL), ACCEL_E_NULL);
    CHECK_EQ(fw.accepted, 0);
}


/* A session with its TM enabled and one fault: the register access at absolute offset `reg`
 * (reads or writes per `ops`) fails once with ACCEL_E_IO after `skip` matching ones. */
static accel_status faulty(accel_sim_ane_session *r, unsigned ops, uint32_t reg, uint32_t skip)
{
    accel_sim_fault f;
    accel_status st = accel_sim_ane_session_init(r, NULL, NULL);
    if (st == ACCEL_OK) st = accel_ane_tm_enable(&r->tm);
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FAIL;
    f.ops = ops;
    f.has_target = 1;
    f.target = reg;
    f.skip = skip;
    f.count = 1;
    if (st == ACCEL_OK) st = accel_sim_add_fault(&r->sim, &f);
    return st;
}

static accel_ane_request request(unsigned qid)
{
    static uint32_t bars[4] = {0x1000, 0x2000, 0x3000, 0x4000};
    accel_ane_request q;
    memset(&q, 0, sizeof q);
    q.qid = qid;
    q.nid = 0x40;
    q.td_size = 0x274;
    q.td_count = 1;
    q.btsp_iova = 0x0badc000u;
    q.bar = bars;
    q.nbar = 4;
    return q;
}

#define TMR(off) (ACCEL_ANE_TM_BASE + (off))
#define TQR(q, off) (ACCEL_ANE_TQ_BASE + (uint32_t)(q) * ACCEL_ANE_TQ_STRIDE + (off))

/* A register access that fails in the middle of a call: the call reports the port's status,
 * and a queue taken for the request is given back. */
static void test_port_fault_paths(void)
{
    static accel_sim_ane_session r;
    accel_ane_request q = request(4), bad = request(9);
    accel_ane_result res;
    accel_ane_irq_event ev[3];
    uint32_t n = 0;
    /* disable: the second IRQ-enable write, then the queue-enable update fail */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_WRITE, TMR(ACCEL_ANE_TM_IRQ_EN2), 0), ACCEL_OK);
    CHECK_ST(accel_ane_tm_disable(&r.tm), ACCEL_E_IO);
    CHECK_EQ(r.tm.enabled, 0); /* a half-done disable still stops submissions */
    CHECK_EQ(r.model.tm[ACCEL_ANE_TM_TQ_EN / 4u] & ACCEL_ANE_TQ_EN_BITS, ACCEL_ANE_TQ_EN_BITS);
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_READ, TMR(ACCEL_ANE_TM_TQ_EN), 0), ACCEL_OK);
    CHECK_ST(accel_ane_tm_disable(&r.tm), ACCEL_E_IO);
    CHECK_EQ(r.model.tm[ACCEL_ANE_TM_IRQ_EN2 / 4u], 0);
    /* push: a bad request, then each of its four accesses failing; no doorbell is rung */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_READ, TQR(4, ACCEL_ANE_TQ_ADDR1), 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    CHECK_ST(accel_ane_tm_push(&r.tm, &bad), ACCEL_E_ANE_QUEUE);
    CHECK_ST(accel_ane_tm_push(&r.tm, &q), ACCEL_E_IO);
    CHECK_EQ(r.model.pushes, 0);
    CHECK_EQ(r.tm.busy, 1u << 4); /* push alone keeps the queue: the caller releases it */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_WRITE, TMR(ACCEL_ANE_TM_REQ_ADDR), 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    CHECK_ST(accel_ane_tm_push(&r.tm, &q), ACCEL_E_IO);
    CHECK_EQ(r.model.pushes, 0);
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_READ, TQR(4, ACCEL_ANE_TQ_SIZE1), 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    CHECK_ST(accel_ane_tm_push(&r.tm, &q), ACCEL_E_IO);
    CHECK_EQ(r.model.tm[ACCEL_ANE_TM_REQ_ADDR / 4u], 0x0badc000u); /* got that far */
    CHECK_EQ(r.model.pushes, 0);
    /* execute after a failed push: the queue is released, the result zeroed */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_WRITE, TMR(ACCEL_ANE_TM_REQ_INFO), 0), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_enqueue(&r.tm, &q), ACCEL_OK);
    memset(&res, 0xCC, sizeof res);
    CHECK_ST(accel_ane_tm_execute(&r.tm, &q, &res), ACCEL_E_IO);
    CHECK_EQ(res.tm_status, 0);
    CHECK_EQ(r.tm.busy, 0);
    CHECK_EQ(r.model.tq[ACCEL_ANE_TQ_STATUS / 4u + 4u * ACCEL_ANE_TQ_STRIDE / 4u], 0);
    CHECK_EQ(r.model.pushes, 0);
    /* execute refusals that hold no queue: bad queue number, queue not enqueued, no request */
    CHECK_ST(accel_ane_tm_execute(&r.tm, &bad, NULL), ACCEL_E_ANE_QUEUE);
    CHECK_ST(accel_ane_tm_execute(&r.tm, &q, NULL), ACCEL_E_STATE);
    CHECK_ST(accel_ane_tm_execute(&r.tm, NULL, &res), ACCEL_E_NULL);
    CHECK_EQ(r.tm.busy, 0);
    /* drain: the count read fails (count stays 0), then each event register read fails */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_READ, TMR(ACCEL_ANE_TM_IRQ_EVTC(0)), 0), ACCEL_OK);
    r.model.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u] = 2;
    n = 9;
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 0, ev, 3, &n), ACCEL_E_IO);
    CHECK_EQ(n, 0);
    CHECK_EQ(r.model.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u], 2); /* not acknowledged */
    {
        static const uint32_t regs[4] = {ACCEL_ANE_TM_IRQ_INFO(1), ACCEL_ANE_TM_IRQ_UNK1(1),
                                         ACCEL_ANE_TM_IRQ_TMST(1), ACCEL_ANE_TM_IRQ_UNK2(1)};
        unsigned k;
        for (k = 0; k < 4; k++) {
            REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_READ, TMR(regs[k]), 1), ACCEL_OK);
            r.model.tm[ACCEL_ANE_TM_IRQ_EVTC(1) / 4u] = 3;
            r.model.tm[ACCEL_ANE_TM_IRQ_INFO(1) / 4u] = 0x01400000u;
            memset(ev, 0, sizeof ev);
            CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 1, ev, 3, NULL), ACCEL_E_IO);
            CHECK_EQ(ev[0].info, 0x01400000u); /* the first event was read whole */
            CHECK_EQ(ev[1].info, 0);           /* the second one never stored */
        }
    }
    /* line 0's acknowledge fails: the events were read, the status says the ack did not land */
    REQUIRE_ST(faulty(&r, ACCEL_SIM_OP_REG_WRITE, TMR(ACCEL_ANE_TM_IRQ_ACK), 0), ACCEL_OK);
    r.model.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u] = 1;
    CHECK_ST(accel_ane_tm_drain_irq(&r.tm, 0, NULL, 0, &n), ACCEL_E_IO);
    CHECK_EQ(n, 1);
    CHECK_EQ(r.model.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u], 1);
}

/* The register-file model: an unaligned or unmapped offset reads as 0 and a write there is
 * refused and counted; a stuck engine does not finish on delays. */
static void test_model_bad_offsets(void)
{
    accel_ane_tm_model m;
    accel_port p;
    uint32_t v = 7;
    REQUIRE_ST(accel_ane_tm_model_init(&m), ACCEL_OK);
    REQUIRE_ST(accel_ane_tm_model_port(&m, &p), ACCEL_OK);
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TM_BASE + 2u, 1), ACCEL_E_ARG);
    CHECK_ST(accel_port_reg_write32(&p, 0x100u, 1), ACCEL_E_ARG); /* below both blocks */
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TM_BASE + ACCEL_ANE_MODEL_TM_WORDS * 4u, 1),
             ACCEL_E_ARG); /* past the TM block, before the queues */
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TQ_BASE + ACCEL_ANE_MODEL_TQ_WORDS * 4u, 1),
             ACCEL_E_ARG); /* past the last queue */
    CHECK_EQ(m.bad_writes, 4);
    CHECK_ST(accel_port_reg_read32(&p, 0x100u, &v), ACCEL_OK);
    CHECK_EQ(v, 0);
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TQ_BASE + 4u, 0x55), ACCEL_OK);
    CHECK_EQ(m.tq[1], 0x55);
    /* an ack write without the ack bit leaves line 0's count alone */
    m.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u] = 3;
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TM_BASE + ACCEL_ANE_TM_IRQ_ACK, 0), ACCEL_OK);
    CHECK_EQ(m.tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u], 3);
    /* stuck: running, but delays never finish it */
    m.stuck = 1;
    CHECK_ST(accel_port_reg_write32(&p, ACCEL_ANE_TM_BASE + ACCEL_ANE_TM_REQ_PUSH, 0x401), ACCEL_OK);
    CHECK_EQ(m.running, 1);
    CHECK_ST(accel_port_delay_ms(&p, 1000), ACCEL_OK);
    CHECK_EQ(m.running, 1);
    CHECK_EQ(m.tm[ACCEL_ANE_TM_STATUS / 4u], 0);
}

int main(void)
{
    tl_seed(1);
    RUN(test_null_arguments);
    RUN(test_port_fault_paths);
    RUN(test_model_bad_offsets);
    return TEST_END();
}
