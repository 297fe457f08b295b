/* test_edgetpu_errors.c - Edge TPU section: the argument checks and error paths the other
 * edgetpu tests leave out. Each case provokes one refusal and checks its precise status and
 * that the state it must not touch is unchanged: NULL arguments; a USB port that reports more
 * or fewer bytes than asked; the device model's refusals of malformed traffic; the bring-up
 * sequencer's conditions; DFU against a scripted bootloader; malformed packages (hand-made
 * FlatBuffers from scripts/gen/gen_edgetpu_synth.py). No third-party data needed. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "accel_sim.h"
#include "testlib.h"
#include "accel_sim_sessions.h"
#include "../examples/host/edgetpu_synth_pkg.h"

/* ------------------------------------------------------------------ a scriptable USB port */
typedef struct fake_usb {
    int out_extra;     /* bulk out: done = len + out_extra (may be negative) */
    int in_extra;      /* bulk in: got = len + in_extra, clamped at 0 */
    accel_status fail; /* every call returns this when not ACCEL_OK */
    unsigned calls;
    /* DFU: GETSTATUS answers (status, state) in turn, the last one repeats */
    uint8_t dfu_status[8], dfu_state[8];
    unsigned ndfu, dfu_at;
    size_t status_len; /* bytes a GETSTATUS reports (6 normally) */
    int dn_short;      /* DNLOAD reports this many bytes fewer */
    size_t up_got;     /* UPLOAD: bytes reported (may exceed the request) */
    uint8_t up_fill;
    accel_status status_fail; /* GETSTATUS alone fails with this */
} fake_usb;

static accel_status fk_out(void *user, uint8_t ep, const uint8_t *d, size_t len, uint32_t t,
                           size_t *done)
{
    fake_usb *f = (fake_usb *)user;
    (void)ep, (void)d, (void)t;
    f->calls++;
    if (f->fail != ACCEL_OK) return f->fail;
    *done = (size_t)((long)len + f->out_extra);
    return ACCEL_OK;
}

static accel_status fk_in(void *user, uint8_t ep, uint8_t *d, size_t len, uint32_t t, size_t *done)
{
    fake_usb *f = (fake_usb *)user;
    long got = (long)len + f->in_extra;
    (void)ep, (void)t;
    f->calls++;
    if (f->fail != ACCEL_OK) return f->fail;
    memset(d, 0x5A, len);
    *done = got < 0 ? 0 : (size_t)got;
    return ACCEL_OK;
}

static accel_status fk_ctrl(void *user, uint8_t rt, uint8_t req, uint16_t value, uint16_t index,
                            uint8_t *data, uint16_t length, uint32_t t, size_t *done)
{
    fake_usb *f = (fake_usb *)user;
    (void)value, (void)index, (void)t;
    f->calls++;
    *done = 0;
    if (f->fail != ACCEL_OK) return f->fail;
    if (rt == 0xA1u && req == ACCEL_EDGETPU_DFU_GETSTATUS) {
        unsigned i;
        if (f->status_fail != ACCEL_OK) return f->status_fail;
        i = f->dfu_at < f->ndfu ? f->dfu_at++ : f->ndfu - 1;
        memset(data, 0, length);
        data[0] = f->dfu_status[i];
        data[4] = f->dfu_state[i];
        *done = f->status_len;
        return ACCEL_OK;
    }
    if (rt == 0x21u && req == ACCEL_EDGETPU_DFU_DNLOAD) {
        *done = (size_t)((long)length - f->dn_short);
        return ACCEL_OK;
    }
    if (rt == 0xA1u && req == ACCEL_EDGETPU_DFU_UPLOAD) {
        memset(data, f->up_fill, length);
        *done = f->up_got;
        return ACCEL_OK;
    }
    *done = length; /* CSR access: answers zeros */
    if (rt & 0x80u) memset(data, 0, length);
    return ACCEL_OK;
}

static void fake_port(accel_port *p, fake_usb *f)
{
    memset(p, 0, sizeof *p);
    memset(f, 0, sizeof *f);
    f->status_len = 6;
    p->user = f;
    p->usb_bulk_out = fk_out;
    p->usb_bulk_in = fk_in;
    p->usb_control = fk_ctrl;
}

static void dfu_script(fake_usb *f, unsigned n, const uint8_t *status, const uint8_t *state)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        f->dfu_status[i] = status[i];
        f->dfu_state[i] = state[i];
    }
    f->ndfu = n;
    f->dfu_at = 0;
}

/* ------------------------------------------------------------------ NULL arguments */
static void test_null_arguments(void)
{
    uint8_t b[64], tag = 9;
    uint32_t u32 = 77, n = 5;
    uint64_t u64 = 0;
    uint16_t u16 = 3;
    accel_edgetpu_event ev;
    accel_edgetpu_irq irq;
    accel_edgetpu_usb u;
    accel_edgetpu_seq_ctx ctx;
    accel_edgetpu_step step;
    accel_edgetpu_model m;
    accel_edgetpu_driver d;
    accel_edgetpu_package pkg;
    accel_edgetpu_exe e;
    accel_edgetpu_io io;
    accel_edgetpu_dfu_status ds;
    accel_edgetpu_dfu_model dm;
    accel_port port;
    fake_usb f;
    fake_port(&port, &f);
    memset(b, 0, sizeof b);
    memset(&ev, 0, sizeof ev);
    memset(&ctx, 0, sizeof ctx);
    memset(&step, 0, sizeof step);
    memset(&e, 0, sizeof e);
    memset(&pkg, 0, sizeof pkg);
    memset(&io, 0, sizeof io);

    CHECK_ST(accel_edgetpu_decode_usb_header(NULL, &u32, &tag), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_decode_usb_header(b, NULL, &tag), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_decode_usb_header(b, &u32, NULL), ACCEL_E_NULL);
    CHECK_EQ(u32, 77);
    CHECK_EQ(tag, 9);
    CHECK_ST(accel_edgetpu_decode_event(NULL, 16, &ev), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_decode_event(b, 16, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_encode_event(NULL, b), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_encode_event(&ev, NULL), ACCEL_E_NULL);
    ev.tag = 16; /* the wire keeps 4 bits */
    b[12] = 0xEE;
    CHECK_ST(accel_edgetpu_encode_event(&ev, b), ACCEL_E_ARG);
    CHECK_EQ(b[12], 0xEE);
    CHECK_ST(accel_edgetpu_decode_irq(NULL, 4, &irq), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_decode_irq(b, 4, NULL), ACCEL_E_NULL);

    /* the USB layer */
    CHECK_ST(accel_edgetpu_usb_init(NULL, &port, 0), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_init(&u, NULL, 0), ACCEL_E_NULL);
    REQUIRE_ST(accel_edgetpu_usb_init(&u, &port, 0), ACCEL_OK);
    accel_edgetpu_usb_abort(NULL);
    CHECK_ST(accel_edgetpu_csr_read32(NULL, 0, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_csr_write32(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_csr_read64(NULL, 0, &u64), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_csr_write64(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_begin(NULL, 0, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_data(NULL, b, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_data(&u, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_send(NULL, 0, b, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_send(&u, 0, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_output(NULL, b, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_output(&u, NULL, 8), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_event(NULL, &ev), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_event(&u, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_irq(NULL, &irq), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_usb_read_irq(&u, NULL), ACCEL_E_NULL);
    CHECK_EQ(f.calls, 0); /* nothing reached the port */
    CHECK_EQ(u.out_owed, 0);
    CHECK_EQ(u.in_owed, 0);

    /* bring-up */
    CHECK_ST(accel_edgetpu_prog_length(NULL, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_prog_length(b, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_clock_bits(0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_seq_run(NULL, &step, 1, &ctx), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_seq_run(&u, &step, 1, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_seq_run(&u, NULL, 1, &ctx), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_seq_run(&u, NULL, 0, &ctx), ACCEL_OK); /* nothing to run */
    CHECK(accel_edgetpu_open_steps(NULL) != NULL);
    n = 0;
    CHECK(accel_edgetpu_close_steps(NULL) == accel_edgetpu_close_steps(&n));
    CHECK(n > 0);
    CHECK_ST(accel_edgetpu_open(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_close(NULL), ACCEL_E_NULL);
    CHECK_EQ(f.calls, 0);

    /* the device model */
    CHECK_EQ(accel_edgetpu_model_reg(NULL, 0), 0);
    CHECK_ST(accel_edgetpu_model_set_reg(NULL, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_model_init(NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_model_expect(NULL, ACCEL_EDGETPU_MODEL_RECV, 0, 1), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_model_port(NULL, &port), ACCEL_E_NULL);
    REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
    CHECK_ST(accel_edgetpu_model_port(&m, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_model_expect_exe(NULL, &e), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_model_expect_exe(&m, NULL), ACCEL_E_NULL);
    CHECK_EQ(m.nscript, 0);

    /* the driver */
    CHECK_ST(accel_edgetpu_driver_init(NULL, &port, 0), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_driver_init(&d, NULL, 0), ACCEL_E_NULL);
    REQUIRE_ST(accel_edgetpu_driver_init(&d, &port, 0), ACCEL_OK);
    accel_edgetpu_driver_reset_cache(NULL);
    CHECK_ST(accel_edgetpu_exe_run(NULL, &e, &io), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_exe_run(&d, NULL, &io), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_exe_run(&d, &e, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_exe_run(&d, &e, &io), ACCEL_E_NULL); /* io without scratch */
    CHECK_ST(accel_edgetpu_invoke(NULL, &pkg, &io, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_invoke(&d, NULL, &io, NULL), ACCEL_E_NULL);
    {
        int ran = 5;
        CHECK_ST(accel_edgetpu_invoke(&d, &pkg, NULL, &ran), ACCEL_E_NULL);
        CHECK_EQ(ran, 0); /* cleared first */
    }
    CHECK_EQ(f.calls, 0);

    /* package views */
    CHECK_ST(accel_edgetpu_package_init(NULL, b, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_init(&pkg, NULL, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_executable(NULL, 0, &e), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_executable(&pkg, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_find(NULL, 0, &u32), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_package_find(&pkg, 0, NULL), ACCEL_E_NULL);
    {
        accel_edgetpu_bitstream bs;
        accel_edgetpu_field_offset fo;
        accel_edgetpu_hint h;
        accel_edgetpu_layer l;
        memset(&bs, 0, sizeof bs);
        CHECK_ST(accel_edgetpu_exe_bitstream(NULL, 0, &bs), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_exe_bitstream(&e, 0, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bitstream_field_offset(NULL, 0, &fo), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bitstream_field_offset(&bs, 0, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bitstream_field_offset(&bs, 0, &fo), ACCEL_E_ARG); /* none */
        CHECK_ST(accel_edgetpu_exe_hint(NULL, 0, &h), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_exe_hint(&e, 0, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_exe_layer(NULL, 0, 0, &l), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_exe_layer(&e, 0, 0, NULL), ACCEL_E_NULL);
    }

    /* instruction helpers */
    {
        accel_edgetpu_insn in;
        size_t len = 0;
        char txt[8];
        memset(&in, 0, sizeof in);
        CHECK_ST(accel_edgetpu_decode_insn(NULL, &in), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_decode_insn(b, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_encode_insn(NULL, b), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_encode_insn(&in, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bits_get(NULL, 16, 0, 8, &u32), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bits_get(b, 16, 0, 8, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_bits_set(NULL, 16, 0, 8, 1), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_patch32(NULL, 16, 0, 1), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_prog_build(b, 1, b, sizeof b, NULL), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_prog_build(b, 1, NULL, sizeof b, &len), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_prog_build(NULL, 1, b, sizeof b, &len), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_disasm(NULL, 0, txt, sizeof txt, &len), ACCEL_E_NULL);
        CHECK_ST(accel_edgetpu_disasm(b, 0, NULL, sizeof txt, &len), ACCEL_E_NULL);
    }

    /* DFU */
    CHECK_ST(accel_edgetpu_decode_dfu_status(NULL, 6, &ds), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_decode_dfu_status(b, 6, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_download(NULL, 0, 64, b, 8, 10, &ds), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 64, NULL, 8, 10, &ds), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_verify(NULL, 0, 8, b, 8, b, 8, 10), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 8, NULL, 8, b, 8, 10), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 8, b, 8, NULL, 8, 10), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 0, b, 8, b, 8, 10), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_edgetpu_dfu_detach(NULL, 0, 100, 10), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_transfer_size(NULL, 9, &u16), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_transfer_size(b, 9, NULL), ACCEL_E_NULL);
    CHECK_EQ(u16, 3);
    CHECK_ST(accel_edgetpu_dfu_model_init(NULL, b, sizeof b), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_model_init(&dm, NULL, sizeof b), ACCEL_E_NULL);
    REQUIRE_ST(accel_edgetpu_dfu_model_init(&dm, b, sizeof b), ACCEL_OK);
    CHECK_ST(accel_edgetpu_dfu_model_port(NULL, &port), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_dfu_model_port(&dm, NULL), ACCEL_E_NULL);
    CHECK_EQ(f.calls, 0);
}


/* ------------------------------------------------------------------ USB transfers */
/* A port that reports more than it was asked for is clamped (what was owed stays exact); one
 * that reports less ends the transfer with ACCEL_E_TRUNCATED, owing the rest. */
static void test_usb_short_and_long_transfers(void)
{
    accel_port port;
    fake_usb f;
    accel_edgetpu_usb u;
    uint8_t data[100], out[40];
    memset(data, 1, sizeof data);
    fake_port(&port, &f);
    REQUIRE_ST(accel_edgetpu_usb_init(&u, &port, 32), ACCEL_OK);
    /* begin: tag and length checks before any traffic */
    CHECK_ST(accel_edgetpu_usb_begin(&u, ACCEL_EDGETPU_TAG_PARAMETERS + 1u, 8), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_usb_begin(&u, 0, 0), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(f.calls, 0);
    /* the header goes out short */
    f.out_extra = -1;
    CHECK_ST(accel_edgetpu_usb_begin(&u, 0, 100), ACCEL_E_TRUNCATED);
    CHECK_EQ(u.out_owed, 0);
    /* the header over-reported counts as not sent whole either */
    f.out_extra = 1;
    CHECK_ST(accel_edgetpu_usb_begin(&u, 0, 100), ACCEL_E_TRUNCATED);
    /* over-reporting chunks: 100 bytes in chunks of 32, nothing owed after */
    f.out_extra = 0;
    REQUIRE_ST(accel_edgetpu_usb_begin(&u, 0, 100), ACCEL_OK);
    CHECK_EQ(u.out_owed, 100);
    f.out_extra = 7;
    CHECK_ST(accel_edgetpu_usb_data(&u, data, 100), ACCEL_OK);
    CHECK_EQ(u.out_owed, 0);
    CHECK_EQ(f.calls, 1 + 1 + 1 + 4);
    /* a chunk goes out 1 byte short: 31 of the first 32 went, 69 still owed */
    f.out_extra = 0;
    REQUIRE_ST(accel_edgetpu_usb_begin(&u, 1, 100), ACCEL_OK);
    f.out_extra = -1;
    CHECK_ST(accel_edgetpu_usb_data(&u, data, 100), ACCEL_E_TRUNCATED);
    CHECK_EQ(u.out_owed, 69);
    /* a half-sent request blocks reads, and begin */
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 40), ACCEL_E_STATE);
    CHECK_ST(accel_edgetpu_usb_begin(&u, 0, 8), ACCEL_E_STATE);
    accel_edgetpu_usb_abort(&u);
    CHECK_EQ(u.out_owed, 0);
    /* reads: zero length refused; over-reporting clamped; nothing at all -> truncated */
    f.out_extra = 0;
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 0), ACCEL_E_ZERO_LENGTH);
    f.in_extra = 9;
    memset(out, 0, sizeof out);
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 40), ACCEL_OK);
    CHECK_EQ(u.in_owed, 0);
    CHECK_EQ(out[39], 0x5A);
    f.in_extra = -1000;
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 40), ACCEL_E_TRUNCATED);
    CHECK_EQ(u.in_owed, 40);
    /* an output read in progress blocks more data and needs the same length to resume */
    REQUIRE_ST(accel_edgetpu_usb_begin(&u, 1, 0 + 8), ACCEL_E_STATE);
    u.out_owed = 8;
    CHECK_ST(accel_edgetpu_usb_data(&u, data, 8), ACCEL_E_STATE);
    u.out_owed = 0;
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 39), ACCEL_E_STATE);
    f.in_extra = 0;
    CHECK_ST(accel_edgetpu_usb_read_output(&u, out, 40), ACCEL_OK);
    CHECK_EQ(u.in_owed, 0);
    /* a port failure on the header */
    f.fail = ACCEL_E_IO;
    CHECK_ST(accel_edgetpu_usb_begin(&u, 0, 8), ACCEL_E_IO);
    CHECK_EQ(u.out_owed, 0);
    CHECK_ST(accel_edgetpu_usb_read_event(&u, NULL), ACCEL_E_NULL);
}

/* ------------------------------------------------------------------ the device model */
static void test_model_refusals(void)
{
    static accel_edgetpu_model m;
    accel_port p;
    uint8_t b[32], h[8];
    size_t done = 9;
    uint32_t i;
    REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
    memset(&p, 0, sizeof p);
    REQUIRE_ST(accel_edgetpu_model_port(&m, &p), ACCEL_OK);
    memset(b, 0, sizeof b);
    /* control: wrong request type, request, length or no data is a CSR violation */
    CHECK_ST(p.usb_control(p.user, 0x41, 0, 0, 0, b, 4, 10, &done), ACCEL_E_STALL);
    CHECK_EQ(done, 0);
    CHECK_ST(p.usb_control(p.user, 0xC0, 2, 0, 0, b, 4, 10, &done), ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0xC0, ACCEL_EDGETPU_REQ_CSR64, 0, 0, b, 4, 10, &done),
             ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0xC0, ACCEL_EDGETPU_REQ_CSR32, 0, 0, NULL, 4, 10, &done),
             ACCEL_E_STALL);
    CHECK_EQ(m.violations, ACCEL_EDGETPU_MODEL_V_CSR);
    CHECK_EQ(m.nviolations, 4);
    /* a full register file: a write to a new register is refused */
    for (i = 0; m.nregs < ACCEL_EDGETPU_MODEL_REGS; i++)
        REQUIRE_ST(accel_edgetpu_model_set_reg(&m, 0x90000u + 8u * i, i), ACCEL_OK);
    CHECK_ST(accel_edgetpu_model_set_reg(&m, 0x1234, 1), ACCEL_E_FULL);
    CHECK_EQ(accel_edgetpu_model_reg(&m, 0x1234), 0);
    CHECK_ST(p.usb_control(p.user, 0x40, ACCEL_EDGETPU_REQ_CSR32, 0x1234, 0, b, 4, 10, &done),
             ACCEL_E_STALL);
    CHECK_EQ(m.nviolations, 5);
    CHECK_ST(accel_edgetpu_model_set_reg(&m, 0x90000u, 77), ACCEL_OK); /* existing: fine */
    CHECK_EQ(accel_edgetpu_model_reg(&m, 0x90000u), 77);

    /* bulk out: wrong endpoint, no data, bad headers, overlong data */
    REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
    CHECK_ST(p.usb_bulk_out(p.user, 0x02, b, 8, 10, &done), ACCEL_E_STALL);
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, NULL, 8, 10, &done), ACCEL_E_STALL);
    CHECK_EQ(m.nviolations, 0);
    REQUIRE_ST(accel_edgetpu_encode_usb_header(16, 1, h), ACCEL_OK);
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 7, 10, &done), ACCEL_E_STALL);
    h[5] = 1; /* reserved byte set */
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_E_STALL);
    h[5] = 0;
    h[4] = 3; /* tag 3 is the device's */
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_E_STALL);
    REQUIRE_ST(accel_edgetpu_encode_usb_header(0, 1, h), ACCEL_OK);
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_E_STALL);
    CHECK_EQ(m.violations, ACCEL_EDGETPU_MODEL_V_HEADER);
    CHECK_EQ(m.nviolations, 4);
    CHECK_EQ(m.in_data, 0);
    REQUIRE_ST(accel_edgetpu_encode_usb_header(4, 1, h), ACCEL_OK);
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_OK);
    CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, b, 5, 10, &done), ACCEL_E_STALL);
    CHECK_EQ(m.violations, ACCEL_EDGETPU_MODEL_V_HEADER | ACCEL_EDGETPU_MODEL_V_SIZE);

    /* bulk in: no buffer, unknown endpoint, nothing offered, babble */
    REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
    CHECK_ST(p.usb_bulk_in(p.user, ACCEL_EDGETPU_EP_OUTPUT, NULL, 8, 10, &done), ACCEL_E_STALL);
    CHECK_ST(p.usb_bulk_in(p.user, 0x84, b, 8, 10, &done), ACCEL_E_STALL);
    CHECK_ST(p.usb_bulk_in(p.user, ACCEL_EDGETPU_EP_IRQ, b, 8, 10, &done), ACCEL_E_TIMEOUT);
    /* after a request the script offers one event and one interrupt at a time */
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 1, 4), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_EVENT, 1, 0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_EVENT, 2, 0), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_IRQ, 0, 0x11), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_IRQ, 0, 0x22), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_OUTPUT, 0, 4), ACCEL_OK);
    {
        accel_edgetpu_usb u;
        accel_edgetpu_event ev;
        accel_edgetpu_irq irq;
        static accel_sim sim;
        REQUIRE_ST(accel_sim_init(&sim), ACCEL_OK);
        REQUIRE_ST(accel_sim_attach(&sim, &p), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_usb_init(&u, &sim.port, 0), ACCEL_OK);
        REQUIRE_ST(accel_edgetpu_usb_send(&u, 1, b, 4), ACCEL_OK);
        CHECK_EQ(m.event_ready, 1);
        CHECK_EQ(m.event_tag, 1);
        CHECK_EQ(m.pos, 2); /* event 2 waits for event 1 to be read */
        CHECK_ST(p.usb_bulk_in(p.user, ACCEL_EDGETPU_EP_EVENT, b, 15, 10, &done),
                 ACCEL_E_OVERFLOW); /* babble: the buffer cannot hold an event */
        CHECK_EQ(m.event_ready, 1);
        CHECK_ST(accel_edgetpu_usb_read_event(&u, &ev), ACCEL_OK);
        CHECK_EQ(ev.tag, 1);
        CHECK_EQ(m.event_tag, 2);
        CHECK_EQ(m.irq_ready, 1);
        CHECK_EQ(m.irq_raw, 0x11);
        CHECK_EQ(m.pos, 4); /* the second interrupt waits for the first */
        CHECK_ST(accel_edgetpu_usb_read_event(&u, &ev), ACCEL_OK);
        CHECK_EQ(ev.tag, 2);
        CHECK_EQ(m.pos, 4);
        CHECK_ST(p.usb_bulk_in(p.user, ACCEL_EDGETPU_EP_IRQ, b, 3, 10, &done), ACCEL_E_OVERFLOW);
        CHECK_ST(accel_edgetpu_usb_read_irq(&u, &irq), ACCEL_OK);
        CHECK_EQ(irq.raw, 0x11);
        CHECK_ST(accel_edgetpu_usb_read_irq(&u, &irq), ACCEL_OK);
        CHECK_EQ(irq.raw, 0x22);
        /* output: a read larger than what is offered gets what is offered */
        CHECK_EQ(m.out_left, 4);
        CHECK_ST(p.usb_bulk_in(p.user, ACCEL_EDGETPU_EP_OUTPUT, b, 32, 10, &done), ACCEL_OK);
        CHECK_EQ(done, 4);
        CHECK_EQ(m.out_left, 0);
        CHECK_EQ(m.nviolations, 0);
    }

    /* expect: kinds outside 1..4, the consumed head dropped, a full script */
    REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
    CHECK_ST(accel_edgetpu_model_expect(&m, 0, 0, 1), ACCEL_E_ARG);
    CHECK_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_IRQ + 1u, 0, 1), ACCEL_E_ARG);
    CHECK_EQ(m.nscript, 0);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 1, 4), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 1, 6), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_encode_usb_header(4, 1, h), ACCEL_OK);
    REQUIRE_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_OK);
    REQUIRE_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, b, 4, 10, &done), ACCEL_OK);
    CHECK_EQ(m.pos, 1);
    CHECK_EQ(m.nviolations, 0);
    REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 2, 8), ACCEL_OK);
    CHECK_EQ(m.pos, 0);
    CHECK_EQ(m.nscript, 2);
    CHECK_EQ(m.script[0].len, 6);
    CHECK_EQ(m.script[1].tag, 2);
    while (m.nscript < ACCEL_EDGETPU_MODEL_SCRIPT)
        REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 0, 1), ACCEL_OK);
    CHECK_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 0, 1), ACCEL_E_FULL);

    /* a request the script does not expect: wrong tag, wrong length, wrong kind, past the end */
    {
        static const struct { uint8_t kind, tag; uint32_t len; } sc[4] = {
            {ACCEL_EDGETPU_MODEL_RECV, 2, 4}, {ACCEL_EDGETPU_MODEL_RECV, 1, 5},
            {ACCEL_EDGETPU_MODEL_OUTPUT, 0, 4}, {0, 0, 0}};
        unsigned k;
        for (k = 0; k < 4; k++) {
            REQUIRE_ST(accel_edgetpu_model_init(&m), ACCEL_OK);
            if (sc[k].kind) {
                REQUIRE_ST(accel_edgetpu_model_expect(&m, sc[k].kind, sc[k].tag, sc[k].len), ACCEL_OK);
            } else { /* one request expected and already made */
                REQUIRE_ST(accel_edgetpu_model_expect(&m, ACCEL_EDGETPU_MODEL_RECV, 1, 4), ACCEL_OK);
                REQUIRE_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_OK);
                REQUIRE_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, b, 4, 10, &done), ACCEL_OK);
                CHECK_EQ(m.nviolations, 0);
            }
            REQUIRE_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, h, 8, 10, &done), ACCEL_OK);
            CHECK_ST(p.usb_bulk_out(p.user, ACCEL_EDGETPU_EP_OUT, b, 4, 10, &done), ACCEL_OK);
            CHECK_EQ(m.violations, ACCEL_EDGETPU_MODEL_V_SCRIPT);
            CHECK_EQ(m.nviolations, 1);
        }
    }
}

/* ------------------------------------------------------------------ bring-up sequencer */
static void test_seq_conditions(void)
{
    static accel_sim_edgetpu_session s;
    accel_edgetpu_seq_ctx ctx;
    accel_edgetpu_step st[3];
    accel_port port;
    fake_usb f;
    accel_edgetpu_usb bad;
    REQUIRE_ST(accel_sim_edgetpu_session_init(&s, 0, NULL, NULL), ACCEL_OK);
    memset(&ctx, 0, sizeof ctx);
    memset(st, 0, sizeof st);
    /* a width other than 32/64 stops at that step */
    st[0].op = ACCEL_EDGETPU_OP_READ;
    st[0].width = 16;
    CHECK_ST(accel_edgetpu_seq_run(&s.drv.usb, st, 1, &ctx), ACCEL_E_ARG);
    CHECK_EQ(ctx.failed_step, 0);
    /* cond 9 names no flag: the step runs */
    REQUIRE_ST(accel_edgetpu_model_set_reg(&s.model, 0x4000u, 0x1234u), ACCEL_OK);
    st[0].width = 32;
    st[0].reg = 0x4000u;
    st[0].cond = 9;
    ctx.flags = 0xFF;
    CHECK_ST(accel_edgetpu_seq_run(&s.drv.usb, st, 1, &ctx), ACCEL_OK);
    CHECK_EQ(ctx.last, 0x1234u);
    /* TEST on a 64-bit register with SF_HI0: the low half matches, the high half does not */
    REQUIRE_ST(accel_edgetpu_model_set_reg(&s.model, 0x4008u, 0x100000005ULL), ACCEL_OK);
    st[0].op = ACCEL_EDGETPU_OP_TEST;
    st[0].width = 64;
    st[0].reg = 0x4008u;
    st[0].cond = 0;
    st[0].flag = 2;
    st[0].mask = 0xF;
    st[0].value = 5;
    st[0].sflags = ACCEL_EDGETPU_SF_HI0;
    ctx.flags = 0x04;
    CHECK_ST(accel_edgetpu_seq_run(&s.drv.usb, st, 1, &ctx), ACCEL_OK);
    CHECK_EQ(ctx.flags, 0); /* cleared: bits 63..32 are not 0 */
    st[0].sflags = 0;
    CHECK_ST(accel_edgetpu_seq_run(&s.drv.usb, st, 1, &ctx), ACCEL_OK);
    CHECK_EQ(ctx.flags, 0x04);
    /* TEST with flag >= 8 records nothing */
    st[0].flag = 8;
    ctx.flags = 0;
    CHECK_ST(accel_edgetpu_seq_run(&s.drv.usb, st, 1, &ctx), ACCEL_OK);
    CHECK_EQ(ctx.flags, 0);
    /* reads that fail: READ, RMW and TEST report the port's status at their step */
    fake_port(&port, &f);
    f.fail = ACCEL_E_TIMEOUT;
    REQUIRE_ST(accel_edgetpu_usb_init(&bad, &port, 0), ACCEL_OK);
    st[0].op = ACCEL_EDGETPU_OP_WRITE;
    st[0].width = 32;
    st[1].op = ACCEL_EDGETPU_OP_READ;
    st[1].width = 32;
    f.fail = ACCEL_OK;
    ctx.last = 99;
    {
        static const uint8_t ops[3] = {ACCEL_EDGETPU_OP_READ, ACCEL_EDGETPU_OP_RMW,
                                       ACCEL_EDGETPU_OP_TEST};
        unsigned k;
        for (k = 0; k < 3; k++) {
            st[0].op = ops[k];
            st[0].flag = 1;
            f.fail = ACCEL_E_TIMEOUT;
            f.calls = 0;
            ctx.flags = 0x02;
            CHECK_ST(accel_edgetpu_seq_run(&bad, st, 2, &ctx), ACCEL_E_TIMEOUT);
            CHECK_EQ(ctx.failed_step, 0);
            CHECK_EQ(f.calls, 1); /* the write of RMW never happened */
            CHECK_EQ(ctx.last, 99);
            CHECK_EQ(ctx.flags, 0x02);
        }
    }
    CHECK_ST(accel_edgetpu_open(&s.drv.usb, ACCEL_EDGETPU_PERF_MAX + 1, 1), ACCEL_E_ARG);
}

/* ------------------------------------------------------------------ DFU */
static void test_dfu_errors(void)
{
    static const uint8_t ok0[1] = {0}, busy_state[1] = {ACCEL_EDGETPU_DFU_DNBUSY};
    uint8_t image[20], scratch[16];
    accel_port port;
    fake_usb f;
    accel_edgetpu_dfu_status ds;
    unsigned i;
    for (i = 0; i < sizeof image; i++) image[i] = (uint8_t)(i + 1);
    fake_port(&port, &f);
    CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 8, image, 0, 10, &ds), ACCEL_E_ZERO_LENGTH);
    CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 0, image, 8, 10, &ds), ACCEL_E_ZERO_LENGTH);
    CHECK_EQ(f.calls, 0);
    /* the device takes fewer bytes than the block */
    f.dn_short = 1;
    CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 8, image, 20, 10, NULL), ACCEL_E_TRUNCATED);
    CHECK_EQ(f.calls, 1);
    f.dn_short = 0;
    /* GETSTATUS answers 5 bytes */
    f.status_len = 5;
    {
        static const uint8_t st1[1] = {ACCEL_EDGETPU_DFU_DNLOAD_IDLE};
        dfu_script(&f, 1, ok0, st1);
        memset(&ds, 0xEE, sizeof ds);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 8, image, 20, 10, &ds), ACCEL_E_TRUNCATED);
        CHECK_EQ(ds.state, 0); /* what was decoded so far: nothing */
    }
    f.status_len = 6;
    /* a device forever busy: bounded polling */
    dfu_script(&f, 1, ok0, busy_state);
    f.calls = 0;
    CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 8, image, 20, 10, &ds), ACCEL_E_TIMEOUT);
    CHECK_EQ(f.calls, 1 + 1001);
    /* manifest (7) is waited out like busy; then a state that is neither idle nor download-idle */
    {
        static const uint8_t st2[2] = {ACCEL_EDGETPU_DFU_MANIFEST, ACCEL_EDGETPU_DFU_IDLE};
        static const uint8_t z2[2] = {0, 0};
        dfu_script(&f, 2, z2, st2);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 8, image, 20, 10, &ds), ACCEL_E_EDGETPU_DFU);
        CHECK_EQ(ds.state, ACCEL_EDGETPU_DFU_IDLE);
        CHECK_EQ(f.dfu_at, 2);
    }
    /* the final zero-length block: waiting-for-reset ends it well, download-idle does not */
    {
        static const uint8_t st3[2] = {ACCEL_EDGETPU_DFU_DNLOAD_IDLE,
                                       ACCEL_EDGETPU_DFU_MANIFEST_WAIT_RESET};
        static const uint8_t st4[1] = {ACCEL_EDGETPU_DFU_DNLOAD_IDLE};
        static const uint8_t z2[2] = {0, 0};
        dfu_script(&f, 2, z2, st3);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 32, image, 20, 10, &ds), ACCEL_OK);
        CHECK_EQ(ds.state, ACCEL_EDGETPU_DFU_MANIFEST_WAIT_RESET);
        dfu_script(&f, 1, z2, st4);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 32, image, 20, 10, &ds), ACCEL_E_EDGETPU_DFU);
    }
    /* GETSTATUS itself fails */
    f.fail = ACCEL_E_IO;
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 8, image, 20, scratch, 16, 10), ACCEL_E_IO);
    f.fail = ACCEL_OK;
    /* verify: scratch smaller than a block; a device that reports more than a block (clamped)
     * and keeps sending full blocks past the image (compared as nothing, then the 16-bit block
     * counter wraps) */
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 8, image, 20, scratch, 7, 10),
             ACCEL_E_BUFFER_TOO_SMALL);
    f.up_got = 3; /* longer than the 1-byte block */
    f.up_fill = 1;
    f.calls = 0;
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 1, image, 1, scratch, 16, 10), ACCEL_E_TOO_LONG);
    CHECK_EQ(f.calls, 65536);
    /* a short first block ends the upload with the image not all seen */
    f.up_got = 4;
    CHECK_ST(accel_edgetpu_dfu_verify(&port, 0, 8, image, 20, scratch, 16, 10),
             ACCEL_E_EDGETPU_VERIFY);
    /* transfer size from the configuration descriptor */
    {
        static const uint8_t short_fn[9] = {9, 2, 0, 0, 0, 0, 0, 0, 0};
        uint8_t cfg[16];
        uint16_t ts = 7;
        memcpy(cfg, short_fn, 9);
        cfg[9] = 6; cfg[10] = 0x21; /* a DFU functional descriptor of 6 bytes: too short */
        memset(cfg + 11, 0, 5);
        CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, 16, &ts), ACCEL_E_MALFORMED);
        cfg[9] = 7; /* long enough, but wTransferSize 0 */
        CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, 16, &ts), ACCEL_E_MALFORMED);
        cfg[14] = 0x40;
        CHECK_ST(accel_edgetpu_dfu_transfer_size(cfg, 16, &ts), ACCEL_OK);
        CHECK_EQ(ts, 0x40);
    }
}

/* The bootloader model refuses what a real one would: DNLOAD out of state or without data,
 * GETSTATUS without room, UPLOAD without a buffer, unknown requests. */
static void test_dfu_model_refusals(void)
{
    static uint8_t mem[64];
    accel_edgetpu_dfu_model d;
    accel_port p;
    uint8_t b[16];
    size_t done = 9;
    memset(b, 0xAB, sizeof b);
    memset(&p, 0, sizeof p);
    REQUIRE_ST(accel_edgetpu_dfu_model_init(&d, mem, sizeof mem), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_dfu_model_port(&d, &p), ACCEL_OK);
    CHECK_ST(p.usb_control(p.user, 0x21, ACCEL_EDGETPU_DFU_DNLOAD, 0, 0, NULL, 4, 10, &done),
             ACCEL_E_STALL);
    CHECK_EQ(d.state, ACCEL_EDGETPU_DFU_ERROR);
    CHECK_EQ(d.len, 0);
    REQUIRE_ST(accel_edgetpu_dfu_model_init(&d, mem, sizeof mem), ACCEL_OK);
    CHECK_ST(p.usb_control(p.user, 0x21, ACCEL_EDGETPU_DFU_DNLOAD, 0, 0, b, 4, 10, &done), ACCEL_OK);
    CHECK_EQ(d.state, ACCEL_EDGETPU_DFU_DNBUSY);
    /* busy: a second block before GETSTATUS is out of state */
    CHECK_ST(p.usb_control(p.user, 0x21, ACCEL_EDGETPU_DFU_DNLOAD, 1, 0, b, 4, 10, &done),
             ACCEL_E_STALL);
    CHECK_EQ(d.state, ACCEL_EDGETPU_DFU_ERROR);
    CHECK_EQ(d.len, 4);
    /* GETSTATUS with 5 bytes of room or no buffer, UPLOAD with no buffer, a class request the
     * model does not know, and DETACH in the IN direction: all stall, nothing changes */
    CHECK_ST(p.usb_control(p.user, 0xA1, ACCEL_EDGETPU_DFU_GETSTATUS, 0, 0, b, 5, 10, &done),
             ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0xA1, ACCEL_EDGETPU_DFU_GETSTATUS, 0, 0, NULL, 6, 10, &done),
             ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0xA1, ACCEL_EDGETPU_DFU_UPLOAD, 0, 0, NULL, 6, 10, &done),
             ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0x21, 5, 0, 0, NULL, 0, 10, &done), ACCEL_E_STALL);
    CHECK_ST(p.usb_control(p.user, 0xA1, ACCEL_EDGETPU_DFU_DETACH, 0, 0, b, 1, 10, &done),
             ACCEL_E_STALL);
    CHECK_EQ(d.getstatus, 0);
    CHECK_EQ(d.uploads, 0);
    CHECK_EQ(d.detached, 0);
    /* UPLOAD past the image: nothing copied */
    memset(b, 0xAB, sizeof b);
    CHECK_ST(p.usb_control(p.user, 0xA1, ACCEL_EDGETPU_DFU_UPLOAD, 1, 0, b, 4, 10, &done), ACCEL_OK);
    CHECK_EQ(done, 0);
    CHECK_EQ(b[0], 0xAB);
}


/* ------------------------------------------------------------------ small helpers' edges */
static void test_helper_edges(void)
{
    uint8_t b[16], h[8];
    uint32_t u32 = 0;
    uint8_t tag = 0;
    size_t len = 0;
    char txt[128];
    accel_edgetpu_insn in;
    accel_port port;
    fake_usb f;
    accel_edgetpu_usb u;
    accel_edgetpu_dfu_status ds;
    uint64_t u64 = 0;
    CHECK_EQ(accel_edgetpu_field_lsb(ACCEL_EDGETPU_NFIELDS), 0);
    CHECK_EQ(accel_edgetpu_field_width(ACCEL_EDGETPU_NFIELDS), 0);
    memset(b, 0, sizeof b);
    CHECK_ST(accel_edgetpu_bits_set(b, 16, 0, 32, 0xFFFFFFFFu), ACCEL_OK); /* any 32-bit value */
    CHECK_EQ(b[3], 0xFF);
    CHECK_ST(accel_edgetpu_bits_get(b, 16, 0, 32, &u32), ACCEL_OK);
    CHECK_EQ(u32, 0xFFFFFFFFu);
    CHECK_ST(accel_edgetpu_prog_build(b, SIZE_MAX / 16u, b, sizeof b, &len), ACCEL_E_TOO_LONG);
    CHECK_ST(accel_edgetpu_encode_usb_header(4, 0, NULL), ACCEL_E_NULL);
    REQUIRE_ST(accel_edgetpu_encode_usb_header(4, 1, h), ACCEL_OK);
    h[7] = 1;
    CHECK_ST(accel_edgetpu_decode_usb_header(h, &u32, &tag), ACCEL_E_MALFORMED);
    /* disassembly: a scalar MOV from a register, a non-ALU scalar op, a buffer too small for
     * the padding */
    memset(&in, 0, sizeof in);
    in.f[ACCEL_EDGETPU_F_ENABLE_SCALAR] = 1;
    in.f[ACCEL_EDGETPU_F_S_OP] = 15;
    in.f[ACCEL_EDGETPU_F_S_X] = 3;
    in.f[ACCEL_EDGETPU_F_IMM_SCALAR] = 2;
    REQUIRE_ST(accel_edgetpu_encode_insn(&in, b), ACCEL_OK);
    CHECK_ST(accel_edgetpu_disasm(b, 0x10, txt, sizeof txt, &len), ACCEL_OK);
    CHECK(strstr(txt, "s3 = MOV s2") != NULL);
    CHECK_EQ(len, strlen(txt));
    in.f[ACCEL_EDGETPU_F_S_OP] = 0x11; /* bit 4: not an ALU op, listed as a plain field */
    REQUIRE_ST(accel_edgetpu_encode_insn(&in, b), ACCEL_OK);
    CHECK_ST(accel_edgetpu_disasm(b, 0x10, txt, sizeof txt, &len), ACCEL_OK);
    CHECK(strstr(txt, " = ") == NULL);
    CHECK(strstr(txt, "NOP") == NULL);
    CHECK(strstr(txt, "=0x11") != NULL);
    CHECK_ST(accel_edgetpu_disasm(b, 0x10, txt, 8, &len), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_ST(accel_edgetpu_disasm(b, 0x10, txt, 12, &len), ACCEL_E_BUFFER_TOO_SMALL);
    /* CSR reads need somewhere to put the value; an empty data stage is fine */
    fake_port(&port, &f);
    REQUIRE_ST(accel_edgetpu_usb_init(&u, &port, 0), ACCEL_OK);
    CHECK_ST(accel_edgetpu_csr_read32(&u, 0, NULL), ACCEL_E_NULL);
    CHECK_ST(accel_edgetpu_csr_read64(&u, 0, NULL), ACCEL_E_NULL);
    CHECK_EQ(f.calls, 0);
    CHECK_ST(accel_edgetpu_csr_read64(&u, 0, &u64), ACCEL_OK);
    CHECK_ST(accel_edgetpu_usb_data(&u, NULL, 0), ACCEL_OK);
    CHECK_EQ(f.calls, 1);
    /* DFU: GETSTATUS fails after a block went down; the status is optional; manifest-sync is
     * waited out */
    {
        static const uint8_t z[3] = {0, 0, 0};
        static const uint8_t st[3] = {ACCEL_EDGETPU_DFU_MANIFEST_SYNC, ACCEL_EDGETPU_DFU_DNLOAD_IDLE,
                                      ACCEL_EDGETPU_DFU_IDLE};
        dfu_script(&f, 3, z, st);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 16, b, 16, 10, NULL), ACCEL_OK);
        CHECK_EQ(f.dfu_at, 3);
        /* the block goes down, then GETSTATUS fails: that status, nothing decoded */
        f.status_fail = ACCEL_E_IO;
        f.calls = 0;
        memset(&ds, 0xEE, sizeof ds);
        CHECK_ST(accel_edgetpu_dfu_download(&port, 0, 16, b, 16, 10, &ds), ACCEL_E_IO);
        CHECK_EQ(f.calls, 2);
        CHECK_EQ(ds.state, 0);
        CHECK_EQ(ds.status, 0);
    }
}


/* ------------------------------------------------------------------ the driver */
/* The hand-made package (int16 input "in" of 10 bytes in two DMAs, int32 output "out" of 8,
 * two instruction chunks, interrupt 1) run with one thing wrong at a time. */
static accel_sim_edgetpu_session ds_;
static uint8_t d_in[10], d_out[8], d_scratch[16];
static const uint8_t *d_ins[1] = {d_in};
static uint8_t *d_outs[1] = {d_out};
static uint32_t d_in_len[1] = {10}, d_out_len[1] = {8};

static accel_status drv_setup(accel_edgetpu_io *io)
{
    accel_sim_edgetpu_io_one(io, d_ins, d_in_len, d_outs, d_out_len, d_scratch, sizeof d_scratch);
    d_ins[0] = d_in;
    d_outs[0] = d_out;
    return accel_sim_edgetpu_session_init(&ds_, 0, NULL, NULL);
}

static void bulk_fault(unsigned op, uint32_t ep, uint32_t skip)
{
    accel_sim_fault f;
    memset(&f, 0, sizeof f);
    f.kind = ACCEL_SIM_FAIL;
    f.ops = op;
    f.has_target = 1;
    f.target = ep;
    f.skip = skip;
    f.count = 1;
    (void)accel_sim_add_fault(&ds_.sim, &f);
}

static void test_driver_errors(void)
{
    static uint8_t pkg[sizeof synth_pkg];
    accel_edgetpu_package m;
    accel_edgetpu_exe e, e2;
    accel_edgetpu_io io;
    memcpy(pkg, synth_pkg, sizeof pkg);
    REQUIRE_ST(accel_edgetpu_package_init(&m, pkg, sizeof pkg), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_package_executable(&m, 0, &e), ACCEL_OK);
    /* what the driver cannot run over USB */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    e2 = e;
    e2.has_dma_hints = 0;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e2, &io), ACCEL_E_UNSUPPORTED);
    e2 = e;
    e2.fully_deterministic = 0;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e2, &io), ACCEL_E_UNSUPPORTED);
    io.scratch_len = ACCEL_EDGETPU_MIN_SCRATCH - 1u;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(ds_.model.recv_requests[0], 0);
    /* an executable claiming no input layers: the input hint names none */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    e2 = e;
    e2.n_inputs = 0;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e2, &io), ACCEL_E_MALFORMED);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INPUT], 0);
    /* input buffers missing: count, lengths, the buffer itself */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    io.n_in = 0;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_NULL);
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    io.in_len = NULL;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_NULL);
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    io.in = NULL;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_NULL);
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    d_ins[0] = NULL;
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_NULL);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INPUT], 0);
    /* output buffers missing: reached after the inputs and the second chunk went out */
    {
        static const int which[4] = {0, 1, 2, 3};
        unsigned k;
        for (k = 0; k < 4; k++) {
            REQUIRE_ST(drv_setup(&io), ACCEL_OK);
            if (which[k] == 0) io.n_out = 0;
            if (which[k] == 1) io.out = NULL;
            if (which[k] == 2) io.out_len = NULL;
            if (which[k] == 3) d_outs[0] = NULL;
            CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_NULL);
            CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INPUT], 2);
            CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INSTRUCTIONS], 2);
        }
    }
    /* the USB fails: on an instruction chunk's data, on the input header, inside the input */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    bulk_fault(ACCEL_SIM_OP_USB_BULK_OUT, ACCEL_EDGETPU_EP_OUT, 1);
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_IO);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INSTRUCTIONS], 0);
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    /* chunk 0 is a header and one bulk transfer per 16-byte scratch window */
    bulk_fault(ACCEL_SIM_OP_USB_BULK_OUT, ACCEL_EDGETPU_EP_OUT, 1u + (SYNTH_PROG0_LEN + 15u) / 16u);
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_IO);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INSTRUCTIONS], 1);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INPUT], 0);
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    bulk_fault(ACCEL_SIM_OP_USB_BULK_OUT, ACCEL_EDGETPU_EP_OUT, 2u + (SYNTH_PROG0_LEN + 15u) / 16u);
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_IO);
    CHECK_EQ(ds_.model.recv_requests[ACCEL_EDGETPU_TAG_INPUT], 0);
    /* the output never comes: a timeout, with a non-fatal interrupt record read and kept */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&ds_.model, ACCEL_EDGETPU_MODEL_RECV, 0, SYNTH_PROG0_LEN), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&ds_.model, ACCEL_EDGETPU_MODEL_RECV, 1, 7), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&ds_.model, ACCEL_EDGETPU_MODEL_RECV, 1, 5), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&ds_.model, ACCEL_EDGETPU_MODEL_RECV, 0, SYNTH_PROG1_LEN), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect(&ds_.model, ACCEL_EDGETPU_MODEL_IRQ, 0, 0x2), ACCEL_OK);
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_TIMEOUT);
    CHECK_EQ(ds_.drv.irq_raw, 0x2);
    CHECK_EQ(ds_.model.nviolations, 0);
    /* the event read fails with an I/O error: no interrupt check, that status */
    REQUIRE_ST(drv_setup(&io), ACCEL_OK);
    REQUIRE_ST(accel_edgetpu_model_expect_exe(&ds_.model, &e), ACCEL_OK);
    bulk_fault(ACCEL_SIM_OP_USB_BULK_IN, ACCEL_EDGETPU_EP_EVENT, 0);
    CHECK_ST(accel_edgetpu_exe_run(&ds_.drv, &e, &io), ACCEL_E_IO);
    CHECK_EQ(ds_.drv.exe_runs, 0);
}

int main(void)
{
    tl_seed(1);
    RUN(test_null_arguments);
    RUN(test_usb_short_and_long_transfers);
    RUN(test_model_refusals);
    RUN(test_seq_conditions);
    RUN(test_dfu_errors);
    RUN(test_dfu_model_refusals);
    RUN(test_helper_edges);
    RUN(test_driver_errors);
    return TEST_END();
}
