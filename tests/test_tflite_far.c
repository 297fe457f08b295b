/* test_tflite_far.c - the tflite section with ACCEL_FB_COPY: a model the CPU cannot address
 * directly (an AVR's flash) read only through the copy macro. The model is handed over at a FAKE
 * address: a PROT_NONE mapping of the model's size, which the macro below translates to the real
 * bytes. Any direct read of the model then faults (reported by name, the test fails), and any
 * copy outside the model is counted. Runs every shared golden case whose operators can read
 * their constants this way (output and every layer byte for byte), the hand-made models, checks
 * that the rest are refused with ACCEL_E_TFLITE_UNSUPPORTED at check and init, and that malformed
 * models give a status. */
#define _GNU_SOURCE
#include <stddef.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

static void far_copy(void *dst, const void *src, size_t n);
#define ACCEL_FB_COPY(dst, src, n) far_copy((dst), (src), (n))
/* only the tflite section (and what it builds on): the others are not needed, and leaving
   them out keeps this sanitized build short */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "vectors/tflite/models.h"

#define TFL_ENV "ACCEL_TFLITE_DATA"

/* the fake range [far_base, far_base + far_len) stands for the bytes at far_real */
static const uint8_t *far_base, *far_real;
static size_t far_len, far_cap;
static long far_copies, far_outside, far_bytes;

static void far_copy(void *dst, const void *src, size_t n)
{
    const uint8_t *s = (const uint8_t *)src;
    far_copies++;
    far_bytes += (long)n;
    if (!far_base || s < far_base || (size_t)(s - far_base) > far_len || n > far_len - (size_t)(s - far_base)) {
        far_outside++;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, far_real + (s - far_base), n);
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    static const char msg[] = "\n  FAIL: the model was read directly (fault inside its fake range)\n";
    static const char other[] = "\n  FAIL: segmentation fault outside the model's fake range\n";
    const uint8_t *a = (const uint8_t *)si->si_addr;
    (void)sig;
    (void)ctx;
    if (far_base && a >= far_base && a < far_base + far_cap) {
        if (write(1, msg, sizeof msg - 1) < 0) _exit(3);
    } else if (write(1, other, sizeof other - 1) < 0) {
        _exit(3);
    }
    _exit(2);
}

/* Put len bytes at a fresh fake address; returns it. */
static const uint8_t *far_map(const uint8_t *real, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *p;
    if (far_base) munmap((void *)(uintptr_t)far_base, far_cap);
    far_cap = (len + page - 1u) / page * page;
    if (far_cap == 0) far_cap = page;
    p = mmap(NULL, far_cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        far_base = NULL;
        return NULL;
    }
    far_base = (const uint8_t *)p;
    far_real = real;
    far_len = len;
    return far_base;
}

typedef struct layers_buf {
    uint8_t *p;
    size_t len, cap;
    int overflow, in_model;
} layers_buf;

static void on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    layers_buf *b = (layers_buf *)user;
    const uint8_t *d = (const uint8_t *)data;
    (void)op_index;
    (void)code;
    (void)tensor;
    if (d >= far_base && d < far_base + far_cap) b->in_model = 1; /* outputs live in the arena */
    if (b->len + t->bytes > b->cap) {
        b->overflow = 1;
        return;
    }
    memcpy(b->p + b->len, data, t->bytes);
    b->len += t->bytes;
}

/* The operators whose constant inputs are not read through the macro: such models are refused. */
static int refused_code(int32_t code)
{
    /* CUSTOM: the built-in TFLite_Detection_PostProcess, which reads its anchors in place; GATHER
     * with constant indices */
    return code == ACCEL_TFLITE_OP_SVDF || code == ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM ||
           code == ACCEL_TFLITE_OP_ADD || code == ACCEL_TFLITE_OP_MUL || code == ACCEL_TFLITE_OP_CUSTOM ||
           code == ACCEL_TFLITE_OP_GATHER;
}

/* 1: matched byte for byte; 0: failed (why says how); -1: refused as it must be. */
static int run_case(const char *dir, const char *model, const char *inputs, const char *outp, const char *layp,
                    char *why, size_t why_len)
{
    char path[4200], list[2048];
    size_t mlen, olen, llen, work_len = 0, arena_len = 0, got;
    uint8_t *mbuf, *want_out, *want_layers, *out = NULL;
    const uint8_t *fake;
    void *work, *arena = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    layers_buf lb;
    accel_status st;
    uint32_t bad_op = 0;
    int32_t bad_code = 0;
    char *tok, *next;
    int ok = 0;
    memset(&lb, 0, sizeof lb);
    snprintf(path, sizeof path, "%s/%s.tflite", dir, model);
    mbuf = tl_load_file(path, &mlen);
    snprintf(path, sizeof path, "%s/%s", dir, outp);
    want_out = tl_load_file(path, &olen);
    snprintf(path, sizeof path, "%s/%s", dir, layp);
    want_layers = tl_load_file(path, &llen);
    fake = mbuf ? far_map(mbuf, mlen) : NULL;
    if (!mbuf || !want_out || !want_layers || !fake) {
        snprintf(why, why_len, "files missing");
        goto done;
    }
    st = accel_tflite_open(&m, fake, mlen);
    if (st != ACCEL_OK) {
        snprintf(why, why_len, "open: %s", accel_status_str(st));
        goto done;
    }
    st = accel_tflite_check(&m, &bad_op, &bad_code);
    if (st != ACCEL_OK) {
        accel_status st2;
        size_t tb = 0;
        uint32_t *arena0;
        snprintf(why, why_len, "check: %s (op %u %s)", accel_status_str(st), (unsigned)bad_op,
                 accel_tflite_op_name(bad_code) ? accel_tflite_op_name(bad_code) : "?");
        if (st != ACCEL_E_TFLITE_UNSUPPORTED || !refused_code(bad_code)) goto done;
        /* init refuses it the same way, naming the same operator */
        if (accel_tflite_plan_scratch_size(&m, &tb) != ACCEL_OK) tb = 0;
        arena0 = (uint32_t *)malloc(tb + 64u); /* room for the plan table: init gets as far as the check */
        st2 = arena0 ? accel_tflite_init(&rt, &m, arena0, tb + 64u) : ACCEL_E_NULL;
        free(arena0);
        if (st2 == ACCEL_E_TFLITE_UNSUPPORTED && rt.bad_op == bad_op && rt.bad_code == bad_code) ok = -1;
        else snprintf(why, why_len, "init: %s (op %u code %d), check said op %u", accel_status_str(st2),
                      (unsigned)rt.bad_op, (int)rt.bad_code, (unsigned)bad_op);
        goto done;
    }
    if (accel_tflite_plan_scratch_size(&m, &work_len) != ACCEL_OK) work_len = 0;
    work = malloc(work_len + 4);
    st = accel_tflite_plan(&m, work, work_len, &arena_len);
    free(work);
    if (st != ACCEL_OK) {
        snprintf(why, why_len, "plan: %s", accel_status_str(st));
        goto done;
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
            next = strstr(tok, "+cases/");
            if (next) *next++ = 0;
            snprintf(path, sizeof path, "%s/%s", dir, tok);
            in = tl_load_file(path, &ilen);
            if (!in) {
                st = ACCEL_E_IO;
                break;
            }
            lb.len = 0;
            lb.overflow = 0;
            st = accel_tflite_set_input(&rt, 0, in, ilen);
            if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
            free(in);
        }
    }
    if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, olen + 64, &got);
    if (st != ACCEL_OK) {
        snprintf(why, why_len, "run: %s (op %u code %d)", accel_status_str(st), (unsigned)rt.bad_op, (int)rt.bad_code);
    } else if (got != olen || memcmp(out, want_out, olen) != 0) {
        size_t i = 0;
        while (i < got && i < olen && out[i] == want_out[i]) i++;
        snprintf(why, why_len, "output differs at byte %zu of %zu", i, olen);
    } else if (lb.overflow || lb.len != llen || memcmp(lb.p, want_layers, llen) != 0) {
        size_t i = 0;
        while (i < lb.len && i < llen && lb.p[i] == want_layers[i]) i++;
        snprintf(why, why_len, "layers differ at byte %zu of %zu (got %zu)", i, llen, lb.len);
    } else if (lb.in_model) {
        snprintf(why, why_len, "an operator's output pointed into the model");
    } else {
        snprintf(why, why_len, "arena %zu", arena_len);
        ok = 1;
    }
done:
    free(arena); free(lb.p); free(out); free(mbuf); free(want_out); free(want_layers);
    return ok;
}

static void test_goldens_far(void)
{
    char path[600], line[4096];
    const char *dir;
    FILE *f;
    int n = 0, pass = 0, refused = 0;
    long outside0 = far_outside;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    dir = tl_data_dir(TFL_ENV, "tflite");
    snprintf(path, sizeof path, "%s/goldens.tsv", dir);
    f = fopen(path, "r");
    REQUIRE(f != NULL);
    while (fgets(line, sizeof line, f)) {
        char *col[16], why[256];
        int c, r;
        c = tl_split_tabs(line, col, 16);
        if (c < 11 || strcmp(col[0], "model") == 0) continue;
        n++;
        r = run_case(dir, col[0], col[2], col[3], col[7], why, sizeof why);
        pass += r == 1;
        refused += r == -1;
        printf("  %s %s/%s: %s\n", r == 1 ? "ok     " : r < 0 ? "refused" : "FAIL   ", col[0], col[1], why);
        CHECK(r != 0);
    }
    fclose(f);
    printf("  far golden cases: %d match byte for byte (output and every layer), %d refused (SVDF, LSTM, "
           "a constant ADD/MUL operand), of %d\n", pass, refused, n);
    CHECK(n == 63);
    /* every model without SVDF or LSTM (whose weights are read directly) runs: person_detect,
     * hello_world, micro_speech, network_tester and the five LibrEdgeTPU twins, 34 cases; the
     * keyword (SVDF) and LSTM models' 29 are refused */
    CHECK_EQ(pass, 34);
    CHECK_EQ(refused, 29);
    CHECK_EQ(far_outside, outside0);
}

/* The hand-made models through the fake address: the outputs worked out by hand, or a refusal
 * where an operator takes a constant input it would have to read directly. */
static void test_small_models_far(void)
{
    size_t i;
    int ran = 0, refused = 0;
    long outside0 = far_outside;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++) {
        const tfl_case *tc = &tfl_cases[i];
        accel_tflite_model m;
        accel_tflite rt;
        static uint32_t arena[8192]; /* the largest: softmax of 4,096 into int16, 12 KiB of data */
        static uint8_t out[8192];
        uint32_t bad_op = 99;
        int32_t bad_code = -99;
        size_t need = 0, got = 0, k;
        const uint8_t *fake = far_map(tc->model, tc->len);
        accel_status st;
        REQUIRE(fake != NULL);
        st = accel_tflite_open(&m, fake, tc->len);
        CHECK_EQ(st, tc->open_st);
        if (st != ACCEL_OK) continue;
        st = accel_tflite_check(&m, &bad_op, &bad_code);
        if (tc->check_st != ACCEL_OK) {
            CHECK_EQ(st, tc->check_st);
            continue;
        }
        if (st == ACCEL_E_TFLITE_UNSUPPORTED) {
            /* only where an operator that reads its constants directly has one */
            accel_tflite_op op;
            int has_const = 0;
            REQUIRE(accel_tflite_op_info(&m, bad_op, &op) == ACCEL_OK);
            for (k = 0; k < op.n_inputs; k++) {
                int32_t ti;
                accel_tflite_tensor t;
                if (accel_tflite_op_tensor(&m, &op, 0, (uint32_t)k, &ti) == ACCEL_OK && ti >= 0 &&
                    accel_tflite_tensor_info(&m, (uint32_t)ti, &t) == ACCEL_OK && t.data)
                    has_const = 1;
            }
            printf("  refused %s: op %u %s has a constant input\n", tc->name, (unsigned)bad_op,
                   accel_tflite_op_name(bad_code));
            CHECK(has_const);
            CHECK(refused_code(bad_code));
            {
                accel_tflite_refusal r;
                CHECK_EQ(accel_tflite_check_op(&m, bad_op, &r), ACCEL_E_TFLITE_UNSUPPORTED);
                /* a constant read in place, or SVDF / LSTM, which such a build leaves out */
                if (!strstr(r.reason, "read in place (not with ACCEL_FB_COPY)") && !strstr(r.reason, "no kernel for"))
                    printf("  %s: reason \"%s\"\n", tc->name, r.reason);
                CHECK(strstr(r.reason, "read in place (not with ACCEL_FB_COPY)") || strstr(r.reason, "no kernel for"));
            }
            CHECK_EQ(accel_tflite_init(&rt, &m, arena, sizeof arena), ACCEL_E_TFLITE_UNSUPPORTED);
            CHECK_EQ(rt.bad_op, bad_op);
            refused++;
            continue;
        }
        CHECK_EQ(st, ACCEL_OK);
        if (st != ACCEL_OK) continue;
        REQUIRE(accel_tflite_plan(&m, arena, sizeof arena, &need) == ACCEL_OK);
        REQUIRE(accel_tflite_init(&rt, &m, arena, need) == ACCEL_OK);
        st = ACCEL_OK;
        for (k = 0, got = 0; k < m.n_inputs && st == ACCEL_OK; k++) {
            uint32_t ti;
            accel_tflite_tensor t;
            st = accel_tflite_graph_tensor(&m, 0, (uint32_t)k, &ti);
            if (st == ACCEL_OK) st = accel_tflite_tensor_info(&m, ti, &t);
            if (st == ACCEL_OK) st = got + t.bytes <= tc->in_len ? accel_tflite_set_input(&rt, (uint32_t)k, tc->in + got, t.bytes)
                                                                  : ACCEL_E_ARG;
            got += t.bytes;
        }
        CHECK_EQ(st, ACCEL_OK);
        st = accel_tflite_invoke(&rt);
        CHECK_EQ(st, tc->invoke_st);
        if (tc->invoke_st != ACCEL_OK) {
            CHECK_EQ(rt.bad_op, tc->bad_op);
            ran++;
            continue;
        }
        { /* every output, back to back */
            uint32_t o;
            size_t one = 0;
            for (o = 0, got = 0; o < m.n_outputs; o++) {
                CHECK_EQ(accel_tflite_get_output(&rt, o, out + got, sizeof out - got, &one), ACCEL_OK);
                got += one;
            }
        }
        CHECK_EQ(got, tc->out_len);
        if (got != tc->out_len || memcmp(out, tc->out, got) != 0) {
            printf("  %s: output differs\n", tc->name);
            CHECK(0);
        }
        ran++;
    }
    printf("  hand-made models: %d ran, %d refused\n", ran, refused);
    CHECK(ran >= 15);
    CHECK_EQ(far_outside, outside0);
}

/* Constant tensors keep their model addresses (in the fake range: not dereferenceable). */
static void test_api_far(void)
{
    const tfl_case *tc = NULL;
    accel_tflite_model m;
    accel_tflite rt;
    uint32_t arena[256];
    const uint8_t *p, *fake;
    size_t n = 0, i;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++)
        if (strcmp(tfl_cases[i].name, "fc_then_quantize") == 0) tc = &tfl_cases[i];
    REQUIRE(tc != NULL);
    fake = far_map(tc->model, tc->len);
    REQUIRE(fake != NULL);
    REQUIRE(accel_tflite_open(&m, fake, tc->len) == ACCEL_OK);
    REQUIRE(accel_tflite_init(&rt, &m, arena, sizeof arena) == ACCEL_OK);
    CHECK_EQ(accel_tflite_tensor_data(&rt, 1, &p, &n), ACCEL_OK);
    CHECK_EQ(n, 4);
    CHECK(p >= fake && p + n <= fake + tc->len);
    /* a truncated model is refused without a read past its end */
    CHECK_EQ(accel_tflite_open(&m, fake, tc->len / 2), ACCEL_E_MALFORMED);
}

/* Every byte changed four ways, through the fake address: a status, never a direct read, never
 * a copy outside the model (ASan and UBSan watch the rest). */
static int mutate_run(const uint8_t *buf, size_t len)
{
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[16384];
    size_t need;
    const uint8_t *fake = far_base;
    far_real = buf;
    far_len = len;
    if (accel_tflite_open(&m, fake, len) != ACCEL_OK) return 0;
    if (accel_tflite_plan(&m, arena, sizeof arena, &need) != ACCEL_OK) return 1;
    if (need > sizeof arena || accel_tflite_init(&rt, &m, arena, sizeof arena) != ACCEL_OK) return 1;
    (void)accel_tflite_invoke(&rt);
    return 2;
}

static void mutate_all(const uint8_t *model, size_t len, int *opened, int *ran)
{
    uint8_t *b = (uint8_t *)calloc(len, 1);
    size_t i;
    int k;
    if (!b || !far_map(b, len)) {
        free(b);
        return;
    }
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

static void test_mutations_far(void)
{
    size_t i;
    int opened = 0, ran = 0;
    long outside0 = far_outside;
    for (i = 0; i < sizeof tfl_cases / sizeof tfl_cases[0]; i++)
        if (tfl_cases[i].open_st == ACCEL_OK && tfl_cases[i].check_st == ACCEL_OK)
            mutate_all(tfl_cases[i].model, tfl_cases[i].len, &opened, &ran);
    printf("  hand-made models: %d mutants opened, %d ran\n", opened, ran);
    CHECK(ran > 0);
    CHECK_EQ(far_outside, outside0);
}

/* The shared hello_world_int8 model's bytes (NULL: not there). */
static uint8_t *load_hello(size_t *len)
{
    char path[600];
    snprintf(path, sizeof path, "%s/hello_world_int8.tflite", tl_data_dir(TFL_ENV, "tflite"));
    return tl_load_file(path, len);
}

static void test_mutations_hello_far(void)
{
    size_t len;
    uint8_t *m;
    int opened = 0, ran = 0;
    long outside0 = far_outside;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    m = load_hello(&len);
    REQUIRE(m != NULL);
    mutate_all(m, len, &opened, &ran);
    printf("  hello_world_int8: %d mutants opened, %d ran\n", opened, ran);
    CHECK(ran > 0);
    CHECK_EQ(far_outside, outside0);
    free(m);
}

/* The far kernels (filter and bias through the macro, in chunks) against the mac kernels on
 * random geometries: int8 and uint8, per-tensor and per-channel multipliers, with and without
 * bias, groups, dilation, stride, padding, depth multipliers, depths and channel counts across
 * the chunk size. The filter lies at the END of the fake range, so a chunk read past it is
 * counted as a copy outside the model. */
static int32_t rnd_range(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(tl_rand() % (uint32_t)(hi - lo + 1));
}

static void test_kernels_vs_mac(void)
{
    static uint8_t x[8192], far[16384], want[8192], got[8192], scr[65536];
    int32_t mult[64], shift[64], bias[64];
    int it, fails = 0, runs[3] = {0, 0, 0};
    long outside0 = far_outside;
    for (it = 0; it < 3000; it++) {
        int kind = it % 3, u8 = (int)(tl_rand() & 1u), has_bias = (int)(tl_rand() % 4u != 0u);
        accel_mac_quant q;
        accel_mac_conv g;
        accel__tfl_conv_rec cr;
        accel__tfl_fc_rec fr;
        uint32_t ch, k, eff_h, eff_w;
        size_t xlen, wlen, ylen, need = 0, boff, i;
        const uint8_t *fake;
        accel_status sw, sf;
        memset(&q, 0, sizeof q);
        memset(&g, 0, sizeof g);
        q.dtype = u8 ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
        q.input_offset = u8 ? -rnd_range(0, 255) : rnd_range(-127, 128);
        q.filter_offset = u8 ? -rnd_range(0, 255) : rnd_range(-127, 128);
        q.output_offset = u8 ? rnd_range(0, 255) : rnd_range(-128, 127);
        q.act_min = (u8 ? 0 : -128) + rnd_range(0, 40);
        q.act_max = (u8 ? 255 : 127) - rnd_range(0, 40);
        q.rounding = ACCEL_MAC_ROUND_DOUBLE;
        if (kind == 2) { /* FULLY_CONNECTED: batches x depth -> units */
            g.batches = (uint32_t)rnd_range(1, 3);
            g.in_c = (uint32_t)rnd_range(1, 70); /* depth */
            g.out_c = (uint32_t)rnd_range(1, 20); /* units */
            xlen = (size_t)g.batches * g.in_c;
            wlen = (size_t)g.out_c * g.in_c;
            ylen = (size_t)g.batches * g.out_c;
        } else {
            g.batches = (uint32_t)rnd_range(1, 2);
            g.in_h = (uint32_t)rnd_range(1, 7);
            g.in_w = (uint32_t)rnd_range(1, 7);
            g.k_h = (uint32_t)rnd_range(1, 3);
            g.k_w = (uint32_t)rnd_range(1, 3);
            g.stride_h = (uint32_t)rnd_range(1, 2);
            g.stride_w = (uint32_t)rnd_range(1, 2);
            g.dilation_h = (uint32_t)rnd_range(1, 2);
            g.dilation_w = (uint32_t)rnd_range(1, 2);
            g.pad_top = (uint32_t)rnd_range(0, (int32_t)g.k_h - 1);
            g.pad_left = (uint32_t)rnd_range(0, (int32_t)g.k_w - 1);
            eff_h = (g.k_h - 1u) * g.dilation_h + 1u;
            eff_w = (g.k_w - 1u) * g.dilation_w + 1u;
            g.out_h = g.in_h + 2u * g.pad_top >= eff_h ? (g.in_h + 2u * g.pad_top - eff_h) / g.stride_h + 1u : 1u;
            g.out_w = g.in_w + 2u * g.pad_left >= eff_w ? (g.in_w + 2u * g.pad_left - eff_w) / g.stride_w + 1u : 1u;
            if (kind == 0) {
                g.groups = (uint32_t)rnd_range(1, 3);
                g.in_c = g.groups * (uint32_t)rnd_range(1, 20);
                g.out_c = g.groups * (uint32_t)rnd_range(1, 4);
                wlen = (size_t)g.out_c * g.k_h * g.k_w * (g.in_c / g.groups);
            } else {
                g.in_c = (uint32_t)rnd_range(1, 6);
                g.depth_multiplier = (uint32_t)rnd_range(1, 5);
                g.out_c = g.in_c * g.depth_multiplier;
                wlen = (size_t)g.k_h * g.k_w * g.out_c;
            }
            xlen = (size_t)g.batches * g.in_h * g.in_w * g.in_c;
            ylen = (size_t)g.batches * g.out_h * g.out_w * g.out_c;
        }
        ch = g.out_c;
        q.count = tl_rand() & 1u ? 1u : (size_t)ch;
        for (k = 0; k < ch; k++) {
            mult[k] = (int32_t)((1UL << 30) + tl_rand() % (1UL << 30));
            shift[k] = rnd_range(-18, 1);
            bias[k] = rnd_range(-60000, 60000);
        }
        q.multiplier = mult;
        q.shift = shift;
        for (i = 0; i < xlen; i++) x[i] = (uint8_t)tl_rand();
        boff = has_bias ? 4u * (size_t)ch : 0u; /* bias first, the filter last */
        for (k = 0; has_bias && k < ch; k++) accel_store_u32le(far + 4u * k, (uint32_t)bias[k]);
        for (i = 0; i < wlen; i++) far[boff + i] = (uint8_t)tl_rand();
        REQUIRE(xlen <= sizeof x && ylen <= sizeof want && boff + wlen <= sizeof far);
        if (kind == 2) {
            sw = accel_mac_fully_connected(g.batches, g.in_c, g.out_c, x, xlen, far + boff, wlen, has_bias ? bias : NULL,
                                           has_bias ? ch : 0u, &q, want, ylen);
        } else if (kind == 1) {
            sw = accel_mac_depthwise_conv2d(&g, &q, x, xlen, far + boff, wlen, has_bias ? bias : NULL, has_bias ? ch : 0u,
                                            want, ylen);
        } else {
            REQUIRE(accel_mac_conv2d_scratch_size(&g, &need) == ACCEL_OK && need <= sizeof scr);
            sw = accel_mac_conv2d_with_scratch(&g, &q, x, xlen, far + boff, wlen, has_bias ? bias : NULL,
                                               has_bias ? ch : 0u, want, ylen, scr, need);
        }
        fake = far_map(far, boff + wlen);
        REQUIRE(fake != NULL);
        memset(got, 0xEE, ylen);
        if (kind == 2) {
            memset(&fr, 0, sizeof fr);
            memcpy(&fr.q, &q, sizeof q);
            fr.x = x;
            fr.w = fake + boff;
            fr.b = has_bias ? fake : NULL;
            fr.batches = g.batches;
            fr.depth = g.in_c;
            fr.units = g.out_c;
            sf = accel__tfl_far_fc(&fr, got);
        } else {
            memset(&cr, 0, sizeof cr);
            memcpy(&cr.q, &q, sizeof q);
            memcpy(&cr.g, &g, sizeof g);
            cr.x = x;
            cr.w = fake + boff;
            cr.b = has_bias ? fake : NULL;
            cr.depthwise = kind == 1;
            sf = accel__tfl_far_conv(&cr, got);
        }
        runs[kind]++;
        if (sw != ACCEL_OK || sf != ACCEL_OK || memcmp(want, got, ylen) != 0) {
            if (fails++ < 5)
                printf("  kind %d (0 conv, 1 depthwise, 2 fc) it %d: mac %d far %d, in %ux%ux%u k %ux%u s %u,%u d %u,%u "
                       "pad %u,%u groups %u dm %u out_c %u u8 %d bias %d count %zu\n",
                       kind, it, (int)sw, (int)sf, (unsigned)g.in_h, (unsigned)g.in_w, (unsigned)g.in_c, (unsigned)g.k_h,
                       (unsigned)g.k_w, (unsigned)g.stride_h, (unsigned)g.stride_w, (unsigned)g.dilation_h,
                       (unsigned)g.dilation_w, (unsigned)g.pad_top, (unsigned)g.pad_left, (unsigned)g.groups,
                       (unsigned)g.depth_multiplier, (unsigned)g.out_c, u8, has_bias, q.count);
        }
    }
    printf("  far kernels vs mac: %d conv, %d depthwise, %d fully connected; %d differ\n", runs[0], runs[1], runs[2],
           fails);
    CHECK_EQ(fails, 0);
    CHECK_EQ(far_outside, outside0);
}

/* What invoke reads of a model: hello_world_int8 is three FULLY_CONNECTED operators, which run
 * from their records (ACCEL_TFLITE_RECORDS 1): an invoke copies each filter and bias once
 * (16 + 256 + 16 int8 weights, 16 + 16 + 1 int32 biases = 420 bytes; the same figure is also
 * summed from the model's own tensors) and nothing of the model's tables. Without records each
 * operator's tensors are read again at every invoke: more than that. */
static void test_invoke_reads_far(void)
{
    size_t len, need = 0;
    uint8_t *mb;
    const uint8_t *fake;
    accel_tflite_model m;
    accel_tflite rt;
    static uint32_t arena[1024];
    uint32_t i, k;
    long consts = 0, before, per[2];
    int8_t x = 0;
    REQUIRE_DATA(TFL_ENV, "tflite");
    if (tl_case_skipped) return;
    mb = load_hello(&len);
    REQUIRE(mb != NULL);
    fake = far_map(mb, len);
    REQUIRE(fake != NULL);
    REQUIRE(accel_tflite_open(&m, fake, len) == ACCEL_OK);
    CHECK_EQ(m.n_ops, 3);
    for (i = 0; i < m.n_ops; i++) {
        accel_tflite_op op;
        REQUIRE(accel_tflite_op_info(&m, i, &op) == ACCEL_OK);
        CHECK_EQ(op.code, ACCEL_TFLITE_OP_FULLY_CONNECTED);
        for (k = 1; k < 3; k++) {
            int32_t t;
            accel_tflite_tensor ti;
            REQUIRE(accel_tflite_op_tensor(&m, &op, 0, k, &t) == ACCEL_OK && t >= 0);
            REQUIRE(accel_tflite_tensor_info(&m, (uint32_t)t, &ti) == ACCEL_OK);
            CHECK(ti.data != NULL);
            consts += (long)ti.bytes;
        }
    }
    CHECK_EQ(consts, 420);
    REQUIRE(accel_tflite_plan(&m, arena, sizeof arena, &need) == ACCEL_OK && need <= sizeof arena);
    REQUIRE(accel_tflite_init(&rt, &m, arena, sizeof arena) == ACCEL_OK);
    for (k = 0; k < 2; k++) {
        REQUIRE(accel_tflite_set_input(&rt, 0, &x, 1) == ACCEL_OK);
        before = far_bytes;
        CHECK_EQ(accel_tflite_invoke(&rt), ACCEL_OK);
        per[k] = far_bytes - before;
        x = 77;
    }
    printf("  hello_world_int8: an invoke copies %ld model bytes (filters and biases: %ld; records %s)\n",
           per[0], consts, ACCEL__TFL_RECS ? "on" : "off");
    CHECK_EQ(per[0], per[1]);
    if (ACCEL__TFL_RECS) CHECK_EQ(per[0], consts);
    else CHECK(per[0] > consts);
    free(mb);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    tl_seed(1);
    RUN(test_api_far);
    RUN(test_kernels_vs_mac);
    RUN(test_small_models_far);
    RUN(test_goldens_far);
    RUN(test_invoke_reads_far);
    RUN(test_mutations_far);
    RUN(test_mutations_hello_far);
    printf("  model bytes copied through ACCEL_FB_COPY: %ld copies, %ld outside the model\n", far_copies, far_outside);
    return TEST_END();
}
