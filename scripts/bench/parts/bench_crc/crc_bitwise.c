/* One CRC-32 variant of accel.h in its own translation unit (ACCEL_STATIC keeps the copies
 * apart), so bench_crc can time all four in one run. */
#define ACCEL_CRC32_IMPL ACCEL_CRC32_BITWISE
#define ACCEL_STATIC
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
uint32_t bench_crc_bitwise(uint32_t crc, const void *p, size_t n);
uint32_t bench_crc_bitwise(uint32_t crc, const void *p, size_t n) { return accel_crc32_update(crc, p, n); }
