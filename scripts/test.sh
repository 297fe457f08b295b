#!/usr/bin/env bash
# scripts/test.sh - everything CI runs (`make test`). Last line: "N passed, N failed".
# Counts: each test binary and tests/*.sh script contributes its own case counts; every build
# check (C++, config combinations, cross targets, symbol and size checks) counts as one case.
# A part whose tool is missing is skipped by name; with ACCEL_REQUIRE_ALL=1 a skip is a failure.
# After the host build, every part (a test binary, a tests/*.sh script, a fuzz target, a header or
# cross build) is a job: the jobs run in ACCEL_TEST_JOBS lanes at once (default: the CPU count),
# the longest known ones first, each with its own log in build/test-logs/, and the report lists
# them in a fixed order once all have finished, so it reads the same at any lane count.
# A job must not share files with another: each tests/*.sh has its own directory under build/.
set -u
cd "$(dirname "$0")/.."
REQ=${ACCEL_REQUIRE_ALL:-0}
PASS=0
FAIL=0
SKIPPED=()
LOG=build/test-logs
mkdir -p "$LOG"
JOBS=${ACCEL_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
case "$JOBS" in '' | *[!0-9]* | 0) JOBS=1 ;; esac

bash scripts/setup.sh || { echo "setup failed"; exit 1; }
T_START=$(date +%s)
: >"$LOG/times.txt" # wall seconds per job, for the summary's slowest parts

ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/     | /' "$2" | head -40; }
have() { command -v "$1" >/dev/null 2>&1; }

# Inside a job (its own subshell, its output in its log): count cases, end with the result line.
JP=0
JF=0
job_ok() { JP=$((JP + 1)); echo "ok   $1"; }
job_bad() { JF=$((JF + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/     | /' "$2" | head -40; }
job_skip() {
  if [ "$REQ" = 1 ]; then job_bad "$1 (skipped, but ACCEL_REQUIRE_ALL=1: $2)"
  else echo "SKIP $1: $2"; fi
}
job_end() { echo "$JP passed, $JF failed"; }

# The jobs: add NAME COMMAND... records one (its report comes under the current heading);
# run_jobs starts them all, LONG_FIRST's names first, at most JOBS at a time.
NJ=0
J_NAME=()
J_CMD=()
J_HEAD=()
HEAD=""
heading() { HEAD=$1; }
add() {
  J_NAME[NJ]=$1
  shift
  J_CMD[NJ]=$(printf '%q ' "$@")
  J_HEAD[NJ]=$HEAD
  NJ=$((NJ + 1))
}
key_of() { echo "$1" | tr '/ ' '__'; }
start_job() {
  local i=$1 key
  key=$(key_of "${J_NAME[i]}")
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || break; done
  rm -f "$LOG/$key.rc"
  (
    t0=$(date +%s)
    eval "${J_CMD[i]}" >"$LOG/$key.log" 2>&1 </dev/null
    rc=$?
    echo "$(($(date +%s) - t0)) ${J_NAME[i]}" >>"$LOG/times.txt"
    echo "$rc" >"$LOG/$key.rc"
  ) &
}
# the parts that take longest on a 2-CPU host, started first so that no lane idles at the end
LONG_FIRST="macro_matrix.sh mac_clang.sh stack_usage.sh mac_arm.sh avr_sketches.sh mac_size.sh
bridge_python.sh zephyr_check.sh python_tflite.sh tflite_arm.sh tflite_avr.sh static_analysis.sh
bridge_sketch.sh readme_example.sh tools_input.sh nodiscard.sh"
run_jobs() {
  local i n started=" "
  for n in $LONG_FIRST; do
    for ((i = 0; i < NJ; i++)); do
      if [ "${J_NAME[i]}" = "$n" ]; then start_job "$i"; started="$started$i "; fi
    done
  done
  for ((i = 0; i < NJ; i++)); do
    case "$started" in *" $i "*) continue ;; esac
    start_job "$i"
  done
  wait
}

# Add a job's counts: its output ends with "N passed, M failed".
tally() {
  local name=$1 key out rc line p f
  key=$(key_of "$name")
  out="$LOG/$key.log"
  rc=$(cat "$LOG/$key.rc" 2>/dev/null || echo "?")
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

# compile_job NAME CC SRC FLAGS... -- builds SRC into $T/NAME.o (one case)
compile_job() {
  local name=$1 cc=$2 src=$3
  shift 3
  if $cc "$@" -I. -c "$src" -o "$T/$name.o" >"$LOG/$name.cc.log" 2>&1; then job_ok "build $name"
  else job_bad "build $name: $cc $*" "$LOG/$name.cc.log"; fi
}
compile_check() { add "build $1" compile_one "$@"; }
compile_one() { compile_job "$@"; job_end; }

echo "== host builds (tools, examples, sanitized tests)"
t0=$(date +%s)
if make -s -j"$JOBS" all tests >"$LOG/make.log" 2>&1; then ok "make all tests"; else bad "make all tests" "$LOG/make.log"; fi
echo "$(($(date +%s) - t0)) make all tests" >>"$LOG/times.txt"

heading "unit tests (ASan + UBSan)"
for t in build/tests/test_*; do
  [ -x "$t" ] || continue
  add "$(basename "$t")" "$t"
done
# every CRC-32 implementation must meet the same expectations (the host default, BRAID, is
# build/tests/test_common; tests/crc_simd.sh runs the same cases on the instruction paths)
crc_impl_job() {
  local impl=$1 exe="$T/test_common_crc_$1"
  if cc $W -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DACCEL_CRC32_IMPL=ACCEL_CRC32_$impl \
      -I. -Iports/sim -Itests tests/test_common.c ports/sim/accel_sim.c -o "$exe" >"$LOG/crc_$impl.log" 2>&1; then
    "$exe"
  else job_bad "build test_common ACCEL_CRC32_$impl" "$LOG/crc_$impl.log"; job_end; return 1; fi
}
for impl in BITWISE NIBBLE TABLE256 SLICE8; do add "test_common (ACCEL_CRC32_$impl)" crc_impl_job "$impl"; done

heading "tool tests (tests/*.sh)"
for s in tests/*.sh; do
  [ -f "$s" ] || continue
  [ "$s" = tests/lib.sh ] && continue # the shared counters, sourced by the others
  add "$(basename "$s")" bash "$s"
done

heading "fuzz targets (tests/fuzz/fuzz_*.c)"
fuzz_job() {
  local fz=$1 n xf="" need seeds
  n=$(basename "$fz" .c)
  # a target may need more arguments (tests/fuzz/<name>.flags: non-comment lines) and a header
  # from a package ("# needs: HEADER (package)"); without that header it is skipped by name
  if [ -f "tests/fuzz/$n.flags" ]; then
    xf=$(grep -v '^#' "tests/fuzz/$n.flags" | tr '\n' ' ')
    need=$(sed -n 's/^# needs: \([^ ]*\).*/\1/p' "tests/fuzz/$n.flags")
    if [ -n "$need" ] && ! printf '#include <%s>\n' "$need" | cc -E -x c - >/dev/null 2>&1; then
      job_skip "$n" "$(sed -n 's/^# needs: //p' "tests/fuzz/$n.flags") missing"
      job_end
      return
    fi
  fi
  # 1) as a plain program over its seed inputs, with sanitizers (no libFuzzer needed)
  # shellcheck disable=SC2086
  if cc -std=c99 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DACCEL_FUZZ_MAIN -I. -Iports/sim -Itests \
      "$fz" $xf -o "$T/$n" >"$LOG/$n.seeds.log" 2>&1; then
    seeds=tests/fuzz/seeds/${n#fuzz_}
    if [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then job_bad "$n has no seeds in $seeds"
    elif "$T/$n" "$seeds" >>"$LOG/$n.seeds.log" 2>&1; then job_ok "$n over its seeds"
    else job_bad "$n over its seeds" "$LOG/$n.seeds.log"; fi
  else job_bad "build $n" "$LOG/$n.seeds.log"; fi
  # 2) a short coverage-guided run with libFuzzer
  # shellcheck disable=SC2086
  if have clang && clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -g -O1 -I. -Iports/sim -Itests "$fz" $xf -o "$T/${n}_lf" \
      >"$LOG/${n}_lf.log" 2>&1; then
    # the first corpus directory receives new inputs: a scratch one, never the checked-in seeds
    rm -rf "$T/corpus_$n" && mkdir -p "$T/corpus_$n"
    if (cd "$T" && "./${n}_lf" -seed=1 -max_total_time=${ACCEL_FUZZ_SECONDS:-10} -max_len=4096 "corpus_$n" \
        $( [ -d "tests/fuzz/seeds/${n#fuzz_}" ] && echo "../../tests/fuzz/seeds/${n#fuzz_}" )) >>"$LOG/${n}_lf.log" 2>&1
    then job_ok "$n libFuzzer ${ACCEL_FUZZ_SECONDS:-10}s"
    else job_bad "$n libFuzzer" "$LOG/${n}_lf.log"; fi
  else job_skip "$n libFuzzer" "clang with libclang-rt-14-dev needed"; fi
  job_end
}
for fz in tests/fuzz/fuzz_*.c; do
  [ -f "$fz" ] || continue
  add "$(basename "$fz" .c)" fuzz_job "$fz"
done

heading "header builds: compilers, C++, config macros"
compile_check gcc_c99 gcc "$T/impl.c" $W
compile_check gcc_c99_O3 gcc "$T/impl.c" $W -O3
have_job() { # NAME TOOL: a job that only reports the tool as missing
  job_skip "$1" "$2 not installed"; job_end
}
if have clang; then compile_check clang_c99 clang "$T/impl.c" $W -O2; else add "clang C build" have_job "clang C build" clang; fi
compile_check gxx_cxx11 g++ "$T/impl.cpp" -std=c++11 $WXX
compile_check gxx_cxx17 g++ "$T/impl.cpp" -std=c++17 $WXX -O2
if have clang++; then compile_check clangxx_cxx11 clang++ "$T/impl.cpp" -std=c++11 $WXX; else add "clang++ build" have_job "clang++ build" clang++; fi
# the x86 SIMD paths of the mac section (compile only: the tests run them where the CPU has them)
for simd in "avx512:-mavx2 -mavx512f -mavx512bw -mavx512vnni" "avx2:-mavx2"; do
  compile_check "gcc_${simd%%:*}" gcc "$T/impl.c" $W -O2 ${simd#*:}
  compile_check "gxx_${simd%%:*}" g++ "$T/impl.cpp" -std=c++11 $WXX -O2 ${simd#*:}
  if have clang; then compile_check "clang_${simd%%:*}" clang "$T/impl.c" $W -O2 ${simd#*:}; fi
done
compile_check static gcc "$T/impl.c" $W -DACCEL_STATIC
# ACCEL_STATIC with a port: the port's .c is compiled into the same file (README says so)
static_port_job() {
  printf '#define ACCEL_STATIC\n#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n#include "accel_sim.c"\nint main(void) { accel_sim s; accel_sim_init(&s); return accel_crc32("123456789", 9) != 0xCBF43926UL; }\n' >"$T/static_port.c"
  # shellcheck disable=SC2086
  if gcc $W -I. -Iports/sim "$T/static_port.c" -o "$T/static_port" >"$LOG/static_port.cc.log" 2>&1 && "$T/static_port"; then
    job_ok "ACCEL_STATIC with ports/sim in one file"
  else job_bad "ACCEL_STATIC with ports/sim in one file" "$LOG/static_port.cc.log"; fi
  job_end
}
add "ACCEL_STATIC with ports/sim" static_port_job
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
decl_job() {
  # shellcheck disable=SC2086
  compile_job decl_only gcc "$T/decl.c" $W
  if [ -f "$T/decl_only.o" ] && [ -n "$(nm "$T/decl_only.o" | grep -v ' [Uw] ')" ]; then job_bad "declarations-only build defines symbols"
  else job_ok "declarations-only build defines nothing"; fi
  job_end
}
add "build decl_only" decl_job
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

heading "cross builds (-Werror, the warning set)"
FORBIDDEN='^(malloc|calloc|realloc|free|printf|fprintf|sprintf|snprintf|vprintf|vsnprintf|puts|putchar|fputs|fopen|fclose|fwrite|fread|stdout|stderr|_impure_ptr|abort|exit)$'
cross_job() { # name cc nm flags...
  local name=$1 cc=$2 nmt=$3 bad_syms ext text data bss
  shift 3
  if ! have "$cc"; then job_skip "cross $name" "$cc not installed (bash scripts/setup.sh as root)"; job_end; return; fi
  # shellcheck disable=SC2086
  compile_job "cross_$name" "$cc" "$T/impl.c" $W "$@"
  [ -f "$T/cross_$name.o" ] || { job_end; return; }
  bad_syms=$($nmt -u "$T/cross_$name.o" | awk '{print $NF}' | grep -E "$FORBIDDEN" | tr '\n' ' ')
  if [ -n "$bad_syms" ]; then job_bad "cross $name references heap/stdio symbols: $bad_syms"
  else job_ok "cross $name: no heap or stdio symbols"; fi
  case $name in
  rv32) # rv32 has no C library at all: only libgcc helpers (__*) may be undefined
    ext=$(riscv64-unknown-elf-nm -u "$T/cross_rv32.o" | awk '{print $NF}' | grep -v '^__' | tr '\n' ' ')
    if [ -n "$ext" ]; then job_bad "rv32 freestanding build needs C library symbols: $ext"; else job_ok "rv32 freestanding build needs no C library"; fi ;;
  m0plus) # no hidden global state: the whole header has no .data and no .bss
    read -r text data bss _ < <(arm-none-eabi-size "$T/cross_m0plus.o" | awk 'NR==2')
    if [ "$data" = 0 ] && [ "$bss" = 0 ]; then job_ok "cortex-m0plus: .data 0, .bss 0 (.text $text)"
    else job_bad "cortex-m0plus: .data $data, .bss $bss (must be 0: no hidden state)"; fi ;;
  esac
  job_end
}
add "cross m0plus" cross_job m0plus arm-none-eabi-gcc arm-none-eabi-nm -Os -mcpu=cortex-m0plus -mthumb
add "cross m4" cross_job m4 arm-none-eabi-gcc arm-none-eabi-nm -Os -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
add "cross rv32" cross_job rv32 riscv64-unknown-elf-gcc riscv64-unknown-elf-nm -Os -march=rv32imac -mabi=ilp32 -ffreestanding
add "cross avr" cross_job avr avr-gcc avr-nm -Os -mmcu=atmega328p

heading "demos"
demo_job() {
  if make -s demo >"$LOG/demo.out" 2>&1; then job_ok "make demo"; else job_bad "make demo" "$LOG/demo.out"; fi
  # each demo's output ends with its one summary line, "demo_<name>: ok"
  unsummed=$(awk '/^== build\/demo_/ { if (n && last != n ": ok") print n; n = substr($2, 7); last = ""; next }
                  { last = $0 } END { if (n && last != n ": ok") print n }' "$LOG/demo.out" | tr '\n' ' ')
  if [ -z "$unsummed" ] && grep -q '^== build/demo_' "$LOG/demo.out"; then job_ok "every demo ends with 'demo_<name>: ok'"
  else job_bad "demos without their summary line: ${unsummed:-none ran}"; fi
  job_end
}
add "make demo" demo_job

echo "== $NJ jobs in $JOBS lanes"
run_jobs
last=""
for ((i = 0; i < NJ; i++)); do
  if [ "${J_HEAD[i]}" != "$last" ]; then last=${J_HEAD[i]}; echo "== $last"; fi
  tally "${J_NAME[i]}"
done

echo
# two lists: parts left out for a missing tool or data (none may remain under ACCEL_REQUIRE_ALL=1)
# and builds this CPU cannot execute (compiled and checked, only not run; allowed everywhere)
ISA=()
OTHER=()
for s in "${SKIPPED[@]}"; do
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
echo "slowest jobs (wall seconds; $(($(date +%s) - T_START)) s in all, $JOBS lanes on $(nproc 2>/dev/null || echo ?) CPUs):"
sort -rn "$LOG/times.txt" | head -10 | sed 's/^/  /'
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
