#!/usr/bin/env bash
# mac_check.sh - tool-level tests of build/accel-check: the shared TFLite golden vectors
# (../shared/data/int8, beside the repository as CI clones it) must all pass, the project's
# hand-checked vectors must pass, a wrong expectation must give exit 1 with the FAIL line, and
# every malformed file must give exit 2 with FILE:LINE. Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
tool=build/accel-check
[ -x "$tool" ] || make -s "$tool" >/dev/null || { echo "cannot build $tool"; echo "0 passed, 1 failed"; exit 1; }
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

shared=../shared/data/int8
if [ -d "$shared" ] && ls "$shared"/*.txt >/dev/null 2>&1; then
    out=$("$tool" "$shared"/*.txt); rc=$?
    if [ $rc -eq 0 ] && echo "$out" | tail -1 | grep -q '^50 passed, 0 failed$'; then ok
    else bad "shared vectors: rc=$rc, $(echo "$out" | grep -v ' ok$' | head -5)"; fi
    # every shared file also on its own, 10 cases each
    for f in "$shared"/*.txt; do
        out=$("$tool" "$f"); rc=$?
        if [ $rc -eq 0 ] && [ "$(echo "$out" | tail -1)" = "10 passed, 0 failed" ]; then ok
        else bad "$f: rc=$rc"; fi
    done
    # the set detects the wrong rounding mode: single rounding must fail some cases
    tmp=$(mktemp); sed 's/^rounding double/rounding single/' "$shared"/golden_conv2d.txt > "$tmp"
    "$tool" "$tmp" >/dev/null; rc=$?
    if [ $rc -eq 1 ]; then ok; else bad "single rounding was not detected (rc=$rc)"; fi
    rm -f "$tmp"
else
    bad "shared vectors not found at $shared"
fi

out=$("$tool" tests/vectors/mac/hand.txt); rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | tail -1)" = "7 passed, 0 failed" ]; then ok
else bad "hand.txt: rc=$rc: $out"; fi

out=$("$tool" tests/vectors/mac/wrong/wrong_max.txt); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -qx 'case wrong_max FAIL index 0 got 2 want 3' &&
   [ "$(echo "$out" | tail -1)" = "0 passed, 1 failed" ]; then ok
else bad "wrong_max: rc=$rc: $out"; fi

for f in tests/vectors/mac/malformed/*.txt; do
    err=$("$tool" "$f" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 2 ] && echo "$err" | grep -q "^$f:[0-9]*: malformed"; then ok
    else bad "$f: rc=$rc: $err"; fi
done

# a malformed file among good ones still gives 2; a missing file gives 2
"$tool" tests/vectors/mac/hand.txt tests/vectors/mac/malformed/bad_hex.txt >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "mixed good+malformed did not exit 2"
"$tool" tests/vectors/mac/does_not_exist.txt >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "missing file did not exit 2"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
