/* slicing-by-8, the portable default when the decoder target was set */
#define ACCEL_CRC32_IMPL ACCEL_CRC32_SLICE8
#define ACCEL_CRC32_NO_SIMD
#define BENCH_TSP1 bench_tsp1_slice8
#include "tsp1_variant.h"
