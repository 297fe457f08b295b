/* x86-64 PCLMULQDQ + SSE4.1 folding (ACCEL_CRC32_SIMD 1), without AVX-512 even where
 * -march=native has it; bench_crc checks the CPU before running it. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("pclmul,sse4.1,no-avx512f")
#endif
#define BENCH_CRC_FN bench_crc_pclmul
#define BENCH_CRC_LEVEL bench_crc_pclmul_level
#include "crc_variant.h"
