/* the baseline of bench_mac, built again for bench_mac_avx2 */
#include "../bench_mac/xnnpack_conv.c"
