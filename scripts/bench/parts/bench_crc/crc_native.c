/* What a -march=native build of accel.h selects by itself (on AArch64 with CRC32: level 3). */
#define BENCH_CRC_FN bench_crc_native
#define BENCH_CRC_LEVEL bench_crc_native_level
#include "crc_variant.h"
