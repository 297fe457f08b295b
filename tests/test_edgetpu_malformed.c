/* test_edgetpu_malformed.c - Edge TPU packages with one deliberate defect each (hand-made
 * FlatBuffers from `scripts/gen/gen_edgetpu_synth.py variants`): every FlatBuffers check of the
 * package, executable, bitstream, field-offset, DMA-hint and layer readers refuses with its
 * precise status and leaves no executable behind. Then the driver paths the main synthetic
 * package does not reach: a parameter-caching executable, hints the USB path refuses at run
 * time, an unnamed hint naming the only layer. No third-party data needed. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "accel_sim_sessions.h"
#include "vectors/edgetpu/synth_variants.h"

static const synth_variant *variant(const char *name)
{
    unsigned i;
    for (i = 0; i < sizeof synth_variants / sizeof synth_variants[0]; i++)
        if (strcmp(synth_variants[i].name, name) == 0) return &synth_variants[i];
    return NULL;
}

/* Every variant decodes to its status; a refused package leaves n_executables 0. */
static void test_decode_variants(void)
{
    unsigned i, nbad = 0;
    for (i = 0; i < sizeof synth_variants / sizeof synth_variants[0]; i++) {
        const synth_variant *v = &synth_variants[i];
        accel_edgetpu_package m;
        accel_status st;
        memset(&m, 0xA5, sizeof m);
        st = accel_edgetpu_package_init(&m, synth_variant_bytes + v->at, v->len);
        if (st != v->status) {
            printf("  variant %s: %s, expected %s\n", v->name, accel_status_str(st),
                   accel_status_str(v->status));
            nbad++;
        }
        if (v->status != ACCEL_OK) CHECK_EQ(m.n_executables, 0);
    }
    CHECK_EQ(nbad, 0);
}

/* The one well-formed variant: what the generator wrote reads back field by field. */
static void test_valid_variant(void)
{
    const synth_variant *v = variant("valid");
    accel_edgetpu_package m;
    accel_edgetpu_exe e;
    accel_edgetpu_bitstream b;
    accel_edgetpu_field_offset fo;
    accel_edgetpu_hint h;
    accel_edgetpu_layer l;
    REQUIRE(v != NULL);
    REQUIRE_ST(accel_edgetpu_package_init(&m, synth_variant_bytes + v->at, v->len), ACCEL_OK);
    CHECK_EQ(m.n_executables, 1);
    CHECK_EQ(m.min_runtime_version, 14);
    REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
    CHECK_EQ(e.type, ACCEL_EDGETPU_STAND_ALONE);
    CHECK_EQ(e.batch_size, 1);
    CHECK_EQ(e.n_bitstreams, 1);
    CHECK_EQ(e.n_hints, 1);
    CHECK_EQ(e.n_inputs, 1);
    CHECK_EQ(e.n_outputs, 0);
    CHECK_EQ(e.parameters.len, 32);
    CHECK(e.chip.p == NULL);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&e, 0, &b), ACCEL_OK);
    CHECK_EQ(b.bits.len, 16);
    CHECK_EQ(b.n_field_offsets, 1);
    REQUIRE_ST(accel_edgetpu_bitstream_field_offset(&b, 0, &fo), ACCEL_OK);
    CHECK_EQ(fo.desc, ACCEL_EDGETPU_DESC_INPUT);
    CHECK_EQ(fo.offset_bit, 64);
    CHECK(fo.name.len == 2 && memcmp(fo.name.p, "in", 2) == 0);
    REQUIRE_ST(accel_edgetpu_exe_hint(&e, 0, &h), ACCEL_OK);
    CHECK_EQ(h.kind, ACCEL_EDGETPU_HINT_INSTRUCTION);
    CHECK_EQ(h.instruction_chunk_index, 0);
    REQUIRE_ST(accel_edgetpu_exe_layer(&e, 0, 0, &l), ACCEL_OK);
    CHECK_EQ(l.size_bytes, 16);
    CHECK_EQ(l.z_dim, 16);
    CHECK_EQ(l.dequantization_factor_bits, 0x3F000000u); /* 0.5f */
}

/* ------------------------------------------------------------------ running the variants */
static accel_sim_edgetpu_session es;
static uint8_t in32[32], out8[8], scratch[16];
static const uint8_t *ins[1] = {in32};
static uint8_t *outs[1] = {out8};
static uint32_t in_len[1] = {32}, out_len[1] = {8};
static accel_edgetpu_io io;
static uint8_t bufs[6][2048]; /* distinct copies: the driver caches by package address */
/* what reached the chip's bulk-out endpoint: request headers (tag << 24 | length), input bytes */
static uint32_t hdrs[16];
static unsigned nhdr, nin;
static uint8_t sent_in[64];
static int want_header = 1, cur_tag = -1;
static uint32_t owed;

static void tracer(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op != ACCEL_SIM_OP_USB_BULK_OUT || ev->status != ACCEL_OK) return;
    if (want_header) {
        owed = accel_load_u32le(ev->data);
        cur_tag = ev->data[4];
        if (nhdr < 16) hdrs[nhdr++] = ((uint32_t)cur_tag << 24) | owed;
        want_header = 0;
        return;
    }
    if (cur_tag == ACCEL_EDGETPU_TAG_INPUT && nin + ev->done <= sizeof sent_in) {
        memcpy(sent_in + nin, ev->data, ev->done);
        nin += (unsigned)ev->done;
    }
    owed -= (uint32_t)ev->done;
    if (owed == 0) want_header = 1;
}

static accel_status setup(void)
{
    unsigned k;
    nhdr = nin = 0;
    want_header = 1;
    for (k = 0; k < 32; k++) in32[k] = (uint8_t)(k * 9 + 3);
    memset(out8, 0, sizeof out8);
    accel_sim_edgetpu_io_one(&io, ins, in_len, outs, out_len, scratch, sizeof scratch);
    return accel_sim_edgetpu_session_init(&es, 0, tracer, NULL);
}

/* Decode variant `name` from copy `slot` of its bytes. */
static accel_status load(accel_edgetpu_package *m, const char *name, unsigned slot)
{
    const synth_variant *v = variant(name);
    if (!v || v->len > sizeof bufs[0]) return ACCEL_E_ARG;
    memcpy(bufs[slot], synth_variant_bytes + v->at, v->len);
    return accel_edgetpu_package_init(m, bufs[slot], v->len);
}

/* The chip expects executable `pc` (when >= 0) then executable `main_i` of m. */
static accel_status script(const accel_edgetpu_package *m, int pc, uint32_t main_i)
{
    accel_edgetpu_exe e;
    accel_status st = ACCEL_OK;
    if (pc >= 0) {
        st = accel_edgetpu_package_executable(m, (uint32_t)pc, &e);
        if (st == ACCEL_OK) st = accel_edgetpu_model_expect_exe(&es.model, &e);
    }
    if (st == ACCEL_OK) st = accel_edgetpu_package_executable(m, main_i, &e);
    if (st == ACCEL_OK) st = accel_edgetpu_model_expect_exe(&es.model, &e);
    return st;
}

/* Parameter caching: the caching executable runs once per package while the token stays;
 * a full set of cached packages starts over; a failed caching run forgets the cache. */
static void test_parameter_caching(void)
{
    accel_edgetpu_package m, mk[5];
    uint8_t sum = 0;
    unsigned k;
    int ran = 0;
    REQUIRE_ST(setup(), ACCEL_OK);
    REQUIRE_ST(load(&m, "pc_main", 0), ACCEL_OK);
    REQUIRE_ST(script(&m, 1, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    CHECK_EQ(es.drv.pc_runs, 1);
    CHECK_EQ(es.drv.exe_runs, 2);
    CHECK_EQ(es.drv.ncached, 1);
    CHECK_EQ_U64(es.drv.current_token, 0x1234);
    CHECK_EQ(es.model.violations, 0);
    /* instructions, 32 parameter bytes; instructions, 32 input bytes (one request) */
    CHECK_EQ(nhdr, 4);
    CHECK_EQ(hdrs[0], (0u << 24) | 16u);
    CHECK_EQ(hdrs[1], (2u << 24) | 32u);
    CHECK_EQ(hdrs[2], (0u << 24) | 16u);
    CHECK_EQ(hdrs[3], (1u << 24) | 32u);
    /* signed 8-bit input, through a 16-byte scratch: every byte XOR 0x80 */
    CHECK_EQ(nin, 32);
    for (k = 0; k < 32; k++) CHECK_EQ(sent_in[k], (uint8_t)(in32[k] ^ 0x80u));
    for (k = 0; k < 32; k++) sum = (uint8_t)(sum + (in32[k] ^ 0x80u));
    for (k = 0; k < 8; k++) CHECK_EQ(out8[k], (uint8_t)(sum + k));
    /* again: cached, the main executable alone; no ran_pc pointer is fine */
    REQUIRE_ST(script(&m, -1, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.drv.pc_runs, 1);
    CHECK_EQ(es.drv.exe_runs, 3);
    CHECK_EQ(es.model.violations, 0);
    /* four more packages with the same token: the fourth fills the set, the fifth starts over */
    for (k = 0; k < 4; k++) {
        REQUIRE_ST(load(&mk[k], "pc_main", 1u + k), ACCEL_OK);
        REQUIRE_ST(script(&mk[k], 1, 0), ACCEL_OK);
        CHECK_ST(accel_edgetpu_invoke(&es.drv, &mk[k], &io, NULL), ACCEL_OK);
        CHECK_EQ(es.drv.pc_runs, 2u + k);
        CHECK_EQ(es.drv.ncached, k < 3 ? 2u + k : 1u);
        CHECK(es.drv.cached[k < 3 ? 1u + k : 0u] == (const void *)bufs[1u + k]);
        CHECK_EQ_U64(es.drv.current_token, 0x1234);
    }
    CHECK_EQ(es.model.violations, 0);
    /* the first package was forgotten with the set: its caching run goes again */
    REQUIRE_ST(script(&m, 1, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_OK);
    CHECK_EQ(ran, 1);
    CHECK_EQ(es.drv.ncached, 2);
    CHECK_EQ(es.model.violations, 0);
    /* a caching run that fails (scratch too small: nothing sent) forgets every cached package */
    REQUIRE_ST(load(&mk[4], "pc_main", 5), ACCEL_OK);
    io.scratch_len = ACCEL_EDGETPU_MIN_SCRATCH - 1u;
    nhdr = 0;
    ran = 7;
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &mk[4], &io, &ran), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(ran, 0);
    CHECK_EQ(es.drv.ncached, 0);
    CHECK_EQ_U64(es.drv.current_token, 0);
    CHECK_EQ(nhdr, 0);
}

/* Packages invoke refuses: a caching executable without a token, no executable to run. */
static void test_invoke_refusals(void)
{
    accel_edgetpu_package m;
    int ran = 5;
    REQUIRE_ST(setup(), ACCEL_OK);
    REQUIRE_ST(load(&m, "pc_no_token", 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_E_EDGETPU_NO_TOKEN);
    CHECK_EQ(ran, 0);
    REQUIRE_ST(load(&m, "pc_only", 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_invoke(&es.drv, &m, &io, &ran), ACCEL_E_MALFORMED);
    CHECK_EQ(es.drv.pc_runs, 0);
    CHECK_EQ(es.drv.exe_runs, 0);
    CHECK_EQ(nhdr, 0);
    CHECK_EQ(es.drv.ncached, 0);
    /* a caching executable with no instructions is well-formed: only a parameter hint */
    REQUIRE_ST(load(&m, "pc_no_bitstreams", 0), ACCEL_OK);
    {
        accel_edgetpu_exe e;
        REQUIRE_ST(accel_edgetpu_package_executable(&m, 1, &e), ACCEL_OK);
        CHECK_EQ(e.type, ACCEL_EDGETPU_PARAMETER_CACHING);
        CHECK_EQ(e.n_bitstreams, 0);
        CHECK_EQ(e.n_hints, 1);
    }
}

/* Well-formed executables the USB path refuses when run, before anything of theirs is sent. */
static void test_run_refusals(void)
{
    static const struct {
        const char *name;
        accel_status st;
    } cases[] = {
        {"no_dma_hints", ACCEL_E_UNSUPPORTED},  {"scratch_hint", ACCEL_E_UNSUPPORTED},
        {"parameters_outfeed", ACCEL_E_MALFORMED}, {"input_outfeed", ACCEL_E_MALFORMED},
        {"unnamed_two_inputs", ACCEL_E_MALFORMED}, {"input_name_unknown", ACCEL_E_MALFORMED},
    };
    unsigned i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        accel_edgetpu_package m;
        accel_edgetpu_exe e;
        REQUIRE_ST(setup(), ACCEL_OK);
        REQUIRE_ST(load(&m, cases[i].name, 0), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
        if (accel_edgetpu_exe_run(&es.drv, &e, &io) != cases[i].st) {
            printf("  %s: expected %s\n", cases[i].name, accel_status_str(cases[i].st));
            CHECK(0);
        }
        CHECK_EQ(nhdr, 0);
        CHECK_EQ(es.drv.exe_runs, 0);
        CHECK_EQ(es.model.violations, 0);
    }
    /* the executable's layers as decoded: the two inputs are "in" and "in2" */
    {
        accel_edgetpu_package m;
        accel_edgetpu_exe e;
        accel_edgetpu_layer l;
        REQUIRE_ST(load(&m, "unnamed_two_inputs", 0), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
        CHECK_EQ(e.n_inputs, 2);
        REQUIRE_ST(accel_edgetpu_exe_layer(&e, 0, 1, &l), ACCEL_OK);
        CHECK(l.name.len == 3 && memcmp(l.name.p, "in2", 3) == 0);
    }
}

int main(void)
{
    tl_seed(1);
    RUN(test_decode_variants);
    RUN(test_valid_variant);
    RUN(test_parameter_caching);
    RUN(test_invoke_refusals);
    RUN(test_run_refusals);
    return TEST_END();
}
