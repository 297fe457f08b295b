#!/usr/bin/env bash
# scripts/test.sh - everything CI runs (`make test`). Last line: "N passed, N failed".
# Counts: each test binary and tests/*.sh script contributes its own case counts; every build
# check (C++, config combinations, cross targets, symbol and size checks) counts as one case.
# A part whose tool is missing is skipped by name; with ACCEL_REQUIRE_ALL=1 a skip is a failure.
set -u
cd "$(dirname "$0")/.."
REQ=${ACCEL_REQUIRE_ALL:-0}
PASS=0
FAIL=0
SKIPPED=()
LOG=build/test-logs
mkdir -p "$LOG"

bash scripts/setup.sh || { echo "setup failed"; exit 1; }
T_START=$(date +%s)
STAGE="" STAGE_T=$T_START
# stage NAME: prints the heading; the stage before it goes into times.txt with its wall time
stage() {
  [ -n "$STAGE" ] && echo "$(($(date +%s) - STAGE_T)) [stage] $STAGE" >>"$LOG/times.txt"
  STAGE=$1 STAGE_T=$(date +%s)
  [ -n "$1" ] && echo "== $1"
}
: >"$LOG/times.txt" # seconds per counted part, for the summary's slowest parts

ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/     | /' "$2" | head -40; }
skip() {
  if [ "$REQ" = 1 ]; then bad "$1 (skipped, but ACCEL_REQUIRE_ALL=1: $2)"
  else SKIPPED+=("$1 ($2)"); echo "SKIP $1: $2"; fi
}
have() { command -v "$1" >/dev/null 2>&1; }

# Run a program that prints "N passed, M failed" last; add its counts.
run_counted() { # name, command...
  local name=$1 out rc line p f t0
  shift
  out="$LOG/$(echo "$name" | tr '/ ' '__').log"
  t0=$(date +%s)
  "$@" >"$out" 2>&1
  rc=$?
  echo "$(($(date +%s) - t0)) $name" >>"$LOG/times.txt"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
  if [ -z "$line" ]; then
    bad "$name (exit $rc, no result line)" "$out"
    return
  fi
  # cases a test skipped (third-party data absent, a tool missing) are listed at the end by name
  while IFS= read -r sk; do SKIPPED+=("$name: ${sk#SKIP }"); done < <(grep -E '^SKIP ' "$out")
  p=${line%% passed*}
  f=${line#*, }
  f=${f%% failed*}
  PASS=$((PASS + p))
  FAIL=$((FAIL + f))
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
    bad "$name (exit $rc after '$line')" "$out"
  elif [ "$f" != 0 ]; then
    echo "FAIL $name: $line"
    grep -E 'FAIL' "$out" | head -30 | sed 's/^/     | /'
  else
    echo "ok   $name: $line"
  fi
}

W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
T=build/test-tmp
mkdir -p "$T"
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$T/impl.c"
cp "$T/impl.c" "$T/impl.cpp"
SECTIONS="TSP1 EDGETPU REFSI ANE MAC TFLITE"

# compile_check NAME CC FLAGS... -- builds $T/impl.c (or .cpp) into $T/NAME.o
compile_check() {
  local name=$1 cc=$2 src=$3
  shift 3
  if $cc "$@" -I. -c "$src" -o "$T/$name.o" >"$LOG/$name.log" 2>&1; then ok "build $name"
  else bad "build $name: $cc $*" "$LOG/$name.log"; fi
}

stage "host builds (tools, examples, sanitized tests)"
if make -s -j"$(nproc 2>/dev/null || echo 2)" all tests >"$LOG/make.log" 2>&1; then ok "make all tests"; else bad "make all tests" "$LOG/make.log"; fi

stage "unit tests (ASan + UBSan)"
for t in build/tests/test_*; do
  [ -x "$t" ] || continue
  run_counted "$(basename "$t")" "$t"
done
# every CRC-32 implementation must meet the same expectations (the host default, BRAID, is
# build/tests/test_common; tests/crc_simd.sh runs the same cases on the instruction paths)
for impl in BITWISE NIBBLE TABLE256 SLICE8; do
  exe="$T/test_common_crc_$impl"
  if cc $W -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DACCEL_CRC32_IMPL=ACCEL_CRC32_$impl \
      -I. -Iports/sim -Itests tests/test_common.c ports/sim/accel_sim.c -o "$exe" >"$LOG/crc_$impl.log" 2>&1; then
    run_counted "test_common (ACCEL_CRC32_$impl)" "$exe"
  else bad "build test_common ACCEL_CRC32_$impl" "$LOG/crc_$impl.log"; fi
done

stage "tool tests (tests/*.sh)"
for s in tests/*.sh; do
  [ -f "$s" ] || continue
  [ "$s" = tests/lib.sh ] && continue # the shared counters, sourced by the others
  run_counted "$(basename "$s")" bash "$s"
done

stage "fuzz targets (tests/fuzz/fuzz_*.c)"
for fz in tests/fuzz/fuzz_*.c; do
  [ -f "$fz" ] || continue
  n=$(basename "$fz" .c)
  # a target may need more arguments (tests/fuzz/<name>.flags: non-comment lines) and a header
  # from a package ("# needs: HEADER (package)"); without that header it is skipped by name
  xf=""
  if [ -f "tests/fuzz/$n.flags" ]; then
    xf=$(grep -v '^#' "tests/fuzz/$n.flags" | tr '\n' ' ')
    need=$(sed -n 's/^# needs: \([^ ]*\).*/\1/p' "tests/fuzz/$n.flags")
    if [ -n "$need" ] && ! printf '#include <%s>\n' "$need" | cc -E -x c - >/dev/null 2>&1; then
      skip "$n" "$(sed -n 's/^# needs: //p' "tests/fuzz/$n.flags") missing"
      continue
    fi
  fi
  # 1) as a plain program over its seed inputs, with sanitizers (no libFuzzer needed)
  if cc -std=c99 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DACCEL_FUZZ_MAIN -I. -Iports/sim -Itests \
      "$fz" $xf -o "$T/$n" >"$LOG/$n.log" 2>&1; then
    seeds=tests/fuzz/seeds/${n#fuzz_}
    if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then bad "$n has no seeds in $seeds"
    elif "$T/$n" "$seeds" >>"$LOG/$n.log" 2>&1; then ok "$n over its seeds"
    else bad "$n over its seeds" "$LOG/$n.log"; fi
  else bad "build $n" "$LOG/$n.log"; fi
  # 2) a short coverage-guided run with libFuzzer
  if have clang && clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -g -O1 -I. -Iports/sim -Itests "$fz" $xf -o "$T/${n}_lf" \
      >"$LOG/${n}_lf.log" 2>&1; then
    # the first corpus directory receives new inputs: a scratch one, never the checked-in seeds
    rm -rf "$T/corpus_$n" && mkdir -p "$T/corpus_$n"
    if (cd "$T" && "./${n}_lf" -seed=1 -max_total_time=${ACCEL_FUZZ_SECONDS:-10} -max_len=4096 "corpus_$n" \
        $( [ -d "tests/fuzz/seeds/${n#fuzz_}" ] && echo "../../tests/fuzz/seeds/${n#fuzz_}" )) >>"$LOG/${n}_lf.log" 2>&1
    then ok "$n libFuzzer ${ACCEL_FUZZ_SECONDS:-10}s"
    else bad "$n libFuzzer" "$LOG/${n}_lf.log"; fi
  else skip "$n libFuzzer" "clang with libclang-rt-14-dev needed"; fi
done

stage "header builds: compilers, C++, config macros"
compile_check gcc_c99 gcc "$T/impl.c" $W
compile_check gcc_c99_O3 gcc "$T/impl.c" $W -O3
if have clang; then compile_check clang_c99 clang "$T/impl.c" $W -O2; else skip "clang C build" "clang not installed"; fi
compile_check gxx_cxx11 g++ "$T/impl.cpp" -std=c++11 $WXX
compile_check gxx_cxx17 g++ "$T/impl.cpp" -std=c++17 $WXX -O2
if have clang++; then compile_check clangxx_cxx11 clang++ "$T/impl.cpp" -std=c++11 $WXX; else skip "clang++ build" "clang not installed"; fi
# the x86 SIMD paths of the mac section (compile only: the tests run them where the CPU has them)
for simd in "avx512:-mavx2 -mavx512f -mavx512bw -mavx512vnni" "avx2:-mavx2"; do
  compile_check "gcc_${simd%%:*}" gcc "$T/impl.c" $W -O2 ${simd#*:}
  compile_check "gxx_${simd%%:*}" g++ "$T/impl.cpp" -std=c++11 $WXX -O2 ${simd#*:}
  if have clang; then compile_check "clang_${simd%%:*}" clang "$T/impl.c" $W -O2 ${simd#*:}; fi
done
compile_check static gcc "$T/impl.c" $W -DACCEL_STATIC
# ACCEL_STATIC with a port: the port's .c is compiled into the same file (README says so)
printf '#define ACCEL_STATIC\n#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n#include "accel_sim.c"\nint main(void) { accel_sim s; accel_sim_init(&s); return accel_crc32("123456789", 9) != 0xCBF43926UL; }\n' >"$T/static_port.c"
if gcc $W -I. -Iports/sim "$T/static_port.c" -o "$T/static_port" >"$LOG/static_port.log" 2>&1 && "$T/static_port"; then
  ok "ACCEL_STATIC with ports/sim in one file"
else bad "ACCEL_STATIC with ports/sim in one file" "$LOG/static_port.log"; fi
compile_check no_status_strings gcc "$T/impl.c" $W -DACCEL_NO_STATUS_STRINGS
for impl in BITWISE NIBBLE TABLE256 SLICE8; do
  compile_check crc_$impl gcc "$T/impl.c" $W -DACCEL_CRC32_IMPL=ACCEL_CRC32_$impl
done
# a config header, and the stb rule: declarations first, implementation from a second include
printf '#define ACCEL_NO_STATUS_STRINGS\n#define ACCEL_CRC32_IMPL ACCEL_CRC32_BITWISE\n' >"$T/my_config.h"
compile_check config_header gcc "$T/impl.c" $W "-DACCEL_CONFIG_HEADER=\"$T/my_config.h\""
printf '#include "accel.h"\n#include "accel.h"\n#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n#include "accel.h"\nint use(void);\nint use(void) { return (int)accel_crc32("a", 1); }\n' >"$T/twice.c"
compile_check include_twice gcc "$T/twice.c" $W
# declarations only must not emit code
printf '#include "accel.h"\n' >"$T/decl.c"
compile_check decl_only gcc "$T/decl.c" $W
if [ -f "$T/decl_only.o" ] && [ -n "$(nm "$T/decl_only.o" | grep -v ' [Uw] ')" ]; then bad "declarations-only build defines symbols"; else ok "declarations-only build defines nothing"; fi
# ACCEL_NO_<SECTION>: each section removed, each section alone, common only
all_no=""
for s in $SECTIONS; do all_no="$all_no -DACCEL_NO_$s"; done
compile_check common_only gcc "$T/impl.c" $W $all_no
for s in $SECTIONS; do
  compile_check "no_$s" gcc "$T/impl.c" $W "-DACCEL_NO_$s"
  alone=$(echo "$all_no" | sed "s/ -DACCEL_NO_$s//")
  [ "$s" = TFLITE ] && alone=$(echo "$alone" | sed "s/ -DACCEL_NO_MAC//") # tflite runs on mac
  compile_check "only_$s" gcc "$T/impl.c" $W $alone
  compile_check "only_${s}_cxx" g++ "$T/impl.cpp" -std=c++11 $WXX $alone
done

stage "cross builds (-Werror, the warning set)"
FORBIDDEN='^(malloc|calloc|realloc|free|printf|fprintf|sprintf|snprintf|vprintf|vsnprintf|puts|putchar|fputs|fopen|fclose|fwrite|fread|stdout|stderr|_impure_ptr|abort|exit)$'
cross() { # name cc nm flags...
  local name=$1 cc=$2 nmt=$3
  shift 3
  if ! have "$cc"; then skip "cross $name" "$cc not installed (bash scripts/setup.sh as root)"; return; fi
  compile_check "cross_$name" "$cc" "$T/impl.c" $W "$@"
  [ -f "$T/cross_$name.o" ] || return
  local bad_syms
  bad_syms=$($nmt -u "$T/cross_$name.o" | awk '{print $NF}' | grep -E "$FORBIDDEN" | tr '\n' ' ')
  if [ -n "$bad_syms" ]; then bad "cross $name references heap/stdio symbols: $bad_syms"
  else ok "cross $name: no heap or stdio symbols"; fi
}
cross m0plus arm-none-eabi-gcc arm-none-eabi-nm -Os -mcpu=cortex-m0plus -mthumb
cross m4 arm-none-eabi-gcc arm-none-eabi-nm -Os -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
cross rv32 riscv64-unknown-elf-gcc riscv64-unknown-elf-nm -Os -march=rv32imac -mabi=ilp32 -ffreestanding
cross avr avr-gcc avr-nm -Os -mmcu=atmega328p
# rv32 has no C library at all: only libgcc helpers (__*) may be undefined
if [ -f "$T/cross_rv32.o" ]; then
  ext=$(riscv64-unknown-elf-nm -u "$T/cross_rv32.o" | awk '{print $NF}' | grep -v '^__' | tr '\n' ' ')
  if [ -n "$ext" ]; then bad "rv32 freestanding build needs C library symbols: $ext"; else ok "rv32 freestanding build needs no C library"; fi
fi
# no hidden global state: the whole header has no .data and no .bss
if [ -f "$T/cross_m0plus.o" ]; then
  read -r text data bss _ < <(arm-none-eabi-size "$T/cross_m0plus.o" | awk 'NR==2')
  if [ "$data" = 0 ] && [ "$bss" = 0 ]; then ok "cortex-m0plus: .data 0, .bss 0 (.text $text)"
  else bad "cortex-m0plus: .data $data, .bss $bss (must be 0: no hidden state)"; fi
fi

stage "demos"
if make -s demo >"$LOG/demo.log" 2>&1; then ok "make demo"; else bad "make demo" "$LOG/demo.log"; fi
# each demo's output ends with its one summary line, "demo_<name>: ok"
unsummed=$(awk '/^== build\/demo_/ { if (n && last != n ": ok") print n; n = substr($2, 7); last = ""; next }
                { last = $0 } END { if (n && last != n ": ok") print n }' "$LOG/demo.log" | tr '\n' ' ')
if [ -z "$unsummed" ] && grep -q '^== build/demo_' "$LOG/demo.log"; then ok "every demo ends with 'demo_<name>: ok'"
else bad "demos without their summary line: ${unsummed:-none ran}"; fi

stage ""
echo
# two lists: parts left out for a missing tool or data (none may remain under ACCEL_REQUIRE_ALL=1)
# and builds this CPU cannot execute (compiled and checked, only not run; allowed everywhere)
ISA=()
OTHER=()
for s in ${SKIPPED[@]+"${SKIPPED[@]}"}; do
  case "$s" in *"[isa]") ISA+=("${s% \[isa\]}") ;; *) OTHER+=("$s") ;; esac
done
if [ ${#OTHER[@]} -gt 0 ]; then
  echo "skipped ${#OTHER[@]} part(s):"
  for s in "${OTHER[@]}"; do echo "  - $s"; done
fi
if [ ${#ISA[@]} -gt 0 ]; then
  echo "not run on this CPU ($(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')), compiled only: ${#ISA[@]} part(s):"
  for s in "${ISA[@]}"; do echo "  - $s"; done
fi
echo "slowest parts (seconds of $(($(date +%s) - T_START)) in all, on $(nproc 2>/dev/null || echo ?) CPUs):"
grep ' \[stage\] ' "$LOG/times.txt" | sed 's/^/  /'
grep -v ' \[stage\] ' "$LOG/times.txt" | sort -rn | head -10 | sed 's/^/  /'
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
