/* test_edgetpu_usb.c - Edge TPU USB wire format, protocol (CSR transfers, framing, chunking,
 * ordering, timeouts), the bring-up sequencer against the device model, and DFU. One case checks
 * the open sequence transfer for transfer against init_sequence_libedgetpu_usb.tsv, libedgetpu's
 * traced open (third-party: tests/edgetpu_data.h); it skips by name without it. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "edgetpu_data.h"
#include "accel_sim_sessions.h"
#include <stdlib.h>

/* ---- a transfer log filled by the simulator's trace hook ---- */
typedef struct {
    unsigned op;
    uint32_t target;
    uint8_t rt;
    uint16_t value, index;
    size_t len, done;
    uint8_t data[16];
    accel_status st;
} xfer;
static xfer xlog[256];
static unsigned nx;

static void tracer(void *ctx, const accel_sim_event *ev)
{
    xfer *x;
    (void)ctx;
    if (nx >= 256) return;
    x = &xlog[nx++];
    memset(x, 0, sizeof *x);
    x->op = ev->op;
    x->target = ev->target;
    x->rt = ev->request_type;
    x->value = ev->value;
    x->index = ev->index;
    x->len = ev->len;
    x->done = ev->done;
    x->st = ev->status;
    if (ev->data) memcpy(x->data, ev->data, ev->done < 16 ? ev->done : 16);
}

/* es.model is the chip; es.drv.usb, the protocol layer these tests drive (the driver above it
 * is not used here) */
static accel_sim_edgetpu_session es;

static accel_status setup(uint32_t chunk)
{
    nx = 0;
    return accel_sim_edgetpu_session_init(&es, chunk, tracer, NULL);
}

static void test_header(void)
{
    uint8_t h[8];
    uint32_t len = 0;
    uint8_t tag = 9;
    static const uint8_t want[8] = {0x80, 0x10, 0x00, 0x00, 0x02, 0, 0, 0};
    CHECK_ST(accel_edgetpu_encode_usb_header(0x1080, 2, h), ACCEL_OK);
    CHECK_MEM(h, want, 8);
    CHECK_ST(accel_edgetpu_decode_usb_header(h, &len, &tag), ACCEL_OK);
    CHECK_EQ(len, 0x1080);
    CHECK_EQ(tag, 2);
    CHECK_ST(accel_edgetpu_encode_usb_header(1, 16, h), ACCEL_E_ARG);
    h[4] = 0x12;
    CHECK_ST(accel_edgetpu_decode_usb_header(h, &len, &tag), ACCEL_E_MALFORMED);
    h[4] = 2;
    h[7] = 1;
    CHECK_ST(accel_edgetpu_decode_usb_header(h, &len, &tag), ACCEL_E_MALFORMED);
}

static void test_event_irq(void)
{
    static const uint8_t ev_bytes[16] = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
                                         0x00, 0x01, 0x00, 0x00, 0xF4, 0, 0, 0};
    accel_edgetpu_event ev;
    accel_edgetpu_irq irq;
    uint8_t out[16];
    static const uint8_t irq_bytes[4] = {0x05, 0, 0, 0};
    CHECK_ST(accel_edgetpu_decode_event(ev_bytes, 16, &ev), ACCEL_OK);
    CHECK_EQ_U64(ev.address, 0x1122334455667788ULL);
    CHECK_EQ(ev.length, 0x100);
    CHECK_EQ(ev.tag, 4); /* low 4 bits only */
    CHECK_ST(accel_edgetpu_decode_event(ev_bytes, 15, &ev), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_edgetpu_decode_event(ev_bytes, 17, &ev), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_edgetpu_encode_event(&ev, out), ACCEL_OK);
    CHECK_MEM(out, ev_bytes, 12);
    CHECK_EQ(out[12], 4);
    /* 0b00101: fatal and top-level interrupt 1 */
    CHECK_ST(accel_edgetpu_decode_irq(irq_bytes, 4, &irq), ACCEL_OK);
    CHECK_EQ(irq.fatal, 1);
    CHECK_EQ(irq.top_level, 2);
    CHECK_EQ(irq.raw, 5);
    CHECK_ST(accel_edgetpu_decode_irq(irq_bytes, 3, &irq), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_edgetpu_decode_irq(irq_bytes, 8, &irq), ACCEL_E_TOO_LONG);
}

static void test_csr(void)
{
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    REQUIRE_ST(setup(0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_csr_read32(&es.drv.usb, 0x1A30C, &v32), ACCEL_OK);
    CHECK_EQ(v32, 0x000F3F59UL);
    CHECK_ST(accel_edgetpu_csr_write64(&es.drv.usb, 0x44018, 0x0102030405060708ULL), ACCEL_OK);
    CHECK_ST(accel_edgetpu_csr_read64(&es.drv.usb, 0x44018, &v64), ACCEL_OK);
    CHECK_EQ_U64(v64, 0x0102030405060708ULL);
    CHECK_EQ(nx, 3);
    /* read32: 0xC0, bRequest 1, wValue = low 16, wIndex = high 16 */
    CHECK_EQ(xlog[0].rt, 0xC0);
    CHECK_EQ(xlog[0].target, 1);
    CHECK_EQ(xlog[0].value, 0xA30C);
    CHECK_EQ(xlog[0].index, 0x0001);
    CHECK_EQ(xlog[0].len, 4);
    /* write64: 0x40, bRequest 0, little-endian data */
    CHECK_EQ(xlog[1].rt, 0x40);
    CHECK_EQ(xlog[1].target, 0);
    CHECK_EQ(xlog[1].value, 0x4018);
    CHECK_EQ(xlog[1].index, 0x0004);
    CHECK_EQ(xlog[1].len, 8);
    {
        static const uint8_t want[8] = {8, 7, 6, 5, 4, 3, 2, 1};
        CHECK_MEM(xlog[1].data, want, 8);
    }
    /* a short control transfer is an error, not a value */
    {
        accel_sim_fault f;
        memset(&f, 0, sizeof f);
        f.kind = ACCEL_SIM_TRUNCATE;
        f.ops = ACCEL_SIM_OP_USB_CONTROL;
        f.dir = ACCEL_SIM_FROM_DEVICE;
        f.at = 2;
        f.count = 1;
        accel_sim_add_fault(&es.sim, &f);
        v32 = 0x1234;
        CHECK_ST(accel_edgetpu_csr_read32(&es.drv.usb, 0x1A30C, &v32), ACCEL_E_TRUNCATED);
        CHECK_EQ(v32, 0x1234);
    }
    /* the model refuses a malformed request */
    {
        uint8_t b[4];
        size_t done = 0;
        CHECK_ST(accel_port_usb_control(&es.sim.port, 0x40, 7, 0, 0, b, 4, 10, &done),
                 ACCEL_E_STALL);
        CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_CSR);
    }
}

static void test_chunking(void)
{
    static uint8_t data[2500];
    unsigned i;
    for (i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    REQUIRE_ST(setup(1000), ACCEL_OK);
    CHECK_ST(accel_edgetpu_usb_send(&es.drv.usb, ACCEL_EDGETPU_TAG_PARAMETERS, data, sizeof data),
             ACCEL_OK);
    CHECK_EQ(nx, 4);
    CHECK_EQ(xlog[0].len, 8);
    {
        static const uint8_t h[8] = {0xC4, 0x09, 0, 0, 2, 0, 0, 0};
        CHECK_MEM(xlog[0].data, h, 8);
    }
    CHECK_EQ(xlog[1].len, 1000);
    CHECK_EQ(xlog[2].len, 1000);
    CHECK_EQ(xlog[3].len, 500);
    CHECK_EQ(es.model.recv_bytes[2], 2500);
    CHECK_EQ(es.model.recv_requests[2], 1);
    CHECK_EQ(es.model.violations, 0);
    /* default chunk is 1 MiB: one data transfer */
    REQUIRE_ST(setup(0), ACCEL_OK);
    CHECK_EQ(es.drv.usb.max_chunk, 0x100000UL);
    CHECK_ST(accel_edgetpu_usb_send(&es.drv.usb, 0, data, 2496), ACCEL_OK);
    CHECK_EQ(nx, 2);
    /* streamed: begin then pieces */
    REQUIRE_ST(setup(64), ACCEL_OK);
    CHECK_ST(accel_edgetpu_usb_begin(&es.drv.usb, 1, 100), ACCEL_OK);
    CHECK_ST(accel_edgetpu_usb_data(&es.drv.usb, data, 30), ACCEL_OK);
    CHECK_EQ(es.drv.usb.out_owed, 70);
    CHECK_ST(accel_edgetpu_usb_begin(&es.drv.usb, 1, 10), ACCEL_E_STATE); /* previous still owed */
    CHECK_ST(accel_edgetpu_usb_data(&es.drv.usb, data, 71), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_edgetpu_usb_data(&es.drv.usb, data + 30, 70), ACCEL_OK);
    CHECK_EQ(nx, 1 + 1 + 2);
    CHECK_EQ(es.model.recv_bytes[1], 100);
    CHECK_EQ(es.model.violations, 0);
    /* host tags are 0..2 only; zero-length requests are refused */
    CHECK_ST(accel_edgetpu_usb_begin(&es.drv.usb, 3, 10), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_usb_begin(&es.drv.usb, 1, 0), ACCEL_E_ZERO_LENGTH);
}

static void test_ordering(void)
{
    uint8_t out[300];
    uint8_t in[4] = {1, 2, 3, 4};
    accel_sim_fault f;
    REQUIRE_ST(setup(0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 4), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_OUTPUT, 0, 300), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_EVENT, 4, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_usb_send(&es.drv.usb, 1, in, 4), ACCEL_OK);
    /* the output read fails half-way (host reads in 100-byte pieces): 200 bytes still owed */
    es.drv.usb.max_chunk = 100;
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FAIL;
    f.ops = ACCEL_SIM_OP_USB_BULK_IN;
    f.skip = 1;
    f.count = 1;
    accel_sim_add_fault(&es.sim, &f);
    CHECK_ST(accel_edgetpu_usb_read_output(&es.drv.usb, out, 300), ACCEL_E_IO);
    CHECK_EQ(es.drv.usb.in_owed, 200);
    /* no bulk-out while a bulk-in is incomplete: refused by the host side ... */
    CHECK_ST(accel_edgetpu_usb_begin(&es.drv.usb, 0, 16), ACCEL_E_STATE);
    /* ... and detected by the device model when a host ignores it */
    {
        uint8_t h[8];
        size_t done = 0;
        REQUIRE_ST(accel_edgetpu_encode_usb_header(16, 0, h), ACCEL_OK);
        CHECK_ST(accel_port_usb_bulk_out(&es.sim.port, 1, h, 8, 100, &done), ACCEL_E_STALL);
        CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_ORDER);
    }
    /* a different length cannot resume the interrupted read; the same can */
    CHECK_ST(accel_edgetpu_usb_read_output(&es.drv.usb, out, 299), ACCEL_E_STATE);
    accel_sim_clear_faults(&es.sim);
    /* the synthetic output: byte k = sum(input) + k = 10 + k, resumed where it stopped */
    CHECK_ST(accel_edgetpu_usb_read_output(&es.drv.usb, out, 300), ACCEL_OK);
    CHECK_EQ(es.drv.usb.in_owed, 0);
    CHECK_EQ(out[0], 10);
    CHECK_EQ(out[99], 109);
    CHECK_EQ(out[100], 110);
    CHECK_EQ(out[299], (uint8_t)(10 + 299));
    {
        accel_edgetpu_event ev;
        CHECK_ST(accel_edgetpu_usb_read_event(&es.drv.usb, &ev), ACCEL_OK);
        CHECK_EQ(ev.tag, 4);
    }
    /* after the output, bulk-out is allowed again; an unexpected request is a script error */
    CHECK_ST(accel_edgetpu_usb_send(&es.drv.usb, 0, in, 4), ACCEL_OK);
    CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_SCRIPT);
}

static void test_model_framing(void)
{
    uint8_t h[8], d[32];
    size_t done = 0;
    REQUIRE_ST(setup(0), ACCEL_OK);
    memset(d, 0, sizeof d);
    /* header must come alone, 8 bytes */
    CHECK_ST(accel_port_usb_bulk_out(&es.sim.port, 1, d, 12, 100, &done), ACCEL_E_STALL);
    CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_HEADER);
    /* tag 3 is the device's */
    es.model.violations = 0;
    REQUIRE_ST(accel_edgetpu_encode_usb_header(16, 3, h), ACCEL_OK);
    CHECK_ST(accel_port_usb_bulk_out(&es.sim.port, 1, h, 8, 100, &done), ACCEL_E_STALL);
    CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_HEADER);
    /* more data than announced */
    es.model.violations = 0;
    REQUIRE_ST(accel_edgetpu_encode_usb_header(16, 1, h), ACCEL_OK);
    CHECK_ST(accel_port_usb_bulk_out(&es.sim.port, 1, h, 8, 100, &done), ACCEL_OK);
    CHECK_ST(accel_port_usb_bulk_out(&es.sim.port, 1, d, 17, 100, &done), ACCEL_E_STALL);
    CHECK(es.model.violations & ACCEL_EDGETPU_MODEL_V_SIZE);
}

static void test_timeouts(void)
{
    accel_edgetpu_event ev;
    accel_edgetpu_irq irq;
    uint8_t out[4];
    uint32_t t0;
    REQUIRE_ST(setup(0), ACCEL_OK);
    t0 = es.sim.now;
    CHECK_ST(accel_edgetpu_usb_read_event(&es.drv.usb, &ev), ACCEL_E_TIMEOUT);
    CHECK_EQ(es.sim.now - t0, 6000);
    es.drv.usb.timeout_ms = 50;
    CHECK_ST(accel_edgetpu_usb_read_irq(&es.drv.usb, &irq), ACCEL_E_TIMEOUT);
    CHECK_EQ(es.sim.now - t0, 6050);
    CHECK_ST(accel_edgetpu_usb_read_output(&es.drv.usb, out, 4), ACCEL_E_TIMEOUT);
    CHECK_EQ(es.drv.usb.in_owed, 4);
    accel_edgetpu_usb_abort(&es.drv.usb);
    CHECK_EQ(es.drv.usb.in_owed, 0);
    /* a stalled bulk-out */
    {
        accel_sim_fault f;
        memset(&f, 0, sizeof f);
        f.kind = ACCEL_SIM_STALL;
        f.ops = ACCEL_SIM_OP_USB_BULK_OUT;
        f.stall_ms = 10;
        accel_sim_add_fault(&es.sim, &f);
        CHECK_ST(accel_edgetpu_usb_send(&es.drv.usb, 1, out, 4), ACCEL_E_TIMEOUT);
        CHECK_EQ(es.drv.usb.out_owed, 0); /* the header never went: nothing owed */
    }
}

/* ---- bring-up against init_sequence_libedgetpu_usb.tsv ---- */
typedef struct {
    int write, w64;
    unsigned rt, req, wv, wi;
    unsigned long long val;
} tsv_row;
static tsv_row rows[64];
static unsigned nrows;

/* Rows of the trace into rows[]; 0 when the file cannot be opened (and says which). */
static int load_tsv(void)
{
    char path[512], line[1024];
    FILE *fp;
    nrows = 0;
    snprintf(path, sizeof path, "%s/init_sequence_libedgetpu_usb.tsv", et_data_dir());
    fp = fopen(path, "r");
    if (!fp) {
        printf("  cannot open %s\n", path);
        return 0;
    }
    if (!fgets(line, sizeof line, fp)) line[0] = 0; /* header */
    while (fgets(line, sizeof line, fp) && nrows < 64) {
        unsigned step, rt, req, wv, wi, off;
        char op[8], name[128], val[64];
        tsv_row *r = &rows[nrows];
        if (sscanf(line, "%u\t%7s\t%x\t%u\t%x\t%x\t%x\t%127s\t%63s", &step, op, &rt, &req, &wv, &wi,
                   &off, name, val) != 9)
            continue;
        r->write = op[0] == 'W';
        r->w64 = strcmp(op + 1, "64") == 0;
        r->rt = rt;
        r->req = req;
        r->wv = wv;
        r->wi = wi;
        r->val = r->write ? strtoull(val, NULL, 16) : 0;
        nrows++;
    }
    fclose(fp);
    return 1;
}

static void test_open_matches_trace(void)
{
    unsigned i;
    REQUIRE_DATA("ACCEL_EDGETPU_DATA", "edgetpu");
    REQUIRE(load_tsv());
    REQUIRE_EQ(nrows, 52);
    REQUIRE_ST(setup(0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1), ACCEL_OK);
    CHECK_EQ(nx, nrows);
    for (i = 0; i < nx && i < nrows; i++) {
        const tsv_row *r = &rows[i];
        CHECK_EQ(xlog[i].op, ACCEL_SIM_OP_USB_CONTROL);
        CHECK_EQ(xlog[i].rt, r->rt);
        CHECK_EQ(xlog[i].target, r->req);
        CHECK_EQ(xlog[i].value, r->wv);
        CHECK_EQ(xlog[i].index, r->wi);
        CHECK_EQ(xlog[i].len, r->w64 ? 8 : 4);
        CHECK_ST(xlog[i].st, ACCEL_OK);
        if (r->write) {
            unsigned long long v = r->w64 ? accel_load_u64le(xlog[i].data)
                                          : accel_load_u32le(xlog[i].data);
            if (v != r->val) printf("  step %u: wrote 0x%llx, trace 0x%llx\n", i, v, r->val);
            CHECK_EQ_U64(v, r->val);
        }
    }
    CHECK_EQ(es.model.violations, 0);
    /* state after open */
    CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, ACCEL_EDGETPU_SCU_CTRL_3), 0x5085005CULL);
    CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, ACCEL_EDGETPU_SCALAR_RUN_CONTROL), 1);
}

static void test_open_perf_levels(void)
{
    /* QuitReset's scu_ctrl_3 write (transfer 5) for each level: gcb div at 29:28, AXI 125 MHz
     * at 30, 8051 250 MHz at 31, force_sleep 0b10 */
    static const uint32_t want[4] = {0xF085025CUL, 0x6085025CUL, 0x5085025CUL, 0x0085025CUL};
    int p;
    uint32_t bits;
    for (p = 0; p < 4; p++) {
        REQUIRE_ST(setup(0), ACCEL_OK);
        CHECK_ST(accel_edgetpu_open(&es.drv.usb, p, 1), ACCEL_OK);
        CHECK_EQ(accel_load_u32le(xlog[5].data), want[p]);
    }
    CHECK_ST(accel_edgetpu_clock_bits(4, &bits), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, -1, 1), ACCEL_E_ARG);
    /* USB 2 high speed: 256-byte outfeed chunks (0x20) */
    REQUIRE_ST(setup(0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 0), ACCEL_OK);
    CHECK_EQ(accel_load_u64le(xlog[17].data), 0x20);
}

static void test_open_branches(void)
{
    /* awake chip: EnableReset forces sleep, waits for state 2, pulses gcbb_credit0 */
    REQUIRE_ST(setup(0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_SCU_CTRL_3, 0x5005005CUL),
               ACCEL_OK);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1), ACCEL_OK);
    CHECK_EQ(nx, 52 + 5);
    CHECK_EQ(xlog[5].rt, 0x40); /* RMW write of force_sleep 0b11 */
    CHECK_EQ(accel_load_u32le(xlog[5].data), 0x50C5005CUL);
    CHECK_EQ(xlog[6].rt, 0xC0); /* poll: now sleeping */
    CHECK_EQ(accel_load_u32le(xlog[6].data) & 0x300u, 0x200u);
    CHECK_EQ(xlog[7].value, 0x907C);
    CHECK_EQ(accel_load_u32le(xlog[7].data), 0xF);
    CHECK_EQ(accel_load_u32le(xlog[8].data), 0);
    /* hardware clock gate already on: no scu_ctrl_2 read-modify-write */
    REQUIRE_ST(setup(0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_SCU_CTRL_2, 0x00150000UL),
               ACCEL_OK);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1), ACCEL_OK);
    CHECK_EQ(nx, 50);
}

static void test_poll_timeout(void)
{
    accel_edgetpu_seq_ctx ctx;
    uint32_t n;
    const accel_edgetpu_step *s = accel_edgetpu_open_steps(&n);
    uint32_t t0;
    REQUIRE_ST(setup(0), ACCEL_OK);
    /* scalar core not idle after reset: Poll(scalarCoreRunControl, 0) times out */
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_SCALAR_RUN_CONTROL, 1),
               ACCEL_OK);
    memset(&ctx, 0, sizeof ctx);
    ctx.clock_bits = 0x50000000UL;
    t0 = es.sim.now;
    CHECK_ST(accel_edgetpu_seq_run(&es.drv.usb, s, n, &ctx), ACCEL_E_TIMEOUT);
    CHECK_EQ(s[ctx.failed_step].reg, ACCEL_EDGETPU_SCALAR_RUN_CONTROL);
    CHECK_EQ(es.sim.now - t0, 1000);
    CHECK_EQ_U64(ctx.last, 1);
    /* the poll compares all 64 bits: a set bit 32 is not "0" */
    REQUIRE_ST(setup(0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_SCALAR_RUN_CONTROL,
                                           0x100000000ULL), ACCEL_OK);
    memset(&ctx, 0, sizeof ctx);
    CHECK_ST(accel_edgetpu_seq_run(&es.drv.usb, s, n, &ctx), ACCEL_E_TIMEOUT);
    CHECK_EQ(s[ctx.failed_step].reg, ACCEL_EDGETPU_SCALAR_RUN_CONTROL);
    CHECK_EQ_U64(ctx.last, 0x100000000ULL);
    /* a 64-bit read-modify-write keeps the upper half */
    REQUIRE_ST(setup(0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, 0x40000UL, 0xAB000000F0ULL), ACCEL_OK);
    {
        accel_edgetpu_step rmw;
        memset(&rmw, 0, sizeof rmw);
        rmw.op = ACCEL_EDGETPU_OP_RMW;
        rmw.width = 64;
        rmw.reg = 0x40000UL;
        rmw.mask = 0xF0u;
        rmw.value = 0x5u;
        CHECK_ST(accel_edgetpu_seq_run(&es.drv.usb, &rmw, 1, &ctx), ACCEL_OK);
        CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, 0x40000UL), 0xAB00000005ULL);
    }
    /* an I/O error stops the sequence at once */
    REQUIRE_ST(setup(0), ACCEL_OK);
    {
        accel_sim_fault f;
        memset(&f, 0, sizeof f);
        f.kind = ACCEL_SIM_FAIL;
        f.ops = ACCEL_SIM_OP_USB_CONTROL;
        f.skip = 10;
        f.count = 1;
        accel_sim_add_fault(&es.sim, &f);
    }
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1), ACCEL_E_IO);
    CHECK_EQ(nx, 11);
    /* a bad step is refused */
    {
        accel_edgetpu_step bad;
        memset(&bad, 0, sizeof bad);
        bad.op = 9;
        bad.width = 32;
        CHECK_ST(accel_edgetpu_seq_run(&es.drv.usb, &bad, 1, &ctx), ACCEL_E_ARG);
        bad.op = ACCEL_EDGETPU_OP_READ;
        bad.width = 16;
        CHECK_ST(accel_edgetpu_seq_run(&es.drv.usb, &bad, 1, &ctx), ACCEL_E_ARG);
    }
}

static void test_close(void)
{
    REQUIRE_ST(setup(0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_MAX, 1), ACCEL_OK);
    nx = 0;
    CHECK_ST(accel_edgetpu_close(&es.drv.usb), ACCEL_OK);
    /* 5 interrupt disables, 15 halts (+ tileconfig write/poll), TEST, RMW, poll, 2 credits */
    CHECK_EQ(nx, 5 + 15 + 2 + 1 + 2 + 1 + 2);
    CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, ACCEL_EDGETPU_SCALAR_RUN_CONTROL), 2);
    CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, ACCEL_EDGETPU_TOP_LEVEL_INT_CONTROL(3)), 0);
    CHECK_EQ_U64(accel_edgetpu_model_reg(&es.model, ACCEL_EDGETPU_SCU_CTRL_3) & 0xC00300UL,
                 0xC00200UL);
    CHECK_EQ(es.model.violations, 0);
}

static accel_edgetpu_dfu_model dfu;
static uint8_t dfu_mem[4096];

/* The DFU-mode chip (its own model) behind the simulator; the host side is the port alone. */
static accel_status setup_dfu(void)
{
    accel_port model;
    accel_status st;
    memset(&model, 0, sizeof model);
    memset(dfu_mem, 0, sizeof dfu_mem);
    nx = 0;
    st = accel_edgetpu_dfu_model_init(&dfu, dfu_mem, sizeof dfu_mem);
    if (st == ACCEL_OK) st = accel_edgetpu_dfu_model_port(&dfu, &model);
    if (st == ACCEL_OK) st = accel_sim_init(&es.sim);
    if (st == ACCEL_OK) st = accel_sim_attach(&es.sim, &model);
    if (st == ACCEL_OK) accel_sim_set_trace(&es.sim, tracer, NULL);
    return st;
}

static void test_dfu(void)
{
    static uint8_t img[1000], scratch[256];
    accel_edgetpu_dfu_status s;
    unsigned i;
    static const uint8_t st_bytes[6] = {0x00, 0x10, 0x27, 0x00, 0x05, 0x00};
    for (i = 0; i < sizeof img; i++) img[i] = (uint8_t)(i * 31 + 3);
    /* GETSTATUS payload by hand: OK, 10000 ms, dfuDNLOAD-IDLE */
    CHECK_ST(accel_edgetpu_decode_dfu_status(st_bytes, 6, &s), ACCEL_OK);
    CHECK_EQ(s.status, 0);
    CHECK_EQ(s.poll_timeout, 10000);
    CHECK_EQ(s.state, 5);
    CHECK_ST(accel_edgetpu_decode_dfu_status(st_bytes, 5, &s), ACCEL_E_TRUNCATED);

    REQUIRE_ST(setup_dfu(), ACCEL_OK);
    CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 256, img, sizeof img, 1000, &s), ACCEL_OK);
    CHECK_EQ(dfu.len, 1000);
    CHECK_MEM(dfu_mem, img, 1000);
    CHECK_EQ(s.state, ACCEL_EDGETPU_DFU_IDLE);
    /* 4 data blocks + the zero-length one, GETSTATUS after each: 10 control transfers */
    CHECK_EQ(nx, 10);
    for (i = 0; i < 5; i++) {
        CHECK_EQ(xlog[2 * i].rt, 0x21);
        CHECK_EQ(xlog[2 * i].target, 1);
        CHECK_EQ(xlog[2 * i].value, i); /* block number */
        CHECK_EQ(xlog[2 * i].len, i < 3 ? 256 : (i == 3 ? 232 : 0));
        CHECK_EQ(xlog[2 * i + 1].rt, 0xA1);
        CHECK_EQ(xlog[2 * i + 1].target, 3);
        CHECK_EQ(xlog[2 * i + 1].len, 6);
    }
    /* upload-verify: 3 full blocks and a short one */
    nx = 0;
    CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch,
                                      sizeof scratch,
                                      1000),
             ACCEL_OK);
    CHECK_EQ(nx, 4);
    CHECK_EQ(xlog[3].target, 2);
    CHECK_EQ(xlog[3].done, 232);
    dfu_mem[700] ^= 1;
    CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch,
                                      sizeof scratch,
                                      1000),
             ACCEL_E_EDGETPU_VERIFY);
    dfu_mem[700] ^= 1;
    /* the device holding less than the image is a mismatch */
    dfu.len = 900;
    CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch,
                                      sizeof scratch,
                                      1000),
             ACCEL_E_EDGETPU_VERIFY);
    CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch, 255, 1000),
             ACCEL_E_BUFFER_TOO_SMALL);
    /* the scratch query names exactly the bytes the verify takes: one block */
    {
        size_t need = 1;
        CHECK_ST(accel_edgetpu_dfu_verify_scratch_size(256, &need), ACCEL_OK);
        CHECK_EQ(need, 256);
        dfu.len = sizeof img;
        CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch, need, 1000),
                 ACCEL_OK);
        CHECK_ST(accel_edgetpu_dfu_verify(&es.sim.port, 0, 256, img, sizeof img, scratch, need - 1,
                                          1000),
                 ACCEL_E_BUFFER_TOO_SMALL);
        CHECK_ST(accel_edgetpu_dfu_verify_scratch_size(0, &need), ACCEL_E_ZERO_LENGTH);
        CHECK_EQ(need, 0);
        CHECK_ST(accel_edgetpu_dfu_verify_scratch_size(0xFFFF, &need), ACCEL_OK);
        CHECK_EQ(need, 0xFFFF);
        CHECK_ST(accel_edgetpu_dfu_verify_scratch_size(64, NULL), ACCEL_E_NULL);
    }
    nx = 0;
    CHECK_ST(accel_edgetpu_dfu_detach(&es.sim.port, 0, 1000, 100), ACCEL_OK);
    CHECK_EQ(dfu.detached, 1);
    CHECK_EQ(xlog[0].rt, 0x21);
    CHECK_EQ(xlog[0].target, 0);
    CHECK_EQ(xlog[0].value, 1000);

    /* busy device: the host waits bwPollTimeout between GETSTATUS */
    REQUIRE_ST(setup_dfu(), ACCEL_OK);
    dfu.busy_polls = 2;
    dfu.poll_ms = 7;
    {
        uint32_t t0 = es.sim.now;
        CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 512, img, sizeof img, 1000, &s),
                 ACCEL_OK);
        CHECK_EQ(es.sim.now - t0, 2 * 2 * 7); /* two blocks, two busy answers each */
        CHECK_EQ(dfu.getstatus, 2 * 3 + 1);
    }
    /* the device runs out of room: errADDRESS reported, download stops */
    REQUIRE_ST(setup_dfu(), ACCEL_OK);
    dfu.cap = 600;
    CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 256, img, sizeof img, 1000, &s),
             ACCEL_E_EDGETPU_DFU);
    CHECK_EQ(s.status, 0x08);
    CHECK_EQ(dfu.len, 512);
    /* a stalled DNLOAD surfaces as ACCEL_E_STALL; bad arguments */
    REQUIRE_ST(setup_dfu(), ACCEL_OK);
    dfu.next_block = 5;
    CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 256, img, sizeof img, 1000, &s),
             ACCEL_E_STALL);
    CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 0, img, sizeof img, 1000, &s),
             ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_edgetpu_dfu_download(&es.sim.port, 0, 256, img, 0, 1000, &s),
             ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_edgetpu_dfu_download(NULL, 0, 256, img, 10, 1000, &s), ACCEL_E_NULL);
}

static void test_dfu_descriptor(void)
{
    /* configuration (9) + interface (9, class 0xFE subclass 1) + DFU functional (9):
     * bmAttributes 0x0B, wDetachTimeOut 1000, wTransferSize 0x0100, bcdDFU 1.10 */
    static const uint8_t cfg[27] = {9, 2, 27, 0, 1, 1, 0, 0x80, 50,
                                    9, 4, 0, 0, 0, 0xFE, 1, 2, 0,
                                    9, 0x21, 0x0B, 0xE8, 0x03, 0x00, 0x01, 0x10, 0x01};
    uint16_t ts = 0;
    uint8_t bad[27];
    CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, sizeof cfg, &ts), ACCEL_OK);
    CHECK_EQ(ts, 256);
    CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, 18, &ts), ACCEL_E_EMPTY);
    memcpy(bad, cfg, sizeof bad);
    bad[9] = 0; /* a zero bLength would loop forever */
    CHECK_ST(accel_edgetpu_dfu_transfer_size(bad, sizeof bad, &ts), ACCEL_E_MALFORMED);
    bad[9] = 40; /* runs past the end */
    CHECK_ST(accel_edgetpu_dfu_transfer_size(bad, sizeof bad, &ts), ACCEL_E_MALFORMED);
    CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, 25, &ts), ACCEL_E_MALFORMED);
}

int main(void)
{
    RUN(test_dfu);
    RUN(test_dfu_descriptor);
    RUN(test_header);
    RUN(test_event_irq);
    RUN(test_csr);
    RUN(test_chunking);
    RUN(test_ordering);
    RUN(test_model_framing);
    RUN(test_timeouts);
    RUN(test_open_matches_trace);
    RUN(test_open_perf_levels);
    RUN(test_open_branches);
    RUN(test_poll_timeout);
    RUN(test_close);
    return TEST_END();
}
