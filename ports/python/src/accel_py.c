/* accel_py.c - the C side of the Python package `accel` (ports/python): a flat interface over
 * accel.h's tflite section that ctypes can call without knowing a struct of accel.h. Python owns
 * every byte: it asks for the sizes (accel_py_sizes), allocates the model record, the runtime
 * record, the plan's work area, the arena and the layers' buffer as numpy arrays, and passes them
 * in. Nothing here allocates, keeps a global or does I/O. Every function returns an accel_status
 * (an int). Compiled at install with the implementation (ports/impl/accel_impl.c) and the sim
 * port into one shared library. */
#include "accel.h"

#include <string.h>

#if defined(_WIN32)
#define ACCEL_PY_API __declspec(dllexport)
#else
#define ACCEL_PY_API __attribute__((visibility("default")))
#endif

#if ACCEL_TFLITE_MAX_DIMS > 8
#error "accel_py_tensor holds 8 dimensions: raise it here and in accel/_native.py's Tensor"
#endif

/* One tensor, in fields of fixed width (mirrored by accel/_native.py's Tensor). */
typedef struct accel_py_tensor {
    int32_t type, ndims;
    int32_t dims[8];
    uint64_t elements, bytes;
    uint32_t n_scales, scale_bits;
    int32_t zero_point, quantized_dimension, is_variable, is_constant;
    uint64_t name_off, name_len; /* the name: bytes of the model buffer */
    uint64_t data_off;           /* a constant's data: offset in the model buffer */
} accel_py_tensor;

/* The operators' outputs of one invocation, copied as on_op sees them. Each record is five
 * int64: operator index, builtin code, tensor index, offset in buf, bytes. */
typedef struct accel_py_layers {
    uint8_t *buf;
    size_t cap, len;
    int64_t *rec;
    size_t rec_cap, n_rec;
    int overflow;
} accel_py_layers;

/* The custom operators' outputs as a device returned them (a compiled Edge TPU model's
 * edgetpu-custom-op, or any custom operator): every custom operator's outputs back to back, in
 * output order, the operators in execution order; rewound before each invocation. The model's
 * custom table points at `entry`, so the record lives as long as the model's. */
typedef struct accel_py_feed {
    accel_tflite_custom entry;
    const uint8_t *p;
    size_t len, at;
} accel_py_feed;

/* sizes[0..4]: the model record, the runtime record, the layers' record, ACCEL_TFLITE_MAX_DIMS,
 * the custom outputs' record */
ACCEL_PY_API int accel_py_sizes(uint64_t *sizes)
{
    sizes[0] = sizeof(accel_tflite_model);
    sizes[1] = sizeof(accel_tflite);
    sizes[2] = sizeof(accel_py_layers);
    sizes[3] = ACCEL_TFLITE_MAX_DIMS;
    sizes[4] = sizeof(accel_py_feed);
    return ACCEL_OK;
}

ACCEL_PY_API const char *accel_py_version(void) { return ACCEL_VERSION_STRING; }

ACCEL_PY_API const char *accel_py_status_str(int st) { return accel_status_str((accel_status)st); }

/* The schema's name of any builtin code (NULL for a code the schema does not have): the
 * section's one table, so an UnsupportedOperator names any operator a model has. */
ACCEL_PY_API const char *accel_py_op_name(int32_t code) { return accel_tflite_op_name(code); }

/* 1 when this build has a kernel for builtin operator `code` (the variant may still be refused:
 * accel_py_check says), 0 when it has none: the section's operator table answers. */
ACCEL_PY_API int accel_py_runs_code(int32_t code) { return accel_tflite_op_kept(code); }
ACCEL_PY_API int accel_py_custom_kept(const char *name) { return accel_tflite_op_custom_kept(name); }

/* open; counts[0..4]: tensors, operators, graph inputs, graph outputs, schema version */
ACCEL_PY_API int accel_py_open(void *model, const uint8_t *buf, uint64_t len, uint32_t *counts)
{
    accel_tflite_model *m = (accel_tflite_model *)model;
    accel_status st;
    if ((uint64_t)(size_t)len != len) return ACCEL_E_TOO_LONG;
    st = accel_tflite_open(m, buf, (size_t)len);
    if (st != ACCEL_OK) return st;
    counts[0] = m->n_tensors;
    counts[1] = m->n_ops;
    counts[2] = m->n_inputs;
    counts[3] = m->n_outputs;
    counts[4] = m->version;
    return ACCEL_OK;
}

ACCEL_PY_API int accel_py_tensor_info(const void *model, uint32_t i, accel_py_tensor *out)
{
    const accel_tflite_model *m = (const accel_tflite_model *)model;
    accel_tflite_tensor t;
    uint32_t d;
    accel_status st = accel_tflite_tensor_info(m, i, &t);
    if (st != ACCEL_OK) return st;
    memset(out, 0, sizeof *out);
    out->type = t.type;
    out->ndims = (int32_t)t.ndims;
    for (d = 0; d < t.ndims && d < 8; d++) out->dims[d] = t.dims[d];
    out->elements = t.elements;
    out->bytes = t.bytes;
    out->n_scales = t.n_scales;
    out->scale_bits = t.scale_bits;
    out->zero_point = t.zero_point;
    out->quantized_dimension = t.quantized_dimension;
    out->is_variable = t.is_variable;
    out->is_constant = t.data != NULL;
    if (t.name.p) {
        out->name_off = (uint64_t)(t.name.p - m->buf);
        out->name_len = t.name.len;
    }
    if (t.data) out->data_off = (uint64_t)(t.data - m->buf);
    return ACCEL_OK;
}

/* Every scale's float32 bits and zero point of tensor i (n: the tensor's n_scales). */
ACCEL_PY_API int accel_py_tensor_scales(const void *model, uint32_t i, uint32_t n, uint32_t *bits, int32_t *zps)
{
    const accel_tflite_model *m = (const accel_tflite_model *)model;
    accel_tflite_tensor t;
    uint32_t k;
    accel_status st = accel_tflite_tensor_info(m, i, &t);
    if (st != ACCEL_OK) return st;
    if (n != t.n_scales) return ACCEL_E_ARG;
    for (k = 0; k < n; k++)
        if ((st = accel_tflite_tensor_scale(m, &t, k, &bits[k], &zps[k])) != ACCEL_OK) return st;
    return ACCEL_OK;
}

/* Operator i: io[0..2] its builtin code, input count, output count. */
ACCEL_PY_API int accel_py_op_info(const void *model, uint32_t i, int32_t *io)
{
    accel_tflite_op op;
    accel_status st = accel_tflite_op_info((const accel_tflite_model *)model, i, &op);
    if (st != ACCEL_OK) return st;
    io[0] = op.code;
    io[1] = (int32_t)op.n_inputs;
    io[2] = (int32_t)op.n_outputs;
    return ACCEL_OK;
}

/* The tensor indices of operator i's inputs (-1: absent) then outputs, n_inputs + n_outputs. */
ACCEL_PY_API int accel_py_op_tensors(const void *model, uint32_t i, int32_t *tensors)
{
    const accel_tflite_model *m = (const accel_tflite_model *)model;
    accel_tflite_op op;
    uint32_t k;
    accel_status st = accel_tflite_op_info(m, i, &op);
    for (k = 0; st == ACCEL_OK && k < op.n_inputs + op.n_outputs; k++) {
        int out = k >= op.n_inputs;
        st = accel_tflite_op_tensor(m, &op, out, out ? k - op.n_inputs : k, &tensors[k]);
    }
    return st;
}

ACCEL_PY_API int accel_py_graph_tensor(const void *model, int is_output, uint32_t k, uint32_t *tensor)
{
    return accel_tflite_graph_tensor((const accel_tflite_model *)model, is_output, k, tensor);
}

/* The custom_code of operator i's OperatorCode, as an offset and length in the model buffer
 * (0, 0 when it has none). accel_tflite_op does not carry it: read from the (already validated)
 * flatbuffer with the public reader: Model.subgraphs[0].operators[i].opcode_index, then
 * Model.operator_codes[that].custom_code. */
ACCEL_PY_API int accel_py_op_custom(const void *model, uint32_t i, uint64_t *off, uint64_t *len)
{
    const accel_tflite_model *m = (const accel_tflite_model *)model;
    accel_fb_table root, t;
    accel_fb_view v;
    size_t vec, p;
    uint32_t n;
    uint64_t code = 0;
    accel_status st;
    *off = *len = 0;
    if ((st = accel_fb_root(&root, m->buf, m->len)) != ACCEL_OK) return st;
    if ((st = accel_fb_vector(&root, 2, 4, &vec, &n)) != ACCEL_OK) return st;
    if (n == 0) return ACCEL_E_TFLITE_SUBGRAPH;
    if ((st = accel_fb_elem(m->buf, m->len, vec, 0, &p)) != ACCEL_OK) return st;
    if ((st = accel_fb_table_at(&t, m->buf, m->len, p)) != ACCEL_OK) return st;
    if ((st = accel_fb_vector(&t, 3, 4, &vec, &n)) != ACCEL_OK) return st;
    if (i >= n) return ACCEL_E_ARG;
    if ((st = accel_fb_elem(m->buf, m->len, vec, i, &p)) != ACCEL_OK) return st;
    if ((st = accel_fb_table_at(&t, m->buf, m->len, p)) != ACCEL_OK) return st;
    if ((st = accel_fb_scalar(&t, 0, 4, 0, &code)) != ACCEL_OK) return st;
    if ((st = accel_fb_vector(&root, 1, 4, &vec, &n)) != ACCEL_OK) return st;
    if (code >= n) return ACCEL_E_TFLITE_OPCODE;
    if ((st = accel_fb_elem(m->buf, m->len, vec, (uint32_t)code, &p)) != ACCEL_OK) return st;
    if ((st = accel_fb_table_at(&t, m->buf, m->len, p)) != ACCEL_OK) return st;
    if ((st = accel_fb_string(&t, 1, &v)) != ACCEL_OK) return st;
    if (v.p) {
        *off = (uint64_t)(v.p - m->buf);
        *len = v.len;
    }
    return ACCEL_OK;
}

static accel_status accel_py_feed_kernel(void *user, const accel_tflite *rt, const accel_tflite_custom_io *io)
{
    accel_py_feed *f = (accel_py_feed *)user;
    uint32_t k;
    (void)rt;
    for (k = 0; k < io->n_outputs; k++) {
        /* Python sized the bytes to the model's custom outputs: a shortfall is not expected */
        if (io->out_len[k] > f->len - f->at) return ACCEL_E_TRUNCATED;
        if (io->out_len[k]) memcpy(io->out[k], f->p + f->at, io->out_len[k]);
        f->at += io->out_len[k];
    }
    return ACCEL_OK;
}

/* Every custom operator of the model runs from `data` (len bytes, kept by the caller as long as
 * the model): the feed record is armed and registered as the model's one custom entry, taking
 * every custom operator no built-in kernel replaces. Called again, it takes new bytes. */
ACCEL_PY_API int accel_py_custom_feed(void *model, void *feed, const uint8_t *data, uint64_t len)
{
    accel_py_feed *f = (accel_py_feed *)feed;
    if ((uint64_t)(size_t)len != len) return ACCEL_E_TOO_LONG;
    f->entry.name = NULL;
    f->entry.fn = accel_py_feed_kernel;
    f->entry.user = f;
    f->p = data;
    f->len = (size_t)len;
    f->at = 0;
    return accel_tflite_set_custom((accel_tflite_model *)model, &f->entry, 1);
}

/* Before each invocation: the custom operators take the bytes from the start again. */
ACCEL_PY_API int accel_py_feed_rewind(void *feed)
{
    ((accel_py_feed *)feed)->at = 0;
    return ACCEL_OK;
}

/* check: the status, and where it stopped in op_code[0..1] (index, builtin code; -1 for none). */
ACCEL_PY_API int accel_py_check(const void *model, int64_t *op_code)
{
    uint32_t op = UINT32_MAX;
    int32_t code = -1;
    accel_status st = accel_tflite_check((const accel_tflite_model *)model, &op, &code);
    op_code[0] = st == ACCEL_OK || op == UINT32_MAX ? -1 : (int64_t)op;
    op_code[1] = op_code[0] < 0 ? -1 : code;
    return st;
}

ACCEL_PY_API int accel_py_plan_scratch_size(const void *model, uint64_t *bytes)
{
    size_t n = 0;
    accel_status st = accel_tflite_plan_scratch_size((const accel_tflite_model *)model, &n);
    *bytes = n;
    return st;
}

ACCEL_PY_API int accel_py_plan(const void *model, void *work, uint64_t work_len, uint64_t *arena_bytes)
{
    size_t n = 0;
    accel_status st;
    if ((uint64_t)(size_t)work_len != work_len) return ACCEL_E_TOO_LONG;
    st = accel_tflite_plan((const accel_tflite_model *)model, work, (size_t)work_len, &n);
    *arena_bytes = n;
    return st;
}

/* init; op_code as for check: the operator init stopped at (-1 when the failure is no
 * operator's, e.g. the arena's alignment or size). */
ACCEL_PY_API int accel_py_init(void *rt_, const void *model, void *arena, uint64_t arena_len, int64_t *op_code)
{
    accel_tflite *rt = (accel_tflite *)rt_;
    accel_status st;
    op_code[0] = op_code[1] = -1;
    if ((uint64_t)(size_t)arena_len != arena_len) return ACCEL_E_TOO_LONG;
    rt->bad_op = ACCEL_TFLITE_NO_OP; /* init writes it too, but not before its NULL checks */
    st = accel_tflite_init(rt, (const accel_tflite_model *)model, arena, (size_t)arena_len);
    if (st != ACCEL_OK && rt->bad_op != ACCEL_TFLITE_NO_OP) {
        op_code[0] = rt->bad_op;
        op_code[1] = rt->bad_code;
    }
    return st;
}

ACCEL_PY_API int accel_py_set_input(void *rt, uint32_t k, const void *data, uint64_t len)
{
    if ((uint64_t)(size_t)len != len) return ACCEL_E_TOO_LONG;
    return accel_tflite_set_input((accel_tflite *)rt, k, data, (size_t)len);
}

static void accel_py_on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                           const void *data)
{
    accel_py_layers *l = (accel_py_layers *)user;
    int64_t *r;
    if (l->overflow) return;
    if (l->n_rec == l->rec_cap || t->bytes > l->cap - l->len) {
        l->overflow = 1;
        return;
    }
    r = l->rec + 5 * l->n_rec++;
    r[0] = op_index;
    r[1] = code;
    r[2] = tensor;
    r[3] = (int64_t)l->len;
    r[4] = (int64_t)t->bytes;
    if (t->bytes) memcpy(l->buf + l->len, data, t->bytes);
    l->len += t->bytes;
}

/* invoke; layers (NULL: none kept) receives every operator's outputs in execution order;
 * op_code as for check: the operator that failed. */
ACCEL_PY_API int accel_py_invoke(void *rt_, void *layers, uint8_t *buf, uint64_t cap, int64_t *rec, uint64_t rec_cap,
                                 int64_t *op_code)
{
    accel_tflite *rt = (accel_tflite *)rt_;
    accel_py_layers *l = (accel_py_layers *)layers;
    accel_status st;
    op_code[0] = op_code[1] = -1;
    if (l) {
        if ((uint64_t)(size_t)cap != cap || (uint64_t)(size_t)rec_cap != rec_cap) return ACCEL_E_TOO_LONG;
        memset(l, 0, sizeof *l);
        l->buf = buf;
        l->cap = (size_t)cap;
        l->rec = rec;
        l->rec_cap = (size_t)rec_cap;
        rt->on_op = accel_py_on_op;
        rt->user = l;
    } else {
        rt->on_op = NULL;
        rt->user = NULL;
    }
    st = accel_tflite_invoke(rt);
    rt->on_op = NULL;
    rt->user = NULL;
    if (st != ACCEL_OK) {
        op_code[0] = rt->bad_op;
        op_code[1] = rt->bad_code;
        return st;
    }
    if (l && l->overflow) return ACCEL_E_BUFFER_TOO_SMALL;
    return ACCEL_OK;
}

/* counts[0..1]: the records and bytes the last invoke kept */
ACCEL_PY_API int accel_py_layers_kept(const void *layers, uint64_t *counts)
{
    const accel_py_layers *l = (const accel_py_layers *)layers;
    counts[0] = l->n_rec;
    counts[1] = l->len;
    return ACCEL_OK;
}

/* Where tensor's data is: where[0] 0 in the arena, 1 in the model buffer; where[1] the offset
 * there; where[2] its bytes. */
ACCEL_PY_API int accel_py_tensor_where(const void *rt_, uint32_t tensor, uint64_t *where)
{
    const accel_tflite *rt = (const accel_tflite *)rt_;
    const uint8_t *p = NULL;
    size_t n = 0;
    accel_status st = accel_tflite_tensor_data(rt, tensor, &p, &n);
    if (st != ACCEL_OK) return st;
    /* as integers: comparing pointers into different objects is undefined in C */
    uintptr_t a = (uintptr_t)p, ar = (uintptr_t)rt->arena, mb = (uintptr_t)rt->model->buf;
    if (rt->arena && a >= ar && a - ar <= rt->arena_len && n <= rt->arena_len - (size_t)(a - ar)) {
        where[0] = 0;
        where[1] = (uint64_t)(a - ar);
    } else if (a >= mb && a - mb <= rt->model->len && n <= rt->model->len - (size_t)(a - mb)) {
        where[0] = 1;
        where[1] = (uint64_t)(a - mb);
    } else {
        return ACCEL_E_STATE; /* neither: not where this runtime keeps tensors (not expected) */
    }
    where[2] = n;
    return ACCEL_OK;
}

ACCEL_PY_API int accel_py_reset(void *rt) { return accel_tflite_reset((accel_tflite *)rt); }
