/* accel-run - run a quantized .tflite model with accel.h's tflite section (bit-exact with
 * TensorFlow Lite Micro's reference kernels) and check a hardware result against it.
 *   accel-run MODEL.tflite --info [--json]      graph inputs and outputs (shape, type,
 *                                               quantization), tensors, operators, arena bytes
 *   accel-run MODEL.tflite --input IN.bin [--input IN2.bin ...] [--output OUT.bin]
 *             [--layers LAYERS.bin] [--compare HW.bin] [--compare-layers EXPECTED.bin] [--json]
 *     IN.bin: the graph inputs' bytes back to back. Several --input: consecutive invocations
 *     without reset (stateful models), the last one's output is written / compared. Without
 *     --output or a comparison the outputs are printed: values, real values, bytes.
 *     --layers: every operator's output tensor of the last invocation, in execution order,
 *     concatenated raw, and its index LAYERS.tsv (one line per output: operator, tensor, type,
 *     shape, offset, bytes; the layout of the goldens' layers.tsv). --compare: HW.bin against
 *     the outputs: exact or not, the count of differing elements, the largest difference in
 *     quantized and in real units, the first differing element. FLOAT32 outputs (a model ending
 *     in DEQUANTIZE) compare as numbers, in real units only. --compare-layers: EXPECTED.bin
 *     (--layers' layout, e.g. a device's dump) against every operator's output: the same counts
 *     per operator, then the first operator that differs. --json adds the outputs' values,
 *     quantized and real.
 *   --twin CPU.tflite: MODEL is a compiled Edge TPU model (an edgetpu-custom-op holds its
 *     graph, which only the chip runs); the twin (the CPU model it was compiled from, with the
 *     same graph inputs and outputs) runs as the reference. Refused for a MODEL without an
 *     edgetpu-custom-op, so a twin is never silently ignored.
 *   --custom-output DEV_OUT.bin: the custom operators' outputs come from this file (what the
 *     device returned: each custom operator's outputs back to back in output order, the
 *     operators in execution order; the same bytes at each invocation) and the CPU operators
 *     around them run here: a compiled Edge TPU model then runs as the Edge TPU and the host
 *     run it. Without it, a run stops at the first custom operator, naming it, with --layers
 *     holding every operator's output before it.
 * An operator the section does not run is named (index, name, builtin code). The command-line
 * conventions are cli.h's (--help, --version; "--" ends the options; a failure is one line on
 * stderr naming the file). Every file is read and checked before the first invocation.
 * A model read from a stream (a pipe, a device) is read only as long as it can be one.
 * Exit status: 0 ok (and comparisons exact), 1 bad model or input, 2 usage, 3 a comparison
 * differs. */
#include "accel.h"
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 64
/* models and their inputs: 1 GiB is far beyond any */
#define RUN_MAX_FILE ((size_t)1 << 30)
/* bad_op when a failure belongs to no operator */
#define NO_OP UINT32_MAX

static uint8_t *load(const char *path, size_t *len)
{
    return (uint8_t *)cli_read_file(path, RUN_MAX_FILE, len);
}

/* A file that must hold `want` bytes (an input, the outputs to compare). A stream is read only
 * one byte past them: /dev/zero is refused at once rather than at RUN_MAX_FILE; a regular file
 * is read whole, so that its size is what the refusal gives. */
static uint8_t *load_sized(const char *path, size_t want, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) return load(path, len);
    return (uint8_t *)cli_read_file(path, want < RUN_MAX_FILE ? want : RUN_MAX_FILE, len);
}

/* A model. From a stream (a pipe, a device: no size to check first) reading stops as soon as
 * its first bytes show it cannot be one, rather than at RUN_MAX_FILE: a flatbuffer begins with
 * the offset of its root table, which lies after that offset and inside the largest file. */
static uint8_t *load_model(const char *path, size_t *len)
{
    struct stat sb;
    FILE *fp;
    uint8_t *buf = NULL, *nb;
    size_t n = 0, cap = 65536, got;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) return load(path, len);
    if (!(fp = cli_open(path))) return NULL;
    if (!(buf = (uint8_t *)malloc(cap + 1))) {
        cli_fail("%s: out of memory", path);
        goto fail;
    }
    for (;;) {
        if (n == cap) {
            if (cap > RUN_MAX_FILE) { /* one byte past the largest was read */
                cli_fail("%s: too large: more than %zu bytes", path, (size_t)RUN_MAX_FILE);
                goto fail;
            }
            cap = cap > RUN_MAX_FILE / 2 ? RUN_MAX_FILE + 1 : cap * 2;
            if (!(nb = (uint8_t *)realloc(buf, cap + 1))) {
                cli_fail("%s: out of memory at %zu bytes", path, n);
                goto fail;
            }
            buf = nb;
        }
        /* the root offset alone first, then the rest in large reads */
        got = fread(buf + n, 1, n < 4 ? 4 - n : cap - n, fp);
        if (got == 0) break;
        n += got;
        if (n == 4 && n - got < 4) {
            uint32_t root = accel_load_u32le(buf);
            if (root < 4) {
                cli_fail("%s: not a TFLite model: its root offset is %u (a flatbuffer's root table follows the offset)",
                         path, (unsigned)root);
                goto fail;
            }
            if (root > RUN_MAX_FILE - 4) {
                cli_fail("%s: not a TFLite model, or too large: its root offset %lu is past %zu bytes", path,
                         (unsigned long)root, (size_t)RUN_MAX_FILE);
                goto fail;
            }
        }
    }
    if (ferror(fp)) {
        cli_fail("%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    fclose(fp);
    *len = n;
    return buf;
fail:
    fclose(fp);
    free(buf);
    return NULL;
}

static int save(const char *path, const uint8_t *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    int bad;
    if (!fp) {
#ifdef EISDIR
        if (errno == EISDIR) return cli_fail("%s: is a directory", path); /* as cli.h words it */
#endif
        return cli_fail("%s: %s", path, strerror(errno));
    }
    bad = n && fwrite(p, 1, n, fp) != n;
    if (fclose(fp) != 0) bad = 1;
    return bad ? cli_fail("%s: write error: %s", path, strerror(errno)) : 0;
}

/* Open the model in buf; 0, or 1 after one line saying why it is not one. */
static int open_model(const char *path, const uint8_t *buf, size_t len, accel_tflite_model *m)
{
    accel_status st;
    if (len == 0) return cli_fail("%s: empty", path);
    st = accel_tflite_open(m, buf, len);
    if (st == ACCEL_OK) return 0;
    if (st != ACCEL_E_MALFORMED) /* a flatbuffer, but a rule of the schema or the graph broken */
        return cli_fail("%s: not a usable TFLite model: %s", path, accel_status_str(st));
    /* bounds broken: the file identifier, which converters write but the schema does not
     * require, tells a cut or damaged model from what may be some other file */
    if (len >= 8 && !memcmp(buf + 4, "TFL3", 4))
        return cli_fail("%s: a cut or damaged TFLite model: %s", path, accel_status_str(st));
    return cli_fail("%s: not a TFLite model, or a cut or damaged one: %s", path, accel_status_str(st));
}

static const char *type_name(int t)
{
    switch (t) {
    case ACCEL_TFLITE_FLOAT32: return "FLOAT32";
    case ACCEL_TFLITE_INT32: return "INT32";
    case ACCEL_TFLITE_UINT8: return "UINT8";
    case ACCEL_TFLITE_INT64: return "INT64";
    case ACCEL_TFLITE_BOOL: return "BOOL";
    case ACCEL_TFLITE_INT16: return "INT16";
    case ACCEL_TFLITE_INT8: return "INT8";
    }
    return "?";
}

/* the tensor's (first) scale, 0 when it has none */
static float scale_of(const accel_tflite_tensor *t) { return accel_tflite_tensor_scale_float(t); }

static void json_view(accel_fb_view v)
{
    size_t i;
    putchar('"');
    for (i = 0; v.p && i < v.len; i++) {
        unsigned c = v.p[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
        else putchar((int)c);
    }
    putchar('"');
}

static void json_str(const char *s)
{
    accel_fb_view v;
    v.p = (const uint8_t *)s;
    v.len = strlen(s);
    json_view(v);
}

static void op_label(int32_t code, char *buf, size_t cap)
{
    const char *n = accel_tflite_op_name(code);
    if (n) snprintf(buf, cap, "%s", n);
    else snprintf(buf, cap, "builtin %d", (int)code);
}

/* Check, then plan: *arena_bytes, or the status with the operator it stopped at (NO_OP when
 * the failure is not an operator's). */
static accel_status plan(const accel_tflite_model *m, size_t *arena_bytes, uint32_t *bad_op, int32_t *bad_code)
{
    size_t w = 0;
    void *work;
    accel_status st = accel_tflite_check(m, bad_op, bad_code);
    if (st != ACCEL_OK) return st;
    *bad_op = NO_OP;
    st = accel_tflite_plan_scratch_size(m, &w);
    if (st != ACCEL_OK) return st;
    work = malloc(w + 4);
    if (!work) return ACCEL_E_FULL;
    st = accel_tflite_plan(m, work, w, arena_bytes);
    free(work);
    return st;
}

/* MODEL is a compiled Edge TPU model (its failures then suggest --twin) */
static int model_is_edgetpu;

/* Why the model cannot run: "error" (and "operator") into the JSON object on stdout when json
 * is set, and one line on stderr in any case; returns 1. */
static int say_bad(const char *path, accel_status st, uint32_t op, int32_t code, int json)
{
    char name[48];
    /* a compiled Edge TPU model's graph is the one custom operator */
    int unsupported = st == ACCEL_E_TFLITE_UNSUPPORTED || st == ACCEL_E_TFLITE_CUSTOM;
    const char *hint = unsupported && code == 32 && model_is_edgetpu
                           ? "; a compiled Edge TPU model: give the CPU model it was compiled from with --twin"
                           : "";
    op_label(code, name, sizeof name);
    if (json) {
        printf("\"error\": \"%s\"", accel_status_str(st));
        if (op != NO_OP)
            printf(", \"operator\": {\"index\": %u, \"name\": \"%s\", \"code\": %d}", (unsigned)op, name,
                   (int)code);
    }
    if (op == NO_OP) return cli_fail("%s: %s", path, accel_status_str(st));
    if (unsupported)
        return cli_fail("%s: unsupported operator %u: %s (builtin code %d)%s", path, (unsigned)op, name, (int)code,
                        hint);
    return cli_fail("%s: operator %u (%s): %s", path, (unsigned)op, name, accel_status_str(st));
}

/* "tensor T "NAME" TYPE [d0,d1] s=SCALE zp=ZP" (or "not quantized") of graph input/output k,
 * for the first lines of --info and the printed outputs */
static int io_line(const accel_tflite_model *m, int is_output, uint32_t k, accel_tflite_tensor *t)
{
    uint32_t ti, d;
    accel_status st = accel_tflite_graph_tensor(m, is_output, k, &ti);
    if (st == ACCEL_OK) st = accel_tflite_tensor_info(m, ti, t);
    if (st != ACCEL_OK) return cli_fail("graph %s %u: %s", is_output ? "output" : "input", (unsigned)k,
                                        accel_status_str(st));
    printf("%s %u: tensor %u \"%.*s\" %s [", is_output ? "output" : "input ", (unsigned)k, (unsigned)ti,
           (int)t->name.len, t->name.p ? (const char *)t->name.p : "", type_name(t->type));
    for (d = 0; d < t->ndims; d++) printf("%s%d", d ? "," : "", (int)t->dims[d]);
    if (!t->n_scales) printf("] not quantized\n");
    else if (t->n_scales == 1) printf("] s=%.9g zp=%d\n", (double)scale_of(t), (int)t->zero_point);
    else printf("] s=%.9g zp=%d (per-channel: %u scales on axis %d)\n", (double)scale_of(t), (int)t->zero_point,
                (unsigned)t->n_scales, (int)t->quantized_dimension);
    return 0;
}

static double f32_at(const uint8_t *p);
static void json_real(double d);
static long elem(const uint8_t *p, int type);

/* Element i of tensor t's data p as a number: its stored value (*q, 1 when it is an integer),
 * and its real value (the stored one for FLOAT32; (q - zero point) * scale when quantized).
 * 0 for a type this tool does not print (INT64 as its low 32 bits). */
static double value_at(const accel_tflite_tensor *t, const uint8_t *p, size_t i, double *real, int *is_int)
{
    size_t es = t->elements ? t->bytes / t->elements : 1;
    long q;
    if (t->type == ACCEL_TFLITE_FLOAT32 && es == 4) {
        *real = f32_at(p + 4 * i);
        *is_int = 0;
        return *real;
    }
    q = es >= 1 && es <= 4 ? elem(p + es * i, t->type) : (long)(int32_t)accel_load_u32le(p + es * i);
    *is_int = 1;
    *real = t->n_scales ? ((double)q - (double)t->zero_point) * (double)scale_of(t) : (double)q;
    return (double)q;
}

/* The graph outputs as numbers: on stdout, each output's description, its values and (when
 * quantized) their real values, up to 64 of each; with json the "outputs" array, every value. */
static int print_outputs(const accel_tflite *rt, int json)
{
    const accel_tflite_model *m = rt->model;
    uint32_t k;
    if (json) printf(", \"outputs\": [");
    for (k = 0; k < m->n_outputs; k++) {
        accel_tflite_tensor t;
        uint32_t ti, d;
        const uint8_t *p;
        size_t n, i, shown;
        int pass, is_int = 0;
        accel_status st = accel_tflite_graph_tensor(m, 1, k, &ti);
        if (st == ACCEL_OK) st = accel_tflite_tensor_info(m, ti, &t);
        if (st == ACCEL_OK) st = accel_tflite_tensor_data(rt, ti, &p, &n);
        if (st != ACCEL_OK) return cli_fail("output %u: %s", (unsigned)k, accel_status_str(st));
        shown = json || t.elements <= 64 ? t.elements : 64;
        if (json) {
            printf("%s{\"index\": %u, \"tensor\": %u, \"name\": ", k ? ", " : "", (unsigned)k, (unsigned)ti);
            json_view(t.name);
            printf(", \"type\": \"%s\", \"shape\": [", type_name(t.type));
            for (d = 0; d < t.ndims; d++) printf("%s%d", d ? ", " : "", (int)t.dims[d]);
            printf("], \"scale\": ");
            if (t.n_scales) printf("%.9g, \"zero_point\": %d", (double)scale_of(&t), (int)t.zero_point);
            else printf("null, \"zero_point\": null");
        } else if (io_line(m, 1, k, &t)) {
            return 1;
        }
        for (pass = 0; pass < 2; pass++) { /* the stored values, then the real ones */
            if (!json && pass == 1 && !t.n_scales) break; /* not quantized: the values are real */
            printf(json ? (pass ? ", \"real\": [" : ", \"values\": [") : (pass ? "  real:  " : "  values:"));
            for (i = 0; i < shown; i++) {
                double real, v = value_at(&t, p, i, &real, &is_int);
                const char *sep = json ? (i ? ", " : "") : " ";
                if (pass == 0 && is_int) printf("%s%ld", sep, (long)v);
                else if (json) {
                    printf("%s", sep);
                    json_real(pass ? real : v);
                } else printf("%s%.9g", sep, pass ? real : v);
            }
            printf(json ? "]" : (shown < t.elements ? " ...\n" : "\n"));
        }
        if (json) printf("}");
    }
    if (json) printf("]");
    return 0;
}

static int info(const char *path, const accel_tflite_model *m, int json)
{
    uint32_t i, k;
    size_t arena = 0;
    uint32_t bad_op = 0;
    int32_t bad_code = 0;
    accel_status st, pst = plan(m, &arena, &bad_op, &bad_code);
    if (json) printf("{\"tensors\": [");
    /* what a user looks for first: the graph's inputs and outputs */
    for (i = 0; !json && i < m->n_inputs + m->n_outputs; i++) {
        accel_tflite_tensor t;
        if (io_line(m, i >= m->n_inputs, i >= m->n_inputs ? i - m->n_inputs : i, &t)) return 1;
    }
    for (i = 0; i < m->n_tensors; i++) {
        accel_tflite_tensor t;
        if ((st = accel_tflite_tensor_info(m, i, &t)) != ACCEL_OK)
            return cli_fail("%s: tensor %u: %s", path, (unsigned)i, accel_status_str(st));
        if (json) {
            printf("%s\n  {\"index\": %u, \"name\": ", i ? "," : "", (unsigned)i);
            json_view(t.name);
            printf(", \"type\": \"%s\", \"shape\": [", type_name(t.type));
            for (k = 0; k < t.ndims; k++) printf("%s%d", k ? ", " : "", (int)t.dims[k]);
            printf("], \"bytes\": %zu, \"scale\": %.9g, \"zero_point\": %d, \"scales\": %u, \"constant\": %s, "
                   "\"variable\": %s}",
                   t.bytes, (double)scale_of(&t), (int)t.zero_point, (unsigned)t.n_scales, t.data ? "true" : "false",
                   t.is_variable ? "true" : "false");
        } else {
            printf("tensor %3u %-6s [", (unsigned)i, type_name(t.type));
            for (k = 0; k < t.ndims; k++) printf("%s%d", k ? "," : "", (int)t.dims[k]);
            printf("] %zu B", t.bytes);
            if (t.n_scales) printf(" s=%.9g zp=%d%s", (double)scale_of(&t), (int)t.zero_point, t.n_scales > 1 ? " per-channel" : "");
            printf("%s%s %.*s\n", t.data ? " const" : "", t.is_variable ? " variable" : "", (int)t.name.len,
                   t.name.p ? (const char *)t.name.p : "");
        }
    }
    if (json) printf("\n], \"operators\": [");
    for (i = 0; i < m->n_ops; i++) {
        accel_tflite_op op;
        char name[48];
        if ((st = accel_tflite_op_info(m, i, &op)) != ACCEL_OK)
            return cli_fail("%s: operator %u: %s", path, (unsigned)i, accel_status_str(st));
        op_label(op.code, name, sizeof name);
        if (json) printf("%s\n  {\"index\": %u, \"name\": \"%s\", \"code\": %d, \"inputs\": [", i ? "," : "",
                         (unsigned)i, name, (int)op.code);
        else printf("op %3u %-28s", (unsigned)i, name);
        for (k = 0; k < op.n_inputs + op.n_outputs; k++) {
            int32_t ti;
            int out = k >= op.n_inputs;
            if ((st = accel_tflite_op_tensor(m, &op, out, out ? k - op.n_inputs : k, &ti)) != ACCEL_OK)
                return cli_fail("%s: operator %u: %s", path, (unsigned)i, accel_status_str(st));
            if (json) printf("%s%s%d", k == op.n_inputs ? "], \"outputs\": [" : "", k && k != op.n_inputs ? ", " : "",
                             (int)ti);
            else printf("%s %d", k == op.n_inputs ? " ->" : "", (int)ti);
        }
        if (json) printf("%s]}", op.n_outputs ? "" : "], \"outputs\": [");
        else putchar('\n');
    }
    if (json) {
        printf("\n], \"inputs\": [");
        for (i = 0; i < m->n_inputs; i++) {
            uint32_t ti = 0;
            (void)accel_tflite_graph_tensor(m, 0, i, &ti);
            printf("%s%u", i ? ", " : "", (unsigned)ti);
        }
        printf("], \"outputs\": [");
        for (i = 0; i < m->n_outputs; i++) {
            uint32_t ti = 0;
            (void)accel_tflite_graph_tensor(m, 1, i, &ti);
            printf("%s%u", i ? ", " : "", (unsigned)ti);
        }
        printf("], ");
        if (pst == ACCEL_OK) printf("\"arena_bytes\": %zu}\n", arena);
        else {
            say_bad(path, pst, bad_op, bad_code, 1);
            printf("}\n");
        }
    } else if (pst == ACCEL_OK) {
        printf("arena: %zu bytes (every byte of the runtime's memory: plan table and tensor data)\n", arena);
    } else {
        /* every operator this build cannot run, each with its types and why, then the first */
        for (i = 0; i < m->n_ops; i++) {
            accel_tflite_refusal r;
            char name[48];
            if (accel_tflite_check_op(m, i, &r) == ACCEL_OK) continue;
            op_label(r.code, name, sizeof name);
            printf("unsupported op %3u %-28s", (unsigned)i, name);
            for (k = 0; k < r.n_types; k++)
                printf("%s%s", k == r.n_inputs ? " -> " : " ",
                       r.types[k] < 0 ? "-" : accel_tflite_type_name(r.types[k]) ? accel_tflite_type_name(r.types[k]) : "?");
            printf(": %s\n", r.reason);
        }
        say_bad(path, pst, bad_op, bad_code, 0);
    }
    return pst == ACCEL_OK ? 0 : 1;
}

/* One operator output as on_op saw it: where it lies in the layers' bytes. */
typedef struct layer_rec {
    uint32_t op, tensor;
    int32_t code;
    size_t off;
    accel_tflite_tensor t;
} layer_rec;

typedef struct layers_out {
    uint8_t *p;
    size_t len, cap;
    layer_rec *rec;
    size_t n_rec, rec_cap;
    int out_of_memory; /* a layer could not be kept: the file would be short */
} layers_out;

static void on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    layers_out *l = (layers_out *)user;
    if (l->out_of_memory) return;
    if (l->len + t->bytes > l->cap) {
        size_t cap = (l->cap + t->bytes) * 2;
        uint8_t *p = (uint8_t *)realloc(l->p, cap);
        if (!p) {
            l->out_of_memory = 1;
            return;
        }
        l->p = p;
        l->cap = cap;
    }
    if (l->n_rec == l->rec_cap) {
        size_t cap = l->rec_cap ? l->rec_cap * 2 : 64;
        layer_rec *r = (layer_rec *)realloc(l->rec, cap * sizeof *r);
        if (!r) {
            l->out_of_memory = 1;
            return;
        }
        l->rec = r;
        l->rec_cap = cap;
    }
    l->rec[l->n_rec].op = op_index;
    l->rec[l->n_rec].tensor = tensor;
    l->rec[l->n_rec].code = code;
    l->rec[l->n_rec].off = l->len;
    l->rec[l->n_rec].t = *t;
    l->n_rec++;
    memcpy(l->p + l->len, data, t->bytes);
    l->len += t->bytes;
}

/* The index of the layers' bytes, in the layout of the goldens' layers.tsv: one line per
 * operator output (operator index and name, tensor index and name, type, shape, offset, bytes). */
static int save_index(const char *path, const layers_out *l)
{
    FILE *fp = fopen(path, "w");
    size_t r, c;
    uint32_t d;
    int bad;
    if (!fp) return cli_fail("%s: %s", path, strerror(errno));
    fprintf(fp, "op_index\top\ttensor_index\ttensor_name\ttype\tshape\toffset\tbytes\n");
    for (r = 0; r < l->n_rec; r++) {
        const layer_rec *x = &l->rec[r];
        char name[48];
        op_label(x->code, name, sizeof name);
        fprintf(fp, "%u\t%s\t%u\t", (unsigned)x->op, name, (unsigned)x->tensor);
        for (c = 0; x->t.name.p && c < x->t.name.len; c++) { /* a tab or line break would break the table */
            int ch = x->t.name.p[c];
            fputc(ch == '\t' || ch == '\n' || ch == '\r' ? ' ' : ch, fp);
        }
        fprintf(fp, "\t%s\t", type_name(x->t.type));
        for (d = 0; d < x->t.ndims; d++) fprintf(fp, "%s%d", d ? "," : "", (int)x->t.dims[d]);
        fprintf(fp, "\t%zu\t%zu\n", x->off, x->t.bytes);
    }
    bad = ferror(fp);
    if (fclose(fp) != 0) bad = 1;
    return bad ? cli_fail("%s: write error: %s", path, strerror(errno)) : 0;
}

/* LAYERS.bin's index: LAYERS.tsv (the .bin replaced, else .tsv added); NULL when out of memory */
static char *index_path(const char *layers)
{
    size_t n = strlen(layers);
    char *p = (char *)malloc(n + 5);
    if (!p) return NULL;
    memcpy(p, layers, n + 1);
    if (n > 4 && !strcmp(p + n - 4, ".bin")) n -= 4;
    memcpy(p + n, ".tsv", 5);
    return p;
}

/* A difference in real units as JSON: a number, or null when it is not finite (a NaN against a
 * number, or an infinity). */
static void json_real(double d)
{
    if (d == d && d - d == 0.0) printf("%.9g", d);
    else printf("null");
}

static double f32_at(const uint8_t *p)
{
    uint32_t b = accel_load_u32le(p);
    float f;
    memcpy(&f, &b, 4);
    return (double)f;
}

static long elem(const uint8_t *p, int type)
{
    switch (type) {
    case ACCEL_TFLITE_INT8: return (int8_t)p[0];
    case ACCEL_TFLITE_UINT8: case ACCEL_TFLITE_BOOL: return p[0];
    case ACCEL_TFLITE_INT16: return (int16_t)(uint16_t)(p[0] | (p[1] << 8));
    default: return (int32_t)accel_load_u32le(p);
    }
}

/* What a comparison found, over one tensor or several back to back. */
typedef struct cmp_stats {
    size_t elements, differing, qelems; /* qelems: elements compared as integers */
    long first, maxq;
    double maxr;
} cmp_stats;

static void cmp_init(cmp_stats *c)
{
    memset(c, 0, sizeof *c);
    c->first = -1;
}

/* Compare n bytes of hw with tensor t's reference bytes p into c. Quantized tensors compare as
 * integers, their difference times the scale is the real one; FLOAT32 (a model ending in
 * DEQUANTIZE) compares as numbers (equal values are the same, so -0 and 0 are; two NaNs are the
 * same, a NaN and a number differ by an infinite amount) and counts in real units only. what
 * names the tensor in a warning. */
static void cmp_tensor(const char *what, const accel_tflite_tensor *t, const uint8_t *p, size_t n,
                       const uint8_t *hw, cmp_stats *c)
{
    size_t es = t->elements ? n / t->elements : 1, i;
    int type = t->type;
    if (t->type == ACCEL_TFLITE_FLOAT32 && es == 4) {
        for (i = 0; i + 4 <= n; i += 4, c->elements++) {
            double a = f32_at(p + i), b = f32_at(hw + i), d;
            if (a == b || (a != a && b != b)) continue;
            d = a != a || b != b ? HUGE_VAL : fabs(a - b);
            c->differing++;
            if (c->first < 0) c->first = (long)c->elements;
            if (!(d <= c->maxr)) c->maxr = d;
        }
        return;
    }
    if (es == 0 || es > 4) {
        fprintf(stderr, "%s: %s: %s tensors are compared bytewise only\n", cli_name, what, type_name(t->type));
        es = 1;
        type = ACCEL_TFLITE_UINT8; /* one byte at a time: never read past the tensor */
    }
    for (i = 0; i + es <= n; i += es, c->elements++, c->qelems++) {
        long a = elem(p + i, type), b = elem(hw + i, type), d = a > b ? a - b : b - a;
        if (d == 0) continue;
        c->differing++;
        if (c->first < 0) c->first = (long)c->elements;
        if (d > c->maxq) c->maxq = d;
        if ((double)d * (double)scale_of(t) > c->maxr) c->maxr = (double)d * (double)scale_of(t);
    }
}

/* The fields of a comparison in JSON (no braces) */
static void cmp_json(const cmp_stats *c)
{
    printf("\"exact\": %s, \"elements\": %zu, \"differing\": %zu, \"max_abs_diff_q\": ",
           c->differing ? "false" : "true", c->elements, c->differing);
    /* nothing compared as a quantized integer (all FLOAT32): no quantized difference either */
    if (c->qelems) printf("%ld", c->maxq);
    else printf("null");
    printf(", \"max_abs_diff_real\": ");
    json_real(c->maxr);
    printf(", \"first_index\": %ld", c->first);
}

/* "exact (N elements)" or "D of N elements differ; ..." */
static void cmp_text(const cmp_stats *c)
{
    if (!c->differing) printf("exact (%zu elements)\n", c->elements);
    else if (c->qelems)
        printf("%zu of %zu elements differ; max |diff| %ld quantized, %.9g real; first at element %ld\n", c->differing,
               c->elements, c->maxq, c->maxr, c->first);
    else
        printf("%zu of %zu elements differ; max |diff| %.9g real; first at element %ld\n", c->differing, c->elements,
               c->maxr, c->first);
}

/* Compare hw with the outputs (back to back; the caller checked the sizes agree); 0 exact,
 * 3 different, 1 error. */
static int compare(const char *path, const accel_tflite *rt, const uint8_t *hw, size_t hw_len, int json)
{
    const accel_tflite_model *m = rt->model;
    size_t off = 0;
    cmp_stats c;
    uint32_t k;
    cmp_init(&c);
    for (k = 0; k < m->n_outputs; k++) {
        uint32_t ti;
        accel_tflite_tensor t;
        const uint8_t *p;
        size_t n;
        char what[32];
        accel_status st = accel_tflite_graph_tensor(m, 1, k, &ti);
        if (st == ACCEL_OK) st = accel_tflite_tensor_info(m, ti, &t);
        if (st == ACCEL_OK) st = accel_tflite_tensor_data(rt, ti, &p, &n);
        if (st != ACCEL_OK) return cli_fail("%s: output %u: %s", path, (unsigned)k, accel_status_str(st));
        if (n > hw_len - off) return cli_fail("%s: output %u: its bytes run past the outputs", path, (unsigned)k);
        snprintf(what, sizeof what, "output %u", (unsigned)k);
        cmp_tensor(what, &t, p, n, hw + off, &c);
        off += n;
    }
    if (off != hw_len) return cli_fail("%s: the outputs take %zu bytes, not %zu", path, off, hw_len);
    if (json) {
        printf("\"compare\": {");
        cmp_json(&c);
        printf("}");
    } else {
        printf("compare: ");
        cmp_text(&c);
    }
    return c.differing ? 3 : 0;
}

/* Compare expected (--layers' layout, the caller checked its size) with every operator's output
 * of the last invocation: each operator's counts, then the first that differs; 0 all exact,
 * 3 one differs. */
static int compare_layers(const layers_out *l, const uint8_t *expected, int json)
{
    size_t r, elements = 0, bad_layers = 0;
    const layer_rec *first = NULL;
    if (json) printf("\"compare_layers\": {\"per_layer\": [");
    for (r = 0; r < l->n_rec; r++) {
        const layer_rec *x = &l->rec[r];
        cmp_stats c;
        char what[48], name[48];
        cmp_init(&c);
        snprintf(what, sizeof what, "operator %u tensor %u", (unsigned)x->op, (unsigned)x->tensor);
        cmp_tensor(what, &x->t, l->p + x->off, x->t.bytes, expected + x->off, &c);
        op_label(x->code, name, sizeof name);
        elements += c.elements;
        if (c.differing) {
            bad_layers++;
            if (!first) first = x;
        }
        if (json) {
            printf("%s\n  {\"op\": %u, \"name\": \"%s\", \"tensor\": %u, ", r ? "," : "", (unsigned)x->op, name,
                   (unsigned)x->tensor);
            cmp_json(&c);
            printf("}");
        } else {
            printf("layer %3u %s tensor %u: ", (unsigned)x->op, name, (unsigned)x->tensor);
            cmp_text(&c);
        }
    }
    if (json) {
        printf("\n], \"exact\": %s, \"layers\": %zu, \"differing_layers\": %zu, \"first_op\": %ld, \"first_tensor\": %ld}",
               first ? "false" : "true", l->n_rec, bad_layers, first ? (long)first->op : -1L,
               first ? (long)first->tensor : -1L);
    } else if (!first) {
        printf("compare-layers: exact (%zu layers, %zu elements)\n", l->n_rec, elements);
    } else {
        char name[48];
        op_label(first->code, name, sizeof name);
        printf("compare-layers: first differing operator %u (%s, tensor %u); %zu of %zu layers differ\n",
               (unsigned)first->op, name, (unsigned)first->tensor, bad_layers, l->n_rec);
    }
    return first ? 3 : 0;
}

/* 1 when the model's operator codes name edgetpu-custom-op, the operator the Edge TPU compiler
 * puts its compiled graph in; read from the (already opened, so bounds-checked) flatbuffer. */
static int is_edgetpu(const uint8_t *buf, size_t len)
{
    accel_fb_table root, t;
    size_t codes, p;
    uint32_t n, k;
    if (accel_fb_root(&root, buf, len) != ACCEL_OK || accel_fb_vector(&root, 1, 4, &codes, &n) != ACCEL_OK) return 0;
    for (k = 0; k < n; k++) {
        accel_fb_view v;
        if (accel_fb_elem(buf, len, codes, k, &p) == ACCEL_OK && accel_fb_table_at(&t, buf, len, p) == ACCEL_OK &&
            accel_fb_string(&t, 1, &v) == ACCEL_OK && v.p && v.len == 17 && !memcmp(v.p, "edgetpu-custom-op", 17))
            return 1;
    }
    return 0;
}

/* "TYPE [d0,d1,...] s=SCALE zp=ZP" of a graph tensor, for a message. */
static void describe(const accel_tflite_tensor *t, char *buf, size_t cap)
{
    uint32_t d;
    size_t n = (size_t)snprintf(buf, cap, "%s [", type_name(t->type));
    for (d = 0; d < t->ndims && n < cap; d++) n += (size_t)snprintf(buf + n, cap - n, "%s%d", d ? "," : "", (int)t->dims[d]);
    if (n < cap) snprintf(buf + n, cap - n, "] s=%.9g zp=%d", (double)scale_of(t), (int)t->zero_point);
}

/* The twin stands in for the compiled model only if it takes and gives the same tensors: the
 * same count of graph inputs and outputs, each of the same type, shape and quantization (the
 * Edge TPU compiler keeps the CPU model's). 0, or 1 after one line naming the first that
 * differs. */
static int same_io(const char *path, const accel_tflite_model *m, const char *twin, const accel_tflite_model *t)
{
    int io;
    for (io = 0; io < 2; io++) {
        const char *what = io ? "output" : "input";
        uint32_t k, n = io ? m->n_outputs : m->n_inputs, tn = io ? t->n_outputs : t->n_inputs;
        if (n != tn)
            return cli_fail("%s: %u graph %ss, %s has %u: not the model it was compiled from", twin, (unsigned)tn, what,
                            path, (unsigned)n);
        for (k = 0; k < n; k++) {
            uint32_t a, b, d;
            accel_tflite_tensor x, y;
            int same;
            char dx[160], dy[160];
            if (accel_tflite_graph_tensor(m, io, k, &a) != ACCEL_OK || accel_tflite_tensor_info(m, a, &x) != ACCEL_OK ||
                accel_tflite_graph_tensor(t, io, k, &b) != ACCEL_OK || accel_tflite_tensor_info(t, b, &y) != ACCEL_OK)
                return cli_fail("%s: graph %s %u: unreadable", twin, what, (unsigned)k);
            same = x.type == y.type && x.ndims == y.ndims && x.n_scales == y.n_scales &&
                   x.scale_bits == y.scale_bits && x.zero_point == y.zero_point;
            for (d = 0; same && d < x.ndims; d++) same = x.dims[d] == y.dims[d];
            if (!same) {
                describe(&y, dy, sizeof dy);
                describe(&x, dx, sizeof dx);
                return cli_fail("%s: graph %s %u is %s, %s's is %s: not the model it was compiled from", twin, what,
                                (unsigned)k, dy, path, dx);
            }
        }
    }
    return 0;
}

/* The custom operators' outputs: the --custom-output file, consumed in execution order at each
 * invocation; without one, a custom operator stops the run there (it is named). */
static struct {
    uint8_t *p;
    size_t len, at;
} feed;

static accel_status custom_kernel(void *user, const accel_tflite *rt, const accel_tflite_custom_io *io)
{
    uint32_t k;
    (void)user;
    (void)rt;
    if (!feed.p) return ACCEL_E_TFLITE_CUSTOM;
    for (k = 0; k < io->n_outputs; k++) {
        if (io->out_len[k] > feed.len - feed.at) return ACCEL_E_TOO_LONG; /* checked when read: never */
        memcpy(io->out[k], feed.p + feed.at, io->out_len[k]);
        feed.at += io->out_len[k];
    }
    return ACCEL_OK;
}

static const accel_tflite_custom catch_all = {NULL, custom_kernel, NULL};

/* The bytes every custom operator's outputs take, together. */
static accel_status custom_bytes(const accel_tflite_model *m, size_t *total)
{
    uint32_t i, k;
    *total = 0;
    for (i = 0; i < m->n_ops; i++) {
        accel_tflite_op op;
        accel_status st = accel_tflite_op_info(m, i, &op);
        if (st != ACCEL_OK) return st;
        if (op.code != 32) continue;
        for (k = 0; k < op.n_outputs; k++) {
            int32_t ti = -1;
            accel_tflite_tensor t;
            st = accel_tflite_op_tensor(m, &op, 1, k, &ti);
            if (st == ACCEL_OK) st = ti < 0 ? ACCEL_E_TFLITE_ARITY : accel_tflite_tensor_info(m, (uint32_t)ti, &t);
            if (st != ACCEL_OK) return st;
            *total += t.bytes;
        }
    }
    return ACCEL_OK;
}

static const char USAGE[] =
    "usage: accel-run MODEL.tflite --info [--json]\n"
    "       accel-run MODEL.tflite --input IN.bin [--input IN2.bin ...] [--output OUT.bin]\n"
    "                 [--layers LAYERS.bin] [--compare HW.bin] [--compare-layers EXPECTED.bin]\n"
    "                 [--json] [--twin CPU.tflite] [--custom-output DEV_OUT.bin]\n"
    "  --info      the graph's inputs and outputs (shape, type, quantization), tensors,\n"
    "              operators and the arena's bytes\n"
    "  --input     the graph inputs' bytes back to back; several: consecutive invocations\n"
    "              without reset (stateful models), the last one's outputs are the result\n"
    "  --output    the outputs' bytes, back to back\n"
    "  --layers    every operator's output of the last invocation, in execution order, and\n"
    "              its index LAYERS.tsv (operator, tensor, type, shape, offset, bytes)\n"
    "  --compare   HW.bin against the outputs: exact or not, how many elements differ, the\n"
    "              largest difference (quantized and real), the first differing element;\n"
    "              FLOAT32 outputs compare as numbers, in real units only\n"
    "  --compare-layers  EXPECTED.bin (--layers' layout) against every operator's output:\n"
    "              the counts per operator, then the first operator that differs\n"
    "  --json      the result as one JSON object on stdout (with the outputs' values,\n"
    "              quantized and real)\n"
    "  without --output or a comparison the outputs are printed: values, real values, bytes\n"
    "  --twin      MODEL is a compiled Edge TPU model (it has an edgetpu-custom-op, which\n"
    "              accel does not run): CPU.tflite, the model it was compiled from, runs\n"
    "              in its place as the reference (--info then describes CPU.tflite); its\n"
    "              graph inputs and outputs must be MODEL's. Refused for a MODEL without\n"
    "              an edgetpu-custom-op, which runs as it is\n"
    "  --custom-output  the custom operators' outputs (each one's outputs back to back, in\n"
    "              execution order: what the device returned); the CPU operators run here.\n"
    "              Without it a run stops at the first custom operator, --layers holding\n"
    "              every operator's output before it\n"
    "exit status: 0 ok (and comparisons exact), 1 a bad model or input, 2 usage,\n"
    "             3 a comparison differs\n";

/* The bytes of the graph's inputs (is_output 0) or outputs (1), back to back. */
static accel_status graph_bytes(const accel_tflite_model *m, int is_output, size_t *total)
{
    uint32_t k, n = is_output ? m->n_outputs : m->n_inputs;
    *total = 0;
    for (k = 0; k < n; k++) {
        uint32_t ti;
        accel_tflite_tensor t;
        accel_status st = accel_tflite_graph_tensor(m, is_output, k, &ti);
        if (st == ACCEL_OK) st = accel_tflite_tensor_info(m, ti, &t);
        if (st != ACCEL_OK) return st;
        if (t.bytes > SIZE_MAX - *total) return ACCEL_E_TOO_LONG;
        *total += t.bytes;
    }
    return ACCEL_OK;
}

/* The element size every graph output shares, 0 when they differ (for a clearer size message). */
static size_t out_elem_size(const accel_tflite_model *m)
{
    uint32_t k, ti;
    size_t es = 0;
    for (k = 0; k < m->n_outputs; k++) {
        accel_tflite_tensor t;
        size_t e;
        if (accel_tflite_graph_tensor(m, 1, k, &ti) != ACCEL_OK || accel_tflite_tensor_info(m, ti, &t) != ACCEL_OK ||
            !t.elements)
            return 0;
        e = t.bytes / t.elements;
        if (k && e != es) return 0;
        es = e;
    }
    return es;
}

/* The builtin code of operator i, looked up rather than taken from a failed call (-1 if none). */
static int32_t op_code(const accel_tflite_model *m, uint32_t i)
{
    accel_tflite_op op;
    return accel_tflite_op_info(m, i, &op) == ACCEL_OK ? op.code : -1;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *layers_path = NULL, *cmp_path = NULL, *twin = NULL,
               *given_path, *lcmp_path = NULL, *custom_path = NULL;
    const char *inputs[MAX_INPUTS];
    uint8_t *in[MAX_INPUTS];
    int n_in = 0, want_info = 0, json = 0, no_more_options = 0, i, rc = 0;
    uint8_t *buf, *obuf, *hw = NULL, *lexp = NULL;
    size_t len, arena_bytes = 0, in_bytes = 0, out_bytes = 0, olen = 0, hlen = 0, layer_bytes = 0, lexp_len = 0;
    void *arena;
    accel_tflite_model m;
    accel_tflite rt;
    layers_out lo = {NULL, 0, 0, NULL, 0, 0, 0};
    accel_status st;
    uint32_t bad_op = 0, k;
    int32_t bad_code = 0;
    cli_start("accel-run",
              "run a quantized .tflite model with accel.h's tflite section (bit-exact with TensorFlow "
              "Lite Micro's reference kernels) and check a hardware result against it",
              USAGE, argc, argv);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], **slot;
        if (no_more_options || a[0] != '-' || !a[1]) {
            if (model_path) return cli_usage("one MODEL only: %s and %s given", model_path, a);
            model_path = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            no_more_options = 1;
            continue;
        }
        if (!strcmp(a, "--info")) {
            want_info = 1;
            continue;
        }
        if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        cli_std_option(a);
        if (!strcmp(a, "--input")) {
            if (n_in == MAX_INPUTS) return cli_usage("at most %d --input", MAX_INPUTS);
            slot = &inputs[n_in++];
            *slot = NULL;
        } else if (!strcmp(a, "--output")) slot = &out_path;
        else if (!strcmp(a, "--layers")) slot = &layers_path;
        else if (!strcmp(a, "--compare")) slot = &cmp_path;
        else if (!strcmp(a, "--compare-layers")) slot = &lcmp_path;
        else if (!strcmp(a, "--twin")) slot = &twin;
        else if (!strcmp(a, "--custom-output")) slot = &custom_path;
        else return cli_usage("unknown option %s", a);
        if (i + 1 >= argc) return cli_usage("%s needs a FILE", a);
        if (*slot) return cli_usage("%s given twice", a);
        *slot = argv[++i];
    }
    if (!model_path) return cli_usage("no MODEL given");
    if (want_info && (n_in || out_path || layers_path || cmp_path || lcmp_path || custom_path))
        return cli_usage("--info runs nothing: no --input, --output, --layers, --compare, --compare-layers or "
                         "--custom-output with it");
    if (twin && custom_path)
        return cli_usage("--twin runs the CPU model in the compiled one's place, --custom-output the compiled one with "
                         "the device's outputs: one of them");
    if (!want_info && n_in == 0) return cli_usage("--info or --input IN.bin: what to do with %s", model_path);

    buf = load_model(model_path, &len);
    if (!buf || open_model(model_path, buf, len, &m)) return 1;
    given_path = model_path;
    model_is_edgetpu = is_edgetpu(buf, len);
    if (twin) {
        /* from here on the twin is the model that runs; MODEL only had to agree with it */
        accel_tflite_model tm;
        uint8_t *tbuf;
        size_t tlen;
        if (!model_is_edgetpu)
            return cli_fail("%s: has no edgetpu-custom-op, so it is no compiled Edge TPU model: --twin is for "
                            "those; run it without --twin",
                            model_path);
        tbuf = load_model(twin, &tlen);
        if (!tbuf || open_model(twin, tbuf, tlen, &tm)) return 1;
        if (is_edgetpu(tbuf, tlen))
            return cli_fail("%s: is a compiled Edge TPU model too: --twin takes the CPU model %s was compiled from",
                            twin, model_path);
        if (same_io(model_path, &m, twin, &tm)) return 1;
        free(buf);
        buf = tbuf;
        len = tlen;
        m = tm;
        model_path = twin;
        model_is_edgetpu = 0;
    } else if (model_is_edgetpu && !want_info && !custom_path) {
        return cli_fail("%s: a compiled Edge TPU model (an edgetpu-custom-op): give the CPU model it was "
                        "compiled from with --twin, which then runs as the reference",
                        model_path);
    }
    if (want_info) {
        rc = info(model_path, &m, json);
        free(buf);
        return rc;
    }

    /* every custom operator runs through custom_kernel: the file's bytes, or a stop there */
    if (custom_path) {
        size_t need = 0;
        st = custom_bytes(&m, &need);
        if (st != ACCEL_OK) return cli_fail("%s: %s", model_path, accel_status_str(st));
        if (need == 0)
            return cli_fail("%s: has no custom operator, so no --custom-output to take", model_path);
        feed.p = load_sized(custom_path, need, &feed.len);
        if (!feed.p) return 1;
        if (feed.len != need)
            return cli_fail("%s: %zu byte%s, the custom operators' outputs take %zu", custom_path, feed.len,
                            feed.len == 1 ? "" : "s", need);
    }
    st = accel_tflite_set_custom(&m, &catch_all, 1);
    if (st != ACCEL_OK) return cli_fail("%s: %s", model_path, accel_status_str(st));
    st = plan(&m, &arena_bytes, &bad_op, &bad_code);
    if (st == ACCEL_OK) {
        arena = malloc(arena_bytes + 4);
        if (!arena) return cli_fail("%s: out of memory for a %zu-byte arena", model_path, arena_bytes);
        st = accel_tflite_init(&rt, &m, arena, arena_bytes);
        /* init's own refusals of the arena are no operator's */
        bad_op = st == ACCEL_E_ALIGN || st == ACCEL_E_TFLITE_ARENA ? NO_OP : rt.bad_op;
        bad_code = op_code(&m, bad_op);
    }
    if (st != ACCEL_OK) {
        if (json) printf("{");
        say_bad(model_path, st, bad_op, bad_code, json);
        if (json) printf("}\n");
        return 1;
    }
    st = graph_bytes(&m, 0, &in_bytes);
    if (st == ACCEL_OK) st = graph_bytes(&m, 1, &out_bytes);
    if (st != ACCEL_OK) return cli_fail("%s: %s", model_path, accel_status_str(st));
    /* every file is read and checked before the first invocation */
    if (cmp_path) {
        hw = load_sized(cmp_path, out_bytes, &hlen);
        if (!hw) return 1;
        if (hlen != out_bytes) {
            size_t es = out_elem_size(&m);
            if (es > 1 && hlen % es)
                return cli_fail("%s: %zu byte%s, the model's outputs take %zu (%zu-byte elements: %zu is not a whole "
                                "number of them)",
                                cmp_path, hlen, hlen == 1 ? "" : "s", out_bytes, es, hlen);
            return cli_fail("%s: %zu byte%s, the model's outputs take %zu", cmp_path, hlen, hlen == 1 ? "" : "s",
                            out_bytes);
        }
    }
    if (lcmp_path) {
        /* every operator output's bytes, which the expected layers must have */
        for (k = 0; k < m.n_ops; k++) {
            accel_tflite_op op;
            uint32_t o;
            st = accel_tflite_op_info(&m, k, &op);
            for (o = 0; st == ACCEL_OK && o < op.n_outputs; o++) {
                int32_t ti;
                accel_tflite_tensor t;
                st = accel_tflite_op_tensor(&m, &op, 1, o, &ti);
                if (st == ACCEL_OK) st = ti < 0 ? ACCEL_E_TFLITE_ARITY : accel_tflite_tensor_info(&m, (uint32_t)ti, &t);
                if (st == ACCEL_OK) layer_bytes += t.bytes;
            }
            if (st != ACCEL_OK) return cli_fail("%s: operator %u: %s", model_path, (unsigned)k, accel_status_str(st));
        }
        lexp = load_sized(lcmp_path, layer_bytes, &lexp_len);
        if (!lexp) return 1;
        if (lexp_len != layer_bytes)
            return cli_fail("%s: %zu byte%s, the operators' outputs take %zu", lcmp_path, lexp_len,
                            lexp_len == 1 ? "" : "s", layer_bytes);
    }
    for (i = 0; i < n_in; i++) {
        size_t ilen;
        in[i] = load_sized(inputs[i], in_bytes, &ilen);
        if (!in[i]) return 1;
        if (ilen != in_bytes)
            return cli_fail("%s: %zu byte%s, the model's inputs take %zu", inputs[i], ilen, ilen == 1 ? "" : "s",
                            in_bytes);
    }
    rt.on_op = layers_path || lcmp_path ? on_op : NULL;
    rt.user = &lo;
    for (i = 0; i < n_in; i++) {
        size_t off = 0;
        for (k = 0; k < m.n_inputs; k++) {
            uint32_t ti;
            accel_tflite_tensor t;
            st = accel_tflite_graph_tensor(&m, 0, k, &ti);
            if (st == ACCEL_OK) st = accel_tflite_tensor_info(&m, ti, &t);
            if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, k, in[i] + off, t.bytes);
            if (st != ACCEL_OK) return cli_fail("%s: input %u: %s", inputs[i], (unsigned)k, accel_status_str(st));
            off += t.bytes;
        }
        free(in[i]);
        lo.len = 0;
        lo.n_rec = 0;
        feed.at = 0;
        st = accel_tflite_invoke(&rt);
        if (st != ACCEL_OK) {
            if (layers_path && !lo.out_of_memory) { /* every operator's output before the one that stopped */
                char *ipath = index_path(layers_path);
                if (!ipath) return cli_fail("%s: out of memory", layers_path);
                if (save(layers_path, lo.p, lo.len) || save_index(ipath, &lo)) return 1;
                free(ipath);
            }
            if (json) printf("{");
            say_bad(model_path, st, rt.bad_op, op_code(&m, rt.bad_op), json);
            if (json) printf("}\n");
            return 1;
        }
        if (lo.out_of_memory)
            return cli_fail("%s: out of memory for the layers' bytes", layers_path ? layers_path : lcmp_path);
    }
    obuf = (uint8_t *)malloc(out_bytes + 1);
    if (!obuf) return cli_fail("%s: out of memory for %zu output bytes", model_path, out_bytes);
    for (k = 0; k < m.n_outputs; k++) {
        uint32_t ti;
        const uint8_t *p;
        size_t n;
        st = accel_tflite_graph_tensor(&m, 1, k, &ti);
        if (st == ACCEL_OK) st = accel_tflite_tensor_data(&rt, ti, &p, &n);
        if (st == ACCEL_OK && n > out_bytes - olen) st = ACCEL_E_TOO_LONG;
        if (st != ACCEL_OK) return cli_fail("%s: output %u: %s", model_path, (unsigned)k, accel_status_str(st));
        memcpy(obuf + olen, p, n);
        olen += n;
    }
    if (out_path && save(out_path, obuf, olen)) return 1;
    if (layers_path) {
        char *ipath = index_path(layers_path);
        if (!ipath) return cli_fail("%s: out of memory", layers_path);
        if (save(layers_path, lo.p, lo.len) || save_index(ipath, &lo)) return 1;
        free(ipath);
    }
    if (json) {
        printf("{\"model\": ");
        json_str(given_path);
        if (twin) {
            printf(", \"twin\": ");
            json_str(twin);
        }
        printf(", \"arena_bytes\": %zu, \"invocations\": %d, \"output_bytes\": %zu", arena_bytes, n_in, olen);
        if (print_outputs(&rt, 1)) return 1;
    }
    if (cmp_path) {
        if (json) printf(", ");
        rc = compare(model_path, &rt, hw, hlen, json);
        free(hw);
    }
    if (lcmp_path) {
        int lrc;
        if (json) printf(", ");
        lrc = compare_layers(&lo, lexp, json);
        if (rc == 0) rc = lrc;
        free(lexp);
    }
    if (json) printf("}\n");
    if (!json && !cmp_path && !lcmp_path && !out_path) {
        /* the values, then the raw bytes */
        size_t b;
        if (print_outputs(&rt, 0)) return 1;
        printf("output (%zu bytes):", olen);
        for (b = 0; b < olen && b < 64; b++) printf(" %02x", obuf[b]);
        printf("%s\n", olen > 64 ? " ..." : "");
    }
    if (fflush(stdout) != 0 || ferror(stdout)) return cli_fail("stdout: write error");
    free(obuf);
    free(lo.p);
    free(lo.rec);
    free(arena);
    free(buf);
    return rc;
}
