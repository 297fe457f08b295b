/* libFuzzer target for the refsi decoder/validator, plus a round trip: every buffer the
 * decoder accepts must re-encode byte-exact through the builder, and executing it on a
 * reference CMP with bounded memory and instance limits must neither crash nor hang.
 *
 *   clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_refsi.c \
 *       -o build/fuzz_refsi && build/fuzz_refsi -max_total_time=60
 * Without libFuzzer (the files or directories given, e.g. tests/fuzz/seeds/refsi;
 * tests/fuzz/fuzz_main.h):
 *   cc -std=c99 -DACCEL_FUZZ_MAIN -fsanitize=address,undefined -I. tests/fuzz/fuzz_refsi.c */
#define ACCEL_IMPLEMENTATION
#include "accel.h"

#include <stdlib.h>
#include <string.h>
#include "accel_sim_sessions.h"

static uint8_t fz_mem[4096];

static accel_status fz_kernel(void *u, const accel_refsi_hart *h, const accel_refsi_launch *l)
{
    uint64_t v = 0;
    (void)u;
    /* touch memory through the hart's windows at addresses the buffer chose: a refused access
     * is a valid outcome (the model reports it), only a crash is a bug */
    if (l->nargs > 0) (void)accel_refsi_hart_read64(h, l->args[0], &v);
    if (l->nargs > 1) (void)accel_refsi_hart_write64(h, l->args[1], v + l->instance_id);
    return ACCEL_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t out[1 << 16];
    accel_refsi_iter it;
    accel_refsi_cmd c;
    accel_refsi_builder b;
    static accel_sim_refsi_session rs;
    accel_refsi_report rep;
    accel_status st;
    size_t ncmds = 0, idx = 0, off = 0;

    if (accel_refsi_iter_init(&it, data, size) != ACCEL_OK ||
        accel_refsi_builder_init(&b, out, sizeof out) != ACCEL_OK)
        abort();
    while ((st = accel_refsi_iter_next(&it, &c)) == ACCEL_OK) {
        if (c.offset + c.size > size) abort();
        if (accel_refsi_emit(&b, &c) != ACCEL_OK) abort(); /* accepted => re-encodable */
    }
    if (st == ACCEL_E_EMPTY) {
        /* byte-exact: the re-encoding is the consumed prefix of the input */
        if (b.len != it.pos || memcmp(out, data, b.len) != 0) abort();
    } else if (it.pos >= size && st != ACCEL_E_REFSI_PARTIAL_CHUNK) {
        abort();
    }
    /* any verdict is a valid answer; the walk itself must stay inside the buffer */
    (void)accel_refsi_validate(data, size, &ncmds, &idx, &off);

    /* device memory at physical 0, so the buffer's addresses hit it */
    accel_sim_refsi_session_prepare(&rs, fz_mem, sizeof fz_mem, 0, 2, 2);
    rs.cfg.kernel = fz_kernel;
    rs.cfg.ktb_base = 0x800;
    rs.cfg.ktb_stride = 0x100;
    rs.cfg.max_instances = 64; /* the reference runs instances one by one: keep runs short */
    rs.cfg.check_perms = (int)(size & 1);
    if (accel_sim_refsi_session_start(&rs) != ACCEL_OK) abort();
    memset(fz_mem, 0, sizeof fz_mem);
    /* a buffer that stops with an error is a valid outcome; the report says where */
    (void)accel_refsi_model_execute(&rs.cmp, data, size, &rep);
    return 0;
}

#include "fuzz_main.h"
