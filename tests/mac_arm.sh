#!/usr/bin/env bash
# mac_arm.sh - EXECUTES the mac section's Arm and microcontroller paths under emulation (we have
# no Arm hardware): tests/arm/mac_arm_test.c (random FC/GEMM, conv2d with and without scratch,
# depthwise and pool cases against its own plain-loop reference, then the whole of
# tests/test_mac.c) cross-built and run as
#   a64-sdot     aarch64-linux-gnu-gcc -march=armv8.2-a+dotprod (ACCEL_MAC_SIMD 3), qemu-aarch64 -cpu max
#   a64-sdot-clang  the same compiled by clang
#   a64-nosimd   the same target with ACCEL_MAC_NO_SIMD (ACCEL_MAC_SIMD 0)
#   m4-dsp       arm-none-eabi-gcc -O2 -mcpu=cortex-m4, the default configuration: the
#                microcontroller kernels (ACCEL_MAC_MCU) with the DSP extension (ACCEL_MAC_SIMD 4),
#                qemu-system-arm -M mps2-an386 with newlib rdimon semihosting
#                (tests/arm/m_startup.c, tests/arm/mps2.ld + mps2_sections.ld)
#   m4-dsp-clang the same compiled by clang
#   m4-portable  the same target with ACCEL_MAC_NO_SIMD: the portable microcontroller kernels
#   m7-dsp-Os    -mcpu=cortex-m7 -Os (an MCU build's flags) on -M mps2-an500
#   m33-dsp      -mcpu=cortex-m33 (ARMv8-M Mainline + DSP) on -M mps2-an505 (tests/arm/mps2_an505.ld)
#   m4-dsp-nosimd32  Cortex-M4 with __ARM_FEATURE_SIMD32 undefined: the portable kernels that
#                ARMv5TE (DSP without SXTB16/SMLAD) gets
#   m3           -mcpu=cortex-m3 -O2 on -M mps2-an385: the portable microcontroller kernels
#   m0-microbit  -mcpu=cortex-m0 -O2 on -M microbit (16 KiB of RAM): the random cases only,
#                smaller (MAC_ARM_SMALL), checked against host-small
#   m0plus-Os-microbit  -mcpu=cortex-m0plus -Os (the size build; the micro:bit's M0 runs the
#                same ARMv6-M code), the same cases
#   host, host-mcu, host-small  the native compiler: portable path; the microcontroller
#                kernels forced on; the MAC_ARM_SMALL case set
# Every build must select the wanted path (the test has an #error otherwise), pass every case,
# and print the same output digest as every other build of the same case set: bit-identical
# results across every path. The random cases use the seed ACCEL_TEST_SEED (default 1), printed
# by each build. Emulator run times say nothing about speed (scripts/bench_mcu.sh measures).
# A missing tool skips its builds (fails with ACCEL_REQUIRE_ALL=1). Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/mac_arm
mkdir -p "$B"
SEED=${ACCEL_TEST_SEED:-1}
echo "seed $SEED (set ACCEL_TEST_SEED to replay another)"

SRC=tests/arm/mac_arm_test.c
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror -DMAC_ARM_SEED=$SEED"
A64="-O2 -march=armv8.2-a+dotprod"
MF="-mthumb -mfloat-abi=soft"
MLINK="--specs=rdimon.specs -nostartfiles -L tests/arm -T mps2.ld tests/arm/m_startup.c"

# what each group of builds needs, as "why it is missing" (empty: all there)
QA64=qemu-aarch64
have qemu-aarch64 || QA64=qemu-aarch64-static
need_a64=""
have aarch64-linux-gnu-gcc || need_a64="$need_a64 aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu)"
[ -f /usr/aarch64-linux-gnu/include/stdio.h ] || need_a64="$need_a64 the arm64 C library (libc6-dev-arm64-cross)"
have $QA64 || need_a64="$need_a64 qemu-aarch64 (qemu-user)"
need_m=""
have arm-none-eabi-gcc || need_m="$need_m arm-none-eabi-gcc (gcc-arm-none-eabi)"
case "$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -print-file-name=librdimon.a 2>/dev/null)" in
    /*) ;; *) need_m="$need_m newlib's librdimon (libnewlib-arm-none-eabi)" ;;
esac
if ! have qemu-system-arm; then need_m="$need_m qemu-system-arm (qemu-system-arm)"
else
    boards=$(qemu-system-arm -M help 2>/dev/null)
    for m in mps2-an385 mps2-an386 mps2-an500 mps2-an505 microbit; do
        echo "$boards" | grep -q "^$m " || need_m="$need_m the $m board in qemu-system-arm"
    done
fi
need_clang=""
have clang || need_clang=" clang"

# build_run NAME WANT MCU: build with the command in $CMD (a string), run with $RUN_CMD plus the
# binary; writes $B/NAME.log and $B/NAME.res ("ok DIGEST" or "fail: why").
build_run() {
    local name=$1 want=$2 mcu=$3 log=$B/$1.log out rc line t0 t1 t2
    t0=$(date +%s)
    if ! eval "$CMD" >"$log" 2>&1; then echo "fail: build failed: $CMD" >"$B/$name.res"; return; fi
    t1=$(date +%s)
    out=$(timeout 120 $RUN_CMD "$B/$name" 2>&1); rc=$?
    t2=$(date +%s)
    echo "$out" >>"$log"
    echo "times: build $((t1 - t0)) s, run $((t2 - t1)) s (emulated: not a speed)" >>"$log"
    line=$(echo "$out" | tail -1)
    if [ $rc -ne 0 ] || ! echo "$line" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
        echo "fail: exit $rc, last line '$line'" >"$B/$name.res"
    elif ! echo "$out" | grep -q "^ACCEL_MAC_SIMD=$want .* ACCEL_MAC_MCU=$mcu seed $SEED$"; then
        echo "fail: the program did not report ACCEL_MAC_SIMD=$want, ACCEL_MAC_MCU=$mcu, seed $SEED" >"$B/$name.res"
    else
        echo "ok $(echo "$out" | sed -n 's/^digest \([0-9a-f]*\)$/\1/p')" >"$B/$name.res"
    fi
}

NAMES=""
SMALL_NAMES=""
jobs_max=$(nproc 2>/dev/null || echo 2)
start() { # NAME WANT MCU: launch build_run in the background, at most jobs_max at once
    case "$1" in *-small|*-microbit) SMALL_NAMES="$SMALL_NAMES $1" ;; *) NAMES="$NAMES $1" ;; esac
    rm -f "$B/$1.res" "$B/$1"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    build_run "$1" "$2" "$3" &
}

if [ -n "$need_a64" ]; then skip "AArch64 NEON sdot builds" "missing$need_a64"
else
    RUN_CMD="$QA64 -cpu max -L /usr/aarch64-linux-gnu"
    CMD="aarch64-linux-gnu-gcc $W $A64 -DMAC_ARM_WANT=3 -I. $SRC -o $B/a64-sdot"
    start a64-sdot 3 0
    CMD="aarch64-linux-gnu-gcc $W $A64 -DACCEL_MAC_NO_SIMD -DMAC_ARM_WANT=0 -I. $SRC -o $B/a64-nosimd"
    start a64-nosimd 0 0
    if [ -n "$need_clang" ]; then skip "a64-sdot-clang" "missing$need_clang"
    else
        CMD="clang $W $A64 --target=aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include -DMAC_ARM_WANT=3 -I. -c $SRC -o $B/a64-sdot-clang.o && aarch64-linux-gnu-gcc $B/a64-sdot-clang.o -o $B/a64-sdot-clang"
        start a64-sdot-clang 3 0
    fi
fi

if [ -n "$need_m" ]; then skip "Cortex-M builds" "missing$need_m"
else
    QM="qemu-system-arm -nographic -monitor none -serial none -semihosting-config enable=on,target=native"
    RUN_CMD="$QM -M mps2-an386 -kernel"
    M4="-mcpu=cortex-m4 $MF"
    CMD="arm-none-eabi-gcc $W -O2 $M4 -DMAC_ARM_WANT=4 -DMAC_ARM_MCU=1 -I. $MLINK $SRC -o $B/m4-dsp"
    start m4-dsp 4 1
    CMD="arm-none-eabi-gcc $W -O2 $M4 -DACCEL_MAC_NO_SIMD -DMAC_ARM_WANT=0 -DMAC_ARM_MCU=1 -I. $MLINK $SRC -o $B/m4-portable"
    start m4-portable 0 1
    if [ -n "$need_clang" ]; then skip "m4-dsp-clang" "missing$need_clang"
    else
        # -fshort-enums: the arm-none-eabi ABI newlib and the startup file are built for
        CMD="clang $W -O2 $M4 --target=thumbv7em-none-eabi -fshort-enums -isystem /usr/lib/arm-none-eabi/include -DMAC_ARM_WANT=4 -DMAC_ARM_MCU=1 -I. -c $SRC -o $B/m4-dsp-clang.o && arm-none-eabi-gcc $M4 $MLINK $B/m4-dsp-clang.o -o $B/m4-dsp-clang"
        start m4-dsp-clang 4 1
    fi
    CMD="arm-none-eabi-gcc $W -O2 $M4 -U__ARM_FEATURE_SIMD32 -DMAC_ARM_WANT=4 -DMAC_ARM_MCU=1 -I. $MLINK $SRC -o $B/m4-dsp-nosimd32"
    start m4-dsp-nosimd32 4 1
    RUN_CMD="$QM -M mps2-an500 -kernel"
    CMD="arm-none-eabi-gcc $W -Os -mcpu=cortex-m7 $MF -DMAC_ARM_WANT=4 -DMAC_ARM_MCU=1 -I. $MLINK $SRC -o $B/m7-dsp-Os"
    start m7-dsp-Os 4 1
    RUN_CMD="$QM -M mps2-an505 -kernel"
    CMD="arm-none-eabi-gcc $W -O2 -mcpu=cortex-m33 $MF -DMAC_ARM_WANT=4 -DMAC_ARM_MCU=1 -I. ${MLINK/mps2.ld/mps2_an505.ld} $SRC -o $B/m33-dsp"
    start m33-dsp 4 1
    RUN_CMD="$QM -M mps2-an385 -kernel"
    CMD="arm-none-eabi-gcc $W -O2 -mcpu=cortex-m3 $MF -DMAC_ARM_WANT=0 -DMAC_ARM_MCU=1 -I. $MLINK $SRC -o $B/m3"
    start m3 0 1
    RUN_CMD="$QM -M microbit -kernel"
    CMD="arm-none-eabi-gcc $W -O2 -mcpu=cortex-m0 $MF -DMAC_ARM_SMALL -DMAC_ARM_WANT=0 -DMAC_ARM_MCU=1 -I. ${MLINK/mps2.ld/microbit.ld} $SRC -o $B/m0-microbit"
    start m0-microbit 0 1
    CMD="arm-none-eabi-gcc $W -Os -mcpu=cortex-m0plus $MF -DMAC_ARM_SMALL -DMAC_ARM_WANT=0 -DMAC_ARM_MCU=1 -I. ${MLINK/mps2.ld/microbit.ld} $SRC -o $B/m0plus-Os-microbit"
    start m0plus-Os-microbit 0 1
fi

RUN_CMD=""
CMD="cc $W -O2 -DACCEL_MAC_NO_SIMD -DMAC_ARM_WANT=0 -I. $SRC -o $B/host"
start host 0 0
CMD="cc $W -O2 -DACCEL_MAC_NO_SIMD -DACCEL_MAC_MCU=1 -DMAC_ARM_WANT=0 -DMAC_ARM_MCU=1 -I. $SRC -o $B/host-mcu"
start host-mcu 0 1
CMD="cc $W -O2 -DACCEL_MAC_NO_SIMD -DMAC_ARM_SMALL -DMAC_ARM_WANT=0 -I. $SRC -o $B/host-small"
start host-small 0 0
wait

# check_group NAMES...: every build passed, and all printed the same digest
check_group() {
    local n res digests="" count=0
    for n in "$@"; do
        res=$(cat "$B/$n.res" 2>/dev/null || echo "fail: no result")
        case "$res" in
            "ok "?*) ok "$n"; echo "ok   $n (digest ${res#ok })"; digests="$digests ${res#ok }"; count=$((count + 1)) ;;
            *) bad "$n" "${res#fail: } (log: $B/$n.log)"; tail -15 "$B/$n.log" | sed 's/^/     | /' ;;
        esac
    done
    [ "$count" -gt 0 ] || return
    if [ "$(echo $digests | tr ' ' '\n' | sort -u | grep -c .)" = 1 ]; then
        ok "digest"; echo "ok   same output digest in all $count passing builds of: $*"
    else bad "digests" "differ between builds of $*:$digests"; fi
}
check_group $NAMES
check_group $SMALL_NAMES

# ARMv5TE has __ARM_FEATURE_DSP but not the SIMD32 instructions: path 4 must still compile
if have arm-none-eabi-gcc; then
    printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n#if ACCEL_MAC_SIMD != 4\n#error not path 4\n#endif\n' >"$B/v5te.c"
    if arm-none-eabi-gcc $W -Os -march=armv5te -marm -I. \
        -c "$B/v5te.c" -o "$B/v5te.o" >"$B/v5te.log" 2>&1; then ok "armv5te"; echo "ok   armv5te build of path 4 (compile only)"
    else bad "armv5te build of path 4"; sed 's/^/     | /' "$B/v5te.log" | head -10; fi
else skip "armv5te build" "missing arm-none-eabi-gcc (gcc-arm-none-eabi)"; fi
lib_end
