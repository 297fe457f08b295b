/* fuzz_tsp1.c - libFuzzer target for the TSP1 streaming decoder and response parsers.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_tsp1.c -o fuzz_tsp1
 * Without libFuzzer: cc -DACCEL_FUZZ_MAIN -I. tests/fuzz/fuzz_tsp1.c && ./a.out [files or dirs]
 * (tests/fuzz/fuzz_main.h: the files, e.g. tests/fuzz/seeds/tsp1, then 20000 generated inputs).
 * The first byte picks the chunking and the decoder buffer size; invariants: every byte is in a
 * frame, dropped under a reason, or held (in the buffer, or a long error's detail passed
 * through the CRC while its frame is incomplete), and once the stream goes idle
 * (accel_tsp1_decoder_idle) nothing is held. */
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
    /* cap is at least the 12-byte header: the decoder takes every buffer chosen here */
    if (accel_tsp1_decoder_init(&d, mem, cap, (data[0] & 1u) ? ACCEL_TSP1_CMD_PREAMBLE
                                                             : ACCEL_TSP1_RSP_PREAMBLE) != ACCEL_OK)
        abort();
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
                framed += 12u + f.n_bytes + f.cut; /* cut: bytes of a long error not held */
                (void)accel_tsp1_kind_of(f.id);
                (void)accel_tsp1_error_status(f.id);
                /* a malformed NN_INFO body is refused with a status: any answer is fine */
                if (f.id == ACCEL_TSP1_R_NN_INFO) (void)accel_tsp1_decode_nn_info(&f, &info);
            } else if (c) {
                abort();
            }
        }
    }
    dropped = 0;
    for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) dropped += d.dropped[i];
    /* held: in the buffer, or a long error's detail passed through the CRC (d.passed) */
    if (framed + dropped + (d.len - d.emitted) + d.passed != size - 1) abort();
    for (;;) { /* idle: what is held is given up or decoded, never kept */
        accel_tsp1_frame f;
        accel_status st = accel_tsp1_decoder_idle(&d, &f);
        if (st == ACCEL_E_EMPTY) break;
        if (st != ACCEL_OK || 12u + (size_t)f.n_bytes > cap) abort();
        framed += 12u + f.n_bytes + f.cut; /* cut: bytes of a long error not held */
    }
    dropped = 0;
    for (i = 0; i < ACCEL_TSP1_DROP_REASONS; i++) dropped += d.dropped[i];
    if (d.len != d.emitted || framed + dropped != size - 1) abort();
    return 0;
}

#define FUZZ_GENERATED 20000u
#include "fuzz_main.h"
#ifdef ACCEL_FUZZ_MAIN
/* generated inputs for the plain runner: random bytes with a real frame (sometimes one bit
 * damaged) inside, so resyncs are exercised */
static size_t fuzz_generate(uint8_t *buf, size_t cap, uint32_t i)
{
    size_t n = 1 + (size_t)(i % 700u), k, len = 0;
    if (n > cap) n = cap;
    for (k = 0; k < n; k++) buf[k] = (uint8_t)tl_rand();
    if (n > 40) {
        /* the frame fits (n - 10 >= 31 > 12 + 8): the encoder cannot refuse it */
        if (accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8001, (uint16_t)i, buf + 30,
                                    8, buf + 10, n - 10, &len) != ACCEL_OK)
            abort();
        if (i % 3 == 0) buf[10 + (size_t)i % len] ^= 0x20;
    }
    return n;
}
#endif
