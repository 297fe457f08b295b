#!/usr/bin/env bash
# tsp1_endian.sh - every TSP1 test again with ACCEL_TSP1_BIG_ENDIAN=1 (frame fields big-endian:
# a command starts 55 CC, a response CC 55). The wire vectors have a big-endian set generated
# independently (tests/vectors/tsp1/gen_frames.py); the driver, model and soak tests build their
# frames and masks in the configured order. Sanitizers and -Werror as in make test, at -O0 (a
# shorter build; the tests leave the other device sections out themselves).
. "$(dirname "$0")/lib.sh"
T=build/tsp1-endian
mkdir -p "$T"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
NO="-DACCEL_NO_EDGETPU -DACCEL_NO_REFSI -DACCEL_NO_ANE -DACCEL_NO_MAC"  # for pre.c; the tests leave them out themselves
for t in test_tsp1 test_tsp1_driver test_tsp1_xfer test_tsp1_i2c test_tsp1_soak; do
    if cc $W -O0 -g $SAN -DACCEL_TSP1_BIG_ENDIAN=1 -I. -Iports/sim -Itests "tests/$t.c" \
        ports/sim/accel_sim.c -o "$T/$t" >"$T/$t.log" 2>&1; then ok "$t build"
    else bad "$t build (big-endian)" "$(head -c 600 "$T/$t.log")"; continue; fi
    arg=""
    [ "$t" = test_tsp1_soak ] && arg=20000
    check "$t (big-endian)" 0 " 0 failed" "$T/$t" $arg
done
# the byte order really changed: a command frame starts 55 CC
printf '#define ACCEL_TSP1_BIG_ENDIAN 1\n#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n#include <stdio.h>\nint main(void) { uint8_t b[12]; size_t n; accel_tsp1_encode_command(ACCEL_TSP1_REBOOT, 4, 0, 0, b, 12, &n); printf("%%02X %%02X %%02X %%02X\\n", b[0], b[1], b[2], b[3]); return 0; }\n' >"$T/pre.c"
if cc -std=c99 $NO -I. "$T/pre.c" -o "$T/pre" 2>"$T/pre.log"; then check "big-endian preamble" 0 "55 CC 00 50" "$T/pre"
else bad "big-endian preamble build" "$(head -c 300 "$T/pre.log")"; fi
lib_end
