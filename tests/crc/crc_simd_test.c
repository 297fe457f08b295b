/* crc_simd_test.c - the CRC-32 cases of tests/crc_cases.h (the same ones test_common runs under
 * every ACCEL_CRC32_IMPL) with only the common section of accel.h, so that tests/crc_simd.sh can
 * build them quickly for each instruction path: x86-64 PCLMULQDQ (ACCEL_CRC32_SIMD 1),
 * VPCLMULQDQ (2), AArch64 CRC32 (3, under qemu-aarch64) and ACCEL_CRC32_NO_SIMD (0).
 * CRC_SIMD_WANT (set by the script) is the level the build must have selected: a build that
 * silently fell back to another path is an error here, not a pass. */
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "crc_cases.h"

#ifndef CRC_SIMD_WANT
#error "define CRC_SIMD_WANT to the ACCEL_CRC32_SIMD level this build must select"
#elif CRC_SIMD_WANT != ACCEL_CRC32_SIMD
#error "the compiler flags did not select the wanted ACCEL_CRC32_SIMD level"
#endif

int main(void)
{
    printf("crc_simd_test (ACCEL_CRC32_IMPL=%d, ACCEL_CRC32_SIMD=%d)\n", ACCEL_CRC32_IMPL,
           ACCEL_CRC32_SIMD);
    tl_seed(12345);
    crc_cases_run();
    return TEST_END();
}
