#!/usr/bin/env bash
# bridge_tools.sh - the nanopb bridge from the outside:
#   1. the committed accel_bridge.pb.c/.pb.h are what Debian's nanopb generator makes of
#      accel_bridge.proto + .options (regenerated into a scratch directory and compared);
#   2. the host tools over a serial line: accel-bridge-sim serves the device side (the TSP1
#      model behind it) on a pty, accel-tsp1 --bridge runs echo, info, start/stop and an update
#      through it with --capture, accel-linux-probe --bridge runs its probes;
#   3. the capture: accel-capture dump prints it, `protoc --decode` reads it with the shipped
#      .proto, accel-tsp1 --replay runs the session again without a device (and names the
#      exchange where a different session departs from it);
#   4. failures: a device that never answers, a missing device, a bad spec, a cut capture.
# Parts whose tool is missing are skipped by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
SIM_PID=
cleanup() { [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

# ---- 1. generated code is current
if have protoc && [ -x /usr/bin/protoc-gen-nanopb ]; then
    mkdir -p "$T/gen"
    cp ports/bridge/accel_bridge.proto ports/bridge/accel_bridge.options "$T/gen/"
    # Debian's plugin runs under /usr/bin/python3 (its shebang), whatever python3 is on PATH
    if (cd "$T/gen" && protoc --plugin=protoc-gen-nanopb=/usr/bin/protoc-gen-nanopb \
            --nanopb_out=. accel_bridge.proto) >"$T/gen.log" 2>&1; then
        for f in accel_bridge.pb.c accel_bridge.pb.h; do
            if cmp -s "$T/gen/$f" "ports/bridge/$f"; then ok "generated $f is current"
            else bad "generated $f is current" "regenerate: cd ports/bridge && protoc --nanopb_out=. accel_bridge.proto"; fi
        done
    else
        bad "nanopb generator runs" "$(head -5 "$T/gen.log")"
    fi
else
    skip "generated code is current" "protoc or /usr/bin/protoc-gen-nanopb missing (protobuf-compiler, nanopb)"
fi

# ---- 1b. the bridge's C files: clang too, and as C++ (both with the full warning set)
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
if [ -f /usr/include/pb_decode.h ]; then
    for f in ports/bridge/accel_bridge.c ports/bridge/accel_bridge_device.c ports/bridge/accel_bridge_host.c \
             ports/bridge/accel_bridge.pb.c ports/bridge/accel_replay.c ports/linux/accel_linux_serial.c; do
        if have clang; then
            if clang $W -O2 -I. -Iports/bridge -Iports/sim -Iports/linux -c "$f" -o "$T/c.o" 2>"$T/cc.log"; then ok "clang $f"
            else bad "clang $f" "$(head -5 "$T/cc.log")"; fi
        fi
        if g++ -x c++ -std=c++11 $WXX -O2 -I. -Iports/bridge -Iports/sim -Iports/linux -c "$f" -o "$T/c.o" 2>"$T/cc.log"; then ok "g++ $f"
        else bad "g++ $f" "$(head -5 "$T/cc.log")"; fi
    done
else
    skip "bridge C/C++ builds" "nanopb headers missing (libnanopb-dev)"
fi

# ---- 2. tools over a pty
P=build/accel-tsp1
Q=build/accel-linux-probe
C=build/accel-capture
S=build/accel-bridge-sim
[ -x $P ] && [ -x $Q ] && [ -x $C ] && [ -x $S ] || make -s $P $Q $C $S >/dev/null 2>&1
if ! [ -x $S ] || $S --help 2>&1 | grep -q "needs Linux and nanopb"; then
    skip "bridge tools" "built without nanopb (libnanopb-dev)"
    lib_end
    exit $?
fi
start_sim() { # args for accel-bridge-sim; sets PTY and SIM_PID
    [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
    # a new file each time: the background shell truncates it only when it gets to run, so the
    # loop below could otherwise read the killed simulator's pty from the old one
    rm -f "$T/sim.out"
    $S "$@" >"$T/sim.out" 2>&1 &
    SIM_PID=$!
    PTY=
    for _ in $(seq 1 50); do
        PTY=$(awk '/^pty /{print $2}' "$T/sim.out" 2>/dev/null)
        [ -n "$PTY" ] && return 0
        sleep 0.05
    done
    return 1
}
if ! start_sim; then
    bad "accel-bridge-sim starts" "$(cat "$T/sim.out")"
    lib_end
    exit $?
fi
ok "accel-bridge-sim serves a pty"
# raw from the start (a cooked pty echoes the device's answers back to it and holds them from a
# client until a newline)
if have stty; then
    sty=$(stty -F "$PTY" -a 2>&1)
    for f in -icanon -echo -isig -icrnl -opost cs8; do
        grep -qw -- "$f" <<<"$sty" || { bad "accel-bridge-sim's pty is raw ($f)" "$sty"; continue; }
        ok "accel-bridge-sim's pty is raw ($f)"
    done
fi
# an image the model accepts at FINISH: 428 random bytes, then their CRC-32 little-endian (gzip's
# trailer holds exactly that)
head -c $((144 * 3 - 4)) /dev/urandom >"$T/img.bin"
gzip -c "$T/img.bin" | tail -c 8 | head -c 4 >>"$T/img.bin"
check "accel-tsp1 --bridge echo" 0 "echo: hello bridge" $P --bridge "$PTY,115200" --capture "$T/cap.bin" echo "hello bridge"
check "accel-tsp1 --bridge info" 0 "net 3: 4 total" $P --bridge "$PTY" info
check "accel-tsp1 --bridge start" 0 "start 0x3: ok" $P --bridge "$PTY,1000000" start 0x3
check "accel-tsp1 --bridge stop" 0 "stop 0x3: ok" $P --bridge "$PTY" stop 0x3
check "accel-tsp1 --bridge update (captured)" 0 "update done" $P --bridge "$PTY" --capture "$T/upd.bin" update "$T/img.bin"
check "accel-tsp1 --bridge echo after the update" 0 "echo: again" $P --bridge "$PTY" echo again
# hello announces what the model behind it runs, not every callback of the simulator's port
# (the model has no registers and, in this build, no I2C: those would answer UNSUPPORTED)
check "accel-linux-probe --bridge hello" 0 "bridge version 1, max_data 128, caps 0x03d: spi gpio_set wait_irq time delay" $Q --bridge "$PTY" hello
# the TSP1 model's IRQ mask register (0x1F) after a reboot: 2 (the response buffer)
check "accel-linux-probe --bridge spi" 0 "rx (9): 00 00 00 02 00 00 00 00 00" $Q --bridge "$PTY" spi 0.0 011f00000000000000
check "accel-linux-probe --bridge gpio-set" 0 "set: ACCEL_OK" $Q --bridge "$PTY" gpio-set - 1 0
check "accel-linux-probe --bridge usb" 2 "USB is not carried by the bridge" $Q --bridge "$PTY" usb 1:2

# ---- 3. captures
check "accel-capture dump" 0 "exchanges, protocol version 1" $C dump "$T/cap.bin"
$C dump "$T/upd.bin" >"$T/upd.txt" 2>&1
n_dump=$(sed -n 's/^\([0-9]*\) exchanges.*/\1/p' "$T/upd.txt")
if grep -q '^#0 +[0-9][0-9]* ms hello version 1 session' "$T/upd.txt" && grep -q 'spi cs 0 len 128 keep_cs tx cc 55 21 00' "$T/upd.txt" &&
   [ "$(grep -c '^#' "$T/upd.txt")" = "$n_dump" ]; then ok "dump: one line per exchange, the update's split SPI writes"
else bad "dump: one line per exchange" "$(head -5 "$T/upd.txt")"; fi
if have protoc; then
    if protoc --decode=accel.bridge.Capture -Iports/bridge ports/bridge/accel_bridge.proto <"$T/upd.bin" >"$T/upd.decoded" 2>"$T/decode.err"; then
        n_pb=$(grep -c '^exchange {' "$T/upd.decoded")
        if [ "$n_pb" = "$n_dump" ] && grep -q 'magic: 1279476545' "$T/upd.decoded" && grep -q 'keep_cs: true' "$T/upd.decoded"; then
            ok "protoc --decode reads the capture ($n_pb exchanges, as dump)"
        else bad "protoc --decode reads the capture" "protoc $n_pb exchanges, dump $n_dump"; fi
    else bad "protoc --decode reads the capture" "$(head -3 "$T/decode.err")"; fi
else
    skip "protoc --decode reads the capture" "protoc missing (protobuf-compiler)"
fi
check "replay: the echo session again" 0 "replay: all" $P --replay "$T/cap.bin" echo "hello bridge"
check "replay: the update session again" 0 "replay: all $n_dump exchanges matched" $P --replay "$T/upd.bin" update "$T/img.bin"
# another session departs from the recording at the frame with the different text: the 13th
# exchange (hello, the poll's reads, the command's own level check and header come first)
line=$($C dump "$T/cap.bin" | grep -n 'tx cc 55 10 00' | head -1 | cut -d: -f1)
want=$((line - 1))
check "replay: a different echo diverges at its frame (#$want)" 1 "ACCEL_BRIDGE_E_DIVERGED: request differs from the capture at exchange $want" $P --replay "$T/cap.bin" echo "hello bridgf"
head -c $(( $(stat -c %s "$T/upd.bin") / 2 )) "$T/upd.bin" >"$T/cut.bin"
check "replay: a cut capture" 1 "replay:" $P --replay "$T/cut.bin" update "$T/img.bin"
# dump: the capture one byte short. Protobuf has no end marker, so a cut that falls between two
# exchanges (the half cut above can, depending on the session's timing) is a shorter valid
# capture; the last byte is always inside the last exchange, whose length then runs past the end
head -c $(( $(stat -c %s "$T/upd.bin") - 1 )) "$T/upd.bin" >"$T/cut1.bin"
check "dump: a capture cut inside its last exchange" 1 "cut: the file ends at byte $(( $(stat -c %s "$T/upd.bin") - 1 )), inside a record" $C dump "$T/cut1.bin"
head -c 300 /dev/urandom >"$T/junk.bin"
check "dump: not a capture" 1 "" $C dump "$T/junk.bin"
check "replay: not a capture" 1 "ACCEL_E_MALFORMED" $P --replay "$T/junk.bin" echo x
check "dump usage" 2 "usage:" $C

# ---- 4. failures
check "bad --bridge spec" 2 "is not DEV[,BAUD]" $P --bridge "$PTY,fast" echo x
check "unsupported baud" 1 "ACCEL_E_ARG" $P --bridge "$PTY,12345" echo x
check "missing device" 1 "ACCEL_E_NO_DEVICE" $Q --bridge /dev/accel-no-such-tty hello
check "not a tty" 1 "(errno 25" $Q --bridge /dev/null hello
check "--capture without --bridge" 2 "usage:" $P --capture "$T/x.bin" echo x
start_sim --mute
check "a device that never answers" 1 "ACCEL_BRIDGE_E_LINK_TIMEOUT" $Q --bridge "$PTY" hello
start_sim --max-data 16
check "a device with a smaller data limit" 0 "echo: sixteen bytes and more" $P --bridge "$PTY" echo "sixteen bytes and more"
lib_end
