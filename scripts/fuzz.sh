#!/usr/bin/env bash
# scripts/fuzz.sh - `make fuzz`: a libFuzzer campaign over every tests/fuzz/fuzz_*.c target
# (ASan + UBSan), a report, not part of make test (which runs each target 10 s).
#   FUZZ_SECONDS=N   seconds per target (default 60)      FUZZ_RUNS=N  executions per target instead
#   FUZZ_TARGETS="tsp1 mac"  only these targets            FUZZ_MAXLEN=N  largest input (4096)
#   FUZZ_TIMEOUT=N  seconds one input may take before it counts as a hang (10)
# The corpus grows in build/fuzz/corpus/<target> (seeded from tests/fuzz/seeds/<target>), so
# campaigns continue where the last one stopped. A finding (crash, leak, timeout, sanitizer
# report) leaves its input in build/fuzz/findings/<target>/ and fails the campaign.
# A target's tests/fuzz/<name>.flags (as scripts/test.sh reads it) adds compiler arguments (its
# non-comment lines), names a header it needs ("# needs: HEADER (package)": without it the target
# is skipped by name) and may cap its input length ("# max_len: N", below FUZZ_MAXLEN).
#
# Campaign of 2026-11-24 (FUZZ_RUNS=10000000, nice -n 10, on 2 cores shared with four other
# builds: load 6-7, so the rates are a floor). Wall time 78 minutes in all (tsp1 and the mac
# rerun side by side). cov/ft: libFuzzer's coverage points and features at the end.
#   target          executions   exec/s   cov     ft   wall s  findings
#   ane             10,000,000  123,456   362    491       83  0
#   bridge          10,000,000    6,816   406  1,091    1,471  0 (a shorter run before it found a
#                                                                 hang, fixed in the bridge host;
#                                                                 seeds/bridge/hang_replay_clock_stops)
#   edgetpu         10,000,000   54,644   444  1,002      186  0 (was ~3,000 exec/s with the
#                                                                 disassembler inside)
#   edgetpu_disasm  10,000,000   12,642    97    381      794  0
#   mac                    718        -   237    290        1  1: NULL + offset in the conv2d
#                                                                 gather (seeds/mac/ub-gather-null-offset)
#   mac, fixed     10,000,000    7,451   634  2,771    1,344  0 (the end pointer computed after
#                                                                 the NULL test, applied locally)
#   refsi           10,000,000   26,246   231  1,332      384  0
#   tsp1            10,000,000    7,132    74    511    1,406  0
set -u
cd "$(dirname "$0")/.."
command -v clang >/dev/null || { echo "make fuzz needs clang with libFuzzer (libclang-rt-14-dev)"; exit 1; }
B=build/fuzz
mkdir -p "$B/corpus" "$B/findings" "$B/logs"
secs=${FUZZ_SECONDS:-60}
limit="-max_total_time=$secs"
[ -n "${FUZZ_RUNS:-}" ] && limit="-runs=$FUZZ_RUNS"
targets=${FUZZ_TARGETS:-$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c | sed 's/^fuzz_//'; done)}
printf '%-14s %12s %14s %8s %8s %9s %8s\n' target executions "exec/s" cov ft "wall s" findings
total_find=0
for t in $targets; do
  src=tests/fuzz/fuzz_$t.c
  [ -f "$src" ] || { echo "no target $src"; continue; }
  exe=$B/fuzz_$t
  xf="" maxlen=${FUZZ_MAXLEN:-4096}
  fl=tests/fuzz/fuzz_$t.flags
  if [ -f "$fl" ]; then
    xf=$(grep -v '^#' "$fl" | tr '\n' ' ')
    need=$(sed -n 's/^# needs: \([^ ]*\).*/\1/p' "$fl")
    if [ -n "$need" ] && ! printf '#include <%s>\n' "$need" | cc -E -x c - >/dev/null 2>&1; then
      echo "$t: skipped, $(sed -n 's/^# needs: //p' "$fl") missing"; continue
    fi
    ml=$(sed -n 's/^# max_len: *\([0-9]*\).*/\1/p' "$fl")
    [ -n "$ml" ] && [ "$ml" -lt "$maxlen" ] && maxlen=$ml
  fi
  if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Iports/sim -Itests \
      "$src" $xf -o "$exe" >"$B/logs/$t.build.log" 2>&1; then
    echo "$t: build failed (see $B/logs/$t.build.log)"; total_find=$((total_find + 1)); continue
  fi
  mkdir -p "$B/corpus/$t" "$B/findings/$t"
  seeds=""; [ -d "tests/fuzz/seeds/$t" ] && seeds="tests/fuzz/seeds/$t"
  start=$(date +%s.%N)
  touch "$B/logs/$t.start" # findings are the artefacts this run leaves (older ones stay listed)
  "$exe" $limit -max_len="$maxlen" -timeout="${FUZZ_TIMEOUT:-10}" -print_final_stats=1 -artifact_prefix="$B/findings/$t/" \
    "$B/corpus/$t" $seeds >"$B/logs/$t.log" 2>&1
  rc=$?
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$B/logs/$t.log" | awk '{print $2}')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$B/logs/$t.log" | awk '{print $2}')
  last=$(grep -E '^#[0-9]+.*cov: ' "$B/logs/$t.log" | tail -1)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | awk '{print $2}')
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | awk '{print $2}')
  finds=$(find "$B/findings/$t" -type f -newer "$B/logs/$t.start" 2>/dev/null | wc -l)
  [ "$rc" != 0 ] && [ "$finds" = 0 ] && finds=1 # a sanitizer abort without an artefact still counts
  total_find=$((total_find + finds))
  printf '%-14s %12s %14s %8s %8s %9.1f %8s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$wall" "$finds"
done
echo "findings: $total_find (inputs in $B/findings/, logs in $B/logs/)"
[ "$total_find" = 0 ]
