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
# the tflite listing runs as well: TFLM's person_detect (the shared data; skipped by name
# without) fits its arena and gives TFLM's output byte for byte
if [ -f "$T/tflite.c" ]; then
  if D=$(data_dir tflite ACCEL_TFLITE_DATA); then
    cat >"$T/tflite_main.c" <<'EOF_MAIN'
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tflite.src.c"
static unsigned char *load(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    unsigned char *b;
    long l;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    l = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = (unsigned char *)malloc((size_t)l + 1);
    *n = fread(b, 1, (size_t)l, f);
    fclose(f);
    return b;
}
int main(int argc, char **argv)
{
    size_t nm, ni, no, got = 0;
    unsigned char *m, *in, *want;
    int8_t out[64];
    uint32_t bad = 0;
    accel_status st;
    if (argc != 4) return 2;
    m = load(argv[1], &nm), in = load(argv[2], &ni), want = load(argv[3], &no);
    if (!m || !in || !want) return 2;
    st = tflite_run(m, nm, (const int8_t *)in, ni, out, sizeof out, &got, &bad);
    printf("%s, %zu bytes, %s\n", accel_status_str(st), got, got == no && !memcmp(out, want, no) ? "same" : "differ");
    return st == ACCEL_OK && got == no && !memcmp(out, want, no) ? 0 : 1;
}
EOF_MAIN
    sed -i '1,2d' "$T/tflite.src.c" # the includes main has
    if gcc -std=c99 -O1 -I. -I"$T" "$T/tflite_main.c" -o "$T/tflite_run" -lm >"$T/tflite_run.log" 2>&1; then
      out=$("$T/tflite_run" "$D/person_detect.tflite" "$D/cases/person_detect/rand0.in.bin" \
            "$D/cases/person_detect/rand0.out.bin" 2>&1)
      if [ $? = 0 ]; then ok "tflite listing runs person_detect ($out)"
      else bad "tflite listing on person_detect" "$out"; fi
    else bad "tflite listing: build with a main" "$(head -5 "$T/tflite_run.log")"; fi
  else skip "tflite listing runs person_detect" "$(data_absent tflite ACCEL_TFLITE_DATA)"; fi
fi
lib_end
