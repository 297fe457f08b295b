/* edgetpu_data.h - load a file of the shared Edge TPU artefacts for the edgetpu tests.
 * rel is relative to ../shared/data/edgetpu (override the directory with ACCEL_EDGETPU_DATA).
 * Returns the bytes read (at most cap), 0 when the file cannot be opened (and says which). */
#ifndef ACCEL_TEST_EDGETPU_DATA_H
#define ACCEL_TEST_EDGETPU_DATA_H
#include <stdio.h>
#include <stdlib.h>

static size_t et_load(const char *rel, uint8_t *buf, size_t cap)
{
    char path[512];
    const char *dir = getenv("ACCEL_EDGETPU_DATA");
    FILE *fp;
    size_t n;
    if (!dir) dir = "../shared/data/edgetpu";
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    fp = fopen(path, "rb");
    if (!fp) {
        printf("  cannot open %s\n", path);
        return 0;
    }
    n = fread(buf, 1, cap, fp);
    fclose(fp);
    return n;
}
#endif
