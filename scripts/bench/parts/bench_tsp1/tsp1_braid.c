/* the portable 64-bit default: braided slicing, no CRC instructions */
#define ACCEL_CRC32_IMPL ACCEL_CRC32_BRAID
#define ACCEL_CRC32_NO_SIMD
#define BENCH_TSP1 bench_tsp1_braid
#include "tsp1_variant.h"
