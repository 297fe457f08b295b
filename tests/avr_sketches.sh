#!/usr/bin/env bash
# avr_sketches.sh - the Arduino library as users get it, built by Debian's arduino-builder and
# run on emulated AVRs against accel's TSP1 device model:
#  1. `make arduino`'s script: the zip holds a spec-1.5 library whose version is accel.h's.
#  2. every examples/arduino sketch (but Bridge: tests/bridge_sketch.sh), and README's Arduino
#     sketch, built for arduino:avr:uno and
#     arduino:avr:mega with warnings on; a warning in accel, the port or a sketch fails the
#     build (the core's own warnings are counted and ignored: they are not ours to fix). Then
#     the port and sketches again with avr-g++ and the strict set (-Wconversion,
#     -Wsign-conversion, -Wshadow, ...), diagnostics in the core's headers filtered out.
#  3. flash/RAM per sketch and board (limits: flash <= 28 KB, RAM <= 1 KB, so an Uno keeps half
#     its RAM for the stack; TfliteHello, which carries a whole model runner, may take the Uno's
#     whole 31.5 KB of sketch flash, 2 KB of the Mega's RAM, and leave 128 bytes of the Uno's RAM
#     never touched instead of 256); the TSP1 sketches' Uno flash images must be byte-identical to
#     builds with ACCEL_TSP1_NO_MODEL and with accel_status_str undefined (neither the device
#     model nor a status string is linked), a build which a probe sketch that uses both must
#     fail; no model or status-string symbol and no status text in .data on either board.
#  4. each sketch under tests/avr/tsp1_harness (libsimavr) for both boards, in each scenario
#     below; its UART0 output must equal tests/avr/expect/SKETCH.SCENARIO.txt line by line
#     (lines starting with # are the reasons; "!harness TEXT" lines must appear in the
#     harness's own report), and the sketch must halt within the cycle budget. The probe, which
#     never halts, must be reported as hung. TfliteHello's outputs are the ones
#     scripts/gen/gen_tflite_models.py works out in Python (its committed model.h and expected
#     output must be what the generator writes now); its last line (arena bytes, time per
#     inference) is measured, not compared.
#     The library's AVR choices, each run: TfliteHello built with ACCEL_ARDUINO_MODEL_IN_RAM
#     (models read from RAM) on the Mega gives the same lines; a model with a second operator
#     (QUANTIZE) runs on the Mega and is refused by name on the Uno, which keeps FULLY_CONNECTED.
#  5. the truth check: TfliteHello built for the Uno with TFLM's hello_world_int8 model and the
#     inputs of its 7 golden cases (a model.h made by the same generator, in build/), run under
#     the harness: every output byte must equal TFLM's (cases/*.out.bin). Skipped by name without
#     the shared data ($ACCEL_TFLITE_DATA, else ../shared/data/tflite).
# Ends with "N passed, N failed" and a size/cycle report.
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
B=build/avr
HW=/usr/share/arduino/hardware
AVR=$HW/arduino/avr
mkdir -p "$B"

missing=""
for t in arduino-builder avr-gcc avr-g++ avr-size avr-nm zip unzip gcc; do have "$t" || missing="$missing $t"; done
[ -f /usr/include/simavr/sim_avr.h ] || missing="$missing libsimavr-dev"
[ -d "$AVR/cores/arduino" ] || missing="$missing arduino-core-avr"
[ -x /usr/bin/arduino-ctags ] || missing="$missing arduino-ctags"
if [ -n "$missing" ]; then
  skip "arduino sketches on simavr" "missing:$missing (bash scripts/setup.sh as root)"
  lib_end
  exit
fi

# ------------------------------------------------------------------ 1. the library zip
ver=$(sed -n 's/^#define ACCEL_VERSION_STRING "\(.*\)"$/\1/p' accel.h)
if zip=$(bash scripts/arduino_lib.sh "$B/pkg" 2>"$B/pkg.log") && [ "$zip" = "$B/pkg/Accel-$ver.zip" ] && [ -f "$zip" ]; then
  ok "arduino_lib.sh makes $zip"
else
  bad "arduino_lib.sh" "$(cat "$B/pkg.log") -> '$zip'"
  lib_end
  exit
fi
# build from what the zip holds, as "Add .ZIP Library" installs it
LIB=$B/unzipped
rm -rf "$LIB"
mkdir -p "$LIB"
unzip -q "$zip" -d "$LIB" || bad "unzip $zip"
list=$(unzip -Z1 "$zip")
want="Accel/library.properties Accel/src/accel.h Accel/src/accel_impl.c Accel/src/accel_arduino.h
Accel/src/accel_arduino.cpp Accel/src/accel_arduino_wire.h Accel/src/accel_arduino_config.h Accel/LICENSE"
SKETCHES=""
for d in examples/arduino/*/; do
  n=$(basename "$d")
  # the Bridge sketch serves a host over its UART: tests/bridge_sketch.sh builds, runs and
  # measures it (it needs nanopb's runtime in the zip)
  [ "$n" = Bridge ] && continue
  SKETCHES="$SKETCHES $n"
  want="$want Accel/examples/$n/$n.ino"
done
miss=""
for f in $want; do grep -qx "$f" <<<"$list" || miss="$miss $f"; done
[ -z "$miss" ] && ok "zip holds the spec-1.5 layout and every example" || bad "zip lacks:$miss"
[ "$(unzip -Z1 "$zip" | cut -d/ -f1 | sort -u)" = Accel ] && ok "zip has one top folder, Accel" || bad "zip top level"
props=$(unzip -p "$zip" Accel/library.properties)
pmiss=""
for k in name author maintainer sentence paragraph category url architectures; do
  grep -q "^$k=" <<<"$props" || pmiss="$pmiss $k"
done
[ -z "$pmiss" ] && ok "library.properties has every required field" || bad "library.properties lacks:$pmiss"
grep -qx "version=$ver" <<<"$props" && ok "library.properties version=$ver (ACCEL_VERSION_STRING)" || bad "library.properties version" "$props"
grep -qx "includes=accel.h" <<<"$props" && ok "library.properties includes=accel.h" || bad "includes" "$props"
unzip -p "$zip" Accel/src/accel.h | cmp -s - accel.h && ok "zip's accel.h is accel.h" || bad "zip's accel.h differs from accel.h"
unzip -p "$zip" Accel/src/accel_impl.c | grep -q '^#define ACCEL_IMPLEMENTATION$' && ok "accel_impl.c defines ACCEL_IMPLEMENTATION" || bad "accel_impl.c"
# the sine model and TfliteHello's expected output are the generator's, as committed
mkdir -p "$B/gen"
if python3 scripts/gen/gen_tflite_models.py sketch "$B/gen/model.h" "$B/gen/expect.txt" 2>"$B/gen.log" &&
   cmp -s "$B/gen/model.h" examples/arduino/TfliteHello/model.h && cmp -s "$B/gen/expect.txt" tests/avr/expect/TfliteHello.normal.txt; then
  ok "TfliteHello's model.h and expected output are what gen_tflite_models.py writes"
else
  bad "TfliteHello's model.h or expected output differ from gen_tflite_models.py sketch" "$(cat "$B/gen.log")"
fi

# ------------------------------------------------------------------ 2. builds
# README's sketch as a sketch folder of its own
mkdir -p "$B/readme/ReadmeEcho"
awk '/^## Arduino$/{a=1} a&&/^```cpp$/{f=1;next} f&&/^```$/{exit} f' README.md >"$B/readme/ReadmeEcho/ReadmeEcho.ino"
n=$(wc -l <"$B/readme/ReadmeEcho/ReadmeEcho.ino")
[ "$n" -ge 12 ] && [ "$n" -le 18 ] && ok "README's Arduino sketch has $n lines" || bad "README's Arduino sketch has $n lines"

ino_of() { # sketch name -> .ino path
  case $1 in
    ReadmeEcho) echo "$B/readme/ReadmeEcho/ReadmeEcho.ino" ;;
    ProbeModel) echo "tests/avr/probe/ProbeModel/ProbeModel.ino" ;;
    TfliteTruth) echo "$B/truth/TfliteHello/TfliteHello.ino" ;;
    TfliteTwoOps) echo "$B/twoops/TfliteHello/TfliteHello.ino" ;;
    *) echo "$LIB/Accel/examples/$1/$1.ino" ;;
  esac
}
fqbn_of() { [ "$1" = uno ] && echo arduino:avr:uno || echo arduino:avr:mega:cpu=atmega2560; }
mcu_of() { [ "$1" = uno ] && echo atmega328p || echo atmega2560; }
DD=-DDECIMAL_DIG=__DECIMAL_DIG__ # Debian's core 1.8.7 with avr-gcc 5.4 needs it in C++
# build BOARD SKETCH OUTDIR [C_FLAGS CXX_FLAGS]: one arduino-builder run; log in OUTDIR.log
build() {
  local board=$1 sk=$2 out=$3 cf=${4:-} xf=${5:-$DD}
  rm -rf "$out"
  mkdir -p "$out" "$B/cache/$board"
  arduino-builder -compile -hardware "$HW" -hardware /usr/share/arduino-builder -tools /usr/bin \
    -libraries "$LIB" -fqbn "$(fqbn_of "$board")" -build-path "$PWD/$out" -build-cache "$PWD/$B/cache/$board" \
    -warnings=all "-prefs=compiler.c.extra_flags=$cf" "-prefs=compiler.cpp.extra_flags=$xf" \
    "$(ino_of "$sk")" >"$out.log" 2>&1
}
# Both boards build at once (two jobs of six builds); each board's core archive is cached
# across its sketches. The link proof (same image without the model) runs on the Uno, its
# negative control (the probe) on the Mega.
TSP1_SKETCHES=$(for s in $SKETCHES; do case $s in Tsp1*) echo "$s";; esac; done)
NOMODEL_C=-DACCEL_TSP1_NO_MODEL
NOMODEL_CXX="$DD -DACCEL_TSP1_NO_MODEL -Daccel_status_str=accel_status_str_is_not_linked_on_avr"
build_board() {
  local board=$1 sk
  for sk in $SKETCHES ReadmeEcho; do build "$board" "$sk" "$B/$board/$sk"; echo $? >"$B/$board/$sk.rc"; done
  if [ "$board" = uno ]; then
    for sk in $TSP1_SKETCHES; do
      build uno "$sk" "$B/uno-nomodel/$sk" "$NOMODEL_C" "$NOMODEL_CXX"
      echo $? >"$B/uno-nomodel/$sk.rc"
    done
  else
    build mega ProbeModel "$B/mega/ProbeModel"
    echo $? >"$B/mega/ProbeModel.rc"
    build mega ProbeModel "$B/mega-nomodel/ProbeModel" "$NOMODEL_C" "$NOMODEL_CXX"
    echo $? >"$B/mega-nomodel/ProbeModel.rc"
  fi
}
rm -rf "$B/uno" "$B/mega" "$B/uno-nomodel" "$B/mega-nomodel"
mkdir -p "$B/uno" "$B/mega" "$B/uno-nomodel" "$B/mega-nomodel"
build_board uno &
build_board mega &
wait
built() { [ "$(cat "$1.rc" 2>/dev/null)" = 0 ] && [ -f "$1/$2.ino.elf" ]; }
core_warn=0
for board in uno mega; do
  for sk in $SKETCHES ReadmeEcho; do
    out=$B/$board/$sk
    if built "$out" "$sk"; then
      ok "build $sk for $board"
      # ours: anything outside the core's tree (library copy, port, sketch)
      ours=$(grep -E '(warning|error):' "$out.log" | grep -v "^$HW/" || true)
      theirs=$(grep -E 'warning:' "$out.log" | grep -c "^$HW/" || true)
      core_warn=$((core_warn + theirs))
      [ -z "$ours" ] && ok "$sk for $board: no warning in accel, the port or the sketch" ||
        bad "$sk for $board: warnings" "$ours"
    else
      bad "build $sk for $board" "$(grep -E 'error' "$out.log" | head -10)"
    fi
  done
done
echo "(warnings in the Arduino core itself, compiled once per board: $core_warn, ignored)"

# the strict set on our C++ files, against the real core headers
strict() { # board file...
  local board=$1 v def log=$B/strict_$1.log
  shift
  [ "$board" = uno ] && { v=standard; def=ARDUINO_AVR_UNO; } || { v=mega; def=ARDUINO_AVR_MEGA2560; }
  : >"$log"
  for f in "$@"; do
    avr-g++ -std=gnu++11 -fpermissive -Os -mmcu="$(mcu_of "$board")" -DF_CPU=16000000L -DARDUINO=10607 \
      -D$def -DARDUINO_ARCH_AVR $DD -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wundef \
      -Wcast-align -I"$AVR/cores/arduino" -I"$AVR/variants/$v" -I"$AVR/libraries/SPI/src" \
      -I"$AVR/libraries/Wire/src" -I. -Iports/arduino -x c++ -include Arduino.h -c "$f" -o "$B/strict.o" >>"$log" 2>&1 ||
      echo "$f: compile failed" >>"$log"
  done
  grep -E '(warning|error|failed)' "$log" | grep -v "^$HW/" | grep -v "^/usr/lib/avr/" || true
}
printf '#include "accel_arduino_wire.h"\naccel_arduino b;\naccel_port p;\nvoid setup() { accel_arduino_init_i2c(&b, &p, 400000, 25000); }\n' >"$B/wire_tu.ino"
for board in uno mega; do
  files="ports/arduino/accel_arduino.cpp $B/wire_tu.ino"
  for sk in $SKETCHES; do files="$files examples/arduino/$sk/$sk.ino"; done
  w=$(strict "$board" $files)
  [ -z "$w" ] && ok "strict warning set ($board): port, Wire header, sketches" || bad "strict warnings ($board)" "$(echo "$w" | head -20)"
done

# ------------------------------------------------------------------ 3. sizes and what is linked
report=""
for board in uno mega; do
  for sk in $SKETCHES ReadmeEcho; do
    elf=$B/$board/$sk/$sk.ino.elf
    [ -f "$elf" ] || continue
    read -r text data bss < <(avr-size "$elf" | awk 'NR == 2 { print $1, $2, $3 }')
    flash=$((text + data))
    ram=$((data + bss))
    report="$report$(printf '%-5s %-12s flash %6d  RAM %5d' "$board" "$sk" "$flash" "$ram")"$'\n'
    maxf=28672 maxr=1024
    # TfliteHello: the runner with its FULLY_CONNECTED kernel is some 23 KB, so on the Uno it
    # may take the whole sketch flash (32 KB less the 512-byte boot loader); on the Mega it
    # keeps every operator (some 70 KB), and the LSTM's 512-byte sigmoid table sits in RAM
    # (.data) there, so the Mega's limit is a quarter of its 8 KB
    [ "$sk" = TfliteHello ] && { [ "$board" = uno ] && maxf=32256 || { maxf=131072; maxr=2048; }; }
    [ "$flash" -le $maxf ] && [ "$ram" -le $maxr ] && ok "$sk for $board fits (flash $flash, RAM $ram)" ||
      bad "$sk for $board too big: flash $flash (max $maxf), RAM $ram (max $maxr)"
  done
done
for sk in $TSP1_SKETCHES; do
  v=$B/uno-nomodel/$sk
  if built "$v" "$sk" && cmp -s "$v/$sk.ino.hex" "$B/uno/$sk/$sk.ino.hex"; then
    ok "$sk for uno: same flash image without the model and status strings"
  else
    bad "$sk for uno links the device model or accel_status_str" "$(grep -E 'error' "$v.log" | head -5)"
  fi
done
for board in uno mega; do
  for sk in $TSP1_SKETCHES ReadmeEcho TfliteHello; do
    elf=$B/$board/$sk/$sk.ino.elf
    [ -f "$elf" ] || continue
    syms=$(avr-nm -C "$elf" | grep -E 'tsp1m_|tsp1_model|status_str' || true)
    [ -z "$syms" ] && ok "$sk for $board: no model or status-string symbol" || bad "$sk for $board symbols" "$syms"
    avr-objcopy -O binary -j .data "$elf" "$B/data.bin"
    grep -q 'ACCEL_E_' "$B/data.bin" && bad "$sk for $board: a status name in RAM (.data)" || ok "$sk for $board: no status text in .data"
  done
done
# negative control: a sketch that uses the model and accel_status_str must fail that build
if built "$B/mega/ProbeModel" ProbeModel && built "$B/mega-nomodel/ProbeModel" ProbeModel; then
  bad "the probe that uses the model built without it: the link check cannot fail"
elif built "$B/mega/ProbeModel" ProbeModel &&
     grep -q "accel_tsp1_model" "$B/mega-nomodel/ProbeModel.log"; then
  ok "probe using the model fails the no-model build (the check can fail)"
else
  bad "probe build" "$(tail -5 "$B/mega/ProbeModel.log")"
fi

# ------------------------------------------------------------------ 4. runs on simavr
if gcc -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror \
    -O2 -g -I. -isystem /usr/include/simavr tests/avr/tsp1_harness.c -o "$B/tsp1_harness" -lsimavr >"$B/harness.log" 2>&1; then
  ok "build tsp1_harness"
else
  bad "build tsp1_harness" "$(head -20 "$B/harness.log")"
  lib_end
  exit
fi
CYCLES=""
TFL_REPORT=""
stack_report=""
# run BOARD SKETCH SCENARIO [harness args...]
run() {
  local board=$1 sk=$2 sc=$3 exp out err rc miss
  shift 3
  exp=tests/avr/expect/$sk.$sc.txt
  out=$B/run/$board-$sk-$sc.out
  err=$B/run/$board-$sk-$sc.err
  mkdir -p "$B/run"
  [ -f "$B/$board/$sk/$sk.ino.elf" ] || { bad "run $sk/$sc on $board: no ELF"; return; }
  "$B/tsp1_harness" --mcu "$(mcu_of "$board")" --cycles 60000000 "$@" "$B/$board/$sk/$sk.ino.elf" >"$out" 2>"$err"
  rc=$?
  if [ "$rc" != 0 ]; then
    bad "run $sk/$sc on $board: harness exit $rc" "$(tail -3 "$err")"
    return
  fi
  if [ "$sk" = TfliteHello ]; then # its last line is measured: arena bytes, time per inference
    local m
    m=$(grep -E '^arena [0-9]+ of [0-9]+ bytes, [0-9]+ us per inference$' "$out")
    [ -n "$m" ] && ok "$sk on $board: $m" || bad "$sk on $board: no arena/time line" "$(tail -2 "$out")"
    TFL_REPORT="$TFL_REPORT$board: $m; "
    grep -vE '^arena [0-9]+ of [0-9]+ bytes, [0-9]+ us per inference$' "$out" >"$out.cmp"
    out=$out.cmp
  fi
  if diff <(grep -v '^[#!]' "$exp") "$out" >"$out.diff"; then
    ok "$sk/$sc on $board: every line as expected"
  else
    bad "$sk/$sc on $board: output differs (< expected, > printed)" "$(head -20 "$out.diff")"
  fi
  miss=""
  while IFS= read -r l; do grep -qF -- "${l#!harness }" "$err" || miss="$miss [${l#!harness }]"; done < <(grep '^!harness ' "$exp")
  [ -z "$miss" ] && ok "$sk/$sc on $board: harness report" || bad "$sk/$sc on $board: harness report lacks$miss" "$(cat "$err")"
  if [ "$sc" = normal ]; then
    # RAM never touched: from the end of the globals to the deepest the stack went
    local sp end ramend head
    sp=$(sed -n 's/.*lowest SP 0x\([0-9A-F]*\).*/\1/p' "$err")
    end=$(avr-nm "$B/$board/$sk/$sk.ino.elf" | awk '$3 == "__bss_end" { print substr($1, length($1) - 3) }')
    [ "$board" = uno ] && ramend=$((0x8FF)) || ramend=$((0x21FF))
    head=$((0x$sp - 0x$end))
    stack_report="$stack_report$(printf '%-5s %-12s stack peak %4d, never touched %4d' "$board" "$sk" $((ramend - 0x$sp)) "$head")"$'\n'
    # TfliteHello: the runner's invoke takes some 1.1 KB of stack on an AVR (accel's bound is
    # 1536 bytes) beside Serial and a 272-byte arena: an Uno keeps a stated 128 bytes spare
    local minhead=256
    [ "$sk" = TfliteHello ] && minhead=128
    [ "$head" -ge $minhead ] && ok "$sk on $board: $head bytes of RAM never touched" || bad "$sk on $board: only $head bytes of RAM to spare (min $minhead)"
  fi
  if [ "$sk/$sc" = Tsp1Basics/normal ]; then
    CYCLES="$CYCLES$board $(sed -n 's/.*after \([0-9]*\) cycles (\([0-9.]*\) s.*/\1 cycles (\2 s emulated)/p' "$err"); "
  fi
}
for board in uno mega; do
  run $board Tsp1Basics normal
  run $board Tsp1Basics flip-cmd --flip-cmd hello
  run $board Tsp1Basics flip-rsp --flip-rsp hello
  run $board Tsp1Basics ecc --ecc-on-echo hello
  run $board Tsp1Basics rspfull --rsp-cap 48 --ecc-when-full 2
  run $board Tsp1Basics dead --dead
  run $board Tsp1Update normal
  run $board Tsp1Update memfail --mem-fail-chunk 2
  run $board MacSelfTest normal
  run $board ReadmeEcho normal --stop-after "echo: "
  run $board TfliteHello normal
done
# a sketch that never halts ends at its cycle budget, reported as hung (exit 2)
if [ -f "$B/mega/ProbeModel/ProbeModel.ino.elf" ]; then
  "$B/tsp1_harness" --mcu atmega2560 --cycles 3000000 "$B/mega/ProbeModel/ProbeModel.ino.elf" >"$B/run/probe.out" 2>"$B/run/probe.err"
  rc=$?
  [ "$rc" = 2 ] && grep -q "CYCLE BUDGET SPENT after 300" "$B/run/probe.err" && grep -q "probe running" "$B/run/probe.out" &&
    ok "a sketch that never halts fails at its cycle budget" || bad "hang detection (exit $rc)" "$(cat "$B/run/probe.err")"
fi
# a requested fault that never fires is an error, not a silent pass
"$B/tsp1_harness" --flip-cmd "never sent" "$B/uno/MacSelfTest/MacSelfTest.ino.elf" >/dev/null 2>"$B/run/nofire.err"
[ $? = 3 ] && ok "a fault that never fires fails the run" || bad "unfired fault not reported" "$(cat "$B/run/nofire.err")"

# ------------------------------------------------------------------ 4b. the library's AVR choices
# run_lines NAME ELF MCU EXPECTED_FILE: the sketch's lines but its measured one must be these
run_lines() {
  local name=$1 elf=$2 mcu=$3 exp=$4 rc
  "$B/tsp1_harness" --mcu "$mcu" --cycles 60000000 "$elf" >"$elf.out" 2>"$elf.err"
  rc=$?
  if [ "$rc" = 0 ] && diff "$exp" <(grep -vE '^arena [0-9]+ of [0-9]+ bytes, [0-9]+ us per inference$' "$elf.out") >"$elf.diff"; then
    ok "$name"
  else
    bad "$name (exit $rc; < expected, > printed)" "$(head -10 "$elf.diff"; tail -2 "$elf.err")"
  fi
}
# Models in RAM (ACCEL_ARDUINO_MODEL_IN_RAM for the whole build, the documented way out): the
# sketch copies its model to RAM and the library reads it there; the same outputs. Only the
# Mega has the RAM for a copy. Should the library and the sketch disagree, the library would
# read a flash address as RAM (or the reverse) and print something else.
if build mega TfliteHello "$B/ram/mega" -DACCEL_ARDUINO_MODEL_IN_RAM "$DD -DACCEL_ARDUINO_MODEL_IN_RAM" &&
    [ -f "$B/ram/mega/TfliteHello.ino.elf" ]; then
  avr-nm "$B/ram/mega/TfliteHello.ino.elf" | grep -q ' modelInRam' && ! avr-nm "$B/mega/TfliteHello/TfliteHello.ino.elf" | grep -q ' modelInRam' &&
    ok "ACCEL_ARDUINO_MODEL_IN_RAM: the sketch keeps a RAM copy of the model only then" || bad "modelInRam in the wrong build"
  run_lines "TfliteHello with ACCEL_ARDUINO_MODEL_IN_RAM on mega: every line as expected" "$B/ram/mega/TfliteHello.ino.elf" atmega2560 \
    <(grep -v '^[#!]' tests/avr/expect/TfliteHello.normal.txt)
else
  bad "build TfliteHello with ACCEL_ARDUINO_MODEL_IN_RAM for mega" "$(grep -E 'error' "$B/ram/mega.log" | head -5)"
fi
# The operators each board keeps: the hand-made FULLY_CONNECTED + QUANTIZE model of the
# generator (in [4, 6] -> [131, 125] worked out by hand there) runs on the Mega (every
# operator) and is refused on the Uno (FULLY_CONNECTED only), naming QUANTIZE (114), operator 1.
mkdir -p "$B/twoops/TfliteHello"
cp examples/arduino/TfliteHello/TfliteHello.ino "$B/twoops/TfliteHello/"
printf '\004\006' >"$B/twoops/in.bin"
if python3 scripts/gen/gen_tflite_models.py progmem tests/fuzz/seeds/tflite/fc_then_quantize.tflite fc_then_quantize \
    "$B/twoops/in.bin" >"$B/twoops/TfliteHello/model.h"; then
  for board in uno mega; do
    if build "$board" TfliteTwoOps "$B/twoops/$board" && [ -f "$B/twoops/$board/TfliteHello.ino.elf" ]; then
      if [ "$board" = uno ]; then
        printf 'TfliteHello: fc_then_quantize\ninit: ACCEL_E_TFLITE_UNSUPPORTED (operator 1, code 114)\n' >"$B/twoops/expect.$board"
      else
        printf 'TfliteHello: fc_then_quantize\nin 4 6 -> out 131 125\n1 inferences\n' >"$B/twoops/expect.$board"
      fi
      run_lines "FULLY_CONNECTED + QUANTIZE on $board: $(tail -1 "$B/twoops/expect.$board")" "$B/twoops/$board/TfliteHello.ino.elf" \
        "$(mcu_of "$board")" "$B/twoops/expect.$board"
    else
      bad "build TfliteHello with fc_then_quantize for $board" "$(grep -E 'error' "$B/twoops/$board.log" | head -5)"
    fi
  done
else
  bad "model.h for fc_then_quantize"
fi

# ------------------------------------------------------------------ 5. TFLM's hello_world on the Uno
TRUTH=""
if D=$(data_dir tflite ACCEL_TFLITE_DATA); then
  H=$D/cases/hello_world_int8
  names=$(awk -F'\t' '$1 == "hello_world_int8" { print $2 }' "$D/goldens.tsv")
  T=$B/truth/TfliteHello
  rm -rf "$B/truth"
  mkdir -p "$T"
  cp examples/arduino/TfliteHello/TfliteHello.ino "$T/"
  ins=""
  for n in $names; do ins="$ins $H/$n.in.bin"; done
  # the lines the sketch must print, from TFLM's files alone (int8 in and out, signed)
  {
    echo "TfliteHello: hello_world_int8"
    for n in $names; do
      echo "in $(od -An -v -td1 "$H/$n.in.bin" | xargs) -> out $(od -An -v -td1 "$H/$n.out.bin" | xargs)"
    done
    echo "$(echo $names | wc -w) inferences"
  } >"$B/truth/expect.txt"
  if [ "$(echo $names | wc -w)" != 7 ]; then
    bad "hello_world_int8 goldens" "$(echo $names | wc -w) cases in goldens.tsv, 7 expected"
  elif ! python3 scripts/gen/gen_tflite_models.py progmem "$D/hello_world_int8.tflite" hello_world_int8 $ins \
      >"$T/model.h" 2>"$B/truth/gen.log"; then
    bad "model.h for hello_world_int8" "$(cat "$B/truth/gen.log")"
  elif ! build uno TfliteTruth "$B/truth/uno" || [ ! -f "$B/truth/uno/TfliteHello.ino.elf" ]; then
    bad "TfliteHello with hello_world_int8 for uno" "$(grep -E 'error' "$B/truth/uno.log" | head -10)"
  else
    ok "TfliteHello with hello_world_int8 builds for uno"
    elf=$B/truth/uno/TfliteHello.ino.elf
    "$B/tsp1_harness" --mcu atmega328p --cycles 60000000 "$elf" >"$B/truth/run.out" 2>"$B/truth/run.err"
    rc=$?
    m=$(grep -E '^arena [0-9]+ of [0-9]+ bytes, [0-9]+ us per inference$' "$B/truth/run.out")
    if [ "$rc" = 0 ] && [ -n "$m" ] && diff "$B/truth/expect.txt" <(grep -v '^arena ' "$B/truth/run.out") >"$B/truth/run.diff"; then
      ok "hello_world_int8 on the Uno: the 7 outputs equal TFLM's byte for byte"
    else
      bad "hello_world_int8 on the Uno (exit $rc; < TFLM, > printed)" "$(head -20 "$B/truth/run.diff"; tail -2 "$B/truth/run.err")"
    fi
    read -r text data bss < <(avr-size "$elf" | awk 'NR == 2 { print $1, $2, $3 }')
    TRUTH="uno: flash $((text + data)), RAM $((data + bss)), $m, $(sed -n 's/.*halted after \([0-9]*\) cycles.*/\1 cycles in all/p' "$B/truth/run.err")"
  fi
else
  skip "TfliteHello with TFLM's hello_world_int8 on the Uno" "$(data_absent tflite ACCEL_TFLITE_DATA)"
fi

echo "flash / RAM (bytes, Debian core 1.8.7, avr-gcc $(avr-gcc -dumpversion)):"
printf '%s' "$report"
printf '%s' "$stack_report"
echo "Tsp1Basics session: $CYCLES"
echo "TfliteHello (sine model): $TFL_REPORT"
[ -n "$TRUTH" ] && echo "TfliteHello (hello_world_int8): $TRUTH"
echo "wall time: $(( $(date +%s) - start )) s"
lib_end
