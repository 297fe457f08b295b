#!/usr/bin/env bash
# static_analysis.sh - cppcheck and clang-tidy over the implementation of accel.h built as C, in
# the default configuration, with every device model left out (the MCU build) and with models
# read through ACCEL_FB_COPY (models in flash). Ends with
# "N passed, N failed"; about 1 minute (the two cppcheck runs are most of it).
#   cppcheck --enable=warning,style,performance,portability (--inline-suppr)
#   clang-tidy with tests/.clang-tidy (bugprone, cert, clang-analyzer, misc, portability; the
#     checks it leaves out are listed there with their reasons)
# Clean means no finding. A false positive is suppressed inline at its line with a one-line
# reason: "/* cppcheck-suppress ID ; why */" on the line before, "NOLINT(check): why" on the line.
# PENDING below is empty on main, so every finding fails. A branch may list there a finding in a
# section another engineer is changing (matched by section, id and enclosing function, not by
# line), reported as PENDING and not failed until that owner takes the fix; a stale entry is
# reported too.
# A missing tool skips its part by name.
. "$(dirname "$0")/lib.sh"
T=build/test-tmp/static
mkdir -p "$T"
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$T/impl.c"
# the models-in-flash build: every model byte read through ACCEL_FB_COPY (its own code paths)
printf '#include <string.h>\n#define ACCEL_FB_COPY(d, s, n) memcpy((d), (s), (n))\n#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' \
  >"$T/impl_far.c"
NO_MODELS="-DACCEL_TSP1_NO_MODEL -DACCEL_EDGETPU_NO_MODEL -DACCEL_REFSI_NO_MODEL -DACCEL_ANE_NO_MODEL"

# section id function | what the owner should do at that line
PENDING=''

# section and enclosing function of every line of accel.h (function definitions start in column 0)
awk '
  /^ \* SECTION: [a-z0-9]+/ { sec = $3 }
  /^ \* IMPLEMENTATION/ { sec = "common" }
  /^[A-Za-z_][^;]*[A-Za-z0-9_]\(/ && !/;[ \t]*$/ && !/^(typedef|return|else|if|for|while)/ {
    f = $0; sub(/\(.*/, "", f); n = split(f, w, /[^A-Za-z0-9_]+/); fn = w[n]
  }
  { print NR, (sec ? sec : "config"), (fn ? fn : "-") }' accel.h >"$T/where.txt"

# LOG TOOL LABEL: findings in accel.h into TOOL_LABEL.found (section id function line text), then
# each is either PENDING (noted) or a failure
classify() {
  local log=$1 label=$2 n_bad=0 n_pend=0
  grep -E '(^|/)accel\.h:[0-9]+:[0-9]+: (error|warning|style|performance|portability)' "$log" |
    sed -E 's#^.*accel\.h:([0-9]+):[0-9]+: [a-z]+: (.*) \[([^]]+)\]$#\1 \3 \2#' | sort -u -k1,2 >"$T/$label.raw"
  : >"$T/$label.found"
  while read -r line id text; do
    read -r _ sec fn < <(sed -n "${line}p" "$T/where.txt")
    echo "$sec $id $fn $line $text" >>"$T/$label.found"
  done <"$T/$label.raw"
  while read -r sec id fn line text; do
    if printf '%s\n' "$PENDING" | grep -qE "^$sec $id $fn \|"; then
      n_pend=$((n_pend + 1))
      echo "PENDING $label accel.h:$line $id in $fn ($sec): $(printf '%s\n' "$PENDING" | grep -E "^$sec $id $fn \|" | head -1 | sed 's/^[^|]*| //')"
    else
      n_bad=$((n_bad + 1))
      echo "  accel.h:$line [$id] in $fn ($sec): $text"
    fi
  done <"$T/$label.found"
  if [ "$n_bad" = 0 ]; then ok "$label"; else bad "$label: $n_bad findings (listed above)"; fi
  [ "$n_pend" = 0 ] || echo "note: $label: $n_pend findings pending in sections owned elsewhere (PENDING lines)"
}

if have cppcheck; then
  for cfg in default no_models far; do
    defs=""; [ "$cfg" = no_models ] && defs=$NO_MODELS
    src=impl.c; [ "$cfg" = far ] && src=impl_far.c
    # shellcheck disable=SC2086
    cppcheck --quiet --inline-suppr --std=c99 --enable=warning,style,performance,portability \
      $defs -I. "$T/$src" >"$T/cppcheck_$cfg.log" 2>&1
    classify "$T/cppcheck_$cfg.log" "cppcheck_$cfg"
  done
else skip "cppcheck" "cppcheck not installed"; fi

if have clang-tidy; then
  for cfg in default no_models far; do
    defs=""; [ "$cfg" = no_models ] && defs=$NO_MODELS
    src=impl.c; [ "$cfg" = far ] && src=impl_far.c
    # shellcheck disable=SC2086
    # it exits non-zero only when the file does not compile (warnings are what classify reads)
    if clang-tidy --quiet --config-file=tests/.clang-tidy "$T/$src" -- -std=c99 -I. $defs \
        >"$T/tidy_$cfg.log" 2>&1; then
      classify "$T/tidy_$cfg.log" "clang-tidy_$cfg"
    else bad "clang-tidy_$cfg did not run" "$(grep -m5 'error' "$T/tidy_$cfg.log")"; fi
  done
else skip "clang-tidy" "clang-tidy not installed"; fi

# a PENDING entry that matched nothing in any run is stale: its owner fixed it, so remove it
found=$(cat "$T"/*.found 2>/dev/null)
while IFS='|' read -r key _; do
  key=${key% }
  [ -n "$key" ] || continue
  if ! printf '%s\n' "$found" | grep -qE "^$key "; then echo "note: PENDING entry no longer found, remove it: $key"; fi
done <<<"$PENDING"
lib_end
