/* bench_tsp1.c - TSP1 streaming decoder throughput (16-byte and 1 KiB payload frames, fed in
 * 64-byte chunks as the driver reads them, and in 4 KiB chunks) next to accel_crc32 alone over
 * the same bytes, in the same run: medians of interleaved samples, and the ratio. */
#define _POSIX_C_SOURCE 199309L
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include "benchlib.h"

static uint8_t stream[1u << 22];
static uint8_t mem[12 + 1024];

typedef struct {
    size_t n, chunk, frames, got;
    uint32_t sink;
} work;

static void run_decoder(void *ctx)
{
    work *w = (work *)ctx;
    size_t pos = 0;
    accel_tsp1_decoder d;
    w->got = 0;
    accel_tsp1_decoder_init(&d, mem, sizeof mem, ACCEL_TSP1_RSP_PREAMBLE);
    while (pos < w->n) {
        size_t c = w->n - pos < w->chunk ? w->n - pos : w->chunk, used;
        while (c) {
            accel_tsp1_frame f;
            if (accel_tsp1_decoder_feed(&d, stream + pos, c, &used, &f) == ACCEL_OK) w->got++;
            pos += used;
            c -= used;
        }
    }
}

static void run_crc(void *ctx)
{
    work *w = (work *)ctx;
    w->sink ^= accel_crc32(stream, w->n);
}

static int run(size_t payload, size_t chunk)
{
    uint8_t pl[1024];
    size_t len, i;
    double med[2], ratio[2];
    bench_runner f[2] = {run_decoder, run_crc};
    work w = {0, 0, 0, 0, 0};
    w.chunk = chunk;
    for (i = 0; i < payload; i++) pl[i] = (uint8_t)(i * 13u);
    while (w.n + payload + 12 <= sizeof stream) {
        accel_tsp1_encode_frame(stream + w.n, sizeof stream - w.n, ACCEL_TSP1_RSP_PREAMBLE, 0x8000,
                                (uint16_t)w.frames, pl, payload, &len);
        w.n += len;
        w.frames++;
    }
    bench_interleaved(f, 2, &w, med, ratio);
    if (w.got != w.frames) {
        printf("decoder lost frames (%zu of %zu)\n", w.got, w.frames);
        return 1;
    }
    printf("payload %4zu B, chunks of %4zu B: decoder %8.1f MB/s   accel_crc32 alone %8.1f MB/s"
           "   decoder speed = x%.2f of CRC\n",
           payload, chunk, (double)w.n / med[0] / 1e6, (double)w.n / med[1] / 1e6, ratio[1]);
    return 0;
}

int main(void)
{
    printf("TSP1 decoder vs CRC-32 alone over the same 4 MiB stream, medians of %d interleaved samples\n",
           BENCH_SAMPLES);
    return run(16, 64) | run(1024, 64) | run(16, 4096) | run(1024, 4096);
}
