#!/usr/bin/env bash
# The 20-line example in README.md must build warning-free and print what it promises.
set -u
cd "$(dirname "$0")/.."
T=build/test-tmp/readme
mkdir -p $T
pass=0 fail=0
awk '/^```c$/{f=1;n++;next} /^```$/{f=0} f&&n==2' README.md >$T/example.c
lines=$(wc -l <$T/example.c)
if [ "$lines" -ge 15 ] && [ "$lines" -le 30 ]; then pass=$((pass+1)); else echo "FAIL example has $lines lines"; fail=$((fail+1)); fi
if cc -std=c99 -Wall -Wextra -Werror -I. -Iports/sim $T/example.c ports/sim/accel_sim.c -o $T/example 2>$T/err; then
  pass=$((pass+1))
  out=$($T/example)
  if [ "$out" = "$(printf 'ready: ACCEL_OK: success after 30 ms\ncrc32 = cbf43926')" ]; then pass=$((pass+1))
  else echo "FAIL example printed: $out"; fail=$((fail+1)); fi
else
  echo "FAIL example does not build:"; cat $T/err; fail=$((fail+1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
