/* fuzz_edgetpu.c - libFuzzer target for the Edge TPU model reader, FlexBuffer lookup and wire
 * decoders (the bundle codec and disassembler have their own target, fuzz_edgetpu_disasm.c). Every status is allowed; a validated model that cannot be walked,
 * a bundle that does not re-encode to its bytes, or any access outside the input is a bug.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_edgetpu.c -o fuzz_edgetpu
 * Without libFuzzer: -DACCEL_FUZZ_MAIN runs the files or directories given (tests/fuzz/fuzz_main.h);
 * seeds in tests/fuzz/seeds/edgetpu. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stddef.h>
#include <stdint.h>

static void walk(const accel_edgetpu_package *m)
{
    uint32_t x, i, j;
    for (x = 0; x < m->n_executables; x++) {
        accel_edgetpu_exe e;
        if (accel_edgetpu_package_executable(m, x, &e) != ACCEL_OK) __builtin_trap();
        for (i = 0; i < e.n_bitstreams; i++) {
            accel_edgetpu_bitstream b;
            if (accel_edgetpu_exe_bitstream(&e, i, &b) != ACCEL_OK) __builtin_trap();
            for (j = 0; j < b.n_field_offsets; j++) {
                accel_edgetpu_field_offset fo;
                if (accel_edgetpu_bitstream_field_offset(&b, j, &fo) != ACCEL_OK) __builtin_trap();
            }
        }
        for (i = 0; i < e.n_hints; i++) {
            accel_edgetpu_hint h;
            if (accel_edgetpu_exe_hint(&e, i, &h) != ACCEL_OK) __builtin_trap();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    accel_edgetpu_package m;
    /* a validated model must be fully walkable: anything else is a reader bug */
    if (accel_edgetpu_package_init_tflite(&m, data, size) == ACCEL_OK) walk(&m);
    if (accel_edgetpu_package_init(&m, data, size) == ACCEL_OK) walk(&m);
    {
        /* wire decoders on prefixes: any status is a valid answer, only a crash is a bug */
        accel_edgetpu_event ev;
        accel_edgetpu_irq irq;
        accel_edgetpu_dfu_status ds;
        uint32_t len32;
        uint8_t tag;
        uint16_t ts;
        if (size >= 8) (void)accel_edgetpu_decode_usb_header(data, &len32, &tag);
        (void)accel_edgetpu_decode_event(data, size < 16 ? size : 16, &ev);
        (void)accel_edgetpu_decode_irq(data, size < 4 ? size : 4, &irq);
        (void)accel_edgetpu_decode_dfu_status(data, size, &ds);
        (void)accel_edgetpu_dfu_transfer_size(data, size, &ts);
        if (size >= 8) {
            /* patching anywhere never writes outside: ASan checks the copy's bounds */
            uint8_t buf[64];
            size_t n = size < sizeof buf ? size : sizeof buf;
            memcpy(buf, data, n);
            (void)accel_edgetpu_patch32(buf, n, accel_load_u32le(data), 0xA5A5A5A5u);
        }
    }
    return 0;
}

#include "fuzz_main.h"
