/* fuzz_edgetpu_disasm.c - libFuzzer target for the Edge TPU bundle codec and disassembler, split
 * from fuzz_edgetpu.c (which keeps the model reader and the wire decoders) so that neither pays
 * for the other: the disassembler formats a 256-byte line per bundle, which made one input of
 * 4 KiB cost 256 lines.
 * Input: byte 0 picks a line capacity (1..256, to drive the truncation paths), bytes 1..4 the
 * offset printed (little-endian), then up to 4 bundles of 16 bytes (few per input keeps it fast; bundles are
 * independent, so more per input would only repeat work). For each bundle:
 *   - decode never fails, and encode(decode(b)) == b (every bit pattern is a bundle);
 *   - the full-capacity line is ACCEL_OK, NUL-terminated, of the reported length, and shorter
 *     than ACCEL_EDGETPU_DISASM_MAX;
 *   - with the picked capacity the answer is ACCEL_OK with the same line when the line fits
 *     (length < cap), ACCEL_E_BUFFER_TOO_SMALL otherwise, the output still NUL-terminated
 *     inside cap and a prefix of the full line;
 *   - a field value too wide for its field is refused by the encoder (ACCEL_E_ARG) and leaves
 *     the output untouched.
 * Anything else traps.
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_edgetpu_disasm.c -o f
 * Without libFuzzer: -DACCEL_FUZZ_MAIN runs the files or directories given (tests/fuzz/fuzz_main.h);
 * seeds in tests/fuzz/seeds/edgetpu_disasm. */
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FZ_MAX_BUNDLES 4u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap, i;
    uint32_t offset;
    if (size < 5) return 0;
    cap = (size_t)data[0] + 1u;
    offset = accel_load_u32le(data + 1);
    data += 5;
    size -= 5;
    for (i = 0; i + 16 <= size && i < FZ_MAX_BUNDLES * 16u; i += 16) {
        accel_edgetpu_insn in;
        uint8_t back[16];
        const uint8_t *b = data + i;
        if (accel_edgetpu_decode_insn(b, &in) != ACCEL_OK) __builtin_trap();
        if (accel_edgetpu_encode_insn(&in, back) != ACCEL_OK || memcmp(back, b, 16) != 0) __builtin_trap();
        {
            /* one field made one bit too wide (chosen by the bundle's first byte) is refused */
            unsigned fld = (unsigned)b[0] % ACCEL_EDGETPU_NFIELDS, w = accel_edgetpu_field_width(fld);
            if (w > 0 && w < 32) {
                uint8_t keep[16];
                in.f[fld] |= 1u << w;
                memcpy(keep, back, 16);
                if (accel_edgetpu_encode_insn(&in, back) != ACCEL_E_ARG || memcmp(back, keep, 16) != 0)
                    __builtin_trap();
            }
        }
#ifndef ACCEL_EDGETPU_NO_DISASM
        {
            char full[ACCEL_EDGETPU_DISASM_MAX], part[ACCEL_EDGETPU_DISASM_MAX + 1];
            size_t len = (size_t)-1, plen = (size_t)-1, k;
            accel_status st;
            if (accel_edgetpu_disasm(b, offset + (uint32_t)i, full, sizeof full, &len) != ACCEL_OK) __builtin_trap();
            if (len >= sizeof full || strlen(full) != len) __builtin_trap();
            memset(part, 0x55, sizeof part);
            st = accel_edgetpu_disasm(b, offset + (uint32_t)i, part, cap, &plen);
            if (len < cap) {
                if (st != ACCEL_OK || plen != len || strcmp(part, full) != 0) __builtin_trap();
            } else {
                /* too small: the caller's length is untouched, the line a NUL-terminated prefix */
                if (st != ACCEL_E_BUFFER_TOO_SMALL || plen != (size_t)-1) __builtin_trap();
                k = strlen(part);
                if (k >= cap || memcmp(part, full, k) != 0) __builtin_trap();
            }
            if (part[cap] != 0x55) __builtin_trap(); /* nothing written past cap */
        }
#endif
    }
    return 0;
}

#include "fuzz_main.h"
