#!/usr/bin/env bash
# tflite_arm.sh - the tflite section's golden cases EXECUTED on emulated Cortex-M cores
# (tests/arm/tflite_arm_test.c under qemu-system-arm, newlib rdimon semihosting reading the
# shared data from the host): every case's output and every layer byte for byte, as on the host.
#   m4-dsp        -mcpu=cortex-m4 -O2 on mps2-an386: the default build (the microcontroller kernels
#                 with the DSP extension); all 63 cases must run and match
#   m4-portable   the same with ACCEL_MAC_NO_SIMD (the portable microcontroller kernels)
#   m3            -mcpu=cortex-m3 -O2 on mps2-an385
#   m0plus-Os     -mcpu=cortex-m0plus -Os on -M microbit (16 KiB of RAM: the models whose model,
#                 arena and output fit, hello_world_int8 and network_tester, 11 cases)
#   m0plus-far    the same with ACCEL_FB_COPY (the model read only through the copy macro)
# Needs the TFLM goldens ($ACCEL_TFLITE_DATA, else ../shared/data/tflite): skipped by name without.
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/tflite_arm
mkdir -p "$B"
D=$(data_dir tflite ACCEL_TFLITE_DATA) || { skip "tflite on Cortex-M" "third-party data absent (no ../shared/data/tflite; ACCEL_TFLITE_DATA overrides it)"; lib_end; exit $?; }
D=$(cd "$D" && pwd)
for t in arm-none-eabi-gcc qemu-system-arm; do
    have $t || { skip "tflite on Cortex-M" "$t not installed"; lib_end; exit $?; }
done
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
L="--specs=rdimon.specs -nostartfiles -L tests/arm tests/arm/m_startup.c"
QM="qemu-system-arm -nographic -monitor none -serial none -semihosting-config enable=on,target=native"
SRC="tests/arm/tflite_arm_test.c -DTFL_DATA=\"$D\""

run() { # name board want_pass cc-flags...
    local name=$1 board=$2 want=$3 out line
    shift 3
    if ! arm-none-eabi-gcc $W -I. "$@" $L $SRC -o "$B/$name" >"$B/$name.log" 2>&1; then
        bad "$name: build" "$(head -c 400 "$B/$name.log")"; return
    fi
    out=$(timeout 300 $QM -M "$board" -kernel "$B/$name" 2>&1)
    echo "$out" >>"$B/$name.log"
    line=$(echo "$out" | tail -1)
    if [ "$line" = "$want passed, 0 failed" ]; then ok "$name: $line"
    else bad "$name" "last line '$line' (want '$want passed, 0 failed'; $B/$name.log)"; fi
}
run m4-dsp mps2-an386 63 -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -T mps2.ld
run m4-portable mps2-an386 63 -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -DACCEL_MAC_NO_SIMD -T mps2.ld
run m3 mps2-an385 63 -O2 -mcpu=cortex-m3 -mthumb -mfloat-abi=soft -T mps2.ld
run m0plus-Os microbit 11 -Os -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft -DTFL_MAX_MODEL=3000u \
    -DTFL_MAX_ARENA=2048u -DTFL_MAX_OUT=300u -T microbit.ld
# the same 11 cases with every model byte read through ACCEL_FB_COPY (the models-in-flash paths)
run m0plus-far microbit 11 -Os -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft -DTFL_MAX_MODEL=3000u \
    -DTFL_MAX_ARENA=2048u -DTFL_MAX_OUT=300u -T microbit.ld "-DACCEL_FB_COPY(d,s,n)=__builtin_memcpy((d),(s),(n))"
lib_end
