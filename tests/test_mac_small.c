/* test_mac_small.c - the whole of test_mac.c with the smallest loops (ACCEL_MAC_FAST 0). */
#define ACCEL_MAC_FAST 0
#include "test_mac.c"
