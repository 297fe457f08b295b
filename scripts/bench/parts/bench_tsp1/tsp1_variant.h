/* Included by tsp1_<variant>.c: the TSP1 decoder and accel_crc32 of one CRC-32 variant of
 * accel.h in its own translation unit (ACCEL_STATIC keeps the copies apart), exported as
 * BENCH_TSP1_<fn> for scripts/bench/bench_tsp1.c. The Makefile builds parts with
 * -march=native; the portable variants define ACCEL_CRC32_NO_SIMD and, with GCC on x86-64,
 * compile for generic x86-64 (the build a distribution ships). */
#if defined(ACCEL_CRC32_NO_SIMD) && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("arch=x86-64,tune=generic")
#endif
#define ACCEL_STATIC
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "bench_tsp1.h"

#define BENCH_CAT2(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT2(a, b)

/* the whole stream through one decoder, in chunks of w->chunk bytes as a driver reads them */
void BENCH_CAT(BENCH_TSP1, _decode)(bench_tsp1_work *w);
void BENCH_CAT(BENCH_TSP1, _decode)(bench_tsp1_work *w)
{
    static uint8_t mem[12 + 1024];
    size_t pos = 0;
    accel_tsp1_decoder d;
    w->got = 0;
    if (accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE) != ACCEL_OK) return;
    while (pos < w->n) {
        size_t c = w->n - pos < w->chunk ? w->n - pos : w->chunk, used;
        while (c) {
            accel_tsp1_frame f;
            if (accel_tsp1_decoder_feed(&d, w->stream + pos, c, &used, &f) == ACCEL_OK) {
                w->got++;
                w->sink += f.payload[0];
            }
            pos += used;
            c -= used;
        }
    }
}
/* the CRC alone over the whole stream in one call */
void BENCH_CAT(BENCH_TSP1, _crc_stream)(bench_tsp1_work *w);
void BENCH_CAT(BENCH_TSP1, _crc_stream)(bench_tsp1_work *w)
{
    w->sink ^= accel_crc32(w->stream, w->n);
}
/* the CRC alone over each frame's checked bytes, one call per frame: what the decoder cannot do
 * without (every frame has its own CRC) */
void BENCH_CAT(BENCH_TSP1, _crc_frames)(bench_tsp1_work *w);
void BENCH_CAT(BENCH_TSP1, _crc_frames)(bench_tsp1_work *w)
{
    size_t pos;
    for (pos = 0; pos + w->frame <= w->n; pos += w->frame)
        w->sink ^= accel_crc32(w->stream + pos, w->frame - 4);
}
int BENCH_CAT(BENCH_TSP1, _level)(void);
int BENCH_CAT(BENCH_TSP1, _level)(void) { return ACCEL_CRC32_SIMD * 16 + ACCEL_CRC32_IMPL; }
