/* accel-edgetpu - Coral Edge TPU tool on accel.h.
 *   accel-edgetpu disasm FILE            FILE: a .coral bitstream or a *_edgetpu.tflite
 *   accel-edgetpu disasm --tsv FILE.coral
 *   accel-edgetpu info --json MODEL_edgetpu.tflite
 *   accel-edgetpu plan MODEL_edgetpu.tflite   bring-up + first inference against the simulated
 *                                             device, one line per USB transfer
 *   accel-edgetpu run [--firmware FW.bin] MODEL_edgetpu.tflite INPUT OUTPUT
 *       on a Coral USB Accelerator (libusb); a device still in DFU mode (1a6e:089a) gets FW
 *       (e.g. libedgetpu's apex_latest_single_ep.bin) downloaded, verified and detached first.
 *       INPUT is the input layers' bytes back to back; OUTPUT gets the output layers'.
 * A file that carries the TFLite identifier is a model, never taken as a raw bitstream; a model
 * without an edgetpu-custom-op has not been through edgetpu_compiler and is refused as such.
 * Exit status: 0 ok, 1 bad input or device error (one line: file and reason), 2 usage. */
#include "accel.h"
#include "accel_sim.h"
#include "accel_linux.h"
#include "accel_linux_usb.h"
#include "accel_sim_sessions.h" /* simulator + device model + driver in one call */
#include "cli.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* models, bitstreams and firmware: 1 GiB is far beyond any */
static uint8_t *load(const char *path, size_t *len)
{
    return (uint8_t *)cli_read_file(path, (size_t)1 << 30, len);
}

/* The TFLite file identifier: a model, whatever else it may be. */
static int is_tflite(const uint8_t *buf, size_t n)
{
    return n >= 8 && !memcmp(buf + 4, "TFL3", 4);
}

/* Why a model that accel_edgetpu_package_init_tflite refused cannot be used, in one line; returns 1.
 * ACCEL_E_UNSUPPORTED covers a model without the Edge TPU's custom operator (it never went
 * through edgetpu_compiler) and older package formats: the operator's name appearing nowhere in
 * the file tells the first apart. */
static int model_refused(const char *path, const uint8_t *buf, size_t n, accel_status st)
{
    static const char op[] = "edgetpu-custom-op";
    size_t i;
    int named = 0;
    for (i = 0; !named && i + sizeof op - 1 <= n; i++) named = !memcmp(buf + i, op, sizeof op - 1);
    if (st == ACCEL_E_UNSUPPORTED && !named)
        return cli_fail("%s: no edgetpu-custom-op: compile it with edgetpu_compiler", path);
    return cli_fail("%s: %s model: %s", path,
                    is_tflite(buf, n) ? "not a usable Edge TPU" : "not an Edge TPU",
                    accel_status_str(st));
}

static const char *exe_type(int t)
{
    switch (t) {
    case ACCEL_EDGETPU_STAND_ALONE: return "STAND_ALONE";
    case ACCEL_EDGETPU_PARAMETER_CACHING: return "PARAMETER_CACHING";
    case ACCEL_EDGETPU_EXECUTION_ONLY: return "EXECUTION_ONLY";
    }
    return "?";
}

static const char *desc_name(int d)
{
    static const char *const n[] = {"BASE_ADDRESS_OUTPUT_ACTIVATION", "BASE_ADDRESS_INPUT_ACTIVATION",
                                    "BASE_ADDRESS_PARAMETER", "BASE_ADDRESS_SCRATCH"};
    return d >= 0 && d < 4 ? n[d] : "?";
}

static const char *dtype_name(int d)
{
    switch (d) {
    case 0: return "FIXED_POINT8";
    case 1: return "FIXED_POINT16";
    case 2: return "SIGNED_FIXED_POINT32";
    case 3: return "BFLOAT";
    case 4: return "HALF";
    case 5: return "SINGLE";
    case 8: return "SIGNED_FIXED_POINT8";
    case 9: return "SIGNED_FIXED_POINT16";
    }
    return "?";
}

static void disasm_bits(const uint8_t *p, size_t n)
{
    char line[ACCEL_EDGETPU_DISASM_MAX];
    size_t i;
    for (i = 0; i + 16 <= n; i += 16) {
        if (accel_edgetpu_disasm(p + i, (uint32_t)i, line, sizeof line, NULL) == ACCEL_OK)
            puts(line);
    }
}

static int cmd_disasm(int tsv, const char *path)
{
    size_t n = 0, i;
    uint8_t *buf = load(path, &n);
    accel_edgetpu_package m;
    accel_status st;
    if (!buf) return 1;
    st = accel_edgetpu_package_init_tflite(&m, buf, n);
    if (st == ACCEL_OK && !tsv) {
        uint32_t x, b;
        for (x = 0; x < m.n_executables; x++) {
            accel_edgetpu_exe e;
            if (accel_edgetpu_package_executable(&m, x, &e) != ACCEL_OK) continue;
            for (b = 0; b < e.n_bitstreams; b++) {
                accel_edgetpu_bitstream bs;
                if (accel_edgetpu_exe_bitstream(&e, b, &bs) != ACCEL_OK) continue;
                printf("# executable %lu %s bitstream %lu: %lu instructions\n", (unsigned long)x,
                       exe_type(e.type), (unsigned long)b, (unsigned long)(bs.bits.len / 16));
                disasm_bits(bs.bits.p, bs.bits.len);
            }
        }
        free(buf);
        return 0;
    }
    if (st == ACCEL_OK) {
        free(buf);
        return cli_fail("%s: --tsv takes a .coral bitstream, not a model", path);
    }
    if (is_tflite(buf, n)) { /* a model (truncated, or never compiled), never a bitstream */
        model_refused(path, buf, n, st);
        free(buf);
        return 1;
    }
    if (n == 0 || n % 16 != 0) {
        cli_fail("%s: %s", path,
                 n == 0 ? "empty" : "neither an Edge TPU model nor whole 16-byte bundles");
        free(buf);
        return 1;
    }
    if (!tsv) {
        disasm_bits(buf, n);
    } else {
        unsigned f;
        printf("offset");
        for (f = 0; f < ACCEL_EDGETPU_NFIELDS; f++) printf("\t%s", accel_edgetpu_field_name(f));
        printf("\n");
        for (i = 0; i < n; i += 16) {
            accel_edgetpu_insn in;
            accel_status dst = accel_edgetpu_decode_insn(buf + i, &in);
            if (dst != ACCEL_OK) { /* any 16 bytes decode; say so if that ever changes */
                cli_fail("%s: bundle at 0x%lx: %s", path, (unsigned long)i, accel_status_str(dst));
                free(buf);
                return 1;
            }
            printf("0x%lx", (unsigned long)i);
            for (f = 0; f < ACCEL_EDGETPU_NFIELDS; f++) printf("\t0x%lx", (unsigned long)in.f[f]);
            printf("\n");
        }
    }
    free(buf);
    return 0;
}

static void json_str(accel_edgetpu_view v)
{
    size_t i;
    putchar('"');
    for (i = 0; v.p && i < v.len; i++) {
        uint8_t c = v.p[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static double f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

static void json_layers(const accel_edgetpu_exe *e, int out)
{
    uint32_t i, n = out ? e->n_outputs : e->n_inputs;
    printf("[");
    for (i = 0; i < n; i++) {
        accel_edgetpu_layer l;
        if (accel_edgetpu_exe_layer(e, out, i, &l) != ACCEL_OK) continue;
        printf("%s{\"name\": ", i ? ", " : "");
        json_str(l.name);
        printf(", \"size_bytes\": %lu, \"y_dim\": %ld, \"x_dim\": %ld, \"z_dim\": %ld, "
               "\"data_type\": \"%s\", \"zero_point\": %ld, \"dequantization_factor\": %.9g}",
               (unsigned long)l.size_bytes, (long)l.y_dim, (long)l.x_dim, (long)l.z_dim,
               dtype_name(l.data_type), (long)l.zero_point, f32(l.dequantization_factor_bits));
    }
    printf("]");
}

static int cmd_info_json(const char *path)
{
    size_t n = 0;
    uint8_t *buf = load(path, &n);
    accel_edgetpu_package m;
    accel_status st;
    uint32_t x, b, i;
    if (!buf) return 1;
    st = accel_edgetpu_package_init_tflite(&m, buf, n);
    if (st != ACCEL_OK) {
        model_refused(path, buf, n, st);
        free(buf);
        return 1;
    }
    printf("{\"executables\": [");
    for (x = 0; x < m.n_executables; x++) {
        accel_edgetpu_exe e;
        if (accel_edgetpu_package_executable(&m, x, &e) != ACCEL_OK) continue;
        printf("%s\n  {\"type\": \"%s\", \"parameter_caching_token\": \"0x%016llx\", "
               "\"parameters_len\": %lu, \"batch_size\": %ld, \"scratch_size_bytes\": %ld,\n"
               "   \"bitstreams\": [",
               x ? "," : "", exe_type(e.type), (unsigned long long)e.parameter_caching_token,
               (unsigned long)e.parameters.len, (long)e.batch_size, (long)e.scratch_size_bytes);
        for (b = 0; b < e.n_bitstreams; b++) {
            accel_edgetpu_bitstream bs;
            if (accel_edgetpu_exe_bitstream(&e, b, &bs) != ACCEL_OK) continue;
            printf("%s{\"instructions\": %lu, \"field_offsets\": [", b ? ", " : "",
                   (unsigned long)(bs.bits.len / 16));
            for (i = 0; i < bs.n_field_offsets; i++) {
                accel_edgetpu_field_offset fo;
                if (accel_edgetpu_bitstream_field_offset(&bs, i, &fo) != ACCEL_OK) continue;
                printf("%s\n      {\"desc\": \"%s\", \"position\": \"%s\", \"offset_bit\": %lu, "
                       "\"batch\": %ld, \"name\": ",
                       i ? "," : "", desc_name(fo.desc),
                       fo.position ? "UPPER_32BIT" : "LOWER_32BIT", (unsigned long)fo.offset_bit,
                       (long)fo.batch);
                json_str(fo.name);
                printf("}");
            }
            printf("]}");
        }
        printf("],\n   \"dma_hints\": {\"fully_deterministic\": %s, \"hints\": [",
               e.fully_deterministic ? "true" : "false");
        for (i = 0; i < e.n_hints; i++) {
            accel_edgetpu_hint h;
            const char *dir;
            if (accel_edgetpu_exe_hint(&e, i, &h) != ACCEL_OK) continue;
            dir = h.direction ? "OUTFEED" : "INFEED";
            printf("%s\n      ", i ? "," : "");
            switch (h.kind) {
            case ACCEL_EDGETPU_HINT_DMA:
                printf("{\"type\": \"DMA_DESCRIPTOR\", \"direction\": \"%s\", \"desc\": \"%s\", "
                       "\"offset_in_bytes\": %lu, \"size_in_bytes\": %lu}",
                       dir, desc_name(h.desc), (unsigned long)h.offset_in_bytes,
                       (unsigned long)h.size_in_bytes);
                break;
            case ACCEL_EDGETPU_HINT_INSTRUCTION:
                printf("{\"type\": \"INSTRUCTION\", \"direction\": \"%s\", "
                       "\"instruction_chunk_index\": %lu}",
                       dir, (unsigned long)h.instruction_chunk_index);
                break;
            case ACCEL_EDGETPU_HINT_INTERRUPT:
                printf("{\"type\": \"INTERRUPT\", \"direction\": \"%s\", "
                       "\"interrupt_type\": \"SCALAR_CORE_INT_%d\"}",
                       dir, h.interrupt_type);
                break;
            default:
                printf("{\"type\": \"FENCE\", \"direction\": \"%s\"}", dir);
                break;
            }
        }
        printf("]},\n   \"input_layers\": ");
        json_layers(&e, 0);
        printf(",\n   \"output_layers\": ");
        json_layers(&e, 1);
        printf("}");
    }
    printf("\n]}\n");
    free(buf);
    return 0;
}

/* ---- plan: every USB transfer of bring-up and the first inference, against the model ---- */
static int plan_expect_header = 1;
static uint32_t plan_owed;

static void plan_trace(void *ctx, const accel_sim_event *ev)
{
    (void)ctx;
    if (ev->op == ACCEL_SIM_OP_USB_CONTROL) {
        printf("%s bRequest=%lu wValue=0x%04x wIndex=0x%04x len=%lu",
               (ev->request_type & 0x80u) ? "ctrl_in" : "ctrl_out",
               (unsigned long)ev->target, (unsigned)ev->value, (unsigned)ev->index, (unsigned long)ev->len);
        if (ev->data && ev->done) {
            size_t i;
            printf(" data=");
            for (i = 0; i < ev->done; i++) printf("%02x", ev->data[i]);
        }
        if (ev->status != ACCEL_OK) printf(" status=%s", accel_status_str(ev->status));
        printf("\n");
    } else if (ev->op == ACCEL_SIM_OP_USB_BULK_OUT) {
        printf("bulk_out ep=0x%02lx len=%lu", (unsigned long)ev->target, (unsigned long)ev->len);
        if (plan_expect_header && ev->len == 8 && ev->data) {
            size_t i;
            printf(" header=");
            for (i = 0; i < 8; i++) printf("%s%02x", i ? " " : "", ev->data[i]);
            plan_owed = accel_load_u32le(ev->data);
            plan_expect_header = 0;
        } else if (ev->status == ACCEL_OK) {
            plan_owed -= (uint32_t)ev->done;
            if (plan_owed == 0) plan_expect_header = 1;
        }
        if (ev->status != ACCEL_OK) printf(" status=%s", accel_status_str(ev->status));
        printf("\n");
    } else if (ev->op == ACCEL_SIM_OP_USB_BULK_IN) {
        printf("bulk_in ep=0x%02lx len=%lu", (unsigned long)ev->target, (unsigned long)ev->done);
        if (ev->status != ACCEL_OK) printf(" status=%s", accel_status_str(ev->status));
        printf("\n");
    }
}

/* Buffers for one inference: inputs from `in` (NULL: zeros), outputs malloc'ed. */
typedef struct run_bufs {
    const uint8_t *in_p[8];
    uint32_t in_l[8];
    uint8_t *out_p[8];
    uint32_t out_l[8];
    uint8_t scratch[65536];
} run_bufs;

/* *need: the bytes the input layers take together; with `in`, ACCEL_E_ARG (nothing set up)
 * when in_len is another size. */
static accel_status setup_io(const accel_edgetpu_package *m, run_bufs *rb, accel_edgetpu_io *io,
                             const uint8_t *in, size_t in_len, accel_edgetpu_exe *main_exe,
                             uint64_t *need)
{
    uint32_t idx = 0, i;
    size_t pos = 0;
    accel_status st = accel_edgetpu_package_find(m, ACCEL_EDGETPU_EXECUTION_ONLY, &idx);
    if (st == ACCEL_E_EMPTY) st = accel_edgetpu_package_find(m, ACCEL_EDGETPU_STAND_ALONE, &idx);
    if (st == ACCEL_OK) st = accel_edgetpu_package_executable(m, idx, main_exe);
    if (st != ACCEL_OK) return st;
    if (main_exe->n_inputs > 8 || main_exe->n_outputs > 8) return ACCEL_E_TOO_LONG;
    memset(io, 0, sizeof *io);
    *need = 0;
    for (i = 0; i < main_exe->n_inputs; i++) {
        accel_edgetpu_layer l;
        st = accel_edgetpu_exe_layer(main_exe, 0, i, &l);
        if (st != ACCEL_OK) return st;
        *need += l.size_bytes;
    }
    if (in && *need != (uint64_t)in_len) return ACCEL_E_ARG;
    for (i = 0; i < main_exe->n_inputs; i++) {
        accel_edgetpu_layer l;
        st = accel_edgetpu_exe_layer(main_exe, 0, i, &l);
        if (st != ACCEL_OK) return st;
        rb->in_p[i] = in ? in + pos : (const uint8_t *)calloc(1, l.size_bytes ? l.size_bytes : 1);
        rb->in_l[i] = l.size_bytes;
        pos += l.size_bytes;
    }
    for (i = 0; i < main_exe->n_outputs; i++) {
        accel_edgetpu_layer l;
        st = accel_edgetpu_exe_layer(main_exe, 1, i, &l);
        if (st != ACCEL_OK) return st;
        rb->out_p[i] = (uint8_t *)calloc(1, l.size_bytes ? l.size_bytes : 1);
        rb->out_l[i] = l.size_bytes;
    }
    io->in = rb->in_p;
    io->in_len = rb->in_l;
    io->n_in = main_exe->n_inputs;
    io->out = rb->out_p;
    io->out_len = rb->out_l;
    io->n_out = main_exe->n_outputs;
    io->scratch = rb->scratch;
    io->scratch_len = sizeof rb->scratch;
    return ACCEL_OK;
}

static int cmd_plan(const char *path)
{
    static accel_sim_edgetpu_session es; /* es.model: the simulated chip; es.drv: the driver */
    static run_bufs rb;
    accel_edgetpu_package m;
    accel_edgetpu_exe main_exe;
    accel_edgetpu_io io;
    size_t n = 0;
    uint64_t need;
    uint8_t *buf = load(path, &n);
    uint32_t x;
    int ran = 0;
    accel_status st;
    if (!buf) return 1;
    st = accel_edgetpu_package_init_tflite(&m, buf, n);
    if (st != ACCEL_OK) {
        model_refused(path, buf, n, st);
        free(buf);
        return 1;
    }
    st = setup_io(&m, &rb, &io, NULL, 0, &main_exe, &need);
    if (st != ACCEL_OK) {
        cli_fail("%s: %s", path, accel_status_str(st));
        free(buf);
        return 1;
    }
    st = accel_sim_edgetpu_session_init(&es, 0, plan_trace, NULL);
    /* the device expects the parameter-caching run first, then the main executable */
    for (x = 0; x < m.n_executables && st == ACCEL_OK; x++) {
        accel_edgetpu_exe e;
        st = accel_edgetpu_package_executable(&m, x, &e);
        if (st == ACCEL_OK && e.type == ACCEL_EDGETPU_PARAMETER_CACHING)
            st = accel_edgetpu_model_expect_exe(&es.model, &e);
    }
    if (st == ACCEL_OK) st = accel_edgetpu_model_expect_exe(&es.model, &main_exe);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: simulated device setup: %s\n", path, accel_status_str(st));
    } else {
        printf("# open (libedgetpu USB sequence, performance High, USB 3)\n");
        st = accel_edgetpu_open(&es.drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1);
        if (st == ACCEL_OK) {
            printf("# inference 1 (input zeros; simulated device, synthetic output)\n");
            st = accel_edgetpu_invoke(&es.drv, &m, &io, &ran);
        }
        if (st == ACCEL_OK && es.model.violations) st = ACCEL_E_STATE;
        printf("# %s, parameter caching %s, device violations 0x%lx\n", accel_status_str(st),
               ran ? "ran" : "skipped", (unsigned long)es.model.violations);
    }
    for (x = 0; x < io.n_in; x++) free((void *)(uintptr_t)rb.in_p[x]);
    for (x = 0; x < io.n_out; x++) free(rb.out_p[x]);
    free(buf);
    return st == ACCEL_OK ? 0 : 1;
}

/* ---- run on real hardware through ports/linux (libusb) ---- */
#ifdef ACCEL_HAVE_LIBUSB
/* DFU: wTransferSize from the configuration descriptor, download, verify, detach. */
static accel_status dfu_flash(accel_linux *lx, const char *fw_path)
{
    accel_port port;
    uint8_t cfg[512], scratch[4096];
    size_t n = 0, done = 0;
    uint16_t ts = 0;
    uint8_t *fw = load(fw_path, &n);
    accel_status st;
    if (!fw) return ACCEL_E_ARG;
    st = accel_linux_port(lx, &port);
    if (st == ACCEL_OK) st = accel_port_usb_control(&port, 0x80, 6, 0x0200, 0, cfg, sizeof cfg,
                                                    1000, &done);
    if (st == ACCEL_OK) st = accel_edgetpu_dfu_transfer_size(cfg, done, &ts);
    if (st == ACCEL_OK && ts > sizeof scratch) st = ACCEL_E_TOO_LONG;
    if (st == ACCEL_OK) st = accel_edgetpu_dfu_download(&port, 0, ts, fw, n, 1000, NULL);
    if (st == ACCEL_OK)
        st = accel_edgetpu_dfu_verify(&port, 0, ts, fw, n, scratch, sizeof scratch, 1000);
    if (st == ACCEL_OK) st = accel_edgetpu_dfu_detach(&port, 0, 100, 1000);
    free(fw);
    return st;
}
#endif

/* Open the accelerator (downloading its firmware first when it is in DFU mode), run one
 * inference and write the outputs to out_path. */
static int run_device(const char *fw_path, const accel_edgetpu_package *mp, accel_edgetpu_io *iop,
                      run_bufs *rbp, const char *out_path)
{
#ifdef ACCEL_HAVE_LIBUSB
    static accel_linux lx;
    static accel_edgetpu_driver drv;
    accel_port port;
    uint32_t x;
    int ran = 0, rc = 1;
    accel_status st;
    FILE *fp;
    accel_linux_init(&lx);
    st = accel_linux_usb_open(&lx, ACCEL_EDGETPU_VID, ACCEL_EDGETPU_PID, 0);
    if (st != ACCEL_OK) {
        accel_linux_close(&lx);
        accel_linux_init(&lx);
        if (accel_linux_usb_open(&lx, ACCEL_EDGETPU_DFU_VID, ACCEL_EDGETPU_DFU_PID,
                                 0) == ACCEL_OK) {
            if (!fw_path) {
                fprintf(stderr, "accel-edgetpu: run: the accelerator is in DFU mode (1a6e:089a); give its "
                                "firmware with --firmware\n");
                accel_linux_close(&lx);
                return 1;
            }
            st = dfu_flash(&lx, fw_path);
            accel_linux_close(&lx);
            if (st != ACCEL_OK) {
                fprintf(stderr, "accel-edgetpu: run: firmware download: %s\n", accel_status_str(st));
                return 1;
            }
            /* the device re-enumerates as 18d1:9302 (libedgetpu waits 4 s) */
            accel_linux_delay_ms(NULL, 4000);
            accel_linux_init(&lx);
            st = accel_linux_usb_open(&lx, ACCEL_EDGETPU_VID, ACCEL_EDGETPU_PID, 0);
        }
        if (st != ACCEL_OK) {
            fprintf(stderr, "accel-edgetpu: run: no Coral USB Accelerator (18d1:9302): %s\n",
                    accel_status_str(st));
            accel_linux_close(&lx);
            return 1;
        }
    }
    st = accel_linux_port(&lx, &port);
    if (st == ACCEL_OK) st = accel_edgetpu_driver_init(&drv, &port, 0);
    /* 256-byte outfeed chunks work on USB 2 and 3 (libedgetpu picks 1 KiB on USB 3 only) */
    if (st == ACCEL_OK) st = accel_edgetpu_open(&drv.usb, ACCEL_EDGETPU_PERF_HIGH, 0);
    if (st == ACCEL_OK) st = accel_edgetpu_invoke(&drv, mp, iop, &ran);
    if (st != ACCEL_OK) {
        fprintf(stderr, "accel-edgetpu: run: %s", accel_status_str(st));
        if (st == ACCEL_E_EDGETPU_FATAL)
            fprintf(stderr, " (hib_error_status 0x%016llx, first 0x%016llx)",
                    (unsigned long long)drv.hib_error_status,
                    (unsigned long long)drv.hib_first_error_status);
        fprintf(stderr, "\n");
    } else {
        fp = fopen(out_path, "wb");
        rc = 0;
        for (x = 0; fp && x < iop->n_out; x++)
            if (fwrite(rbp->out_p[x], 1, rbp->out_l[x], fp) != rbp->out_l[x]) rc = 1;
        if (!fp || fclose(fp) != 0) rc = 1;
        if (rc) cli_fail("%s: %s", out_path, strerror(errno));
    }
    (void)accel_edgetpu_close(&drv.usb); /* best effort: the run's own outcome is reported */
    accel_linux_close(&lx);
    return rc;
#else
    (void)fw_path;
    (void)mp;
    (void)iop;
    (void)rbp;
    (void)out_path;
    return cli_fail("run: built without libusb-1.0");
#endif
}

static int cmd_run(const char *fw_path, const char *model_path, const char *in_path,
                   const char *out_path)
{
    static run_bufs rb;
    accel_edgetpu_package m;
    accel_edgetpu_exe main_exe;
    accel_edgetpu_io io;
    size_t n = 0, in_len = 0;
    uint64_t need = 0;
    uint8_t *buf = load(model_path, &n), *in = NULL;
    uint32_t x;
    int rc = 1;
    accel_status st;
    memset(&io, 0, sizeof io);
    if (!buf) return 1;
    in = load(in_path, &in_len);
    if (!in) {
        free(buf);
        return 1;
    }
    /* the model and the input are checked before any device is looked for */
    st = accel_edgetpu_package_init_tflite(&m, buf, n);
    if (st != ACCEL_OK) {
        model_refused(model_path, buf, n, st);
        goto done;
    }
    st = setup_io(&m, &rb, &io, in, in_len, &main_exe, &need);
    if (st == ACCEL_E_ARG) {
        cli_fail("%s: %lu byte%s, the model's input layers take %llu", in_path,
                 (unsigned long)in_len, in_len == 1 ? "" : "s", (unsigned long long)need);
        goto done;
    }
    if (st != ACCEL_OK) {
        cli_fail("%s: %s", model_path, accel_status_str(st));
        goto done;
    }
    rc = run_device(fw_path, &m, &io, &rb, out_path);
done:
    for (x = 0; x < io.n_out; x++) free(rb.out_p[x]);
    free(in);
    free(buf);
    return rc;
}

int main(int argc, char **argv)
{
    cli_start("accel-edgetpu",
              "disassemble, inspect, plan and run Coral Edge TPU models and bitstreams",
              "usage: accel-edgetpu disasm [--tsv] FILE     FILE: a .coral bitstream, or a "
              "*_edgetpu.tflite (not --tsv)\n"
              "       accel-edgetpu info --json MODEL_edgetpu.tflite\n"
              "       accel-edgetpu plan MODEL_edgetpu.tflite   the USB transfers of bring-up and "
              "one inference, simulated\n"
              "       accel-edgetpu run [--firmware FW.bin] MODEL_edgetpu.tflite INPUT OUTPUT\n"
              "           on a Coral USB Accelerator; INPUT: the input layers' bytes back to back\n"
              "A model must have been compiled with edgetpu_compiler.\n"
              "exit status: 0 ok, 1 bad input or device error, 2 usage\n",
              argc, argv);
    if (argc == 3 && strcmp(argv[1], "disasm") == 0) return cmd_disasm(0, argv[2]);
    if (argc == 4 && strcmp(argv[1], "disasm") == 0 && strcmp(argv[2], "--tsv") == 0)
        return cmd_disasm(1, argv[3]);
    if (argc == 4 && strcmp(argv[1], "info") == 0 && strcmp(argv[2], "--json") == 0)
        return cmd_info_json(argv[3]);
    if (argc == 3 && strcmp(argv[1], "plan") == 0) return cmd_plan(argv[2]);
    if (argc == 5 && strcmp(argv[1], "run") == 0) return cmd_run(NULL, argv[2], argv[3], argv[4]);
    if (argc == 7 && strcmp(argv[1], "run") == 0 && strcmp(argv[2], "--firmware") == 0)
        return cmd_run(argv[3], argv[4], argv[5], argv[6]);
    if (argc < 2) return cli_usage(NULL);
    if (strcmp(argv[1], "disasm") && strcmp(argv[1], "info") && strcmp(argv[1], "plan") &&
        strcmp(argv[1], "run"))
        return cli_usage("unknown command %s", argv[1]);
    return cli_usage("wrong arguments for %s", argv[1]);
}
