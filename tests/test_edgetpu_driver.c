/* test_edgetpu_driver.c - Edge TPU inference driver against the device model: DMA-hint walk,
 * field-offset linking while streaming, parameter caching with libedgetpu's token-set rules,
 * signed-output conversion, fatal interrupts, events, small chunks and scratch.
 * The synthetic package (scripts/gen/gen_edgetpu_synth.py) is self-contained; the cases that run
 * compiled models (models/NAME_edgetpu.tflite, third-party: tests/edgetpu_data.h) skip by name
 * without them. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "edgetpu_data.h"
#include "accel_sim_sessions.h"
#include <stdlib.h>

#include "../examples/host/edgetpu_synth_pkg.h"

static uint8_t dense_buf[1u << 17], bright_buf[1u << 17];
static accel_edgetpu_package dense, bright;


/* reassemble what the host sent on ep 0x01, per tag, from the simulator's trace */
static uint8_t sent[3][1u << 17];
static uint32_t sent_len[3];
static int cur_tag = -1, expect_header = 1;
static uint32_t hdr_log[32];
static unsigned nhdr;
static uint32_t owed;
static unsigned nbulk_out, nctrl, nbulk_in;

static void tracer(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op == ACCEL_SIM_OP_USB_CONTROL) nctrl++;
    if (ev->op == ACCEL_SIM_OP_USB_BULK_IN && ev->status == ACCEL_OK) nbulk_in++;
    if (ev->op != ACCEL_SIM_OP_USB_BULK_OUT || ev->status != ACCEL_OK) return;
    nbulk_out++;
    if (expect_header) {
        owed = accel_load_u32le(ev->data);
        cur_tag = ev->data[4];
        if (nhdr < 32) hdr_log[nhdr++] = ((uint32_t)cur_tag << 24) | owed;
        expect_header = 0;
        return;
    }
    if (cur_tag >= 0 && cur_tag < 3 && sent_len[cur_tag] + ev->done <= sizeof sent[0]) {
        memcpy(sent[cur_tag] + sent_len[cur_tag], ev->data, ev->done);
        sent_len[cur_tag] += (uint32_t)ev->done;
    }
    owed -= (uint32_t)ev->done;
    if (owed == 0) expect_header = 1;
}

static accel_sim_edgetpu_session es; /* es.model: the chip; es.drv: the host's driver */
static uint8_t in0[256], out0[256], scratch[4096];
static const uint8_t *ins[1] = {in0};
static uint8_t *outs[1] = {out0};
static uint32_t in_len[1] = {256}, out_len[1] = {256};
static accel_edgetpu_io io;

static void reset_log(void)
{
    memset(sent_len, 0, sizeof sent_len);
    expect_header = 1;
    nhdr = 0;
    nbulk_out = nctrl = nbulk_in = 0;
}

/* A fresh chip and driver, the input pattern, one input and one output layer. */
static accel_status setup(uint32_t chunk, size_t scratch_len)
{
    unsigned i;
    accel_status st = accel_sim_edgetpu_session_init(&es, chunk, tracer, NULL);
    reset_log();
    for (i = 0; i < 256; i++) in0[i] = (uint8_t)(i * 7 + 1);
    memset(out0, 0, sizeof out0);
    accel_sim_edgetpu_io_one(&io, ins, in_len, outs, out_len, scratch, scratch_len);
    return st;
}

/* The two compiled models (third-party: tests/edgetpu_data.h), read and opened once. A case
 * that runs them starts with REQUIRE_MODELS(): skipped without the artefacts, failed when they
 * are there but do not open. */
static int models_state; /* 0 not tried, 1 open, -1 failed */
static int load_models(void)
{
    size_t n;
    if (models_state) return models_state > 0;
    models_state = -1;
    n = et_load("models/dense_256_edgetpu.tflite", dense_buf, sizeof dense_buf);
    if (accel_edgetpu_package_init_tflite(&dense, dense_buf, n) != ACCEL_OK) return 0;
    n = et_load("models/bright_16x16_edgetpu.tflite", bright_buf, sizeof bright_buf);
    if (accel_edgetpu_package_init_tflite(&bright, bright_buf, n) != ACCEL_OK) return 0;
    models_state = 1;
    return 1;
}
#define REQUIRE_MODELS()                                                                 \
    do {                                                                                 \
        REQUIRE_DATA("ACCEL_EDGETPU_DATA", "edgetpu");                                   \
        REQUIRE(load_models());                                                          \
    } while (0)

/* The chip expects the package's parameter-caching run (with_pc), then its main executable. */
static accel_status script(const accel_edgetpu_package *m, int with_pc)
{
    accel_edgetpu_exe e;
    accel_status st = ACCEL_OK;
    if (with_pc) {
        st = accel_edgetpu_package_executable(m, 1, &e);
        if (st == ACCEL_OK) st = accel_edgetpu_model_expect_exe(&es.model, &e);
    }
    if (st == ACCEL_OK) st = accel_edgetpu_package_executable(m, 0, &e);
    if (st == ACCEL_OK) st = accel_edgetpu_model_expect_exe(&es.model, &e);
    return st;
}

static uint8_t in_sum(void)
{
    unsigned i;
    uint8_t s = 0;
    for (i = 0; i < 256; i++) s = (uint8_t)(s + in0[i]);
    return s;
}

static void test_dense_first_and_cached(void)
{
    accel_edgetpu_exe eo, pc;
    accel_edgetpu_bitstream beo, bpc;
    int ran = -1;
    unsigned k;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 0, &eo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 1, &pc), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&eo, 0, &beo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&pc, 0, &bpc), ACCEL_OK);
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    CHECK_EQ(es.model.violations, 0);
    CHECK_EQ(es.model.pos, es.model.nscript); /* the whole script was played */
    /* what went out: both programs (unlinked: base addresses 0 = as compiled), the 66 KiB of
     * parameters, the input */
    CHECK_EQ(sent_len[0], bpc.bits.len + beo.bits.len);
    CHECK_MEM(sent[0], bpc.bits.p, bpc.bits.len);
    CHECK_MEM(sent[0] + bpc.bits.len, beo.bits.p, beo.bits.len);
    CHECK_EQ(sent_len[2], 67584);
    CHECK_MEM(sent[2], pc.parameters.p, 67584);
    CHECK_EQ(sent_len[1], 256);
    CHECK_MEM(sent[1], in0, 256);
    /* unsigned output: the model's bytes as they came */
    for (k = 0; k < 256; k++) CHECK_EQ(out0[k], (uint8_t)(in_sum() + k));
    CHECK_EQ_U64(es.drv.current_token, 0xfce222d70d502fb8ULL);
    CHECK_EQ(es.drv.ncached, 1);
    /* second call: inference only */
    reset_log();
    REQUIRE_ST(script(&dense, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.model.violations, 0);
    CHECK_EQ(sent_len[0], beo.bits.len);
    CHECK_EQ(sent_len[2], 0);
    CHECK_EQ(nbulk_out, 5); /* header + 4096 + 128 (scratch-sized windows), header + input */
    CHECK_EQ(nbulk_in, 2);  /* output, event */
    CHECK_EQ(es.drv.pc_runs, 1);
    CHECK_EQ(es.drv.exe_runs, 3);
}

static void test_bright_signed_output(void)
{
    int ran = 0;
    unsigned k;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(script(&bright, 1), ACCEL_OK);
    out_len[0] = 8;
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &bright, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    CHECK_EQ(es.model.violations, 0);
    /* output layer is SIGNED_FIXED_POINT8: every byte XOR 0x80 after reading */
    for (k = 0; k < 8; k++) CHECK_EQ(out0[k], (uint8_t)((in_sum() + k) ^ 0x80));
    CHECK_EQ(out0[8], 0);
    CHECK_EQ(sent_len[2], 8384);
    out_len[0] = 256;
    /* an output buffer smaller than the hint is refused before reading */
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(script(&bright, 1), ACCEL_OK);
    out_len[0] = 7;
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &bright, &io, &ran), ACCEL_E_BUFFER_TOO_SMALL);
    out_len[0] = 256;
}

static void test_token_switching(void)
{
    int ran = 0;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    /* another token: the set is cleared, bright's parameters are cached */
    REQUIRE_ST(script(&bright, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &bright, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    CHECK_EQ(es.drv.ncached, 1);
    CHECK_EQ_U64(es.drv.current_token, 0x5bc21d7ed7dac9baULL);
    /* back to dense: its parameters were evicted by the switch */
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    REQUIRE_ST(script(&dense, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.model.violations, 0);
    CHECK_EQ(es.drv.pc_runs, 3);
    /* reset (after a device reset): parameters run again */
    accel_edgetpu_driver_reset_cache(&es.drv);
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    /* same token, a package not in the set (a copy at another address): it accumulates */
    {
        static uint8_t copy[1u << 17];
        accel_edgetpu_package m2;
        memcpy(copy, dense_buf, sizeof copy);
        REQUIRE_ST(accel_edgetpu_package_init_tflite(&m2, copy, sizeof copy), ACCEL_OK);
        REQUIRE_ST(script(&m2, 1), ACCEL_OK);
        CHECK_ST(accel_edgetpu_invoke(&es.drv, &m2, &io, &ran), ACCEL_OK);
        CHECK_EQ(ran, 1);
        CHECK_EQ(es.drv.ncached, 2);
        REQUIRE_ST(script(&dense, 0), ACCEL_OK);
        CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
        CHECK_EQ(ran, 0);
        REQUIRE_ST(script(&m2, 0), ACCEL_OK);
        CHECK_ST(accel_edgetpu_invoke(&es.drv, &m2, &io, &ran), ACCEL_OK);
        CHECK_EQ(ran, 0);
    }
    CHECK_EQ(es.model.violations, 0);
}

static void test_small_chunks_and_scratch(void)
{
    accel_edgetpu_exe eo, pc;
    accel_edgetpu_bitstream beo, bpc;
    int ran = 0;
    unsigned k;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(64, 16), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 0, &eo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 1, &pc), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&eo, 0, &beo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&pc, 0, &bpc), ACCEL_OK);
    /* link real addresses this time: parameters at 0x1122334455667788 */
    es.drv.base_addr[ACCEL_EDGETPU_DESC_PARAMETER] = 0x1122334455667788ULL;
    es.drv.base_addr[ACCEL_EDGETPU_DESC_INPUT] = 0xA0000000ULL;
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_OK);
    CHECK_EQ(es.model.violations, 0);
    for (k = 0; k < 256; k++) CHECK_EQ(out0[k], (uint8_t)(in_sum() + k));
    /* 16-byte scratch windows: every instruction transfer is 16 bytes */
    CHECK_EQ(sent_len[0], bpc.bits.len + beo.bits.len);
    {
        accel_edgetpu_insn in;
        uint32_t v = 0;
        /* PC program: bundles 4 and 5 carry the parameter address */
        REQUIRE_ST(accel_edgetpu_decode_insn(sent[0] + 64, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x55667788u);
        REQUIRE_ST(accel_edgetpu_decode_insn(sent[0] + 80, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x11223344u);
        /* EO program: input address at bits 1862 (upper) and 1990 (lower) */
        REQUIRE_ST(accel_edgetpu_bits_get(sent[0] + bpc.bits.len, beo.bits.len, 1990, 32, &v),
                   ACCEL_OK);
        CHECK_EQ(v, 0xA0000000u);
        REQUIRE_ST(accel_edgetpu_bits_get(sent[0] + bpc.bits.len, beo.bits.len, 1862, 32, &v),
                   ACCEL_OK);
        CHECK_EQ(v, 0);
        /* everything else unchanged */
        CHECK_MEM(sent[0] + 96, bpc.bits.p + 96, bpc.bits.len - 96);
    }
    /* parameters in 64-byte chunks: 67584 / 64 = 1056 transfers + 1 header */
    CHECK_EQ(sent_len[2], 67584);
    /* too small a scratch is refused */
    io.scratch_len = 15;
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_E_BUFFER_TOO_SMALL);
}

static void test_fatal_interrupt(void)
{
    accel_edgetpu_exe eo;
    accel_edgetpu_bitstream b;
    int ran = 0;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 0, &eo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&eo, 0, &b), ACCEL_OK);
    /* the chip takes the program and the input, then raises a fatal error instead of output */
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0,
                                          (uint32_t)b.bits.len), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 256), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_IRQ, 0, 0x1), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_HIB_ERROR_STATUS, 0x40),
               ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_set_reg(&es.model, ACCEL_EDGETPU_HIB_FIRST_ERROR_STATUS, 0x42),
               ACCEL_OK);
    es.drv.usb.timeout_ms = 100;
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &eo, &io), ACCEL_E_EDGETPU_FATAL);
    CHECK_EQ_U64(es.drv.hib_error_status, 0x40);
    CHECK_EQ_U64(es.drv.hib_first_error_status, 0x42);
    CHECK_EQ(es.drv.irq_raw, 1);
    /* a plain timeout (no interrupt pending) stays a timeout */
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0,
                                          (uint32_t)b.bits.len), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 256), ACCEL_OK);
    es.drv.usb.timeout_ms = 100;
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &eo, &io), ACCEL_E_TIMEOUT);
    /* a failed parameter-caching run forgets the cache */
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    es.drv.usb.timeout_ms = 100;
    {
        accel_edgetpu_exe pc;
        REQUIRE_ST(accel_edgetpu_package_executable(&dense, 1, &pc), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_exe_bitstream(&pc, 0, &b), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0,
                                              (uint32_t)b.bits.len), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 2, 67584),
                   ACCEL_OK);
        /* no completion event */
    }
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_E_TIMEOUT);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.drv.ncached, 0);
    CHECK_EQ_U64(es.drv.current_token, 0);
}

static void test_wrong_event(void)
{
    accel_edgetpu_exe eo;
    accel_edgetpu_bitstream b;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(0, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&dense, 0, &eo), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&eo, 0, &b), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0,
                                          (uint32_t)b.bits.len), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 256), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_OUTPUT, 0, 256), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_EVENT, 5, 0),
               ACCEL_OK); /* interrupt 1, not 0 */
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &eo, &io), ACCEL_E_EDGETPU_EVENT);
    /* missing buffers */
    io.n_in = 0;
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &eo, &io), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &eo, NULL), ACCEL_E_NULL);
}

static void test_faults_during_run(void)
{
    /* a bulk-out failure mid-parameters: the error surfaces, the host knows what is owed,
     * and the next run is refused until the protocol is reset */
    accel_sim_fault f;
    int ran = 0;
    REQUIRE_MODELS();
    REQUIRE_ST(setup(4096, sizeof scratch), ACCEL_OK);
    REQUIRE_ST(script(&dense, 1), ACCEL_OK);
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FAIL;
    f.ops = ACCEL_SIM_OP_USB_BULK_OUT;
    f.skip = 5;
    f.count = 1;
    accel_sim_add_fault(&es.sim, &f);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_E_IO);
    CHECK(es.drv.usb.out_owed > 0);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &dense, &io, &ran), ACCEL_E_STATE);
    accel_edgetpu_usb_abort(&es.drv.usb);
    CHECK_EQ(es.drv.usb.out_owed, 0);
}

static void test_synthetic_package(void)
{
    /* scripts/gen/gen_edgetpu_synth.py: int16 input split over two overlapping DMAs, int32
     * output, a fence, two instruction chunks, interrupt 1 */
    accel_edgetpu_package m;
    accel_edgetpu_exe e;
    static uint8_t pkg[sizeof synth_pkg];
    uint8_t in10[10], out8[8], sum = 0;
    const uint8_t *sin[1] = {in10};
    uint8_t *sout[1] = {out8};
    uint32_t sin_len[1] = {10}, sout_len[1] = {8}, v = 0;
    unsigned k;
    int ran = 1;
    memcpy(pkg, synth_pkg, sizeof pkg);
    REQUIRE_ST(accel_edgetpu_package_init(&m, pkg, sizeof pkg), ACCEL_OK);
    CHECK_EQ(m.n_executables, 1);
    REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
    CHECK_EQ(e.type, ACCEL_EDGETPU_STAND_ALONE);
    CHECK_EQ(e.n_bitstreams, 2);
    CHECK_EQ(e.n_hints, 7);
    REQUIRE_ST(setup(0, 16), ACCEL_OK);
    for (k = 0; k < 10; k++) in10[k] = (uint8_t)(0x11 * (k + 1));
    io.in = sin;
    io.in_len = sin_len;
    io.out = sout;
    io.out_len = sout_len;
    es.drv.base_addr[ACCEL_EDGETPU_DESC_INPUT] = 0xAABBCCDD11223344ULL;
    es.drv.base_addr[ACCEL_EDGETPU_DESC_OUTPUT] = 0x00000000CAFEF00DULL;
    CHECK_ST(accel_edgetpu_model_expect_exe(&es.model, &e), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.model.violations, 0);
    /* request order: chunk 0, input [0,7), input [5,10), (fence), chunk 1 */
    CHECK_EQ(nhdr, 4);
    CHECK_EQ(hdr_log[0], (0u << 24) | SYNTH_PROG0_LEN);
    CHECK_EQ(hdr_log[1], (1u << 24) | 7u);
    CHECK_EQ(hdr_log[2], (1u << 24) | 5u);
    CHECK_EQ(hdr_log[3], (0u << 24) | SYNTH_PROG1_LEN);
    /* int16 input: the high (odd) byte of each element XOR 0x80, by position in the layer */
    CHECK_EQ(sent_len[1], 12);
    for (k = 0; k < 7; k++) CHECK_EQ(sent[1][k], (uint8_t)(in10[k] ^ ((k & 1) ? 0x80 : 0)));
    for (k = 5; k < 10; k++) CHECK_EQ(sent[1][7 + k - 5],
                                      (uint8_t)(in10[k] ^ ((k & 1) ? 0x80 : 0)));
    for (k = 0; k < 12; k++) sum = (uint8_t)(sum + sent[1][k]);
    /* int32 output: byte 3 of each element XOR 0x80 after reading */
    for (k = 0; k < 8; k++) CHECK_EQ(out8[k], (uint8_t)((sum + k) ^ ((k % 4 == 3) ? 0x80 : 0)));
    /* linking: chunk 0 bundle 1 = input low, bundle 2 = input high; chunk 1 bundle 1 = output */
    REQUIRE_ST(accel_edgetpu_bits_get(sent[0], sent_len[0], 16 * 8 + 70, 32, &v), ACCEL_OK);
    CHECK_EQ(v, 0x11223344u);
    REQUIRE_ST(accel_edgetpu_bits_get(sent[0], sent_len[0], 32 * 8 + 70, 32, &v), ACCEL_OK);
    CHECK_EQ(v, 0xAABBCCDDu);
    REQUIRE_ST(accel_edgetpu_bits_get(sent[0] + SYNTH_PROG0_LEN, SYNTH_PROG1_LEN, 16 * 8 + 70, 32,
                                      &v), ACCEL_OK);
    CHECK_EQ(v, 0xCAFEF00Du);
    /* interrupt 1 arrives as event tag 5; a tag-4 event is refused */
    REQUIRE_ST(setup(0, 16), ACCEL_OK);
    io.in = sin;
    io.in_len = sin_len;
    io.out = sout;
    io.out_len = sout_len;
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0, SYNTH_PROG0_LEN),
               ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 7), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 1, 5), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_RECV, 0, SYNTH_PROG1_LEN),
               ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_OUTPUT, 0, 8), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&es.model, ACCEL_EDGETPU_MODEL_EVENT, 4, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &e, &io), ACCEL_E_EDGETPU_EVENT);
    /* an input buffer shorter than the hints need */
    sin_len[0] = 9;
    CHECK_ST(accel_edgetpu_exe_run(&es.drv, &e, &io), ACCEL_E_BUFFER_TOO_SMALL);
}

int main(void)
{
    RUN(test_synthetic_package);
    RUN(test_dense_first_and_cached);
    RUN(test_bright_signed_output);
    RUN(test_token_switching);
    RUN(test_small_chunks_and_scratch);
    RUN(test_fatal_interrupt);
    RUN(test_wrong_event);
    RUN(test_faults_during_run);
    return TEST_END();
}
