/* accel-run - run a quantized .tflite model with accel.h's tflite section (bit-exact with
 * TensorFlow Lite Micro's reference kernels) and check a hardware result against it.
 *   accel-run MODEL.tflite --info [--json]      tensors, operators, arena bytes
 *   accel-run MODEL.tflite --input IN.bin [--input IN2.bin ...] [--output OUT.bin]
 *             [--layers LAYERS.bin] [--compare HW.bin] [--json]
 *     IN.bin: the graph inputs' bytes back to back. Several --input: consecutive invocations
 *     without reset (stateful models), the last one's output is written / compared.
 *     --layers: every operator's output tensor of the last invocation, in execution order,
 *     concatenated raw. --compare: HW.bin against the outputs: exact or not, the count of
 *     differing elements, the largest difference in quantized and in real units, the first
 *     differing element.
 *   --twin CPU.tflite: MODEL is a compiled Edge TPU model (its graph is one custom operator);
 *     the twin (the CPU model it was compiled from) runs as the reference.
 * An operator the section does not run is named (index, name, builtin code).
 * Exit status: 0 ok (and --compare exact), 1 bad model or input, 2 usage, 3 --compare differs. */
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 64

static uint8_t *load(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    *len = 0;
    if (!fp) {
        perror(path);
        return NULL;
    }
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        buf = (uint8_t *)malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
            *len = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(fp);
    if (!buf) fprintf(stderr, "%s: cannot read\n", path);
    return buf;
}

static int save(const char *path, const uint8_t *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(p, 1, n, fp) != n) {
        perror(path);
        if (fp) fclose(fp);
        return 1;
    }
    return fclose(fp) != 0;
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

static float scale_of(const accel_tflite_tensor *t)
{
    float f;
    memcpy(&f, &t->scale_bits, 4);
    return t->n_scales ? f : 0.0f;
}

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

static void op_label(int32_t code, char *buf, size_t cap)
{
    const char *n = accel_tflite_op_name(code);
    if (n) snprintf(buf, cap, "%s", n);
    else snprintf(buf, cap, "builtin %d", (int)code);
}

/* Check, then plan: *arena_bytes, or the status with the operator it stopped at. */
static accel_status plan(const accel_tflite_model *m, size_t *arena_bytes, uint32_t *bad_op, int32_t *bad_code)
{
    size_t w = 0;
    void *work;
    accel_status st = accel_tflite_check(m, bad_op, bad_code);
    if (st != ACCEL_OK) return st;
    if (accel_tflite_plan_scratch_size(m, &w) != ACCEL_OK) return ACCEL_E_ARG;
    work = malloc(w + 4);
    if (!work) return ACCEL_E_FULL;
    st = accel_tflite_plan(m, work, w, arena_bytes);
    free(work);
    return st;
}

static void say_bad(accel_status st, uint32_t op, int32_t code, int json)
{
    char name[48];
    op_label(code, name, sizeof name);
    if (json) {
        printf("\"error\": \"%s\", \"operator\": {\"index\": %u, \"name\": \"%s\", \"code\": %d}", accel_status_str(st),
               (unsigned)op, name, (int)code);
    } else if (st == ACCEL_E_UNSUPPORTED) {
        fprintf(stderr, "unsupported operator %u: %s (builtin code %d)\n", (unsigned)op, name, (int)code);
    } else {
        fprintf(stderr, "operator %u (%s): %s\n", (unsigned)op, name, accel_status_str(st));
    }
}

static int info(const accel_tflite_model *m, int json)
{
    uint32_t i, k;
    size_t arena = 0;
    uint32_t bad_op = 0;
    int32_t bad_code = 0;
    accel_status pst = plan(m, &arena, &bad_op, &bad_code);
    if (json) printf("{\"tensors\": [");
    for (i = 0; i < m->n_tensors; i++) {
        accel_tflite_tensor t;
        if (accel_tflite_tensor_info(m, i, &t) != ACCEL_OK) return 1;
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
        if (accel_tflite_op_info(m, i, &op) != ACCEL_OK) return 1;
        op_label(op.code, name, sizeof name);
        if (json) printf("%s\n  {\"index\": %u, \"name\": \"%s\", \"code\": %d, \"inputs\": [", i ? "," : "",
                         (unsigned)i, name, (int)op.code);
        else printf("op %3u %-28s", (unsigned)i, name);
        for (k = 0; k < op.n_inputs + op.n_outputs; k++) {
            int32_t ti;
            int out = k >= op.n_inputs;
            if (accel_tflite_op_tensor(m, &op, out, out ? k - op.n_inputs : k, &ti) != ACCEL_OK) return 1;
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
            say_bad(pst, bad_op, bad_code, 1);
            printf("}\n");
        }
    } else if (pst == ACCEL_OK) {
        printf("arena: %zu bytes (every byte of the runtime's memory: plan table and tensor data)\n", arena);
    } else {
        say_bad(pst, bad_op, bad_code, 0);
    }
    return pst == ACCEL_OK ? 0 : 1;
}

typedef struct layers_out {
    uint8_t *p;
    size_t len, cap;
} layers_out;

static void on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    layers_out *l = (layers_out *)user;
    (void)op_index;
    (void)code;
    (void)tensor;
    if (l->len + t->bytes > l->cap) {
        size_t cap = (l->cap + t->bytes) * 2;
        uint8_t *p = (uint8_t *)realloc(l->p, cap);
        if (!p) return;
        l->p = p;
        l->cap = cap;
    }
    memcpy(l->p + l->len, data, t->bytes);
    l->len += t->bytes;
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

/* Compare hw with the outputs (back to back); 0 exact, 3 different, 1 error. */
static int compare(const accel_tflite *rt, const uint8_t *hw, size_t hw_len, int json)
{
    const accel_tflite_model *m = rt->model;
    size_t off = 0, idx = 0, diff = 0;
    long first = -1, maxq = 0;
    double maxr = 0.0;
    uint32_t k;
    for (k = 0; k < m->n_outputs; k++) {
        uint32_t ti;
        accel_tflite_tensor t;
        const uint8_t *p;
        size_t n, es, i;
        if (accel_tflite_graph_tensor(m, 1, k, &ti) != ACCEL_OK || accel_tflite_tensor_info(m, ti, &t) != ACCEL_OK ||
            accel_tflite_tensor_data(rt, ti, &p, &n) != ACCEL_OK)
            return 1;
        es = t.elements ? n / t.elements : 1;
        if (t.type == ACCEL_TFLITE_FLOAT32 || es == 0 || es > 4) {
            fprintf(stderr, "output %u: %s outputs are compared bytewise only\n", (unsigned)k, type_name(t.type));
            es = 1;
        }
        if (off + n > hw_len) {
            fprintf(stderr, "compare: %zu bytes given, the outputs hold %zu or more\n", hw_len, off + n);
            return 1;
        }
        for (i = 0; i + es <= n; i += es, idx++) {
            long a = elem(p + i, t.type), b = elem(hw + off + i, t.type), d = a > b ? a - b : b - a;
            if (d == 0) continue;
            diff++;
            if (first < 0) first = (long)idx;
            if (d > maxq) maxq = d;
            if ((double)d * (double)scale_of(&t) > maxr) maxr = (double)d * (double)scale_of(&t);
        }
        off += n;
    }
    if (off != hw_len) {
        fprintf(stderr, "compare: %zu bytes given, the outputs hold %zu\n", hw_len, off);
        return 1;
    }
    if (json)
        printf("\"compare\": {\"exact\": %s, \"elements\": %zu, \"differing\": %zu, \"max_abs_diff_q\": %ld, "
               "\"max_abs_diff_real\": %.9g, \"first_index\": %ld}",
               diff ? "false" : "true", idx, diff, maxq, maxr, first);
    else if (!diff)
        printf("compare: exact (%zu elements)\n", idx);
    else
        printf("compare: %zu of %zu elements differ; max |diff| %ld quantized, %.9g real; first at element %ld\n",
               diff, idx, maxq, maxr, first);
    return diff ? 3 : 0;
}

static int has_custom(const accel_tflite_model *m)
{
    uint32_t i;
    for (i = 0; i < m->n_ops; i++) {
        accel_tflite_op op;
        if (accel_tflite_op_info(m, i, &op) == ACCEL_OK && op.code == 32) return 1;
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: accel-run MODEL.tflite --info [--json]\n"
                    "       accel-run MODEL.tflite --input IN.bin [--input IN2.bin ...] [--output OUT.bin]\n"
                    "                 [--layers LAYERS.bin] [--compare HW.bin] [--json] [--twin CPU.tflite]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *layers_path = NULL, *cmp_path = NULL, *twin = NULL;
    const char *inputs[MAX_INPUTS];
    int n_in = 0, want_info = 0, json = 0, i, rc = 0;
    uint8_t *buf, *obuf = NULL;
    size_t len, arena_bytes = 0, olen = 0;
    void *arena = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    layers_out lo = {NULL, 0, 0};
    accel_status st;
    uint32_t bad_op = 0, k;
    int32_t bad_code = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--info") == 0) want_info = 1;
        else if (strcmp(a, "--json") == 0) json = 1;
        else if (strcmp(a, "--input") == 0 && more && n_in < MAX_INPUTS) inputs[n_in++] = argv[++i];
        else if (strcmp(a, "--output") == 0 && more) out_path = argv[++i];
        else if (strcmp(a, "--layers") == 0 && more) layers_path = argv[++i];
        else if (strcmp(a, "--compare") == 0 && more) cmp_path = argv[++i];
        else if (strcmp(a, "--twin") == 0 && more) twin = argv[++i];
        else if (a[0] != '-' && !model_path) model_path = a;
        else return usage();
    }
    if (!model_path || (!want_info && n_in == 0)) return usage();
    buf = load(model_path, &len);
    if (!buf) return 1;
    st = accel_tflite_open(&m, buf, len);
    if (st != ACCEL_OK) {
        fprintf(stderr, "%s: %s\n", model_path, accel_status_str(st));
        return 1;
    }
    if (has_custom(&m)) {
        if (!twin) {
            fprintf(stderr, "%s has a custom operator (a compiled Edge TPU model?): give the CPU model it was "
                            "compiled from with --twin, which then runs as the reference\n", model_path);
            if (!want_info) return 1;
        } else {
            free(buf);
            model_path = twin;
            buf = load(model_path, &len);
            if (!buf) return 1;
            st = accel_tflite_open(&m, buf, len);
            if (st != ACCEL_OK) {
                fprintf(stderr, "%s: %s\n", model_path, accel_status_str(st));
                return 1;
            }
        }
    }
    if (want_info) {
        rc = info(&m, json);
        free(buf);
        return rc;
    }
    st = plan(&m, &arena_bytes, &bad_op, &bad_code);
    if (st == ACCEL_OK) {
        arena = malloc(arena_bytes + 4);
        st = arena ? accel_tflite_init(&rt, &m, arena, arena_bytes) : ACCEL_E_FULL;
        bad_op = rt.bad_op;
        bad_code = rt.bad_code;
    }
    if (st != ACCEL_OK) {
        if (json) {
            printf("{");
            say_bad(st, bad_op, bad_code, 1);
            printf("}\n");
        } else {
            say_bad(st, bad_op, bad_code, 0);
        }
        return 1;
    }
    rt.on_op = layers_path ? on_op : NULL;
    rt.user = &lo;
    for (i = 0; i < n_in && rc == 0; i++) {
        size_t ilen, off = 0;
        uint8_t *in = load(inputs[i], &ilen);
        if (!in) return 1;
        for (k = 0; k < m.n_inputs && rc == 0; k++) {
            uint32_t ti;
            accel_tflite_tensor t;
            st = accel_tflite_graph_tensor(&m, 0, k, &ti);
            if (st == ACCEL_OK) st = accel_tflite_tensor_info(&m, ti, &t);
            if (st == ACCEL_OK && off + t.bytes > ilen) st = ACCEL_E_ARG;
            if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, k, in + off, t.bytes);
            off += st == ACCEL_OK ? t.bytes : 0;
            if (st != ACCEL_OK) rc = 1;
        }
        if (rc == 0 && off != ilen) {
            fprintf(stderr, "%s: %zu bytes, the model's inputs take %zu\n", inputs[i], ilen, off);
            rc = 1;
        }
        free(in);
        if (rc) {
            fprintf(stderr, "%s: %s\n", inputs[i], accel_status_str(st));
            return 1;
        }
        lo.len = 0;
        st = accel_tflite_invoke(&rt);
        if (st != ACCEL_OK) {
            say_bad(st, rt.bad_op, rt.bad_code, 0);
            return 1;
        }
    }
    for (k = 0; k < m.n_outputs; k++) {
        uint32_t ti;
        const uint8_t *p;
        size_t n;
        uint8_t *grown;
        if (accel_tflite_graph_tensor(&m, 1, k, &ti) != ACCEL_OK || accel_tflite_tensor_data(&rt, ti, &p, &n) != ACCEL_OK)
            return 1;
        grown = (uint8_t *)realloc(obuf, olen + n + 1);
        if (!grown) return 1;
        obuf = grown;
        memcpy(obuf + olen, p, n);
        olen += n;
    }
    if (out_path && save(out_path, obuf, olen)) return 1;
    if (layers_path && save(layers_path, lo.p ? lo.p : obuf, lo.len)) return 1;
    if (json) printf("{\"model\": \"%s\", \"arena_bytes\": %zu, \"invocations\": %d, \"output_bytes\": %zu", model_path,
                     arena_bytes, n_in, olen);
    if (cmp_path) {
        size_t hlen;
        uint8_t *hw = load(cmp_path, &hlen);
        if (!hw) return 1;
        if (json) printf(", ");
        rc = compare(&rt, hw, hlen, json);
        free(hw);
    }
    if (json) printf("}\n");
    if (!json && !cmp_path && !out_path) {
        size_t b;
        printf("output (%zu bytes):", olen);
        for (b = 0; b < olen && b < 64; b++) printf(" %02x", obuf[b]);
        printf("%s\n", olen > 64 ? " ..." : "");
    }
    free(obuf);
    free(lo.p);
    free(arena);
    free(buf);
    return rc;
}
