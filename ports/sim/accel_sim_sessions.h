/* accel_sim_sessions.h - one setup per section for the programs that drive a simulated device:
 * tests, demos and tools call these instead of repeating the steps. Host-only, header-only.
 * Every name here is the port's, accel_sim_..., like accel_sim.h's.
 *
 *   accel_sim_edgetpu_session  the Edge TPU device model behind ports/sim, a driver on the
 *                              simulator's port
 *   accel_sim_ane_session      the ANE task-manager register model behind ports/sim, a TM host
 *                              on its port
 *   accel_sim_refsi_session    the RefSi reference CMP over one flat array of device memory
 *
 * Include accel.h (and accel_sim.h for the first two) before this file. A session holds the
 * simulator, the model and the host side together and must not move after its init (the port
 * points into it): make it static or keep it where it is. Each init returns the first failed
 * step's status; on ACCEL_OK the host side is ready and nothing has been sent yet. */
#ifndef ACCEL_SIM_SESSIONS_H
#define ACCEL_SIM_SESSIONS_H
#include <string.h>

#ifdef ACCEL_SIM_H
typedef void (*accel_sim_session_trace_fn)(void *ctx, const accel_sim_event *ev);
#endif

#if defined(ACCEL_SIM_H) && !defined(ACCEL_NO_EDGETPU) && !defined(ACCEL_EDGETPU_NO_MODEL)
typedef struct accel_sim_edgetpu_session {
    accel_sim sim;
    accel_edgetpu_model model; /* the chip's side: scripted requests, registers, violations */
    accel_edgetpu_driver drv;  /* drv.usb alone is the USB protocol layer */
} accel_sim_edgetpu_session;

/* max_chunk: bulk-out chunk limit (0 = the default); trace (may be NULL) sees every transfer. */
static inline accel_status accel_sim_edgetpu_session_init(accel_sim_edgetpu_session *s,
                                                          uint32_t max_chunk,
                                                          accel_sim_session_trace_fn trace, void *ctx)
{
    accel_port mp;
    accel_status st;
    memset(&mp, 0, sizeof mp);
    st = accel_edgetpu_model_init(&s->model);
    if (st == ACCEL_OK) st = accel_edgetpu_model_port(&s->model, &mp);
    if (st == ACCEL_OK) st = accel_sim_init(&s->sim);
    if (st == ACCEL_OK) st = accel_sim_attach(&s->sim, &mp);
    if (st == ACCEL_OK && trace) accel_sim_set_trace(&s->sim, trace, ctx);
    if (st == ACCEL_OK) st = accel_edgetpu_driver_init(&s->drv, &s->sim.port, max_chunk);
    return st;
}

/* io for one input and one output layer: the arrays (in, in_len, out, out_len) stay the
 * caller's, so a test can change a length or a pointer between runs. */
static inline void accel_sim_edgetpu_io_one(accel_edgetpu_io *io, const uint8_t *const *in,
                                            const uint32_t *in_len, uint8_t *const *out,
                                            const uint32_t *out_len, uint8_t *scratch,
                                            size_t scratch_len)
{
    memset(io, 0, sizeof *io);
    io->in = in;
    io->in_len = in_len;
    io->n_in = 1;
    io->out = out;
    io->out_len = out_len;
    io->n_out = 1;
    io->scratch = scratch;
    io->scratch_len = scratch_len;
}
#endif

#if defined(ACCEL_SIM_H) && !defined(ACCEL_NO_ANE) && !defined(ACCEL_ANE_NO_MODEL)
typedef struct accel_sim_ane_session {
    accel_sim sim;
    accel_ane_tm_model model; /* TM/TQ register file; model.tm / model.tq are the registers */
    accel_ane_tm tm;          /* the host side: enable, submit, drain, release */
} accel_sim_ane_session;

static inline accel_status accel_sim_ane_session_init(accel_sim_ane_session *s,
                                                      accel_sim_session_trace_fn trace, void *ctx)
{
    accel_port mp;
    accel_status st;
    memset(&mp, 0, sizeof mp);
    st = accel_ane_tm_model_init(&s->model);
    if (st == ACCEL_OK) st = accel_ane_tm_model_port(&s->model, &mp);
    if (st == ACCEL_OK) st = accel_sim_init(&s->sim);
    if (st == ACCEL_OK) st = accel_sim_attach(&s->sim, &mp);
    if (st == ACCEL_OK && trace) accel_sim_set_trace(&s->sim, trace, ctx);
    if (st == ACCEL_OK) st = accel_ane_tm_init(&s->tm, &s->sim.port);
    return st;
}
#endif

#if !defined(ACCEL_NO_REFSI) && !defined(ACCEL_REFSI_NO_MODEL)
/* Device memory as the reference CMP sees it: bytes[0..size) at physical [base, base + size).
 * An access outside it is refused with ACCEL_E_ARG (the model reports it as the command's
 * failure), so a buffer can never make the host read or write past the array. */
typedef struct accel_sim_refsi_flat_mem {
    uint8_t *bytes;
    uint64_t base;
    size_t size;
} accel_sim_refsi_flat_mem;

static inline uint8_t *accel_sim_refsi_flat_at(const accel_sim_refsi_flat_mem *m, uint64_t addr,
                                               size_t n)
{
    if (addr < m->base || addr - m->base > m->size || n > m->size - (size_t)(addr - m->base))
        return NULL;
    return m->bytes + (size_t)(addr - m->base);
}
static inline accel_status accel_sim_refsi_flat_read(const accel_sim_refsi_flat_mem *m,
                                                     uint64_t addr, void *dst, size_t n)
{
    const uint8_t *p = accel_sim_refsi_flat_at(m, addr, n);
    if (!p) return ACCEL_E_ARG;
    memcpy(dst, p, n);
    return ACCEL_OK;
}
static inline accel_status accel_sim_refsi_flat_write(const accel_sim_refsi_flat_mem *m,
                                                      uint64_t addr, const void *src, size_t n)
{
    uint8_t *p = accel_sim_refsi_flat_at(m, addr, n);
    if (!p) return ACCEL_E_ARG;
    memcpy(p, src, n);
    return ACCEL_OK;
}

typedef struct accel_sim_refsi_session {
    accel_sim_refsi_flat_mem mem;
    accel_refsi_model_config cfg; /* filled by accel_sim_refsi_session_prepare; adjust before
                                   * start */
    accel_refsi_model cmp;
    void *user; /* the kernel's own context: kernels get the session as u, u->user is this */
} accel_sim_refsi_session;

static inline accel_status accel_sim_refsi_session_mem_read(void *u, uint64_t unit,
                                                            uint64_t addr, void *dst, size_t n)
{
    (void)unit;
    return accel_sim_refsi_flat_read(&((accel_sim_refsi_session *)u)->mem, addr, dst, n);
}
static inline accel_status accel_sim_refsi_session_mem_write(void *u, uint64_t unit,
                                                             uint64_t addr, const void *src,
                                                             size_t n)
{
    (void)unit;
    return accel_sim_refsi_flat_write(&((accel_sim_refsi_session *)u)->mem, addr, src, n);
}

/* Memory callbacks and the CMP's shape; the caller then sets cfg.kernel, cfg.sync_cache and
 * any limits, and calls accel_sim_refsi_session_start. */
static inline void accel_sim_refsi_session_prepare(accel_sim_refsi_session *s, uint8_t *mem,
                                                   size_t size, uint64_t base, uint32_t cores,
                                                   uint32_t harts_per_core)
{
    memset(s, 0, sizeof *s);
    s->mem.bytes = mem;
    s->mem.base = base;
    s->mem.size = size;
    s->cfg.user = s;
    s->cfg.mem_read = accel_sim_refsi_session_mem_read;
    s->cfg.mem_write = accel_sim_refsi_session_mem_write;
    s->cfg.num_cores = cores;
    s->cfg.harts_per_core = harts_per_core;
}
static inline accel_status accel_sim_refsi_session_start(accel_sim_refsi_session *s)
{
    return accel_refsi_model_init(&s->cmp, &s->cfg);
}
#endif

#endif
