/* tflite_arm_test.c - the tflite section's golden cases on an emulated Cortex-M (tests/tflite_arm.sh):
 * every case of goldens.tsv under TFL_DATA (a host path, read through semihosting), its output
 * and every layer compared byte for byte, as tests/test_tflite.c does on the host. Cases whose
 * model or arena does not fit TFL_MAX_MODEL / TFL_MAX_ARENA are skipped by name (a small board).
 * Prints the build's ACCEL_MAC_SIMD / ACCEL_MAC_MCU, one line per case, "N passed, M failed". */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TFL_DATA
#error "define TFL_DATA as the shared data directory (a host path)"
#endif
#ifndef TFL_MAX_MODEL
#define TFL_MAX_MODEL (1200u * 1024u)
#endif
#ifndef TFL_MAX_ARENA
#define TFL_MAX_ARENA (96u * 1024u)
#endif
#ifndef TFL_MAX_OUT
#define TFL_MAX_OUT 4096u
#endif

static uint8_t *load(const char *name, size_t *len, size_t max)
{
    char path[512];
    FILE *f;
    uint8_t *p;
    long n;
    *len = 0;
    snprintf(path, sizeof path, "%s/%s", TFL_DATA, name);
    f = fopen(path, "rb");
    if (!f) return NULL;
    setvbuf(f, NULL, _IONBF, 0); /* no stdio buffer: the small boards' heap is for the model */
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || (size_t)n > max || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    p = (uint8_t *)malloc((size_t)n + 1u);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    if (p) *len = (size_t)n;
    return p;
}

typedef struct lay {
    uint8_t *p;
    size_t len, cap;
    int over;
} lay;

static void on_op(void *user, uint32_t op_index, int32_t code, uint32_t tensor, const accel_tflite_tensor *t,
                  const void *data)
{
    lay *l = (lay *)user;
    (void)op_index;
    (void)code;
    (void)tensor;
    if (l->len + t->bytes > l->cap) {
        l->over = 1;
        return;
    }
    memcpy(l->p + l->len, data, t->bytes);
    l->len += t->bytes;
}

static uint32_t arena[TFL_MAX_ARENA / 4u];

/* 1 pass, 0 fail, -1 skipped (does not fit) */
static int run(char **col, char *why, size_t wl)
{
    char name[160], list[512], *tok, *next;
    size_t mlen, olen, llen, need = 0, got = 0;
    uint8_t *model, *want, *wlay;
    static uint8_t out[TFL_MAX_OUT];
    accel_tflite_model m;
    accel_tflite rt;
    lay l;
    accel_status st;
    int r = 0;
    snprintf(name, sizeof name, "%s.tflite", col[0]);
    model = load(name, &mlen, TFL_MAX_MODEL);
    if (!model) {
        snprintf(why, wl, "model does not fit (or missing)");
        return -1;
    }
    want = load(col[3], &olen, sizeof out);
    wlay = load(col[7], &llen, 4u << 20);
    if (!want) {
        snprintf(why, wl, "output does not fit (or missing)");
        free(wlay);
        free(model);
        return -1;
    }
    l.p = (uint8_t *)malloc(llen + 16u);
    l.cap = llen + 16u;
    l.len = 0;
    l.over = 0;
    st = accel_tflite_open(&m, model, mlen);
    if (st == ACCEL_OK) st = accel_tflite_plan(&m, arena, sizeof arena, &need);
    if (st == ACCEL_OK && need > sizeof arena) {
        snprintf(why, wl, "arena %u does not fit", (unsigned)need);
        r = -1;
    } else if (!want || !wlay || !l.p) {
        snprintf(why, wl, "golden files missing");
    } else {
        if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, need);
        rt.on_op = on_op;
        rt.user = &l;
        snprintf(list, sizeof list, "%s", col[2]);
        for (tok = list; st == ACCEL_OK && tok; tok = next) {
            size_t ilen;
            uint8_t *in;
            next = strstr(tok, "+cases/");
            if (next) *next++ = 0;
            in = load(tok, &ilen, 1u << 20);
            l.len = 0;
            st = in ? accel_tflite_set_input(&rt, 0, in, ilen) : ACCEL_E_IO;
            if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
            free(in);
        }
        if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, sizeof out, &got);
        if (st != ACCEL_OK) snprintf(why, wl, "%s", accel_status_str(st));
        else if (got != olen || memcmp(out, want, olen) != 0) snprintf(why, wl, "output differs");
        else if (l.over || l.len != llen || memcmp(l.p, wlay, llen) != 0) snprintf(why, wl, "layers differ");
        else {
            snprintf(why, wl, "arena %u", (unsigned)need);
            r = 1;
        }
    }
    free(l.p);
    free(wlay);
    free(want);
    free(model);
    return r;
}

int main(void)
{
    static char line[1024];
    char path[512];
    FILE *f;
    int pass = 0, fail = 0, skipped = 0;
    printf("ACCEL_MAC_SIMD=%d ACCEL_MAC_MCU=%d\n", ACCEL_MAC_SIMD, ACCEL_MAC_MCU);
    snprintf(path, sizeof path, "%s/goldens.tsv", TFL_DATA);
    f = fopen(path, "r");
    if (!f) {
        printf("cannot read %s\n0 passed, 1 failed\n", path);
        return 1;
    }
    setvbuf(f, NULL, _IONBF, 0);
    while (fgets(line, sizeof line, f)) {
        char *col[16], *c, why[96];
        int k = 0, r;
        line[strcspn(line, "\r\n")] = 0;
        for (c = line; k < 16;) {
            col[k++] = c;
            c = strchr(c, '\t');
            if (!c) break;
            *c++ = 0;
        }
        if (k < 11 || strcmp(col[0], "model") == 0) continue;
        r = run(col, why, sizeof why);
        printf("%s %s/%s: %s\n", r > 0 ? "ok  " : r < 0 ? "SKIP" : "FAIL", col[0], col[1], why);
        if (r > 0) pass++;
        else if (r < 0) skipped++;
        else fail++;
    }
    fclose(f);
    printf("skipped %d (do not fit this board)\n%d passed, %d failed\n", skipped, pass, fail);
    return fail != 0;
}
