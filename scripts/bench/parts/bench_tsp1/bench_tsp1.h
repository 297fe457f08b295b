/* bench_tsp1.h - what scripts/bench/bench_tsp1.c shares with its per-CRC-variant parts */
#ifndef BENCH_TSP1_H
#define BENCH_TSP1_H
#include <stddef.h>
#include <stdint.h>
typedef struct {
    const uint8_t *stream;
    size_t n, chunk, frame, frames, got;
    uint32_t sink;
} bench_tsp1_work;
#define BENCH_TSP1_DECL(v)                                                                          \
    void bench_tsp1_##v##_decode(bench_tsp1_work *w);                                               \
    void bench_tsp1_##v##_crc_stream(bench_tsp1_work *w);                                           \
    void bench_tsp1_##v##_crc_frames(bench_tsp1_work *w);                                           \
    int bench_tsp1_##v##_level(void);
BENCH_TSP1_DECL(native)
BENCH_TSP1_DECL(braid)
BENCH_TSP1_DECL(slice8)
#endif
