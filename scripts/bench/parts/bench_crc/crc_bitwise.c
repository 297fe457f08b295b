#define ACCEL_CRC32_IMPL ACCEL_CRC32_BITWISE
#define BENCH_CRC_FN bench_crc_bitwise
#include "crc_variant.h"
