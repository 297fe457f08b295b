#!/usr/bin/env bash
# The 20-line example in README.md must build warning-free and print what it promises.
set -u
. "$(dirname "$0")/lib.sh"
T=build/test-tmp/readme
mkdir -p $T
awk '/^```c$/{f=1;n++;next} /^```$/{f=0} f&&n==2' README.md >$T/example.c
lines=$(wc -l <$T/example.c)
if [ "$lines" -ge 15 ] && [ "$lines" -le 30 ]; then ok "example length"; else bad "example length" "$lines lines"; fi
if cc -std=c99 -Wall -Wextra -Werror -I. -Iports/sim $T/example.c ports/sim/accel_sim.c -o $T/example 2>$T/err; then
  ok "example builds"
  same "example output" "$($T/example)" "$(printf 'ready: ACCEL_OK: success after 30 ms\ncrc32 = cbf43926')"
else
  bad "example builds" "$(cat $T/err)"
fi
lib_end
