/* test_tflite.c - the tflite section: every shared golden case (TFLM's outputs, every layer,
 * byte for byte), the arena against TFLM's, and malformed models. */
/* only the tflite section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include <math.h>
#include "vectors/tflite/models.h"

#define TFL_ENV "ACCEL_TFLITE_DATA"

/* the per-operator callback: every output appended in execution order */
typedef struct layers_buf {
    uint8_t *p;
    size_t len, cap;
    int overflow;
} layers_buf;

static void on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    layers_buf *b = (layers_buf *)user;
    (void)op_index;
    (void)code;
    (void)tensor;
    if (b->len + t->bytes > b->cap) {
        b->overflow = 1;
        return;
    }
    memcpy(b->p + b->len, data, t->bytes);
    b->len += t->bytes;
}

/* The arena a model needs, planned with the scratch the planner asks for. */
static accel_status plan_need(const accel_tflite_model *m, size_t *need)
{
    size_t wl = 0;
    void *work;
    accel_status st;
    if (accel_tflite_plan_scratch_size(m, &wl) != ACCEL_OK) wl = 0;
    work = malloc(wl + 4);
    st = accel_tflite_plan(m, work, wl, need);
    free(work);
    return st;
}

/* A golden's input file: the graph inputs back to back (a model with one input takes the whole
 * file, whose size set_input checks); ACCEL_E_ARG when the file does not hold them exactly. */
static accel_status set_inputs(accel_tflite *rt, const accel_tflite_model *m, const uint8_t *in, size_t len)
{
    uint32_t k;
    size_t done = 0;
    accel_status st = ACCEL_OK;
    if (m->n_inputs == 1u) return accel_tflite_set_input(rt, 0, in, len);
    for (k = 0; k < m->n_inputs && st == ACCEL_OK; k++) {
        uint32_t ti;
        accel_tflite_tensor t;
        st = accel_tflite_graph_tensor(m, 0, k, &ti);
        if (st == ACCEL_OK) st = accel_tflite_tensor_info(m, ti, &t);
        if (st == ACCEL_OK) st = t.bytes <= len - done ? accel_tflite_set_input(rt, k, in + done, t.bytes) : ACCEL_E_ARG;
        done += t.bytes;
    }
    return st == ACCEL_OK && done != len ? ACCEL_E_ARG : st;
}

/* Run one model on consecutive inputs (no reset between); compare the last output and layers.
 * Returns 1 when both match. */
static int run_case(const char *dir, const char *model, const char *inputs, const char *outp, const char *layp,
                    long tflm_arena, char *why, size_t why_len)
{
    char path[4200], list[2048];
    size_t mlen, olen, llen, arena_len = 0, got;
    uint8_t *mbuf, *want_out, *want_layers, *out;
    void *arena;
    accel_tflite_model m;
    accel_tflite rt;
    layers_buf lb;
    accel_status st;
    char *tok, *next;
    int ok = 0;
    snprintf(path, sizeof path, "%s/%s.tflite", dir, model);
    mbuf = tl_load_file(path, &mlen);
    snprintf(path, sizeof path, "%s/%s", dir, outp);
    want_out = tl_load_file(path, &olen);
    snprintf(path, sizeof path, "%s/%s", dir, layp);
    want_layers = layp[0] ? tl_load_file(path, &llen) : NULL; /* "": the layers not compared */
    if (!layp[0]) llen = 0;
    if (!mbuf || !want_out || (layp[0] && !want_layers)) {
        snprintf(why, why_len, "files missing");
        free(mbuf); free(want_out); free(want_layers);
        return 0;
    }
    st = accel_tflite_open(&m, mbuf, mlen);
    if (st != ACCEL_OK) {
        snprintf(why, why_len, "open: %s", accel_status_str(st));
        free(mbuf); free(want_out); free(want_layers);
        return 0;
    }
    st = plan_need(&m, &arena_len);
    if (st != ACCEL_OK) {
        uint32_t bad_op = 0;
        int32_t bad_code = 0;
        (void)accel_tflite_check(&m, &bad_op, &bad_code);
        snprintf(why, why_len, "arena_size: %s (op %u code %d %s)", accel_status_str(st), (unsigned)bad_op,
                 (int)bad_code, accel_tflite_op_name(bad_code) ? accel_tflite_op_name(bad_code) : "?");
        free(mbuf); free(want_out); free(want_layers);
        return 0;
    }
    arena = malloc(arena_len + 4);
    lb.cap = llen + 64;
    lb.p = (uint8_t *)malloc(lb.cap);
    out = (uint8_t *)malloc(olen + 64);
    st = accel_tflite_init(&rt, &m, arena, arena_len);
    if (st == ACCEL_OK) {
        rt.on_op = on_op;
        rt.user = &lb;
        snprintf(list, sizeof list, "%s", inputs);
        for (tok = list; tok && st == ACCEL_OK; tok = next) {
            size_t ilen;
            uint8_t *in;
            next = strstr(tok, "+cases/"); /* a name may hold '+' (x+0) */
            if (next) *next++ = 0;
            snprintf(path, sizeof path, "%s/%s", dir, tok);
            in = tl_load_file(path, &ilen);
            if (!in) {
                snprintf(why, why_len, "missing input file");
                st = ACCEL_E_IO;
                break;
            }
            lb.len = 0;
            lb.overflow = 0;
            st = set_inputs(&rt, &m, in, ilen);
            if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
            free(in);
        }
    }
    { /* every output, back to back */
        uint32_t k;
        size_t one = 0;
        got = 0;
        for (k = 0; k < m.n_outputs && st == ACCEL_OK; k++) {
            st = accel_tflite_get_output(&rt, k, out + got, olen + 64 - got, &one);
            got += one;
        }
    }
    if (st != ACCEL_OK) {
        snprintf(why, why_len, "run: %s (op %u code %d)", accel_status_str(st), (unsigned)rt.bad_op,
                 (int)rt.bad_code);
    } else if (got != olen || memcmp(out, want_out, olen) != 0) {
        size_t i = 0;
        while (i < got && i < olen && out[i] == want_out[i]) i++;
        snprintf(why, why_len, "output differs at byte %zu of %zu", i, olen);
    } else if (want_layers && (lb.overflow || lb.len != llen || memcmp(lb.p, want_layers, llen) != 0)) {
        size_t i = 0;
        while (i < lb.len && i < llen && lb.p[i] == want_layers[i]) i++;
        snprintf(why, why_len, "layers differ at byte %zu of %zu (got %zu)", i, llen, lb.len);
    } else if (tflm_arena > 0 && (long)arena_len > tflm_arena) {
        snprintf(why, why_len, "arena %zu > TFLM's %ld", arena_len, tflm_arena);
    } else {
        if (tflm_arena > 0) snprintf(why, why_len, "arena %zu (TFLM %ld)", arena_len, tflm_arena);
        else snprintf(why, why_len, "arena %zu", arena_len);
        ok = 1;
    }
    free(arena); free(lb.p); free(out); free(mbuf); free(want_out); free(want_layers);
    return ok;
}

static void test_goldens(void)
{
    char path[600], line[4096];
    const char *dir;
    FILE *f;
    int n = 0, pass = 0;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    dir = tl_data_dir(TFL_ENV, "tflite");
    snprintf(path, sizeof path, "%s/goldens.tsv", dir);
    f = fopen(path, "r");
    REQUIRE(f != NULL);
    while (fgets(line, sizeof line, f)) {
        char *col[16], why[256];
        int c, ok;
        c = tl_split_tabs(line, col, 16);
        if (c < 11 || strcmp(col[0], "model") == 0) continue;
        n++;
        ok = run_case(dir, col[0], col[2], col[3], col[7], atol(col[10]), why, sizeof why);
        pass += ok;
        printf("  %s %s/%s: %s\n", ok ? "ok  " : "FAIL", col[0], col[1], why);
        CHECK(ok);
    }
    fclose(f);
    printf("  golden cases: %d of %d match byte for byte (output and every layer)\n", pass, n);
    CHECK(n == 63);
}

/* 1 when this build runs every operator of a goldens.tsv ops column (builtin names, and
 * CUSTOM:NAME for a custom operator: with custom_ok, taken as run by a registered kernel) */
static int runs_all(const char *ops, int custom_ok)
{
    char list[1024], *tok;
    snprintf(list, sizeof list, "%s", ops);
    for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int32_t c;
        if (custom_ok && strncmp(tok, "CUSTOM:", 7) == 0) continue;
        /* the custom operator the runner has built in, where it is built */
        if (strncmp(tok, "CUSTOM:", 7) == 0 && accel_tflite_op_custom_kept(tok + 7)) continue;
        for (c = 0; c <= ACCEL_TFLITE_OP_LAST && strcmp(accel_tflite_op_name(c), tok) != 0; c++) {
        }
        if (c > ACCEL_TFLITE_OP_LAST || !accel_tflite_op_kept(c)) return 0;
    }
    return 1;
}

/* In an integer-only build (ACCEL_MAC_NO_FLOAT), a model that needs TFLite's float32 arithmetic
 * (uint8 RESIZE_BILINEAR, uint8 CONCATENATION that rescales, uint8 LOGISTIC) is refused, and named for it: 1 then */
static int float_refused(const char *dir, const char *model)
{
#ifdef ACCEL_MAC_NO_FLOAT
    char path[1024];
    size_t mlen;
    uint8_t *mbuf;
    accel_tflite_model m;
    uint32_t bad_op = 0;
    int32_t bad_code = -1;
    int yes = 0;
    snprintf(path, sizeof path, "%s/%s.tflite", dir, model);
    mbuf = tl_load_file(path, &mlen);
    if (!mbuf) return 0; /* the caller reports it */
    if (accel_tflite_open(&m, mbuf, mlen) == ACCEL_OK &&
        accel_tflite_check(&m, &bad_op, &bad_code) == ACCEL_E_TFLITE_UNSUPPORTED) {
        accel_tflite_refusal r;
        (void)accel_tflite_check_op(&m, bad_op, &r);
        yes = strcmp(r.reason, "float32 arithmetic (an ACCEL_MAC_NO_FLOAT build)") == 0;
        if (yes) {
            printf("  ok   %s: refused at operator %u %s: %s\n", model, (unsigned)bad_op, accel_tflite_op_name(bad_code),
                   r.reason);
            CHECK(bad_code == ACCEL_TFLITE_OP_RESIZE_BILINEAR || bad_code == ACCEL_TFLITE_OP_CONCATENATION ||
                  bad_code == ACCEL_TFLITE_OP_LOGISTIC);
        }
    }
    free(mbuf);
    return yes;
#else
    (void)dir;
    (void)model;
    return 0;
#endif
}

/* A custom operator's kernel that only stops the run there (libcoral's PosenetDecoderOp: no
 * other runtime has it) */
static accel_status custom_stop(void *user, const accel_tflite *rt, const accel_tflite_custom_io *io)
{
    (void)user;
    (void)rt;
    (void)io;
    return ACCEL_E_TFLITE_CUSTOM;
}

/* A model whose one unknown operator is a custom one at the end: with a kernel registered that
 * stops there, invoke runs every operator before it and stops at it, naming it; the goldens then
 * hold that operator's inputs, back to back. */
static int run_to_custom(const char *dir, const char *model, const char *inp, const char *outp, char *why,
                         size_t why_len)
{
    char path[4200];
    size_t mlen, olen, ilen, need = 0, at = 0;
    uint8_t *mbuf, *want, *in, *arena = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    accel_tflite_op op;
    accel_tflite_custom stop = {NULL, custom_stop, NULL};
    accel_status st;
    uint32_t k;
    int ok = 0;
    snprintf(path, sizeof path, "%s/%s.tflite", dir, model);
    mbuf = tl_load_file(path, &mlen);
    snprintf(path, sizeof path, "%s/%s", dir, outp);
    want = tl_load_file(path, &olen);
    snprintf(path, sizeof path, "%s/%s", dir, inp);
    in = tl_load_file(path, &ilen);
    st = mbuf && want && in ? accel_tflite_open(&m, mbuf, mlen) : ACCEL_E_IO;
    if (st == ACCEL_OK) st = accel_tflite_set_custom(&m, &stop, 1);
    if (st == ACCEL_OK) st = plan_need(&m, &need);
    if (st == ACCEL_OK) arena = (uint8_t *)malloc(need + 4);
    if (st == ACCEL_OK) st = arena ? accel_tflite_init(&rt, &m, arena, need) : ACCEL_E_NULL;
    if (st == ACCEL_OK) st = set_inputs(&rt, &m, in, ilen);
    if (st == ACCEL_OK) {
        st = accel_tflite_invoke(&rt);
        if (st != ACCEL_E_TFLITE_CUSTOM || rt.bad_code != 32) {
            snprintf(why, why_len, "invoke: %s at op %u (code %d), want the custom operator's stop", accel_status_str(st),
                     (unsigned)rt.bad_op, (int)rt.bad_code);
            st = ACCEL_E_STATE;
        } else {
            st = accel_tflite_op_info(&m, rt.bad_op, &op);
        }
    }
    for (k = 0; st == ACCEL_OK && k < op.n_inputs; k++) {
        int32_t ti = -1;
        const uint8_t *p;
        size_t n;
        st = accel_tflite_op_tensor(&m, &op, 0, k, &ti);
        if (st == ACCEL_OK) st = ti < 0 ? ACCEL_E_TFLITE_ARITY : accel_tflite_tensor_data(&rt, (uint32_t)ti, &p, &n);
        if (st == ACCEL_OK && (at + n > olen || memcmp(want + at, p, n) != 0)) {
            snprintf(why, why_len, "the custom operator's input %u differs from the golden", (unsigned)k);
            st = ACCEL_E_STATE;
        }
        at += n;
    }
    if (st == ACCEL_OK && at != olen) {
        snprintf(why, why_len, "the golden holds %zu bytes, the inputs %zu", olen, at);
    } else if (st == ACCEL_OK) {
        snprintf(why, why_len, "stopped at its custom operator %u, whose inputs match (%zu bytes)", (unsigned)rt.bad_op, at);
        ok = 1;
    } else if (!why[0]) {
        snprintf(why, why_len, "%s", accel_status_str(st));
    }
    free(mbuf); free(want); free(in); free(arena);
    return ok;
}

#if ACCEL__TFL_FLOAT
/* uint8 LOGISTIC's table against TFLite's formula computed here with the C library's expf: the
 * runner's own exp (no libm in the core) must give the same 256 entries for every scale and zero
 * point tried, and expf's value to within one unit in the last place (how often it differs at
 * all is printed). */
static void test_logistic_table(void)
{
    long diff = 0, far = 0, n = 0, bad_tables = 0;
    int it;
    float x;
    for (x = -20.f; x <= 20.f; x += 1.0f / 4096.f) {
        float a = accel__tfl_expf(x), b = expf(x);
        uint32_t ua, ub;
        memcpy(&ua, &a, 4);
        memcpy(&ub, &b, 4);
        n++;
        diff += ua != ub;
        far += (ua > ub ? ua - ub : ub - ua) > 1u;
    }
    printf("  exp on %ld floats in [-20, 20]: %ld differ from expf in the last bit, %ld by more\n", n, diff, far);
    CHECK_EQ(far, 0);
    for (it = 0; it < 3000; it++) {
        accel_tflite_tensor in, out;
        uint8_t lut[256];
        float si = (float)(tl_rand() % 100000u + 1u) / 100000.f * (it % 3 == 0 ? 1.f : 0.1f), so = 1.f / 256.f, inv;
        int32_t q;
        memset(&in, 0, sizeof in);
        memset(&out, 0, sizeof out);
        memcpy(&in.scale_bits, &si, 4);
        memcpy(&out.scale_bits, &so, 4);
        in.zero_point = (int32_t)(tl_rand() % 256u);
        out.zero_point = it % 7 == 0 ? 3 : 0;
        accel__tfl_act_lut(lut, &in, &out, 0);
        inv = 1.f / so;
        for (q = 0; q < 256; q++) {
            volatile float d = si * (float)(q - in.zero_point);
            volatile float sg = 1.0f / (1.0f + expf(-d));
            volatile float v = roundf(sg * inv);
            int32_t r = (int32_t)(v + (float)out.zero_point);
            r = r < 0 ? 0 : r > 255 ? 255 : r;
            if (lut[q] != (uint8_t)r) {
                bad_tables++;
                printf("  FAIL: scale %.9g zp %d: entry %d is %u, want %d\n", (double)si, (int)in.zero_point, (int)q,
                       lut[q], (int)r);
                break;
            }
        }
    }
    CHECK_EQ(bad_tables, 0);
}

/* uint8 TANH's table the same way. The runner's tanh is the correctly rounded float (the host's
 * double tanh rounded once, here), which the C library's tanhf (what TFLite's table calls) is
 * not always: glibc 2.36's is off by up to a few units in the last place for some inputs (how
 * many is printed). The tables, with output quantizations of every kind (TFLite requires none:
 * the converter's 1/128 zp 128, random scales and zero points), must equal TFLite's formula on
 * the correctly rounded tanh, and how many differ with tanhf's is printed. */
static void test_tanh_table(void)
{
    long diff = 0, n = 0, wrong = 0, bad_tables = 0, libm_tables = 0;
    uint32_t worst = 0;
    int it;
    float x;
    for (x = -12.f; x <= 12.f; x += 1.0f / 8192.f) {
        float a = accel__tfl_tanhf(x), b = tanhf(x), r = (float)tanh((double)x);
        uint32_t ua, ub, ur;
        memcpy(&ua, &a, 4);
        memcpy(&ub, &b, 4);
        memcpy(&ur, &r, 4);
        n++;
        wrong += ua != ur;
        diff += ua != ub;
        if ((ua > ub ? ua - ub : ub - ua) > worst) worst = ua > ub ? ua - ub : ub - ua;
    }
    printf("  tanh on %ld floats in [-12, 12]: %ld not correctly rounded; %ld differ from tanhf (by %u units at most)\n",
           n, wrong, diff, (unsigned)worst);
    CHECK_EQ(wrong, 0);
    CHECK(accel__tfl_tanhf(1e-30f) == 1e-30f && accel__tfl_tanhf(-30.f) == -1.f && accel__tfl_tanhf(0.f) == 0.f);
    for (it = 0; it < 3000; it++) {
        accel_tflite_tensor in, out;
        uint8_t lut[256];
        float si = (float)(tl_rand() % 100000u + 1u) / 100000.f * (it % 3 == 0 ? 1.f : 0.1f), inv;
        float so = it % 2 ? 1.f / 128.f : (float)(tl_rand() % 100000u + 1u) / 1000000.f;
        int32_t q, libm_differs = 0;
        memset(&in, 0, sizeof in);
        memset(&out, 0, sizeof out);
        memcpy(&in.scale_bits, &si, 4);
        memcpy(&out.scale_bits, &so, 4);
        in.zero_point = (int32_t)(tl_rand() % 256u);
        out.zero_point = it % 2 ? 128 : (int32_t)(tl_rand() % 256u);
        accel__tfl_act_lut(lut, &in, &out, 1);
        inv = 1.f / so;
        for (q = 0; q < 256; q++) {
            volatile float d = si * (float)(q - in.zero_point);
            volatile float th = (float)tanh((double)d), thf = tanhf(d);
            volatile float v = roundf(th * inv), vf = roundf(thf * inv);
            int32_t r = (int32_t)(v + (float)out.zero_point), rf = (int32_t)(vf + (float)out.zero_point);
            r = r < 0 ? 0 : r > 255 ? 255 : r;
            rf = rf < 0 ? 0 : rf > 255 ? 255 : rf;
            libm_differs |= r != rf;
            if (lut[q] != (uint8_t)r) {
                bad_tables++;
                printf("  FAIL: scale %.9g zp %d out %.9g %d: entry %d is %u, want %d\n", (double)si,
                       (int)in.zero_point, (double)so, (int)out.zero_point, (int)q, lut[q], (int)r);
                break;
            }
        }
        libm_tables += libm_differs;
    }
    printf("  tanh tables: 3000, %ld would differ with this C library's tanhf\n", libm_tables);
    CHECK_EQ(bad_tables, 0);
}
#endif

/* The custom operators the runner has built in, by name: TFLite_Detection_PostProcess only, and
 * only where float32 arithmetic is built. */
static void test_custom_kept(void)
{
    CHECK_EQ(accel_tflite_op_custom_kept("TFLite_Detection_PostProcess"), ACCEL__TFL_FLOAT ? 1 : 0);
    CHECK_EQ(accel_tflite_op_custom_kept("TFLite_Detection_PostProcessX"), 0);
    CHECK_EQ(accel_tflite_op_custom_kept("TFLite_Detection_PostProces"), 0);
    CHECK_EQ(accel_tflite_op_custom_kept("edgetpu-custom-op"), 0);
    CHECK_EQ(accel_tflite_op_custom_kept(""), 0);
    CHECK_EQ(accel_tflite_op_custom_kept(NULL), 0);
}

/* The test's SHA-256 against FIPS 180-2's examples (one block, two blocks, none). */
static void test_sha256(void)
{
    char hex[65];
    tl_sha256_hex((const uint8_t *)"abc", 3, hex);
    CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
    tl_sha256_hex((const uint8_t *)"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
    CHECK(strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
    tl_sha256_hex((const uint8_t *)"", 0, hex);
    CHECK(strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
}

/* A model whose golden layers are only digests (the automl traffic detector, ending in the built-in
 * TFLite_Detection_PostProcess: SSD decoding and non-maximum suppression): the outputs byte for
 * byte and every layer by sha256. */
static int run_by_digest(const char *dir, const char *model, const char *inp, const char *outp, const char *layp,
                         char *why, size_t why_len)
{
    char path[4200], line[4096];
    size_t mlen, ilen, need = 0;
    uint8_t *mbuf, *in, *arena = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    layers_buf lb;
    size_t olen = 0, got = 0, one = 0;
    uint8_t *want, *out;
    accel_status st;
    FILE *f;
    uint32_t k;
    int ok = 0, rows = 0, match = 0;
    snprintf(path, sizeof path, "%s/%s.tflite", dir, model);
    mbuf = tl_load_file(path, &mlen);
    snprintf(path, sizeof path, "%s/%s", dir, inp);
    in = tl_load_file(path, &ilen);
    snprintf(path, sizeof path, "%s/%s", dir, outp);
    want = tl_load_file(path, &olen);
    out = (uint8_t *)malloc(olen + 64);
    lb.cap = (size_t)64 << 20;
    lb.p = (uint8_t *)malloc(lb.cap);
    lb.len = 0;
    lb.overflow = 0;
    st = mbuf && in && want && out && lb.p ? accel_tflite_open(&m, mbuf, mlen) : ACCEL_E_IO;
    if (st == ACCEL_OK) st = plan_need(&m, &need);
    if (st == ACCEL_OK) st = (arena = (uint8_t *)malloc(need + 4)) ? accel_tflite_init(&rt, &m, arena, need) : ACCEL_E_NULL;
    if (st == ACCEL_OK) st = set_inputs(&rt, &m, in, ilen);
    if (st == ACCEL_OK) {
        rt.on_op = on_op;
        rt.user = &lb;
        st = accel_tflite_invoke(&rt);
        if (st != ACCEL_OK) snprintf(why, why_len, "invoke: %s at op %u", accel_status_str(st), (unsigned)rt.bad_op);
    }
    for (k = 0; st == ACCEL_OK && k < m.n_outputs; k++) { /* every output, back to back */
        st = accel_tflite_get_output(&rt, k, out + got, olen + 64 - got, &one);
        got += one;
    }
    if (st == ACCEL_OK && (got != olen || memcmp(out, want, olen) != 0)) {
        size_t i = 0;
        while (i < got && i < olen && out[i] == want[i]) i++;
        snprintf(why, why_len, "output differs at byte %zu of %zu (got %zu)", i, olen, got);
        st = ACCEL_E_STATE;
    }
    snprintf(path, sizeof path, "%s/%s", dir, layp);
    f = st == ACCEL_OK ? fopen(path, "r") : NULL;
    if (st == ACCEL_OK && !f) st = ACCEL_E_IO;
    while (f && fgets(line, sizeof line, f)) {
        char *col[10], hex[65];
        size_t off, n;
        if (tl_split_tabs(line, col, 10) < 9 || strcmp(col[0], "op_index") == 0) continue;
        off = (size_t)strtoull(col[6], NULL, 10);
        n = (size_t)strtoull(col[7], NULL, 10);
        rows++;
        if (lb.overflow || off > lb.len || n > lb.len - off) continue;
        tl_sha256_hex(lb.p + off, n, hex);
        if (strcmp(hex, col[8]) == 0) match++;
        else if (match + 1 == rows) snprintf(why, why_len, "layer %s (op %s %s) differs", col[3], col[0], col[1]);
    }
    if (f) fclose(f);
    if (st == ACCEL_OK && rows > 0 && match == rows) {
        snprintf(why, why_len, "the output (%zu bytes) and all %d layers (by sha256)", olen, rows);
        ok = 1;
    } else if (st == ACCEL_OK && !why[0]) {
        snprintf(why, why_len, "%d of %d layers match", match, rows);
    } else if (!why[0]) {
        snprintf(why, why_len, "%s", accel_status_str(st));
    }
    free(mbuf); free(in); free(arena); free(lb.p); free(want); free(out);
    return ok;
}

/* TensorFlow Lite's goldens of the Coral zoo (its reference kernels: the truth for TF1's uint8
 * models, which TFLM cannot run): every case whose operators this build has runs and matches, the
 * output byte for byte and every layer where the data stores them (layers_bin; the python port's
 * test compares the others by sha256). keras_lstm_mnist_ptq's layers are TFLite's integer LSTM,
 * which differs from TFLM's (this runner's) by 1 in places: its output is compared. A model with
 * an operator this build lacks is refused at init, naming one of the model's operators. */
static void test_coral_goldens(void)
{
    char path[600], line[8192];
    const char *dir;
    FILE *f;
    int n = 0, ran = 0, pass = 0, refused = 0, refused_float = 0;
    REQUIRE_DATA("ACCEL_TFLITE_CORAL_DATA", "tflite-coral");
    if (tl_case_skipped) return;
    dir = tl_data_dir("ACCEL_TFLITE_CORAL_DATA", "tflite-coral");
    snprintf(path, sizeof path, "%s/goldens.tsv", dir);
    f = fopen(path, "r");
    REQUIRE(f != NULL);
    while (fgets(line, sizeof line, f)) {
        char *col[24], why[256];
        int c, ok;
        why[0] = 0;
        c = tl_split_tabs(line, col, 24);
        if (c < 11 || strcmp(col[0], "model") == 0) continue;
        n++;
        if (float_refused(dir, col[0])) {
            refused_float++;
            continue;
        }
        if (!col[8][0] && runs_all(col[10], 0)) { /* layers as digests only */
            ok = run_by_digest(dir, col[0], col[2], col[3], col[7], why, sizeof why);
            printf("  %s %s/%s: %s\n", ok ? "ok  " : "FAIL", col[0], col[1], why);
            CHECK(ok);
            ran++;
            pass += ok;
            continue;
        }
        if (!runs_all(col[10], 0) && runs_all(col[10], 1)) { /* every operator but a custom one */
            ok = run_to_custom(dir, col[0], col[2], col[3], why, sizeof why);
            printf("  %s %s/%s: %s\n", ok ? "ok  " : "FAIL", col[0], col[1], why);
            CHECK(ok);
            ran++;
            pass += ok;
            continue;
        }
        if (!runs_all(col[10], 0)) {
            size_t mlen;
            uint8_t *mbuf;
            accel_tflite_model m;
            uint32_t bad_op = 0;
            int32_t bad_code = -1;
            accel_status st;
            snprintf(path, sizeof path, "%s/%s.tflite", dir, col[0]);
            mbuf = tl_load_file(path, &mlen);
            REQUIRE(mbuf != NULL);
            CHECK_EQ(accel_tflite_open(&m, mbuf, mlen), ACCEL_OK);
            st = accel_tflite_check(&m, &bad_op, &bad_code);
            CHECK(st == ACCEL_E_TFLITE_UNSUPPORTED || st == ACCEL_E_TFLITE_CUSTOM);
            CHECK(bad_code == 32 || (accel_tflite_op_name(bad_code) && strstr(col[10], accel_tflite_op_name(bad_code))));
            refused++;
            free(mbuf);
            continue;
        }
        ran++;
        ok = run_case(dir, col[0], col[2], col[3], strcmp(col[0], "keras_lstm_mnist_ptq") ? col[8] : "", 0, why,
                      sizeof why);
        pass += ok;
        printf("  %s %s/%s: %s%s\n", ok ? "ok  " : "FAIL", col[0], col[1], why,
               col[8][0] && strcmp(col[0], "keras_lstm_mnist_ptq") ? ", every layer" : ", the output");
        CHECK(ok);
    }
    fclose(f);
    printf("  coral cases: %d of %d run, %d match byte for byte; %d refused (an operator this build lacks)\n", ran, n,
           pass, refused);
    if (refused_float) printf("  coral cases: %d refused for float32 arithmetic, as an integer-only build must\n", refused_float);
    /* keras_lstm, the uint8 mobilenet_v1 and _v2, split_concat, tf2_mobilenet_v2, deeplabv3, posenet,
     * the traffic detector (its TFLite_Detection_PostProcess included) */
    CHECK(ran + refused_float == 24);
    CHECK(pass == ran);
    /* integer only: deeplabv3's uint8 RESIZE_BILINEAR and the traffic detector's uint8 LOGISTIC are float */
    CHECK(ran == (ACCEL__TFL_FLOAT ? 24 : 18));
}

/* ---- the hand-made models: statuses, and outputs worked out by hand in the generator ---- */
static void feed_inputs(accel_tflite *rt, const tfl_case *tc, accel_status *st)
{
    uint32_t k;
    size_t done = 0;
    for (k = 0; k < rt->model->n_inputs && *st == ACCEL_OK; k++) {
        uint32_t ti;
        accel_tflite_tensor t;
        *st = accel_tflite_graph_tensor(rt->model, 0, k, &ti);
        if (*st == ACCEL_OK) *st = accel_tflite_tensor_info(rt->model, ti, &t);
        if (*st != ACCEL_OK) return;
        if (done + t.bytes > tc->in_len) {
            *st = ACCEL_E_ARG;
            return;
        }
        *st = accel_tflite_set_input(rt, k, tc->in + done, t.bytes);
        done += t.bytes;
    }
}

static void test_small_models(void)
{
    size_t i;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++) {
        const tfl_case *tc = &tfl_cases[i];
        accel_tflite_model m;
        accel_tflite rt;
        static uint32_t arena[8192]; /* the largest: softmax of 4,096 into int16, 12 KiB of data */
        static uint8_t out[8192];
        uint32_t bad_op = 99;
        int32_t bad_code = -99;
        size_t need = 0, got = 0;
        accel_status st = accel_tflite_open(&m, tc->model, tc->len);
        if (st != tc->open_st) printf("  %s: open %s, want %s\n", tc->name, accel_status_str(st), accel_status_str(tc->open_st));
        CHECK_EQ(st, tc->open_st);
        if (st != ACCEL_OK) continue;
        st = accel_tflite_check(&m, &bad_op, &bad_code);
        if (st != tc->check_st) printf("  %s: check %s, want %s\n", tc->name, accel_status_str(st), accel_status_str(tc->check_st));
        CHECK_EQ(st, tc->check_st);
        if (st != ACCEL_OK) {
            accel_tflite_op op;
            accel_tflite_refusal r;
            uint32_t k;
            CHECK_EQ(bad_op, tc->bad_op);
            CHECK_EQ(accel_tflite_op_info(&m, bad_op, &op), ACCEL_OK);
            CHECK_EQ(bad_code, op.code);
            /* init refuses the same way and names the same operator */
            CHECK_EQ(accel_tflite_init(&rt, &m, arena, sizeof arena), tc->check_st);
            CHECK_EQ(rt.bad_op, tc->bad_op);
            CHECK_EQ(rt.bad_code, op.code);
            /* check_op: the operators before it run; it is refused the same way, for the reason
             * the generator worked out */
            for (k = 0; k < bad_op; k++) CHECK_EQ(accel_tflite_check_op(&m, k, &r), ACCEL_OK);
            CHECK_EQ(accel_tflite_check_op(&m, bad_op, &r), tc->check_st);
            CHECK_EQ(r.status, tc->check_st);
            CHECK_EQ(r.op, bad_op);
            CHECK_EQ(r.code, op.code);
            if (tc->reason[0] && strcmp(r.reason, tc->reason) != 0) {
                printf("  %s: reason \"%s\", want \"%s\"\n", tc->name, r.reason, tc->reason);
                CHECK(0);
            }
            continue;
        }
        REQUIRE(accel_tflite_plan(&m, arena, sizeof arena, &need) == ACCEL_OK);
        CHECK(need <= sizeof arena);
        /* a byte short of the plan is refused as an arena too small, no operator's fault; exactly
         * the plan works */
        CHECK_EQ(accel_tflite_init(&rt, &m, arena, need - 1), ACCEL_E_TFLITE_ARENA);
        CHECK_EQ(rt.bad_op, ACCEL_TFLITE_NO_OP);
        CHECK_EQ(accel_tflite_init(&rt, &m, arena, 4), ACCEL_E_TFLITE_ARENA); /* not even the table */
        REQUIRE(accel_tflite_init(&rt, &m, arena, need) == ACCEL_OK);
        CHECK_EQ(rt.arena_used, need);
        st = ACCEL_OK;
        feed_inputs(&rt, tc, &st);
        CHECK_EQ(st, ACCEL_OK);
        st = accel_tflite_invoke(&rt);
        if (st != tc->invoke_st)
            printf("  %s: invoke %s, want %s\n", tc->name, accel_status_str(st), accel_status_str(tc->invoke_st));
        CHECK_EQ(st, tc->invoke_st);
        if (tc->invoke_st != ACCEL_OK) { /* the operator that failed is named */
            accel_tflite_op op;
            CHECK_EQ(rt.bad_op, tc->bad_op);
            CHECK_EQ(accel_tflite_op_info(&m, rt.bad_op, &op), ACCEL_OK);
            CHECK_EQ(rt.bad_code, op.code);
            continue;
        }
        { /* every output, back to back */
            uint32_t k;
            size_t one = 0;
            for (k = 0, got = 0; k < m.n_outputs; k++) {
                CHECK_EQ(accel_tflite_get_output(&rt, k, out + got, sizeof out - got, &one), ACCEL_OK);
                got += one;
            }
        }
        CHECK_EQ(got, tc->out_len);
        if (got != tc->out_len || memcmp(out, tc->out, got) != 0) {
            size_t k;
            printf("  %s: got", tc->name);
            for (k = 0; k < got && k < 16; k++) printf(" %d", (int)(int8_t)out[k]);
            printf(", want");
            for (k = 0; k < tc->out_len && k < 16; k++) printf(" %d", (int)(int8_t)tc->out[k]);
            printf("\n");
            CHECK(0);
        }
    }
}

static const tfl_case *find_case(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++)
        if (strcmp(tfl_cases[i].name, name) == 0) return &tfl_cases[i];
    return NULL;
}

typedef struct cb_log {
    int calls;
    uint32_t ops[8], tensors[8];
    int32_t codes[8];
    uint8_t first[8];
} cb_log;

static void log_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                   const void *data)
{
    cb_log *l = (cb_log *)user;
    if (l->calls < 8) {
        l->ops[l->calls] = op_index;
        l->codes[l->calls] = code;
        l->tensors[l->calls] = tensor;
        l->first[l->calls] = t->bytes ? *(const uint8_t *)data : 0;
    }
    l->calls++;
}

/* API rules: arguments, alignment, input length, the callback's order and data, tensor data. */
static void test_api(void)
{
    const tfl_case *tc = find_case("fc_then_quantize");
    accel_tflite_model m;
    accel_tflite rt;
    uint32_t arena[256];
    size_t need = 0, got = 0, wsz = 0, n = 0;
    uint8_t out[8];
    const uint8_t *p;
    cb_log log;
    accel_tflite_refusal r;
    REQUIRE(tc != NULL);
    CHECK_EQ(accel_tflite_open(NULL, tc->model, tc->len), ACCEL_E_NULL);
    CHECK_EQ(accel_tflite_open(&m, NULL, tc->len), ACCEL_E_NULL);
    CHECK_EQ(accel_tflite_open(&m, tc->model, 7), ACCEL_E_MALFORMED);
    CHECK_EQ(accel_tflite_open(&m, tc->model, tc->len / 2), ACCEL_E_MALFORMED); /* cut short */
    REQUIRE(accel_tflite_open(&m, tc->model, tc->len) == ACCEL_OK);
    CHECK_EQ(m.n_ops, 2);
    CHECK_EQ(accel_tflite_plan_scratch_size(&m, &wsz), ACCEL_OK);
    CHECK_EQ(accel_tflite_plan(&m, arena, wsz - 1, &need), ACCEL_E_TFLITE_ARENA);
    CHECK_EQ(accel_tflite_plan(&m, (uint8_t *)arena + 1, wsz, &need), ACCEL_E_ALIGN);
    REQUIRE(accel_tflite_plan(&m, arena, wsz, &need) == ACCEL_OK);
    CHECK_EQ(accel_tflite_init(&rt, &m, (uint8_t *)arena + 2, need), ACCEL_E_ALIGN);
    REQUIRE(accel_tflite_init(&rt, &m, arena, sizeof arena) == ACCEL_OK);
    CHECK_EQ(accel_tflite_set_input(&rt, 0, tc->in, tc->in_len + 1), ACCEL_E_ARG);
    CHECK_EQ(accel_tflite_set_input(&rt, 1, tc->in, tc->in_len), ACCEL_E_ARG); /* one input only */
    REQUIRE(accel_tflite_set_input(&rt, 0, tc->in, tc->in_len) == ACCEL_OK);
    memset(&log, 0, sizeof log);
    rt.on_op = log_op;
    rt.user = &log;
    REQUIRE(accel_tflite_invoke(&rt) == ACCEL_OK);
    /* once per operator, in order, with its output: FC gives int8 3 (tensor 3), QUANTIZE 131 */
    CHECK_EQ(log.calls, 2);
    CHECK_EQ(log.ops[0], 0);
    CHECK_EQ(log.codes[0], ACCEL_TFLITE_OP_FULLY_CONNECTED);
    CHECK_EQ(log.tensors[0], 3);
    CHECK_EQ(log.first[0], 3);
    CHECK_EQ(log.ops[1], 1);
    CHECK_EQ(log.codes[1], ACCEL_TFLITE_OP_QUANTIZE);
    CHECK_EQ(log.tensors[1], 4);
    CHECK_EQ(log.first[1], 131);
    CHECK_EQ(accel_tflite_get_output(&rt, 0, out, 1, &got), ACCEL_E_BUFFER_TOO_SMALL);
    CHECK_EQ(got, 2);
    CHECK_EQ(accel_tflite_get_output(&rt, 0, out, sizeof out, &got), ACCEL_OK);
    CHECK_EQ(out[0], 131);
    CHECK_EQ(out[1], 125);
    /* constant tensors come from the model buffer */
    CHECK_EQ(accel_tflite_tensor_data(&rt, 1, &p, &n), ACCEL_OK);
    CHECK_EQ(n, 4);
    CHECK(p >= tc->model && p + n <= tc->model + tc->len);
    CHECK_EQ(accel_tflite_tensor_data(&rt, 99, &p, &n), ACCEL_E_TFLITE_TENSOR_INDEX);
    CHECK(accel_tflite_op_name(ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM) != NULL);
    CHECK(strcmp(accel_tflite_op_name(114), "QUANTIZE") == 0);
    CHECK(accel_tflite_op_name(1000) == NULL);
#ifndef ACCEL_MAC_NO_FLOAT
    { /* the scale as a float: fc_then_quantize's input 0.5, its bias 0.125, its uint8 output 1 */
        accel_tflite_tensor t;
        REQUIRE(accel_tflite_tensor_info(&m, 0, &t) == ACCEL_OK);
        CHECK(accel_tflite_tensor_scale_float(&t) == 0.5f);
        REQUIRE(accel_tflite_tensor_info(&m, 2, &t) == ACCEL_OK);
        CHECK(accel_tflite_tensor_scale_float(&t) == 0.125f);
        REQUIRE(accel_tflite_tensor_info(&m, 4, &t) == ACCEL_OK);
        CHECK(accel_tflite_tensor_scale_float(&t) == 1.0f);
        t.n_scales = 0; /* none: 0 */
        CHECK(accel_tflite_tensor_scale_float(&t) == 0.0f);
        CHECK(accel_tflite_tensor_scale_float(NULL) == 0.0f);
    }
#endif
    CHECK(strcmp(accel_tflite_type_name(ACCEL_TFLITE_UINT8), "uint8") == 0);
    CHECK(accel_tflite_type_name(5) == NULL); /* STRING: no tensor of it opens */
    CHECK_EQ(accel_tflite_check_op(&m, 2, &r), ACCEL_E_ARG);
    CHECK_EQ(accel_tflite_check_op(NULL, 0, &r), ACCEL_E_NULL);
    CHECK_EQ(accel_tflite_check_op(&m, 1, &r), ACCEL_OK);
    CHECK_EQ(r.reason[0], 0);
    /* QUANTIZE int8 -> uint8: its types, inputs then outputs */
    CHECK_EQ(r.n_types, 2);
    CHECK_EQ(r.n_inputs, 1);
    CHECK_EQ(r.types[0], ACCEL_TFLITE_INT8);
    CHECK_EQ(r.types[1], ACCEL_TFLITE_UINT8);
}

/* Every builtin code of the schema has its name (messages never say "builtin 56"): spot checks
 * against the schema's enum, and each of 0..205 named, none empty, no two alike. */
static void test_op_names(void)
{
    int32_t c, d;
    static const struct { int32_t code; const char *name; } spot[] = {
        {0, "ADD"}, {5, "DEPTH_TO_SPACE"}, {20, "RELU_N1_TO_1"}, {32, "CUSTOM"}, {56, "ARG_MAX"},
        {97, "RESIZE_NEAREST_NEIGHBOR"}, {107, "GATHER_ND"}, {127, "PLACEHOLDER_FOR_GREATER_OP_CODES"},
        {130, "BROADCAST_TO"}, {152, "RELU_0_TO_1"}, {162, "STABLEHLO_LOGISTIC"}, {203, "DILATE"},
        {205, "REDUCE_WINDOW"}, {225, "TEMP_STREAMING_CONV_2D"}};
    size_t i;
    for (i = 0; i < sizeof spot / sizeof spot[0]; i++) {
        const char *n = accel_tflite_op_name(spot[i].code);
        if (!n || strcmp(n, spot[i].name) != 0) printf("  code %d: %s, want %s\n", (int)spot[i].code, n ? n : "NULL", spot[i].name);
        CHECK(n && strcmp(n, spot[i].name) == 0);
    }
    for (c = 0; c <= ACCEL_TFLITE_OP_LAST; c++) {
        const char *n = accel_tflite_op_name(c);
        REQUIRE(n != NULL && n[0] != 0);
        for (d = 0; d < c; d++) CHECK(strcmp(n, accel_tflite_op_name(d)) != 0);
    }
    CHECK(accel_tflite_op_name(ACCEL_TFLITE_OP_LAST + 1) == NULL);
    CHECK(accel_tflite_op_name(-1) == NULL);
}

/* The operator table: each row's code is the schema's code of its name (the names table is the
 * schema's, checked above), its options type is one the schema has, its bit is its own, and this
 * build (every operator) keeps it, but DEQUANTIZE when it is integer only; no other code is kept. */
static void test_op_table(void)
{
    int32_t c;
    unsigned rows = 0, kept = 0;
#ifdef ACCEL_MAC_NO_FLOAT
    const int32_t left_out = ACCEL_TFLITE_OP_DEQUANTIZE; /* its output is float */
#else
    const int32_t left_out = -1;
#endif
    unsigned long bits = 0;
#define ROW(n, o, f, p, a, b, h, t)                                                                \
    rows++;                                                                                       \
    if (!accel_tflite_op_name(ACCEL_TFLITE_OP_##n) || strcmp(accel_tflite_op_name(ACCEL_TFLITE_OP_##n), #n) != 0) \
        printf("  row %s: code %d is named %s\n", #n, (int)ACCEL_TFLITE_OP_##n,                  \
               accel_tflite_op_name(ACCEL_TFLITE_OP_##n) ? accel_tflite_op_name(ACCEL_TFLITE_OP_##n) : "NULL"); \
    CHECK_STR(accel_tflite_op_name(ACCEL_TFLITE_OP_##n), #n);                                   \
    CHECK(((o) >= 1 && (o) <= 126) || (o) == -1); /* a BuiltinOptions member, or none checked */  \
    CHECK((bits & ACCEL_TFLITE_K_##n) == 0);                                                      \
    bits |= ACCEL_TFLITE_K_##n;                                                                   \
    CHECK_EQ(accel_tflite_op_kept(ACCEL_TFLITE_OP_##n), ACCEL_TFLITE_OP_##n != left_out);
    ACCEL__TFL_OPS(ROW)
#undef ROW
    CHECK_EQ(bits, ACCEL_TFLITE_K_ALL);
    CHECK_EQ(ACCEL_TFLITE_OPS, ACCEL_TFLITE_K_ALL);
    for (c = -1; c <= ACCEL_TFLITE_OP_LAST + 1; c++) kept += (unsigned)accel_tflite_op_kept(c);
    CHECK_EQ(kept, rows - (left_out >= 0));
    CHECK_EQ(accel_tflite_op_kept(42), 0); /* DIV */
    CHECK_EQ(accel_tflite_op_kept(107), 0); /* GATHER_ND */
    CHECK(rows >= 15);
}

/* Custom operators: a kernel registered by name (TFLM's AddCustom) makes check, plan and init
 * accept the operator, and invoke call it with its outputs' bytes; its status stops invoke
 * there. The model: one CUSTOM "my-custom-op", int8 [1, 2] in and out. */
typedef struct custom_log {
    int calls;
    uint32_t op_index, n_outputs;
    accel_status ret;
} custom_log;

static accel_status custom_double(void *user, const accel_tflite *rt, const accel_tflite_custom_io *io)
{
    custom_log *lg = (custom_log *)user;
    int32_t ti = -1;
    const uint8_t *in = NULL;
    size_t n = 0, k;
    lg->calls++;
    lg->op_index = io->op_index;
    lg->n_outputs = io->n_outputs;
    if (lg->ret != ACCEL_OK) return lg->ret;
    if (accel_tflite_op_tensor(rt->model, io->op, 0, 0, &ti) != ACCEL_OK || ti < 0 ||
        accel_tflite_tensor_data(rt, (uint32_t)ti, &in, &n) != ACCEL_OK || n != io->out_len[0])
        return ACCEL_E_STATE;
    for (k = 0; k < n; k++) io->out[0][k] = (uint8_t)(in[k] * 2u); /* the bytes, doubled */
    return ACCEL_OK;
}

static void test_custom_ops(void)
{
    const tfl_case *tc = find_case("custom_other");
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[256];
    custom_log lg;
    accel_tflite_custom other = {"my-custom-opx", custom_double, NULL}, mine = {"my-custom-op", custom_double, NULL};
    accel_tflite_custom any = {NULL, custom_double, NULL}, nofn = {"my-custom-op", NULL, NULL};
    accel_tflite_custom two[2];
    const int8_t in[2] = {3, -4};
    int8_t out[2] = {0, 0};
    size_t need = 0, got = 0;
    uint32_t bad = 99;
    int32_t code = 0;
    REQUIRE(tc != NULL);
    memset(&lg, 0, sizeof lg);
    other.user = mine.user = any.user = &lg;
    CHECK_EQ(accel_tflite_open(&m, tc->model, tc->len), ACCEL_OK);
    /* no table, and a table naming another operator (a longer name, not a prefix match) */
    CHECK_EQ(accel_tflite_check(&m, &bad, &code), ACCEL_E_TFLITE_CUSTOM);
    CHECK_EQ(accel_tflite_set_custom(&m, &other, 1), ACCEL_OK);
    CHECK_EQ(accel_tflite_check(&m, &bad, &code), ACCEL_E_TFLITE_CUSTOM);
    CHECK_EQ(accel_tflite_init(&rt, &m, arena, sizeof arena), ACCEL_E_TFLITE_CUSTOM);
    CHECK_EQ(rt.bad_op, 0);
    CHECK_EQ(rt.bad_code, 32);
    /* refusals of the table itself */
    CHECK_EQ(accel_tflite_set_custom(NULL, &mine, 1), ACCEL_E_NULL);
    CHECK_EQ(accel_tflite_set_custom(&m, NULL, 1), ACCEL_E_NULL);
    CHECK_EQ(accel_tflite_set_custom(&m, &nofn, 1), ACCEL_E_NULL);
    /* by name: check, plan and init accept it; invoke calls it once, with its one output */
    CHECK_EQ(accel_tflite_set_custom(&m, &mine, 1), ACCEL_OK);
    CHECK_EQ(accel_tflite_check(&m, &bad, &code), ACCEL_OK);
    CHECK_EQ(accel_tflite_plan(&m, arena, sizeof arena, &need), ACCEL_OK);
    CHECK(need > 0 && need <= sizeof arena);
    CHECK_EQ(accel_tflite_init(&rt, &m, arena, sizeof arena), ACCEL_OK);
    CHECK_EQ(accel_tflite_set_input(&rt, 0, in, 2), ACCEL_OK);
    CHECK_EQ(accel_tflite_invoke(&rt), ACCEL_OK);
    CHECK_EQ(lg.calls, 1);
    CHECK_EQ(lg.op_index, 0);
    CHECK_EQ(lg.n_outputs, 1);
    CHECK_EQ(accel_tflite_get_output(&rt, 0, out, sizeof out, &got), ACCEL_OK);
    CHECK_EQ(got, 2);
    CHECK_EQ(out[0], 6);
    CHECK_EQ(out[1], -8);
    /* its failure stops invoke there, naming the operator */
    lg.ret = ACCEL_E_IO;
    CHECK_EQ(accel_tflite_invoke(&rt), ACCEL_E_IO);
    CHECK_EQ(rt.bad_op, 0);
    CHECK_EQ(rt.bad_code, 32);
    /* a nameless entry takes every custom operator no earlier entry names; the first match wins */
    lg.ret = ACCEL_OK;
    lg.calls = 0;
    two[0] = other;
    two[1] = any;
    CHECK_EQ(accel_tflite_set_custom(&m, two, 2), ACCEL_OK);
    CHECK_EQ(accel_tflite_init(&rt, &m, arena, sizeof arena), ACCEL_OK);
    CHECK_EQ(accel_tflite_set_input(&rt, 0, in, 2), ACCEL_OK);
    CHECK_EQ(accel_tflite_invoke(&rt), ACCEL_OK);
    CHECK_EQ(lg.calls, 1);
    /* the table removed: refused again */
    CHECK_EQ(accel_tflite_set_custom(&m, NULL, 0), ACCEL_OK);
    CHECK_EQ(accel_tflite_check(&m, &bad, &code), ACCEL_E_TFLITE_CUSTOM);
}

/* Every refused operator is listed with its types and reason, not only the first: FC runs,
 * ELU and GATHER_ND (its indices int32) have no kernel. */
static void test_refusals(void)
{
    const tfl_case *tc = find_case("unsupported_two_of_three");
    accel_tflite_model m;
    accel_tflite_refusal r;
    REQUIRE(tc != NULL);
    REQUIRE(accel_tflite_open(&m, tc->model, tc->len) == ACCEL_OK);
    CHECK_EQ(accel_tflite_check_op(&m, 0, &r), ACCEL_OK);
    CHECK_EQ(accel_tflite_check_op(&m, 1, &r), ACCEL_E_TFLITE_UNSUPPORTED);
    CHECK(strcmp(r.reason, "no kernel for ELU int8") == 0);
    CHECK_EQ(r.n_types, 2);
    CHECK_EQ(accel_tflite_check_op(&m, 2, &r), ACCEL_E_TFLITE_UNSUPPORTED);
    CHECK(strcmp(r.reason, "no kernel for GATHER_ND int8") == 0);
    CHECK_EQ(r.code, 107);
    CHECK_EQ(r.n_types, 3);
    CHECK_EQ(r.n_inputs, 2);
    CHECK_EQ(r.types[0], ACCEL_TFLITE_INT8);
    CHECK_EQ(r.types[1], ACCEL_TFLITE_INT32);
    CHECK_EQ(r.types[2], ACCEL_TFLITE_INT8);
}

/* Every byte of every hand-made model (and of hello_world when the data is there) changed four
 * ways: open, check, plan, init and invoke must return a status, never crash or read outside
 * (ASan and UBSan watch). */
static int mutate_run(uint8_t *buf, size_t len)
{
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[16384];
    size_t need;
    if (accel_tflite_open(&m, buf, len) != ACCEL_OK) return 0;
    if (accel_tflite_plan(&m, arena, sizeof arena, &need) != ACCEL_OK) return 1;
    if (need > sizeof arena || accel_tflite_init(&rt, &m, arena, sizeof arena) != ACCEL_OK) return 1;
    (void)accel_tflite_invoke(&rt);
    return 2;
}

static void mutate_all(const uint8_t *model, size_t len, int *opened, int *ran)
{
    uint8_t *b = (uint8_t *)malloc(len);
    size_t i;
    int k;
    for (i = 0; i < len; i++)
        for (k = 0; k < 4; k++) {
            static const uint8_t x[4] = {0x01, 0x80, 0xFF, 0x00};
            int r;
            memcpy(b, model, len);
            b[i] = k == 3 ? 0 : (uint8_t)(b[i] ^ x[k]);
            r = mutate_run(b, len);
            *opened += r > 0;
            *ran += r > 1;
        }
    free(b);
}

static void test_mutations(void)
{
    size_t i;
    int opened = 0, ran = 0;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++)
        if (tfl_cases[i].open_st == ACCEL_OK && tfl_cases[i].check_st == ACCEL_OK)
            mutate_all(tfl_cases[i].model, tfl_cases[i].len, &opened, &ran);
    printf("  hand-made models: %d mutants opened, %d ran\n", opened, ran);
    CHECK(ran > 0);
}

static void test_mutations_hello_world(void)
{
    char path[600];
    const char *dir;
    size_t len;
    uint8_t *m;
    int opened = 0, ran = 0;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    dir = tl_data_dir(TFL_ENV, "tflite");
    snprintf(path, sizeof path, "%s/hello_world_int8.tflite", dir);
    m = tl_load_file(path, &len);
    REQUIRE(m != NULL);
    mutate_all(m, len, &opened, &ran);
    printf("  hello_world_int8: %d mutants opened, %d ran\n", opened, ran);
    CHECK(ran > 0);
    free(m);
}

/* The integer derivation of the multipliers against this host's IEEE double and float: a * b / c
 * of float32 scales then QuantizeMultiplier (accel_mac_quantize_multiplier, in double), the
 * float quotient of the activation clamps, SVDF's float products. Scales drawn over 2^-40..2^8. */
#ifndef ACCEL_MAC_NO_FLOAT
static uint32_t rand_scale_bits(void)
{
    uint32_t e = 87u + tl_rand() % 48u; /* exponent field: 2^-40 .. 2^7 */
    return (e << 23) | (tl_rand() & 0x7FFFFFu);
}

static float bits_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}


static void test_integer_scales(void)
{
    int i, bad = 0;
    for (i = 0; i < 200000; i++) {
        uint32_t a = rand_scale_bits(), b = rand_scale_bits(), c = rand_scale_bits();
        int32_t m1 = 0, s1 = 0, m2 = 0, s2 = 0, q1 = 0, q2;
        accel_status e1 = accel__tfl_qmul3(a, b, c, 0, &m1, &s1);
        double real = (double)bits_f(a) * (double)bits_f(b) / (double)bits_f(c);
        accel_status e2 = accel_mac_quantize_multiplier(real, &m2, &s2);
        float fp, fq;
        accel_tflite_tensor o;
        if ((e1 == ACCEL_OK) != (e2 == ACCEL_OK) || (e1 == ACCEL_OK && (m1 != m2 || s1 != s2))) {
            if (bad < 3) printf("  scale3 %08x %08x %08x: %d %d / %d %d (%d %d)\n", a, b, c, m1, s1, m2, s2, e1, e2);
            bad++;
        }
        /* SVDF: float product, float quotient */
        fp = bits_f(a) * bits_f(b);
        fq = fp / bits_f(c);
        {
            accel__tfl_num x, y;
            int32_t n1 = 0, n2 = 0, t1 = 0, t2 = 0;
            accel__tfl_num_f32(&x, a);
            accel__tfl_num_f32(&y, b);
            accel__tfl_num_mul(&x, &x, &y);
            accel__tfl_num_round(&x, 0, 24);
            accel__tfl_num_f32(&y, c);
            accel__tfl_num_div(&x, &x, &y, 24);
            e1 = accel__tfl_qmul(&x, &n1, &t1);
            e2 = accel_mac_quantize_multiplier((double)fq, &n2, &t2);
            if ((e1 == ACCEL_OK) != (e2 == ACCEL_OK) || (e1 == ACCEL_OK && (n1 != n2 || t1 != t2))) {
                if (bad < 3) printf("  svdf %08x %08x %08x: %d %d / %d %d (%d %d)\n", a, b, c, n1, t1, n2, t2, e1, e2);
                bad++;
            }
        }
        /* activation clamp: round(6 / scale) in float, half away from zero */
        memset(&o, 0, sizeof o);
        o.scale_bits = c;
        if (accel__tfl_quantize1(&o, 6, &q1) == ACCEL_OK) {
            float x = 6.0f / bits_f(c);
            if (x < 2147483648.0f) {
                q2 = x - (float)(int32_t)x >= 0.5f ? (int32_t)x + 1 : (int32_t)x;
                if (q1 != q2) {
                    if (bad < 3) printf("  act %08x: %d / %d\n", c, q1, q2);
                    bad++;
                }
            }
        }
    }
    printf("  integer scale arithmetic against IEEE double/float: %d of 200000 triples differ\n", bad);
    CHECK_EQ(bad, 0);
}
#endif

/* The fixed-point pieces against the real functions (libm here, on the host). */
static void test_fixed_point_accuracy(void)
{
    int32_t x;
    int worst = 0;
    /* 1 / (1 + x) for x in [0, 1), Q0.31: within a few units of the last place */
    for (x = 0; x < INT32_MAX - (1 << 20); x += (1 << 20) + 12345) {
        double want = 2147483648.0 / (1.0 + x / 2147483648.0);
        double got = accel__tfl_recip(x);
        int err = (int)fabs(got - want);
        if (err > worst) worst = err;
    }
    printf("  1/(1+x) worst error %d\n", worst);
    CHECK(worst <= 8); /* 4e-9 relative */
    /* exp(a) for a <= 0 in Q5.26 */
    worst = 0;
    for (x = 0; x > -2147483647 + (1 << 19); x -= (1 << 18) + 777) {
        double want = exp(x / 67108864.0) * 2147483648.0;
        double got = accel__tfl_exp_neg(x);
        int err = (int)fabs(got - want);
        if (err > worst) worst = err;
    }
    printf("  exp worst error %d\n", worst);
    CHECK(worst <= 512); /* 2.4e-7 relative */
    /* int16 sigmoid (Q3.12 in, Q0.15 out) and tanh: within 2 units of the last place */
    worst = 0;
    for (x = -32768; x <= 32767; x += 7) {
        double s = 32768.0 / (1.0 + exp(-(x / 4096.0)));
        double t = tanh(x / 4096.0) * 32768.0;
        int e1 = (int)fabs(accel__tfl_sigmoid16((int16_t)x, 0, 0) - (s > 32767 ? 32767 : s));
        int e2 = (int)fabs(accel__tfl_tanh16((int16_t)x, 0, 0) - (t > 32767 ? 32767 : t));
        if (e1 > worst) worst = e1;
        if (e2 > worst) worst = e2;
    }
    printf("  sigmoid/tanh worst error %d\n", worst);
    CHECK(worst <= 2);
}

/* A real model whose SOFTMAX has no TFLite result for some inputs: bright_64x64 on an all-zero
 * and on an all-255 image sums 4,096 exponentials past int32 (TFLite's reference aborts; its
 * signed overflow was undefined behaviour here). Invoke says ACCEL_E_TFLITE_RANGE and names the
 * SOFTMAX operator; a real image's golden above still matches. */
static void test_softmax_range_real(void)
{
    char path[600];
    const char *dir;
    uint8_t *mbuf, *in;
    size_t mlen, need = 0, in_len = 0, w = 0;
    accel_tflite_model m;
    accel_tflite rt;
    void *arena;
    int fill;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    dir = tl_data_dir(TFL_ENV, "tflite");
    snprintf(path, sizeof path, "%s/bright_64x64.tflite", dir);
    mbuf = tl_load_file(path, &mlen);
    REQUIRE(mbuf != NULL);
    REQUIRE(accel_tflite_open(&m, mbuf, mlen) == ACCEL_OK);
    REQUIRE(accel_tflite_plan_scratch_size(&m, &w) == ACCEL_OK);
    arena = malloc(w + 4);
    REQUIRE(accel_tflite_plan(&m, arena, w, &need) == ACCEL_OK);
    free(arena);
    arena = malloc(need + 4);
    REQUIRE(accel_tflite_init(&rt, &m, arena, need) == ACCEL_OK);
    {
        uint32_t ti;
        accel_tflite_tensor t;
        REQUIRE(accel_tflite_graph_tensor(&m, 0, 0, &ti) == ACCEL_OK);
        REQUIRE(accel_tflite_tensor_info(&m, ti, &t) == ACCEL_OK);
        in_len = t.bytes;
    }
    in = (uint8_t *)malloc(in_len);
    for (fill = 0; fill < 2; fill++) {
        memset(in, fill ? 0xFF : 0x00, in_len);
        CHECK_EQ(accel_tflite_set_input(&rt, 0, in, in_len), ACCEL_OK);
        CHECK_EQ(accel_tflite_invoke(&rt), ACCEL_E_TFLITE_RANGE);
        CHECK_EQ(rt.bad_code, ACCEL_TFLITE_OP_SOFTMAX);
        CHECK_EQ(accel__tfl_op_code(&m, rt.bad_op), ACCEL_TFLITE_OP_SOFTMAX);
    }
    free(in);
    free(arena);
    free(mbuf);
}

/* The integer LSTM's tanh of the cell state takes cell * (3 << shift) in int32, shift = 12 +
 * log2(cell scale): past 14 a large cell value overflows it, so check refuses such a cell scale
 * (ACCEL_E_TFLITE_QUANT); 14 itself is accepted. mnist_lstm_int8's cell state (tensor 17,
 * scale 2^-12: shift 0) is given the scales 2^3 and 2^2. */
static void test_lstm_cell_scale(void)
{
    char path[600];
    const char *dir;
    uint8_t *mbuf;
    size_t mlen;
    accel_tflite_model m;
    accel_tflite_tensor t;
    uint32_t bad_op = 99;
    int32_t bad_code = 0;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    dir = tl_data_dir(TFL_ENV, "tflite");
    snprintf(path, sizeof path, "%s/mnist_lstm_int8.tflite", dir);
    mbuf = tl_load_file(path, &mlen);
    REQUIRE(mbuf != NULL);
    REQUIRE(accel_tflite_open(&m, mbuf, mlen) == ACCEL_OK);
    REQUIRE(accel_tflite_tensor_info(&m, 17, &t) == ACCEL_OK);
    REQUIRE(t.type == ACCEL_TFLITE_INT16 && t.is_variable && t.scale_bits == 0x39800000UL);
    CHECK_EQ(accel_tflite_check(&m, &bad_op, &bad_code), ACCEL_OK);
    accel_store_u32le(mbuf + t.scales_, 0x41000000UL); /* 2^3: shift 15 */
    REQUIRE(accel_tflite_open(&m, mbuf, mlen) == ACCEL_OK);
    CHECK_EQ(accel_tflite_check(&m, &bad_op, &bad_code), ACCEL_E_TFLITE_QUANT);
    CHECK_EQ(bad_code, ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
    accel_store_u32le(mbuf + t.scales_, 0x40800000UL); /* 2^2: shift 14 */
    REQUIRE(accel_tflite_open(&m, mbuf, mlen) == ACCEL_OK);
    CHECK_EQ(accel_tflite_check(&m, &bad_op, &bad_code), ACCEL_OK);
    free(mbuf);
}

int main(void)
{
    tl_seed(28);
    RUN(test_small_models);
    RUN(test_api);
    RUN(test_op_names);
    RUN(test_op_table);
    RUN(test_custom_ops);
    RUN(test_refusals);
    RUN(test_fixed_point_accuracy);
#ifndef ACCEL_MAC_NO_FLOAT /* the reference is this host's double */
    RUN(test_integer_scales);
#endif
    RUN(test_mutations);
    RUN(test_goldens);
    RUN(test_sha256);
    RUN(test_custom_kept);
#if ACCEL__TFL_FLOAT
    RUN(test_logistic_table);
    RUN(test_tanh_table);
#endif
    RUN(test_coral_goldens);
    RUN(test_softmax_range_real);
    RUN(test_lstm_cell_scale);
    RUN(test_mutations_hello_world);
    return TEST_END();
}
