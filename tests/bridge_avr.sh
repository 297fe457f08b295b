#!/usr/bin/env bash
# bridge_avr.sh - the bridge's device side on an ATmega328P (avr-gcc -Os -mmcu=atmega328p) with
# nanopb's runtime from Debian's source package (scripts/nanopb_runtime.sh; never committed):
#   1. the device side, the generated descriptors and the runtime build warning-free and use no
#      heap, no stdio, no .data/.bss of their own;
#   2. a minimal bridge firmware (tests/avr/bridge_fw.c: UART, hardware SPI, GPIO, Timer0) links
#      and fits: flash and RAM per part are reported, with limits;
#   3. tests/avr/bridge_avr_test.c runs under simavr and on the host with the same frames: the
#      digests (every response byte, statistics, what the port saw) must be equal, and the
#      deepest stack a frame takes is measured on the AVR.
# nanopb options on the AVR: PB_NO_ERRMSG and PB_BUFFER_ONLY (the device decodes from and
# encodes to memory); 64-bit fields stay (the protocol has 64-bit registers).
# A missing tool or the runtime (no network for apt-get source) skips the part by name.
. "$(dirname "$0")/lib.sh"
B=build/bridge_avr
mkdir -p "$B"
FLASH_LIMIT=${BRIDGE_AVR_FLASH_LIMIT:-16384}  # device side + nanopb + accel common, bytes
RAM_LIMIT=${BRIDGE_AVR_RAM_LIMIT:-1280}        # device struct + descriptors + deepest frame's stack
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
PBOPT="-DPB_NO_ERRMSG -DPB_BUFFER_ONLY"
ACCEL_COMMON="-DACCEL_NO_TSP1 -DACCEL_NO_EDGETPU -DACCEL_NO_REFSI -DACCEL_NO_ANE -DACCEL_NO_MAC -DACCEL_NO_STATUS_STRINGS"

if ! have avr-gcc; then
    skip "bridge on AVR" "avr-gcc missing (gcc-avr, avr-libc)"
    lib_end; exit $?
fi
if ! R=$(bash scripts/nanopb_runtime.sh 2>"$B/runtime.err"); then
    skip "bridge on AVR" "nanopb runtime sources unavailable: $(head -1 "$B/runtime.err")"
    lib_end; exit $?
fi
# the runtime is a system header here as in /usr/include (its C11 static asserts are not ours)
AF="-Os -mmcu=atmega328p -ffunction-sections -fdata-sections $PBOPT -I. -Iports/bridge -isystem $R"
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$B/accel_impl.c"

# ---- 1. objects: ours with the full warning set, nanopb's as shipped
objs=""
built=1
for f in ports/bridge/accel_bridge.c ports/bridge/accel_bridge_device.c ports/bridge/accel_bridge.pb.c; do
    o="$B/$(basename "$f" .c).o"
    if avr-gcc $W $AF $ACCEL_COMMON -fstack-usage -c "$f" -o "$o" 2>"$B/build.log"; then objs="$objs $o"
    else built=0; bad "avr build $f" "$(head -5 "$B/build.log")"; fi
done
avr-gcc $AF $ACCEL_COMMON -DACCEL_CRC32_IMPL=ACCEL_CRC32_BITWISE -c "$B/accel_impl.c" -o "$B/accel_impl.o" || built=0
for f in pb_common pb_decode pb_encode; do
    avr-gcc -std=c99 $AF -fstack-usage -c "$R/$f.c" -o "$B/$f.o" || built=0
    objs="$objs $B/$f.o"
done
if [ "$built" = 1 ]; then ok "device side, descriptors and nanopb runtime build for atmega328p (-Werror on ours)"
else bad "avr builds"; lib_end; exit $?; fi
forbidden=$(avr-nm -u $objs "$B/accel_impl.o" | awk '{print $NF}' | grep -E '^(malloc|calloc|realloc|free|printf|fprintf|sprintf|snprintf|puts|putchar|fopen|fwrite|abort|exit)$' | sort -u | tr '\n' ' ')
[ -z "$forbidden" ] && ok "no heap or stdio symbols" || bad "no heap or stdio symbols" "$forbidden"
own=$(avr-size $objs | awk 'NR > 1 && ($2 + $3) > 0 {print $6}' | tr '\n' ' ')
[ -z "$own" ] && ok "no .data or .bss in the device side or the runtime" || bad "no .data/.bss" "$own"

# ---- 2. the firmware: flash and RAM by part
fw_ok=1
avr-gcc $W $AF $ACCEL_COMMON -c tests/avr/bridge_fw.c -o "$B/bridge_fw.o" 2>"$B/fw.log" &&
avr-gcc -mmcu=atmega328p -Wl,--gc-sections -o "$B/bridge_fw.elf" "$B/bridge_fw.o" $objs "$B/accel_impl.o" 2>>"$B/fw.log" || fw_ok=0
if [ "$fw_ok" = 1 ]; then
    ok "bridge firmware links"
    read -r text data bss _ < <(avr-size "$B/bridge_fw.elf" | awk 'NR == 2')
    # each symbol of the image, charged to the object that defines it
    # (name, address, size, type); RAM lives at 0x800000 and up, initialised data also in flash
    avr-nm -S --defined-only "$B/bridge_fw.elf" | awk 'NF == 4 {print $4, $1, $2, $3}' | sort >"$B/elf.syms"
    part() { # objects... -> "flash ram" of their symbols in the image
        for o in "$@"; do avr-nm --defined-only "$o" | awk '{print $NF}'; done | sort -u >"$B/part.names"
        join "$B/elf.syms" "$B/part.names" | awk '
            function hex(s,  i, n) { n = 0; s = tolower(s)
                for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
                return n }
            { a = hex($2); n = hex($3)
              if (a >= 8388608) { r += n; if ($4 ~ /[dD]/) f += n } else f += n }
            END { print f + 0, r + 0 }'
    }
    read -r f_dev r_dev < <(part "$B/accel_bridge_device.o")
    read -r f_frm r_frm < <(part "$B/accel_bridge.o")
    read -r f_pbd r_pbd < <(part "$B/accel_bridge.pb.o")
    read -r f_rt r_rt < <(part "$B/pb_common.o" "$B/pb_decode.o" "$B/pb_encode.o")
    read -r f_acc r_acc < <(part "$B/accel_impl.o")
    read -r f_app r_app < <(part "$B/bridge_fw.o")
    bridge_flash=$((f_dev + f_frm + f_pbd + f_rt + f_acc))
    echo "atmega328p -Os (avr-gcc $(avr-gcc -dumpversion)), bridge firmware: flash $((text + data)) of 32768, RAM $((data + bss)) of 2048 (static)"
    printf '  device side (accel_bridge_device.c)     %5d B flash\n' "$f_dev"
    printf '  frames (accel_bridge.c)                 %5d B flash\n' "$f_frm"
    printf '  message descriptors (accel_bridge.pb.c) %5d B flash, %d B of them RAM (nanopb keeps pb_msgdesc_t in RAM)\n' "$f_pbd" "$r_pbd"
    printf '  nanopb runtime (decode, encode, common) %5d B flash\n' "$f_rt"
    printf '  accel.h common (CRC-32 bitwise, port)   %5d B flash\n' "$f_acc"
    printf '  firmware main, port, UART, timer        %5d B flash, %d B RAM (the device struct is here)\n' "$f_app" "$r_app"
    [ $((r_dev + r_frm + r_acc)) = 0 ] && ok "no RAM of its own in the device side or accel.h" ||
        bad "no RAM of its own" "device $r_dev, frames $r_frm, accel $r_acc"
    echo "  (the nanopb runtime's constants take $r_rt B of RAM: read-only data is copied to RAM on an AVR)"
    desc_ram=$((r_pbd + r_rt))
    [ "$bridge_flash" -le "$FLASH_LIMIT" ] && ok "device side with nanopb: $bridge_flash B flash <= $FLASH_LIMIT" ||
        bad "device side flash" "$bridge_flash > $FLASH_LIMIT"
    # the deepest call chain's frames, from -fstack-usage (static, per function; the run below measures)
    su=$(cat "$B"/*.su 2>/dev/null | sort -t$'\t' -k2 -n -r | head -4 | awk -F'\t' '{printf "%s %s; ", $1, $2}')
    echo "  largest stack frames: $su"
else
    bad "bridge firmware links" "$(head -10 "$B/fw.log")"
fi

# ---- 3. the same frames on the AVR (simavr) and the host
if ! have simavr; then
    skip "bridge under simavr" "simavr missing"
    lib_end; exit $?
fi
if avr-gcc $W $AF $ACCEL_COMMON -c tests/avr/bridge_avr_test.c -o "$B/t.o" 2>"$B/t.log" &&
   avr-gcc -mmcu=atmega328p -Wl,--gc-sections -o "$B/bridge_avr_test.elf" "$B/t.o" $objs "$B/accel_impl.o" 2>>"$B/t.log" &&
   gcc $W -O1 $PBOPT $ACCEL_COMMON -DACCEL_CRC32_IMPL=ACCEL_CRC32_BITWISE -I. -Iports/bridge -isystem $R -o "$B/bridge_host_test" \
       tests/avr/bridge_avr_test.c ports/bridge/accel_bridge.c ports/bridge/accel_bridge_device.c \
       ports/bridge/accel_bridge.pb.c "$R/pb_common.c" "$R/pb_decode.c" "$R/pb_encode.c" "$B/accel_impl.c" 2>>"$B/t.log"; then
    ok "test harness builds for atmega328p and the host"
else
    bad "test harness builds" "$(head -10 "$B/t.log")"; lib_end; exit $?
fi
timeout 60 simavr -m atmega328p -f 16000000 "$B/bridge_avr_test.elf" >"$B/simavr.out" 2>&1
avr_digest=$(sed 's/\x1b\[[0-9;]*m//g' "$B/simavr.out" | grep -o 'digest [^.]* end' | head -1)
host_digest=$("$B/bridge_host_test" | grep -o 'digest .* end')
stack=$(sed 's/\x1b\[[0-9;]*m//g' "$B/simavr.out" | sed -n 's/.*stack \([0-9]*\) device \([0-9]*\) end.*/\1 \2/p' | head -1)
if [ -n "$avr_digest" ] && [ "$avr_digest" = "$host_digest" ]; then ok "same responses on the AVR and the host: $host_digest"
else bad "same responses on the AVR and the host" "avr: '${avr_digest:-none}' host: '$host_digest' ($(tail -3 "$B/simavr.out"))"; fi
case "$host_digest" in
    *" executed 19 repeats 1 stale 1 nosession 1 crc 1 frame 2 decode 1 end") ok "the frames did what they should (counts)" ;;
    *) bad "the frames did what they should (counts)" "$host_digest" ;;
esac
if [ -n "$stack" ]; then
    read -r st_used dev_size <<<"$stack"
    ram=$((dev_size + st_used + ${desc_ram:-0}))
    echo "  RAM of the device side: struct accel_bridge_device $dev_size B + descriptors and nanopb constants ${desc_ram:-?} B + deepest frame $st_used B of stack = $ram B"
    [ "$ram" -le "$RAM_LIMIT" ] && ok "device RAM $ram B <= $RAM_LIMIT" || bad "device RAM" "$ram > $RAM_LIMIT"
else
    bad "stack measured under simavr" "$(tail -3 "$B/simavr.out")"
fi
lib_end
