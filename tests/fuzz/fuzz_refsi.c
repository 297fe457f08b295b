/* libFuzzer target for the refsi decoder/validator, plus a round trip: every buffer the
 * decoder accepts must re-encode byte-exact through the builder, and executing it on a
 * reference CMP with bounded memory and instance limits must neither crash nor hang.
 *
 *   clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_refsi.c \
 *       -o build/fuzz_refsi && build/fuzz_refsi -max_total_time=60
 * Without libFuzzer (runs each file given, or a few built-in inputs):
 *   cc -std=c99 -DACCEL_FUZZ_MAIN -fsanitize=address,undefined -I. tests/fuzz/fuzz_refsi.c */
#define ACCEL_IMPLEMENTATION
#include "accel.h"

#include <stdlib.h>
#include <string.h>

static uint8_t fz_mem[4096];

static accel_status fz_read(void *u, uint64_t unit, uint64_t addr, void *dst, size_t n)
{
    (void)u;
    (void)unit;
    if (addr > sizeof fz_mem || n > sizeof fz_mem - addr) return ACCEL_E_ARG;
    memcpy(dst, fz_mem + addr, n);
    return ACCEL_OK;
}
static accel_status fz_write(void *u, uint64_t unit, uint64_t addr, const void *src, size_t n)
{
    (void)u;
    (void)unit;
    if (addr > sizeof fz_mem || n > sizeof fz_mem - addr) return ACCEL_E_ARG;
    memcpy(fz_mem + addr, src, n);
    return ACCEL_OK;
}
static accel_status fz_kernel(void *u, const accel_refsi_hart *h, const accel_refsi_launch *l)
{
    uint64_t v = 0;
    (void)u;
    /* touch memory through the hart's windows at addresses the buffer chose */
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
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    accel_refsi_report rep;
    accel_status st;
    size_t ncmds = 0, idx = 0, off = 0;

    accel_refsi_iter_init(&it, data, size);
    accel_refsi_builder_init(&b, out, sizeof out);
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
    st = accel_refsi_validate(data, size, &ncmds, &idx, &off);
    (void)st;

    memset(&cfg, 0, sizeof cfg);
    cfg.mem_read = fz_read;
    cfg.mem_write = fz_write;
    cfg.kernel = fz_kernel;
    cfg.num_cores = 2;
    cfg.harts_per_core = 2;
    cfg.ktb_base = 0x800;
    cfg.ktb_stride = 0x100;
    cfg.max_instances = 64; /* the reference runs instances one by one: keep runs short */
    cfg.check_perms = size & 1;
    if (accel_refsi_model_init(&cmp, &cfg) != ACCEL_OK) abort();
    memset(fz_mem, 0, sizeof fz_mem);
    (void)accel_refsi_model_execute(&cmp, data, size, &rep);
    return 0;
}

#ifdef ACCEL_FUZZ_MAIN
#include <stdio.h>
int main(int argc, char **argv)
{
    static const char *const builtin[] = {
        /* E2 from the shared examples, a reserved-bit header, a truncated COPY, windows + run */
        "000202c0010000000000010000000000000202c0050000000000081400000000000202c0060000000000"
        "004000000000000806c004020000080000000000000000100040000000000020004000000000000900c0"
        "03000000000100c000000000",
        "010806c0040200000800000000000000",
        "000606c00400000008000000",
        "000202c0080000000000010000000000000202c0180000000100000000ffff0000000806c00502000003"
        "0000000000000000000100000000000000000200000000"};
    static uint8_t buf[1 << 16];
    int i, n = 0;
    if (argc > 1) {
        for (i = 1; i < argc; i++) {
            FILE *f = fopen(argv[i], "rb");
            size_t len;
            if (!f) {
                perror(argv[i]);
                return 1;
            }
            len = fread(buf, 1, sizeof buf, f);
            fclose(f);
            LLVMFuzzerTestOneInput(buf, len);
            n++;
        }
    } else {
        for (i = 0; i < (int)(sizeof builtin / sizeof builtin[0]); i++) {
            const char *h = builtin[i];
            size_t len = 0;
            unsigned v;
            while (h[0] && h[1] && sscanf(h, "%2x", &v) == 1) {
                buf[len++] = (uint8_t)v;
                h += 2;
            }
            LLVMFuzzerTestOneInput(buf, len);
            n++;
        }
    }
    printf("fuzz_refsi: %d inputs ok\n", n);
    return 0;
}
#endif
