/* Included by crc_<variant>.c: one CRC-32 variant of accel.h in its own translation unit
 * (ACCEL_STATIC keeps the copies apart), exported as BENCH_CRC_FN, so bench_crc can time all
 * four in one run. The including file defines ACCEL_CRC32_IMPL and BENCH_CRC_FN. */
#define ACCEL_STATIC
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
uint32_t BENCH_CRC_FN(uint32_t crc, const void *p, size_t n);
uint32_t BENCH_CRC_FN(uint32_t crc, const void *p, size_t n) { return accel_crc32_update(crc, p, n); }
