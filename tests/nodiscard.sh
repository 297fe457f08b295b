#!/usr/bin/env bash
# nodiscard.sh - no status is dropped: accel.h marks every function that returns an accel_status
# ACCEL_NODISCARD (warn_unused_result under clang), and every test, example, port and fuzz target
# compiles with -Werror=unused-result. A status that is deliberately ignored is cast to (void), with a
# comment saying why. One case per file; the header's own implementation is one more case, and
# its diagnostics are counted there, not against every file that includes it.
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
if ! have clang; then
    skip "every file with -Werror=unused-result" "clang not installed (bash scripts/setup.sh as root)"
    lib_end
    exit
fi
FLAGS="-std=c99 -fsyntax-only -ferror-limit=0 -Werror=unused-result -I. -Iports/sim -Iports/linux -Itests"
if pkg-config --exists libusb-1.0 2>/dev/null; then
    FLAGS="$FLAGS $(pkg-config --cflags libusb-1.0) -DACCEL_HAVE_LIBUSB=1" # the libusb paths too
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# one file: ok when its own lines drop no status; what accel.h drops belongs to the last case
one() { # name file
    local out own
    if out=$(clang $FLAGS "$2" 2>&1); then ok "$1"; return; fi
    own=$(printf '%s\n' "$out" | grep ': error: ' | grep -v '^\./accel\.h:\|^accel\.h:')
    if [ -z "$own" ]; then ok "$1"
    else bad "$1" "$(printf '%s\n' "$own" | head -8)"; fi
}
for f in tests/test_*.c examples/host/*.c ports/*/*.c; do
    [ -f "$f" ] && one "$f" "$f"
done
# the fuzz targets with their plain-program main
FLAGS="$FLAGS -DACCEL_FUZZ_MAIN"
for f in tests/fuzz/fuzz_*.c; do
    [ -f "$f" ] && one "$f" "$f"
done
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' > "$tmp/impl.c"
if out=$(clang $FLAGS "$tmp/impl.c" 2>&1); then ok "accel.h implementation"
else bad "accel.h implementation" "$(printf '%s\n' "$out" | grep ': error: ' | head -20)"; fi
lib_end
