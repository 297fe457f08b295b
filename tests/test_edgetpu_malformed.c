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
#include "sessions.h"
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
        st = accel_edgetpu_decode_package(&m, synth_variant_bytes + v->at, v->len);
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
    REQUIRE_ST(accel_edgetpu_decode_package(&m, synth_variant_bytes + v->at, v->len), ACCEL_OK);
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

int main(void)
{
    tl_seed(1);
    RUN(test_decode_variants);
    RUN(test_valid_variant);
    return TEST_END();
}
