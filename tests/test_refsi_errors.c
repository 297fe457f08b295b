/* test_refsi_errors.c - the refsi section's refusals and failure paths that test_refsi.c leaves
 * out: every NULL argument of the builder, decoder, register packers and reference CMP, a
 * builder whose length runs past its capacity, register values the CMP refuses at a kernel
 * slice, memory failures while a KTB is filled, SYNC_CACHE with a failing flush, COPY_MEM64
 * whose destination wraps, and hart accesses refused by a window's bounds or permissions. Each
 * case checks the status and that nothing else happened (no bytes written, no kernel run). */
/* only the refsi section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"

#define MEM_BASE 0x80000000ULL
#define MEM_SIZE 0x2000u

typedef struct emem {
    uint8_t mem[MEM_SIZE];
    uint64_t fail_lo, fail_hi; /* reads or writes touching [lo, hi) fail with ACCEL_E_IO */
    int fail_writes;           /* 1: the failing range applies to writes, 0: to reads */
    unsigned kernels, syncs;
    uint32_t sync_flags[4];
    accel_status sync_result;
} emem;

static emem EM;

static accel_status em_access(uint64_t addr, size_t n, int write)
{
    if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE || n > MEM_SIZE - (addr - MEM_BASE)) return ACCEL_E_ARG;
    if (write == EM.fail_writes && addr < EM.fail_hi && addr + n > EM.fail_lo) return ACCEL_E_IO;
    return ACCEL_OK;
}
static accel_status em_read(void *u, uint64_t unit, uint64_t addr, void *dst, size_t n)
{
    accel_status st = em_access(addr, n, 0);
    (void)u;
    (void)unit;
    if (st == ACCEL_OK) memcpy(dst, EM.mem + (addr - MEM_BASE), n);
    return st;
}
static accel_status em_write(void *u, uint64_t unit, uint64_t addr, const void *src, size_t n)
{
    accel_status st = em_access(addr, n, 1);
    (void)u;
    (void)unit;
    if (st == ACCEL_OK) memcpy(EM.mem + (addr - MEM_BASE), src, n);
    return st;
}
static accel_status em_sync(void *u, uint32_t flag)
{
    (void)u;
    if (EM.syncs < 4) EM.sync_flags[EM.syncs] = flag;
    EM.syncs++;
    return EM.sync_result;
}
static accel_status em_kernel(void *u, const accel_refsi_hart *h, const accel_refsi_launch *l)
{
    (void)u;
    (void)h;
    (void)l;
    EM.kernels++;
    return ACCEL_OK;
}

static void em_config(accel_refsi_model_config *cfg)
{
    memset(&EM, 0, sizeof EM);
    memset(cfg, 0, sizeof *cfg);
    cfg->mem_read = em_read;
    cfg->mem_write = em_write;
    cfg->sync_cache = em_sync;
    cfg->kernel = em_kernel;
    cfg->num_cores = 1;
    cfg->harts_per_core = 2;
    cfg->ktb_base = MEM_BASE + 0x1000;
    cfg->ktb_stride = 0x100;
}

static void test_builder_null_and_overrun(void)
{
    accel_refsi_builder b, nobuf;
    accel_refsi_cmd c;
    uint8_t buf[32], before[32];
    const uint8_t pay[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_ST(accel_refsi_builder_init(NULL, buf, sizeof buf), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_builder_init(&b, NULL, 8), ACCEL_E_NULL);
    REQUIRE_ST(accel_refsi_builder_init(&nobuf, NULL, 0), ACCEL_OK); /* an empty builder is valid */
    CHECK_EQ(nobuf.len, 0);
    /* ... but has nowhere to write */
    CHECK_ST(accel_refsi_emit_finish(&nobuf), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_emit_finish(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_emit_nop(NULL, pay, 1), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_emit_nop(&nobuf, pay, 1), ACCEL_E_NULL);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    CHECK_ST(accel_refsi_emit_nop(&b, NULL, 1), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_emit(&b, NULL), ACCEL_E_NULL);
    CHECK_EQ(b.len, 0);
    /* a NOP without payload is one header: it decodes as a NOP of 8 bytes and no chunks */
    REQUIRE_ST(accel_refsi_emit_nop(&b, NULL, 0), ACCEL_OK);
    CHECK_EQ(b.len, 8);
    {
        accel_refsi_iter it;
        REQUIRE_ST(accel_refsi_iter_init(&it, buf, b.len), ACCEL_OK);
        REQUIRE_ST(accel_refsi_iter_next(&it, &c), ACCEL_OK);
        CHECK_EQ(c.opcode, ACCEL_REFSI_OP_NOP);
        CHECK_EQ(c.size, 8);
        CHECK_EQ(c.payload_chunks, 0);
        CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
    }
    /* a builder whose length was set past its capacity (the struct is the caller's): refused,
       nothing written, for the payload-copying NOP and the generic packet writer alike */
    memcpy(before, buf, sizeof buf);
    b.len = sizeof buf + 8;
    CHECK_ST(accel_refsi_emit_nop(&b, pay, 1), ACCEL_E_FULL);
    CHECK_ST(accel_refsi_emit_finish(&b), ACCEL_E_FULL);
    CHECK_ST(accel_refsi_emit_write_reg64(&b, ACCEL_REFSI_REG_ENTRY_PT_FN, 1), ACCEL_E_FULL);
    CHECK_EQ(b.len, sizeof buf + 8);
    CHECK_MEM(buf, before, sizeof buf);
}

static void test_decoder_null(void)
{
    accel_refsi_iter it;
    accel_refsi_cmd c;
    uint8_t buf[16] = {0};
    accel_refsi_builder b;
    size_t n = 99, idx = 99, off = 99;
    CHECK_ST(accel_refsi_iter_init(NULL, buf, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_iter_init(&it, NULL, 8), ACCEL_E_NULL);
    REQUIRE_ST(accel_refsi_iter_init(&it, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_iter_next(&it, &c), ACCEL_E_EMPTY);
    CHECK_ST(accel_refsi_iter_next(NULL, &c), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_iter_next(&it, NULL), ACCEL_E_NULL);
    /* validate: a NULL buffer with a length is refused before anything is counted */
    CHECK_ST(accel_refsi_validate(NULL, 8, &n, &idx, &off), ACCEL_E_NULL);
    CHECK_EQ(n, 99);
    /* a bad second packet: the same status with or without the error position out-parameters */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_nop(&b, NULL, 0), ACCEL_OK);
    memset(buf + 8, 0xFF, 8); /* packet id 3 but reserved bits set */
    CHECK_ST(accel_refsi_validate(buf, 16, &n, &idx, &off), ACCEL_E_REFSI_RESERVED);
    CHECK_EQ(n, 1);
    CHECK_EQ(idx, 1);
    CHECK_EQ(off, 8);
    CHECK_ST(accel_refsi_validate(buf, 16, NULL, NULL, NULL), ACCEL_E_REFSI_RESERVED);
}

static void test_register_packers_null(void)
{
    uint64_t reg = 7, a64 = 7;
    uint32_t a32 = 7, sz = 7;
    accel_refsi_window_mode m;
    uint64_t regs[ACCEL_REFSI_NUM_REGS];
    memset(&m, 0, sizeof m);
    memset(regs, 0, sizeof regs);
    CHECK_ST(accel_refsi_pack_entry_pt(0x1000, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_entry_pt(0x1000, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_kub_desc(0x1000, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_kub_desc(0, NULL, &sz), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_kub_desc(0, &a64, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_kargs_info(0, 8, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_tsd_info(0, 8, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_kargs_info(0, NULL, &sz), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_tsd_info(0, &a32, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_window_mode(NULL, &reg), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_window_mode(&m, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_window_mode(0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_pack_window_scale(0, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_window_scale(0, NULL, &a64), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_unpack_window_scale(0, &a32, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_window_translate(NULL, 0, 0, 0, 8, 0, &a64), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_window_translate(regs, 0, 0, 0, 8, 0, NULL), ACCEL_E_NULL);
    CHECK_EQ(reg, 7); /* nothing written by a refused call */
    CHECK_EQ(a64, 7);
    CHECK_EQ(a32, 7);
    CHECK_EQ(sz, 7);
    /* (a full build: the status enum's sentinel has no string) */
    CHECK(strcmp(accel_status_str(ACCEL_STATUS_MIN_), "?") == 0);
    /* SCALE A = 0 is field value 0 (no part per id); B - 1 in bits 63:32 */
    REQUIRE_ST(accel_refsi_pack_window_scale(0, 0x10, &reg), ACCEL_OK);
    CHECK_EQ_U64(reg, 0x0000000F00000000ULL);
    REQUIRE_ST(accel_refsi_unpack_window_scale(reg, &a32, &a64), ACCEL_OK);
    CHECK_EQ(a32, 0);
    CHECK_EQ_U64(a64, 0x10);
}

static void test_model_init_refusals(void)
{
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    em_config(&cfg);
    CHECK_ST(accel_refsi_model_init(NULL, &cfg), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_model_init(&cmp, NULL), ACCEL_E_NULL);
    cfg.mem_read = NULL;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_NULL);
    em_config(&cfg);
    cfg.mem_write = NULL;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_NULL);
    em_config(&cfg);
    cfg.num_cores = 0;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_ZERO_LENGTH);
    em_config(&cfg);
    cfg.harts_per_core = 0;
    CHECK_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_E_ZERO_LENGTH);
}

/* One window 0: virtual [0x10000, 0x10100) onto MEM_BASE + 0x200, shared, with these PERMS. */
static void window0(accel_refsi_model *cmp, uint8_t perms)
{
    accel_refsi_window_mode m;
    uint64_t reg = 0;
    memset(&m, 0, sizeof m);
    m.active = 1;
    m.mode = ACCEL_REFSI_WINDOW_SHARED;
    m.perms = perms;
    m.size = 0x100;
    if (accel_refsi_pack_window_mode(&m, &reg) != ACCEL_OK) CHECK(0);
    cmp->regs[ACCEL_REFSI_REG_WINDOW_MODE(0)] = reg;
    cmp->regs[ACCEL_REFSI_REG_WINDOW_BASE(0)] = 0x10000;
    cmp->regs[ACCEL_REFSI_REG_WINDOW_TARGET(0)] = MEM_BASE + 0x200;
    if (accel_refsi_pack_window_scale(0, 1, &reg) != ACCEL_OK) CHECK(0);
    cmp->regs[ACCEL_REFSI_REG_WINDOW_SCALE(0)] = reg;
}

static void test_hart_access(void)
{
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    accel_refsi_hart h, orphan;
    uint8_t v[8] = {0}, w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    em_config(&cfg);
    cfg.check_perms = 1;
    REQUIRE_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_OK);
    window0(&cmp, ACCEL_REFSI_PERM_WRITE);
    h.cmp = &cmp;
    h.hart_id = 1;
    h.core_id = 0;
    orphan = h;
    orphan.cmp = NULL;
    CHECK_ST(accel_refsi_hart_read(NULL, 0x10000, v, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read(&orphan, 0x10000, v, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read(&h, 0x10000, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_read(&h, 0x10000, NULL, 0), ACCEL_OK);
    CHECK_ST(accel_refsi_hart_write(NULL, 0x10000, w, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_write(&orphan, 0x10000, w, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_write(&h, 0x10000, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_refsi_hart_write(&h, 0x10000, NULL, 0), ACCEL_OK);
    /* write-only window: the write lands at the target, the read is refused by PERMS */
    REQUIRE_ST(accel_refsi_hart_write(&h, 0x10008, w, 8), ACCEL_OK);
    CHECK_MEM(EM.mem + 0x208, w, 8);
    CHECK_ST(accel_refsi_hart_read(&h, 0x10008, v, 8), ACCEL_E_REFSI_WINDOW_PERM);
    CHECK_EQ(v[0], 0);
    /* without the PERMS check (the kit's default) the same read goes through */
    cmp.cfg.check_perms = 0;
    REQUIRE_ST(accel_refsi_hart_read(&h, 0x10008, v, 8), ACCEL_OK);
    CHECK_MEM(v, w, 8);
    /* a read across the window's end is refused whatever the PERMS */
    CHECK_ST(accel_refsi_hart_read(&h, 0x100FC, v, 8), ACCEL_E_REFSI_WINDOW_BOUNDS);
    /* a read-only window refuses writes: nothing reaches memory */
    cmp.cfg.check_perms = 1;
    window0(&cmp, ACCEL_REFSI_PERM_READ);
    CHECK_ST(accel_refsi_hart_write(&h, 0x10010, w, 8), ACCEL_E_REFSI_WINDOW_PERM);
    CHECK_EQ(EM.mem[0x210], 0);
}

/* Run `buf` on a fresh model from em_config (after setup() on it): the status. */
static accel_status run(accel_refsi_model *cmp, const uint8_t *buf, size_t len, accel_refsi_report *r)
{
    return accel_refsi_model_execute(cmp, buf, len, r);
}

static void test_kernel_slice_refusals(void)
{
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    accel_refsi_builder b;
    accel_refsi_report r;
    uint8_t buf[128];
    uint64_t kub = 0, info = 0;
    size_t i;
    em_config(&cfg);
    REQUIRE_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_OK);
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_run_kernel_slice(&b, 0, 2, 0), ACCEL_OK);
    /* KARGS_INFO, then TSD_INFO, with reserved bits 15:0 set: refused before any instance runs */
    cmp.regs[ACCEL_REFSI_REG_KARGS_INFO] = 0x1;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_EQ(r.index, 0);
    CHECK_EQ(r.opcode, ACCEL_REFSI_OP_RUN_KERNEL_SLICE);
    cmp.regs[ACCEL_REFSI_REG_KARGS_INFO] = 0;
    cmp.regs[ACCEL_REFSI_REG_TSD_INFO] = 0x8000;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_REFSI_REG_RESERVED);
    CHECK_EQ(EM.kernels, 0);
    /* a KUB of 256 bytes at MEM_BASE with 16 bytes of TSD template: each instance's KTB is
       filled from it; a read failure of the template, or a write failure into the KTB, stops
       the slice at instance 0 before its kernel is called */
    REQUIRE_ST(accel_refsi_pack_kub_desc(MEM_BASE, 1, &kub), ACCEL_OK);
    REQUIRE_ST(accel_refsi_pack_tsd_info(0x40, 16, &info), ACCEL_OK);
    cmp.regs[ACCEL_REFSI_REG_KUB_DESC] = kub;
    cmp.regs[ACCEL_REFSI_REG_TSD_INFO] = info;
    for (i = 0; i < 16; i++) EM.mem[0x40 + i] = (uint8_t)(0xA0 + i);
    EM.fail_lo = MEM_BASE + 0x48;
    EM.fail_hi = MEM_BASE + 0x49;
    EM.fail_writes = 0;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_IO);
    CHECK_EQ(r.instance, 0);
    CHECK_EQ(EM.kernels, 0);
    EM.fail_lo = cfg.ktb_base + 0x100; /* hart 1's KTB: instance 0 completes, instance 1 fails */
    EM.fail_hi = cfg.ktb_base + 0x101;
    EM.fail_writes = 1;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_IO);
    CHECK_EQ(r.instance, 1);
    CHECK_EQ(r.hart, 1);
    CHECK_EQ(EM.kernels, 1);
    CHECK_MEM(EM.mem + 0x1000, EM.mem + 0x40, 16); /* hart 0's KTB holds the template */
    /* with memory working, both instances run */
    EM.fail_hi = 0;
    EM.kernels = 0;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(EM.kernels, 2);
    CHECK_MEM(EM.mem + 0x1100, EM.mem + 0x40, 16);
}

static void test_copy_and_sync_failures(void)
{
    accel_refsi_model cmp;
    accel_refsi_model_config cfg;
    accel_refsi_builder b;
    accel_refsi_report r;
    uint8_t buf[64];
    em_config(&cfg);
    REQUIRE_ST(accel_refsi_model_init(&cmp, &cfg), ACCEL_OK);
    /* COPY_MEM64 of 2 elements whose destination's last byte would pass 2^64: refused whole */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_copy_mem64(&b, 2, MEM_BASE, 0xFFFFFFFFFFFFFFF8ULL, ACCEL_REFSI_UNIT_CMP), ACCEL_OK);
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_OVERFLOW);
    CHECK_EQ(r.opcode, ACCEL_REFSI_OP_COPY_MEM64);
    /* SYNC_CACHE DCACHE|ICACHE with a failing flush: the status is the flush's, and the
       instruction cache is not invalidated over data that may not have reached memory */
    REQUIRE_ST(accel_refsi_builder_init(&b, buf, sizeof buf), ACCEL_OK);
    REQUIRE_ST(accel_refsi_emit_sync_cache(&b, ACCEL_REFSI_CACHE_DCACHE | ACCEL_REFSI_CACHE_ICACHE), ACCEL_OK);
    EM.sync_result = ACCEL_E_IO;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_E_IO);
    CHECK_EQ(EM.syncs, 1);
    CHECK_EQ(EM.sync_flags[0], ACCEL_REFSI_CACHE_DCACHE);
    /* no sync_cache callback: both flags are no-ops */
    cmp.cfg.sync_cache = NULL;
    EM.syncs = 0;
    CHECK_ST(run(&cmp, buf, b.len, &r), ACCEL_OK);
    CHECK_EQ(EM.syncs, 0);
}

int main(void)
{
    tl_seed(1);
    RUN(test_builder_null_and_overrun);
    RUN(test_decoder_null);
    RUN(test_register_packers_null);
    RUN(test_model_init_refusals);
    RUN(test_hart_access);
    RUN(test_kernel_slice_refusals);
    RUN(test_copy_and_sync_failures);
    return TEST_END();
}
