/* fuzz_ane.c - libFuzzer target over every ANE message decoder (controller header and bodies,
 * exec-loop procedure calls, triggers, RPC, notifications, records, statistics buffer) and the
 * firmware-model dispatcher. The first byte picks the decoder; the rest is the message.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_ane.c -o fuzz_ane
 *   cc -DACCEL_FUZZ_MAIN -fsanitize=address,undefined -I. tests/fuzz/fuzz_ane.c -o fuzz_ane
 *     (without libFuzzer: the files or directories given, e.g. tests/fuzz/seeds/ane, then
 *     200000 generated inputs; tests/fuzz/fuzz_main.h)
 * Any status is a valid answer to random bytes: the decoders' statuses are dropped on purpose,
 * only an accepted message that breaks its invariants (FZ_ASSERT) or a crash is a bug. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdlib.h>
#include <string.h>

#define FZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

static void one(const uint8_t *d, size_t n)
{
    uint8_t sel;
    const uint8_t *body = NULL;
    accel_ane_ctl_hdr h;
    accel_ane_proc_call pc;
    accel_ane_trigger t;
    accel_ane_note note;
    accel_ane_event ev;
    accel_ane_bar bar;
    accel_ane_chain_buf cb;
    accel_ane_stats_hdr sh;
    accel_ane_stats_engine se;
    uint64_t a, s;
    uint32_t v, nb, k;
    unsigned ne;
    const uint8_t *p;
    static accel_ane_fw_model fw;
    static int fw_ready;
    if (n == 0) return;
    sel = d[0];
    d++;
    n--;
    switch (sel % 12u) {
    case 0:
        if (accel_ane_decode_ctl_hdr(d, n, n, &h, &body) == ACCEL_OK) {
            FZ_ASSERT(body == d + 24 && (size_t)h.size <= n - 24 && h.priority < 8 && h.id <= 0x5c);
            (void)accel_ane_decode_property(1, body, h.size, &a, &v);
            (void)accel_ane_decode_premap(body, h.size, &a, &s);
            (void)accel_ane_decode_inference(body, h.size, h.procedure_id, &nb, &a, &s, &p);
            (void)accel_ane_decode_force_disable(body, h.size);
            (void)accel_ane_decode_rpc(body, h.size, &p, &v);
            (void)accel_ane_decode_cr_body(h.id, body, h.size, &a, &v);
        }
        (void)accel_ane_decode_ctl_proc_call(d, n, n, &h, &pc);
        break;
    case 1:
        if (accel_ane_decode_xl_proc_call(d, n, &pc) == ACCEL_OK) {
            FZ_ASSERT(pc.program_id < 144 && pc.proc_id < 288 && pc.priority < 8);
            FZ_ASSERT(pc.nbr_bars <= 32 && pc.nbr_signal <= 16);
            for (k = 0; k < pc.nbr_bars; k++)
                FZ_ASSERT(accel_ane_decode_bar(pc.raw_bars + 32u * k, 32, &bar) == ACCEL_OK);
            for (k = 0; k < pc.nbr_exec_order; k++) (void)accel_load_u32le(pc.raw_exec_order + 4u * k);
            for (k = 0; k < pc.nbr_wait; k++) (void)accel_ane_decode_event(pc.raw_wait + 24u * k, 24, &ev);
            for (k = 0; k < pc.nbr_signal; k++) (void)accel_ane_decode_event(pc.raw_signal + 24u * k, 24, &ev);
        }
        break;
    case 2:
        if (accel_ane_decode_xl_trigger(d, n, &t) == ACCEL_OK) {
            FZ_ASSERT(t.nbr_inputs <= 16 && t.nbr_requests == 1);
            for (k = 0; k < t.nbr_inputs; k++)
                FZ_ASSERT(accel_ane_decode_chain_buf(t.raw_inputs + 16u * k, 16, 1, &cb) == ACCEL_OK);
        }
        break;
    case 3:
        if (accel_ane_decode_rpc(d, n, &p, &v) == ACCEL_OK) FZ_ASSERT(v <= 0x800000UL && (size_t)v + 8 == n);
        break;
    case 4:
        if (accel_ane_decode_note(d, n, &note) == ACCEL_OK && note.payload)
            FZ_ASSERT(note.payload >= d && note.payload + note.payload_len <= d + n);
        break;
    case 5:
        (void)accel_ane_decode_event(d, n, &ev);
        (void)accel_ane_decode_bar(d, n, &bar);
        (void)accel_ane_decode_chain_buf(d, n, 1, &cb);
        break;
    case 6:
        if (accel_ane_decode_run_stats(d, n, &sh, &ne) == ACCEL_OK) {
            FZ_ASSERT(ne <= 32);
            for (k = 0; k < ne; k++) FZ_ASSERT(accel_ane_stats_engine_at(d, n, k, &se) == ACCEL_OK);
        }
        break;
    case 7:
        (void)accel_ane_decode_property(0, d, n, &a, &v);
        (void)accel_ane_decode_premap(d, n, &a, &s);
        break;
    case 8:
        (void)accel_ane_decode_inference(d, n, n ? d[0] : 0u, &nb, &a, &s, &p);
        (void)accel_ane_decode_force_disable(d, n);
        break;
    case 9: {
        accel_ane_cmd_desc cd;
        uint32_t id;
        if (accel_ane_decode_xl_hdr(d, n, &id) == ACCEL_OK) {
            (void)accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, id, &cd);
            (void)accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, accel_load_u32le(d), &cd);
        }
        break;
    }
    default: /* the firmware model eats the message; reset it once it has faulted */
        if (!fw_ready || fw.faulted) {
            FZ_ASSERT(accel_ane_fw_model_init(&fw, 4) == ACCEL_OK);
            for (k = 0; k < 144; k += 3)
                FZ_ASSERT(accel_ane_fw_model_program(&fw, k, 1, (k % 2) == 0) == ACCEL_OK);
            fw_ready = 1;
        }
        (void)accel_ane_fw_model_dispatch(&fw, d, n);
        if (fw.loop.state == ACCEL_ANE_XL_EXEC) FZ_ASSERT(accel_ane_fw_model_complete(&fw) == ACCEL_OK);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one(data, size);
    return 0;
}

#define FUZZ_GENERATED 200000u
#include "fuzz_main.h"
#ifdef ACCEL_FUZZ_MAIN
/* generated inputs for the plain runner: random bytes biased towards plausible headers and
 * counts, so the decoders get past their first checks */
static size_t fuzz_generate(uint8_t *buf, size_t cap, uint32_t i)
{
    static const uint16_t ids[] = {0x204, 0x20c, 0x211, 0x212, 0x209, 0x20a, 0x404, 0xff00,
                                   0x2d, 0x106, 0x301, 0x304, 0x305, 0x103, 0x105, 0x100};
    size_t n = tl_rand_below(600u), j;
    uint32_t r = tl_rand();
    (void)i;
    if (n > cap) n = cap;
    for (j = 0; j < n; j++) buf[j] = (uint8_t)tl_rand();
    if (n > 7) {
        /* byte 0 selects the decoder, so the message's u16 id sits at 5..6 */
        buf[5] = (uint8_t)ids[r % 16u];
        buf[6] = (uint8_t)(ids[r % 16u] >> 8);
    }
    /* small counts and zero high bytes in the first words */
    for (j = 9; j + 4 < n && j < 0x60; j += 4)
        if ((r >> (j % 23)) & 1) {
            buf[j + 1] = (uint8_t)(buf[j + 1] & 0x21);
            buf[j + 2] = 0;
            buf[j + 3] = 0;
            buf[j + 4] = 0;
        }
    return n;
}
#endif
