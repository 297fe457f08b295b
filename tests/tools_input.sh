#!/usr/bin/env bash
# tools_input.sh - every host tool against bad input, one table: tool, arguments, the exit code
# and the message it must give. The conventions it keeps (examples/host/cli.h): --help on stdout,
# exit 0, starting with what the tool is for; --version names accel.h's version; a usage error
# exits 2 and prints nothing on stdout (so nothing ran: no device was opened or booted); a failed
# operation exits 1 with one line on stderr naming the file or device and the reason; numbers
# and hex are parsed strictly; a directory is refused as one; pipes are read by streaming.
# accel-check keeps diff's convention (1 a case failed, 2 a file it cannot use).
# ACCEL_TOOLS_DIR runs the table against other builds of the tools (default build/).
. "$(dirname "$0")/lib.sh"
B=${ACCEL_TOOLS_DIR:-build}
TOOLS="accel-check accel-edgetpu accel-refsi accel-tsp1 accel-linux-probe accel-capture accel-bridge-sim
       accel-run"
for t in $TOOLS; do
    [ -x "$B/$t" ] || make -s "$B/$t" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
VERSION=$(sed -n 's/^#define ACCEL_VERSION_STRING "\(.*\)"$/\1/p' accel.h)

# row TOOL WANT_RC STREAM WANT ARGS...
#   STREAM out: WANT on stdout; err: WANT on stderr; err0: WANT on stderr and stdout empty.
#   A row with WANT_RC 1 must also print exactly one line on stderr. Standard input is a pipe
#   that carries the file named by $IN (nothing without it): a pipe, not a redirected file, so
#   /dev/stdin cannot be sized by seeking. A tool that hangs (a server that took a bad number)
#   is stopped after 10 s.
row() {
    local tool=$1 want_rc=$2 stream=$3 want=$4 rc got why=""
    shift 4
    cat "${IN:-/dev/null}" | timeout 10 "$B/$tool" "$@" >"$W/out" 2>"$W/err"
    rc=${PIPESTATUS[1]}
    if [ "$stream" = out ]; then got=$(cat "$W/out"); else got=$(cat "$W/err"); fi
    [ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
    [[ "$got" == *"$want"* ]] || why="${why:+$why; }no '$want' on std${stream%0}"
    if [ "$stream" = err0 ] && [ -s "$W/out" ]; then why="${why:+$why; }stdout not empty"; fi
    if [ "$want_rc" = 1 ] && [ "$(wc -l <"$W/err")" != 1 ]; then
        why="${why:+$why; }$(wc -l <"$W/err") lines on stderr, want 1"
    fi
    printf '%-17s %-44s %s  %s\n' "$tool" "$(printf '%s ' "$@" | sed "s|$W/||g" | cut -c1-44)" \
        "$rc" "$(head -1 <<<"$got" | sed "s|$W/||g" | cut -c1-90)"
    if [ -z "$why" ]; then ok "$tool $*"; else bad "$tool $*" "$why: $(head -c 300 "$W/err")"; fi
}

# cuts FILE POINTS: the first K bytes of FILE into $W/cuts/K for each K of POINTS, in one process
# (a head per point would double the sweep's processes)
cuts() {
    rm -rf "$W/cuts" && mkdir "$W/cuts"
    /usr/bin/python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
for k in sys.argv[3].split():
    open("%s/%s" % (sys.argv[2], k), "wb").write(d[:int(k)])' "$1" "$W/cuts" "$2"
}
sweep_report() { # NAME POINTS BAD_COUNT FIRST_BAD
    if [ "$3" = 0 ]; then ok "cut sweep $1 ($2 cut points)"
    else bad "cut sweep $1" "$3 of $2 cut points misread, first at $4"; fi
}
# a flatbuffer model: no cut point exits 0. sweep_never NAME FILE POINTS TOOL ARGS (@: the file)
sweep_never() {
    local name=$1 f=$2 points=$3 tool=$4 k nbad=0 first="" a args
    shift 4
    cuts "$f" "$points"
    for k in $points; do
        args=()
        for a in "$@"; do [ "$a" = @ ] && args+=("$W/cuts/$k") || args+=("$a"); done
        if "$B/$tool" "${args[@]}" >/dev/null 2>&1; then nbad=$((nbad + 1)); first=${first:-$k}; fi
    done
    sweep_report "$name" "$(wc -w <<<"$points")" "$nbad" "$first"
}

# inputs
mkdir "$W/dir"
printf '\x04' >"$W/in1.bin"
: >"$W/empty"
printf '# only a comment\n\n# and another\n' >"$W/comments.txt"
# the smallest TFLite flatbuffer: root table at 12, identifier TFL3, a vtable with no fields (a
# model with no operators: what a .tflite is before edgetpu_compiler made it an Edge TPU one)
printf '\x0c\x00\x00\x00TFL3\x04\x00\x04\x00\x04\x00\x00\x00' >"$W/plain.tflite"
# the same with the operator's name in it but no operator table (a cut or damaged model); 48
# bytes, whole 16-byte bundles, so it must not pass for a bitstream
{ cat "$W/plain.tflite"; printf 'edgetpu-custom-op\0'; head -c 14 /dev/zero; } >"$W/cut_edgetpu.tflite"
# a hand-made Edge TPU program, START .. END (as in edgetpu_tool.sh)
z='\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
nop="\x00\x08\x00\x00$z"
printf "\x80\x0f\x00\x14$z\x40\x08\x01\x00$z$nop$nop$nop$nop\xc0\x0f\x00\x04$z" >"$W/prog.coral"
# a RefSi command buffer (SYNC_CACHE flags=3, FINISH): binary, starts with 0x00
printf '\x00\x09\x00\xc0\x03\x00\x00\x00\x00\x01\x00\xc0\x00\x00\x00\x00' >"$W/cmds.bin"
printf 'FINISH\n\0NOP\n' >"$W/nul.txt"
printf '\x01\x08\x06\xc0\x04\x02\x00\x00' >"$W/reserved.bin"
# TSP1 update images: 10 chunks of 144 bytes whose last 4 bytes are the CRC-32 (LE) of the rest
# (gzip's trailer starts with it), one of 100 bytes, and one of 4 GiB + 144 (sparse)
head -c 1436 /dev/zero | tr '\0' 'A' >"$W/img.bin"
gzip -c "$W/img.bin" | tail -c 8 | head -c 4 >>"$W/img.bin"
head -c 100 /dev/zero >"$W/img100.bin"
truncate -s 4294967440 "$W/img4g.bin"
if [ "$(du -k "$W/img4g.bin" | cut -f1)" -gt 1024 ]; then rm -f "$W/img4g.bin"; fi

for t in $TOOLS; do
    row "$t" 0 out "$t - " --help
    row "$t" 0 out "$t (accel) $VERSION" --version
done
row accel-tsp1 0 out "accel-tsp1 - " -h

# accel-check
row accel-check 2 err "no cases" "$W/empty"
row accel-check 2 err "no cases" "$W/comments.txt"
row accel-check 2 err "dir: is a directory" "$W/dir"
row accel-check 2 err0 "unknown option -x" -x
row accel-check 2 err0 "usage:"                  # pinned: already so before these checks

# accel-refsi
row accel-refsi 2 err0 "usage:"
row accel-refsi 2 err0 "unknown command" frob x
row accel-refsi 1 err0 "cmds.bin: binary input (a NUL byte at offset 0x0)" asm "$W/cmds.bin"
row accel-refsi 1 err0 "nul.txt: binary input (a NUL byte at offset 0x7)" asm "$W/nul.txt"
row accel-refsi 1 err0 "dir: is a directory" disasm "$W/dir"
row accel-refsi 1 err0 "command 0 at byte offset 0x0: ACCEL_E_REFSI_RESERVED" disasm "$W/reserved.bin"
row accel-refsi 1 err0 "empty: empty" disasm "$W/empty"
row accel-refsi 1 err0 "empty: empty" asm "$W/empty"
row accel-refsi 1 err0 "comments.txt: no commands" asm "$W/comments.txt"
IN="$W/cmds.bin" row accel-refsi 0 out "SYNC_CACHE flags=0x3" disasm /dev/stdin  # pinned

# accel-edgetpu
row accel-edgetpu 1 err0 "plain.tflite: no edgetpu-custom-op: compile it with edgetpu_compiler" disasm "$W/plain.tflite"
row accel-edgetpu 1 err0 "plain.tflite: no edgetpu-custom-op: compile it with edgetpu_compiler" info --json "$W/plain.tflite"
row accel-edgetpu 1 err0 "plain.tflite: no edgetpu-custom-op: compile it with edgetpu_compiler" plan "$W/plain.tflite"
row accel-edgetpu 1 err0 "cut_edgetpu.tflite: not a usable Edge TPU model" disasm "$W/cut_edgetpu.tflite"
row accel-edgetpu 1 err0 "dir: is a directory" disasm "$W/dir"
row accel-edgetpu 1 err0 "dir: is a directory" info --json "$W/dir"
row accel-edgetpu 1 err0 "empty: empty" disasm "$W/empty"
IN="$W/prog.coral" row accel-edgetpu 0 out "0x0000 S         START len=640 bits" disasm /dev/stdin
IN="$W/plain.tflite" row accel-edgetpu 1 err0 "no edgetpu-custom-op" info --json /dev/stdin
row accel-edgetpu 2 err0 "unknown command frob" frob
if D=$(data_dir edgetpu ACCEL_EDGETPU_DATA); then
    head -c 4096 "$D/models/dense_256_edgetpu.tflite" >"$W/dense_cut_edgetpu.tflite"
    row accel-edgetpu 1 err0 "no edgetpu-custom-op: compile it with edgetpu_compiler" info --json "$D/models/dense_256.tflite"
    row accel-edgetpu 1 err0 "dense_cut_edgetpu.tflite: not a usable Edge TPU model" disasm "$W/dense_cut_edgetpu.tflite"
    # cut inside the TFLite tables after the package (a tensor's quantization): every command
    # refuses it, as accel-run does
    M="$D/models/bright_16x16_edgetpu.tflite"
    head -c 57721 "$M" >"$W/bright_cut_edgetpu.tflite"
    row accel-edgetpu 1 err0 "bright_cut_edgetpu.tflite: not a usable Edge TPU model: ACCEL_E_MALFORMED" info --json "$W/bright_cut_edgetpu.tflite"
    row accel-edgetpu 1 err0 "bright_cut_edgetpu.tflite: not a usable Edge TPU model: ACCEL_E_MALFORMED" plan "$W/bright_cut_edgetpu.tflite"
    row accel-edgetpu 1 err0 "bright_cut_edgetpu.tflite: not a usable Edge TPU model: ACCEL_E_MALFORMED" disasm "$W/bright_cut_edgetpu.tflite"
    # an index that names nothing (an operator's input, a graph output): refused as damaged
    /usr/bin/python3 - "$M" "$W" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
u32 = lambda p: struct.unpack_from("<I", d, p)[0]
def field(t, i):  # position of field i of the table at t, or None
    vt = t - struct.unpack_from("<i", d, t)[0]
    vl = struct.unpack_from("<H", d, vt)[0]
    if 4 + 2 * i >= vl: return None
    o = struct.unpack_from("<H", d, vt + 4 + 2 * i)[0]
    return t + o if o else None
def ref(t, i): p = field(t, i); return p + u32(p)
def elem(vec, k): p = vec + 4 + 4 * k; return p + u32(p)
root = u32(0)
sg = elem(ref(root, 2), 0)                          # Model.subgraphs[0]
op = elem(ref(sg, 3), 0)                            # SubGraph.operators[0]
e = bytearray(d); struct.pack_into("<i", e, ref(op, 1) + 4, 0x7fffffff)   # Operator.inputs[0]
open(sys.argv[2] + "/bad_input_edgetpu.tflite", "wb").write(e)
e = bytearray(d); struct.pack_into("<i", e, ref(sg, 2) + 4, 2)            # SubGraph.outputs[0]:
open(sys.argv[2] + "/bad_output_edgetpu.tflite", "wb").write(e)           # of its 2 tensors, a 3rd
PY
    row accel-edgetpu 1 err0 "bad_input_edgetpu.tflite: not a usable Edge TPU model: ACCEL_E_MALFORMED" info --json "$W/bad_input_edgetpu.tflite"
    row accel-edgetpu 1 err0 "bad_output_edgetpu.tflite: not a usable Edge TPU model: ACCEL_E_MALFORMED" plan "$W/bad_output_edgetpu.tflite"
    # a wrong-sized input is refused before any device is looked for, with the size it needs
    row accel-edgetpu 1 err0 "in1.bin: 1 byte, the model's input layers take 256" run "$M" "$W/in1.bin" "$W/out.bin"
    # the right size gets as far as the device, which is not here: one line naming it
    head -c 256 /dev/zero >"$W/in256.bin"
    if pkg-config --exists libusb-1.0 2>/dev/null; then
        row accel-edgetpu 1 err0 "accel-edgetpu: run: no Coral USB Accelerator (18d1:9302): ACCEL_E_NO_DEVICE" run "$M" "$W/in256.bin" "$W/out.bin"
    else
        row accel-edgetpu 1 err0 "accel-edgetpu: run: built without libusb-1.0" run "$M" "$W/in256.bin" "$W/out.bin"
    fi
    head -c 257 /dev/zero >"$W/in257.bin"
    row accel-edgetpu 1 err0 "in257.bin: 257 bytes, the model's input layers take 256" run "$M" "$W/in257.bin" "$W/out.bin"
else
    skip "accel-edgetpu on dense_256.tflite and a cut dense_256_edgetpu.tflite" "third-party data absent (no ../shared/data/edgetpu; ACCEL_EDGETPU_DATA overrides it)"
fi

# accel-tsp1: nothing reaches the (simulated) device before the command line is known good,
# so a refusal prints no async line on stdout
row accel-tsp1 2 err0 "MASK: 'banana' is not a number" start banana
row accel-tsp1 2 err0 "MASK: 0x100000000 is out of range" stop 0x100000000
# digits past 64 bits are a number too large, not a non-number
row accel-tsp1 2 err0 "MASK: 99999999999999999999 is out of range" start 99999999999999999999
row accel-tsp1 2 err0 "--hz: 0x1ffffffffffffffff is out of range" --spidev 99.0 --hz 0x1ffffffffffffffff echo x
# a text the session cannot carry is a usage error naming the limit, never a buffer status
row accel-tsp1 2 err0 "echo: TEXT is 4000 bytes, at most 1076" echo "$(head -c 4000 /dev/zero | tr '\0' a)"
row accel-tsp1 2 err0 "--bridge: '/dev/null,99999999999': BAUD 99999999999 is out of range (1 to 4294967295)" --bridge /dev/null,99999999999 echo x
row accel-tsp1 2 err0 "--bridge: '/dev/null,0': BAUD 0 is out of range (1 to 4294967295)" --bridge /dev/null,0 echo x
row accel-tsp1 2 err0 "--hz: 'abc' is not a number" --spidev 99.0 --hz abc echo x
row accel-tsp1 2 err0 "--hz: 0 is out of range" --spidev 99.0 --hz 0 echo x
row accel-tsp1 2 err0 "--intb: '7x' is not a number" --spidev 99.0 --intb 7x echo x
row accel-tsp1 2 err0 "--wake: '-1' is not a number" --spidev 99.0 --wake -1 echo x
row accel-tsp1 2 err0 "--gpiochip: 'abc' is not a number" --spidev 99.0 --gpiochip abc echo x
row accel-tsp1 2 err0 "--cs: 'abc' is not a number" --replay "$W/empty" --cs abc echo x
row accel-tsp1 2 err0 "--spidev: '0.x' is not B.C" --spidev 0.x echo x
row accel-tsp1 2 err0 "--hz need --spidev" --hz 1000 echo x
row accel-tsp1 2 err0 "--cs needs --bridge or --replay" --cs 1 echo x
row accel-tsp1 2 err0 "unknown command frobnicate" frobnicate
row accel-tsp1 2 err0 "echo takes one TEXT" echo
row accel-tsp1 2 err0 "info takes no arguments" info x
row accel-tsp1 2 err0 "--bridge: '/dev/null,fast' is not DEV[,BAUD]" --bridge /dev/null,fast echo x
row accel-tsp1 1 err0 "empty: empty" update "$W/empty"
row accel-tsp1 1 err0 "img100.bin: 100 bytes, not a whole number of 144-byte NVM chunks" update "$W/img100.bin"
if [ -f "$W/img4g.bin" ]; then
    row accel-tsp1 1 err0 "img4g.bin: too large: 4294967440 bytes" update "$W/img4g.bin"
else
    skip "accel-tsp1 update of a 4 GiB + 144 byte image" "the file system here makes no sparse files"
fi
row accel-tsp1 1 err0 "dir: is a directory" update "$W/dir"
row accel-tsp1 1 err0 "dir: is a directory" --replay "$W/dir" info
IN="$W/img.bin" row accel-tsp1 0 out "update 1440 / 1440 bytes" update /dev/stdin

# accel-linux-probe: a bad argument never reaches a bus
row accel-linux-probe 2 err0 "HEX: bad hex string: 'z' at position 0" spi 0.0 zz
row accel-linux-probe 2 err0 "HEX: bad hex string: an odd number of hex digits" spi 0.0 9f0
row accel-linux-probe 2 err0 "MODE: 4 is out of range" spi 99.0 9f00 1000000 4
row accel-linux-probe 2 err0 "SPEED_HZ: '1M' is not a number" spi 99.0 9f00 1M
row accel-linux-probe 2 err0 "ADDR: '-1' is not a number" i2c 99 -1 00 1
row accel-linux-probe 2 err0 "ADDR: 0x80 is out of range" i2c 99 0x80 00 1
row accel-linux-probe 2 err0 "i2c takes N ADDR HEX RLEN" i2c 99 0x50 00 1 extra
row accel-linux-probe 2 err0 "LEVEL: 2 is out of range" gpio-set 99 3 2
row accel-linux-probe 2 err0 "gpio-wait: 'high' is not \"low\"" gpio-wait 99 3 5 high
row accel-linux-probe 2 err0 "unknown command gpio-foo" gpio-foo 99 3 5
row accel-linux-probe 2 err0 "unknown command usbx" usbx 1:2
row accel-linux-probe 2 err0 "usb: '1:2:3' is not VID:PID in hex" usb 1:2:3
row accel-linux-probe 2 err0 "HEX: bad hex string" --bridge /dev/null spi 0 zz
row accel-linux-probe 2 err0 "write - for the bus" --bridge /dev/null i2c 0 0x50 00 1
row accel-linux-probe 2 err0 "--bridge: '/dev/null,' is not DEV[,BAUD]" --bridge /dev/null, hello
row accel-linux-probe 2 err0 "--bridge: '/dev/null,99999999999': BAUD 99999999999 is out of range" --bridge /dev/null,99999999999 hello
# a device that is not there: one line on stderr naming it, nothing on stdout
row accel-linux-probe 1 err0 "/dev/spidev99.0: open: ACCEL_E_NO_DEVICE: no such device (errno 2" spi 99.0 9f00
row accel-linux-probe 1 err0 "/dev/i2c-99: open: ACCEL_E_NO_DEVICE" i2c 99 0x50 00 1
row accel-linux-probe 1 err0 "/dev/gpiochip99: open: ACCEL_E_NO_DEVICE" gpio-set 99 3 1

# accel-run, on the hand-made models of scripts/gen/gen_tflite_models.py (fc: two int8 inputs,
# two outputs; no file identifier, as the schema allows) and the plain.tflite above
S=tests/fuzz/seeds/tflite
printf '\x04\x06' >"$W/in46.bin"
printf '\x04' >"$W/in1.bin"
printf '\x04\x06\x01' >"$W/in3.bin"
head -c 100 "$S/fc.tflite" >"$W/cut_fc.tflite"
head -c 14 "$W/plain.tflite" >"$W/cut_plain.tflite"
row accel-run 2 err0 "unknown option -x" "$S/fc.tflite" -x
row accel-run 2 err0 "--input needs a FILE" "$S/fc.tflite" --input
row accel-run 2 err0 "no MODEL given" --info
row accel-run 2 err0 "--info runs nothing" "$S/fc.tflite" --info --input "$W/in46.bin"
row accel-run 1 err0 "dir: is a directory" "$W/dir" --info
row accel-run 1 err0 "empty: empty" "$W/empty" --info
row accel-run 1 err0 "comments.txt: not a TFLite model, or a cut or damaged one: ACCEL_E_MALFORMED" "$W/comments.txt" --info
row accel-run 1 err0 "cut_fc.tflite: not a TFLite model, or a cut or damaged one: ACCEL_E_MALFORMED" "$W/cut_fc.tflite" --input "$W/in46.bin"
row accel-run 1 err0 "cut_plain.tflite: a cut or damaged TFLite model: ACCEL_E_MALFORMED" "$W/cut_plain.tflite" --info
row accel-run 1 err0 "plain.tflite: not a usable TFLite model: ACCEL_E_TFLITE_VERSION" "$W/plain.tflite" --info
row accel-run 1 err0 "accel-run: $W/nope.bin: No such file or directory" "$S/fc.tflite" --input "$W/nope.bin"
row accel-run 1 err0 "in1.bin: 1 byte, the model's inputs take 2" "$S/fc.tflite" --input "$W/in1.bin"
# a wrong second input is named (every input is checked before the first invocation)
row accel-run 1 err0 "in3.bin: 3 bytes, the model's inputs take 2" "$S/fc.tflite" --input "$W/in46.bin" --input "$W/in3.bin"
row accel-run 1 err0 "unsupported_elu.tflite: unsupported operator 0: ELU (builtin code 111)" "$S/unsupported_elu.tflite" --input "$W/in46.bin"
row accel-run 1 err "unsupported_second_op.tflite: unsupported operator 1: DIV (builtin code 42)" "$S/unsupported_second_op.tflite" --info --json
row accel-run 1 err0 "dir: is a directory" "$S/fc.tflite" --input "$W/in46.bin" --output "$W/dir"
IN="$S/fc.tflite" row accel-run 0 out "op   0 FULLY_CONNECTED" /dev/stdin --info
IN="$W/in46.bin" row accel-run 0 out "output (2 bytes): 03 fd" "$S/fc.tflite" --input /dev/stdin

# accel-capture and accel-bridge-sim need nanopb
if "$B/accel-capture" dump /dev/null 2>&1 | grep -q 'built without'; then
    skip "accel-capture and accel-bridge-sim rows" "built without nanopb (libnanopb-dev)"
else
    row accel-capture 1 err0 "dir: is a directory" dump "$W/dir"
    row accel-capture 1 err0 "empty: not a bridge capture" dump "$W/empty"  # pinned
    row accel-bridge-sim 2 err0 "--max-data: 0 is out of range (1 to 128)" --max-data 0
    row accel-tsp1 1 err0 "empty: empty: not a capture (record one with --bridge DEV --capture FILE)" --replay "$W/empty" echo x
    row accel-tsp1 1 err0 "comments.txt: not a bridge capture: ACCEL_E_MALFORMED" --replay "$W/comments.txt" echo x
    row accel-capture 2 err0 "unknown command frob" frob x
    row accel-bridge-sim 2 err0 "--nets: 'abc' is not a number" --nets abc
    row accel-bridge-sim 2 err0 "--nets: 33 is out of range" --nets 33
    row accel-bridge-sim 2 err0 "--max-data: '12x' is not a number" --max-data 12x
    row accel-bridge-sim 2 err0 "unknown argument x" x

    # a bridge capture recorded from accel-tsp1 --bridge on accel-bridge-sim (an echo session):
    # its top-level records (tag, length, bytes) parsed here; exit 0 only at a record boundary,
    # with that many exchanges and the whole file's first lines
    CAP=tests/vectors/bridge/tsp1_echo.capture
    "$B/accel-capture" dump "$CAP" >"$W/full.txt" || bad "accel-capture dump tsp1_echo.capture" "exit $?"
    bounds=$(/usr/bin/python3 -c '
import sys
d = open(sys.argv[1], "rb").read(); o = 0; out = []
def varint(o):
    v = s = 0
    while True:
        b = d[o]; o += 1; v |= (b & 0x7f) << s; s += 7
        if b < 0x80: return v, o
while o < len(d):
    tag, o = varint(o); ln, o = varint(o); o += ln; out.append("%d:%d" % (o, tag >> 3))
print(" ".join(out))' "$CAP")
    n=$(stat -c %s "$CAP"); nbad=0; first=""; declare -A exch=()
    i=0; for b in $bounds; do [ "${b#*:}" = 2 ] && i=$((i + 1)); exch[${b%:*}]=$i; done
    mapfile -t full <"$W/full.txt"
    cuts "$CAP" "$(seq 0 $((n - 1)))"
    for k in $(seq 0 $((n - 1))); do
        want=${exch[$k]:--1}
        if "$B/accel-capture" dump "$W/cuts/$k" >"$W/out" 2>"$W/err"; then
            mapfile -t got <"$W/out"
            # the whole file's first $want exchange lines, then the count line
            if [ "$want" = -1 ] || [ "${#got[@]}" != $((want + 1)) ] ||
                [[ "${got[$want]}" != "$want exchanges,"* ]] ||
                [ "${got[*]:0:$want}" != "${full[*]:0:$want}" ]; then
                nbad=$((nbad + 1)); first=${first:-$k}
            fi
        else
            mapfile -t got <"$W/err"
            if [ "$want" != -1 ] || [ "${#got[@]}" != 1 ]; then nbad=$((nbad + 1)); first=${first:-$k}; fi
        fi
    done
    sweep_report "accel-capture dump tsp1_echo.capture (exit 0 only at its ${#exch[@]} record boundaries)" "$n" "$nbad" "$first"
    # a cut inside a record says so, with the exchange it cut (not a decoder's "io error")
    head -c 853 "$CAP" >"$W/cap853"
    row accel-capture 1 err "cap853: cut: the file ends at byte 853, inside a record (after 25 whole exchanges)" dump "$W/cap853"
fi

# ---- the cut sweep: one real file per tool, cut at every length below its own (0 included).
# A format with a size or an end in it (a flatbuffer, whose offsets all point inside it) is
# never accepted cut. A stream of records with no end marker (a bridge capture, a RefSi command
# buffer, an update image of 144-byte chunks) is a shorter valid file when the cut falls on a
# record boundary: there a tool may exit 0, and only with exactly what the whole file's records
# before the cut give (worked out here, not by the tool); anywhere else it must exit 1.
S=tests/fuzz/seeds/tflite
n=$(stat -c %s "$S/fc.tflite")
sweep_never "accel-run fc.tflite --info" "$S/fc.tflite" "$(seq 0 $((n - 1)))" accel-run @ --info
if D=$(data_dir edgetpu ACCEL_EDGETPU_DATA); then
    M="$D/models/bright_16x16_edgetpu.tflite"
    n=$(stat -c %s "$M")
    # every point in the first 512 bytes (the TFLite tables before the package) and the last KiB
    # (the package's end and the tables after it), every 257th in between (inside the package's
    # byte vector, which then runs past the end): the whole file would take minutes here
    pts="$(seq 0 511) $(seq 512 257 $((n - 1025))) $(seq $((n - 1024)) $((n - 1)))"
    sweep_never "accel-edgetpu info --json bright_16x16_edgetpu.tflite" "$M" "$pts" accel-edgetpu info --json @
    pts="$(seq 0 499 $((n - 1))) $(seq $((n - 300)) $((n - 1)))"
    sweep_never "accel-edgetpu plan bright_16x16_edgetpu.tflite" "$M" "$pts" accel-edgetpu plan @
    sweep_never "accel-edgetpu disasm bright_16x16_edgetpu.tflite" "$M" "$pts" accel-edgetpu disasm @
else
    skip "cut sweep accel-edgetpu bright_16x16_edgetpu.tflite" "$(data_absent edgetpu ACCEL_EDGETPU_DATA)"
fi
# a RefSi command buffer: whole 8-byte words from a command's header on are a shorter buffer
R=tests/fuzz/seeds/refsi/all_opcodes
"$B/accel-refsi" disasm "$R" >"$W/full.txt" || bad "accel-refsi disasm all_opcodes" "exit $?"
# the word offsets where a command starts, from the headers (count: bits 29..16, 32-bit units)
starts=$(/usr/bin/python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(); o = 0; out = []
while o < len(d):
    out.append(o); h = struct.unpack_from("<I", d, o)[0]; o += 8 + 4 * ((h >> 16) & 0x3fff)
print(" ".join(map(str, out + [len(d)])))' "$R")
n=$(stat -c %s "$R"); nbad=0; first=""
cuts "$R" "$(seq 0 $((n - 1)))"
for k in $(seq 0 $((n - 1))); do
    lines=-1; i=0
    for st in $starts; do [ "$st" = "$k" ] && lines=$i; i=$((i + 1)); done
    if "$B/accel-refsi" disasm "$W/cuts/$k" >"$W/out" 2>/dev/null; then
        # exit 0: only at a command boundary (not 0: empty), with the whole file's first lines
        if [ "$lines" -le 0 ] || ! cmp -s "$W/out" <(head -n "$lines" "$W/full.txt"); then
            nbad=$((nbad + 1)); first=${first:-$k}
        fi
    elif [ "$lines" -gt 0 ]; then nbad=$((nbad + 1)); first=${first:-$k}; fi
done
sweep_report "accel-refsi disasm all_opcodes (exit 0 only at its $(( $(wc -w <<<"$starts") - 2 )) inner command boundaries)" "$n" "$nbad" "$first"
# an update image: a cut on a chunk boundary is a whole image whose CRC (the last 4 bytes of the
# whole file) is gone, which the device refuses at FINISH; anywhere else the size is refused
# (every chunk boundary, every point of the first and the last chunk: the points in between are
# refused by the same size check as those)
n=$(stat -c %s "$W/img.bin")
sweep_never "accel-tsp1 update img.bin" "$W/img.bin" \
    "$(seq 0 143) $(seq 144 144 $((n - 144))) $(seq $((n - 143)) $((n - 1)))" accel-tsp1 update @
lib_end
