/* test_edgetpu_package.c - Edge TPU compiled packages: FlatBuffers/FlexBuffers reader and the
 * tflite -> edgetpu-custom-op -> DarwiNN package -> executables walk.
 * Every case reads compiled models (models/NAME_edgetpu.tflite, from
 * ricardodeazambuja/LibrEdgeTPU @ be71d6de, Apache-2.0), third-party artefacts that are not in
 * the repository (tests/edgetpu_data.h, the README's ACCEL_<SECTION>_DATA contract): the
 * cases skip by name without them. Expected values come from scripts/gen/gen_edgetpu_vectors.py,
 * an independent Python walker; the self-contained synthetic package is tested in
 * test_edgetpu_driver.c. */
#define _GNU_SOURCE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "edgetpu_data.h"
#include <stdlib.h>

#include "vectors/edgetpu/insn_expect.h"

static uint8_t m_buf[1u << 17], m_mut[1u << 17];


static int view_is(accel_edgetpu_view v, const char *s)
{
    if (!*s) return v.p == NULL || v.len == 0;
    return v.p && v.len == strlen(s) && memcmp(v.p, s, v.len) == 0;
}

static void check_model(const et_model_expect *me, const uint8_t *file, size_t n)
{
    accel_edgetpu_package m;
    uint32_t k, i;
    /* a REQUIRE here ends this model's checks (the case is failed); the next model still runs */
    REQUIRE_ST(accel_edgetpu_package_init_tflite(&m, file, n), ACCEL_OK);
    CHECK(m.package.p == file + me->pkg_at);
    CHECK_EQ(m.package.len, me->pkg_len);
    CHECK_EQ(m.min_runtime_version, me->min_rt);
    CHECK(view_is(m.compiler_version, me->compiler));
    CHECK_EQ(m.n_executables, me->nexe);
    for (k = 0; k < m.n_executables && k < me->nexe; k++) {
        const et_exe_expect *x = &me->exe[k];
        accel_edgetpu_exe e;
        accel_edgetpu_bitstream b;
        REQUIRE_ST(accel_edgetpu_package_executable(&m, k, &e), ACCEL_OK);
        CHECK_EQ(e.type, x->type);
        CHECK_EQ_U64(e.parameter_caching_token, x->token);
        CHECK_EQ(e.batch_size, x->batch);
        CHECK_EQ(e.scratch_size_bytes, x->scratch);
        CHECK_EQ(e.used_narrow_memory_bytes_per_tile, x->narrow);
        CHECK(view_is(e.name, x->name));
        CHECK(view_is(e.chip, x->chip));
        CHECK_EQ(e.parameters.len, x->params_len);
        if (x->params_len) CHECK(e.parameters.p == file + x->params_at);
        CHECK_EQ(e.n_bitstreams, 1);
        REQUIRE_ST(accel_edgetpu_exe_bitstream(&e, 0, &b), ACCEL_OK);
        CHECK(b.bits.p == file + x->bs_at);
        CHECK_EQ(b.bits.len, x->bs_len);
        CHECK_EQ(b.n_field_offsets, x->nfo);
        for (i = 0; i < b.n_field_offsets && i < x->nfo; i++) {
            accel_edgetpu_field_offset fo;
            REQUIRE_ST(accel_edgetpu_bitstream_field_offset(&b, i, &fo), ACCEL_OK);
            CHECK_EQ(fo.desc, x->fo[i].desc);
            CHECK_EQ(fo.position, x->fo[i].position);
            CHECK_EQ(fo.batch, x->fo[i].batch);
            CHECK(view_is(fo.name, x->fo[i].name));
            CHECK_EQ(fo.offset_bit, x->fo[i].offset_bit);
            /* every patch point is the imm_scalar of a MOVI bundle */
            CHECK_EQ(fo.offset_bit % 128, 70);
        }
        CHECK_EQ(e.has_dma_hints, 1);
        CHECK_EQ(e.fully_deterministic, x->fully_det);
        CHECK_EQ(e.n_hints, x->nhints);
        for (i = 0; i < e.n_hints && i < x->nhints; i++) {
            accel_edgetpu_hint h;
            const et_hint_expect *xh = &x->hints[i];
            REQUIRE_ST(accel_edgetpu_exe_hint(&e, i, &h), ACCEL_OK);
            CHECK_EQ(h.kind, xh->kind);
            CHECK_EQ(h.direction, xh->direction);
            if (h.kind == ACCEL_EDGETPU_HINT_DMA) {
                CHECK_EQ(h.desc, xh->desc);
                CHECK(view_is(h.name, xh->name));
                CHECK_EQ(h.offset_in_bytes, xh->off);
                CHECK_EQ(h.size_in_bytes, xh->size);
            }
            if (h.kind == ACCEL_EDGETPU_HINT_INSTRUCTION) CHECK_EQ(h.instruction_chunk_index, xh->chunk);
            if (h.kind == ACCEL_EDGETPU_HINT_INTERRUPT) CHECK_EQ(h.interrupt_type, xh->irq);
        }
        CHECK_EQ(e.n_inputs, x->nin);
        CHECK_EQ(e.n_outputs, x->nout);
        for (i = 0; i < e.n_inputs + e.n_outputs && i < x->nin + x->nout; i++) {
            accel_edgetpu_layer l;
            const et_layer_expect *xl = &x->layers[i];
            int out = i >= e.n_inputs;
            REQUIRE_ST(accel_edgetpu_exe_layer(&e, out, out ? i - e.n_inputs : i, &l), ACCEL_OK);
            CHECK(view_is(l.name, xl->name));
            CHECK_EQ(l.size_bytes, xl->size);
            CHECK_EQ(l.y_dim, xl->y);
            CHECK_EQ(l.x_dim, xl->x);
            CHECK_EQ(l.z_dim, xl->z);
            CHECK_EQ(l.zero_point, xl->zp);
            CHECK_EQ(l.dequantization_factor_bits, xl->dq_bits);
            CHECK_EQ(l.data_type, xl->dt);
            CHECK_EQ(l.execution_count_per_inference, 1);
        }
        /* out-of-range indices */
        CHECK_ST(accel_edgetpu_exe_bitstream(&e, 1, &b), ACCEL_E_ARG);
        {
            accel_edgetpu_hint h;
            accel_edgetpu_layer l;
            CHECK_ST(accel_edgetpu_exe_hint(&e, e.n_hints, &h), ACCEL_E_ARG);
            CHECK_ST(accel_edgetpu_exe_layer(&e, 1, e.n_outputs, &l), ACCEL_E_ARG);
        }
    }
    {
        accel_edgetpu_exe e;
        uint32_t idx = 99;
        CHECK_ST(accel_edgetpu_package_executable(&m, m.n_executables, &e), ACCEL_E_ARG);
        CHECK_ST(accel_edgetpu_package_find(&m, ACCEL_EDGETPU_PARAMETER_CACHING, &idx), ACCEL_OK);
        CHECK_EQ(idx, 1);
        CHECK_ST(accel_edgetpu_package_find(&m, ACCEL_EDGETPU_EXECUTION_ONLY, &idx), ACCEL_OK);
        CHECK_EQ(idx, 0);
        CHECK_ST(accel_edgetpu_package_find(&m, ACCEL_EDGETPU_STAND_ALONE, &idx), ACCEL_E_EMPTY);
    }
}

static void test_models_fields(void)
{
    unsigned k;
    for (k = 0; k < sizeof et_models / sizeof et_models[0]; k++) {
        size_t n = 0;
        ET_LOAD(et_models[k].file, m_buf, sizeof m_buf, n);
        check_model(&et_models[k], m_buf, n);
    }
}

static void test_model_bitstreams_roundtrip(void)
{
    unsigned k;
    for (k = 0; k < 2; k++) {
        size_t n = 0, i;
        accel_edgetpu_package m;
        uint32_t x;
        ET_LOAD(et_models[k].file, m_buf, sizeof m_buf, n);
        REQUIRE_ST(accel_edgetpu_package_init_tflite(&m, m_buf, n), ACCEL_OK);
        for (x = 0; x < m.n_executables; x++) {
            accel_edgetpu_exe e;
            accel_edgetpu_bitstream b;
            uint32_t bits = 0;
            REQUIRE_ST(accel_edgetpu_package_executable(&m, x, &e), ACCEL_OK);
            REQUIRE_ST(accel_edgetpu_exe_bitstream(&e, 0, &b), ACCEL_OK);
            for (i = 0; i + 16 <= b.bits.len; i += 16) {
                accel_edgetpu_insn in;
                uint8_t back[16];
                REQUIRE_ST(accel_edgetpu_decode_insn(b.bits.p + i, &in), ACCEL_OK);
                REQUIRE_ST(accel_edgetpu_encode_insn(&in, back), ACCEL_OK);
                CHECK_MEM(back, b.bits.p + i, 16);
            }
            /* a compiled program frame, as in the .coral files */
            CHECK_ST(accel_edgetpu_prog_length(b.bits.p, &bits), ACCEL_OK);
            CHECK_EQ(bits, (b.bits.len / 16 - 2) * 128);
        }
    }
}

static void test_model_patch(void)
{
    /* link a 64-bit parameter address into a copy of the PC bitstream: LOWER then UPPER */
    size_t n = 0;
    accel_edgetpu_package m;
    accel_edgetpu_exe e;
    accel_edgetpu_bitstream b;
    static uint8_t copy[8192];
    uint32_t i, v = 0;
    ET_LOAD("models/dense_256_edgetpu.tflite", m_buf, sizeof m_buf, n);
    REQUIRE_ST(accel_edgetpu_package_init_tflite(&m, m_buf, n), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&m, 1, &e), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&e, 0, &b), ACCEL_OK);
    REQUIRE(b.bits.len <= sizeof copy);
    memcpy(copy, b.bits.p, b.bits.len);
    for (i = 0; i < b.n_field_offsets; i++) {
        accel_edgetpu_field_offset fo;
        uint64_t addr = 0x1122334455667788ULL;
        REQUIRE_ST(accel_edgetpu_bitstream_field_offset(&b, i, &fo), ACCEL_OK);
        CHECK_ST(accel_edgetpu_bits_get(copy, b.bits.len, fo.offset_bit, 32, &v), ACCEL_OK);
        CHECK_EQ(v, 0); /* unlinked: zero */
        CHECK_ST(accel_edgetpu_patch32(copy, b.bits.len, fo.offset_bit,
                                       fo.position ? (uint32_t)(addr >> 32) : (uint32_t)addr),
                 ACCEL_OK);
    }
    {
        accel_edgetpu_insn in;
        /* offsets 582 and 710: bundles 4 and 5 */
        REQUIRE(b.bits.len >= 96);
        REQUIRE_ST(accel_edgetpu_decode_insn(copy + 64, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x55667788u);
        REQUIRE_ST(accel_edgetpu_decode_insn(copy + 80, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x11223344u);
        CHECK_MEM(copy + 96, b.bits.p + 96, b.bits.len - 96);
    }
}

static void test_truncated(void)
{
    unsigned k;
    for (k = 0; k < 2; k++) {
        size_t n = 0, cut;
        unsigned bad = 0, tail_ok = 0;
        size_t pkg_end = et_models[k].pkg_at + et_models[k].pkg_len;
        ET_LOAD(et_models[k].file, m_buf, sizeof m_buf, n);
        REQUIRE(n > 512); /* the stride below needs it */
        for (cut = 0; cut < n; cut += (cut < 512 || cut > n - 512) ? 1 : 61) {
            accel_edgetpu_package m;
            accel_status st;
            memcpy(m_mut, m_buf, cut); /* the rest of m_mut is never read: ASan guards the copy */
            st = accel_edgetpu_package_init_tflite(&m, m_mut, cut);
            /* everything the walk needs ends with the package; later cuts only lose
             * tflite tables the walk never visits (and then the result is the full one) */
            if (st == ACCEL_OK && cut < pkg_end) bad++;
            if (st == ACCEL_OK) {
                tail_ok++;
                CHECK_EQ(m.n_executables, 2);
            }
        }
        CHECK_EQ(bad, 0);
        printf("  %s: %u cuts after the package still open\n", et_models[k].file, tail_ok);
    }
}

static void test_corrupted_bytes(void)
{
    /* flip every byte outside the bulk data: never a crash, never a read outside */
    unsigned k;
    for (k = 0; k < 2; k++) {
        size_t n = 0, i;
        unsigned ok = 0, err = 0;
        ET_LOAD(et_models[k].file, m_buf, sizeof m_buf, n);
        REQUIRE(n > 4096); /* the stride below needs it */
        for (i = 0; i < n; i += (i < 2048 || i > n - 4096) ? 1 : 97) {
            accel_edgetpu_package m;
            memcpy(m_mut, m_buf, n);
            m_mut[i] ^= 0xA5;
            if (accel_edgetpu_package_init_tflite(&m, m_mut, n) == ACCEL_OK) {
                uint32_t x;
                ok++;
                /* whatever opened must be walkable */
                for (x = 0; x < m.n_executables; x++) {
                    accel_edgetpu_exe e;
                    CHECK_ST(accel_edgetpu_package_executable(&m, x, &e), ACCEL_OK);
                }
            } else {
                err++;
            }
        }
        CHECK(err > 0);
        CHECK(ok > 0);
    }
}

static void test_targeted_corruption(void)
{
    size_t n = 0;
    accel_edgetpu_package m;
    accel_edgetpu_exe e;
    accel_edgetpu_bitstream b;
    size_t at;
    ET_LOAD("models/dense_256_edgetpu.tflite", m_buf, sizeof m_buf, n);
    REQUIRE_ST(accel_edgetpu_package_init_tflite(&m, m_buf, n), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_exe_bitstream(&e, 0, &b), ACCEL_OK);
    /* root offset past the end */
    memcpy(m_mut, m_buf, n);
    accel_store_u32le(m_mut, (uint32_t)n);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* a string without its NUL */
    memcpy(m_mut, m_buf, n);
    at = (size_t)(e.chip.p - m_buf) + e.chip.len;
    m_mut[at] = 'x';
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* a vector length beyond the buffer */
    memcpy(m_mut, m_buf, n);
    at = (size_t)(b.bits.p - m_buf) - 4;
    accel_store_u32le(m_mut + at, 0xFFFFFFF0u);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* a bitstream that is not whole bundles */
    accel_store_u32le(m_mut + at, (uint32_t)b.bits.len - 1);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* field offsets must stay inside a shortened bitstream: 4224 -> 96 bytes (first patch is
     * at bit 582 = byte 72..76 fits; bit 1862 does not) */
    accel_store_u32le(m_mut + at, 96);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* package identifier */
    memcpy(m_mut, m_buf, n);
    m_mut[et_models[1].pkg_at + 4] = 'X';
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* the custom op name */
    memcpy(m_mut, m_buf, n);
    {
        uint8_t *p = (uint8_t *)memmem(m_mut, 4096, "edgetpu-custom-op", 17);
        CHECK(p != NULL);
        if (p) p[0] = 'E';
    }
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_UNSUPPORTED);
    /* FlexBuffer root byte width 3 */
    memcpy(m_mut, m_buf, n);
    REQUIRE_ST(accel_edgetpu_package_init_tflite(&m, m_buf, n), ACCEL_OK);
    at = (size_t)(m.custom_options.p - m_buf) + m.custom_options.len - 1;
    m_mut[at] = 3;
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, n), ACCEL_E_MALFORMED);
    /* NULLs and a non-flatbuffer */
    CHECK_ST(accel_edgetpu_package_init_tflite(NULL, m_buf, n), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, NULL, n), ACCEL_E_NULL);
    memset(m_mut, 0xFF, 64);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, 64), ACCEL_E_MALFORMED);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_mut, 0), ACCEL_E_MALFORMED);
    /* the plain (uncompiled) tflite has no edgetpu-custom-op */
    ET_LOAD("models/dense_256.tflite", m_buf, sizeof m_buf, n);
    CHECK_ST(accel_edgetpu_package_init_tflite(&m, m_buf, n), ACCEL_E_UNSUPPORTED);
}

static void test_package_direct(void)
{
    size_t n = 0;
    accel_edgetpu_package m;
    ET_LOAD("models/bright_16x16_edgetpu.tflite", m_buf, sizeof m_buf, n);
    REQUIRE(n >= et_models[0].pkg_at + et_models[0].pkg_len);
    CHECK_ST(accel_edgetpu_package_init(&m, m_buf + et_models[0].pkg_at, et_models[0].pkg_len),
             ACCEL_OK);
    CHECK_EQ(m.n_executables, 2);
    /* the package is at an odd (6 mod 8) offset in the file: copy it aligned and compare */
    memcpy(m_mut, m_buf + et_models[0].pkg_at, et_models[0].pkg_len);
    CHECK_ST(accel_edgetpu_package_init(&m, m_mut, et_models[0].pkg_len), ACCEL_OK);
    CHECK_ST(accel_edgetpu_package_init(&m, m_mut, 7), ACCEL_E_MALFORMED);
}

int main(void)
{
    RUN(test_models_fields);
    RUN(test_model_bitstreams_roundtrip);
    RUN(test_model_patch);
    RUN(test_truncated);
    RUN(test_corrupted_bytes);
    RUN(test_targeted_corruption);
    RUN(test_package_direct);
    return TEST_END();
}
