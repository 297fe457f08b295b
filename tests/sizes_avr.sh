#!/usr/bin/env bash
# sizes_avr.sh - every caller-memory size function and size macro where size_t has 16 bits:
# tests/avr/sizes_avr_test.c built for an ATmega2560 (avr-gcc -Os, the full warning set) and run
# under simavr, where a size past 65535 is ACCEL_E_OVERFLOW (never a wrapped number), and the
# same file on the host (size_t 64 bits), where the same calls give the true size. A missing
# tool skips its part by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/sizes_avr
mkdir -p "$B"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
SRC=tests/avr/sizes_avr_test.c

# check_out NAME OUTPUT: the program's last result line must be "N passed, 0 failed" (N > 0)
check_out() {
    local name=$1 out=$2 last
    last=$(printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g; s/\.$//' | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if echo "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then ok "$name"; echo "ok   $name: $last"
    else bad "$name" "$(printf '%s\n' "$out" | tail -5)"; fi
}

if gcc $W -O1 -I. "$SRC" -o "$B/host" >"$B/host.log" 2>&1; then
    check_out "host (64-bit size_t)" "$("$B/host" 2>&1)"
else bad "host build" "$(head -10 "$B/host.log")"; fi

if ! have avr-gcc; then skip "ATmega2560 build" "avr-gcc missing (gcc-avr, avr-libc)"
elif ! avr-gcc $W -Os -mmcu=atmega2560 -ffunction-sections -fdata-sections -Wl,--gc-sections -I. \
        "$SRC" -o "$B/sizes_avr_test.elf" >"$B/avr.log" 2>&1; then
    bad "ATmega2560 build" "$(head -10 "$B/avr.log")"
else
    ok "ATmega2560 build"; echo "ok   ATmega2560 build (16-bit size_t)"
    if ! have simavr; then skip "ATmega2560 run" "simavr missing"
    else check_out "ATmega2560 under simavr (16-bit size_t)" \
        "$(timeout 60 simavr -m atmega2560 -f 16000000 "$B/sizes_avr_test.elf" 2>&1)"; fi
fi
lib_end
