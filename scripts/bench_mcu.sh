#!/usr/bin/env bash
# scripts/bench_mcu.sh - `make bench-mcu`: instructions per MAC of the mac kernels on emulated
# Cortex-M cores, next to a plain reference loop built the same way and run in the same program
# (scripts/bench/mcu/bench_mac_mcu.c), with CMSIS-NN's figures as the external anchor. It counts EXECUTED INSTRUCTIONS, not cycles: qemu-system-arm -icount advances virtual
# time by a fixed step per instruction and SysTick, clocked from it, is calibrated on a loop of
# known length. An in-order core's proxy, blind to wait states, multi-cycle loads and stalls.
#   cores   M0 (-M microbit), M3 (mps2-an385), M4 (mps2-an386), M33 (mps2-an505)
#   paths   fast      the default build (ACCEL_MAC_FAST 1: the microcontroller kernels; DSP on
#                     M4/M33), arm-none-eabi-gcc -O2
#           portable  M4/M33 with ACCEL_MAC_NO_SIMD: the portable C kernels on a DSP core
#           fast-Os   M0 built with -Os (what its size figures are measured on)
#           small     ACCEL_MAC_FAST 0, the smallest loops
#   ops     int8, per-channel requantization, symmetric filters (the shapes CMSIS-NN was measured on)
#   bash scripts/bench_mcu.sh [m0 m3 m4 m33]
set -u
cd "$(dirname "$0")/.."
for t in arm-none-eabi-gcc qemu-system-arm; do
    command -v $t >/dev/null || { echo "bench-mcu: $t not installed (bash scripts/setup.sh)"; exit 1; }
done
B=build/bench_mcu
mkdir -p $B
CORES=${*:-m0 m3 m4 m33}
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
QM="qemu-system-arm -nographic -monitor none -serial none -semihosting-config enable=on,target=native -icount shift=7"
SRC="scripts/bench/mcu/bench_mac_mcu.c scripts/bench/mcu/mcu_start.c"

# CMSIS-NN's figures measured the same way (arm-none-eabi-gcc 12.2 -O2, bit-exact
# with TFLite): M4 with the DSP extension, M3 portable C
anchor() { # core op
    case "$1:$2" in
        m4:fc) echo 2.08 ;; m4:conv3x3) echo 2.33 ;; m4:dw3x3) echo 8.07 ;; m4:conv1x1) echo 2.70 ;;
        m3:fc) echo 3.53 ;; m3:conv3x3) echo 3.35 ;; m3:dw3x3) echo 9.64 ;; m3:conv1x1) echo 3.66 ;;
        *) echo - ;;
    esac
}

run() { # core cpu ld board label flags...
    local core=$1 cpu=$2 ld=$3 board=$4 label=$5 elf out
    shift 5
    elf=$B/$core-$label.elf
    if ! arm-none-eabi-gcc $W -mcpu=$cpu -mthumb -mfloat-abi=soft "$@" -ffunction-sections \
        -fdata-sections -Wl,--gc-sections -nostartfiles -Wl,-e,mcu_reset -L tests/arm -T $ld -I. \
        $SRC -o "$elf" -lc -lgcc >"$B/$core-$label.log" 2>&1; then
        echo "build failed: $core $label (log $B/$core-$label.log)"; return 1
    fi
    out=$(timeout 300 $QM -M "$board" -kernel "$elf" 2>&1) || {
        echo "run failed: $core $label: $(echo "$out" | tail -2)"; return 1; }
    echo "$out" | sed -n "s/^row /$core $label /p" >>$B/rows.txt
}

: >$B/rows.txt
fail=0
for c in $CORES; do
    case $c in
    m0) run m0 cortex-m0 microbit.ld microbit fast -O2 || fail=1
        run m0 cortex-m0 microbit.ld microbit fast-Os -Os || fail=1
        run m0 cortex-m0 microbit.ld microbit small -O2 -DACCEL_MAC_FAST=0 || fail=1 ;;
    m3) run m3 cortex-m3 mps2.ld mps2-an385 fast -O2 || fail=1
        run m3 cortex-m3 mps2.ld mps2-an385 small -O2 -DACCEL_MAC_FAST=0 || fail=1 ;;
    m4) run m4 cortex-m4 mps2.ld mps2-an386 fast -O2 || fail=1
        run m4 cortex-m4 mps2.ld mps2-an386 portable -O2 -DACCEL_MAC_NO_SIMD || fail=1
        run m4 cortex-m4 mps2.ld mps2-an386 small -O2 -DACCEL_MAC_FAST=0 || fail=1 ;;
    m33) run m33 cortex-m33 mps2_an505.ld mps2-an505 fast -O2 || fail=1
         run m33 cortex-m33 mps2_an505.ld mps2-an505 portable -O2 -DACCEL_MAC_NO_SIMD || fail=1
         run m33 cortex-m33 mps2_an505.ld mps2-an505 small -O2 -DACCEL_MAC_FAST=0 || fail=1 ;;
    *) echo "unknown core $c (m0 m3 m4 m33)"; fail=1 ;;
    esac
done

echo "accel mac kernels: EXECUTED INSTRUCTIONS per MAC (lower is better; not cycles), qemu-system-arm"
echo "$(qemu-system-arm --version | head -1 | sed 's/ (.*//'), -icount shift=7, arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion)."
echo "int8 per-channel: fc 256->64 batch 1; conv3x3 16x16x16->16 SAME; dw3x3 16x16x32 SAME;"
echo "conv1x1 16x16x32->32; maxpool2x2 stride 2 16x16x32 and avgpool3x3 SAME 16x16x32, counted per"
echo "window tap (pools have no multiplies; no CMSIS-NN anchor was measured for them)."
echo "'ref' is a plain reference loop in the same program; 'CMSIS-NN' is"
echo "the external anchor (M4 with DSP, M3 portable C), measured the same way."
echo "'exact': the engine's output equals the reference loop's."
printf '%-5s %-10s %-11s %8s %8s %9s  %s\n' core path op accel ref CMSIS-NN check
awk '{print}' $B/rows.txt | while read -r core label op path e r ex; do
    a=$(anchor "$core" "$op")
    chk=$([ "$ex" = 1 ] && echo exact || echo DIFFERS)
    if [ "$a" != - ] && [ "$label" = fast ]; then
        chk="$chk, $(awk -v e="$e" -v a="$a" 'BEGIN { print (e / 100 <= a ? "<= CMSIS-NN" : "ABOVE CMSIS-NN") }')"
    fi
    printf '%-5s %-10s %-11s %8.2f %8.2f %9s  %s\n' "$core" "$label" "$op" \
        "$(awk -v v="$e" 'BEGIN{print v/100}')" "$(awk -v v="$r" 'BEGIN{print v/100}')" "$a" "$chk"
done
grep -q " 0$" $B/rows.txt && fail=1
exit $fail
