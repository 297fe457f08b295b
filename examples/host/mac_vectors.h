/* mac_vectors.h - reader and runner of the int8/uint8 vector text format
 * (tests/vectors/int8/FORMAT.md) for build/accel-check and demo_mac. Host-only (stdio, malloc).
 * The including file includes accel.h first (and links its implementation).
 *   int run_file(const char *path, long *passed, long *failed);   0, or -1 if malformed
 * (a directory, or a file without any case, is refused too) */
#ifndef MAC_VECTORS_H
#define MAC_VECTORS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#define MAXDIMS 8
#define MAXLINE 8192
#define MAXELEMS (1L << 24)

enum { T_INPUT, T_FILTER, T_BIAS, T_OUTPUT, T_N };
static const char *const tensor_names[T_N] = {"input", "filter", "bias", "output"};

typedef struct {
    int present, is_none;
    int dtype; /* 0 int8, 1 uint8, 2 int32 */
    long count;
    void *data;
} tensor;

typedef struct {
    char name[128];
    char op[64];
    int dtype, single;
    long ishape[MAXDIMS], fshape[MAXDIMS], oshape[MAXDIMS];
    int ni, nf, no;
    long v_stride_h, v_stride_w, v_dil_h, v_dil_w, v_pad_top, v_pad_left, v_groups, v_dm;
    long v_filter_h, v_filter_w, in_off, f_off, out_off, act_min, act_max;
    int32_t *mult, *shift;
    int nmult, nshift;
    unsigned seen; /* bit per scalar key */
    tensor t[T_N];
} tcase;

/* scalar keys, with a bit each in tcase.seen */
static const char *const scalar_keys[] = {"stride_h", "stride_w", "dilation_h", "dilation_w",
                                          "pad_top", "pad_left", "groups", "depth_multiplier",
                                          "filter_h", "filter_w", "input_offset", "filter_offset",
                                          "output_offset", "activation_min", "activation_max"};
#define NSCALAR (sizeof(scalar_keys) / sizeof(scalar_keys[0]))
static long *scalar_slot(tcase *c, size_t i)
{
    long *slots[NSCALAR];
    slots[0] = &c->v_stride_h; slots[1] = &c->v_stride_w; slots[2] = &c->v_dil_h;
    slots[3] = &c->v_dil_w; slots[4] = &c->v_pad_top; slots[5] = &c->v_pad_left;
    slots[6] = &c->v_groups; slots[7] = &c->v_dm; slots[8] = &c->v_filter_h;
    slots[9] = &c->v_filter_w; slots[10] = &c->in_off; slots[11] = &c->f_off;
    slots[12] = &c->out_off; slots[13] = &c->act_min; slots[14] = &c->act_max;
    return slots[i];
}
/* informational keys: accepted, not used */
static const char *const info_keys[] = {"ref_fn", "quant", "padding", "pad_bottom", "pad_right",
                                        "bias_shape"};

static const char *g_file;
static long g_line;
static char g_err[256];

static int fail(const char *msg)
{
    snprintf(g_err, sizeof g_err, "%s", msg);
    return -1;
}

static void free_case(tcase *c)
{
    int i;
    for (i = 0; i < T_N; i++) free(c->t[i].data);
    free(c->mult);
    free(c->shift);
    memset(c, 0, sizeof *c);
}

static int parse_long(const char *s, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0) return -1;
    return 0;
}

/* Split a line into words (single spaces, as the format says; extra spaces are tolerated). */
static int split(char *line, char **w, int max)
{
    int n = 0;
    char *p = strtok(line, " \t");
    while (p && n < max) {
        w[n++] = p;
        p = strtok(NULL, " \t");
    }
    return p ? -1 : n;
}

static int parse_shape(char **w, int n, long *dims, int *nd)
{
    int i;
    if (n - 1 > MAXDIMS) return fail("too many dimensions");
    for (i = 1; i < n; i++)
        if (parse_long(w[i], &dims[i - 1]) || dims[i - 1] <= 0 || dims[i - 1] > 65535)
            return fail("bad dimension");
    *nd = n - 1;
    return 0;
}

static int parse_i32_list(char **w, int n, int32_t **out, int *cnt)
{
    int i;
    long v;
    if (n < 2) return fail("missing values");
    free(*out);
    *out = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n - 1));
    if (!*out) return fail("out of memory");
    for (i = 1; i < n; i++) {
        if (parse_long(w[i], &v) || v < INT32_MIN || v > INT32_MAX) return fail("bad integer");
        (*out)[i - 1] = (int32_t)v;
    }
    *cnt = n - 1;
    return 0;
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
}

/* Read data lines of tensor t from f until its count is reached. */
static int read_tensor_data(FILE *f, tensor *t)
{
    char line[MAXLINE];
    long got = 0;
    int width = t->dtype == 2 ? 8 : 2;
    while (got < t->count) {
        size_t len, i;
        if (!fgets(line, sizeof line, f)) return fail("file ends inside tensor data");
        g_line++;
        len = strlen(line);
        if (len && line[len - 1] != '\n' && !feof(f)) return fail("line too long");
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0 || len % (size_t)width != 0) return fail("bad data line length");
        for (i = 0; i < len; i += (size_t)width) {
            uint32_t v = 0;
            int k;
            for (k = 0; k < width; k++) {
                int h = hexval((unsigned char)line[i + (size_t)k]);
                if (h < 0) return fail("non-hex character in data");
                v = v << 4 | (uint32_t)h;
            }
            if (got >= t->count) return fail("more data than the tensor count");
            if (width == 8) ((uint32_t *)t->data)[got] = v;
            else ((uint8_t *)t->data)[got] = (uint8_t)v;
            got++;
        }
    }
    return 0;
}

static int dtype_of(const char *s)
{
    if (!strcmp(s, "int8")) return 0;
    if (!strcmp(s, "uint8")) return 1;
    if (!strcmp(s, "int32")) return 2;
    return -1;
}

static long prod(const long *d, int n)
{
    long p = 1;
    int i;
    for (i = 0; i < n; i++) p *= d[i];
    return p;
}

static int need(const tcase *c, const char *key, unsigned bitidx)
{
    (void)key;
    return (c->seen >> bitidx) & 1u;
}

static long sidx(const char *key)
{
    size_t i;
    for (i = 0; i < NSCALAR; i++)
        if (!strcmp(scalar_keys[i], key)) return (long)i;
    return -1;
}

#define REQ(key)                                                                           \
    do {                                                                                   \
        if (!need(c, key, (unsigned)sidx(key))) return fail("missing key " key);           \
    } while (0)

static uint32_t u32(long v) { return (uint32_t)v; }

/* Run a complete case. Returns 1 passed, 0 failed, -1 malformed. */
static int run_case(tcase *c)
{
    accel_mac_quant q;
    accel_mac_conv g;
    accel_status st = ACCEL_OK;
    tensor *in = &c->t[T_INPUT], *fl = &c->t[T_FILTER], *bs = &c->t[T_BIAS], *out = &c->t[T_OUTPUT];
    uint8_t *got;
    long n, i;
    int is_pool = !strcmp(c->op, "max_pool2d") || !strcmp(c->op, "average_pool2d");
    const int32_t *bias;
    size_t bias_len;

    if (!c->op[0]) return fail("missing op");
    if (c->dtype < 0) return fail("missing dtype");
    if (!in->present || !out->present) return fail("missing input or output tensor");
    if (in->dtype != c->dtype || out->dtype != c->dtype) return fail("tensor dtype differs from case dtype");
    if (!c->ni || !c->no) return fail("missing input_shape or output_shape");
    if (prod(c->ishape, c->ni) != in->count) return fail("input count differs from input_shape");
    if (prod(c->oshape, c->no) != out->count) return fail("output count differs from output_shape");
    REQ("activation_min");
    REQ("activation_max");
    memset(&q, 0, sizeof q);
    memset(&g, 0, sizeof g);
    if (!is_pool) {
        if (!fl->present || fl->dtype != c->dtype) return fail("missing filter or wrong dtype");
        if (!bs->present) return fail("missing bias (use 'bias none 0')");
        if (!bs->is_none && bs->dtype != 2) return fail("bias must be int32");
        if (!c->nf || prod(c->fshape, c->nf) != fl->count) return fail("filter count differs from filter_shape");
        if (!c->nmult || c->nmult != c->nshift) return fail("output_multiplier/output_shift missing or of different lengths");
        REQ("input_offset");
        REQ("filter_offset");
        REQ("output_offset");
        q.dtype = c->dtype ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
        q.input_offset = (int32_t)c->in_off;
        q.filter_offset = (int32_t)c->f_off;
        q.output_offset = (int32_t)c->out_off;
        q.multiplier = c->mult;
        q.shift = c->shift;
        q.count = (size_t)c->nmult;
        q.act_min = (int32_t)c->act_min;
        q.act_max = (int32_t)c->act_max;
        q.rounding = c->single ? ACCEL_MAC_ROUND_SINGLE : ACCEL_MAC_ROUND_DOUBLE;
    }
    bias = bs->is_none ? NULL : (const int32_t *)bs->data;
    bias_len = bs->is_none ? 0 : (size_t)bs->count;
    got = (uint8_t *)calloc((size_t)out->count, 1);
    if (!got) return fail("out of memory");
    if (!strcmp(c->op, "fully_connected")) {
        if (c->ni != 2 || c->nf != 2 || c->no != 2) { free(got); return fail("fully_connected needs 2-D shapes"); }
        if (c->fshape[1] != c->ishape[1] || c->oshape[0] != c->ishape[0] || c->oshape[1] != c->fshape[0]) {
            free(got);
            return fail("inconsistent fully_connected shapes");
        }
        st = accel_mac_fully_connected(u32(c->ishape[0]), u32(c->ishape[1]), u32(c->fshape[0]),
                                       in->data, (size_t)in->count, fl->data, (size_t)fl->count,
                                       bias, bias_len, &q, got, (size_t)out->count);
    } else {
        if (c->ni != 4 || c->no != 4 || (!is_pool && c->nf != 4)) { free(got); return fail("needs 4-D NHWC shapes"); }
        if (c->oshape[0] != c->ishape[0]) { free(got); return fail("batch differs"); }
        REQ("stride_h");
        REQ("stride_w");
        REQ("pad_top");
        REQ("pad_left");
        g.batches = u32(c->ishape[0]);
        g.in_h = u32(c->ishape[1]);
        g.in_w = u32(c->ishape[2]);
        g.in_c = u32(c->ishape[3]);
        g.out_h = u32(c->oshape[1]);
        g.out_w = u32(c->oshape[2]);
        g.out_c = u32(c->oshape[3]);
        g.stride_h = u32(c->v_stride_h);
        g.stride_w = u32(c->v_stride_w);
        g.pad_top = u32(c->v_pad_top);
        g.pad_left = u32(c->v_pad_left);
        if (c->v_stride_h < 0 || c->v_stride_w < 0 || c->v_pad_top < 0 || c->v_pad_left < 0) {
            free(got);
            return fail("negative stride or pad");
        }
        if (!is_pool) {
            REQ("dilation_h");
            REQ("dilation_w");
            if (c->v_dil_h <= 0 || c->v_dil_w <= 0) { free(got); return fail("dilation must be > 0"); }
            g.dilation_h = u32(c->v_dil_h);
            g.dilation_w = u32(c->v_dil_w);
            g.k_h = u32(c->fshape[1]);
            g.k_w = u32(c->fshape[2]);
        }
        if (!strcmp(c->op, "conv2d")) {
            if (c->fshape[0] != c->oshape[3] || c->ishape[3] % c->fshape[3] != 0) {
                free(got);
                return fail("inconsistent conv2d shapes");
            }
            g.groups = u32(c->ishape[3] / c->fshape[3]);
            if (need(c, "groups", (unsigned)sidx("groups")) && c->v_groups != (long)g.groups) {
                free(got);
                return fail("groups differs from C / filter depth");
            }
            st = accel_mac_conv2d(&g, &q, in->data, (size_t)in->count, fl->data, (size_t)fl->count,
                                  bias, bias_len, got, (size_t)out->count);
        } else if (!strcmp(c->op, "depthwise_conv2d")) {
            REQ("depth_multiplier");
            if (c->fshape[0] != 1 || c->fshape[3] != c->oshape[3] || c->v_dm <= 0) {
                free(got);
                return fail("inconsistent depthwise shapes");
            }
            g.depth_multiplier = u32(c->v_dm);
            st = accel_mac_depthwise_conv2d(&g, &q, in->data, (size_t)in->count, fl->data,
                                            (size_t)fl->count, bias, bias_len, got,
                                            (size_t)out->count);
        } else if (is_pool) {
            REQ("filter_h");
            REQ("filter_w");
            if (c->v_filter_h <= 0 || c->v_filter_w <= 0) { free(got); return fail("bad pool window"); }
            g.k_h = u32(c->v_filter_h);
            g.k_w = u32(c->v_filter_w);
            if (!strcmp(c->op, "max_pool2d"))
                st = accel_mac_max_pool2d(&g, c->dtype ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8,
                                          (int32_t)c->act_min, (int32_t)c->act_max, in->data,
                                          (size_t)in->count, got, (size_t)out->count);
            else
                st = accel_mac_average_pool2d(&g, c->dtype ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8,
                                              (int32_t)c->act_min, (int32_t)c->act_max, in->data,
                                              (size_t)in->count, got, (size_t)out->count);
        } else {
            free(got);
            return fail("unknown op");
        }
    }
    if (st != ACCEL_OK) {
        printf("case %s FAIL status %s\n", c->name, accel_status_str(st));
        free(got);
        return 0;
    }
    n = out->count;
    for (i = 0; i < n; i++) {
        uint8_t w = ((const uint8_t *)out->data)[i];
        if (got[i] != w) {
            int gv = got[i], wv = w;
            if (c->dtype == 0) {
                gv = gv > 127 ? gv - 256 : gv;
                wv = wv > 127 ? wv - 256 : wv;
            }
            printf("case %s FAIL index %ld got %d want %d\n", c->name, i, gv, wv);
            free(got);
            return 0;
        }
    }
    printf("case %s ok\n", c->name);
    free(got);
    return 1;
}

/* Returns 0 or -1 (malformed); adds to the counters. */
static int run_file(const char *path, long *passed, long *failed)
{
    FILE *f;
    char line[MAXLINE];
    char *w[MAXDIMS + 300];
    int in_case = 0, n, r;
    long cases = 0;
    tcase c;
    struct stat sb;
    memset(&c, 0, sizeof c);
    g_file = path;
    g_line = 0;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "%s: is a directory\n", path);
        return -1;
    }
    f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        g_line++;
        if (len && line[len - 1] != '\n' && !feof(f)) { fail("line too long"); goto bad; }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        n = split(line, w, (int)(sizeof w / sizeof w[0]));
        if (n < 0) { fail("too many words"); goto bad; }
        if (n == 0) continue;
        if (!strcmp(w[0], "case")) {
            if (in_case) { fail("case inside a case (missing end)"); goto bad; }
            if (n != 2 || strlen(w[1]) >= sizeof c.name) { fail("bad case line"); goto bad; }
            free_case(&c);
            strcpy(c.name, w[1]);
            c.dtype = -1;
            in_case = 1;
            continue;
        }
        if (!in_case) { fail("line outside a case"); goto bad; }
        if (!strcmp(w[0], "end")) {
            if (n != 1) { fail("bad end line"); goto bad; }
            r = run_case(&c);
            if (r < 0) goto bad;
            if (r) (*passed)++;
            else (*failed)++;
            cases++;
            in_case = 0;
            continue;
        }
        {
            size_t i;
            int ti = -1, known = 0;
            long si = sidx(w[0]);
            for (i = 0; i < T_N; i++)
                if (!strcmp(w[0], tensor_names[i])) ti = (int)i;
            if (ti >= 0) {
                tensor *t = &c.t[ti];
                long cnt;
                if (t->present) { fail("tensor given twice"); goto bad; }
                if (n != 3) { fail("bad tensor header"); goto bad; }
                t->present = 1;
                if (ti == T_BIAS && !strcmp(w[1], "none")) {
                    if (strcmp(w[2], "0")) { fail("bias none must have count 0"); goto bad; }
                    t->is_none = 1;
                    continue;
                }
                t->dtype = dtype_of(w[1]);
                if (t->dtype < 0) { fail("unknown tensor dtype"); goto bad; }
                if ((ti == T_BIAS) != (t->dtype == 2)) { fail("wrong tensor dtype"); goto bad; }
                if (parse_long(w[2], &cnt) || cnt <= 0 || cnt > MAXELEMS) { fail("bad tensor count"); goto bad; }
                t->count = cnt;
                t->data = calloc((size_t)cnt, t->dtype == 2 ? 4 : 1);
                if (!t->data) { fail("out of memory"); goto bad; }
                if (read_tensor_data(f, t)) goto bad;
                continue;
            }
            if (si >= 0) {
                if (n != 2 || parse_long(w[1], scalar_slot(&c, (size_t)si))) { fail("bad integer value"); goto bad; }
                if (c.seen >> si & 1u) { fail("key given twice"); goto bad; }
                c.seen |= 1u << si;
                continue;
            }
            if (!strcmp(w[0], "op")) {
                if (n != 2 || strlen(w[1]) >= sizeof c.op) { fail("bad op line"); goto bad; }
                strcpy(c.op, w[1]);
                continue;
            }
            if (!strcmp(w[0], "dtype")) {
                if (n != 2 || (c.dtype = dtype_of(w[1])) < 0 || c.dtype == 2) { fail("bad dtype"); goto bad; }
                continue;
            }
            if (!strcmp(w[0], "rounding")) {
                if (n != 2 || (strcmp(w[1], "double") && strcmp(w[1], "single"))) { fail("rounding must be double or single"); goto bad; }
                c.single = !strcmp(w[1], "single");
                continue;
            }
            if (!strcmp(w[0], "input_shape")) { if (parse_shape(w, n, c.ishape, &c.ni)) goto bad; continue; }
            if (!strcmp(w[0], "filter_shape")) { if (parse_shape(w, n, c.fshape, &c.nf)) goto bad; continue; }
            if (!strcmp(w[0], "output_shape")) { if (parse_shape(w, n, c.oshape, &c.no)) goto bad; continue; }
            if (!strcmp(w[0], "output_multiplier")) { if (parse_i32_list(w, n, &c.mult, &c.nmult)) goto bad; continue; }
            if (!strcmp(w[0], "output_shift")) { if (parse_i32_list(w, n, &c.shift, &c.nshift)) goto bad; continue; }
            for (i = 0; i < sizeof info_keys / sizeof info_keys[0]; i++)
                if (!strcmp(w[0], info_keys[i])) known = 1;
            if (!known) { fail("unknown key"); goto bad; }
        }
    }
    if (ferror(f)) { fail("read error"); goto bad; }
    if (in_case) { fail("file ends inside a case (missing end)"); goto bad; }
    /* a file that checks nothing must not pass as "0 passed, 0 failed" */
    if (cases == 0) { fail("no cases: the file is empty or holds only comments"); goto bad; }
    fclose(f);
    free_case(&c);
    return 0;
bad:
    fprintf(stderr, "%s:%ld: malformed: %s\n", g_file, g_line, g_err);
    fclose(f);
    free_case(&c);
    return -1;
}

#endif
