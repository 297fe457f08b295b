#define ACCEL_CRC32_IMPL ACCEL_CRC32_NIBBLE
#define ACCEL_CRC32_NO_SIMD
#define BENCH_CRC_FN bench_crc_nibble
#define BENCH_CRC_LEVEL bench_crc_nibble_level
#include "crc_variant.h"
