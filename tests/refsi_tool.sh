#!/usr/bin/env bash
# Tool-level tests for build/accel-refsi: disasm/asm round trips, malformed buffers (exit 1,
# where and why) and asm refusals. Ends with "N passed, N failed".
# tests/vectors/refsi/all.hex holds every packet kind (this project's own encoding); NAME.txt is
# the expected disassembly, written by hand. E1-E3 are command buffers as the oneAPI Construction
# Kit's encoder emits them, a third-party artefact read from command_buffers.txt in
# $ACCEL_REFSI_DATA (else lib.sh's DATA_ROOT); their round trips skip by name without it.
set -u
. "$(dirname "$0")/lib.sh"
T=build/accel-refsi
[ -x "$T" ] || make -s "$T" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
V=tests/vectors/refsi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
hex2bin() { printf '%s' "$1" | xxd -r -p > "$2"; }

# round trips, both directions, byte-exact / text-exact
round_trip() { # name file.bin
    if "$T" disasm "$2" > "$W/$1.out" && diff -u "$V/$1.txt" "$W/$1.out"; then ok "disasm $1"; else bad "disasm $1"; fi
    if "$T" asm "$V/$1.txt" > "$W/$1.asm.bin" && cmp -s "$2" "$W/$1.asm.bin"; then ok "asm $1"; else bad "asm $1"; fi
}
xxd -r -p "$V/all.hex" > "$W/all.bin"
round_trip all "$W/all.bin"
if D=$(data_dir refsi ACCEL_REFSI_DATA); then
    for n in 1 2 3; do
        # the "# little-endian bytes:" line under "## En:" in the kit's examples
        hex=$(awk -v h="## E$n:" 'index($0, "## ") == 1 { on = index($0, h) == 1 }
                                  on && /^# little-endian bytes: / { print $4; exit }' "$D/command_buffers.txt")
        if [ -z "$hex" ]; then bad "kit example E$n" "not found in $D/command_buffers.txt"; continue; fi
        hex2bin "$hex" "$W/e$n.bin"
        round_trip "e$n" "$W/e$n.bin"
    done
else
    for n in 1 2 3; do skip "round trip e$n (the kit's E$n)" "$(data_absent refsi ACCEL_REFSI_DATA)"; done
fi

# malformed buffers: exit 1, stderr names the command, its offset and the status
expect_malformed() { # name hex index offset status
    hex2bin "$2" "$W/m.bin"
    "$T" disasm "$W/m.bin" > "$W/m.out" 2> "$W/m.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "command $3 at byte offset $4: $5:" "$W/m.err"; then ok "malformed $1"
    else bad "malformed $1" "rc=$rc: $(cat "$W/m.err")"; fi
}
SYNC3=000900c003000000 # SYNC_CACHE flags=3, a good first command
expect_malformed reserved      "010806c004020000080000000000000001000000000000000200000000000000" 0 0x0 ACCEL_E_REFSI_RESERVED
expect_malformed packet_id     "${SYNC3}0001008000000000" 1 0x8 ACCEL_E_REFSI_PACKET_ID
expect_malformed odd_count     "${SYNC3}000103c0000000000000000000000000" 1 0x8 ACCEL_E_REFSI_ODD_COUNT
expect_malformed opcode        "${SYNC3}000a00c000000000" 1 0x8 ACCEL_E_REFSI_OPCODE
expect_malformed payload_count "${SYNC3}000204c0010000000100000000000000" 1 0x8 ACCEL_E_REFSI_PAYLOAD_COUNT
expect_malformed overrun       "${SYNC3}000606c0000000000800000000000000" 1 0x8 ACCEL_E_REFSI_OVERRUN
expect_malformed partial       "${SYNC3}000100" 1 0x8 ACCEL_E_REFSI_PARTIAL_CHUNK
expect_malformed inline        "${SYNC3}000900c004000000" 1 0x8 ACCEL_E_REFSI_INLINE_RESERVED
expect_malformed src_align     "${SYNC3}000606c001000000041000000000000000000000000000000000000000000000" 1 0x8 ACCEL_E_REFSI_SRC_ALIGN
expect_malformed reg           "${SYNC3}000202c0280000000000000000000000" 1 0x8 ACCEL_E_REFSI_REG
# the good command before the error is still printed
hex2bin "${SYNC3}000a00c000000000" "$W/m.bin"
same "prefix before error" "$("$T" disasm "$W/m.bin" 2>/dev/null)" "SYNC_CACHE flags=0x3"

# asm refusals: exit 1 with the line number and reason
expect_asm_error() { # name text pattern
    printf '%b' "$2" > "$W/a.txt"
    "$T" asm "$W/a.txt" > "$W/a.bin" 2> "$W/a.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q -- "$3" "$W/a.err"; then ok "asm $1"
    else bad "asm $1" "rc=$rc: $(cat "$W/a.err")"; fi
}
expect_asm_error reg40     'FINISH\nWRITE_REG64 reg=0x28 value=0x1\n' 'a.txt:2: ACCEL_E_REFSI_REG:'
expect_asm_error nargs8    'RUN_INSTANCES max_harts=0x0 instances=0x1 args=1,2,3,4,5,6,7,8\n' 'ACCEL_E_REFSI_NARGS'
expect_asm_error imm64     'STORE_IMM64 addr=0x100000000 value=0x1\n' 'ACCEL_E_REFSI_ADDR32'
expect_asm_error align     'COPY_MEM64 count=0x1 src=0x1004 dst=0x0 unit=0x0\n' 'ACCEL_E_REFSI_SRC_ALIGN'
expect_asm_error harts     'RUN_KERNEL_SLICE max_harts=0x100 instances=0x1 slice=0x0\n' 'ACCEL_E_REFSI_MAX_HARTS'
expect_asm_error flags     'SYNC_CACHE flags=0x4\n' 'ACCEL_E_REFSI_CACHE_FLAGS'
expect_asm_error name      'WRITE_REG64 reg=0x2 (CMP_REG_ENTRY_PT_FN) value=0x1\n' 'does not match'
expect_asm_error unknown   'JUMP addr=0x1\n' 'a.txt:1: unknown opcode'
expect_asm_error missing   'STORE_IMM64 addr=0x10\n' 'missing field'
expect_asm_error extra     'FINISH value=0x1\n' 'not valid for this opcode'
expect_asm_error repeated  'SYNC_CACHE flags=0x1 flags=0x2\n' 'repeated'
expect_asm_error toobig    'WRITE_REG64 reg=0x1 value=0x10000000000000000\n' 'out of range'
expect_asm_error emptyarg  'RUN_INSTANCES max_harts=0x0 instances=0x1 args=0x1,\n' 'out of range'
# comments and blank lines are fine
printf '# header\n\nFINISH # end\n' > "$W/c.txt"
if "$T" asm "$W/c.txt" | cmp -s - <(printf '\x00\x01\x00\xc0\x00\x00\x00\x00'); then ok comments; else bad comments; fi
# usage and missing file
check "missing file exit 1" 1 "" "$T" disasm "$W/none.bin"
check "usage exit 2" 2 "usage:" "$T"

# the decoder fuzz target, built as a plain program (ACCEL_FUZZ_MAIN), on the buffers above and
# its seeds
if ${CC:-cc} -std=c99 -DACCEL_FUZZ_MAIN -g -fsanitize=address,undefined -fno-sanitize-recover=all \
        -I. -Iports/sim tests/fuzz/fuzz_refsi.c -o "$W/fuzz_refsi" 2> "$W/fz.err" &&
    "$W/fuzz_refsi" "$W"/*.bin tests/fuzz/seeds/refsi > /dev/null; then ok "fuzz_refsi"
else bad "fuzz_refsi on the buffers" "$(head -3 "$W/fz.err")"; fi

lib_end
