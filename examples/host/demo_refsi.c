/* demo_refsi: build a RefSi command buffer that sets up memory windows, copies input data,
 * launches a C kernel on the reference CMP and flushes caches; print its disassembly and the
 * result.
 *
 * Device memory here is one 64 KiB array at physical 0x80000000 ("DRAM"). The kernel sees:
 *   0x10000 .. 0x10FFF  SHARED window onto DRAM + 0x1000 (inputs and output)
 *   0x20000 .. 0x200FF  PER_HART window onto DRAM + 0x4000 + 0x100 * hart (private scratch)
 * Kernel: out[i] = a[i] * b[i] + bias for its instances' elements, and each hart counts the
 * elements it handled in its private scratch. */
#include "accel.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "accel_sim_sessions.h" /* the reference CMP over one flat memory array */

#define DRAM 0x80000000ULL
#define DRAM_SIZE 0x10000u
#define N 16u        /* elements */
#define PER_INST 4u  /* elements per instance */
#define HARTS 4u

static uint8_t dram[DRAM_SIZE];

static accel_status sync_cache(void *u, uint32_t flag)
{
    (void)u;
    printf("  [cmp] sync cache: %s\n", flag == ACCEL_REFSI_CACHE_DCACHE ? "flush data cache"
                                                                      : "invalidate icache");
    return ACCEL_OK;
}

/* kernel_entry(instance_id, a, b, out, bias): all pointers are virtual (window) addresses. */
static accel_status kernel(void *u, const accel_refsi_hart *h, const accel_refsi_launch *l)
{
    uint64_t a = l->args[0], b = l->args[1], out = l->args[2], bias = l->args[3], i, count;
    accel_status st;
    (void)u;
    if (l->nargs != 4) return ACCEL_E_ARG;
    for (i = l->instance_id * PER_INST; i < (l->instance_id + 1) * PER_INST; i++) {
        uint64_t x, y;
        st = accel_refsi_hart_read64(h, a + 8 * i, &x);
        if (st == ACCEL_OK) st = accel_refsi_hart_read64(h, b + 8 * i, &y);
        if (st == ACCEL_OK) st = accel_refsi_hart_write64(h, out + 8 * i, x * y + bias);
        if (st != ACCEL_OK) return st;
    }
    st = accel_refsi_hart_read64(h, 0x20000, &count); /* this hart's own scratch */
    if (st == ACCEL_OK) st = accel_refsi_hart_write64(h, 0x20000, count + PER_INST);
    return st;
}

static void disasm(const uint8_t *buf, size_t len)
{
    static const char *const ops[] = {"NOP",         "FINISH",     "WRITE_REG64",
                                      "LOAD_REG64",  "STORE_REG64", "STORE_IMM64",
                                      "COPY_MEM64",  "RUN_KERNEL_SLICE", "RUN_INSTANCES",
                                      "SYNC_CACHE"};
    accel_refsi_iter it;
    accel_refsi_cmd c;
    accel_status st;
    uint32_t i;
    st = accel_refsi_iter_init(&it, buf, len);
    while (st == ACCEL_OK && (st = accel_refsi_iter_next(&it, &c)) == ACCEL_OK) {
        printf("  %04zx  %s", c.offset, ops[c.opcode]);
        switch (c.opcode) {
        case ACCEL_REFSI_OP_WRITE_REG64:
            printf(" reg=0x%" PRIx32 " value=0x%" PRIx64, c.reg, c.value);
            break;
        case ACCEL_REFSI_OP_COPY_MEM64:
            printf(" count=0x%" PRIx32 " src=0x%" PRIx64 " dst=0x%" PRIx64 " unit=0x%" PRIx64,
                   c.count, c.src, c.dst, c.unit);
            break;
        case ACCEL_REFSI_OP_RUN_INSTANCES:
            printf(" max_harts=0x%" PRIx32 " instances=0x%" PRIx64 " args=", c.max_harts,
                   c.instances);
            for (i = 0; i < c.nargs; i++) printf("%s0x%" PRIx64, i ? "," : "", c.args[i]);
            break;
        case ACCEL_REFSI_OP_SYNC_CACHE: printf(" flags=0x%" PRIx32, c.flags); break;
        default: break;
        }
        printf("\n");
    }
    if (st != ACCEL_E_EMPTY) printf("  malformed at 0x%zx: %s\n", it.pos, accel_status_str(st));
}

#define TRY(x)                                                                                 \
    do {                                                                                       \
        accel_status st_ = (x);                                                                \
        if (st_ != ACCEL_OK) {                                                                 \
            fprintf(stderr, "demo_refsi: %s: %s\n", #x, accel_status_str(st_));               \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(void)
{
    uint8_t buf[1024];
    accel_refsi_builder b;
    static accel_sim_refsi_session rs; /* rs.cmp: the reference CMP, its memory the dram array */
    accel_refsi_report rep;
    accel_refsi_window_mode m;
    uint64_t mode, scale, args[4];
    unsigned i, h;
    int ok = 1;

    /* host-side staging: a[] at DRAM+0x0, b[] at DRAM+0x100; the buffer copies them in */
    for (i = 0; i < N; i++) {
        accel_store_u64le(dram + 8 * i, i + 1);
        accel_store_u64le(dram + 0x100 + 8 * i, 10u * i);
    }

    TRY(accel_refsi_builder_init(&b, buf, sizeof buf));
    /* window 0: SHARED, 4 KiB at 0x10000 -> DRAM + 0x1000, read/write */
    memset(&m, 0, sizeof m);
    m.active = 1;
    m.mode = ACCEL_REFSI_WINDOW_SHARED;
    m.perms = ACCEL_REFSI_PERM_READ | ACCEL_REFSI_PERM_WRITE;
    m.size = 0x1000;
    TRY(accel_refsi_pack_window_mode(&m, &mode));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_BASE(0), 0x10000));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_TARGET(0), DRAM + 0x1000));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_MODE(0), mode));
    /* window 1: PER_HART, 256 bytes at 0x20000 -> DRAM + 0x4000 + 0x100 * hart */
    m.mode = ACCEL_REFSI_WINDOW_PER_HART;
    m.size = 0x100;
    TRY(accel_refsi_pack_window_mode(&m, &mode));
    TRY(accel_refsi_pack_window_scale(0x100, 1, &scale));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_BASE(1), 0x20000));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_TARGET(1), DRAM + 0x4000));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_SCALE(1), scale));
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_WINDOW_MODE(1), mode));
    /* copy a[] and b[] into the shared window's target, element by element */
    TRY(accel_refsi_emit_copy_mem64(&b, N, DRAM, DRAM + 0x1000, ACCEL_REFSI_UNIT_CMP));
    TRY(accel_refsi_emit_copy_mem64(&b, N, DRAM + 0x100, DRAM + 0x1100, ACCEL_REFSI_UNIT_CMP));
    /* launch: entry point, then N / PER_INST instances over HARTS harts */
    TRY(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_ENTRY_PT_FN, 0x10088));
    args[0] = 0x10000; /* a (virtual) */
    args[1] = 0x10100; /* b */
    args[2] = 0x10200; /* out */
    args[3] = 1000;    /* bias */
    TRY(accel_refsi_emit_run_instances(&b, HARTS, N / PER_INST, args, 4));
    TRY(accel_refsi_emit_sync_cache(&b, ACCEL_REFSI_CACHE_DCACHE | ACCEL_REFSI_CACHE_ICACHE));
    TRY(accel_refsi_emit_finish(&b));

    printf("command buffer: %zu bytes\n", b.len);
    disasm(buf, b.len);

    accel_sim_refsi_session_prepare(&rs, dram, sizeof dram, DRAM, 2, 4);
    rs.cfg.sync_cache = sync_cache;
    rs.cfg.kernel = kernel;
    rs.cfg.check_perms = 1;
    TRY(accel_sim_refsi_session_start(&rs));
    printf("executing on the reference CMP (2 cores x 4 harts, MAX_HARTS %u):\n", HARTS);
    if (accel_refsi_model_execute(&rs.cmp, buf, b.len, &rep) != ACCEL_OK) {
        printf("stopped at command %zu (offset 0x%zx): %s\n", rep.index, rep.offset,
               accel_status_str(rep.status));
        return 1;
    }
    printf("%zu commands, finished=%d\nresult out[i] = a[i] * b[i] + 1000:\n ", rep.commands,
           rep.finished);
    for (i = 0; i < N; i++) {
        uint64_t v = accel_load_u64le(dram + 0x1200 + 8 * i);
        printf(" %" PRIu64, v);
        if (v != (uint64_t)(i + 1) * 10u * i + 1000u) ok = 0;
    }
    printf("\nper-hart scratch (elements handled):");
    for (h = 0; h < 8; h++) printf(" h%u=%" PRIu64, h, accel_load_u64le(dram + 0x4000 + 0x100 * h));
    printf("\n%s\n", ok ? "demo_refsi: ok" : "demo_refsi: FAILED (result mismatch)");
    return ok ? 0 : 1;
}
