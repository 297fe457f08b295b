#!/usr/bin/env bash
# tflite_avr.sh - the tflite section EXECUTED on 8-bit AVRs under simavr (tests/avr/tflite_avr_test.c):
# 16-bit int and size_t, 32-bit double, no FPU, and TFLite's results. The hand-made FC model is
# tests/fuzz/seeds/tflite/fc.tflite (its output worked out by hand); the shared TFLM goldens
# ($ACCEL_TFLITE_DATA, else ../shared/data/tflite; skipped by name without) are checked output
# and every layer byte for byte:
#   uno-far    ATmega328P (32 KiB flash, 2 KiB RAM): hello_world_int8's 7 cases with the model
#              and the goldens in flash (PROGMEM), read through ACCEL_FB_COPY = memcpy_P;
#   mega       ATmega2560 (8 KiB RAM): the same 7 cases with the model copied to RAM (.data);
#   mega-speech  ATmega2560: micro_speech_quantized's 3 cases (18.8 KB model, 1960-byte inputs)
#              with model and goldens in flash. A PROGMEM pointer is 16 bits there, so the model
#              must lie below 64 KiB of flash: checked on the symbol's address.
# Each prints flash, RAM (data+bss) and the peak stack (RAM painted at start). The host builds of
# the same program (RAM and far modes) check it too. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/tflite_avr
mkdir -p "$B"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
have xxd || { skip "tflite on AVR" "xxd missing"; lib_end; exit $?; }
arr() { echo "static const uint8_t $1[] TFL_PROGMEM = {"; xxd -i < "$2"; echo "};"; }
# cases MODEL PREFIX: every golden case of MODEL concatenated (inputs, outputs, layers), their
# sizes and names
cases() {
    local m=$1 p=$2 P n first
    P=$(echo "$p" | tr a-z A-Z)
    names=$(awk -F'\t' -v m="$m" '$1 == m { print $2 }' "$D/goldens.tsv")
    first=$(echo "$names" | head -1)
    arr "tfl_$p" "$D/$m.tflite"
    echo "#define ${P}_N $(echo "$names" | wc -l)"
    echo "#define ${P}_IN $(stat -c %s "$D/cases/$m/$first.in.bin")u"
    echo "#define ${P}_OUT $(stat -c %s "$D/cases/$m/$first.out.bin")u"
    echo "#define ${P}_LAY $(stat -c %s "$D/cases/$m/$first.layers.bin")u"
    printf 'static const char %s_names[] = "' "$p"; for n in $names; do printf '%s\\0' "$n"; done; echo '";'
    for part in in out layers; do
        echo "static const uint8_t ${p}_$part[] TFL_PROGMEM = {"
        for n in $names; do xxd -i < "$D/cases/$m/$n.$part.bin"; echo ","; done
        echo "};"
    done
}
arr tfl_fc tests/fuzz/seeds/tflite/fc.tflite > "$B/data.h"
HELLO=""
if D=$(data_dir tflite ACCEL_TFLITE_DATA); then
    mkdir -p "$B/hello" "$B/speech"
    { cat "$B/data.h"; cases hello_world_int8 hello; } > "$B/hello/data.h"
    { cat "$B/data.h"; cases micro_speech_quantized speech; } > "$B/speech/data.h"
    HELLO=yes
else
    skip "hello_world and micro_speech on AVR" "$(data_absent tflite ACCEL_TFLITE_DATA)"
fi
check_out() { # name output want
    local last
    last=$(printf '%s\n' "$2" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if [ "$last" = "$3 passed, 0 failed" ]; then ok "$1: $last"
    else bad "$1" "$(printf '%s\n' "$2" | tail -5)"; fi
}
host_run() { # name want flags...
    local name=$1 want=$2
    shift 2
    if gcc $W -O1 -I. -Itests/avr "$@" tests/avr/tflite_avr_test.c -o "$B/$name" >"$B/$name.log" 2>&1; then
        check_out "$name" "$("$B/$name" 2>&1)" "$want"
    else bad "$name build" "$(head -5 "$B/$name.log")"; fi
}
if [ -n "$HELLO" ]; then
    host_run host-hello 8 -DTFL_HELLO -DTFL_ARENA_WORDS=100 -I"$B/hello"
    host_run host-far-hello 8 -DTFL_FAR -DTFL_HELLO -DTFL_ARENA_WORDS=100 -I"$B/hello"
    host_run host-far-speech 4 -DTFL_FAR -DTFL_SPEECH -DTFL_ARENA_WORDS=1700 -I"$B/speech" \
        -DACCEL_TFLITE_OPS=0xA5
else
    host_run host 1 -I"$B"
fi
if ! have avr-gcc; then skip "tflite on AVR" "avr-gcc missing"; lib_end; exit $?; fi
AF="-Os -ffunction-sections -fdata-sections -Wl,--gc-sections -I. -Itests/avr"
build_run() { # name mcu want flash_kib ram_kib flags...
    local name=$1 mcu=$2 want=$3 fk=$4 rk=$5 out
    shift 5
    if ! avr-gcc $W $AF -mmcu=$mcu "$@" tests/avr/tflite_avr_test.c -o "$B/$name.elf" >"$B/$name.log" 2>&1; then
        bad "$name build" "$(head -5 "$B/$name.log")"; return 1
    fi
    if ! have simavr; then skip "$name run" "simavr missing"; return 1; fi
    out=$(timeout 300 simavr -m $mcu -f 16000000 "$B/$name.elf" 2>&1 | sed 's/\x1b\[[0-9;]*m//g; s/\.$//')
    echo "  $name: $(avr-size "$B/$name.elf" | awk -v fk=$fk -v rk=$rk 'NR==2 {print "flash", $1 + $2, "B of", fk * 1024 ", RAM (data+bss)", $2 + $3, "B of", rk * 1024}'), $(printf '%s\n' "$out" | grep -o 'peak stack [0-9]* B' | tail -1)"
    check_out "$name under simavr" "$out" "$want"
}
if [ -n "$HELLO" ]; then
    # The Uno: model (2,704 B) and goldens in flash; RAM holds the arena, the runner's stack and
    # the layer being compared. Only the FULLY_CONNECTED kernel is built (ACCEL_TFLITE_OPS).
    build_run uno-far-hello atmega328p 8 32 2 -DTFL_FAR -DTFL_HELLO -DTFL_ARENA_WORDS=72 \
        -DACCEL_TFLITE_MAX_DIMS=4 -I"$B/hello"
    build_run mega-hello atmega2560 8 256 8 -DTFL_HELLO -DTFL_ARENA_WORDS=100 -I"$B/hello"
    # the same from flash at -O2 too: avr-gcc 5.4 has miscompiled this section at -Os/-O2 only
    # (a scratch register reused after a clobber), so one optimisation level is not enough
    build_run mega-far-hello-O2 atmega2560 8 256 8 -O2 -DTFL_FAR -DTFL_HELLO -DTFL_ARENA_WORDS=72 \
        -DACCEL_TFLITE_MAX_DIMS=4 -I"$B/hello"
    # micro_speech on the Mega: the arena (6,276 B) + data + stack fit its 8,192 B of RAM only
    # with the model (18,800 B), its inputs (3 x 1,960) and layers (3 x 5,968) in flash.
    if build_run mega-far-speech atmega2560 4 256 8 -DTFL_FAR -DTFL_SPEECH -DTFL_ARENA_WORDS=1570 \
        -DACCEL_TFLITE_MAX_DIMS=4 -DACCEL_TFLITE_OPS=0xA5 -I"$B/speech"; then
        sym=$(avr-nm -S "$B/mega-far-speech.elf" | awk '$4 == "tfl_speech" { print $1, $2 }')
        end=""
        [ -n "$sym" ] && end=$(( 16#${sym% *} + 16#${sym#* } ))
        if [ -n "$end" ] && [ "$end" -le 65536 ]; then ok "micro_speech model below 64 KiB of flash (ends at byte $end)"
        else bad "micro_speech model below 64 KiB of flash" "ends at ${end:-?}"; fi
    fi
else
    build_run uno-far atmega328p 1 32 2 -DTFL_FAR -DACCEL_TFLITE_MAX_DIMS=4 -I"$B"
    build_run mega-atmega2560 atmega2560 1 256 8 -I"$B"
fi
lib_end
