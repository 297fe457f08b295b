#define ACCEL_CRC32_IMPL ACCEL_CRC32_NIBBLE
#define BENCH_CRC_FN bench_crc_nibble
#include "crc_variant.h"
