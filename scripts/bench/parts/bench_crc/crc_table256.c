#define ACCEL_CRC32_IMPL ACCEL_CRC32_TABLE256
#define BENCH_CRC_FN bench_crc_table256
#include "crc_variant.h"
