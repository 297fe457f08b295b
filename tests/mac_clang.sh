#!/usr/bin/env bash
# mac_clang.sh - the MAC tests built with clang under ASan+UBSan (make test's unit builds use
# gcc; clang's UBSan finds other undefined behaviour, e.g. an offset on a null pointer). The
# SIMD tests switch their target on with a GCC pragma, so here clang gets the same target from
# the command line: AVX-512 VNNI+BW, and AVX2 alone; each is built everywhere and runs where the CPU has it
# (elsewhere an ISA skip: listed by name, never a failure).
. "$(dirname "$0")/lib.sh"
T=build/test-tmp/mac_clang
mkdir -p "$T"
if ! have clang; then skip "mac tests under clang" "clang not installed"; lib_end; exit $?; fi
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
ASSERT='-DACCEL_ASSERT(x)=((x)?(void)0:__builtin_trap())'
run() { # NAME SOURCE NEEDED_CPU_FLAGS -- CFLAGS...
    local name=$1 src=$2 need=$3 miss san=$SAN
    shift 4
    # a build this CPU cannot run is still compiled and linked, warning-free, but without the
    # sanitizers, which only act at run time (with them clang takes over 10 minutes on the
    # AVX-512 build of test_mac_simd.c; without, about 30 s)
    # shellcheck disable=SC2086
    miss=$(cpu_lacks $need) && san=""
    # shellcheck disable=SC2086
    if ! clang $W -O1 -g $san "$ASSERT" "$@" -I. -Iports/sim -Itests "$src" ports/sim/accel_sim.c \
        -o "$T/$name" -lm >"$T/$name.log" 2>&1; then
        bad "$name (build)" "$(head -5 "$T/$name.log")"; return
    fi
    if [ -n "$miss" ]; then isa_skip "$name" "$miss"; return; fi
    if "$T/$name" >>"$T/$name.log" 2>&1; then ok "$name"
    else bad "$name" "$(grep -E 'FAIL|runtime error|ERROR|passed' "$T/$name.log" | head -6)"; fi
}
run test_mac tests/test_mac.c "" --
run test_mac_small tests/test_mac_small.c "" --
run test_mac_mcu tests/test_mac_mcu.c "" --
case "$(uname -m)" in
x86_64)
    run test_mac_simd tests/test_mac_simd.c "avx2 avx512f avx512bw avx512_vnni" -- \
        -mavx2 -mavx512f -mavx512bw -mavx512vnni
    run test_mac_simd_avx2 tests/test_mac_simd_avx2.c "avx2" -- -mavx2 ;;
*) skip "test_mac_simd under clang" "not an x86-64 host" ;;
esac
lib_end
