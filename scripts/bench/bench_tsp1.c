/* bench_tsp1.c - TSP1 streaming decoder throughput (16-byte and 1 KiB payload frames, fed in
 * 64-byte chunks as the driver reads them) next to accel_crc32 alone over the same bytes. */
#define _POSIX_C_SOURCE 199309L
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint8_t stream[1u << 22];
static uint8_t mem[12 + 1024];

static void run(size_t payload, size_t chunk)
{
    uint8_t pl[1024];
    size_t n = 0, len, i, frames = 0;
    int rep, reps = 20;
    double t0, t_dec, t_crc;
    volatile uint32_t sink = 0;
    accel_tsp1_decoder d;
    for (i = 0; i < payload; i++) pl[i] = (uint8_t)(i * 13u);
    while (n + payload + 12 <= sizeof stream) {
        accel_tsp1_encode_frame(stream + n, sizeof stream - n, ACCEL_TSP1_RSP_PREAMBLE, 0x8000,
                                (uint16_t)frames, pl, payload, &len);
        n += len;
        frames++;
    }
    t0 = now_s();
    for (rep = 0; rep < reps; rep++) {
        size_t pos = 0, got = 0;
        accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE);
        while (pos < n) {
            size_t c = n - pos < chunk ? n - pos : chunk, used;
            while (c) {
                accel_tsp1_frame f;
                if (accel_tsp1_decoder_feed(&d, stream + pos, c, &used, &f) == ACCEL_OK) got++;
                pos += used;
                c -= used;
            }
        }
        if (got != frames) { printf("decoder lost frames\n"); return; }
    }
    t_dec = now_s() - t0;
    t0 = now_s();
    for (rep = 0; rep < reps; rep++) sink ^= accel_crc32(stream, n);
    t_crc = now_s() - t0;
    printf("payload %4zu B, chunks of %zu B: decoder %8.1f MB/s   accel_crc32 alone %8.1f MB/s\n",
           payload, chunk, (double)n * reps / t_dec / 1e6, (double)n * reps / t_crc / 1e6);
    (void)sink;
}

int main(void)
{
    run(16, 64);
    run(1024, 64);
    run(16, 4096);
    run(1024, 4096);
    return 0;
}
