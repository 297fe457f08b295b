#define ACCEL_CRC32_IMPL ACCEL_CRC32_BITWISE
#define ACCEL_CRC32_NO_SIMD
#define BENCH_CRC_FN bench_crc_bitwise
#define BENCH_CRC_LEVEL bench_crc_bitwise_level
#include "crc_variant.h"
