#define ACCEL_CRC32_IMPL ACCEL_CRC32_BRAID
#define ACCEL_CRC32_NO_SIMD
#define BENCH_CRC_FN bench_crc_braid
#define BENCH_CRC_LEVEL bench_crc_braid_level
#include "crc_variant.h"
