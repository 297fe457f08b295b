#!/usr/bin/env bash
# tflite_avr.sh - the tflite section EXECUTED on 8-bit AVRs under simavr (tests/avr/tflite_avr_test.c):
# 16-bit int and size_t, 32-bit double, no FPU, and TFLite's results. The hand-made FC model is
# tests/fuzz/seeds/tflite/fc.tflite (its output worked out by hand);
# the Mega's ATmega2560 runs the hand-made FC model and the 7 hello_world_int8 cases of the shared TFLM goldens
# (output and every layer byte for byte; $ACCEL_TFLITE_DATA, else ../shared/data/tflite; skipped
# by name without). The model sits in RAM (copied at start-up), which is what stops the Uno (see
# below). The host build of the same program checks it too.
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/tflite_avr
mkdir -p "$B"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
have xxd || { skip "tflite on AVR" "xxd missing"; lib_end; exit $?; }
arr() { echo "static const uint8_t $1[] = {"; xxd -i < "$2"; echo "};"; }
{ arr tfl_fc tests/fuzz/seeds/tflite/fc.tflite; } > "$B/data.h"
HELLO=""
if D=$(data_dir tflite ACCEL_TFLITE_DATA); then
    H=$D/cases/hello_world_int8
    {
        cat "$B/data.h"
        arr tfl_hello "$D/hello_world_int8.tflite"
        names=$(awk -F'\t' '$1 == "hello_world_int8" { print $2 }' "$D/goldens.tsv")
        printf 'static const char *const hello_names[] = {'; for n in $names; do printf '"hello_world %s", ' "$n"; done; echo '};'
        printf 'static const uint8_t hello_in[] = {'; for n in $names; do printf '0x%s, ' "$(xxd -p "$H/$n.in.bin")"; done; echo '};'
        printf 'static const uint8_t hello_out[] = {'; for n in $names; do printf '0x%s, ' "$(xxd -p "$H/$n.out.bin")"; done; echo '};'
        echo 'static const uint8_t hello_layers[][33] = {'
        for n in $names; do echo "{"; xxd -i < "$H/$n.layers.bin"; echo "},"; done
        echo '};'
    } > "$B/data_hello.h"
    HELLO=yes
else
    skip "hello_world on the ATmega2560" "third-party data absent (no ../shared/data/tflite; ACCEL_TFLITE_DATA overrides it)"
fi
check_out() { # name output want
    local last
    last=$(printf '%s\n' "$2" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ "$last" = "$3 passed, 0 failed" ]; then ok "$1: $last"
    else bad "$1" "$(printf '%s\n' "$2" | tail -5)"; fi
}
if gcc $W -O1 -I. -Itests/avr -I"$B" tests/avr/tflite_avr_test.c -o "$B/host" >"$B/host.log" 2>&1; then
    check_out "host" "$("$B/host" 2>&1)" 1
else bad "host build" "$(head -5 "$B/host.log")"; fi
if ! have avr-gcc; then skip "tflite on AVR" "avr-gcc missing"; lib_end; exit $?; fi
AF="-Os -ffunction-sections -fdata-sections -Wl,--gc-sections -I. -Itests/avr"
build_run() { # name mcu want flags...
    local name=$1 mcu=$2 want=$3
    shift 3
    if ! avr-gcc $W $AF -mmcu=$mcu "$@" tests/avr/tflite_avr_test.c -o "$B/$name.elf" >"$B/$name.log" 2>&1; then
        bad "$name build" "$(head -5 "$B/$name.log")"; return
    fi
    echo "  $name: $(avr-size "$B/$name.elf" | awk 'NR==2 {print "flash", $1 + $2, "B, RAM (data+bss)", $2 + $3, "B"}')"
    if ! have simavr; then skip "$name run" "simavr missing"; return; fi
    check_out "$name under simavr" "$(timeout 120 simavr -m $mcu -f 16000000 "$B/$name.elf" 2>&1 | sed 's/\x1b\[[0-9;]*m//g; s/\.$//')" "$want"
}
# The Uno: the runner and the FC kernel build and fit its 32 KiB of flash, but its 2 KiB of RAM
# cannot hold even the 824-byte model beside the runner's stack (the model would have to stay
# in flash, which this reader cannot read yet): built and sized, not run.
if avr-gcc $W $AF -mmcu=atmega328p -DACCEL_TFLITE_MAX_DIMS=4 -I"$B" tests/avr/tflite_avr_test.c -o "$B/uno.elf" \
    >"$B/uno.log" 2>&1; then
    ok "uno-atmega328p build"
    echo "  uno-atmega328p: $(avr-size "$B/uno.elf" | awk 'NR==2 {print "flash", $1 + $2, "B of 32768, RAM (data+bss)", $2 + $3, "B of 2048"}') (not run: RAM)"
else bad "uno-atmega328p build" "$(head -5 "$B/uno.log")"; fi
if [ -n "$HELLO" ]; then
    cp "$B/data_hello.h" "$B/hello/data.h" 2>/dev/null || { mkdir -p "$B/hello" && cp "$B/data_hello.h" "$B/hello/data.h"; }
    build_run mega-atmega2560-hello atmega2560 8 -DTFL_HELLO -I"$B/hello"
else
    build_run mega-atmega2560 atmega2560 1 -I"$B"
fi
lib_end
