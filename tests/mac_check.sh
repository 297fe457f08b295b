#!/usr/bin/env bash
# mac_check.sh - tool-level tests of build/accel-check: the TFLite golden vectors
# (tests/vectors/int8, see FORMAT.md there) must all pass, the project's hand-checked vectors must
# pass, a wrong expectation must give exit 1 with the FAIL line, and every malformed file must
# give exit 2 with FILE:LINE. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
tool=build/accel-check
[ -x "$tool" ] || make -s "$tool" >/dev/null || { echo "cannot build $tool"; echo "0 passed, 1 failed"; exit 1; }

golden=tests/vectors/int8
out=$("$tool" "$golden"/*.txt); rc=$?
if [ $rc -eq 0 ] && echo "$out" | tail -1 | grep -q '^50 passed, 0 failed$'; then ok "golden vectors"
else bad "golden vectors" "rc=$rc, $(echo "$out" | grep -v ' ok$' | head -5)"; fi
# every golden file also on its own, 10 cases each
for f in "$golden"/*.txt; do
    out=$("$tool" "$f"); rc=$?
    if [ $rc -eq 0 ] && [ "$(echo "$out" | tail -1)" = "10 passed, 0 failed" ]; then ok "$f"
    else bad "$f" "rc=$rc"; fi
done
# the set detects the wrong rounding mode: single rounding must fail some cases
tmp=$(mktemp); sed 's/^rounding double/rounding single/' "$golden"/golden_conv2d.txt > "$tmp"
check "single rounding detected" 1 "FAIL" "$tool" "$tmp"
rm -f "$tmp"

out=$("$tool" tests/vectors/mac/hand.txt); rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | tail -1)" = "7 passed, 0 failed" ]; then ok hand.txt
else bad hand.txt "rc=$rc: $out"; fi

out=$("$tool" tests/vectors/mac/wrong/wrong_max.txt); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -qx 'case wrong_max FAIL index 0 got 2 want 3' &&
   [ "$(echo "$out" | tail -1)" = "0 passed, 1 failed" ]; then ok wrong_max
else bad wrong_max "rc=$rc: $out"; fi

for f in tests/vectors/mac/malformed/*.txt; do
    err=$("$tool" "$f" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 2 ] && echo "$err" | grep -q "^$f:[0-9]*: malformed"; then ok "$f"
    else bad "$f" "rc=$rc: $err"; fi
done

# a malformed file among good ones still gives 2; a missing file gives 2
check "good + malformed exits 2" 2 "malformed" "$tool" tests/vectors/mac/hand.txt tests/vectors/mac/malformed/bad_hex.txt
check "missing file exits 2" 2 "" "$tool" tests/vectors/mac/does_not_exist.txt

lib_end
