/* fuzz_tflite.c - libFuzzer target for the tflite section: open (every schema and graph rule),
 * check, plan, init, invoke, reset, on any bytes. Every status is allowed; a crash, a read or
 * write outside the model or the arena, or a validated model whose accessors then fail is a bug.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_tflite.c -o fuzz_tflite
 * Without libFuzzer: -DACCEL_FUZZ_MAIN runs the files or directories given (tests/fuzz/fuzz_main.h);
 * seeds in tests/fuzz/seeds/tflite (scripts/gen/gen_tflite_models.py seeds DIR). */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* a modest arena: models that need more are planned, then refused (ACCEL_E_TFLITE_ARENA) */
static uint32_t arena[8192];

/* The walk, on a model at `data` (fuzz_tflite_far.c runs it on a model read through a copy
 * macro; it defines FUZZ_TFLITE_WALK_ONLY and includes this file). */
static void tflite_walk(const uint8_t *data, size_t size)
{
    accel_tflite_model m;
    accel_tflite rt;
    size_t need = 0;
    uint32_t i, k;
    if (accel_tflite_open(&m, data, size) != ACCEL_OK) return;
    /* a validated model must be fully walkable */
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
    /* every operator's verdict and reason: the status check gives, a terminated reason that is
     * empty exactly when the operator runs */
    for (i = 0; i < m.n_ops; i++) {
        accel_tflite_refusal r;
        accel_status st = accel_tflite_check_op(&m, i, &r);
        if (st != r.status || r.op != i || r.n_types > ACCEL_TFLITE_REFUSAL_TYPES || r.n_inputs > r.n_types ||
            memchr(r.reason, 0, sizeof r.reason) == NULL || (st == ACCEL_OK) != (r.reason[0] == 0))
            __builtin_trap();
    }
    if (accel_tflite_plan(&m, arena, sizeof arena, &need) != ACCEL_OK) return;
    if (accel_tflite_init(&rt, &m, arena, sizeof arena) != ACCEL_OK) return;
    for (k = 0; k < 2; k++) { /* twice: state carried, then reset */
        if (accel_tflite_invoke(&rt) != ACCEL_OK) break;
        if (accel_tflite_reset(&rt) != ACCEL_OK) __builtin_trap();
    }
}

#ifndef FUZZ_TFLITE_WALK_ONLY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tflite_walk(data, size);
    return 0;
}

#include "fuzz_main.h"
#endif
