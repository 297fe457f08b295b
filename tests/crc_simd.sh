#!/usr/bin/env bash
# crc_simd.sh - RUNS the CRC-32 instruction paths of accel.h against the bitwise reference: the
# cases of tests/crc_cases.h (test_common's CRC cases plus a randomized cross-check over every
# length 0..4096 at misaligned starts, 1-3 MiB inputs and chained updates) built by
# tests/crc/crc_simd_test.c for each path:
#   x86-pclmul         gcc -mpclmul -msse4.1 (ACCEL_CRC32_SIMD 1), ASan + UBSan
#   x86-vpclmul        gcc ... -mavx512f -mvpclmulqdq (ACCEL_CRC32_SIMD 2), ASan + UBSan
#   x86-vpclmul-clang  the same with clang -O2 (level 2 contains level 1's code for short inputs)
#   x86-nosimd         every x86 flag above plus ACCEL_CRC32_NO_SIMD: the portable code (level 0)
#   a64-crc            aarch64-linux-gnu-gcc -march=armv8-a+crc (ACCEL_CRC32_SIMD 3), UBSan,
#                      under qemu-aarch64 -L /usr/aarch64-linux-gnu
#   a64-crc-clang      the same compiled by clang
#   a64-nosimd         the AArch64 target with ACCEL_CRC32_NO_SIMD (the portable braid on Arm)
# The x86 programs check the CPU at run time (__builtin_cpu_supports) and report a skipped case
# when it lacks the instructions; that is listed here by name as an ISA skip (never a failure). Each build must also select the
# level it is meant to (the test has an #error otherwise). Then: the C++ compile of the x86
# (level 2, which contains level 1) and AArch64 paths, and scripts/gen_crc32_tables.py --check (accel.h's tables and constants are
# exactly what the generator derives, after its own model of the folding passed).
# A missing tool skips its builds by name (a failure with ACCEL_REQUIRE_ALL=1).
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/crc_simd
mkdir -p "$B"
SRC=tests/crc/crc_simd_test.c
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
X1="-mpclmul -msse4.1"
X2="-mpclmul -msse4.1 -mavx512f -mvpclmulqdq"
A64="-march=armv8-a+crc"

# variant NAME WANT RUNNER COMPILE... : build, run, check the level and the result line
variant() {
    local name=$1 want=$2 runner=$3 out line
    shift 3
    if ! "$@" -DCRC_SIMD_WANT="$want" -I. -Itests "$SRC" -o "$B/$name" >"$B/$name.log" 2>&1; then
        bad "$name (build)" "$(head -5 "$B/$name.log")"
        return
    fi
    out=$(timeout 300 $runner "$B/$name" 2>&1)
    echo "$out" >>"$B/$name.log"
    line=$(echo "$out" | tail -1)
    if echo "$out" | grep -q '^SKIP crc32_instructions_unavailable'; then
        isa_skip "$name" "$(echo "$out" | sed -n 's/^SKIP crc32_instructions_unavailable: this CPU lacks //p' | sed 's/ (compiled, not run) \[isa\]$//')"
    elif ! echo "$out" | grep -q "ACCEL_CRC32_SIMD=$want)"; then
        bad "$name" "did not report ACCEL_CRC32_SIMD=$want"
    elif ! echo "$line" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then
        bad "$name" "$(echo "$out" | grep -E 'FAIL|passed' | head -8)"
    else
        ok "$name"
        echo "ok   $name: $line"
    fi
}

if [ "$(uname -m)" = x86_64 ]; then
    variant x86-pclmul 1 "" gcc $W -O1 -g $SAN $X1
    variant x86-vpclmul 2 "" gcc $W -O1 -g $SAN $X2
    if have clang; then variant x86-vpclmul-clang 2 "" clang $W -O2 $X2
    else skip "x86-vpclmul-clang" "clang not installed"; fi
    variant x86-nosimd 0 "" gcc $W -O2 $X2 -DACCEL_CRC32_NO_SIMD
    # C++: the intrinsics headers outside extern "C", g++'s AVX-512 header warnings
    printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$B/impl.cpp"
    for cxx in g++ clang++; do
        if ! have $cxx; then skip "$cxx x86 CRC paths" "$cxx not installed"; continue; fi
        if $cxx -std=c++11 $WXX -O2 $X2 -DACCEL_NO_TSP1 -DACCEL_NO_EDGETPU -DACCEL_NO_REFSI \
            -DACCEL_NO_ANE -DACCEL_NO_MAC -I. -c "$B/impl.cpp" -o "$B/impl_cxx.o" >"$B/cxx.log" 2>&1
        then ok "$cxx ACCEL_CRC32_SIMD 2"
        else bad "$cxx ACCEL_CRC32_SIMD 2" "$(head -5 "$B/cxx.log")"; fi
    done
else
    skip "x86 CRC paths" "not an x86-64 host"
fi

QA64=qemu-aarch64
have qemu-aarch64 || QA64=qemu-aarch64-static
need_a64=""
have aarch64-linux-gnu-gcc || need_a64="$need_a64 aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu)"
[ -f /usr/aarch64-linux-gnu/include/stdio.h ] || need_a64="$need_a64 the arm64 C library (libc6-dev-arm64-cross)"
have $QA64 || need_a64="$need_a64 qemu-aarch64 (qemu-user)"
if [ -n "$need_a64" ]; then
    skip "a64-crc, a64-crc-clang, a64-nosimd" "missing$need_a64"
else
    QRUN="$QA64 -L /usr/aarch64-linux-gnu"
    variant a64-crc 3 "$QRUN" aarch64-linux-gnu-gcc $W -O2 $A64 -fsanitize=undefined -fno-sanitize-recover=all
    variant a64-nosimd 0 "$QRUN" aarch64-linux-gnu-gcc $W -O2 $A64 -DACCEL_CRC32_NO_SIMD
    if have clang; then
        # clang compiles, the cross gcc links (it knows where the arm64 C library is)
        cc_a64_clang() { # ... -o OUT
            local args=("$@") out=${*: -1}
            clang --target=aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include "${args[@]:0:$#-2}" \
                -c -o "$out.o" && aarch64-linux-gnu-gcc "$out.o" -o "$out"
        }
        variant a64-crc-clang 3 "$QRUN" cc_a64_clang $W -O2 $A64
        if clang++ --target=aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include -std=c++11 $WXX -O2 $A64 \
            -I. -x c++ -fsyntax-only - >"$B/cxx_a64.log" 2>&1 <<'EOF'
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_IMPLEMENTATION
#include "accel.h"
static_assert(ACCEL_CRC32_SIMD == 3, "AArch64 CRC32 path selected");
EOF
        then ok "clang++ ACCEL_CRC32_SIMD 3"
        else bad "clang++ ACCEL_CRC32_SIMD 3" "$(head -5 "$B/cxx_a64.log")"; fi
    else skip "a64-crc-clang" "clang not installed"; fi
fi

if have /usr/bin/python3 || have python3; then
    py=/usr/bin/python3
    have $py || py=python3
    check "gen_crc32_tables.py --check accel.h" 0 "" $py scripts/gen_crc32_tables.py --check accel.h
else skip "gen_crc32_tables.py --check" "python3 not installed"; fi
lib_end
