#define ACCEL_CRC32_IMPL ACCEL_CRC32_TABLE256
#define ACCEL_CRC32_NO_SIMD
#define BENCH_CRC_FN bench_crc_table256
#define BENCH_CRC_LEVEL bench_crc_table256_level
#include "crc_variant.h"
