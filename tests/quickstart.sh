#!/usr/bin/env bash
# quickstart.sh - every quick-start listing in accel.h's head comment (chapter 7, lines
# " *   | ...") compiles as shown, with the full warning set, as C (gcc, clang) and C++ (g++),
# so the manual cannot drift from the API. One case per listing and compiler, and one per function
# its entry-point lists name (each must be declared).
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-std=c++11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
awk -v dir="$T" '
  /^ \*   == [a-z0-9]+:/ { name = $3; sub(":", "", name); out = dir "/" name ".c"; n++; next }
  /^ \*   \| / && out { sub(/^ \*   \| /, ""); print > out; next }
  /^ \*   \|$/ && out { print "" > out; next }
  /^ \*\/$/ { exit }
' accel.h
listings=$(ls "$T"/*.c 2>/dev/null | wc -l)
if [ "$listings" -ge 5 ]; then ok "found $listings listings"; else bad "found $listings listings (want one per section)"; fi
# the entry-point lines (" *   > ...") before each listing name only functions accel.h declares
entries=$(awk '/^ \*   == [a-z0-9]+:/ { n = $3 } /^ \*   >/ || (/^ \*     / && n) { print } /^ \*   \|/ { n = "" }
  /^ \*\/$/ { exit }' accel.h | grep -o 'accel_[a-z0-9_]*' | sort -u)
if [ "$(printf '%s\n' "$entries" | grep -c .)" -ge 20 ]; then ok "entry-point lists found"
else bad "entry-point lists found" "$(printf '%s\n' "$entries" | grep -c .) names"; fi
for e in $entries; do
  if grep -Eq "^ACCELDEF .*\b$e\(" accel.h; then ok "entry point $e is declared"
  else bad "entry point $e is not a declared function"; fi
done
for f in "$T"/*.c; do
  n=$(basename "$f" .c)
  { printf '#include "accel.h"\n#include <string.h>\n'; cat "$f"; } >"$T/$n.src.c"
  cp "$T/$n.src.c" "$T/$n.src.cpp"
  for cc in gcc clang; do
    have $cc || { skip "$n listing ($cc)" "$cc not installed"; continue; }
    if $cc $W -I. -c "$T/$n.src.c" -o "$T/$n.o" >"$T/$n.$cc.log" 2>&1; then ok "$n ($cc)"
    else bad "$n listing does not compile with $cc" "$(head -5 "$T/$n.$cc.log")"; fi
  done
  if g++ $WXX -I. -c "$T/$n.src.cpp" -o "$T/$n.o" >"$T/$n.gxx.log" 2>&1; then ok "$n (g++)"
  else bad "$n listing does not compile as C++" "$(head -5 "$T/$n.gxx.log")"; fi
done
lib_end
