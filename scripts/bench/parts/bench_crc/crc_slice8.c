#define ACCEL_CRC32_IMPL ACCEL_CRC32_SLICE8
#define ACCEL_CRC32_NO_SIMD
#define BENCH_CRC_FN bench_crc_slice8
#define BENCH_CRC_LEVEL bench_crc_slice8_level
#include "crc_variant.h"
