/* bench_mac_avx2 - bench_mac with the engine compiled for AVX2 without AVX-512, for hosts that
 * have AVX-512: the path most x86 machines run (ACCEL_MAC_SIMD 1), measured against the same
 * baselines and the same plain-read ceiling. The Makefile builds every bench -march=native; the
 * target pragma below takes AVX-512 out of the code generated for this translation unit, and
 * since a target pragma adds feature macros but does not remove those of -march (GCC 12, Clang
 * 14), the ones accel.h selects its path by are undefined by hand. On a host without AVX-512,
 * bench_mac is already that build: this one says so and measures nothing. */
#if defined(__AVX512F__) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC target("no-avx512f")
#undef __AVX512F__
#undef __AVX512BW__
#undef __AVX512VNNI__
#undef __AVX512VL__
#undef __AVX512DQ__
#define BENCH_AVX2_OF_512 1
#else
#define BENCH_AVX2_OF_512 0
#endif
#define BENCH_AVX2_BUILD 1
#include "bench_mac.c"
