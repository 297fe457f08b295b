/* test_ane_proto.c - ANE firmware command protocol (as accel.h's ANE section states it,
 * UNVERIFIED on hardware): id tables, both framings, every procedure-call variant and each limit
 * at its boundary (largest accepted, first rejected), records, notifications. Expected bytes
 * are written out by hand from the layouts documented in accel.h. */
/* only the ane section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

static uint8_t buf[8192];
static size_t blen;

static void test_id_tables(void)
{
    accel_ane_cmd_desc d;
    uint32_t id, n = 0;
    static const uint32_t fast[9] = {0x2d, 0x204, 0x209, 0x20a, 0x20c, 0x211, 0x212, 0x404, 0xff00};
    size_t i, cnt;
    const accel_ane_cmd_info *t = accel_ane_cmd_table(&cnt);
    for (id = 0; id <= 0xFFFFu; id++) n += (uint32_t)accel_ane_xl_accepts(id);
    CHECK_EQ(n, 9);
    for (i = 0; i < 9; i++) CHECK(accel_ane_xl_accepts(fast[i]));
    CHECK(!accel_ane_xl_accepts(0x10000u + 0x204u));
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x204, &d), ACCEL_OK);
    CHECK_STR(d.name, "PROCEDURE_CALL");
    CHECK_EQ(d.dir, ACCEL_ANE_DIR_H2F);
    CHECK_EQ(d.named, 1);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0xff00, &d), ACCEL_OK);
    CHECK_EQ(d.dir, ACCEL_ANE_DIR_BOTH);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, 0x5b, &d), ACCEL_OK);
    CHECK_STR(d.name, "BACK_CHANNEL_RPC");
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, 0x46, &d), ACCEL_OK);
    CHECK_STR(d.name, "CACHE_REQUEST_TRIGGER");
    /* unnamed but inside a family: the family speaks */
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x20b, &d), ACCEL_OK);
    CHECK_EQ(d.named, 0);
    CHECK_STR(d.family, "program, process, procedure call");
    CHECK_EQ(d.dir, ACCEL_ANE_DIR_H2F);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x108, &d), ACCEL_OK);
    CHECK_EQ(d.dir, ACCEL_ANE_DIR_F2H);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x34, &d), ACCEL_OK);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, 0x5c, &d), ACCEL_OK);
    /* family edges: first id outside each */
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x35, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0xff, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x109, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x213, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x306, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x405, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0x7001, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, 0xfeff, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, 0x5d, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, 0xFFFFFFFFu, &d), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_cmd_describe(7, 0x204, &d), ACCEL_E_ANE_ID);
    /* the id families' sizes: 52 + 9 + 19 + 6 + 5 + 3 = 94 wire ids */
    n = 0;
    for (id = 0; id <= 0xFFFFu; id++)
        if (accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, id, &d) == ACCEL_OK) n++;
    CHECK_EQ(n, 94);
    n = 0;
    for (id = 0; id <= 0x100u; id++)
        if (accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, id, &d) == ACCEL_OK) n++;
    CHECK_EQ(n, 93);
    /* every table row lies in a family of its space and is unique */
    for (i = 0; i < cnt; i++) {
        size_t j;
        CHECK_ST(accel_ane_cmd_describe(t[i].space, t[i].id, &d), ACCEL_OK);
        for (j = i + 1; j < cnt; j++) CHECK(!(t[i].space == t[j].space && t[i].id == t[j].id));
    }
}

static void test_priority(void)
{
    uint32_t p;
    for (p = 0; p < 8; p++) CHECK_ST(accel_ane_check_priority(p, 0), ACCEL_OK);
    CHECK_ST(accel_ane_check_priority(8, 0), ACCEL_E_ANE_PRIORITY);
    CHECK_ST(accel_ane_check_priority(0xFFFFFFFFu, 0), ACCEL_E_ANE_PRIORITY);
    CHECK_ST(accel_ane_check_priority(0, 1), ACCEL_E_ANE_PRIORITY_BAND);
    CHECK_ST(accel_ane_check_priority(1, 1), ACCEL_E_ANE_PRIORITY_BAND);
    CHECK_ST(accel_ane_check_priority(2, 1), ACCEL_OK);
    CHECK_ST(accel_ane_check_priority(7, 1), ACCEL_OK);
    CHECK_ST(accel_ane_check_priority(8, 1), ACCEL_E_ANE_PRIORITY);
}

static void test_ctl_header(void)
{
    static const uint8_t want[24] = {0x41, 0, 0, 0, 0x10, 0, 0, 0, 5, 0, 0, 0,
                                     3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0};
    accel_ane_ctl_hdr h, g;
    const uint8_t *body;
    h.id = 0x41; h.size = 16; h.priority = 5; h.program_id = 3; h.process_id = -1; h.procedure_id = 7;
    CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_OK);
    CHECK_MEM(buf, want, 24);
    CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 23), ACCEL_E_BUFFER_TOO_SMALL);
    memset(buf + 24, 0xab, 16);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 40, 40, &g, &body), ACCEL_OK);
    CHECK(body == buf + 24);
    CHECK_EQ(g.process_id, -1); CHECK_EQ(g.program_id, 3); CHECK_EQ(g.procedure_id, 7);
    /* maxCmdBufSize >= 24 + size: 40 is the boundary */
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 40, 39, &g, &body), ACCEL_E_ANE_MSG_SIZE);
    CHECK(body == NULL);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 39, 40, &g, &body), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 23, 40, &g, &body), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 40, 23, &g, &body), ACCEL_E_ANE_MSG_SIZE);
    accel_store_u32le(buf + 4, 0xFFFFFFFFu);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 40, 40, &g, &body), ACCEL_E_ANE_MSG_SIZE);
    if (sizeof(size_t) > 4) /* a bound above 4 GiB must not wrap into a small one */
        CHECK_ST(accel_ane_decode_ctl_hdr(buf, 40, (size_t)0x100000018ULL, &g, &body), ACCEL_E_TRUNCATED);
    h.id = 0x5c; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_OK);
    h.id = 0x5d; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_E_ANE_ID);
    h.id = 0xFFFFFFFFu; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_E_ANE_ID);
    h.id = 0x41;
    h.priority = 7; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_OK);
    h.priority = 8; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_E_ANE_PRIORITY);
    h.priority = 0;
    h.program_id = -2; CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_E_ANE_PROGRAM_ID);
    h.program_id = -1; h.process_id = -2;
    CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_E_ANE_PROCESS_ID);
    h.process_id = 0x7FFFFFFF; h.size = 0;
    CHECK_ST(accel_ane_encode_ctl_hdr(&h, buf, 24), ACCEL_OK);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 24, 24, &g, NULL), ACCEL_OK);
    CHECK_EQ(g.process_id, 0x7FFFFFFF);
    /* a decoded header gets the same checks */
    buf[8] = 8;
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 24, 24, &g, NULL), ACCEL_E_ANE_PRIORITY);
    buf[8] = 0; buf[0] = 0x5d;
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 24, 24, &g, NULL), ACCEL_E_ANE_ID);
    buf[0] = 0x41; accel_store_u32le(buf + 12, 0xFFFFFFFEu);
    CHECK_ST(accel_ane_decode_ctl_hdr(buf, 24, 24, &g, NULL), ACCEL_E_ANE_PROGRAM_ID);
}

static accel_ane_proc_call plain(void)
{
    accel_ane_proc_call pc;
    memset(&pc, 0, sizeof pc);
    pc.id = 0x204;
    pc.program_id = 2; pc.proc_id = 3; pc.proc = 4; pc.priority = 5;
    pc.nbr_output_sets = 1; pc.nbr_td_partitions = 1; pc.nbr_event_masks = 1;
    return pc;
}

static void test_proc_call_plain(void)
{
    static const uint8_t want[0x40] = {
        0, 0, 0, 0, 0x04, 0x02, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0,
        1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x4c, 0, 0, 0, 0, 0, 0, 0};
    accel_ane_proc_call pc = plain(), g;
    pc.stats_buffer = 0x1000; pc.stats_size = 0x4c;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x40);
    CHECK_MEM(buf, want, 0x40);
    CHECK_ST(accel_ane_decode_xl_proc_call(want, 0x40, &g), ACCEL_OK);
    CHECK_EQ(g.program_id, 2); CHECK_EQ(g.proc_id, 3); CHECK_EQ(g.proc, 4); CHECK_EQ(g.priority, 5);
    CHECK_EQ(g.stats_buffer, 0x1000); CHECK_EQ(g.stats_size, 0x4c);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, 0x3f, &blen), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_ane_decode_xl_proc_call(want, 0x3f, &g), ACCEL_E_TRUNCATED);
    memcpy(buf, want, 0x40); buf[0x40] = 0;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x41, &g), ACCEL_E_MALFORMED);
    /* ids: the variant 0x212 shares the plain layout; non-fast-path ids would panic the fw */
    buf[4] = 0x12;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x40, &g), ACCEL_OK);
    buf[4] = 0x00;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x40, &g), ACCEL_E_ANE_UNSUPPORTED_CMD);
    buf[4] = 0x09;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x40, &g), ACCEL_E_ANE_ID); /* a trigger */
    pc.id = 0x200; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 7, &g), ACCEL_E_TRUNCATED);
}

#define PC_EXPECT(field, okv, badv, st)                                   \
    do {                                                                  \
        accel_ane_proc_call t_ = base;                                    \
        t_.field = okv;                                                   \
        CHECK_ST(accel_ane_check_proc_call(&t_), ACCEL_OK);                      \
        t_.field = badv;                                                  \
        CHECK_ST(accel_ane_check_proc_call(&t_), st);                            \
        CHECK_ST(accel_ane_encode_xl_proc_call(&t_, buf, sizeof buf, &blen), st); \
    } while (0)

static void test_proc_call_limits(void)
{
    accel_ane_proc_call base = plain(), g;
    PC_EXPECT(program_id, 143, 144, ACCEL_E_ANE_PROGRAM_ID);
    PC_EXPECT(proc_id, 287, 288, ACCEL_E_ANE_PROCEDURE_ID);
    PC_EXPECT(priority, 2, 1, ACCEL_E_ANE_PRIORITY_BAND);
    PC_EXPECT(priority, 7, 8, ACCEL_E_ANE_PRIORITY);
    PC_EXPECT(nbr_output_sets, 1, 2, ACCEL_E_ANE_OUTPUT_SETS);
    PC_EXPECT(nbr_output_sets, 1, 0, ACCEL_E_ANE_OUTPUT_SETS);
    PC_EXPECT(nbr_td_partitions, 1, 0, ACCEL_E_ANE_TD_PARTITIONS);
    PC_EXPECT(nbr_td_partitions, 1, 2, ACCEL_E_ANE_TD_PARTITIONS);
    PC_EXPECT(nbr_event_masks, 1, 0, ACCEL_E_ANE_EVENT_MASKS);
    PC_EXPECT(nbr_event_masks, 1, 2, ACCEL_E_ANE_EVENT_MASKS);
    PC_EXPECT(nbr_bars, 0, 1, ACCEL_E_ANE_VARIANT);
    PC_EXPECT(nbr_wait, 0, 1, ACCEL_E_ANE_VARIANT);
    PC_EXPECT(nbr_signal, 0, 1, ACCEL_E_ANE_VARIANT);
    PC_EXPECT(nbr_exec_order, 0, 1, ACCEL_E_ANE_VARIANT);
    PC_EXPECT(stats_size, 0, 1, ACCEL_E_ANE_STATS); /* null buffer: size must be 0 too */
    base.stats_buffer = 0x8000;
    PC_EXPECT(stats_size, 0x4c, 0x4b, ACCEL_E_ANE_STATS);
    base = plain();
    base.realtime_ok = 1;
    PC_EXPECT(priority, 0, 8, ACCEL_E_ANE_PRIORITY);
    /* decoder sees the same rules */
    base = plain();
    CHECK_ST(accel_ane_encode_xl_proc_call(&base, buf, sizeof buf, &blen), ACCEL_OK);
    accel_store_u32le(buf + 0x08, 144);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_PROGRAM_ID);
    accel_store_u32le(buf + 0x08, 143); accel_store_u32le(buf + 0x0c, 288);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_PROCEDURE_ID);
    accel_store_u32le(buf + 0x0c, 287); accel_store_u32le(buf + 0x14, 8);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_PRIORITY);
    accel_store_u32le(buf + 0x14, 0); /* the firmware admits the realtime band on decode */
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    accel_store_u32le(buf + 0x18, 2);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_OUTPUT_SETS);
    accel_store_u32le(buf + 0x18, 1); accel_store_u32le(buf + 0x2c, 1);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_VARIANT);
    accel_store_u32le(buf + 0x2c, 0);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, ACCEL_ANE_CALL_CONTAINER_SIZE + 1, &g),
             ACCEL_E_ANE_MSG_SIZE);
}

static accel_ane_bar g_bars[33];
static uint32_t g_order[130];

static accel_ane_proc_call with_bars(uint32_t nb, uint32_t no)
{
    accel_ane_proc_call pc = plain();
    uint32_t i;
    for (i = 0; i < 33; i++) {
        g_bars[i].type = 0; g_bars[i].cfg = 0; g_bars[i].bar_id = i % 32;
        g_bars[i].value = 0x1000u * i; g_bars[i].buf_size = 0x100;
    }
    for (i = 0; i < 130; i++) g_order[i] = i;
    pc.id = 0x20c;
    pc.nbr_bars = nb; pc.bars = g_bars;
    pc.nbr_exec_order = no; pc.exec_order = g_order;
    return pc;
}

static void test_proc_call_bars(void)
{
    /* one bar + two order entries, by hand: fixed 0x40, bar 32 bytes, n, offset = 0x68 */
    uint8_t want[0x70];
    accel_ane_proc_call pc = with_bars(1, 2), g;
    accel_ane_bar b;
    uint32_t call;
    memset(want, 0, sizeof want);
    want[4] = 0x0c; want[5] = 0x02;
    want[8] = 2; want[12] = 3; want[16] = 4; want[20] = 5;
    want[0x18] = 1; want[0x1c] = 1; want[0x20] = 1; want[0x2c] = 1;
    /* bar: type 0 cfg 0 id 0 rsv, value 0, size 0x100 */
    want[0x40 + 24 + 1] = 0x01;
    want[0x60] = 2; want[0x64] = 0x68;
    want[0x68] = 0; want[0x6c] = 1;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x70);
    CHECK_MEM(buf, want, 0x70);
    CHECK_ST(accel_ane_decode_xl_proc_call(want, 0x70, &g), ACCEL_OK);
    CHECK_EQ(g.nbr_bars, 1); CHECK_EQ(g.exec_order_offset, 0x68);
    CHECK(g.raw_bars == want + 0x40);
    CHECK(g.raw_exec_order == want + 0x68);
    CHECK_ST(accel_ane_decode_bar(g.raw_bars, 32, &b), ACCEL_OK);
    CHECK_EQ(b.buf_size, 0x100);
    CHECK_ST(accel_ane_decode_xl_proc_call(want, 0x6f, &g), ACCEL_E_TRUNCATED);
    /* counts: 32 bars and 128 order entries are the largest */
    pc = with_bars(32, 128);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x40 + 32 * 32 + 8 + 128 * 4);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    pc = with_bars(33, 1);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_CUSTOM_BARS);
    pc = with_bars(1, 129);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_EXEC_ORDER);
    pc = with_bars(1, 0);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_EXEC_ORDER);
    pc = with_bars(0, 1);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    /* offset rules: callSize <= offset, aligned, offset + 4n <= container */
    pc = with_bars(1, 2);
    call = 0x40 + 32 + 8;
    pc.exec_order_offset = call; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_OK);
    pc.exec_order_offset = call - 4; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    pc.exec_order_offset = call + 2; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    pc.exec_order_offset = ACCEL_ANE_CALL_CONTAINER_SIZE - 8;
    CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_OK);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, ACCEL_ANE_CALL_CONTAINER_SIZE);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    pc.exec_order_offset = ACCEL_ANE_CALL_CONTAINER_SIZE - 4;
    CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    pc.exec_order_offset = 0xFFFFFFFCu;
    CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    /* decoder: offset 0 and an offset inside the call */
    memcpy(buf, want, 0x70);
    accel_store_u32le(buf + 0x64, 0);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    accel_store_u32le(buf + 0x64, 0x64);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_EXEC_ORDER_OFFSET);
    accel_store_u32le(buf + 0x64, 0x68);
    accel_store_u32le(buf + 0x2c, 33);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_CUSTOM_BARS);
    accel_store_u32le(buf + 0x2c, 0xFFFFFFFFu);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_CUSTOM_BARS);
    accel_store_u32le(buf + 0x2c, 1);
    /* bar records: type, config, id */
    buf[0x40] = 1;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_BAR_TYPE);
    buf[0x40] = 0; buf[0x44] = 1;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_BAR_TYPE);
    buf[0x44] = 0; buf[0x48] = 32;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_E_ANE_BAR_ID);
    buf[0x48] = 31;
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x70, &g), ACCEL_OK);
    pc = with_bars(1, 1);
    g_bars[0].cfg = 1;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_BAR_TYPE);
    g_bars[0].cfg = 0; g_bars[0].bar_id = 32;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_BAR_ID);
    pc.bars = NULL; g_bars[0].bar_id = 0;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_NULL);
}

static accel_ane_event g_ev[200];

static accel_ane_proc_call with_events(uint32_t nw, uint32_t ns)
{
    accel_ane_proc_call pc = plain();
    uint32_t i;
    for (i = 0; i < 200; i++) {
        g_ev[i].type = 1; g_ev[i].target_mask = 0xf; g_ev[i].id = i; g_ev[i].value = 100 + i;
    }
    pc.id = 0x211;
    pc.nbr_wait = nw; pc.wait = g_ev;
    pc.nbr_signal = ns; pc.signal = g_ev + 100;
    return pc;
}

static void test_proc_call_events(void)
{
    static const uint8_t ev_want[24] = {1, 0, 0, 0, 0xf, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0,
                                        0x6b, 0, 0, 0, 0, 0, 0, 0};
    accel_ane_proc_call pc = with_events(1, 1), g;
    accel_ane_event e;
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x40 + 8 + 48);
    CHECK_EQ(accel_load_u16le(buf + 4), 0x211);
    CHECK_EQ(accel_load_u32le(buf + 0x24), 1);
    CHECK_EQ(accel_load_u32le(buf + 0x28), 1);
    CHECK_EQ(accel_load_u32le(buf + 0x40), 0);
    CHECK_EQ(accel_load_u64le(buf + 0x48 + 8), 0);      /* wait[0].id */
    CHECK_EQ(accel_load_u64le(buf + 0x48 + 24 + 8), 100); /* signal[0].id */
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    CHECK_ST(accel_ane_decode_event(g.raw_signal, 24, &e), ACCEL_OK);
    CHECK_EQ(e.id, 100); CHECK_EQ(e.value, 200);
    e.type = 1; e.target_mask = 0xf; e.id = 7; e.value = 0x6b;
    CHECK_ST(accel_ane_encode_event(&e, buf, 24), ACCEL_OK);
    CHECK_MEM(buf, ev_want, 24);
    CHECK_ST(accel_ane_encode_event(&e, buf, 23), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_ane_decode_event(ev_want, 23, &e), ACCEL_E_TRUNCATED);
    /* limits */
    pc = with_events(0, 16); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_OK);
    pc = with_events(0, 17); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_SIGNAL_EVENTS);
    pc = with_events(1, 0); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_SIGNAL_EVENTS);
    pc = with_events(0, 0); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_NO_EVENTS);
    pc = with_events(1, 0xFFFFFFFFu); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_SIGNAL_EVENTS);
    pc = with_events(0, 1);
    pc.subnet_custom_order = 1; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_SUBNET_ORDER);
    pc.subnet_custom_order = 0;
    pc.shared_events_active = 1; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_OK);
    pc.shared_events_active = 2; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_SHARED_EVENTS);
    pc = with_events(0, 1);
    pc.nbr_bars = 1; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_VARIANT);
    pc.nbr_bars = 0; pc.nbr_exec_order = 1; CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_VARIANT);
    /* the container bounds wait events: 0x48 + (w + 1) * 24 <= 4096 -> w <= 166 */
    pc = with_events(166, 1);
    CHECK_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
    pc = with_events(167, 1); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_MSG_SIZE);
    pc = with_events(0xFFFFFFFFu, 1); CHECK_ST(accel_ane_check_proc_call(&pc), ACCEL_E_ANE_MSG_SIZE);
    /* decoder: counts from the wire */
    pc = with_events(1, 1);
    REQUIRE_ST(accel_ane_encode_xl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    accel_store_u32le(buf + 0x28, 17);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_SIGNAL_EVENTS);
    accel_store_u32le(buf + 0x28, 2);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_TRUNCATED);
    accel_store_u32le(buf + 0x28, 1); accel_store_u32le(buf + 0x40, 1);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_SUBNET_ORDER);
    accel_store_u32le(buf + 0x40, 0); accel_store_u32le(buf + 0x44, 2);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_E_ANE_SHARED_EVENTS);
    accel_store_u32le(buf + 0x44, 0);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, 0x47, &g), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen - 1, &g), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_xl_proc_call(buf, blen, &g), ACCEL_OK);
}

static accel_ane_chain_buf g_in[17];

static accel_ane_trigger trig(uint32_t n)
{
    accel_ane_trigger t;
    uint32_t i;
    memset(&t, 0, sizeof t);
    for (i = 0; i < 17; i++) { g_in[i].type = 1; g_in[i].output_set_id = 0; g_in[i].address = 0x80000000u + i; }
    t.id = 0x209; t.cache_handler = 0x1122334455667788ULL; t.exec_timestamp = 9; t.priority = 3;
    t.nbr_requests = 1; t.nbr_inputs = n; t.nbr_output_sets = 1; t.inputs = g_in;
    return t;
}

static void test_trigger(void)
{
    static const uint8_t want[0x38] = {
        0, 0, 0, 0, 0x09, 0x02, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
        9, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0};
    accel_ane_trigger t = trig(1), g;
    accel_ane_chain_buf cb;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x38);
    CHECK_MEM(buf, want, 0x38);
    CHECK_ST(accel_ane_decode_xl_trigger(want, 0x38, &g), ACCEL_OK);
    CHECK_EQ_U64(g.cache_handler, 0x1122334455667788ULL);
    CHECK_ST(accel_ane_decode_xl_trigger(want, 0x37, &g), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_xl_trigger(want, 0x27, &g), ACCEL_E_TRUNCATED);
    t = trig(16); CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_ST(accel_ane_decode_xl_trigger(buf, blen, &g), ACCEL_OK);
    buf[blen] = 0;
    CHECK_ST(accel_ane_decode_xl_trigger(buf, blen + 1, &g), ACCEL_E_MALFORMED);
    t = trig(17); CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_INPUT_BUFFERS);
    t = trig(0); CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_OK);
    t = trig(1); t.nbr_requests = 2;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_REQUESTS_IN_LIST);
    t.nbr_requests = 0;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_REQUESTS_IN_LIST);
    t = trig(1); t.nbr_output_sets = 2;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_OUTPUT_SETS);
    t = trig(1); t.priority = 1;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_PRIORITY_BAND);
    t = trig(1); t.id = 0x20a;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_OK);
    t.id = 0x204;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_ID);
    /* chained buffer rules */
    cb.type = 1; cb.output_set_id = 0; cb.address = 0xFFFFFFFFu;
    CHECK_ST(accel_ane_check_chain_buf(&cb, 1), ACCEL_OK);
    cb.address = 0x100000000ULL; CHECK_ST(accel_ane_check_chain_buf(&cb, 1), ACCEL_E_ANE_CHAIN_ADDR);
    cb.address = 0; cb.output_set_id = 1; CHECK_ST(accel_ane_check_chain_buf(&cb, 1), ACCEL_E_ANE_CHAIN_BUF);
    cb.output_set_id = 0; cb.type = 2; CHECK_ST(accel_ane_check_chain_buf(&cb, 1), ACCEL_E_ANE_CHAIN_BUF);
    t = trig(1); g_in[0].address = 0x100000000ULL;
    CHECK_ST(accel_ane_encode_xl_trigger(&t, buf, sizeof buf, &blen), ACCEL_E_ANE_CHAIN_ADDR);
    memcpy(buf, want, 0x38); buf[0x30 + 4] = 1; /* address high word */
    CHECK_ST(accel_ane_decode_xl_trigger(buf, 0x38, &g), ACCEL_E_ANE_CHAIN_ADDR);
    memcpy(buf, want, 0x38); accel_store_u32le(buf + 0x20, 17);
    CHECK_ST(accel_ane_decode_xl_trigger(buf, 0x38, &g), ACCEL_E_ANE_INPUT_BUFFERS);
    accel_store_u32le(buf + 0x20, 2);
    CHECK_ST(accel_ane_decode_xl_trigger(buf, 0x38, &g), ACCEL_E_TRUNCATED);
}

static uint8_t big[0x800000 + 16];
static uint8_t big_src[0x800001];

static void test_rpc(void)
{
    static const uint8_t want[11] = {0xaa, 0x55, 0xaa, 0x55, 3, 0, 0, 0, 'a', 'b', 'c'};
    const uint8_t *p;
    uint32_t n;
    CHECK_ST(accel_ane_encode_rpc((const uint8_t *)"abc", 3, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 11);
    CHECK_MEM(buf, want, 11);
    CHECK_ST(accel_ane_decode_rpc(want, 11, &p, &n), ACCEL_OK);
    CHECK_EQ(n, 3); CHECK(p == want + 8);
    CHECK_ST(accel_ane_decode_rpc(want, 10, &p, &n), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_rpc(want, 7, &p, &n), ACCEL_E_TRUNCATED);
    memcpy(buf, want, 11); buf[11] = 0;
    CHECK_ST(accel_ane_decode_rpc(buf, 12, &p, &n), ACCEL_E_MALFORMED);
    buf[0] = 0xab;
    CHECK_ST(accel_ane_decode_rpc(buf, 11, &p, &n), ACCEL_E_ANE_RPC_MAGIC);
    CHECK_ST(accel_ane_encode_rpc(big_src, 0x800000, big, sizeof big, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x800008);
    CHECK_ST(accel_ane_decode_rpc(big, blen, &p, &n), ACCEL_OK);
    CHECK_EQ(n, 0x800000);
    CHECK_ST(accel_ane_encode_rpc(big_src, 0x800001, big, sizeof big, &blen), ACCEL_E_ANE_RPC_LENGTH);
    accel_store_u32le(big + 4, 0x800001);
    CHECK_ST(accel_ane_decode_rpc(big, 0x800009, &p, &n), ACCEL_E_ANE_RPC_LENGTH);
    CHECK_ST(accel_ane_encode_rpc(big, 4, buf, 11, &blen), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_ane_encode_rpc(NULL, 1, buf, 11, &blen), ACCEL_E_NULL);
    CHECK_ST(accel_ane_encode_rpc(NULL, 0, buf, 8, &blen), ACCEL_OK);
}

static void test_ctl_bodies(void)
{
    static const uint8_t prop[16] = {0x00, 0x40, 0x02, 0x00, 0x02, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0};
    static const uint8_t pm[24] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0,
                                   0, 0x20, 0, 0, 0, 0, 0, 0};
    uint64_t a, s, pairs[6] = {1, 2, 3, 4, 5, 6};
    uint32_t v, nb;
    const uint8_t *raw;
    CHECK_ST(accel_ane_encode_property(1, 0x200024000ULL, 0x12345678u, buf, 16), ACCEL_OK);
    CHECK_MEM(buf, prop, 16);
    CHECK_ST(accel_ane_decode_property(1, prop, 16, &a, &v), ACCEL_OK);
    CHECK_EQ_U64(a, 0x200024000ULL); CHECK_EQ(v, 0x12345678u);
    CHECK_ST(accel_ane_encode_property(1, 1, 0, buf, 16), ACCEL_E_ANE_REG_VALUE);
    CHECK_ST(accel_ane_encode_property(1, 1, 1, buf, 16), ACCEL_OK);
    CHECK_ST(accel_ane_encode_property(0, 1, 0, buf, 16), ACCEL_OK);
    CHECK_ST(accel_ane_decode_property(1, buf, 16, &a, &v), ACCEL_E_ANE_REG_VALUE);
    CHECK_ST(accel_ane_decode_property(0, buf, 16, &a, &v), ACCEL_OK);
    CHECK_ST(accel_ane_decode_property(0, buf, 15, &a, &v), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_property(0, buf, 17, &a, &v), ACCEL_E_MALFORMED);
    CHECK_ST(accel_ane_encode_property(0, 1, 0, buf, 15), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_ane_encode_premap(1, 1, 0x1000, 0x2000, buf, 24), ACCEL_OK);
    CHECK_MEM(buf, pm, 24);
    CHECK_ST(accel_ane_decode_premap(pm, 24, &a, &s), ACCEL_OK);
    CHECK_EQ(a, 0x1000); CHECK_EQ(s, 0x2000);
    CHECK_ST(accel_ane_encode_premap(2, 1, 1, 1, buf, 24), ACCEL_E_ANE_PREMAP);
    CHECK_ST(accel_ane_encode_premap(1, 2, 1, 1, buf, 24), ACCEL_E_ANE_PREMAP);
    CHECK_ST(accel_ane_encode_premap(1, 0, 1, 1, buf, 24), ACCEL_E_ANE_PREMAP);
    CHECK_ST(accel_ane_encode_premap(1, 1, 0, 1, buf, 24), ACCEL_E_ANE_PREMAP);
    CHECK_ST(accel_ane_encode_premap(1, 1, 1, 0, buf, 24), ACCEL_E_ANE_PREMAP);
    memcpy(buf, pm, 24); buf[16] = 0; buf[17] = 0;
    CHECK_ST(accel_ane_decode_premap(buf, 24, &a, &s), ACCEL_E_ANE_PREMAP);
    CHECK_ST(accel_ane_decode_premap(pm, 23, &a, &s), ACCEL_E_TRUNCATED);
    /* inference: bufNbr == 1 + numIoBuffers */
    CHECK_ST(accel_ane_encode_inference(2, 3, 0x100, 0x40, pairs, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 24 + 48);
    CHECK_EQ(accel_load_u32le(buf), 3);
    CHECK_EQ(accel_load_u64le(buf + 24 + 32 + 8), 6);
    CHECK_ST(accel_ane_decode_inference(buf, blen, 2, &nb, &a, &s, &raw), ACCEL_OK);
    CHECK_EQ(nb, 3); CHECK_EQ(a, 0x100); CHECK(raw == buf + 24);
    CHECK_ST(accel_ane_decode_inference(buf, blen, 3, &nb, &a, &s, &raw), ACCEL_E_ANE_BUF_COUNT);
    CHECK_ST(accel_ane_decode_inference(buf, blen, 1, &nb, &a, &s, &raw), ACCEL_E_ANE_BUF_COUNT);
    CHECK_ST(accel_ane_decode_inference(buf, blen - 1, 2, &nb, &a, &s, &raw), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_encode_inference(2, 2, 0, 0, pairs, buf, sizeof buf, &blen), ACCEL_E_ANE_BUF_COUNT);
    CHECK_ST(accel_ane_encode_inference(2, 4, 0, 0, pairs, buf, sizeof buf, &blen), ACCEL_E_ANE_BUF_COUNT);
    CHECK_ST(accel_ane_encode_inference(0xFFFFFFFFu, 0, 0, 0, pairs, buf, sizeof buf, &blen), ACCEL_E_ANE_BUF_COUNT);
    /* force-disable only true */
    CHECK_ST(accel_ane_encode_force_disable(1, buf, 4), ACCEL_OK);
    CHECK_EQ(buf[0], 1);
    CHECK_ST(accel_ane_decode_force_disable(buf, 4), ACCEL_OK);
    CHECK_ST(accel_ane_encode_force_disable(0, buf, 4), ACCEL_E_ANE_FORCE_DISABLE);
    CHECK_ST(accel_ane_encode_force_disable(2, buf, 4), ACCEL_E_ANE_FORCE_DISABLE);
    buf[0] = 0;
    CHECK_ST(accel_ane_decode_force_disable(buf, 4), ACCEL_E_ANE_FORCE_DISABLE);
    CHECK_ST(accel_ane_decode_force_disable(buf, 3), ACCEL_E_TRUNCATED);
    /* return process id */
    CHECK_ST(accel_ane_encode_xl_return_pid(5, buf, 12, &blen), ACCEL_OK);
    CHECK_EQ(blen, 12); CHECK_EQ(buf[4], 0x04); CHECK_EQ(buf[5], 0x04); CHECK_EQ(buf[8], 5);
    CHECK_ST(accel_ane_encode_xl_return_pid(-1, buf, 12, &blen), ACCEL_E_ANE_PROCESS_ID);
}

static void test_notifications(void)
{
    static const uint8_t reset[16] = {0, 0, 0, 0, 0x06, 0x01, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0};
    static const uint8_t dsid[16] = {0, 0, 0, 0, 0x05, 0x03, 0, 0, 7, 0, 0, 0, 0x21, 0, 0, 0};
    static const uint8_t sp_group[12 + 32] = {0, 0, 0, 0, 0x03, 0x01, 0, 0, 2, 0, 0, 0};
    accel_ane_note n, g;
    memset(&n, 0, sizeof n);
    n.id = 0x106; n.first_tq = 1; n.last_tq = 255;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 16);
    CHECK_MEM(buf, reset, 16);
    CHECK_ST(accel_ane_decode_note(reset, 16, &g), ACCEL_OK);
    CHECK_EQ(g.kind, ACCEL_ANE_NOTE_RESET); CHECK_EQ(g.first_tq, 1); CHECK_EQ(g.last_tq, 255);
    n.first_tq = 0; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_E_ANE_TQ_RANGE);
    n.first_tq = 1; n.last_tq = 256; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_E_ANE_TQ_RANGE);
    n.first_tq = 5; n.last_tq = 4; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_E_ANE_TQ_RANGE);
    n.first_tq = 5; n.last_tq = 5; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    memcpy(buf, reset, 16); buf[8] = 0;
    CHECK_ST(accel_ane_decode_note(buf, 16, &g), ACCEL_E_ANE_TQ_RANGE);
    CHECK_ST(accel_ane_decode_note(reset, 15, &g), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_decode_note(dsid, 16, &g), ACCEL_OK);
    CHECK_EQ(g.kind, ACCEL_ANE_NOTE_PREFETCH_DSID); CHECK_EQ(g.dsid, 7); CHECK_EQ(g.event, 0x21);
    memcpy(buf, dsid, 16); buf[16] = 0;
    CHECK_ST(accel_ane_decode_note(buf, 17, &g), ACCEL_E_MALFORMED);
    /* program event, data chaining, channel error round trips */
    memset(&n, 0, sizeof n);
    n.id = 0x301; n.program_id = -1; n.process_id = 4; n.event = 9;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x14); CHECK_EQ(buf[8], 0xff); CHECK_EQ(buf[11], 0xff); CHECK_EQ(buf[12], 4);
    CHECK_ST(accel_ane_decode_note(buf, blen, &g), ACCEL_OK);
    CHECK_EQ(g.program_id, -1); CHECK_EQ(g.process_id, 4); CHECK_EQ(g.event, 9);
    n.id = 0x304; n.cache_handler = 0xabcdef; n.exec_timestamp = 77; n.status = 2;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x1c); CHECK_EQ(buf[8], 0xef); CHECK_EQ(buf[16], 77); CHECK_EQ(buf[24], 2);
    CHECK_ST(accel_ane_decode_note(buf, blen, &g), ACCEL_OK);
    CHECK_EQ(g.cache_handler, 0xabcdef);
    CHECK_ST(accel_ane_decode_note(buf, blen - 1, &g), ACCEL_E_TRUNCATED);
    n.id = 0x100; n.channel = 3; n.error_index = 0x55;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, blen, &g), ACCEL_OK);
    CHECK_EQ(g.kind, ACCEL_ANE_NOTE_CH_ERROR); CHECK_EQ(g.error_index, 0x55);
    /* signposts: grouped count >= 1, exact length */
    CHECK_ST(accel_ane_decode_note(sp_group, sizeof sp_group, &g), ACCEL_OK);
    CHECK_EQ(g.sp_count, 2); CHECK_EQ(g.sp_size, 16); CHECK(g.payload == sp_group + 12);
    CHECK_ST(accel_ane_decode_note(sp_group, sizeof sp_group - 1, &g), ACCEL_E_TRUNCATED);
    memcpy(buf, sp_group, sizeof sp_group); buf[8] = 0;
    CHECK_ST(accel_ane_decode_note(buf, sizeof sp_group, &g), ACCEL_E_MALFORMED);
    buf[8] = 0xff; buf[9] = 0xff; buf[10] = 0xff; buf[11] = 0xff;
    CHECK_ST(accel_ane_decode_note(buf, sizeof sp_group, &g), ACCEL_E_ANE_MSG_SIZE);
    memset(&n, 0, sizeof n);
    n.id = 0x104; n.sp_count = 1; n.payload = sp_group;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 8 + 24);
    n.sp_count = 2; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_E_MALFORMED);
    /* other notifications: payload view */
    memset(&n, 0, sizeof n);
    n.id = 0x107; n.payload = (const uint8_t *)"xy"; n.payload_len = 2;
    CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, blen, &g), ACCEL_OK);
    CHECK_EQ(g.kind, ACCEL_ANE_NOTE_OTHER); CHECK_EQ(g.payload_len, 2);
    /* direction: a host command is not a notification; BOTH passes */
    n.id = 0x204; CHECK_ST(accel_ane_encode_note(&n, buf, sizeof buf, &blen), ACCEL_E_ANE_DIRECTION);
    REQUIRE_ST(accel_ane_encode_xl_hdr(0x204, buf, 8), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, 8, &g), ACCEL_E_ANE_DIRECTION);
    REQUIRE_ST(accel_ane_encode_xl_hdr(0x5555, buf, 8), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, 8, &g), ACCEL_E_ANE_ID);
    REQUIRE_ST(accel_ane_encode_xl_hdr(0xff00, buf, 8), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, 8, &g), ACCEL_OK);
    CHECK_ST(accel_ane_decode_note(buf, 7, &g), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_encode_xl_hdr(0x10000, buf, 8), ACCEL_E_ANE_ID);
}


static void test_ctl_proc_call(void)
{
    /* header by hand: id 0x41, size 0x28, priority 5, programId 2, processId 4, procedureId 3;
     * body as the exec-loop body from +0x18 */
    static const uint8_t want[0x40] = {
        0x41, 0, 0, 0, 0x28, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0,
        1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    accel_ane_proc_call pc = plain(), g;
    accel_ane_ctl_hdr h;
    CHECK_ST(accel_ane_encode_ctl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_OK);
    CHECK_EQ(blen, 0x40);
    CHECK_MEM(buf, want, 0x40);
    CHECK_ST(accel_ane_decode_ctl_proc_call(want, 0x40, 0x40, &h, &g), ACCEL_OK);
    CHECK_EQ(g.program_id, 2); CHECK_EQ(g.proc_id, 3); CHECK_EQ(g.proc, 4); CHECK_EQ(g.priority, 5);
    CHECK_EQ(g.nbr_output_sets, 1);
    CHECK_ST(accel_ane_decode_ctl_proc_call(want, 0x40, 0x3f, &h, &g), ACCEL_E_ANE_MSG_SIZE);
    CHECK_ST(accel_ane_decode_ctl_proc_call(want, 0x3f, 0x40, &h, &g), ACCEL_E_TRUNCATED);
    memcpy(buf, want, 0x40); buf[0x40] = 0;
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x41, 0x41, &h, &g), ACCEL_E_MALFORMED);
    buf[0] = 0x42;
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x40, 0x40, &h, &g), ACCEL_E_ANE_ID);
    buf[0] = 0x41; accel_store_u32le(buf + 12, 0xFFFFFFFFu); /* unbound program */
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x40, 0x40, &h, &g), ACCEL_E_ANE_PROGRAM_ID);
    accel_store_u32le(buf + 12, 144);
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x40, 0x40, &h, &g), ACCEL_E_ANE_PROGRAM_ID);
    accel_store_u32le(buf + 12, 2); accel_store_u32le(buf + 16, 0xFFFFFFFFu);
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x40, 0x40, &h, &g), ACCEL_E_ANE_PROCESS_ID);
    accel_store_u32le(buf + 16, 4); accel_store_u32le(buf + 0x18, 2);
    CHECK_ST(accel_ane_decode_ctl_proc_call(buf, 0x40, 0x40, &h, &g), ACCEL_E_ANE_OUTPUT_SETS);
    pc.id = 0x20c; CHECK_ST(accel_ane_encode_ctl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_VARIANT);
    pc.id = 0x204; pc.proc = 0x80000000u;
    CHECK_ST(accel_ane_encode_ctl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_PROCESS_ID);
    pc.proc = 0; pc.program_id = 144;
    CHECK_ST(accel_ane_encode_ctl_proc_call(&pc, buf, sizeof buf, &blen), ACCEL_E_ANE_PROGRAM_ID);
}


static void test_cr_bodies(void)
{
    static const uint8_t rec[16] = {0x08, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t inst[8] = {1, 0, 0, 0, 1, 0, 0, 0};
    uint64_t h;
    uint32_t set;
    CHECK_ST(accel_ane_encode_cr_body(0x47, 0x108, 0, buf, 16, &blen), ACCEL_OK);
    CHECK_EQ(blen, 16); CHECK_MEM(buf, rec, 16);
    CHECK_ST(accel_ane_decode_cr_body(0x47, rec, 16, &h, &set), ACCEL_OK);
    CHECK_EQ(h, 0x108); CHECK_EQ(set, 0);
    CHECK_ST(accel_ane_encode_cr_body(0x47, 0x108, 1, buf, 16, &blen), ACCEL_E_ANE_CHAIN_BUF);
    memcpy(buf, rec, 16); buf[8] = 1;
    CHECK_ST(accel_ane_decode_cr_body(0x47, buf, 16, &h, &set), ACCEL_E_ANE_CHAIN_BUF);
    CHECK_ST(accel_ane_decode_cr_body(0x47, rec, 15, &h, &set), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_ane_encode_cr_body(0x45, 0, 0, buf, 8, &blen), ACCEL_OK);
    CHECK_MEM(buf, inst, 8);
    CHECK_ST(accel_ane_decode_cr_body(0x45, inst, 8, &h, &set), ACCEL_OK);
    buf[0] = 2; CHECK_ST(accel_ane_decode_cr_body(0x45, buf, 8, &h, &set), ACCEL_E_ANE_REQUESTS_IN_LIST);
    buf[0] = 1; buf[4] = 0; CHECK_ST(accel_ane_decode_cr_body(0x45, buf, 8, &h, &set), ACCEL_E_ANE_OUTPUT_SETS);
    CHECK_ST(accel_ane_encode_cr_body(0x48, 0x55, 0, buf, 8, &blen), ACCEL_OK);
    CHECK_EQ(blen, 8); CHECK_EQ(buf[0], 0x55);
    CHECK_ST(accel_ane_decode_cr_body(0x4f, buf, 8, &h, &set), ACCEL_OK);
    CHECK_ST(accel_ane_decode_cr_body(0x4f, buf, 9, &h, &set), ACCEL_E_MALFORMED);
    CHECK_ST(accel_ane_encode_cr_body(0x46, 0, 0, buf, 16, &blen), ACCEL_E_ANE_ID);
    CHECK_ST(accel_ane_encode_cr_body(0x48, 0, 0, buf, 7, &blen), ACCEL_E_BUFFER_TOO_SMALL);
}

int main(void)
{
    RUN(test_id_tables);
    RUN(test_priority);
    RUN(test_ctl_header);
    RUN(test_proc_call_plain);
    RUN(test_proc_call_limits);
    RUN(test_proc_call_bars);
    RUN(test_proc_call_events);
    RUN(test_trigger);
    RUN(test_rpc);
    RUN(test_ctl_bodies);
    RUN(test_notifications);
    RUN(test_ctl_proc_call);
    RUN(test_cr_bodies);
    return TEST_END();
}
