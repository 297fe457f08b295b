/* Included by crc_<variant>.c: one CRC-32 variant of accel.h in its own translation unit
 * (ACCEL_STATIC keeps the copies apart), exported as BENCH_CRC_FN, with BENCH_CRC_LEVEL
 * returning the ACCEL_CRC32_SIMD level it was compiled with, so bench_crc can time them all in
 * one run. The Makefile builds every part with -march=native, so the portable variants define
 * ACCEL_CRC32_NO_SIMD and the instruction variants pick their target with a pragma. On x86-64
 * the portable variants are compiled for generic x86-64: that is the build that runs them (a
 * -march=native one takes the folding path), and the build of zlib they are compared with. */
#if defined(ACCEL_CRC32_NO_SIMD) && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("arch=x86-64,tune=generic")
#endif
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
int BENCH_CRC_LEVEL(void);
int BENCH_CRC_LEVEL(void) { return ACCEL_CRC32_SIMD; }
