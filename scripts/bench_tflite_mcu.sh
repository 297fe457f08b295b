#!/usr/bin/env bash
# scripts/bench_tflite_mcu.sh - executed instructions per inference of the shared .tflite models
# on an emulated Cortex-M4 (qemu-system-arm -icount, the `make bench-mcu` method: SysTick
# calibrated on a loop of known length; INSTRUCTIONS, not cycles), the default build (the
# microcontroller kernels with the DSP extension), the same without SIMD, and with
# ACCEL_MAC_FAST 0 (the plain loops) in the same way, each checked against TFLM's output.
# Anchor: TFLM @ 90b983c2 measured the same way, arm-none-eabi-gcc 12.2, counted around Invoke:
# person_detect 22.93 M instructions with CMSIS-NN kernels, 95.66 M with its reference kernels.
# The models come from $ACCEL_TFLITE_DATA, else ../shared/data/tflite (third-party: a header
# generated into build/, never committed). Usage: bash scripts/bench_tflite_mcu.sh
set -u
cd "$(dirname "$0")/.."
for t in arm-none-eabi-gcc qemu-system-arm xxd; do
    command -v $t >/dev/null || { echo "bench-tflite-mcu: $t not installed (bash scripts/setup.sh)"; exit 1; }
done
D=${ACCEL_TFLITE_DATA:-../shared/data/tflite}
[ -f "$D/goldens.tsv" ] || { echo "bench-tflite-mcu: no $D/goldens.tsv (third-party data absent)"; exit 0; }
B=build/bench_tflite_mcu
mkdir -p $B
# one case per model: its first line in goldens.tsv that is a single invocation
H=$B/tflite_bench_data.h
{
    echo "typedef struct bench_model { const char *name; const uint8_t *model; size_t len; const uint8_t *in;"
    echo "    size_t in_len; const uint8_t *out; size_t out_len; } bench_model;"
    n=0
    names=""
    while IFS=$'\t' read -r model cs input output _; do
        [ "$model" = model ] && continue
        case "$input" in *+cases/*) continue ;; esac
        case " $names " in *" $model "*) continue ;; esac
        names="$names $model"
        for part in model:"$D/$model.tflite" in:"$D/$input" out:"$D/$output"; do
            echo "static const uint8_t b${n}_${part%%:*}[] = {"
            xxd -i < "${part#*:}"
            echo "};"
        done
        n=$((n + 1))
    done < "$D/goldens.tsv"
    echo "static const bench_model bench_models[] = {"
    i=0
    for m in $names; do
        echo "    {\"$m\", b${i}_model, sizeof b${i}_model, b${i}_in, sizeof b${i}_in, b${i}_out, sizeof b${i}_out},"
        i=$((i + 1))
    done
    echo "};"
} > $H
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
QM="qemu-system-arm -nographic -monitor none -serial none -semihosting-config enable=on,target=native -icount shift=7"
SRC="scripts/bench/mcu/bench_tflite_mcu.c scripts/bench/mcu/mcu_start.c"
: >$B/rows.txt
for label in fast portable small; do
    case $label in fast) f="" ;; portable) f="-DACCEL_MAC_NO_SIMD" ;; small) f="-DACCEL_MAC_FAST=0" ;; esac
    elf=$B/m4-$label.elf
    if ! arm-none-eabi-gcc $W -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=soft $f -ffunction-sections -fdata-sections \
        -Wl,--gc-sections -nostartfiles -Wl,-e,mcu_reset -L tests/arm -T mps2.ld -I. -I$B $SRC -o "$elf" -lc -lgcc -lm \
        >$B/m4-$label.log 2>&1; then
        echo "build failed: m4 $label (log $B/m4-$label.log)"; exit 1
    fi
    out=$(timeout 1200 $QM -M mps2-an386 -kernel "$elf" 2>&1) || { echo "run failed: m4 $label: $(echo "$out" | tail -2)"; exit 1; }
    echo "$out" | sed -n "s/^row /$label /p" >>$B/rows.txt
done
echo "accel tflite: EXECUTED INSTRUCTIONS per inference on Cortex-M4 (mps2-an386), qemu-system-arm"
echo "$(qemu-system-arm --version | head -1 | sed 's/ (.*//'), -icount shift=7, arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion) -O2."
echo "fast = default build (MCU kernels + DSP); portable = ACCEL_MAC_NO_SIMD; small = ACCEL_MAC_FAST 0"
echo "(plain loops). exact: output equals TFLM's. TFLM anchor (same method): person_detect 22.93 M"
echo "with CMSIS-NN, 95.66 M with reference kernels."
printf '%-24s %14s %14s %14s %8s %6s\n' model fast portable small arena exact
awk '{ v[$2","$1] = $3; a[$2] = $4; e[$2] = e[$2] $5; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
     END { for (i = 0; i < n; i++) { m = order[i]
             printf "%-24s %14s %14s %14s %8s %6s\n", m, v[m",fast"], v[m",portable"], v[m",small"], a[m], (e[m] == "111" ? "yes" : "NO") } }' $B/rows.txt
