/* edgetpu_data.h - the third-party Edge TPU artefacts for the edgetpu tests and bench: compiled
 * programs (programs/NAME.coral) and models (models/NAME_edgetpu.tflite), and libedgetpu's USB
 * open sequence (init_sequence_libedgetpu_usb.tsv). They are not part of the repository: they
 * are read from $ACCEL_EDGETPU_DATA, else TL_DATA_ROOT/edgetpu (testlib.h; the README's contract).
 *   et_load(rel, buf, cap)        bytes read (at most cap); 0 when the file cannot be opened
 *                                 (and says which)
 *   ET_LOAD(rel, buf, cap, n)     in a test case (testlib.h): skips the case when the directory
 *                                 is absent, fails it when the file is missing or empty */
#ifndef ACCEL_TEST_EDGETPU_DATA_H
#define ACCEL_TEST_EDGETPU_DATA_H
#include <stdio.h>
#include <stdlib.h>
#include "testlib.h" /* TL_DATA_ROOT */

static inline const char *et_data_dir(void)
{
    const char *dir = getenv("ACCEL_EDGETPU_DATA");
    return dir && *dir ? dir : TL_DATA_ROOT "/edgetpu";
}

static inline size_t et_load(const char *rel, uint8_t *buf, size_t cap)
{
    char path[512];
    FILE *fp;
    size_t n;
    snprintf(path, sizeof path, "%s/%s", et_data_dir(), rel);
    fp = fopen(path, "rb");
    if (!fp) {
        printf("  cannot open %s\n", path);
        return 0;
    }
    n = fread(buf, 1, cap, fp);
    fclose(fp);
    return n;
}

#define ET_LOAD(rel, buf, cap, n)                                                        \
    do {                                                                                 \
        REQUIRE_DATA("ACCEL_EDGETPU_DATA", "edgetpu");                                   \
        (n) = et_load(rel, buf, cap);                                                    \
        REQUIRE((n) > 0);                                                                \
    } while (0)
#endif
