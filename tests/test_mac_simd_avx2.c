/* test_mac_simd_avx2.c - test_mac_simd.c with the AVX2 path (ACCEL_MAC_SIMD 1) instead. */
#define SIMD_AVX2_ONLY 1
#include "test_mac_simd.c"
