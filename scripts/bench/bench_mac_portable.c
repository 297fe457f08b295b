/* bench_mac_portable - bench_mac with the explicit SIMD paths left out (ACCEL_MAC_NO_SIMD): the
 * portable C path (ACCEL_MAC_FAST=1, whatever the compiler vectorizes by itself) against the
 * same naive loop, gemmlowp and XNNPACK. The target for this path: >= 2x naive on every op and
 * no slower than gemmlowp on GEMM. */
#define ACCEL_MAC_NO_SIMD
#include "bench_mac.c"
