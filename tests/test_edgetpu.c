/* test_edgetpu.c - Edge TPU section: instructions, programs, patching, disassembler.
 * The cases that read compiled programs (programs/NAME.coral, as extracted by
 * geohot/edgetpuxray @ 8ed91db6 from edgetpu_compiler's output) need the third-party artefacts
 * (tests/edgetpu_data.h, the README's ACCEL_<SECTION>_DATA contract) and skip by name
 * without them; the rest is self-contained. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "edgetpu_data.h"
#include <stdlib.h>

#include "vectors/edgetpu/insn_expect.h"

static const char *const et_programs[] = {
    "add1", "dense_1_8_mul", "div2", "div2_10", "div2_10_aarch64", "div2_20",
    "div2_20_aarch64", "div2_40", "div2_8", "div2_80", "div2_8_aarch64", "div4", "matmul_256",
    "mul2", "mul2_add10", "relu", "relu_2", "relu_4", "relu_sub_1", "sigmoid", "sub1",
    "weight_copy_in_0x100", "weight_copy_in_0x80"};
#define ET_NPROG (sizeof et_programs / sizeof et_programs[0])

static uint8_t et_buf[1u << 18];


static void test_field_table(void)
{
    unsigned i, total = 0, next = 128;
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) {
        /* fields tile the 128 bits from the top, in order, without gaps */
        CHECK_EQ(accel_edgetpu_field_lsb(i) + accel_edgetpu_field_width(i), next);
        next = accel_edgetpu_field_lsb(i);
        total += accel_edgetpu_field_width(i);
    }
    CHECK_EQ(total, 128);
    CHECK_EQ(accel_edgetpu_field_lsb(ACCEL_EDGETPU_F_IMM_SCALAR), 70);
    CHECK_EQ(accel_edgetpu_field_width(ACCEL_EDGETPU_F_UNK_3), 18);
    CHECK_EQ(accel_edgetpu_field_width(99), 0);
    CHECK_STR(accel_edgetpu_field_name(ACCEL_EDGETPU_F_GATE), "gate");
    CHECK_STR(accel_edgetpu_field_name(0), "unk_3");
    CHECK_STR(accel_edgetpu_field_name(20), "?");
}

static void test_single_bits(void)
{
    /* each field set to all ones alone lands on exactly its bits */
    unsigned i, b;
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) {
        accel_edgetpu_insn in, back;
        uint8_t raw[16];
        unsigned w = accel_edgetpu_field_width(i), l = accel_edgetpu_field_lsb(i);
        memset(&in, 0, sizeof in);
        in.f[i] = w == 32 ? 0xFFFFFFFFu : ((1u << w) - 1u);
        CHECK_ST(accel_edgetpu_encode_insn(&in, raw), ACCEL_OK);
        for (b = 0; b < 128; b++) {
            int set = (raw[b / 8] >> (b % 8)) & 1;
            CHECK_EQ(set, b >= l && b < l + w);
        }
        CHECK_ST(accel_edgetpu_decode_insn(raw, &back), ACCEL_OK);
        CHECK_MEM(&in, &back, sizeof in);
        /* one more than the width is refused */
        if (w < 32) {
            in.f[i] = 1u << w;
            memset(raw, 0xAA, sizeof raw);
            CHECK_ST(accel_edgetpu_encode_insn(&in, raw), ACCEL_E_ARG);
            CHECK_EQ(raw[0], 0xAA);
        }
    }
}

static void test_known_bundles(void)
{
    /* Decoded by hand: add1.coral @0x6B0 is the program's op-specific bundle. */
    size_t n = 0;
    accel_edgetpu_insn in;
    ET_LOAD("programs/add1.coral", et_buf, sizeof et_buf, n);
    REQUIRE_EQ(n, 2864);
    REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + 0x6B0, &in), ACCEL_OK);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_PRED_REG], 4);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_VS_REG_V1], 3);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SIZE], 0xc06);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_OP], 0x1f);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_OFFSET], 0xff);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_CMD], 0x1d);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_VS_REG], 0x17);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_S_OP], 0x1f);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_S_X], 0x1e);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_S_Y], 0x1f);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x21bf7f);
    /* mul2 differs from it only there: imm_size 0x406, v_offset 0xfe, vs_reg 0xf */
    ET_LOAD("programs/mul2.coral", et_buf, sizeof et_buf, n);
    REQUIRE_EQ(n, 2864);
    REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + 0x6B0, &in), ACCEL_OK);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SIZE], 0x406);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_OFFSET], 0xfe);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_VS_REG], 0xf);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x21bf80);
    /* the v_op_2 constant every compiled program carries at 0x340 */
    REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + 0x340, &in), ACCEL_OK);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_OP_2], 7);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_VS_REG_W], 1);
    CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0xfc056600u);
}

static void test_roundtrip_programs(void)
{
    size_t p, i;
    for (p = 0; p < ET_NPROG; p++) {
        char rel[128];
        size_t n = 0;
        snprintf(rel, sizeof rel, "programs/%s.coral", et_programs[p]);
        ET_LOAD(rel, et_buf, sizeof et_buf, n);
        CHECK_EQ(n % 16, 0);
        for (i = 0; i + 16 <= n; i += 16) {
            accel_edgetpu_insn in;
            uint8_t back[16];
            REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + i, &in), ACCEL_OK);
            REQUIRE_ST(accel_edgetpu_encode_insn(&in, back), ACCEL_OK);
            CHECK_MEM(back, et_buf + i, 16);
        }
    }
}

static void test_generated_expectations(void)
{
    size_t k, nexp = sizeof et_insn_expects / sizeof et_insn_expects[0];
    const char *loaded = "";
    size_t n = 0;
    CHECK(nexp > 100);
    REQUIRE_DATA("ACCEL_EDGETPU_DATA", "edgetpu");
    for (k = 0; k < nexp; k++) {
        const et_insn_expect *e = &et_insn_expects[k];
        accel_edgetpu_insn in;
        unsigned i;
        if (strcmp(loaded, e->file) != 0) {
            char rel[128];
            snprintf(rel, sizeof rel, "programs/%s", e->file);
            ET_LOAD(rel, et_buf, sizeof et_buf, n);
            loaded = e->file;
        }
        REQUIRE(e->off + 16 <= n);
        REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + e->off, &in), ACCEL_OK);
        for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) CHECK_EQ(in.f[i], e->f[i]);
    }
}

static void test_prog_structure(void)
{
    /* every compiled program: START holds (count - 2) * 128 bits, ends HALT, 4 NOPs, END */
    size_t p;
    for (p = 0; p < ET_NPROG; p++) {
        char rel[128];
        size_t n = 0, cnt;
        uint32_t bits = 0;
        accel_edgetpu_insn in;
        snprintf(rel, sizeof rel, "programs/%s.coral", et_programs[p]);
        ET_LOAD(rel, et_buf, sizeof et_buf, n);
        cnt = n / 16;
        REQUIRE(cnt > 7);
        CHECK_ST(accel_edgetpu_prog_length(et_buf, &bits), ACCEL_OK);
        CHECK_EQ(bits, (cnt - 2) * 128);
        REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + n - 16, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_BRANCH], ACCEL_EDGETPU_BR_END);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SIZE], 0x80);
        REQUIRE_ST(accel_edgetpu_decode_insn(et_buf + n - 96, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_BRANCH], ACCEL_EDGETPU_BR_HALT);
    }
    { uint32_t bb = 0; CHECK_ST(accel_edgetpu_prog_length(et_buf + 16, &bb), ACCEL_E_MALFORMED); }
}

static void test_prog_build_matches_compiler(void)
{
    /* the builder's frame equals weight_copy_in_0x80.coral's own frame: START carries the
     * same length when the body is the same size, and the 6-bundle tail is byte-identical */
    uint8_t prog[61 * 16], out[61 * 16 + 16];
    size_t n = 0, len = 0;
    uint32_t bits = 0;
    accel_edgetpu_insn a, b;
    unsigned i;
    ET_LOAD("programs/weight_copy_in_0x80.coral", prog, sizeof prog, n);
    REQUIRE_EQ(n, 976);
    REQUIRE_ST(accel_edgetpu_prog_build(prog + 16, 54, out, sizeof out, &len), ACCEL_OK);
    REQUIRE_EQ(len, 976);
    CHECK_MEM(out + 16, prog + 16, 54 * 16);
    CHECK_MEM(out + 55 * 16, prog + 55 * 16, 6 * 16);
    CHECK_ST(accel_edgetpu_prog_length(out, &bits), ACCEL_OK);
    CHECK_EQ(bits, 59 * 128);
    /* START differs from the compiler's only in v_op/imm_size being the length alone */
    REQUIRE_ST(accel_edgetpu_decode_insn(out, &a), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_decode_insn(prog, &b), ACCEL_OK);
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) CHECK_EQ(a.f[i], b.f[i]);
}

static void test_prog_build(void)
{
    uint8_t prog[16] = {0}, out[61 * 16 + 16]; /* the sizes below are refused before a read */
    size_t len = 0;
    unsigned i;
    /* hand-made: empty body -> START len 5*128 = 0x280 */
    REQUIRE_ST(accel_edgetpu_prog_build(NULL, 0, out, sizeof out, &len), ACCEL_OK);
    REQUIRE_EQ(len, 7 * 16);
    {
        /* START: enable_scalar bit 11, branch 0x1e at bits 10..6 -> low 16 bits 0x0f80;
         * imm_size 0x280 at bits 30..19 -> 0x280 << 19 = 0x14000000 */
        static const uint8_t start[16] = {0x80, 0x0f, 0x00, 0x14, 0, 0, 0, 0,
                                          0, 0, 0, 0, 0, 0, 0, 0};
        static const uint8_t nop[16] = {0x00, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        /* HALT: 0x0800 | 1 << 6 | vs_reg_v1 4 << 14 = 0x10840 */
        static const uint8_t halt[16] = {0x40, 0x08, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        /* END: 0x0800 | 0x1f << 6 | 0x80 << 19 = 0x04000fc0 */
        static const uint8_t end[16] = {0xc0, 0x0f, 0x00, 0x04, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0, 0};
        CHECK_MEM(out, start, 16);
        CHECK_MEM(out + 16, halt, 16);
        for (i = 2; i < 6; i++) CHECK_MEM(out + i * 16, nop, 16);
        CHECK_MEM(out + 96, end, 16);
    }
    CHECK_ST(accel_edgetpu_prog_build(NULL, 0, out, 7 * 16 - 1, &len), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_edgetpu_prog_build(NULL, 1, out, sizeof out, &len), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_prog_build(prog, 262139, out, sizeof out, &len), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_edgetpu_prog_build(prog, 262138, out, sizeof out, &len), ACCEL_E_BUFFER_TOO_SMALL);
}

static void test_patch(void)
{
    uint8_t b[32];
    uint32_t v = 0;
    unsigned i;
    /* bit 70 = byte 8 bit 6: value 0xDEADBEEF spreads over bytes 8..12 */
    memset(b, 0, sizeof b);
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 70, 0xDEADBEEFu), ACCEL_OK);
    {
        /* 0xDEADBEEF << 6 = 0x37AB6FBBC0 -> bytes c0 bb 6f ab 37 */
        static const uint8_t want[5] = {0xc0, 0xbb, 0x6f, 0xab, 0x37};
        CHECK_MEM(b + 8, want, 5);
        for (i = 0; i < 8; i++) CHECK_EQ(b[i], 0);
        for (i = 13; i < 32; i++) CHECK_EQ(b[i], 0);
    }
    /* neighbours are kept */
    memset(b, 0xFF, sizeof b);
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 70, 0), ACCEL_OK);
    CHECK_EQ(b[8], 0x3f);
    CHECK_EQ(b[12], 0xc0);
    CHECK_EQ(b[9], 0);
    CHECK_ST(accel_edgetpu_bits_get(b, sizeof b, 70, 32, &v), ACCEL_OK);
    CHECK_EQ(v, 0);
    CHECK_ST(accel_edgetpu_bits_get(b, sizeof b, 64, 6, &v), ACCEL_OK);
    CHECK_EQ(v, 0x3f);
    /* aligned and at the very end */
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 224, 0x01020304u), ACCEL_OK);
    CHECK_EQ(b[28], 4);
    CHECK_EQ(b[31], 1);
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 225, 1), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 0xFFFFFFF0u, 1), ACCEL_E_ARG);
    /* lsb + 32 wrapping 32 bits (fuzz_edgetpu crash ed7642b5) */
    CHECK_ST(accel_edgetpu_patch32(b, sizeof b, 0xFFFFFFDFu, 1), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_bits_get(b, sizeof b, 0xFFFFFFE0u, 32, &v), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_bits_set(b, sizeof b, 0xFFFFFFFFu, 1, 1), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_patch32(NULL, 4, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_bits_get(b, sizeof b, 0, 0, &v), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_bits_get(b, sizeof b, 0, 33, &v), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_bits_set(b, sizeof b, 0, 4, 16), ACCEL_E_ARG);
    /* patching imm_scalar of a bundle through the bit offset == setting the field */
    {
        accel_edgetpu_insn in;
        memset(b, 0, sizeof b);
        CHECK_ST(accel_edgetpu_patch32(b, 16, 70, 0x12345678u), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_decode_insn(b, &in), ACCEL_OK);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_IMM_SCALAR], 0x12345678u);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_S_Y], 0);
        CHECK_EQ(in.f[ACCEL_EDGETPU_F_V_OP_2], 0);
    }
}

#ifndef ACCEL_EDGETPU_NO_DISASM
static void test_disasm_compiled_lines(void)
{
    char line[ACCEL_EDGETPU_DISASM_MAX];
    size_t n = 0, len = 0;
    ET_LOAD("programs/add1.coral", et_buf, sizeof et_buf, n);
    REQUIRE_EQ(n, 2864);
    /* hand-written from the decoded fields above */
    CHECK_ST(accel_edgetpu_disasm(et_buf, 0, line, sizeof line, &len), ACCEL_OK);
    CHECK_STR(line, "0x0000 S         START len=22656 bits");
    CHECK_EQ(len, strlen(line));
    CHECK_ST(accel_edgetpu_disasm(et_buf + 0xad0, 0xad0, line, sizeof line, NULL), ACCEL_OK);
    CHECK_STR(line, "0x0ad0 S         HALT  | vs_reg_v1=0x4");
    CHECK_ST(accel_edgetpu_disasm(et_buf + 0xae0, 0xae0, line, sizeof line, NULL), ACCEL_OK);
    CHECK_STR(line, "0x0ae0 S         NOP");
    CHECK_ST(accel_edgetpu_disasm(et_buf + 0xb20, 0xb20, line, sizeof line, NULL), ACCEL_OK);
    CHECK_STR(line, "0x0b20 S         END  | imm_size=0x80");
    CHECK_ST(accel_edgetpu_disasm(et_buf + 0x6b0, 0x6b0, line, sizeof line, NULL), ACCEL_OK);
    /* no gate and no scalar enable here: pred_reg is a plain non-zero field */
    CHECK_STR(line, "0x06b0           imm_scalar=0x21bf7f s_y=0x1f s_x=0x1e s_op=0x1f vs_reg=0x17 "
                    "v_cmd=0x1d v_offset=0xff v_op=0x1f imm_size=0xc06 vs_reg_v1=0x3 pred_reg=0x4");
}

static void test_disasm_lines(void)
{
    char line[ACCEL_EDGETPU_DISASM_MAX];
    size_t len = 0;
    uint8_t allones[16];
    {
        /* MOVI s5 = 0xabab, built by hand: s_op 0x2f, s_x 5, imm 0xabab, scalar on */
        accel_edgetpu_insn in;
        uint8_t raw[16];
        memset(&in, 0, sizeof in);
        in.f[ACCEL_EDGETPU_F_S_OP] = 0x2f;
        in.f[ACCEL_EDGETPU_F_S_X] = 5;
        in.f[ACCEL_EDGETPU_F_IMM_SCALAR] = 0xabab;
        in.f[ACCEL_EDGETPU_F_ENABLE_SCALAR] = 1;
        REQUIRE_ST(accel_edgetpu_encode_insn(&in, raw), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_disasm(raw, 0x40, line, sizeof line, NULL), ACCEL_OK);
        CHECK_STR(line, "0x0040 S         s5 = MOVI 0xabab");
        /* predicated-false compare: p3 = s1 GT s2 when !p6 */
        memset(&in, 0, sizeof in);
        in.f[ACCEL_EDGETPU_F_S_OP] = 0x0b;
        in.f[ACCEL_EDGETPU_F_S_X] = 3;
        in.f[ACCEL_EDGETPU_F_S_Y] = 1;
        in.f[ACCEL_EDGETPU_F_IMM_SCALAR] = 2;
        in.f[ACCEL_EDGETPU_F_ENABLE_SCALAR] = 1;
        in.f[ACCEL_EDGETPU_F_GATE] = 1;
        in.f[ACCEL_EDGETPU_F_PRED_REG] = 6;
        REQUIRE_ST(accel_edgetpu_encode_insn(&in, raw), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_disasm(raw, 0x50, line, sizeof line, NULL), ACCEL_OK);
        CHECK_STR(line, "0x0050 S   @!p6  p3 = s1 GT s2");
    }
    /* worst case fits in ACCEL_EDGETPU_DISASM_MAX; one byte less than needed fails */
    memset(allones, 0xFF, sizeof allones);
    REQUIRE_ST(accel_edgetpu_disasm(allones, 0xFFFFFFF0u, line, sizeof line, &len), ACCEL_OK);
    CHECK(len < sizeof line);
    CHECK_ST(accel_edgetpu_disasm(allones, 0xFFFFFFF0u, line, len, NULL),
             ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_edgetpu_disasm(allones, 0, line, 0, NULL), ACCEL_E_BUFFER_TOO_SMALL);
}

static void test_disasm_golden(void)
{
    /* checked-in listings (tests/vectors/edgetpu/NAME.dis); lines spot-checked by hand above */
    static const char *const names[] = {"sub1", "weight_copy_in_0x80"};
    unsigned k;
    for (k = 0; k < 2; k++) {
        char rel[128], path[256], want[ACCEL_EDGETPU_DISASM_MAX + 2], line[ACCEL_EDGETPU_DISASM_MAX];
        size_t n = 0, i;
        FILE *fp;
        snprintf(rel, sizeof rel, "programs/%s.coral", names[k]);
        ET_LOAD(rel, et_buf, sizeof et_buf, n);
        snprintf(path, sizeof path, "tests/vectors/edgetpu/%s.dis", names[k]);
        fp = fopen(path, "r");
        REQUIRE(fp != NULL);
        for (i = 0; i + 16 <= n; i += 16) {
            int more = fgets(want, sizeof want, fp) != NULL;
            CHECK(more);
            if (!more) break; /* the listing is short: said once, the file still closed */
            want[strcspn(want, "\n")] = 0;
            CHECK_ST(accel_edgetpu_disasm(et_buf + i, (uint32_t)i, line, sizeof line, NULL), ACCEL_OK);
            CHECK_STR(line, want);
        }
        CHECK(fgets(want, sizeof want, fp) == NULL);
        fclose(fp);
    }
}
#endif

int main(void)
{
    RUN(test_field_table);
    RUN(test_single_bits);
    RUN(test_known_bundles);
    RUN(test_roundtrip_programs);
    RUN(test_generated_expectations);
    RUN(test_prog_structure);
    RUN(test_prog_build);
    RUN(test_prog_build_matches_compiler);
    RUN(test_patch);
#ifndef ACCEL_EDGETPU_NO_DISASM
    RUN(test_disasm_lines);
    RUN(test_disasm_compiled_lines);
    RUN(test_disasm_golden);
#endif
    return TEST_END();
}
