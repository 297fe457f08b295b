/* bench_tflite - inferences per second of the shared .tflite models on this host: the default
 * build (-O3 -march=native: the host's SIMD kernels where it has them) and, in the same run,
 * the plain loops (ACCEL_MAC_FAST 0, scripts/bench/parts/bench_tflite/tfl_small.c). One case
 * per model, each output first checked against TFLM's.
 * Method (benchlib.h): per model, 101 samples of about 1 ms each (at least one inference), the two builds interleaved
 * (fast, plain, fast, plain, ...) after a calibration that also warms both up; inf/s is the
 * median over the samples with the quartiles beside it, the speedup the median (and quartiles)
 * of the per-sample time ratios, so a load change on this shared machine hits both builds
 * alike. The load average is printed before and after.
 *   bench_tflite [filter]   only the models whose name contains filter
 * The models are third-party: read from $ACCEL_TFLITE_DATA, else ../shared/data/tflite; without
 * them the bench says so and ends (a report, never a test). */
#define _POSIX_C_SOURCE 199309L
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define BENCH_SAMPLES 101
#define BENCH_SAMPLE_S 0.001
#include "benchlib.h"

int bench_tflite_small_init(const uint8_t *model, size_t len, void *arena, size_t arena_len, void **rt_out);
int bench_tflite_small_run(void *rt, const uint8_t *in, size_t in_len, uint8_t *out, size_t cap);

static uint8_t *load(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    FILE *f;
    uint8_t *p = NULL;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *len = 0;
    f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        p = (uint8_t *)malloc((size_t)n + 1u);
        if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        }
        if (p) *len = (size_t)n;
    }
    fclose(f);
    return p;
}

typedef struct job {
    accel_tflite *rt;
    void *small;
    const uint8_t *in;
    size_t in_len;
    uint8_t out[4096];
} job;

static void run_fast(void *ctx)
{
    job *j = (job *)ctx;
    size_t got;
    if (accel_tflite_set_input(j->rt, 0, j->in, j->in_len) != ACCEL_OK || accel_tflite_invoke(j->rt) != ACCEL_OK ||
        accel_tflite_get_output(j->rt, 0, j->out, sizeof j->out, &got) != ACCEL_OK)
        abort();
}

static void run_small(void *ctx)
{
    job *j = (job *)ctx;
    if (bench_tflite_small_run(j->small, j->in, j->in_len, j->out, sizeof j->out) != 0) abort();
}

static void print_load(const char *when)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char line[128];
    if (f && fgets(line, sizeof line, f)) printf("load average %s: %s", when, line);
    if (f) fclose(f);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    const char *dir = getenv("ACCEL_TFLITE_DATA");
    char line[4096], done[4096] = " ";
    size_t tlen;
    FILE *f;
    if (!dir || !*dir) dir = "../shared/data/tflite";
    snprintf(line, sizeof line, "%s/goldens.tsv", dir);
    f = fopen(line, "r");
    if (!f) {
        printf("bench_tflite: no %s (third-party data absent): nothing to measure\n", line);
        return 0;
    }
    (void)tlen;
    bench_host(0);
    print_load("before");
    printf("accel tflite on this host: inferences/s, median (q1-q3) of %d interleaved samples of >= %.0f ms; one case\n"
           "per model, output checked against TFLM's first. fast = default build -O3 -march=native; plain =\n"
           "ACCEL_MAC_FAST 0; speedup = median (q1-q3) of the per-sample plain/fast time ratios.\n",
           BENCH_SAMPLES, BENCH_SAMPLE_S * 1e3);
    printf("fast build: %s\n", bench_host_label());
    printf("%-24s %26s %26s %19s %10s\n", "model", "fast inf/s", "plain inf/s", "speedup", "arena B");
    while (fgets(line, sizeof line, f)) {
        char *col[16], *c = line, key[300];
        int k = 0;
        size_t mlen, ilen, olen, need = 0, wsz = 0, got = 0;
        uint8_t *model, *in, *want;
        accel_tflite_model m;
        static accel_tflite rt;
        void *arena, *arena2, *work;
        job j;
        bench_runner fns[2] = {run_fast, run_small};
        double med[2], ratio[2], lo[2], hi[2];
        line[strcspn(line, "\r\n")] = 0;
        while (k < 16) {
            col[k++] = c;
            c = strchr(c, '\t');
            if (!c) break;
            *c++ = 0;
        }
        if (k < 11 || strcmp(col[0], "model") == 0 || strstr(col[2], "+cases/")) continue;
        snprintf(key, sizeof key, " %s ", col[0]);
        if (strstr(done, key) || (filter && !strstr(col[0], filter))) continue;
        if (strlen(done) + strlen(key) < sizeof done) strcat(done, key + 1);
        snprintf(key, sizeof key, "%s.tflite", col[0]);
        model = load(dir, key, &mlen);
        in = load(dir, col[2], &ilen);
        want = load(dir, col[3], &olen);
        if (!model || !in || !want || accel_tflite_open(&m, model, mlen) != ACCEL_OK ||
            accel_tflite_plan_scratch_size(&m, &wsz) != ACCEL_OK || !(work = malloc(wsz + 4)) ||
            accel_tflite_plan(&m, work, wsz, &need) != ACCEL_OK) {
            printf("%-24s cannot run\n", col[0]);
            continue;
        }
        free(work);
        arena = malloc(need);
        arena2 = malloc(need + 4096); /* the plain build plans its own (smaller or equal) scratch */
        if (!arena || !arena2 || accel_tflite_init(&rt, &m, arena, need) != ACCEL_OK ||
            bench_tflite_small_init(model, mlen, arena2, need + 4096, &j.small) != 0) {
            printf("%-24s cannot init\n", col[0]);
            continue;
        }
        j.rt = &rt;
        j.in = in;
        j.in_len = ilen;
        run_fast(&j);
        if (accel_tflite_get_output(&rt, 0, j.out, sizeof j.out, &got) != ACCEL_OK || got != olen ||
            memcmp(j.out, want, olen) != 0) {
            printf("%-24s output differs from TFLM's\n", col[0]);
            continue;
        }
        run_small(&j);
        if (memcmp(j.out, want, olen) != 0) {
            printf("%-24s plain build's output differs from TFLM's\n", col[0]);
            continue;
        }
        bench_interleaved_spread(fns, 2, &j, med, ratio, lo, hi);
        printf("%-24s %10.1f (%6.0f-%6.0f) %10.1f (%6.0f-%6.0f) %6.2fx (%4.2f-%4.2f) %10zu\n", col[0], 1.0 / med[0],
               1.0 / bench_tq[0][1], 1.0 / bench_tq[0][0], 1.0 / med[1], 1.0 / bench_tq[1][1], 1.0 / bench_tq[1][0],
               ratio[1], lo[1], hi[1], need);
        fflush(stdout);
        free(arena);
        free(arena2);
        free(model);
        free(in);
        free(want);
    }
    fclose(f);
    print_load("after");
    return 0;
}
