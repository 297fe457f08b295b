/* fuzz_main.h - the plain-program main() every tests/fuzz/fuzz_*.c shares, for builds without
 * libFuzzer. A target includes it last; it does nothing unless ACCEL_FUZZ_MAIN is defined:
 *
 *   cc -std=c99 -DACCEL_FUZZ_MAIN -fsanitize=address,undefined -I. -Iports/sim -Itests \
 *       tests/fuzz/fuzz_x.c -o fuzz_x && ./fuzz_x tests/fuzz/seeds/x [more files or dirs]
 *
 * Each argument is a file (or a directory: each file in it; "-" is stdin) given once to
 * LLVMFuzzerTestOneInput, in a heap block of exactly its size so ASan catches a read past the
 * end. A target may also define FUZZ_GENERATED (a count) before including this file, and after
 * it (under #ifdef ACCEL_FUZZ_MAIN)
 *   static size_t fuzz_generate(uint8_t *buf, size_t cap, uint32_t i);   input i into buf
 * to add that many generated inputs after the files, drawn from tl_rand() (tests/tl_rand.h:
 * seed printed, ACCEL_TEST_SEED replays it; ACCEL_FUZZ_GENERATED overrides the count).
 * Exit status: 0, or 1 when an argument cannot be read; a crash aborts, as under libFuzzer. */
#ifndef ACCEL_FUZZ_MAIN_H
#define ACCEL_FUZZ_MAIN_H
#ifdef ACCEL_FUZZ_MAIN
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../tl_rand.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long fz_files;
#ifdef FUZZ_GENERATED
static size_t fuzz_generate(uint8_t *buf, size_t cap, uint32_t i);
#endif

/* The whole stream into an exact-size heap copy, then one call. */
static int fz_run_stream(FILE *fp, const char *name)
{
    size_t cap = 1u << 16, n = 0, got;
    uint8_t *buf = (uint8_t *)malloc(cap), *exact;
    if (!buf) return 1;
    while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = (uint8_t *)realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return 1;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (ferror(fp)) {
        perror(name);
        free(buf);
        return 1;
    }
    exact = (uint8_t *)malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    fz_files++;
    return 0;
}

static int fz_run_path(const char *path)
{
    struct stat st;
    FILE *fp;
    int rc;
    if (strcmp(path, "-") == 0) return fz_run_stream(stdin, "stdin");
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        rc = 0;
        if (!d) {
            perror(path);
            return 1;
        }
        while ((e = readdir(d)) != NULL) {
            char sub[4096];
            if (e->d_name[0] == '.') continue;
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            rc |= fz_run_path(sub);
        }
        closedir(d);
        return rc;
    }
    fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return 1;
    }
    rc = fz_run_stream(fp, path);
    fclose(fp);
    return rc;
}

int main(int argc, char **argv)
{
    int i, rc = 0;
    unsigned long generated = 0;
    for (i = 1; i < argc; i++) rc |= fz_run_path(argv[i]);
#ifdef FUZZ_GENERATED
    {
        static uint8_t gbuf[1u << 16];
        const char *e = getenv("ACCEL_FUZZ_GENERATED");
        unsigned long count = e && *e ? strtoul(e, NULL, 0) : (unsigned long)(FUZZ_GENERATED);
        tl_seed(1);
        for (generated = 0; generated < count; generated++) {
            size_t n = fuzz_generate(gbuf, sizeof gbuf, (uint32_t)generated);
            uint8_t *exact = (uint8_t *)malloc(n ? n : 1);
            if (!exact) return 1;
            memcpy(exact, gbuf, n);
            LLVMFuzzerTestOneInput(exact, n);
            free(exact);
        }
    }
#endif
    printf("%s: %lu file(s), %lu generated input(s), no crash\n", argv[0], fz_files, generated);
    return rc;
}
#endif
#endif
