/* gcov_dump.c - coverage data out of a Cortex-M test run under qemu-system-arm, for
 * scripts/coverage.sh: the program is compiled with --coverage -fprofile-info-section, so
 * gcc puts a pointer to each object's counters in the section gcov_info (no constructors, no
 * exit hooks: nothing runs before main here), and m_startup.c built with -DMAC_ARM_GCOV calls
 * mac_arm_gcov_dump() after main. libgcov's __gcov_info_to_gcda serializes each object's
 * counters into the .gcda stream; newlib's semihosted fopen/fwrite write it on the host, at
 * the path gcc recorded at compile time (the object's directory), where the host's gcov then
 * reads it with the .gcno. */
#include <gcov.h>
#include <stdio.h>
#include <stdlib.h>

/* the linker defines these around the orphan section gcov_info */
extern const struct gcov_info *const __start_gcov_info[];
extern const struct gcov_info *const __stop_gcov_info[];

void mac_arm_gcov_dump(void);

static void mac_arm_gcov_open(const char *name, void *arg)
{
    FILE **f = (FILE **)arg;
    *f = name ? fopen(name, "wb") : NULL;
    if (!*f) printf("gcov: cannot write %s\n", name ? name : "(no name)");
}

static void mac_arm_gcov_write(const void *data, unsigned n, void *arg)
{
    FILE **f = (FILE **)arg;
    if (*f && fwrite(data, 1, n, *f) != n) printf("gcov: short write\n");
}

static void *mac_arm_gcov_alloc(unsigned n, void *arg)
{
    (void)arg;
    return malloc(n); /* a few bytes per object, once at exit: the heap is otherwise unused */
}

void mac_arm_gcov_dump(void)
{
    const struct gcov_info *const *p;
    for (p = __start_gcov_info; p != __stop_gcov_info; p++) {
        FILE *f = NULL;
        __gcov_info_to_gcda(*p, mac_arm_gcov_open, mac_arm_gcov_write, mac_arm_gcov_alloc, &f);
        if (f) fclose(f);
    }
}
