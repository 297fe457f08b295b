/* fuzz_tsp1.c - libFuzzer target for the TSP1 streaming decoder and response parsers.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_tsp1.c -o fuzz_tsp1
 * Without libFuzzer: cc -DACCEL_FUZZ_MAIN -I. tests/fuzz/fuzz_tsp1.c && ./a.out [files...]
 * (no files: a fixed number of pseudo-random inputs). The first byte picks the chunking and the
 * decoder buffer size; invariants: every byte is in a frame, dropped under a reason, or held,
 * and once the stream goes idle (accel_tsp1_decoder_idle) nothing is held. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t mem[12 + 300];
    accel_tsp1_decoder d;
    size_t pos = 1, chunk, cap, framed = 0, dropped;
    unsigned i;
    if (size < 1) return 0;
    chunk = 1u + (data[0] & 0x1Fu);
    cap = 12u + (size_t)(data[0] >> 5) * 40u;
    accel_tsp1_decoder_init(&d, mem, cap, (data[0] & 1u) ? ACCEL_TSP1_CMD_PREAMBLE
                                                          : ACCEL_TSP1_RSP_PREAMBLE);
    while (pos < size) {
        size_t c = size - pos < chunk ? size - pos : chunk, used;
        while (c) {
            accel_tsp1_frame f;
            accel_tsp1_nn_info info;
            accel_status st = accel_tsp1_decoder_feed(&d, data + pos, c, &used, &f);
            if (used > c) abort();
            pos += used;
            c -= used;
            if (st == ACCEL_OK) {
                if (12u + (size_t)f.n_bytes > cap) abort();
                framed += 12u + f.n_bytes;
                (void)accel_tsp1_kind_of(f.id);
                (void)accel_tsp1_error_status(f.id);
                if (f.id == ACCEL_TSP1_R_NN_INFO) (void)accel_tsp1_decode_nn_info(&f, &info);
            } else if (c) {
                abort();
            }
        }
    }
    dropped = 0;
    for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) dropped += d.dropped[i];
    if (framed + dropped + (d.len - d.emitted) != size - 1) abort();
    for (;;) { /* idle: what is held is given up or decoded, never kept */
        accel_tsp1_frame f;
        accel_status st = accel_tsp1_decoder_idle(&d, &f);
        if (st == ACCEL_E_EMPTY) break;
        if (st != ACCEL_OK || 12u + (size_t)f.n_bytes > cap) abort();
        framed += 12u + f.n_bytes;
    }
    dropped = 0;
    for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) dropped += d.dropped[i];
    if (d.len != d.emitted || framed + dropped != size - 1) abort();
    return 0;
}

#ifdef ACCEL_FUZZ_MAIN
#include <stdio.h>
int main(int argc, char **argv)
{
    static uint8_t buf[1 << 16];
    int i;
    if (argc > 1) {
        for (i = 1; i < argc; i++) {
            FILE *fp = fopen(argv[i], "rb");
            size_t n;
            if (!fp) return 1;
            n = fread(buf, 1, sizeof buf, fp);
            fclose(fp);
            LLVMFuzzerTestOneInput(buf, n);
        }
        return 0;
    }
    {   /* pseudo-random inputs seeded with real frames, so resyncs are exercised */
        uint32_t s = 1;
        for (i = 0; i < 20000; i++) {
            size_t n = 1 + (size_t)(i % 700), k, len;
            for (k = 0; k < n; k++) {
                s = s * 1103515245u + 12345u;
                buf[k] = (uint8_t)(s >> 16);
            }
            if (n > 40) {
                accel_tsp1_encode_frame(buf + 10, n - 10, ACCEL_TSP1_RSP_PREAMBLE, 0x8001,
                                        (uint16_t)i, buf + 30, 8, &len);
                if (i % 3 == 0) buf[10 + (size_t)i % len] ^= 0x20;
            }
            LLVMFuzzerTestOneInput(buf, n);
        }
    }
    printf("fuzz_tsp1: 20000 inputs ok\n");
    return 0;
}
#endif
