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
#define ACCEL_IMPLEMENTATION
#include "accel.h"

static uint32_t arena[8192];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    accel_tflite_model m;
    accel_tflite rt;
    size_t need = 0, page = (size_t)sysconf(_SC_PAGESIZE);
    uint32_t i, k;
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
    if (accel_tflite_open(&m, far_base, size) != ACCEL_OK) return 0;
    for (i = 0; i < m.n_tensors; i++) {
        accel_tflite_tensor t;
        if (accel_tflite_tensor_info(&m, i, &t) != ACCEL_OK) __builtin_trap();
    }
    for (i = 0; i < m.n_ops; i++) {
        accel_tflite_op op;
        if (accel_tflite_op_info(&m, i, &op) != ACCEL_OK) __builtin_trap();
        for (k = 0; k < op.n_inputs; k++) {
            int32_t ti;
            if (accel_tflite_op_tensor(&m, &op, 0, k, &ti) != ACCEL_OK || ti < -1 || ti >= (int32_t)m.n_tensors)
                __builtin_trap();
        }
    }
    if (accel_tflite_plan(&m, arena, sizeof arena, &need) != ACCEL_OK) return 0;
    if (accel_tflite_init(&rt, &m, arena, sizeof arena) != ACCEL_OK) return 0;
    for (k = 0; k < 2; k++) {
        if (accel_tflite_invoke(&rt) != ACCEL_OK) break;
        if (accel_tflite_reset(&rt) != ACCEL_OK) __builtin_trap();
    }
    return 0;
}

#include "fuzz_main.h"
