/* Tests for the refsi section: builder, decoder, register fields, window translation and the
 * reference CMP. Three cases compare the builder with command buffers E1-E3 as the oneAPI
 * Construction Kit's own encoder emits them (command_buffers.txt, hand-derived from the kit's
 * refsidrv.cpp): a third-party artefact, not in the repository, read from $ACCEL_REFSI_DATA
 * (testlib.h's tl_data_dir); those cases skip by name without it. The decoder edge cases and
 * register values the kit documents are written down here as numbers. */
/* only the refsi section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "accel_sim_sessions.h"

/* Hex digits to bytes; stops at the first non-hex pair. */
static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned v;
    while (h[0] && h[1] && n < cap && sscanf(h, "%2x", &v) == 1) {
        out[n++] = (uint8_t)v;
        h += 2;
    }
    return n;
}

/* The kit's bytes of example `name` ("E1".."E3"): the "# little-endian bytes:" line under its
 * "## name:" heading in command_buffers.txt. 0 when the file or the example is missing (and
 * says which). */
static size_t kit_example(const char *name, uint8_t *out, size_t cap)
{
    char path[600], line[1024], head[16];
    const char *dir = tl_data_dir("ACCEL_REFSI_DATA", "refsi");
    FILE *f;
    size_t n = 0;
    int in_example = 0;
    snprintf(path, sizeof path, "%s/command_buffers.txt", dir ? dir : ".");
    snprintf(head, sizeof head, "## %s:", name);
    f = fopen(path, "r");
    if (!f) {
        printf("  cannot open %s\n", path);
        return 0;
    }
    while (!n && fgets(line, sizeof line, f)) {
        if (strncmp(line, "## ", 3) == 0) in_example = strncmp(line, head, strlen(head)) == 0;
        else if (in_example && strncmp(line, "# little-endian bytes: ", 23) == 0)
            n = unhex(line + 23, out, cap);
    }
    fclose(f);
    if (!n) printf("  no bytes for %s in %s\n", name, path);
    return n;
}

/* E1-E3 as this project's builder makes them (the kit's bytes, when the cases above pass). */
static accel_status build_e1(accel_refsi_builder *b)
{
    accel_status st = accel_refsi_emit_write_reg64(b, ACCEL_REFSI_REG_ENTRY_PT_FN, 0x10000);
    if (st == ACCEL_OK) st = accel_refsi_emit_finish(b);
    return st;
}
static accel_status build_e2(accel_refsi_builder *b)
{
    static const uint64_t args[2] = {0x40001000, 0x40002000};
    accel_status st = accel_refsi_emit_write_reg64(b, 1, 0x10000);
    if (st == ACCEL_OK) st = accel_refsi_emit_write_reg64(b, 5, 0x14080000);
    if (st == ACCEL_OK) st = accel_refsi_emit_write_reg64(b, 6, 0x40000000);
    if (st == ACCEL_OK) st = accel_refsi_emit_run_instances(b, 4, 8, args, 2);
    if (st == ACCEL_OK)
        st = accel_refsi_emit_sync_cache(b, ACCEL_REFSI_CACHE_DCACHE | ACCEL_REFSI_CACHE_ICACHE);
    if (st == ACCEL_OK) st = accel_refsi_emit_finish(b);
    return st;
}
static accel_status build_e3(accel_refsi_builder *b)
{
    accel_status st = accel_refsi_emit_sync_cache(b, 1);
    if (st == ACCEL_OK) st = accel_refsi_emit_sync_cache(b, 2);
    if (st == ACCEL_OK) st = accel_refsi_emit_sync_cache(b, 3);
    if (st == ACCEL_OK) st = accel_refsi_emit_finish(b);
    return st;
}
static accel_status (*const build_example[3])(accel_refsi_builder *) = {build_e1, build_e2,
                                                                         build_e3};

static void put_chunks(uint8_t *out, const uint64_t *c, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) accel_store_u64le(out + 8 * i, c[i]);
}

/* ---- builder and decoder against the kit's examples ---- */
static void test_e1_both_ways(void)
{
    uint8_t want[64], got[64];
    size_t n;
    accel_refsi_builder b;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    REQUIRE_DATA("ACCEL_REFSI_DATA", "refsi");
    n = kit_example("E1", want, sizeof want);
    REQUIRE_EQ(n, 24);
    REQUIRE_ST(accel_refsi_builder_init(&b, got, sizeof got), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_ENTRY_PT_FN, 0x10000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_OK);
    REQUIRE_EQ(b.len, 24);
    CHECK_MEM(got, want, 24);
    CHECK_EQ_U64(accel_load_u64le(got), 0x00000001c0020200ULL);

    REQUIRE_ST(accel_refsi_iter_init(&it, want, n), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_WRITE_REG64);
    CHECK_EQ(c.reg, 1);
    CHECK_EQ_U64(c.value, 0x10000);
    CHECK_EQ(c.offset, 0);
    CHECK_EQ(c.size, 16);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_FINISH);
    CHECK_EQ(c.offset, 16);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
}

static void test_e2_both_ways(void)
{
    uint8_t want[128], got[128];
    size_t n;
    uint64_t args[2] = {0x40001000, 0x40002000};
    accel_refsi_builder b;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    size_t ncmds = 99;
    REQUIRE_DATA("ACCEL_REFSI_DATA", "refsi");
    n = kit_example("E2", want, sizeof want);
    REQUIRE_EQ(n, 96);
    REQUIRE_ST(accel_refsi_builder_init(&b, got, sizeof got), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_write_reg64(&b, 1, 0x10000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_write_reg64(&b, 5, 0x14080000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_write_reg64(&b, 6, 0x40000000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_run_instances(&b, 4, 8, args, 2), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, ACCEL_REFSI_CACHE_DCACHE | ACCEL_REFSI_CACHE_ICACHE),
             ACCEL_OK);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_OK);
    REQUIRE_EQ(b.len, 96);
    CHECK_MEM(got, want, 96);
    CHECK_EQ_U64(accel_load_u64le(got + 48), 0x00000204c0060800ULL);

    REQUIRE_ST(accel_refsi_iter_init(&it, want, n), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.reg, 5);
    CHECK_EQ_U64(c.value, 0x14080000);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.reg, 6);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_RUN_INSTANCES);
    CHECK_EQ(c.max_harts, 4);
    CHECK_EQ(c.nargs, 2);
    CHECK_EQ_U64(c.instances, 8);
    CHECK_EQ_U64(c.args[0], 0x40001000);
    CHECK_EQ_U64(c.args[1], 0x40002000);
    CHECK_EQ(c.offset, 48);
    CHECK_EQ(c.size, 32);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_SYNC_CACHE);
    CHECK_EQ(c.flags, 3);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_FINISH);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
    CHECK_ST(accel_refsi_validate(want, n, &ncmds, NULL, NULL), ACCEL_OK);
    CHECK_EQ(ncmds, 6);
}

static void test_e3_both_ways(void)
{
    uint8_t want[64], got[64];
    size_t n;
    accel_refsi_builder b;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    uint32_t f;
    REQUIRE_DATA("ACCEL_REFSI_DATA", "refsi");
    n = kit_example("E3", want, sizeof want);
    REQUIRE_EQ(n, 32);
    REQUIRE_ST(accel_refsi_builder_init(&b, got, sizeof got), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, 1), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, 2), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, 3), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_OK);
    REQUIRE_EQ(b.len, 32);
    CHECK_MEM(got, want, 32);
    REQUIRE_ST(accel_refsi_iter_init(&it, want, n), ACCEL_OK);
    for (f = 1; f <= 3; f++) {
        CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
        CHECK_EQ(c.opcode, ACCEL_REFSI_OP_SYNC_CACHE);
        CHECK_EQ(c.flags, f);
    }
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_FINISH);
}

/* Every packet kind, hand-encoded. */
static const uint64_t ALL_OPS[] = {
        0x00000000c0040000ULL, 0x1111111111111111ULL, 0x2222222222222222ULL, /* NOP 2 */
        0x00000007c0020300ULL, 0x0000000080001000ULL,                        /* LOAD r7 */
        0x00000027c0020400ULL, 0x0000000080002000ULL,                        /* STORE r39 */
        0xfffffff8c0020500ULL, 0x0123456789abcdefULL,                        /* STORE_IMM64 */
        0x00000010c0060600ULL, 0x0000000080000008ULL, 0x0000000080000100ULL,
        0x0000000000000003ULL,                                               /* COPY */
        0x000000ffc0040700ULL, 0x0000000000000002ULL, 0x000000000000001fULL, /* RKS */
        0x00000000c0020800ULL, 0x0000000000000005ULL,                        /* RUN_INST 0 */
        0x00000000c0000900ULL,                                               /* SYNC 0 */
        0x00000000c0000100ULL};


/* Re-emit every decoded command through accel_refsi_emit: byte-exact with the source. */
static void test_generic_emit_round_trip(void)
{
    int k;
    for (k = 0; k < 4; k++) {
        uint8_t src[sizeof ALL_OPS], dst[sizeof ALL_OPS];
        size_t n;
        accel_refsi_builder b;
        accel_refsi_iter it;
        accel_refsi_cmd c;
        accel_status st;
        if (k < 3) {
            REQUIRE_ST(accel_refsi_builder_init(&b, src, sizeof src), ACCEL_OK);
            REQUIRE_ST(build_example[k](&b), ACCEL_OK);
            n = b.len;
        } else {
            n = sizeof ALL_OPS;
            put_chunks(src, ALL_OPS, n / 8);
        }
        REQUIRE_ST(accel_refsi_builder_init(&b, dst, sizeof dst), ACCEL_OK);
        REQUIRE_ST(accel_refsi_iter_init(&it, src, n), ACCEL_OK);
        while ((st = accel_refsi_iter_next(&it, &c)) == ACCEL_OK)
            CHECK_ST(accel_refsi_emit(&b, &c), ACCEL_OK);
        CHECK_ST(st, ACCEL_E_EMPTY);
        CHECK_EQ(b.len, n);
        CHECK_MEM(dst, src, n);
    }
}

/* Every packet kind, hand-encoded (ALL_OPS), both directions. */
static void test_all_opcodes_hand_encoded(void)
{
    const uint64_t *want = ALL_OPS;
    uint8_t wb[sizeof ALL_OPS], got[sizeof ALL_OPS];
    uint8_t nop_payload[16];
    accel_refsi_builder b;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    put_chunks(wb, want, sizeof ALL_OPS / 8);
    accel_store_u64le(nop_payload, 0x1111111111111111ULL);
    accel_store_u64le(nop_payload + 8, 0x2222222222222222ULL);
    REQUIRE_ST(accel_refsi_builder_init(&b, got, sizeof got), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_nop(&b, nop_payload, 2), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_load_reg64(&b, 7, 0x80001000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_store_reg64(&b, 39, 0x80002000), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_store_imm64(&b, 0xfffffff8, 0x0123456789abcdefULL), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_copy_mem64(&b, 16, 0x80000008, 0x80000100, 3), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_run_kernel_slice(&b, 255, 2, 31), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_run_instances(&b, 0, 5, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_OK);
    CHECK_EQ(b.len, sizeof ALL_OPS);
    CHECK_MEM(got, wb, sizeof ALL_OPS);

    REQUIRE_ST(accel_refsi_iter_init(&it, wb, sizeof wb), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_NOP);
    CHECK_EQ(c.payload_chunks, 2);
    CHECK(c.payload == wb + 8);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.reg, 7);
    CHECK_EQ_U64(c.addr, 0x80001000);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_STORE_REG64);
    CHECK_EQ(c.reg, 39);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ_U64(c.addr, 0xfffffff8);
    CHECK_EQ_U64(c.value, 0x0123456789abcdefULL);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.count, 16);
    CHECK_EQ_U64(c.src, 0x80000008);
    CHECK_EQ_U64(c.dst, 0x80000100);
    CHECK_EQ_U64(c.unit, 3);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.max_harts, 255);
    CHECK_EQ_U64(c.instances, 2);
    CHECK_EQ_U64(c.slice_id, 31);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.nargs, 0);
    CHECK_EQ_U64(c.instances, 5);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.flags, 0);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_EQ(c.opcode, ACCEL_REFSI_OP_FINISH);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
}

/* ---- malformed buffers ---- */
static void expect_bad(const uint64_t *chunks, size_t n, size_t extra_bytes, accel_status want,
                       size_t want_index, size_t want_offset)
{
    uint8_t buf[256];
    size_t idx = 999, off = 999, ncmds = 999;
    put_chunks(buf, chunks, n);
    memset(buf + 8 * n, 0xC0, extra_bytes);
    CHECK_ST(accel_refsi_validate(buf, 8 * n + extra_bytes, &ncmds, &idx, &off), want);
    CHECK_EQ(idx, want_index);
    CHECK_EQ(off, want_offset);
    CHECK_EQ(ncmds, want_index);
}

static void test_malformed_kit_anchors(void)
{
    /* the kit decoder's edge cases, as observed by running its decode function */
    uint64_t a[] = {0x00000204c0060801ULL, 8, 1, 2};
    uint64_t b[] = {0x0000000080000100ULL};
    uint64_t c[] = {0x00000000c0030100ULL, 0};
    uint64_t d[] = {0x00000000c0000000ULL}; /* encode(op, 0x2000 chunks) wraps to a bare NOP */
    accel_refsi_iter it;
    accel_refsi_cmd cmd;
    expect_bad(a, 4, 0, ACCEL_E_REFSI_RESERVED, 0, 0);
    expect_bad(b, 1, 0, ACCEL_E_REFSI_PACKET_ID, 0, 0);
    /* the kit floors an odd count (chunk_count = 1); its encoder never makes one, so this
     * library calls it malformed */
    expect_bad(c, 2, 0, ACCEL_E_REFSI_ODD_COUNT, 0, 0);
    {
        uint8_t buf[8];
        put_chunks(buf, d, 1);
        REQUIRE_ST(accel_refsi_iter_init(&it, buf, 8), ACCEL_OK);
        CHECK_ST(accel_refsi_iter_next(&it, &cmd), ACCEL_OK);
        CHECK_EQ(cmd.opcode, ACCEL_REFSI_OP_NOP);
        CHECK_EQ(cmd.payload_chunks, 0);
    }
    /* so the builder refuses 0x2000 payload chunks and takes 0x1FFF */
    {
        static uint8_t big[8 * 0x2001], payload[8 * 0x2000];
        accel_refsi_builder bl;
        REQUIRE_ST(accel_refsi_builder_init(&bl, big, sizeof big), ACCEL_OK);
        CHECK_ST(accel_refsi_emit_nop(&bl, payload, 0x2000), ACCEL_E_TOO_LONG);
        CHECK_EQ(bl.len, 0);
        CHECK_ST(accel_refsi_emit_nop(&bl, payload, 0x1FFF), ACCEL_OK);
        CHECK_EQ_U64(accel_load_u64le(big), 0x00000000fffe0000ULL | 0xc0000000ULL);
        REQUIRE_ST(accel_refsi_iter_init(&it, big, bl.len), ACCEL_OK);
        CHECK_ST(accel_refsi_iter_next(&it, &cmd), ACCEL_OK);
        CHECK_EQ(cmd.payload_chunks, 0x1FFF);
    }
}

static void test_malformed_more(void)
{
    uint64_t ok0 = 0x00000003c0000900ULL; /* SYNC_CACHE 3: a good first command */
    /* each: good command, then the bad one at index 1, offset 8 */
    uint64_t op[] = {ok0, 0x00000000c000ff00ULL};
    uint64_t op10[] = {ok0, 0x00000000c0000a00ULL};
    uint64_t cnt[] = {ok0, 0x00000001c0040200ULL, 1, 2};          /* WRITE_REG64 2 chunks */
    uint64_t fin[] = {ok0, 0x00000000c0020100ULL, 0};             /* FINISH with payload */
    uint64_t ri[] = {ok0, 0x00000204c0040800ULL, 8, 1};           /* nargs 2, 1 arg */
    uint64_t over[] = {ok0, 0x00000000c0060600ULL, 8, 16};        /* COPY short */
    uint64_t nopover[] = {ok0, 0x00000000c0060000ULL, 1};         /* NOP 3 chunks, 1 there */
    uint64_t inl1[] = {ok0, 0x00000004c0000900ULL};               /* SYNC flag 4 */
    uint64_t inl2[] = {ok0, 0x00000001c0000100ULL};               /* FINISH dummy 1 */
    uint64_t inl3[] = {ok0, 0x00000100c0040700ULL, 1, 2};         /* RKS bit 8 */
    uint64_t inl4[] = {ok0, 0x00000800c0020800ULL, 1};            /* RUN_INST bit 11 */
    uint64_t inl5[] = {ok0, 0x00000001c0000000ULL};               /* NOP inline */
    uint64_t r1[] = {ok0, 0x00000028c0020200ULL, 1};
    uint64_t r2[] = {ok0, 0x00000028c0020300ULL, 1};
    uint64_t r3[] = {ok0, 0xffffffffc0020400ULL, 1};
    uint64_t pk[] = {ok0, 0x0000000040000100ULL};
    uint64_t al1[] = {ok0, 0x00000001c0060600ULL, 0x1004, 0, 0};    /* COPY src % 8 == 4 */
    uint64_t al2[] = {ok0, 0x00000001c0060600ULL, 0x1007, 0, 0};
    uint64_t al_ok[] = {0x00000001c0060600ULL, 0x1008, 0x1003, 0}; /* dst needs no alignment */
    expect_bad(op, 2, 0, ACCEL_E_REFSI_OPCODE, 1, 8);
    expect_bad(op10, 2, 0, ACCEL_E_REFSI_OPCODE, 1, 8);
    expect_bad(cnt, 4, 0, ACCEL_E_REFSI_PAYLOAD_COUNT, 1, 8);
    expect_bad(fin, 3, 0, ACCEL_E_REFSI_PAYLOAD_COUNT, 1, 8);
    expect_bad(ri, 4, 0, ACCEL_E_REFSI_PAYLOAD_COUNT, 1, 8);
    expect_bad(over, 4, 0, ACCEL_E_REFSI_OVERRUN, 1, 8);
    expect_bad(nopover, 3, 0, ACCEL_E_REFSI_OVERRUN, 1, 8);
    expect_bad(inl1, 2, 0, ACCEL_E_REFSI_INLINE_RESERVED, 1, 8);
    expect_bad(inl2, 2, 0, ACCEL_E_REFSI_INLINE_RESERVED, 1, 8);
    expect_bad(inl3, 4, 0, ACCEL_E_REFSI_INLINE_RESERVED, 1, 8);
    expect_bad(inl4, 3, 0, ACCEL_E_REFSI_INLINE_RESERVED, 1, 8);
    expect_bad(inl5, 2, 0, ACCEL_E_REFSI_INLINE_RESERVED, 1, 8);
    expect_bad(r1, 3, 0, ACCEL_E_REFSI_REG, 1, 8);
    expect_bad(r2, 3, 0, ACCEL_E_REFSI_REG, 1, 8);
    expect_bad(r3, 3, 0, ACCEL_E_REFSI_REG, 1, 8);
    expect_bad(pk, 2, 0, ACCEL_E_REFSI_PACKET_ID, 1, 8);
    expect_bad(al1, 5, 0, ACCEL_E_REFSI_SRC_ALIGN, 1, 8);
    expect_bad(al2, 5, 0, ACCEL_E_REFSI_SRC_ALIGN, 1, 8);
    {
        uint8_t b4[32];
        put_chunks(b4, al_ok, 4);
        CHECK_ST(accel_refsi_validate(b4, 32, NULL, NULL, NULL), ACCEL_OK);
    }
    expect_bad(&ok0, 1, 3, ACCEL_E_REFSI_PARTIAL_CHUNK, 1, 8);
    expect_bad(&ok0, 0, 7, ACCEL_E_REFSI_PARTIAL_CHUNK, 0, 0);
}

static void test_end_rules(void)
{
    /* FINISH ends the buffer: what follows is never read (here: garbage) */
    uint64_t a[] = {0x00000000c0000100ULL, 0xdeadbeefdeadbeefULL};
    uint8_t buf[16];
    size_t n = 9;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    put_chunks(buf, a, 2);
    CHECK_ST(accel_refsi_validate(buf, 16, &n, NULL, NULL), ACCEL_OK);
    CHECK_EQ(n, 1);
    /* an empty buffer and one without FINISH both end at their size */
    CHECK_ST(accel_refsi_validate(buf, 0, &n, NULL, NULL), ACCEL_OK);
    CHECK_EQ(n, 0);
    accel_store_u64le(buf, 0x00000003c0000900ULL);
    REQUIRE_ST(accel_refsi_iter_init(&it, buf, 8), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
    /* errors are sticky */
    accel_store_u64le(buf, 0x0000000080000100ULL);
    REQUIRE_ST(accel_refsi_iter_init(&it, buf, 8), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_REFSI_PACKET_ID);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_REFSI_PACKET_ID);
    CHECK_ST(accel_refsi_iter_init(NULL, buf, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_iter_init(&it, NULL, 8), ACCEL_E_NULL);
}

/* ---- builder refusals leave the buffer unchanged ---- */
static void test_builder_refusals(void)
{
    uint8_t buf[40], before[40];
    uint64_t args[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    accel_refsi_builder b;
    memset(buf, 0xAA, sizeof buf);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_sync_cache(&b, 1), ACCEL_OK); /* 8 bytes in */
    memcpy(before, buf, sizeof buf);
#define REFUSE(call, st)                                                                    \
    do {                                                                                    \
        CHECK_ST(call, st);                                                                 \
        CHECK_EQ(b.len, 8);                                                                 \
        CHECK_MEM(buf, before, sizeof buf);                                                 \
    } while (0)
    REFUSE(accel_refsi_emit_write_reg64(&b, 40, 1), ACCEL_E_REFSI_REG);
    REFUSE(accel_refsi_emit_load_reg64(&b, 40, 0), ACCEL_E_REFSI_REG);
    REFUSE(accel_refsi_emit_store_reg64(&b, 0xFFFFFFFFu, 0), ACCEL_E_REFSI_REG);
    REFUSE(accel_refsi_emit_run_instances(&b, 1, 1, args, 8), ACCEL_E_REFSI_NARGS);
    REFUSE(accel_refsi_emit_run_instances(&b, 256, 1, args, 1), ACCEL_E_REFSI_MAX_HARTS);
    REFUSE(accel_refsi_emit_run_instances(&b, 1, 1, NULL, 1), ACCEL_E_NULL);
    REFUSE(accel_refsi_emit_run_kernel_slice(&b, 256, 1, 0), ACCEL_E_REFSI_MAX_HARTS);
    REFUSE(accel_refsi_emit_store_imm64(&b, 0x100000000ULL, 1), ACCEL_E_REFSI_ADDR32);
    REFUSE(accel_refsi_emit_copy_mem64(&b, 1, 0x1004, 0x2000, 0), ACCEL_E_REFSI_SRC_ALIGN);
    REFUSE(accel_refsi_emit_copy_mem64(&b, 1, 0x1001, 0x2000, 0), ACCEL_E_REFSI_SRC_ALIGN);
    REFUSE(accel_refsi_emit_sync_cache(&b, 4), ACCEL_E_REFSI_CACHE_FLAGS);
    /* 32 bytes left: COPY_MEM64 needs 32 and fits; RUN_INSTANCES with 3 args needs 40 */
    REFUSE(accel_refsi_emit_run_instances(&b, 1, 1, args, 3), ACCEL_E_FULL);
    {
        accel_refsi_cmd c;
        memset(&c, 0, sizeof c);
        c.opcode = 10;
        REFUSE(accel_refsi_emit(&b, &c), ACCEL_E_REFSI_OPCODE);
    }
    CHECK_ST(accel_refsi_emit_copy_mem64(&b, 1, 0x1000, 0x2001, 0), ACCEL_OK); /* dst any */
    CHECK_EQ(b.len, 40);
    memcpy(before, buf, sizeof buf);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_E_FULL);
    CHECK_EQ(b.len, 40);
    CHECK_MEM(buf, before, sizeof buf);
    CHECK_ST(accel_refsi_emit_nop(&b, NULL, 0), ACCEL_E_FULL);
#undef REFUSE
}

/* ---- register fields ---- */
static void test_register_fields(void)
{
    uint64_t r, a64, sb;
    uint32_t a, u, off, sz, sa;
    accel_refsi_window_mode m;
    /* register values from the CMP debug logs quoted in the kit's documentation */
    CHECK_ST(accel_refsi_unpack_kub_desc(0x10000bff0cf00ULL, &a64, &u), ACCEL_OK);
    CHECK_EQ_U64(a64, 0xbff0cf00ULL);
    CHECK_EQ(u, 1);
    CHECK_ST(accel_refsi_pack_kub_desc(0xbff0cf00ULL, 1, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0x10000bff0cf00ULL);
    CHECK_ST(accel_refsi_pack_kub_desc(0xbff0f200ULL, 2, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0x20000bff0f200ULL);
    CHECK_ST(accel_refsi_unpack_tsd_info(0xc00000280000ULL, &off, &sz), ACCEL_OK);
    CHECK_EQ(off, 0x28);
    CHECK_EQ(sz, 0xc0);
    CHECK_ST(accel_refsi_pack_tsd_info(0x20, 0x128, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0x1280000200000ULL);
    CHECK_ST(accel_refsi_pack_kargs_info(0, 0, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0);
    CHECK_ST(accel_refsi_pack_kargs_info(0xFFFFFF, 0xFFFFFF, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0xFFFFFFFFFFFF0000ULL);
    CHECK_ST(accel_refsi_unpack_kargs_info(0xFFFFFFFFFFFF0000ULL, &off, &sz), ACCEL_OK);
    CHECK_EQ(off, 0xFFFFFF);
    CHECK_EQ(sz, 0xFFFFFF);
    CHECK_ST(accel_refsi_unpack_window_mode(0xeffff00000001ULL, &m), ACCEL_OK);
    CHECK_EQ(m.active, 1);
    CHECK_EQ(m.mode, ACCEL_REFSI_WINDOW_SHARED);
    CHECK_EQ(m.perms, 0);
    CHECK_EQ_U64(m.size, 0xf0000);
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0xeffff00000001ULL);
    CHECK_ST(accel_refsi_unpack_window_scale(0, &sa, &sb), ACCEL_OK);
    CHECK_EQ(sa, 0);
    CHECK_EQ_U64(sb, 1);
    CHECK_ST(accel_refsi_pack_entry_pt(0x10088, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0x10088);
    CHECK_ST(accel_refsi_unpack_entry_pt(0x10088, &a), ACCEL_OK);
    CHECK_EQ(a, 0x10088);

    /* every WINDOW_MODE field in place: active 1 | PER_HART 1<<1 | interleave 1<<3 | RWX 7<<4 |
     * stride 31<<8 | (2^32 - 1) << 32 */
    m.active = 1;
    m.mode = ACCEL_REFSI_WINDOW_PER_HART;
    m.interleave = 1;
    m.perms = ACCEL_REFSI_PERM_READ | ACCEL_REFSI_PERM_WRITE | ACCEL_REFSI_PERM_EXEC;
    m.stride = 31;
    m.size = 0x100000000ULL;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0xFFFFFFFF00001F7BULL);
    memset(&m, 0, sizeof m);
    CHECK_ST(accel_refsi_unpack_window_mode(0xFFFFFFFF00001F7BULL, &m), ACCEL_OK);
    CHECK_EQ(m.mode, 1);
    CHECK_EQ(m.stride, 31);
    CHECK_EQ(m.interleave, 1);
    CHECK_EQ(m.perms, 7);
    CHECK_EQ_U64(m.size, 0x100000000ULL);
    CHECK_ST(accel_refsi_unpack_window_mode(0x4ULL, &m), ACCEL_OK); /* PER_CORE raw 4 */
    CHECK_EQ(m.mode, ACCEL_REFSI_WINDOW_PER_CORE);
    CHECK_EQ_U64(m.size, 1);

    /* scale: A field = log2 + 1, B stored minus one (accel.h's window register notes) */
    CHECK_ST(accel_refsi_pack_window_scale(0x1000, 1, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 13);
    CHECK_ST(accel_refsi_pack_window_scale(1, 0x100000000ULL, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0xFFFFFFFF00000001ULL);
    CHECK_ST(accel_refsi_pack_window_scale(0x40000000UL, 3, &r), ACCEL_OK);
    CHECK_EQ_U64(r, 0x000000020000001FULL);
    CHECK_ST(accel_refsi_unpack_window_scale(0x000000020000001FULL, &sa, &sb), ACCEL_OK);
    CHECK_EQ(sa, 0x40000000UL);
    CHECK_EQ_U64(sb, 3);
    CHECK_ST(accel_refsi_unpack_window_scale(1, &sa, &sb), ACCEL_OK);
    CHECK_EQ(sa, 1);

    /* ranges */
    CHECK_ST(accel_refsi_pack_entry_pt(0x100000000ULL, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_kub_desc(0x1000000000000ULL, 0, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_kub_desc(0, 0x10000, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_kargs_info(0x1000000, 0, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_tsd_info(0, 0x1000000, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.active = 2;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.active = 1;
    m.mode = 3;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.mode = 0;
    m.interleave = 2;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.interleave = 0;
    m.perms = 8;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.perms = 0;
    m.stride = 32;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.stride = 0;
    m.size = 0;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    m.size = 0x100000001ULL;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_window_scale(3, 1, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_window_scale(0x80000000UL, 1, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_window_scale(1, 0, &r), ACCEL_E_REFSI_FIELD_RANGE);
    CHECK_ST(accel_refsi_pack_window_scale(1, 0x100000001ULL, &r), ACCEL_E_REFSI_FIELD_RANGE);
    /* reserved bits */
    CHECK_ST(accel_refsi_unpack_entry_pt(0x100000000ULL, &a), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_tsd_info(0x8000, &off, &sz), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_kargs_info(1, &off, &sz), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_window_mode(0x80, &m), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_window_mode(0x6, &m), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_window_mode(0x2000, &m), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_window_mode(0x80000000UL, &m), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_unpack_window_scale(0x20, &sa, &sb), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_pack_entry_pt(0, NULL), ACCEL_E_NULL);
}

/* ---- window translation: every mode, first byte, last byte, one past ---- */
static void set_window(uint64_t *regs, unsigned w, uint64_t base, uint64_t target, uint64_t mode,
                       uint64_t scale)
{
    regs[ACCEL_REFSI_REG_WINDOW_BASE(w)] = base;
    regs[ACCEL_REFSI_REG_WINDOW_TARGET(w)] = target;
    regs[ACCEL_REFSI_REG_WINDOW_MODE(w)] = mode;
    regs[ACCEL_REFSI_REG_WINDOW_SCALE(w)] = scale;
}

static void test_window_modes(void)
{
    uint64_t regs[40], phys;
    /* window 2: base 0x10000, target 0x80000000, 0x100 bytes, scale A 0x1000 (field 13) times
     * B 2 (field 1) = 0x2000; mode raw = active | MODE << 1 | RW perms << 4 | (0x100-1) << 32 */
    const uint64_t size_bits = 0xFFULL << 32, scale = 13 | (1ULL << 32);
    const uint64_t hart = 3, core = 1;
    struct {
        unsigned mode;
        uint64_t id;
    } cases[3];
    int k;
    cases[0].mode = 0;
    cases[0].id = 0;
    cases[1].mode = 1;
    cases[1].id = hart;
    cases[2].mode = 2;
    cases[2].id = core;
    for (k = 0; k < 3; k++) {
        uint64_t t = 0x80000000ULL + 0x2000ULL * cases[k].id;
        memset(regs, 0, sizeof regs);
        set_window(regs, 2, 0x10000, 0x80000000ULL,
                   1 | ((uint64_t)cases[k].mode << 1) | (3u << 4) | size_bits, scale);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x10000, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, t);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x100FF, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, t + 0xFF);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x10100, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, 0x10100); /* one past: outside, physical */
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0xFFFF, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, 0xFFFF); /* one before */
        /* 8-byte accesses: the last one that fits, and one that crosses the end */
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x100F8, 8, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, t + 0xF8);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x100F9, 8, 0, &phys),
                 ACCEL_E_REFSI_WINDOW_BOUNDS);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0xFFF8, 16, 0, &phys),
                 ACCEL_E_REFSI_WINDOW_BOUNDS); /* runs into the window from below */
        /* inactive: the same addresses are physical */
        regs[ACCEL_REFSI_REG_WINDOW_MODE(2)] &= ~1ULL;
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x10000, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, 0x10000);
        CHECK_ST(accel_refsi_window_translate(regs, 3, 1, 0x100FF, 1, 0, &phys), ACCEL_OK);
        CHECK_EQ_U64(phys, 0x100FF);
    }
    /* scale A = 0 makes PER_HART behave as shared */
    memset(regs, 0, sizeof regs);
    set_window(regs, 0, 0x1000, 0x9000, 1 | (1u << 1) | size_bits, 0xFFFF00000000ULL);
    CHECK_ST(accel_refsi_window_translate(regs, 5, 0, 0x1000, 1, 0, &phys), ACCEL_OK);
    CHECK_EQ_U64(phys, 0x9000);
    /* a 2^32-byte window: last byte and one past */
    memset(regs, 0, sizeof regs);
    set_window(regs, 7, 0x100000000ULL, 0x200000000ULL, 1 | (0xFFFFFFFFULL << 32), 0);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1FFFFFFFFULL, 1, 0, &phys), ACCEL_OK);
    CHECK_EQ_U64(phys, 0x2FFFFFFFFULL);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x200000000ULL, 1, 0, &phys), ACCEL_OK);
    CHECK_EQ_U64(phys, 0x200000000ULL);
    /* lowest window index wins on overlap */
    set_window(regs, 1, 0x100000000ULL, 0x700000000ULL, 1 | (0xFULL << 32), 0);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x100000004ULL, 1, 0, &phys), ACCEL_OK);
    CHECK_EQ_U64(phys, 0x700000004ULL);
    /* permissions when asked for */
    memset(regs, 0, sizeof regs);
    set_window(regs, 0, 0x1000, 0x9000, 1 | (ACCEL_REFSI_PERM_READ << 4) | size_bits, 0);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 4, ACCEL_REFSI_PERM_READ, &phys),
             ACCEL_OK);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 4, ACCEL_REFSI_PERM_WRITE, &phys),
             ACCEL_E_REFSI_WINDOW_PERM);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 4, 0, &phys), ACCEL_OK);
    /* reserved MODE 3 and reserved scale bits are reported */
    regs[ACCEL_REFSI_REG_WINDOW_MODE(0)] = 1 | (3u << 1) | size_bits;
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 1, 0, &phys),
             ACCEL_E_REFSI_REG_RESERVED);
    regs[ACCEL_REFSI_REG_WINDOW_MODE(0)] = 1 | size_bits;
    regs[ACCEL_REFSI_REG_WINDOW_SCALE(0)] = 0x40;
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 1, 0, &phys),
             ACCEL_E_REFSI_REG_RESERVED);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0x1000, 0, 0, &phys), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0xFFFFFFFFFFFFFFFFULL, 2, 0, &phys),
             ACCEL_E_OVERFLOW);
}

/* ---- reference CMP against a test memory ---- */
#define MEM_BASE 0x80000000ULL
#define MEM_SIZE 0x10000u
typedef struct {
    uint8_t mem[MEM_SIZE];
    uint64_t last_read_unit, last_write_unit;
    int fail_read_at; /* fail the n-th read (1-based), 0 never */
    int reads;
    uint32_t sync_log[8];
    int nsync;
    /* kernel log */
    int ncalls;
    accel_refsi_launch calls[64];
    uint32_t harts[64], cores[64];
    int fail_instance; /* -1 never */
    int write_via_window;
} tmem;

/* the flat memory of accel_sim_sessions.h, plus an injected read failure and the units logged */
static accel_status tm_read(void *u, uint64_t unit, uint64_t addr, void *dst, size_t n)
{
    tmem *t = (tmem *)u;
    accel_sim_refsi_flat_mem m;
    accel_status st;
    m.bytes = t->mem;
    m.base = MEM_BASE;
    m.size = MEM_SIZE;
    t->reads++;
    if (t->fail_read_at && t->reads == t->fail_read_at) return ACCEL_E_IO;
    st = accel_sim_refsi_flat_read(&m, addr, dst, n);
    if (st == ACCEL_OK) t->last_read_unit = unit;
    return st;
}
static accel_status tm_write(void *u, uint64_t unit, uint64_t addr, const void *src, size_t n)
{
    tmem *t = (tmem *)u;
    accel_sim_refsi_flat_mem m;
    accel_status st;
    m.bytes = t->mem;
    m.base = MEM_BASE;
    m.size = MEM_SIZE;
    st = accel_sim_refsi_flat_write(&m, addr, src, n);
    if (st == ACCEL_OK) t->last_write_unit = unit;
    return st;
}
static accel_status tm_sync(void *u, uint32_t flag)
{
    tmem *t = (tmem *)u;
    if (t->nsync < 8) t->sync_log[t->nsync++] = flag;
    return ACCEL_OK;
}
static accel_status tm_kernel(void *u, const accel_refsi_hart *h, const accel_refsi_launch *l)
{
    tmem *t = (tmem *)u;
    if (t->ncalls < 64) {
        t->calls[t->ncalls] = *l;
        t->harts[t->ncalls] = h->hart_id;
        t->cores[t->ncalls] = h->core_id;
        t->ncalls++;
    }
    if (t->fail_instance >= 0 && l->instance_id == (uint64_t)t->fail_instance)
        return ACCEL_E_IO;
    if (t->write_via_window == 1) /* every instance writes its id at the same virtual address */
        return accel_refsi_hart_write64(h, 0x10000, l->instance_id + 0x100);
    if (t->write_via_window == 2) { /* read it back through the window, store it next to it */
        uint64_t v;
        accel_status st = accel_refsi_hart_read64(h, 0x10000, &v);
        if (st == ACCEL_OK) st = accel_refsi_hart_write64(h, 0x10008, v + 0x1000);
        return st;
    }
    return ACCEL_OK;
}

static tmem TM;
static accel_status cmp_setup(accel_refsi_model *cmp, uint32_t cores, uint32_t harts)
{
    accel_refsi_model_config cfg;
    memset(&TM, 0, sizeof TM);
    TM.fail_instance = -1;
    memset(&cfg, 0, sizeof cfg);
    cfg.user = &TM;
    cfg.mem_read = tm_read;
    cfg.mem_write = tm_write;
    cfg.sync_cache = tm_sync;
    cfg.kernel = tm_kernel;
    cfg.num_cores = cores;
    cfg.harts_per_core = harts;
    cfg.ktb_base = MEM_BASE + 0x8000;
    cfg.ktb_stride = 0x100;
    return accel_refsi_model_init(cmp, &cfg);
}

static void test_cmp_e2_e3(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[128];
    int i;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(build_e2(&b), ACCEL_OK);
    REQUIRE_ST(cmp_setup(&cmp, 2, 4), ACCEL_OK); /* 8 harts, but MAX_HARTS 4 */
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(r.commands, 6);
    CHECK_EQ(r.finished, 1);
    CHECK_EQ_U64(cmp.regs[1], 0x10000);
    CHECK_EQ_U64(cmp.regs[5], 0x14080000);
    CHECK_EQ_U64(cmp.regs[6], 0x40000000);
    CHECK_EQ(TM.ncalls, 8);
    for (i = 0; i < 8; i++) {
        CHECK_EQ_U64(TM.calls[i].instance_id, (uint64_t)i);
        CHECK_EQ(TM.harts[i], i % 4);
        CHECK_EQ(TM.cores[i], (i % 4) / 4);
        CHECK_EQ(TM.calls[i].nargs, 2);
        CHECK_EQ_U64(TM.calls[i].args[0], 0x40001000);
        CHECK_EQ_U64(TM.calls[i].args[1], 0x40002000);
        CHECK_EQ(TM.calls[i].entry_pt, 0x10000);
        CHECK_EQ_U64(TM.calls[i].stack_top, 0x14080000);
        CHECK_EQ_U64(TM.calls[i].return_addr, 0x40000000);
        CHECK_EQ(TM.calls[i].opcode, ACCEL_REFSI_OP_RUN_INSTANCES);
    }
    CHECK_EQ(TM.nsync, 2);
    CHECK_EQ(TM.sync_log[0], ACCEL_REFSI_CACHE_DCACHE);
    CHECK_EQ(TM.sync_log[1], ACCEL_REFSI_CACHE_ICACHE);

    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(build_e3(&b), ACCEL_OK);
    REQUIRE_ST(cmp_setup(&cmp, 1, 1), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.nsync, 4);
    CHECK_EQ(TM.sync_log[0], 1);
    CHECK_EQ(TM.sync_log[1], 2);
    CHECK_EQ(TM.sync_log[2], 1);
    CHECK_EQ(TM.sync_log[3], 2);
}

static void test_cmp_memory_commands(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[256];
    int i;
    REQUIRE_ST(cmp_setup(&cmp, 1, 2), ACCEL_OK);
    for (i = 0; i < 4; i++) accel_store_u64le(TM.mem + 0x100 + 8 * i, 0x1000u + (unsigned)i);
    accel_store_u64le(TM.mem + 0x40, 0xCAFEF00D12345678ULL);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_load_reg64(&b, 7, MEM_BASE + 0x40), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_store_reg64(&b, 7, MEM_BASE + 0x48), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_store_imm64(&b, MEM_BASE + 0x50, 0x0102030405060708ULL), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_copy_mem64(&b, 4, MEM_BASE + 0x100, MEM_BASE + 0x203, 0x42),
               ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_copy_mem64(&b, 0, MEM_BASE + 0x100, MEM_BASE + 0x300, 0x43),
               ACCEL_OK); /* nothing */
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(r.commands, 5);
    CHECK_EQ(r.finished, 0);
    CHECK_EQ_U64(cmp.regs[7], 0xCAFEF00D12345678ULL);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x48), 0xCAFEF00D12345678ULL);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x50), 0x0102030405060708ULL);
    for (i = 0; i < 4; i++)
        CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x203 + 8 * i), 0x1000u + (unsigned)i);
    CHECK_EQ_U64(TM.last_read_unit, 0x42); /* COPY reads with its UNIT */
    CHECK_EQ_U64(TM.last_write_unit, ACCEL_REFSI_UNIT_CMP);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x300), 0);
}

static void test_cmp_errors_reported(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[256];
    uint64_t chunks[4];
    REQUIRE_ST(cmp_setup(&cmp, 1, 1), ACCEL_OK);
    /* malformed second packet: the first has run, the report points at the second */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 0, 0x77), ACCEL_OK);
    accel_store_u64le(buf + b.len, 0x0000000080000100ULL);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len + 8, &r), ACCEL_E_REFSI_PACKET_ID);
    CHECK_EQ(r.status, ACCEL_E_REFSI_PACKET_ID);
    CHECK_EQ(r.index, 1);
    CHECK_EQ(r.offset, 16);
    CHECK_EQ(r.opcode, 0xFF);
    CHECK_EQ(r.commands, 1);
    CHECK_EQ_U64(cmp.regs[0], 0x77);
    /* unaligned COPY source built by hand (the builder refuses it) */
    chunks[0] = 0x00000001c0060600ULL;
    chunks[1] = MEM_BASE + 4;
    chunks[2] = MEM_BASE;
    chunks[3] = 0;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_sync_cache(&b, 0), ACCEL_OK);
    put_chunks(buf + 8, chunks, 4);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, 40, &r), ACCEL_E_REFSI_SRC_ALIGN);
    CHECK_EQ(r.index, 1);
    CHECK_EQ(r.offset, 8);
    CHECK_EQ(r.opcode, 0xFF); /* refused by the decoder, before execution */
    CHECK_EQ(r.commands, 1);
    /* memory error at COPY element 2 (third read) */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_copy_mem64(&b, 5, MEM_BASE, MEM_BASE + 0x1000, 0), ACCEL_OK);
    TM.reads = 0;
    TM.fail_read_at = 3;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_IO);
    CHECK_EQ(r.index, 0);
    CHECK_EQ_U64(r.element, 2);
    TM.fail_read_at = 0;
    /* COPY wrapping past 2^64 */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_copy_mem64(&b, 2, 0xFFFFFFFFFFFFFFF8ULL, MEM_BASE, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_OVERFLOW);
    /* LOAD from memory the callback refuses */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_finish(&b), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_load_reg64(&b, 0, 0x10), ACCEL_OK); /* after FINISH: never runs */
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(r.finished, 1);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_load_reg64(&b, 0, 0x10), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_ARG);
    CHECK_EQ(r.opcode, ACCEL_REFSI_OP_LOAD_REG64);
    /* kernel failing at instance 5 of 8 on 3 harts */
    REQUIRE_ST(cmp_setup(&cmp, 1, 3), ACCEL_OK);
    TM.fail_instance = 5;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_sync_cache(&b, 1), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 8, NULL, 0), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_sync_cache(&b, 2), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_IO);
    CHECK_EQ(r.index, 1);
    CHECK_EQ(r.offset, 8);
    CHECK_EQ(r.opcode, ACCEL_REFSI_OP_RUN_INSTANCES);
    CHECK_EQ_U64(r.instance, 5);
    CHECK_EQ(r.hart, 2);
    CHECK_EQ(TM.ncalls, 6);
    CHECK_EQ(TM.nsync, 1); /* the SYNC after the error never ran */
    /* reserved bits in ENTRY_PT_FN, no kernel callback, instance limit */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 1, 0x100000000ULL), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 1, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_EQ(r.index, 1);
    cmp.regs[1] = 0;
    TM.fail_instance = -1;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 10, NULL, 0), ACCEL_OK);
    cmp.cfg.max_instances = 9;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_INSTANCES);
    cmp.cfg.max_instances = 10;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    cmp.cfg.kernel = NULL;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_UNSUPPORTED);
    CHECK_ST(accel_refsi_model_execute(NULL, buf, b.len, &r), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, NULL), ACCEL_E_UNSUPPORTED);
}

static void test_cmp_run_instances_args(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[128];
    uint64_t args[7];
    uint32_t nargs, i;
    for (i = 0; i < 7; i++) args[i] = 0xA0000000ULL + i;
    for (nargs = 0; nargs <= 7; nargs++) {
        REQUIRE_ST(cmp_setup(&cmp, 1, 2), ACCEL_OK);
        REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
        CHECK_ST(accel_refsi_emit_run_instances(&b, 0, 2, args, nargs), ACCEL_OK);
        CHECK_EQ(b.len, 8u * (2u + nargs));
        CHECK_EQ_U64(accel_load_u64le(buf),
                     0xC0000800ULL | ((uint64_t)(2 * (nargs + 1)) << 16) |
                         ((uint64_t)(nargs << 8) << 32));
        CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
        CHECK_EQ(TM.ncalls, 2);
        CHECK_EQ(TM.calls[1].nargs, nargs);
        for (i = 0; i < 7; i++)
            CHECK_EQ_U64(TM.calls[1].args[i], i < nargs ? 0xA0000000ULL + i : 0);
        CHECK_EQ_U64(TM.calls[1].instance_id, 1);
    }
}

static void test_cmp_max_harts(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[64];
    int i;
    /* 2 cores x 3 harts = 6 harts */
    /* MAX_HARTS 0 = all: 8 instances on harts 0..5,0,1 */
    REQUIRE_ST(cmp_setup(&cmp, 2, 3), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 8, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 8);
    for (i = 0; i < 8; i++) {
        CHECK_EQ(TM.harts[i], i % 6);
        CHECK_EQ(TM.cores[i], (i % 6) / 3);
    }
    /* MAX_HARTS 1: all on hart 0 */
    REQUIRE_ST(cmp_setup(&cmp, 2, 3), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_kernel_slice(&b, 1, 5, 9), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 5);
    for (i = 0; i < 5; i++) {
        CHECK_EQ(TM.harts[i], 0);
        CHECK_EQ_U64(TM.calls[i].slice_id, 9);
        CHECK_EQ_U64(TM.calls[i].instance_id, (uint64_t)i);
    }
    /* MAX_HARTS 4 with 3 instances: harts 0,1,2 */
    REQUIRE_ST(cmp_setup(&cmp, 2, 3), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 4, 3, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 3);
    for (i = 0; i < 3; i++) CHECK_EQ(TM.harts[i], i);
    /* MAX_HARTS 200, more than the device's 6: clamps to 6 */
    REQUIRE_ST(cmp_setup(&cmp, 2, 3), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 200, 7, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 7);
    CHECK_EQ(TM.harts[6], 0);
    /* zero instances: no call */
    REQUIRE_ST(cmp_setup(&cmp, 2, 3), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 0, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 0);
}

static void test_cmp_per_hart_window_in_kernel(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[256];
    uint64_t mode, scale;
    accel_refsi_window_mode m;
    int i;
    REQUIRE_ST(cmp_setup(&cmp, 2, 2), ACCEL_OK);
    TM.write_via_window = 1;
    memset(&m, 0, sizeof m);
    m.active = 1;
    m.mode = ACCEL_REFSI_WINDOW_PER_HART;
    m.perms = ACCEL_REFSI_PERM_READ | ACCEL_REFSI_PERM_WRITE;
    m.size = 0x100;
    CHECK_ST(accel_refsi_pack_window_mode(&m, &mode), ACCEL_OK);
    CHECK_ST(accel_refsi_pack_window_scale(0x100, 1, &scale), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_BASE(3), 0x10000), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_TARGET(3),
                                            MEM_BASE + 0x1000), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_SCALE(3), scale), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_MODE(3), mode), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 4, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    for (i = 0; i < 4; i++) /* hart i wrote instance i at target + 0x100 * i */
        CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x1000 + 0x100 * i), 0x100u + (unsigned)i);
    CHECK_EQ_U64(TM.last_write_unit, ACCEL_REFSI_UNIT_HART(3));
    /* reads go through the same per-hart view */
    TM.write_via_window = 2;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 4, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    for (i = 0; i < 4; i++)
        CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x1008 + 0x100 * i), 0x1100u + (unsigned)i);
    CHECK_EQ_U64(TM.last_read_unit, ACCEL_REFSI_UNIT_HART(3));
    TM.write_via_window = 1;
    /* PER_CORE: harts 0,1 share core 0's slot, 2,3 core 1's: the later instance wins */
    m.mode = ACCEL_REFSI_WINDOW_PER_CORE;
    REQUIRE_ST(accel_refsi_pack_window_mode(&m, &mode), ACCEL_OK);
    memset(TM.mem + 0x1000, 0, 0x400);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_MODE(3), mode), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 4, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x1000), 0x101);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x1100), 0x103);
    CHECK_EQ_U64(accel_load_u64le(TM.mem + 0x1200), 0);
    /* perms enforced only when configured: a read-only window refuses the kernel's write */
    m.perms = ACCEL_REFSI_PERM_READ;
    REQUIRE_ST(accel_refsi_pack_window_mode(&m, &mode), ACCEL_OK);
    cmp.regs[ACCEL_REFSI_REG_WINDOW_MODE(3)] = mode;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_instances(&b, 0, 1, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    cmp.cfg.check_perms = 1;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_WINDOW_PERM);
    CHECK_EQ_U64(r.instance, 0);
}

static void test_cmp_kernel_slice_kub(void)
{
    accel_refsi_model cmp;
    accel_refsi_report r;
    accel_refsi_builder b;
    uint8_t buf[256];
    uint64_t v;
    int i;
    REQUIRE_ST(cmp_setup(&cmp, 1, 2), ACCEL_OK);
    for (i = 0; i < 0x200; i++) TM.mem[0x4000 + i] = (uint8_t)i; /* KUB, 2 x 256 B */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 1, 0x10088), ACCEL_OK);
    REQUIRE_ST(accel_refsi_pack_kub_desc(MEM_BASE + 0x4000, 2, &v), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 2, v), ACCEL_OK);
    REQUIRE_ST(accel_refsi_pack_kargs_info(0x10, 0x20, &v), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 3, v), ACCEL_OK);
    REQUIRE_ST(accel_refsi_pack_tsd_info(0x1F0, 0x10, &v),
               ACCEL_OK); /* ends exactly at the KUB's end */
    REQUIRE_ST(accel_refsi_emit_write_reg64(&b, 4, v), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_kernel_slice(&b, 0, 3, 7), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 3);
    for (i = 0; i < 3; i++) {
        CHECK_EQ(TM.calls[i].opcode, ACCEL_REFSI_OP_RUN_KERNEL_SLICE);
        CHECK_EQ_U64(TM.calls[i].packed_args, MEM_BASE + 0x4010);
        CHECK_EQ_U64(TM.calls[i].ktb, MEM_BASE + 0x8000 + 0x100u * (unsigned)(i % 2));
        CHECK_EQ_U64(TM.calls[i].slice_id, 7);
    }
    CHECK_MEM(TM.mem + 0x8000, TM.mem + 0x41F0, 0x10); /* KTB of hart 0 */
    CHECK_MEM(TM.mem + 0x8100, TM.mem + 0x41F0, 0x10); /* KTB of hart 1 */
    /* TSD one byte past the KUB */
    REQUIRE_ST(accel_refsi_pack_tsd_info(0x1F0, 0x11, &v), ACCEL_OK);
    cmp.regs[4] = v;
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_kernel_slice(&b, 0, 1, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_KUB_RANGE);
    /* KARGS one byte past the KUB */
    cmp.regs[4] = 0;
    REQUIRE_ST(accel_refsi_pack_kargs_info(0x1F8, 0x9, &v), ACCEL_OK);
    cmp.regs[3] = v;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_KUB_RANGE);
    cmp.regs[3] = 0;
    /* TSD larger than the KTB stride */
    REQUIRE_ST(accel_refsi_pack_tsd_info(0, 0x101, &v), ACCEL_OK);
    cmp.regs[4] = v;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_KTB_SIZE);
    /* KUB size 0: packed_args and ktb invalid, no copy */
    REQUIRE_ST(accel_refsi_pack_kub_desc(MEM_BASE + 0x4000, 0, &v), ACCEL_OK);
    cmp.regs[2] = v;
    TM.ncalls = 0;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(TM.ncalls, 1);
    CHECK_EQ_U64(TM.calls[0].packed_args, ACCEL_REFSI_INVALID_ADDR);
    CHECK_EQ_U64(TM.calls[0].ktb, ACCEL_REFSI_INVALID_ADDR);
    /* KARGS_SIZE 0 with a KUB: packed_args invalid */
    REQUIRE_ST(accel_refsi_pack_kub_desc(MEM_BASE + 0x4000, 2, &v), ACCEL_OK);
    cmp.regs[2] = v;
    cmp.regs[3] = 0;
    cmp.regs[4] = 0;
    TM.ncalls = 0;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ_U64(TM.calls[0].packed_args, ACCEL_REFSI_INVALID_ADDR);
    /* reserved bits in TSD_INFO */
    cmp.regs[4] = 1;
    CHECK_ST(accel_refsi_model_execute(&cmp, buf, b.len, &r), ACCEL_E_REFSI_REG_RESERVED);
}

static void test_hart_access_args(void)
{
    accel_refsi_model cmp;
    accel_refsi_hart h;
    uint64_t v;
    uint8_t b[4];
    REQUIRE_ST(cmp_setup(&cmp, 1, 1), ACCEL_OK);
    h.cmp = &cmp;
    h.hart_id = 0;
    h.core_id = 0;
    CHECK_ST(accel_refsi_hart_read(NULL, MEM_BASE, b, 4), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read(&h, MEM_BASE, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read64(&h, MEM_BASE, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_write(&h, MEM_BASE, NULL, 4), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read(&h, MEM_BASE, b, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_hart_write64(&h, MEM_BASE + 8, 0x55), ACCEL_OK);
    CHECK_ST(accel_refsi_hart_read64(&h, MEM_BASE + 8, &v), ACCEL_OK);
    CHECK_EQ_U64(v, 0x55);
    CHECK_EQ_U64(TM.last_read_unit, ACCEL_REFSI_UNIT_HART(0));
    CHECK_ST(accel_refsi_hart_read64(&h, 0x10, &v), ACCEL_E_ARG); /* memory refuses */
}

static void test_cmp_init_args(void)
{
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.mem_read = tm_read;
    cfg.mem_write = tm_write;
    cfg.num_cores = 1;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_ZERO_LENGTH);
    cfg.harts_per_core = 1;
    REQUIRE_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_OK);
    cfg.mem_write = NULL;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_NULL);
    cfg.mem_write = tm_write;
    cfg.num_cores = 0x10000;
    cfg.harts_per_core = 0x10000;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_ARG);
}

int main(void)
{
    RUN(test_e1_both_ways);
    RUN(test_e2_both_ways);
    RUN(test_e3_both_ways);
    RUN(test_generic_emit_round_trip);
    RUN(test_all_opcodes_hand_encoded);
    RUN(test_malformed_kit_anchors);
    RUN(test_malformed_more);
    RUN(test_end_rules);
    RUN(test_builder_refusals);
    RUN(test_register_fields);
    RUN(test_window_modes);
    RUN(test_cmp_e2_e3);
    RUN(test_cmp_memory_commands);
    RUN(test_cmp_errors_reported);
    RUN(test_cmp_run_instances_args);
    RUN(test_cmp_max_harts);
    RUN(test_cmp_per_hart_window_in_kernel);
    RUN(test_cmp_kernel_slice_kub);
    RUN(test_hart_access_args);
    RUN(test_cmp_init_args);
    return TEST_END();
}
