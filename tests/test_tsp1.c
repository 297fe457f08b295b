/* test_tsp1.c - TSP1 wire layer: byte-exact command and response frames (vectors built by hand
 * in tests/vectors/tsp1/gen_frames.py with python's zlib CRC, in the byte order this build is
 * configured for), the streaming decoder under every chunking, garbage, bit flips, truncation,
 * duplicated bytes, oversize N_BYTES, wrong preamble, and a candidate given up on an idle bus. */
/* only the tsp1 section (and common): the other sections are not needed, and their absence
   keeps this sanitized build short */
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "vectors/tsp1/frames.h"

#define NV(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t rng_state = 12345u;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) & 0xFFFFFFu;
}

static void check_enc(const uint8_t *want, size_t wlen, uint16_t id, uint16_t tid,
                      const void *p, size_t n)
{
    uint8_t buf[300];
    size_t len = 99;
    CHECK_ST(accel_tsp1_encode_command(id, tid, p, n, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_EQ(len, wlen);
    CHECK_MEM(buf, want, wlen);
}

static void test_encode_commands(void)
{
    uint8_t buf[300], su[144];
    size_t len, i;
    check_enc(v_echo_hi, sizeof v_echo_hi, ACCEL_TSP1_ECHO, 1, "hi", 2);
    check_enc(v_echo_empty, sizeof v_echo_empty, ACCEL_TSP1_ECHO, 0, NULL, 0);
    check_enc(v_su_cancel, sizeof v_su_cancel, ACCEL_TSP1_SECURE_UPDATE_CANCEL, 2, NULL, 0);
    check_enc(v_su_finish, sizeof v_su_finish, ACCEL_TSP1_SECURE_UPDATE_FINISH, 3, NULL, 0);
    check_enc(v_reboot, sizeof v_reboot, ACCEL_TSP1_REBOOT, 4, NULL, 0);
    check_enc(v_deep_sleep, sizeof v_deep_sleep, ACCEL_TSP1_DEEP_SLEEP, 5, NULL, 0);
    check_enc(v_clear_error, sizeof v_clear_error, ACCEL_TSP1_CLEAR_ERROR, 0xFFFE, NULL, 0);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_INFO, 7, 3, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_EQ(len, sizeof v_nn_info3);
    CHECK_MEM(buf, v_nn_info3, sizeof v_nn_info3);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_STATUS, 7, 3, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_MEM(buf, v_nn_info3, sizeof v_nn_info3); /* alias, same command */
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_START, 8, 5, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_MEM(buf, v_nn_start5, sizeof v_nn_start5);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_STOP, 9, 0x80000001UL, buf, sizeof buf, &len),
             ACCEL_OK);
    CHECK_MEM(buf, v_nn_stop, sizeof v_nn_stop);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_PAUSE, 10, 2, buf, sizeof buf, &len), ACCEL_OK);
    CHECK_MEM(buf, v_nn_pause, sizeof v_nn_pause);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_FINISH, 11, 0xFFFFFFFFUL, buf, sizeof buf, &len),
             ACCEL_OK);
    CHECK_MEM(buf, v_nn_finish, sizeof v_nn_finish);
    for (i = 0; i < 144; i++) su[i] = (uint8_t)i;
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_SECURE_UPDATE, 0x1234, su, 144, buf, sizeof buf,
                                   &len), ACCEL_OK);
    CHECK_EQ(len, 156);
    CHECK_MEM(buf, v_su_hdr, 8);
    CHECK_MEM(buf + 8, su, 144);
    CHECK_MEM(buf + 152, v_su_crc, 4);
    /* in place: payload already at buf + 8 */
    ACCEL_MEMSET(buf, 0, 8);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_SECURE_UPDATE, 0x1234, buf + 8, 144, buf,
                                   sizeof buf, &len), ACCEL_OK);
    CHECK_MEM(buf, v_su_hdr, 8);
    CHECK_MEM(buf + 152, v_su_crc, 4);
}

static void test_encode_errors(void)
{
    uint8_t buf[300], p[300];
    size_t len = 7;
    ACCEL_MEMSET(p, 0, sizeof p);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_SECURE_UPDATE, 143), ACCEL_E_ALIGN);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_SECURE_UPDATE, 288), ACCEL_OK);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_SECURE_UPDATE, 145), ACCEL_E_ALIGN);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_NN_INFO, 3), ACCEL_E_TRUNCATED);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_NN_START, 5), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_REBOOT, 1), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_CLEAR_ERROR, 0), ACCEL_OK);
    CHECK_ST(accel_tsp1_check_cmd(0x0011, 0), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_R_DATA, 0), ACCEL_E_ARG); /* a response id */
    CHECK_ST(accel_tsp1_check_cmd(ACCEL_TSP1_ECHO, 65536UL), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_NN_INFO, 1, p, 3, buf, sizeof buf, &len),
             ACCEL_E_TRUNCATED);
    CHECK_EQ(len, 0);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 1, p, 2, buf, 13, &len),
             ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 1, p, 2, buf, 14, &len), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_REBOOT, 1, NULL, 0, buf, 11, &len),
             ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 1, p, 2, NULL, 14, &len), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_encode_command(ACCEL_TSP1_ECHO, 1, NULL, 2, buf, 14, &len), ACCEL_E_NULL);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_NN_INFO, 1, 256, buf, sizeof buf, &len), ACCEL_E_ARG);
    CHECK_ST(accel_tsp1_encode_command_u32(ACCEL_TSP1_ECHO, 1, 0, buf, sizeof buf, &len), ACCEL_OK);
}

typedef struct {
    const uint8_t *v;
    size_t n;
    uint16_t id, tid;
} rvec;

static const rvec responses[] = {
    {v_r_data_hi, sizeof v_r_data_hi, 0x8000, 1},
    {v_r_nn_info, sizeof v_r_nn_info, 0x8001, 7},
    {v_r_err_arg, sizeof v_r_err_arg, 0x9000, 9},
    {v_r_err_busy, sizeof v_r_err_busy, 0x9001, 9},
    {v_r_err_len, sizeof v_r_err_len, 0x9002, 9},
    {v_r_err_mem, sizeof v_r_err_mem, 0x9003, 9},
    {v_r_err_crypt, sizeof v_r_err_crypt, 0x9004, 9},
    {v_r_err_checksum, sizeof v_r_err_checksum, 0x9006, 9},
    {v_r_err_framing, sizeof v_r_err_framing, 0x9007, 0xFFFF},
    {v_r_async_ready, sizeof v_r_async_ready, 0xA001, 0},
    {v_r_async_ecc, sizeof v_r_async_ecc, 0xA002, 1},
    {v_r_async_npu, sizeof v_r_async_npu, 0xA003, 2},
    {v_r_unknown_9005, sizeof v_r_unknown_9005, 0x9005, 3},
};

static void test_decode_responses(void)
{
    static const accel_tsp1_kind kinds[] = {
        ACCEL_TSP1_KIND_DATA, ACCEL_TSP1_KIND_NN_INFO, ACCEL_TSP1_KIND_ERROR,
        ACCEL_TSP1_KIND_ERROR, ACCEL_TSP1_KIND_ERROR, ACCEL_TSP1_KIND_ERROR,
        ACCEL_TSP1_KIND_ERROR, ACCEL_TSP1_KIND_ERROR, ACCEL_TSP1_KIND_ERROR,
        ACCEL_TSP1_KIND_ASYNC, ACCEL_TSP1_KIND_ASYNC, ACCEL_TSP1_KIND_ASYNC,
        ACCEL_TSP1_KIND_UNKNOWN};
    static const accel_status errs[] = {
        ACCEL_E_TSP1_ERR_ARG, ACCEL_E_TSP1_ERR_BUSY, ACCEL_E_TSP1_ERR_LEN, ACCEL_E_TSP1_ERR_MEM,
        ACCEL_E_TSP1_ERR_CRYPT, ACCEL_E_TSP1_ERR_CHECKSUM, ACCEL_E_TSP1_ERR_FRAMING};
    uint8_t mem[64];
    accel_tsp1_decoder d;
    accel_tsp1_frame f;
    accel_tsp1_nn_info info;
    size_t i, used;
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    for (i = 0; i < NV(responses); i++) {
        CHECK_ST(accel_tsp1_decoder_feed(&d, responses[i].v, responses[i].n, &used, &f), ACCEL_OK);
        CHECK_EQ(used, responses[i].n);
        CHECK_EQ(f.id, responses[i].id);
        CHECK_EQ(f.tid, responses[i].tid);
        CHECK_EQ(f.n_bytes, responses[i].n - 12);
        CHECK_MEM(f.payload, responses[i].v + 8, f.n_bytes);
        CHECK_EQ(accel_tsp1_kind_of(f.id), kinds[i]);
        if (i >= 2 && i < 9) CHECK_ST(accel_tsp1_error_status(f.id), errs[i - 2]);
    }
    CHECK_ST(accel_tsp1_error_status(0x9005), ACCEL_E_MALFORMED);
    CHECK_ST(accel_tsp1_error_status(0x8000), ACCEL_E_MALFORMED);
    CHECK_EQ(d.frames, NV(responses));
    for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) CHECK_EQ(d.dropped[i], 0);
    /* ERR_MEM payload stays opaque */
    CHECK_ST(accel_tsp1_decoder_feed(&d, v_r_err_mem, sizeof v_r_err_mem, &used, &f), ACCEL_OK);
    CHECK_EQ(f.n_bytes, 4);
    CHECK_EQ(f.payload[0], 0xDE);
    /* NN_INFO into the struct */
    CHECK_ST(accel_tsp1_decoder_feed(&d, v_r_nn_info, sizeof v_r_nn_info, &used, &f), ACCEL_OK);
    CHECK_ST(accel_tsp1_decode_nn_info(&f, &info), ACCEL_OK);
    CHECK_EQ(info.valid, 1);
    CHECK_EQ(info.idx, 3);
    CHECK_EQ(info.n_total, 4);
    CHECK_EQ(info.n_in, 2);
    CHECK_EQ(info.n_out, 1);
    CHECK_EQ(info.buf_in0, 5);
    CHECK_EQ(info.buf_out0, 7);
    CHECK_EQ(info.state, ACCEL_TSP1_NN_RUNNING);
    {
        uint8_t pl[9] = {1, 0, 1, 1, 1, 4, 5, 3, 0};
        accel_tsp1_frame g;
        g.id = ACCEL_TSP1_R_NN_INFO;
        g.tid = 0;
        g.payload = pl;
        g.n_bytes = 8;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_OK);
        CHECK_EQ(info.state, ACCEL_TSP1_NN_FINISHED);
        g.n_bytes = 7;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_E_MALFORMED);
        g.n_bytes = 9;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_E_MALFORMED);
        g.n_bytes = 8;
        pl[7] = 4;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_E_MALFORMED);
        pl[7] = 0;
        pl[0] = 2;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_E_MALFORMED);
        g.id = ACCEL_TSP1_R_DATA;
        CHECK_ST(accel_tsp1_decode_nn_info(&g, &info), ACCEL_E_ARG);
    }
}

/* Feed `s` in chunks given by next_chunk; collect frames (id, tid) into out. Returns count. */
typedef struct {
    uint16_t id, tid, n;
} got_t;

static size_t feed_all(accel_tsp1_decoder *d, const uint8_t *s, size_t n, size_t mode,
                       got_t *out, size_t max)
{
    size_t pos = 0, k = 0;
    while (pos < n) {
        size_t c = mode ? mode : 1 + rnd() % 40, used;
        accel_tsp1_frame f;
        if (c > n - pos) c = n - pos;
        while (c) {
            accel_status st = accel_tsp1_decoder_feed(d, s + pos, c, &used, &f);
            CHECK(used <= c);
            pos += used;
            c -= used;
            if (st == ACCEL_OK) {
                if (k < max) {
                    out[k].id = f.id;
                    out[k].tid = f.tid;
                    out[k].n = f.n_bytes;
                }
                k++;
            } else {
                CHECK_ST(st, ACCEL_E_EMPTY);
                CHECK_EQ(c, 0);
            }
        }
    }
    return k;
}

static size_t build_stream(uint8_t *s)
{
    size_t i, n = 0;
    for (i = 0; i < NV(responses); i++) {
        ACCEL_MEMCPY(s + n, responses[i].v, responses[i].n);
        n += responses[i].n;
    }
    return n;
}

static void test_every_chunking(void)
{
    uint8_t s[400], mem[40];
    got_t got[32];
    size_t n = build_stream(s), mode, i, k;
    accel_tsp1_decoder d;
    for (mode = 0; mode <= n; mode++) {
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        k = feed_all(&d, s, n, mode, got, 32);
        CHECK_EQ(k, NV(responses));
        for (i = 0; i < k && i < NV(responses); i++) {
            CHECK_EQ(got[i].id, responses[i].id);
            CHECK_EQ(got[i].tid, responses[i].tid);
        }
        for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) CHECK_EQ(d.dropped[i], 0);
    }
    /* every split point into two chunks */
    for (mode = 0; mode <= n; mode++) {
        size_t used, pos = 0, cnt = 0;
        accel_tsp1_frame f;
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        while (pos < mode)
            if (accel_tsp1_decoder_feed(&d, s + pos, mode - pos, &used, &f) == ACCEL_OK) cnt++, pos += used;
            else pos += used;
        while (pos < n)
            if (accel_tsp1_decoder_feed(&d, s + pos, n - pos, &used, &f) == ACCEL_OK) cnt++, pos += used;
            else pos += used;
        CHECK_EQ(cnt, NV(responses));
    }
}

/* one-shot helper: feed all, return frames; dropped counts read from d */
static size_t run(accel_tsp1_decoder *d, uint8_t *mem, size_t cap, const uint8_t *s, size_t n,
                  got_t *got)
{
    CHECK_ST(accel_tsp1_decoder_init(d, mem, cap, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    return feed_all(d, s, n, 1, got, 8);
}

static void test_corruption_cases(void)
{
    uint8_t s[200], mem[64];
    got_t got[8];
    accel_tsp1_decoder d;
    size_t k;
    const size_t A = sizeof v_r_data_hi, B = sizeof v_r_err_mem;
    /* garbage, including a lone preamble byte, then a frame */
    {
        static const uint8_t g[] = {0x00, 0x11, 0x55, 0x22, 0xCC};
        ACCEL_MEMCPY(s, g, 5);
        ACCEL_MEMCPY(s + 5, v_r_data_hi, A);
        k = run(&d, mem, sizeof mem, s, 5 + A, got);
        CHECK_EQ(k, 1);
        CHECK_EQ(got[0].id, 0x8000);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], 5);
    }
    /* bit flip in A's CRC: A dropped (CRC), B survives */
    ACCEL_MEMCPY(s, v_r_data_hi, A);
    ACCEL_MEMCPY(s + A, v_r_err_mem, B);
    s[A - 1] ^= 0x10;
    k = run(&d, mem, sizeof mem, s, A + B, got);
    CHECK_EQ(k, 1);
    CHECK_EQ(got[0].id, 0x9003);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], A);
    /* bit flip in every position of A, one at a time: A never decodes, B always does */
    {
        size_t pos, bit;
        for (pos = 0; pos < A; pos++)
            for (bit = 0; bit < 8; bit++) {
                ACCEL_MEMCPY(s, v_r_data_hi, A);
                ACCEL_MEMCPY(s + A, v_r_err_mem, B);
                ACCEL_MEMSET(s + A + B, 0, 64); /* idle bus: resolves a lengthened candidate */
                s[pos] ^= (uint8_t)(1u << bit);
                k = run(&d, mem, sizeof mem, s, A + B + 64, got);
                CHECK_EQ(k, 1);
                CHECK_EQ(got[0].id, 0x9003);
                CHECK_EQ(d.dropped[0] + d.dropped[1] + d.dropped[2] + d.len - d.emitted, A + 64);
            }
    }
    /* truncated A (first 10 bytes) followed by B */
    ACCEL_MEMCPY(s, v_r_data_hi, 10);
    ACCEL_MEMCPY(s + 10, v_r_err_mem, B);
    k = run(&d, mem, sizeof mem, s, 10 + B, got);
    CHECK_EQ(k, 1);
    CHECK_EQ(got[0].id, 0x9003);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], 10);
    /* duplicated byte inside A */
    ACCEL_MEMCPY(s, v_r_data_hi, 9);
    ACCEL_MEMCPY(s + 9, v_r_data_hi + 8, A - 8);
    ACCEL_MEMCPY(s + A + 1, v_r_err_mem, B);
    k = run(&d, mem, sizeof mem, s, A + 1 + B, got);
    CHECK_EQ(k, 1);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], A); /* the candidate's 14 bytes */
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], 1); /* its last CRC byte, pushed out */
    /* oversize N_BYTES (0xFFFF; the buffer holds 64) */
    ACCEL_MEMCPY(s, v_r_data_hi, A);
    s[4] = 0xFF;
    s[5] = 0xFF;
    ACCEL_MEMCPY(s + A, v_r_err_mem, B);
    k = run(&d, mem, sizeof mem, s, A + B, got);
    CHECK_EQ(k, 1);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 8); /* the header it held */
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], A - 8);
    /* payload exactly as large as the buffer allows: accepted; one more: LENGTH */
    {
        uint8_t big[64], fr[80];
        size_t len;
        ACCEL_MEMSET(big, 0xA5, sizeof big);
        CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 5, big, 52, fr, sizeof fr, &len), ACCEL_OK);
        k = run(&d, mem, 64, fr, len, got);
        CHECK_EQ(k, 1);
        CHECK_EQ(got[0].n, 52);
        CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 5, big, 53, fr, sizeof fr, &len), ACCEL_OK);
        k = run(&d, mem, 64, fr, len, got);
        CHECK_EQ(k, 0);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 8);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], len - 8);
    }
    /* wrong preamble: a command frame in the response stream is garbage */
    ACCEL_MEMCPY(s, v_echo_hi, sizeof v_echo_hi);
    ACCEL_MEMCPY(s + sizeof v_echo_hi, v_r_err_mem, B);
    k = run(&d, mem, sizeof mem, s, sizeof v_echo_hi + B, got);
    CHECK_EQ(k, 1);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], sizeof v_echo_hi);
    /* and the command decoder takes it */
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_CMD_PREAMBLE), ACCEL_OK);
    k = feed_all(&d, s, sizeof v_echo_hi + B, 0, got, 8);
    CHECK_EQ(k, 1);
    CHECK_EQ(got[0].id, ACCEL_TSP1_ECHO);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE], B);
    /* a preamble hiding inside a dropped candidate is found again */
    {
        uint8_t fr[40];
        size_t len;
        /* DATA whose payload is a frame */
        CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 1, v_r_err_arg, sizeof v_r_err_arg, fr,
                                sizeof fr, &len), ACCEL_OK);
        fr[len - 1] ^= 1;                                  /* outer CRC broken */
        k = run(&d, mem, sizeof mem, fr, len, got);
        CHECK_EQ(k, 1);
        CHECK_EQ(got[0].id, 0x9000);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], 8);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE] + d.len - d.emitted, 4); /* outer CRC */
    }
    /* reset drops a held partial frame as truncated */
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    {
        size_t used;
        accel_tsp1_frame f;
        CHECK_ST(accel_tsp1_decoder_feed(&d, v_r_data_hi, 9, &used, &f), ACCEL_E_EMPTY);
        CHECK_EQ(used, 9);
        accel_tsp1_decoder_reset(&d);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 9);
        CHECK_ST(accel_tsp1_decoder_feed(&d, v_r_data_hi, A, &used, &f), ACCEL_OK);
        accel_tsp1_decoder_reset(&d); /* an emitted frame is not truncated */
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 9);
        CHECK_ST(accel_tsp1_decoder_feed(NULL, v_r_data_hi, A, &used, &f), ACCEL_E_NULL);
        CHECK_ST(accel_tsp1_decoder_feed(&d, NULL, 1, &used, &f), ACCEL_E_NULL);
        CHECK_ST(accel_tsp1_decoder_feed(&d, NULL, 0, &used, &f), ACCEL_E_EMPTY);
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, 11, ACCEL_TSP1_RSP_PREAMBLE),
                 ACCEL_E_BUFFER_TOO_SMALL);
    }
}

/* Random streams of frames with random damage: every byte is accounted for (in a frame, dropped
 * under a reason, or still held), every intact frame not touching damage is decoded, and no
 * frame appears that was not sent. */
static void test_random_damage(void)
{
    static uint8_t s[20000], mem[12 + 200];
    uint8_t pl[200];
    int intact[600];
    size_t n, nf, it;
    for (it = 0; it < 300; it++) {
        accel_tsp1_decoder d;
        size_t i, pos = 0, k = 0, frame_bytes = 0, held, tot, ok_frames = 0;
        n = 0;
        nf = 0;
        while (nf < 40) {
            size_t len, plen = rnd() % 180, start = n;
            unsigned dmg = rnd() % 8;
            for (i = 0; i < plen; i++) pl[i] = (uint8_t)rnd();
            CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, (uint16_t)nf, pl,
                                    plen, s + n, sizeof s - n, &len), ACCEL_OK);
            n += len;
            intact[nf] = 1;
            if (dmg == 1) { s[start + rnd() % len] ^= (uint8_t)(1u << (rnd() % 8)); intact[nf] = 0; }
            else if (dmg == 2) { n = start + rnd() % (len - 4); intact[nf] = 0; } /* keeps <= len-5 */
            else if (dmg == 3) { size_t at = start + 1 + rnd() % (len - 2); /* a dup before the preamble or after the CRC is just garbage */ ACCEL_MEMCPY(pl, s + at, 1);
                                 memmove(s + at + 1, s + at, n - at); n++; intact[nf] = 0; }
            else if (dmg == 4) { size_t g = rnd() % 20; for (i = 0; i < g; i++) s[n++] = (uint8_t)rnd(); }
            else if (dmg == 5) { s[start + 4] = 0xFF; intact[nf] = 0; }
            nf++;
        }
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        while (pos < n) {
            size_t c = 1 + rnd() % 64, used;
            accel_tsp1_frame f;
            if (c > n - pos) c = n - pos;
            while (c) {
                accel_status st = accel_tsp1_decoder_feed(&d, s + pos, c, &used, &f);
                pos += used;
                c -= used;
                if (st == ACCEL_OK) {
                    CHECK(f.tid < nf);
                    CHECK_EQ(f.id, 0x8000);
                    frame_bytes += 12u + f.n_bytes + f.cut;
                    if (f.tid < nf && intact[f.tid]) ok_frames++;
                    k++;
                }
            }
        }
        for (;;) { /* the stream ended: what the decoder still holds is given up and rescanned */
            accel_tsp1_frame f;
            accel_status st = accel_tsp1_decoder_idle(&d, &f);
            if (st != ACCEL_OK) {
                CHECK_ST(st, ACCEL_E_EMPTY);
                break;
            }
            CHECK(f.tid < nf);
            frame_bytes += 12u + f.n_bytes + f.cut;
            if (f.tid < nf && intact[f.tid]) ok_frames++;
            k++;
        }
        held = d.len - d.emitted;
        CHECK_EQ(held, 0);
        tot = frame_bytes + held + d.dropped[0] + d.dropped[1] + d.dropped[2] + d.dropped[3];
        CHECK_EQ(tot, n);
        CHECK_EQ(k, ok_frames); /* no damaged frame ever decodes */
        {
            size_t want = 0; /* the resync re-scans held bytes, so no intact frame is lost */
            for (i = 0; i < nf; i++) want += intact[i] ? 1u : 0u;
            CHECK_EQ(ok_frames, want);
        }
    }
}

/* A flipped bit makes N_BYTES claim more than the frame has, with fewer bytes behind it than the
 * claim: the decoder must not hold the frames behind it hostage once the bus is idle. */
static void test_idle_gives_up(void)
{
    static uint8_t s[400], mem[12 + 300];
    accel_tsp1_decoder d;
    accel_tsp1_frame f;
    size_t n = 0, len, used, i, k;
    for (i = 0; i < 6; i++) {
        CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, (uint16_t)(100 + i), "x",
                                1, s + n, sizeof s - n, &len), ACCEL_OK);
        n += len;
    }
    CHECK_EQ(n, 6 * 13);
    s[ACCEL_TSP1_BIG_ENDIAN ? 4 : 5] ^= 0x01; /* N_BYTES 1 -> 257: fits the buffer, so it is held */
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, n, &used, &f), ACCEL_E_EMPTY);
    CHECK_EQ(used, n);
    CHECK_EQ(d.len, n); /* everything is held behind the bogus length */
    for (k = 0; k < 5; k++) {
        CHECK_ST(accel_tsp1_decoder_idle(&d, &f), ACCEL_OK);
        CHECK_EQ(f.tid, 101 + k);
        CHECK_EQ(f.n_bytes, 1);
        CHECK_EQ(f.payload[0], 'x');
    }
    CHECK_ST(accel_tsp1_decoder_idle(&d, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 13); /* the damaged frame, up to the next one */
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_GARBAGE] + d.dropped[ACCEL_TSP1_DROP_CRC] +
             d.dropped[ACCEL_TSP1_DROP_LENGTH], 0);
    CHECK_EQ(d.len, 0);
    CHECK_EQ(d.frames, 5);
    /* idle on an empty decoder, and a lone preamble byte then idle */
    CHECK_ST(accel_tsp1_decoder_idle(&d, &f), ACCEL_E_EMPTY);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 13, 1, &used, &f), ACCEL_E_EMPTY);
    CHECK_ST(accel_tsp1_decoder_idle(&d, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 14);
    /* a frame split across the idle point is not touched while it can still complete: the
       decoder only gives up when told the bus is idle, and a whole frame fed later decodes */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 13, 13, &used, &f), ACCEL_OK);
    CHECK_EQ(f.tid, 101);
}

/* An error frame longer than the buffer (24 bytes of detail, a buffer for 8): under every
 * chunking it comes out with its id, TID, the first 8 detail bytes and cut = 16, its CRC checked
 * over all 36 bytes, and the frame behind it decodes. Damage anywhere in it (one bit) drops it
 * with every byte counted; a long DATA is still a length failure; an idle bus gives up a long
 * error cut short; detail beyond ACCEL_TSP1_LONG_ERROR_MAX is a length failure. */
static void test_long_error_frame(void)
{
    static uint8_t s[400], mem[12 + 8], det[300];
    accel_tsp1_decoder d;
    accel_tsp1_frame f;
    size_t a, b, n, mode, i, k, used, pos;
    for (i = 0; i < sizeof det; i++) det[i] = (uint8_t)(0xD0u + i);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_MEM, 77, det, 24,
                                         s, sizeof s, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 78, "ok", 2, s + a,
                                         sizeof s - a, &b), ACCEL_OK);
    n = a + b;
    for (mode = 1; mode <= n; mode++) {
        unsigned got = 0;
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        for (pos = 0; pos < n;) {
            size_t c = n - pos < mode ? n - pos : mode;
            accel_status st = accel_tsp1_decoder_feed(&d, s + pos, c, &used, &f);
            pos += used;
            if (st != ACCEL_OK) continue;
            if (got == 0) {
                CHECK_EQ(f.id, ACCEL_TSP1_R_ERR_MEM);
                CHECK_EQ(f.tid, 77);
                CHECK_EQ(f.n_bytes, 8);
                CHECK_EQ(f.cut, 16);
                CHECK_MEM(f.payload, det, 8);
            } else {
                CHECK_EQ(f.tid, 78);
                CHECK_EQ(f.cut, 0);
                CHECK_MEM(f.payload, "ok", 2);
            }
            got++;
        }
        CHECK_EQ(got, 2);
        for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) CHECK_EQ(d.dropped[i], 0);
    }
    /* one flipped bit past the header (any in the header changes what the frame is): the long
       frame fails its CRC whole, every byte counted, and the frame behind it decodes */
    for (i = 8; i < a; i++) {
        got_t g[4];
        s[i] ^= 0x20;
        CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        k = feed_all(&d, s, n, 0, g, 4);
        CHECK_EQ(k, 1);
        CHECK_EQ(g[0].tid, 78);
        CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], a);
        s[i] ^= 0x20;
    }
    /* the same length as DATA: too long to hold, not followed */
    s[ACCEL_TSP1_BIG_ENDIAN ? 2 : 3] = 0x80;
    s[ACCEL_TSP1_BIG_ENDIAN ? 3 : 2] = 0x00;
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, a, &used, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 8);
    /* a long error the bus ends early: given up whole at idle */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_MEM, 77, det, 24,
                                         s, sizeof s, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 30, &used, &f), ACCEL_E_EMPTY);
    CHECK_EQ(used, 30);
    CHECK_ST(accel_tsp1_decoder_idle(&d, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 30);
    CHECK_EQ(d.len, 0);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 20, &used, &f), ACCEL_E_EMPTY);
    accel_tsp1_decoder_reset(&d);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_TRUNCATED], 50);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, a, &used, &f), ACCEL_OK);
    CHECK_EQ(f.cut, 16);
    /* `more` (what the driver knows still follows the fed bytes): a long error whose rest is
       not there is a length failure, rescanned as usual, so the frame behind it survives;
       with its rest in the feed or counted in `more` it is followed */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 78, "ok", 2, s + a,
                                         sizeof s - a, &b), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_EQ(d.more, (size_t)-1);
    d.more = 0;
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, a + b, &used, &f), ACCEL_OK);
    CHECK_EQ(f.cut, 16);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + used, a + b - used, &used, &f), ACCEL_OK);
    CHECK_EQ(f.tid, 78);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    d.more = a - 21; /* one byte short of the long frame's rest after 20 bytes */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 20, &used, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 8);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    d.more = a - 20; /* exactly its rest */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 20, &used, &f), ACCEL_E_EMPTY);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 20, a + b - 20, &used, &f), ACCEL_OK);
    CHECK_EQ(f.cut, 16);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 0);
    /* a header cut short (a reset cleared the rest) claims more than follows: the frame after it
       is found by the rescan, not swallowed */
    memmove(s + 10, s + a, b);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    d.more = 0;
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 10 + b, &used, &f), ACCEL_OK);
    CHECK_EQ(f.tid, 78);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH] + d.dropped[ACCEL_TSP1_DROP_GARBAGE], 10);
    /* detail at the bound is followed, one byte more is a length failure */
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_ARG, 5, det,
                                         ACCEL_TSP1_LONG_ERROR_MAX, s, sizeof s, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, a, &used, &f), ACCEL_OK);
    CHECK_EQ(f.cut, ACCEL_TSP1_LONG_ERROR_MAX - 8);
    CHECK_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, ACCEL_TSP1_R_ERR_ARG, 5, det,
                                         ACCEL_TSP1_LONG_ERROR_MAX + 1, s, sizeof s, &a), ACCEL_OK);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, a, &used, &f), ACCEL_E_EMPTY);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_LENGTH], 8);
}

/* Where a frame's payload lives (ACCEL_TSP1_IN_PLACE): a frame that arrives whole with nothing held is checked where
 * it lies (payload inside the caller's data); one completed from held bytes is in the
 * decoder's buffer; a whole frame that fails in place is dropped and counted exactly as the
 * copying path counts it, and the frame behind it still decodes in place. */
static void test_payload_location(void)
{
    static uint8_t s[200], mem[12 + 64];
    static const uint8_t pl[5] = {1, 2, 3, 4, 5};
    accel_tsp1_decoder d;
    accel_tsp1_frame f;
    size_t n = 0, len, used, i;
    for (i = 0; i < 3; i++) {
        REQUIRE_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, (uint16_t)(7 + i), pl,
                                           sizeof pl, s + n, sizeof s - n, &len), ACCEL_OK);
        n += len;
    }
    REQUIRE_EQ(len, 17);
    REQUIRE_ST(accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
    /* whole: in place (or in the buffer where ACCEL_TSP1_IN_PLACE is 0) */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, n, &used, &f), ACCEL_OK);
    CHECK_EQ(used, 17);
    CHECK(f.payload == (ACCEL_TSP1_IN_PLACE ? s + 8 : mem + 8));
    CHECK_EQ(f.tid, 7);
    CHECK_EQ(d.len, ACCEL_TSP1_IN_PLACE ? 0 : 17); /* a copied frame is held until the next call */
    /* split: the second frame is completed in the decoder's buffer */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 17, 10, &used, &f), ACCEL_E_EMPTY);
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 27, n - 27, &used, &f), ACCEL_OK);
    CHECK_EQ(used, 7);
    CHECK(f.payload == mem + 8);
    CHECK_EQ(f.tid, 8);
    CHECK_MEM(f.payload, pl, sizeof pl);
    /* the third is whole in what follows: in place again, the held frame released first */
    CHECK_ST(accel_tsp1_decoder_feed(&d, s + 34, n - 34, &used, &f), ACCEL_OK);
    CHECK(f.payload == (ACCEL_TSP1_IN_PLACE ? s + 42 : mem + 8));
    CHECK_EQ(f.tid, 9);
    CHECK_EQ(d.frames, 3);
    /* a whole frame with a flipped payload bit, then a good one, in one feed: the bad one is
       dropped byte by byte up to the next preamble (17 bytes counted as CRC), the good one
       comes from the decoder's buffer (the bytes were held while rescanning) */
    s[10] ^= 0x40;
    CHECK_ST(accel_tsp1_decoder_feed(&d, s, 34, &used, &f), ACCEL_OK);
    CHECK_EQ(used, 34);
    CHECK_EQ(f.tid, 8);
    CHECK_MEM(f.payload, pl, sizeof pl);
    CHECK_EQ(d.dropped[ACCEL_TSP1_DROP_CRC], 17);
    s[10] ^= 0x40;
    /* a whole frame whose N_BYTES exceeds the buffer is not taken in place either */
    {
        static uint8_t big[12 + 65], m2[12 + 64];
        static const uint8_t z[65] = {0};
        REQUIRE_ST(accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 1, z, sizeof z, big,
                                           sizeof big, &len), ACCEL_OK);
        REQUIRE_ST(accel_tsp1_decoder_init(&d, m2, sizeof m2, ACCEL_TSP1_RSP_PREAMBLE), ACCEL_OK);
        CHECK_ST(accel_tsp1_decoder_feed(&d, big, len, &used, &f), ACCEL_E_EMPTY);
        CHECK_EQ(used, len);
        CHECK_EQ(d.frames, 0);
        CHECK(d.dropped[ACCEL_TSP1_DROP_LENGTH] >= 1);
    }
}

int main(void)
{
    RUN(test_encode_commands);
    RUN(test_encode_errors);
    RUN(test_decode_responses);
    RUN(test_every_chunking);
    RUN(test_corruption_cases);
    RUN(test_random_damage);
    RUN(test_idle_gives_up);
    RUN(test_long_error_frame);
    RUN(test_payload_location);
    return TEST_END();
}
