/* test_mac_mcu.c - the whole of test_mac.c with the microcontroller kernels (ACCEL_MAC_MCU 1,
 * portable C: the path of Cortex-M0+/M3 builds) forced on the host, so that they run under
 * ASan/UBSan too: FC/GEMM blocks of rows, conv2d through caller scratch (the im2col patch) and
 * without it, depthwise and pools; tests/mac_arm.sh runs them (and the DSP ones) on emulated
 * Cortex-M cores. */
#define ACCEL_MAC_FAST 1
#define ACCEL_MAC_MCU 1
#define ACCEL_MAC_NO_SIMD
#include "test_mac.c"
