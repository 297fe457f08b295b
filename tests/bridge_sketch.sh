#!/usr/bin/env bash
# bridge_sketch.sh - the Bridge sketch (examples/arduino/Bridge) on an emulated Uno, driven by
# the host tools over its serial line:
#   1. `make arduino`'s zip carries the bridge's device side and nanopb's runtime with its
#      licence (scripts/nanopb_runtime.sh; without it the zip says so and this test skips);
#      arduino-builder builds the sketch from the zip for arduino:avr:uno at 115200 baud (the
#      default) and at 1000000 baud (-DBRIDGE_BAUD=1000000), warning-free in our files.
#   2. tests/avr/tsp1_harness --pty runs the ELF on an ATmega328P at 16 MHz with accel's TSP1
#      device model on its SPI bus (chip select SS, INTB pin 2, WAKE pin 4) and UART0 on a pty;
#      build/accel-tsp1 --bridge PTY,BAUD runs echo, info, start/stop and an update (an image
#      that ends with its CRC-32, as the model checks at FINISH) through it with --capture.
#      The harness names the pty once the sketch's receiver is on (a tool started earlier had
#      its first hello dropped by the UART and resent it 200 ms later). No byte may be lost on
#      the line: every request answered, every byte the sketch sent passed on; resends that only
#      a slow emulator caused (the host's 200 ms wall-clock timeout) are counted apart. A run
#      with one host byte dropped (--drop-rx) must fail that check.
#   3. each capture replays through ports/bridge's replay model (accel-tsp1 --replay) and matches;
#      a capture with one request byte edited is reported at the exchange holding that byte
#      (the exchange accel-capture dump shows changed), a cut capture is refused.
#   4. measured in emulated time (cycles / 16 MHz, from the harness's frame log; the host's own
#      turnaround is not emulated and not counted): the round trip of each kind of request,
#      and a 4 KiB SPI transfer (accel-linux-probe --bridge ... spi) at 115200 and 1000000 baud
#      next to the time its bytes take on the wire at 10 bits per byte; flash and RAM.
# Budget: about a minute here. A missing tool skips its part by name.
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
B=build/bridge_sketch
HW=/usr/share/arduino/hardware
mkdir -p "$B"
H_PID=
cleanup() { [ -n "$H_PID" ] && kill "$H_PID" 2>/dev/null && wait "$H_PID" 2>/dev/null; }
trap cleanup EXIT

missing=""
for t in arduino-builder avr-gcc avr-size avr-nm zip unzip gcc; do have "$t" || missing="$missing $t"; done
[ -f /usr/include/simavr/sim_avr.h ] || missing="$missing libsimavr-dev"
[ -d "$HW/arduino/avr/cores/arduino" ] || missing="$missing arduino-core-avr"
[ -x /usr/bin/arduino-ctags ] || missing="$missing arduino-ctags"
if [ -n "$missing" ]; then
    skip "Bridge sketch on simavr" "missing:$missing (bash scripts/setup.sh as root)"
    lib_end; exit $?
fi
P=build/accel-tsp1
Q=build/accel-linux-probe
C=build/accel-capture
make -s $P $Q $C >"$B/make.log" 2>&1
if ! [ -x $P ] || $P --bridge /dev/null echo x 2>&1 | grep -q "built without nanopb"; then
    skip "Bridge sketch on simavr" "host tools built without nanopb (libnanopb-dev)"
    lib_end; exit $?
fi

# ---- 1. the zip and the builds
# without the runtime (apt-get fails: no network), the zip has no bridge and says so; in a copy
# of the tree, so that the runtime fetched for the real zip stays where it is
T=$(mktemp -d)
mkdir -p "$T/tree/scripts" "$T/bin"
cp -r accel.h LICENSE ports examples "$T/tree/"
cp scripts/arduino_lib.sh scripts/nanopb_runtime.sh "$T/tree/scripts/"
printf '#!/bin/sh\necho "apt-get: no network (test)" >&2\nexit 100\n' >"$T/bin/apt-get"
chmod +x "$T/bin/apt-get"
if nz=$(PATH="$T/bin:$PATH" bash "$T/tree/scripts/arduino_lib.sh" "$T/out" 2>"$T/err") &&
   nl=$(unzip -Z1 "$nz") && ! grep -q -e Bridge -e accel_bridge -e 'pb_' <<<"$nl" &&
   unzip -p "$nz" Accel/NO_BRIDGE.txt | grep -q "could not be fetched" && grep -q "no Bridge example" "$T/err"; then
    ok "without nanopb's runtime the zip has no bridge and says why (NO_BRIDGE.txt, stderr)"
else
    bad "zip without the runtime" "$(cat "$T/err")"
fi
rm -rf "$T"
if ! zip=$(bash scripts/arduino_lib.sh "$B/pkg" 2>"$B/pkg.log"); then
    bad "arduino_lib.sh" "$(cat "$B/pkg.log")"; lib_end; exit $?
fi
list=$(unzip -Z1 "$zip")
if ! grep -qx Accel/examples/Bridge/Bridge.ino <<<"$list"; then
    if grep -qx Accel/NO_BRIDGE.txt <<<"$list"; then
        skip "Bridge sketch on simavr" "the zip has no bridge: $(unzip -p "$zip" Accel/NO_BRIDGE.txt | tr '\n' ' ')"
    else
        bad "zip: no Bridge example and no NO_BRIDGE.txt saying why"
    fi
    lib_end; exit $?
fi
miss=""
for f in accel_bridge.h accel_bridge.c accel_bridge_device.h accel_bridge_device.c accel_bridge.pb.h \
         accel_bridge.pb.c pb.h nanopb/pb.h nanopb/LICENSE.txt pb_common.h pb_common.c pb_encode.h \
         pb_encode.c pb_decode.h pb_decode.c; do
    grep -qx "Accel/src/$f" <<<"$list" || miss="$miss $f"
done
[ -z "$miss" ] && ok "zip carries the device side, nanopb's runtime and its licence" || bad "zip lacks:$miss"
unzip -p "$zip" Accel/src/nanopb/LICENSE.txt | grep -qi "permission is granted" &&
    ok "nanopb's licence text travels in the zip" || bad "nanopb licence text"
for f in accel_bridge_device.c accel_bridge.pb.h; do
    unzip -p "$zip" "Accel/src/$f" | cmp -s - "ports/bridge/$f" || bad "zip's $f differs from ports/bridge/$f"
done
LIB=$B/lib
rm -rf "$LIB"
mkdir -p "$LIB"
unzip -q "$zip" -d "$LIB"
DD=-DDECIMAL_DIG=__DECIMAL_DIG__ # Debian's core 1.8.7 with avr-gcc 5.4 needs it in C++
build() { # NAME CXXFLAGS: one arduino-builder run into $B/NAME
    rm -rf "$B/$1"
    mkdir -p "$B/$1" "$B/cache"
    arduino-builder -compile -hardware "$HW" -hardware /usr/share/arduino-builder -tools /usr/bin \
        -libraries "$LIB" -fqbn arduino:avr:uno -build-path "$PWD/$B/$1" -build-cache "$PWD/$B/cache" \
        -warnings=all "-prefs=compiler.cpp.extra_flags=$2" "$LIB/Accel/examples/Bridge/Bridge.ino" >"$B/$1.log" 2>&1
}
build b115200 "$DD"
rc1=$?
build b1000000 "$DD -DBRIDGE_BAUD=1000000"
rc2=$?
for v in 115200:$rc1 1000000:$rc2; do
    baud=${v%:*}
    elf=$B/b$baud/Bridge.ino.elf
    if [ "${v#*:}" = 0 ] && [ -f "$elf" ]; then
        ok "Bridge builds for the Uno at $baud baud"
        ours=$(grep -E '(warning|error):' "$B/b$baud.log" | grep -v "^$HW/" || true)
        [ -z "$ours" ] && ok "Bridge at $baud: no warning in accel, the bridge, nanopb or the sketch" ||
            bad "Bridge at $baud: warnings" "$(echo "$ours" | head -10)"
    else
        bad "Bridge builds for the Uno at $baud baud" "$(grep -E 'error' "$B/b$baud.log" | head -10)"
    fi
done
if ! [ -f "$B/b115200/Bridge.ino.elf" ] || ! [ -f "$B/b1000000/Bridge.ino.elf" ]; then lib_end; exit $?; fi
# the strict warning set on the sketch, against the real core headers and the zip's sources
AVRC=$HW/arduino/avr
if avr-g++ -std=gnu++11 -fpermissive -Os -mmcu=atmega328p -DF_CPU=16000000L -DARDUINO=10607 -DARDUINO_AVR_UNO \
    -DARDUINO_ARCH_AVR $DD -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wundef -Wcast-align \
    -I"$AVRC/cores/arduino" -I"$AVRC/variants/standard" -I"$AVRC/libraries/SPI/src" -I"$LIB/Accel/src" \
    -x c++ -include Arduino.h -c examples/arduino/Bridge/Bridge.ino -o "$B/strict.o" >"$B/strict.log" 2>&1; then
    w=$(grep -E '(warning|error)' "$B/strict.log" | grep -v "^$HW/" | grep -v "^/usr/lib/avr/" || true)
    [ -z "$w" ] && ok "strict warning set on Bridge.ino" || bad "strict warnings on Bridge.ino" "$(echo "$w" | head -10)"
else
    bad "strict build of Bridge.ino" "$(head -10 "$B/strict.log")"
fi
read -r text data bss < <(avr-size "$B/b115200/Bridge.ino.elf" | awk 'NR == 2 { print $1, $2, $3 }')
FLASH=$((text + data))
RAM=$((data + bss))
DEVSZ=$(avr-nm -S "$B/b115200/Bridge.ino.elf" | awk '$4 == "dev" { print $2 }')
[ -n "$DEVSZ" ] && DEVSZ=$((16#$DEVSZ))

# ---- 2. the harness and a session through the sketch
if gcc -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror \
    -O2 -g -I. -isystem /usr/include/simavr tests/avr/tsp1_harness.c -o "$B/tsp1_harness" -lsimavr >"$B/harness.log" 2>&1; then
    ok "build tsp1_harness"
else
    bad "build tsp1_harness" "$(head -20 "$B/harness.log")"; lib_end; exit $?
fi
start_harness() { # BAUD [HARNESS OPTIONS]: the sketch built for it, on a fresh pty; sets PTY, H_PID,
    # FR; its files are named by $TAG (default BAUD). The harness names the pty once the
    # sketch's receiver is on, so that nothing a tool sends at once is dropped by the UART.
    local baud=$1 tag=${TAG:-$1}
    shift
    cleanup
    H_PID=
    FR=$B/frames.$tag
    "$B/tsp1_harness" --pty --frames "$FR" "$@" "$B/b$baud/Bridge.ino.elf" >"$B/harness.$tag.out" 2>"$B/harness.$tag.err" &
    H_PID=$!
    PTY=
    for _ in $(seq 1 100); do
        PTY=$(sed -n 's/^harness: pty //p' "$B/harness.$tag.err")
        [ -n "$PTY" ] && break
        sleep 0.05
    done
    [ -n "$PTY" ] || return 1
    # on this VM's devpts a new pty's node is at times missing for a few ms after the harness
    # has opened it (about 1 start in 30 under load; a tool then fails with ENOENT): wait for it
    for _ in $(seq 1 100); do
        [ -c "$PTY" ] && return 0
        sleep 0.02
    done
    return 1
}
stop_harness() { # stop it (its report stays in $B/harness.TAG.err); its pty node gone first
    kill "$H_PID" 2>/dev/null
    wait "$H_PID" 2>/dev/null
    H_PID=
    for _ in $(seq 1 50); do
        [ -e "$PTY" ] || break
        sleep 0.02
    done
}
line_lost() { # HARNESS.ERR: why the harness's report shows a byte lost on the line, or nothing
    # every request reached the sketch intact (it answers each one that does), no host byte came
    # before its receiver was on, every byte it sent reached the host; resends while an answer
    # was still due (the host's wall-clock timeout against a slow emulator) lose nothing
    local l
    l=$(grep 'serial line' "$1") || { echo "no serial line report"; return; }
    grep -q "(0 requests never answered" <<<"$l" || echo "a request the sketch never answered:"
    grep -q ", 0 of them before the receiver was on" <<<"$l" || echo "host bytes before the receiver was on:"
    grep -qE "sketch bytes ([0-9]+), \1 passed on" <<<"$l" || echo "sketch bytes not passed on:"
}
resent_slow() { sed -n 's/.* \([0-9]*\) resent while the answer was due.*/\1/p' "$1"; }
frames_since() { # N: frame lines after the first N
    tail -n +$(($1 + 1)) "$FR"
}
nframes() { wc -l <"$FR"; }

if ! start_harness 115200; then
    bad "harness serves the sketch on a pty" "$(cat "$B/harness.115200.err")"; lib_end; exit $?
fi
ok "harness serves the sketch on a pty"
# an image the model accepts at FINISH: 428 random bytes, then their CRC-32 little-endian (gzip's
# trailer holds exactly that)
head -c $((144 * 3 - 4)) /dev/urandom >"$B/img.bin"
gzip -c "$B/img.bin" | tail -c 8 | head -c 4 >>"$B/img.bin"
declare -A SESSION_AT # session name -> first frame line of its exchanges
session() { # NAME WANT_RC WANT_TEXT args...: one captured accel-tsp1 run through the sketch
    local name=$1 rc=$2 want=$3 n0
    shift 3
    n0=$(nframes)
    SESSION_AT[$name]=$n0
    check "accel-tsp1 --bridge $name" "$rc" "$want" $P --bridge "$PTY,115200" --capture "$B/$name.cap" "$@"
    # every exchange of the capture is one request frame and one response frame on the line
    local nc nf
    nc=$($C dump "$B/$name.cap" | sed -n 's/^\([0-9]*\) exchanges.*/\1/p')
    nf=$(($(nframes) - n0))
    same "$name: one request and one response frame per captured exchange ($nc)" "$nf" "$nc"
}
session echo 0 "echo: hello bridge" echo "hello bridge"
session info 0 "net 1: 2 total" info
session start 0 "start 0x3: ok" start 0x3
session stop 0 "stop 0x3: ok" stop 0x3
session update 0 "update done" update "$B/img.bin"
session echo2 0 "echo: again" echo again
# the 4 KiB transfer: a TSP1 register read of the IRQ mask (0x1F: 2 after boot) clocked on for
# 4094 more bytes; its answer crosses the bridge in 32 pieces of 128 bytes
spi_hex="011f$(head -c 4094 /dev/zero | od -An -v -tx1 | tr -d ' \n')"
spi4k() { # BAUD
    local n0
    n0=$(nframes)
    check "4 KiB SPI transfer through the bridge at $1 baud" 0 "rx (4096): 00 00 00 02 00 00 00 00" \
        $Q --bridge "$PTY,$1" spi 0.0 "$spi_hex"
    frames_since "$n0" >"$B/spi4k.$1"
    same "4 KiB at $1: hello and 32 exchanges of 128 bytes" "$(wc -l <"$B/spi4k.$1")" 33
}
spi4k 115200
stop_harness
why=$(line_lost "$B/harness.115200.err")
[ -z "$why" ] && ok "115200: no byte lost on the line ($(resent_slow "$B/harness.115200.err") resends for the host's timeout)" ||
    bad "lost bytes at 115200" "$why $(grep 'serial line' "$B/harness.115200.err")"
grep -q "UBRR0 16 U2X0 1" "$B/harness.115200.err" && ok "115200: the core set UBRR0 16 with U2X0 (117647 baud, +2.1 %)" ||
    bad "115200 divider" "$(grep 'serial line' "$B/harness.115200.err")"
SP=$(sed -n 's/.*lowest SP 0x\([0-9A-F]*\).*/\1/p' "$B/harness.115200.err")
BSS_END=$(avr-nm "$B/b115200/Bridge.ino.elf" | awk '$3 == "__bss_end" { print substr($1, length($1) - 3) }')

# ---- 3. replays
for s in echo update; do
    n=$($C dump "$B/$s.cap" | sed -n 's/^\([0-9]*\) exchanges.*/\1/p')
    case $s in echo) args=(echo "hello bridge") ;; update) args=(update "$B/img.bin") ;; esac
    check "replay of the $s session matches" 0 "replay: all $n exchanges matched" $P --replay "$B/$s.cap" "${args[@]}"
done
check "replay of the info session matches" 0 "replay: all" $P --replay "$B/info.cap" info
# edit one byte of the capture: the "b" of "hello bridge" in the request that writes the ECHO
# command; the replay must name the exchange accel-capture dump shows changed
off=$(grep -abo "hello bridge" "$B/echo.cap" | head -1 | cut -d: -f1)
if [ -n "$off" ]; then
    cp "$B/echo.cap" "$B/edited.cap"
    printf 'c' | dd of="$B/edited.cap" bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null
    $C dump "$B/echo.cap" >"$B/echo.dump"
    $C dump "$B/edited.cap" >"$B/edited.dump"
    changed=$(diff "$B/echo.dump" "$B/edited.dump" | sed -n 's/^> #\([0-9]*\) .*/\1/p' | tr '\n' ' ')
    if [ "$(wc -w <<<"$changed")" = 1 ]; then
        ok "the edit changes one exchange (#${changed% })"
        check "an edited capture is reported at its exchange (#${changed% })" 1 \
            "ACCEL_BRIDGE_E_DIVERGED: request differs from the capture at exchange ${changed% }" \
            $P --replay "$B/edited.cap" echo "hello bridge"
    else
        bad "the edit changes one exchange" "changed: '$changed'"
    fi
else
    bad "the ECHO text is in the capture"
fi
head -c $(($(stat -c %s "$B/update.cap") / 2)) "$B/update.cap" >"$B/cut.cap"
check "a cut capture is refused" 1 "replay:" $P --replay "$B/cut.cap" update "$B/img.bin"

# ---- the same at 1000000 baud
if start_harness 1000000; then
    ok "harness serves the 1000000-baud sketch"
    n0=$(nframes)
    check "accel-tsp1 --bridge PTY,1000000 echo" 0 "echo: fast" $P --bridge "$PTY,1000000" --capture "$B/echo1m.cap" echo fast
    SESSION_AT[echo1m]=$n0
    spi4k 1000000
    stop_harness
    grep -q "UBRR0 1 U2X0 1: 1000000 baud" "$B/harness.1000000.err" &&
        ok "1000000: the core set U2X0 with UBRR0 1 (exact)" ||
        bad "1000000 divider" "$(grep 'serial line' "$B/harness.1000000.err")"
    why=$(line_lost "$B/harness.1000000.err")
    [ -z "$why" ] && ok "1000000: no byte lost on the line ($(resent_slow "$B/harness.1000000.err") resends for the host's timeout)" ||
        bad "lost bytes at 1000000" "$why $(grep 'serial line' "$B/harness.1000000.err")"
else
    bad "harness serves the 1000000-baud sketch" "$(cat "$B/harness.1000000.err")"
fi
# the check sees a lost byte: the harness drops the 40th byte from the host (in the echo
# request after hello) before the UART; the host's resend gets the answer, the report does not pass
if TAG=drop start_harness 1000000 --drop-rx 40; then
    check "with a byte dropped the host's resend still gets the echo" 0 "echo: lossy" $P --bridge "$PTY,1000000" echo lossy
    stop_harness
    why=$(line_lost "$B/harness.drop.err")
    [ "$why" = "a request the sketch never answered:" ] && ok "a byte dropped on the line fails the check ($why)" ||
        bad "a dropped byte is seen" "'$why' $(grep 'serial line' "$B/harness.drop.err")"
else
    bad "harness serves the sketch with --drop-rx" "$(cat "$B/harness.drop.err")"
fi

# ---- 4. the numbers (emulated time: cycles / 16 MHz)
echo "Bridge sketch on an emulated Uno (ATmega328P, 16 MHz, simavr with the harness's UART and SPI"
echo "timing; times are emulated cycles / 16 MHz, not host time; the host's turnaround is not counted):"
# round trip per kind of request at 115200, from every captured session
for s in echo info start stop update echo2; do
    $C dump "$B/$s.cap" | grep '^#' | awk '{print $4}' >"$B/ops.$s" # op names, one per exchange
    FR=$B/frames.115200
    frames_since "${SESSION_AT[$s]}" | head -n "$(wc -l <"$B/ops.$s")" | paste -d' ' "$B/ops.$s" -
done >"$B/rt.115200"
if [ -f "$B/echo1m.cap" ]; then
    $C dump "$B/echo1m.cap" | grep '^#' | awk '{print $4}' >"$B/ops.echo1m"
    FR=$B/frames.1000000
    frames_since "${SESSION_AT[echo1m]}" | head -n "$(wc -l <"$B/ops.echo1m")" | paste -d' ' "$B/ops.echo1m" - >"$B/rt.1000000"
fi
for baud in 115200 1000000; do
    [ -f "$B/rt.$baud" ] || continue
    awk -v baud=$baud '{ us = ($5 - $3) / 16; n[$1]++; t[$1] += us; if (us > m[$1]) m[$1] = us; w[$1] += $6 + $7 }
         END { for (k in n) printf "  %7d baud %-6s %4d requests: round trip mean %6.0f us, max %6.0f us, %5.1f bytes on the wire (raw %5.0f us)\n",
               baud, k, n[k], t[k] / n[k], m[k], w[k] / n[k], w[k] / n[k] * 10e6 / baud }' "$B/rt.$baud" | sort -k3
done
# a whole TSP1 ECHO command (every exchange after hello) at each baud
FR=$B/frames.115200
e115=$(frames_since "${SESSION_AT[echo]}" | head -n "$(wc -l <"$B/ops.echo")" | tail -n +2 | awk '{ t += $4 - $2 } END { printf "%.1f", t / 16000 }')
FR=$B/frames.1000000
ne=$($C dump "$B/echo1m.cap" 2>/dev/null | grep -c '^#')
e1m=$(frames_since "${SESSION_AT[echo1m]:-0}" | head -n "$ne" | tail -n +2 | awk '{ t += $4 - $2 } END { printf "%.1f", t / 16000 }')
echo "  accel-tsp1 echo (TSP1 ECHO, $(($(wc -l <"$B/ops.echo") - 1)) bridge requests after hello): $e115 ms at 115200, $e1m ms at 1000000"
for baud in 115200 1000000; do
    [ -f "$B/spi4k.$baud" ] || continue
    tail -n +2 "$B/spi4k.$baud" | awk -v baud=$baud '
        { t += $4 - $2; w += $5 + $6 }
        END { s = t / 16e6; raw = w * 10 / baud
              printf "  4 KiB SPI transfer at %7d baud: %6.1f ms (%5.1f KiB/s), %d bytes on the wire, whose raw UART time is %6.1f ms: %.2f x the raw limit\n",
                     baud, s * 1000, 4 / s, w, raw * 1000, s / raw }'
done
echo "  flash $FLASH of 32256 B, RAM $RAM of 2048 B static (struct accel_bridge_device ${DEVSZ:-?} B); stack peak $((0x8FF - 0x${SP:-8FF})) B, never touched $((0x${SP:-0} - 0x${BSS_END:-0})) B"
[ "$FLASH" -le 24576 ] && ok "Bridge flash $FLASH <= 24576" || bad "Bridge flash" "$FLASH > 24576"
[ "$RAM" -le 1152 ] && ok "Bridge static RAM $RAM <= 1152" || bad "Bridge static RAM" "$RAM > 1152"
[ -n "$SP" ] && [ $((0x$SP - 0x$BSS_END)) -ge 256 ] && ok "at least 256 B of RAM never touched" ||
    bad "RAM headroom" "lowest SP ${SP:-?}, bss end ${BSS_END:-?}"
echo "wall time: $(( $(date +%s) - start )) s"
lib_end
