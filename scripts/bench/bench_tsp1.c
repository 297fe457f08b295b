/* bench_tsp1.c - TSP1 streaming decoder throughput (16-byte and 1 KiB payload frames, fed in
 * 64-byte chunks as the driver reads them, and in 4 KiB chunks) next to two baselines in the
 * same run, for three CRC-32 builds of accel.h (parts/bench_tsp1/: the -march=native default,
 * the portable 64-bit BRAID and SLICE8):
 *   stream   accel_crc32 alone over the whole stream in one call (the yardstick);
 *   frames   accel_crc32 alone over each frame's checked bytes, one call per frame: the least a
 *            decoder must do, since every frame has its own CRC. With short frames a wide CRC
 *            (folding, braids) cannot get going, so "frames" is far below "stream" there.
 * Medians of interleaved samples; ratios are decoder speed / baseline speed (1.00 = as fast).
 * Reading the ratios: "frames" bounds any frame decoder, since each frame's CRC starts afresh
 * (with the folding CRC that alone is ~0.85 of "stream" at 1 KiB payloads and ~0.1 at 16 B).
 * A frame split across two chunks is copied whole into the decoder's buffer (its payload must
 * be contiguous), and every feed call has a fixed cost, which dominates with 64-byte chunks: to
 * reach 0.9 of a 45 GB/s CRC, a call taking 64 bytes would have to cost under 2 ns. */
#define _POSIX_C_SOURCE 199309L
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include "benchlib.h"
#include "parts/bench_tsp1/bench_tsp1.h"

static uint8_t stream[1u << 22];

typedef struct {
    const char *name;
    void (*fn[3])(bench_tsp1_work *);
} variant;
static const variant variants[] = {
    {"native", {bench_tsp1_native_decode, bench_tsp1_native_crc_stream, bench_tsp1_native_crc_frames}},
    {"braid", {bench_tsp1_braid_decode, bench_tsp1_braid_crc_stream, bench_tsp1_braid_crc_frames}},
    {"slice8", {bench_tsp1_slice8_decode, bench_tsp1_slice8_crc_stream, bench_tsp1_slice8_crc_frames}},
};
static const variant *cur;
static void r0(void *w) { cur->fn[0]((bench_tsp1_work *)w); }
static void r1(void *w) { cur->fn[1]((bench_tsp1_work *)w); }
static void r2(void *w) { cur->fn[2]((bench_tsp1_work *)w); }

static int run(const variant *v, size_t payload, size_t chunk)
{
    uint8_t pl[1024];
    size_t len = 0, i;
    double med[3], ratio[3];
    bench_runner f[3] = {r0, r1, r2};
    bench_tsp1_work w = {stream, 0, 0, 0, 0, 0, 0};
    w.chunk = chunk;
    for (i = 0; i < payload; i++) pl[i] = (uint8_t)(i * 13u);
    while (w.n + payload + 12 <= sizeof stream) {
        if (accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, 0x8000, (uint16_t)w.frames,
                                    pl, payload, stream + w.n, sizeof stream - w.n, &len) != ACCEL_OK)
            return 1;
        w.n += len;
        w.frames++;
    }
    w.frame = len;
    cur = v;
    bench_interleaved(f, 3, &w, med, ratio);
    if (w.got != w.frames) {
        printf("%s: decoder lost frames (%zu of %zu)\n", v->name, w.got, w.frames);
        return 1;
    }
    /* ratio[j] = time(baseline j) / time(decoder) = decoder speed / baseline speed */
    printf("%-7s %5zu B %5zu B   %8.0f %8.0f %8.0f   x%.2f   x%.2f\n", v->name, payload, chunk,
           (double)w.n / med[0] / 1e6, (double)w.n / med[1] / 1e6, (double)w.n / med[2] / 1e6,
           ratio[1], ratio[2]);
    return 0;
}

int main(void)
{
    static const size_t cases[4][2] = {{16, 64}, {1024, 64}, {16, 4096}, {1024, 4096}};
    size_t i, k;
    int bad = 0;
    bench_host(0);
    printf("TSP1 decoder vs CRC-32 alone over the same 4 MiB stream, medians of %d interleaved "
           "samples\n(MB/s; ratios = decoder speed / baseline speed; target x0.90 with 1 KiB "
           "payloads, x0.75 with 16 B)\n", BENCH_SAMPLES);
    printf("crc     payload chunk    decoder   stream   frames   vs stream vs frames\n");
    for (k = 0; k < sizeof variants / sizeof variants[0]; k++)
        for (i = 0; i < 4; i++) bad |= run(&variants[k], cases[i][0], cases[i][1]);
    return bad;
}
