/* demo_mac - the MAC reference engine at work: a few of the TensorFlow Lite golden vectors
 * (tests/vectors/int8, computed by TFLM's reference kernels) run through the engine,
 * then an exact int16 x int16 -> int64 matrix product built from four byte-plane passes of the
 * engine's own uint8 GEMM, checked against plain int64 arithmetic. */
#include "accel.h"
#include "mac_vectors.h"

int main(void)
{
    /* relative to the repository root, where `make demo` runs */
    static const char *const files[] = {"tests/vectors/int8/golden_fc.txt",
                                        "tests/vectors/int8/golden_conv2d.txt",
                                        "tests/vectors/int8/golden_depthwise.txt"};
    long passed = 0, failed = 0;
    size_t i;
    int m, n, k, bad = 0, exact = 1, rc;
    int16_t a[3 * 5], b[4 * 5];
    int64_t out[3 * 4];
    static uint32_t scratch[256];
    size_t need = 0;
    accel_status st;

    printf("1) TFLite golden vectors through the engine (double rounding):\n");
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        /* a missing or malformed file is reported by run_file and fails the demo */
        if (run_file(files[i], &passed, &failed)) bad = 1;
    }
    printf("   %ld passed, %ld failed: the engine %s TFLite bit for bit on these\n", passed, failed,
           failed || bad ? "DOES NOT match" : "matches");

    printf("2) exact int16 x int16 -> int64 product from 4 uint8 byte-plane GEMMs:\n");
    for (k = 0; k < 15; k++) a[k] = (int16_t)(k * 4099 - 30000);
    for (k = 0; k < 20; k++) b[k] = (int16_t)(32767 - k * 3121);
    a[0] = -32768;
    b[0] = -32768;
    st = accel_mac_wide_scratch_size(2, 3, 4, 5, &need);
    if (st == ACCEL_OK && need > sizeof scratch) st = ACCEL_E_BUFFER_TOO_SMALL;
    if (st == ACCEL_OK) st = accel_mac_matmul_s16(3, 4, 5, a, 15, b, 20, out, 12, scratch,
                                                  sizeof scratch);
    printf("   status %s, scratch %zu bytes, depth limit %lu\n", accel_status_str(st), need,
           (unsigned long)accel_mac_wide_depth_limit(2, 1));
    for (m = 0; m < 3; m++) {
        printf("   ");
        for (n = 0; n < 4; n++) {
            int64_t want = 0;
            for (k = 0; k < 5; k++) want += (int64_t)a[m * 5 + k] * b[n * 5 + k];
            if (want != out[m * 4 + n]) exact = 0;
            printf(" %12lld", (long long)out[m * 4 + n]);
        }
        printf("\n");
    }
    printf("   %s\n", exact && st == ACCEL_OK ? "equal to direct int64 arithmetic: exact"
                                               : "DIFFERS from direct int64 arithmetic");
    rc = (failed || bad || !exact || st != ACCEL_OK) ? 1 : 0;
    printf(rc ? "demo_mac: FAILED\n" : "demo_mac: ok\n");
    return rc;
}
