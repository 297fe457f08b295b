/* bench_edgetpu.c - Edge TPU section: bundle decode/encode/disassembly speed and model parse
 * time (full validation by accel_edgetpu_package_init_tflite) for the shared models; medians of 5 (3)
 * timed passes; decode next to a naive bit-by-bit decoder in the same run, as a ratio.
 * Data: tests/edgetpu_data.h ($ACCEL_EDGETPU_DATA, the README's third-party data contract). */
#define _POSIX_C_SOURCE 199309L
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "benchlib.h"
#include "edgetpu_data.h"

/* the tests' loader (tests/edgetpu_data.h); a bench without its data stops */
static size_t load(const char *rel, uint8_t *buf, size_t cap)
{
    size_t n = et_load(rel, buf, cap);
    if (!n) exit(1);
    return n;
}

static uint8_t bits[1u << 20];
static size_t nbits;
static volatile uint32_t sink;

int main(void)
{
    static const char *const progs[] = {"add1", "matmul_256", "sigmoid", "relu_sub_1",
                                        "mul2_add10", "div2_80", "weight_copy_in_0x80"};
    static const char *const models[] = {"dense_256_edgetpu", "bright_16x16_edgetpu"};
    static uint8_t mbuf[2][1u << 17];
    size_t msize[2];
    unsigned i, k;
    double t0, t, best, samp[5];
    size_t ninsn, reps;
    /* a corpus: the shared programs and every bitstream of the shared models */
    bench_host(0);
    for (i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "programs/%s.coral", progs[i]);
        nbits += load(rel, bits + nbits, sizeof bits - nbits);
    }
    for (i = 0; i < 2; i++) {
        accel_edgetpu_package m;
        uint32_t x;
        char rel[128];
        snprintf(rel, sizeof rel, "models/%s.tflite", models[i]);
        msize[i] = load(rel, mbuf[i], sizeof mbuf[i]);
        if (accel_edgetpu_package_init_tflite(&m, mbuf[i], msize[i]) != ACCEL_OK) return 1;
        for (x = 0; x < m.n_executables; x++) {
            accel_edgetpu_exe e;
            accel_edgetpu_bitstream b;
            accel_edgetpu_package_executable(&m, x, &e);
            accel_edgetpu_exe_bitstream(&e, 0, &b);
            memcpy(bits + nbits, b.bits.p, b.bits.len);
            nbits += b.bits.len;
        }
    }
    ninsn = nbits / 16;
    printf("corpus: %zu bundles (7 .coral programs + 4 model bitstreams)\n", ninsn);

    reps = 2000;
    best = 1e9;
    for (k = 0; k < 5; k++) {
        size_t r, j;
        t0 = bench_now_s();
        for (r = 0; r < reps; r++)
            for (j = 0; j < ninsn; j++) {
                accel_edgetpu_insn in;
                accel_edgetpu_decode_insn(bits + j * 16, &in);
                sink += in.f[ACCEL_EDGETPU_F_IMM_SCALAR];
            }
        t = bench_now_s() - t0;
        samp[k] = t;
    }
    best = bench_median(samp, 5);
    printf("decode:        %8.1f M bundles/s (%.2f ns/bundle)\n", (double)(reps * ninsn) / best / 1e6,
           best / (double)(reps * ninsn) * 1e9);
    /* baseline in the same run: a naive decoder that gathers each field bit by bit through the
       field table, the way a first attempt would */
    for (k = 0; k < 5; k++) {
        size_t r, j;
        t0 = bench_now_s();
        for (r = 0; r < reps / 10; r++)
            for (j = 0; j < ninsn; j++) {
                unsigned fld, b;
                uint32_t acc = 0;
                for (fld = 0; fld < ACCEL_EDGETPU_NFIELDS; fld++) {
                    unsigned lsb = accel_edgetpu_field_lsb(fld), w = accel_edgetpu_field_width(fld);
                    uint32_t v = 0;
                    for (b = 0; b < w; b++) {
                        unsigned bit = lsb + b;
                        v |= (uint32_t)((bits[j * 16 + bit / 8] >> (bit % 8)) & 1u) << b;
                    }
                    acc += v;
                }
                sink += acc;
            }
        samp[k] = (bench_now_s() - t0) * 10;
    }
    t = bench_median(samp, 5);
    printf("naive decode:  %8.1f M bundles/s (bit by bit; baseline)  accel decode is x%.1f\n",
           (double)(reps * ninsn) / t / 1e6, t / best);
    best = 1e9;
    for (k = 0; k < 5; k++) {
        size_t r, j;
        accel_edgetpu_insn in;
        uint8_t out[16];
        accel_edgetpu_decode_insn(bits, &in);
        t0 = bench_now_s();
        for (r = 0; r < reps; r++)
            for (j = 0; j < ninsn; j++) {
                in.f[ACCEL_EDGETPU_F_S_X] = (uint32_t)(j & 31u);
                accel_edgetpu_encode_insn(&in, out);
                sink += out[7];
            }
        t = bench_now_s() - t0;
        samp[k] = t;
    }
    best = bench_median(samp, 5);
    printf("encode:        %8.1f M bundles/s\n", (double)(reps * ninsn) / best / 1e6);
    best = 1e9;
    for (k = 0; k < 3; k++) {
        size_t r, j;
        char line[ACCEL_EDGETPU_DISASM_MAX];
        t0 = bench_now_s();
        for (r = 0; r < 50; r++)
            for (j = 0; j < ninsn; j++) {
                size_t len = 0;
                accel_edgetpu_disasm(bits + j * 16, (uint32_t)(j * 16), line, sizeof line, &len);
                sink += (uint32_t)len;
            }
        t = bench_now_s() - t0;
        samp[k] = t;
    }
    best = bench_median(samp, 3);
    printf("disassemble:   %8.2f M lines/s\n", (double)(50 * ninsn) / best / 1e6);
    for (i = 0; i < 2; i++) {
        accel_edgetpu_package m;
        size_t r;
        best = 1e9;
        for (k = 0; k < 5; k++) {
            t0 = bench_now_s();
            for (r = 0; r < 2000; r++) {
                accel_edgetpu_package_init_tflite(&m, mbuf[i], msize[i]);
                sink += m.n_executables;
            }
            t = bench_now_s() - t0;
            samp[k] = t;
        }
        best = bench_median(samp, 5);
        printf("parse %-22s %6zu bytes: %7.2f us per model_open (full validation)\n", models[i],
               msize[i], best / 2000 * 1e6);
    }
    return 0;
}
