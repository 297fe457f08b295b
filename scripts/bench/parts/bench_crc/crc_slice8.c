#define ACCEL_CRC32_IMPL ACCEL_CRC32_SLICE8
#define BENCH_CRC_FN bench_crc_slice8
#include "crc_variant.h"
