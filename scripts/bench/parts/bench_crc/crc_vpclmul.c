/* x86-64 AVX-512 VPCLMULQDQ folding (ACCEL_CRC32_SIMD 2); bench_crc checks the CPU first. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("pclmul,sse4.1,avx512f,vpclmulqdq")
#endif
#define BENCH_CRC_FN bench_crc_vpclmul
#define BENCH_CRC_LEVEL bench_crc_vpclmul_level
#include "crc_variant.h"
