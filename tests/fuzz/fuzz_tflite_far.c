/* fuzz_tflite_far.c - libFuzzer target for the tflite section with ACCEL_FB_COPY (models in a
 * Harvard MCU's flash): the same walk as fuzz_tflite.c (open, accessors, check, plan, init,
 * invoke, reset) on a model handed over at a FAKE address, a PROT_NONE mapping of its size that
 * the copy macro translates. A direct read of the model faults, a copy that leaves the model
 * traps: both are bugs, as is any crash. Every status is allowed.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_tflite_far.c -o fuzz_tflite_far
 * Without libFuzzer: -DACCEL_FUZZ_MAIN (tests/fuzz/fuzz_main.h); seeds in
 * tests/fuzz/seeds/tflite_far (the hand-made models of seeds/tflite). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const uint8_t *far_base, *far_real;
static size_t far_len, far_cap;

static void far_copy(void *dst, const void *src, size_t n)
{
    const uint8_t *s = (const uint8_t *)src;
    if (s < far_base || (size_t)(s - far_base) > far_len || n > far_len - (size_t)(s - far_base)) __builtin_trap();
    memcpy(dst, far_real + (s - far_base), n);
}
#define ACCEL_FB_COPY(dst, src, n) far_copy((dst), (src), (n))
#define FUZZ_TFLITE_WALK_ONLY
#include "fuzz_tflite.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *p;
    if (far_base) munmap((void *)(uintptr_t)far_base, far_cap);
    far_cap = size ? (size + page - 1u) / page * page : page;
    p = mmap(NULL, far_cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        far_base = NULL;
        return 0;
    }
    far_base = (const uint8_t *)p;
    far_real = data;
    far_len = size;
    tflite_walk(far_base, size);
    return 0;
}

#include "fuzz_main.h"
