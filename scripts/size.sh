#!/usr/bin/env bash
# scripts/size.sh - `make size`: code size of accel.h on cortex-m0plus -Os (arm-none-eabi-gcc),
# the whole header and each section alone (section = header with only that section, minus the
# common-only build), as a table, with status strings and without (ACCEL_NO_STATUS_STRINGS, what
# a flash-tight build uses); then the 12 largest functions of each section.
#   bash scripts/size.sh [CPU]      default CPU cortex-m0plus
set -u
cd "$(dirname "$0")/.."
CPU=${1:-cortex-m0plus}
CC=arm-none-eabi-gcc
command -v $CC >/dev/null || { echo "size: $CC not installed (bash scripts/setup.sh)"; exit 1; }
T=build/size
mkdir -p $T
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >$T/impl.c
SECTIONS="TSP1 EDGETPU REFSI ANE MAC TFLITE"
F="-std=c99 -Os -mcpu=$CPU -mthumb -ffunction-sections -fdata-sections -I."
ALL_NO=""
for s in $SECTIONS; do ALL_NO="$ALL_NO -DACCEL_NO_$s"; done
sz() { arm-none-eabi-size "$1" | awk 'NR==2{print $1, $2, $3}'; }
NS=-DACCEL_NO_STATUS_STRINGS
$CC $F -c $T/impl.c -o $T/all.o || exit 1
$CC $F $NS -c $T/impl.c -o $T/all_ns.o || exit 1
$CC $F $ALL_NO -c $T/impl.c -o $T/common.o || exit 1
$CC $F $NS $ALL_NO -c $T/impl.c -o $T/common_ns.o || exit 1
read -r ct cd cb <<<"$(sz $T/common.o)"
read -r cnt _ _ <<<"$(sz $T/common_ns.o)"
echo "accel.h on $CPU -Os (arm-none-eabi-gcc $($CC -dumpversion)); bytes"
printf '%-22s %8s %8s %8s %18s\n' "part" ".text" ".data" ".bss" ".text (no strings)"
read -r t d b <<<"$(sz $T/all.o)"
read -r tn _ _ <<<"$(sz $T/all_ns.o)"
printf '%-22s %8s %8s %8s %18s\n' "whole header" "$t" "$d" "$b" "$tn"
printf '%-22s %8s %8s %8s %18s\n' "common" "$ct" "$cd" "$cb" "$cnt"
for s in $SECTIONS; do
  alone=$(echo "$ALL_NO" | sed "s/ -DACCEL_NO_$s//")
  bt=$ct bd=$cd bb=$cb bn=$cnt
  if [ "$s" = TFLITE ]; then # it runs on mac: the row is what it adds to mac alone
    alone=$(echo "$alone" | sed "s/ -DACCEL_NO_MAC//")
    read -r bt bd bb <<<"$(sz $T/MAC.o)"
    read -r bn _ _ <<<"$(sz $T/MAC_ns.o)"
  fi
  $CC $F $alone -c $T/impl.c -o $T/$s.o || exit 1
  $CC $F $NS $alone -c $T/impl.c -o $T/${s}_ns.o || exit 1
  read -r t d b <<<"$(sz $T/$s.o)"
  read -r tn _ _ <<<"$(sz $T/${s}_ns.o)"
  label="$(echo $s | tr A-Z a-z) (alone)"
  [ "$s" = TFLITE ] && label="tflite (over mac)"
  printf '%-22s %8s %8s %8s %18s\n' "$label" "$((t - bt))" "$((d - bd))" "$((b - bb))" "$((tn - bn))"
done
# what an MCU build leaves out: device models, the disassembler, status strings
MCU="$NS -DACCEL_TSP1_NO_MODEL -DACCEL_EDGETPU_NO_DISASM -DACCEL_EDGETPU_NO_MODEL"
$CC $F $MCU -c $T/impl.c -o $T/mcu.o || exit 1
read -r t d b <<<"$(sz $T/mcu.o)"
printf '%-22s %8s %8s %8s   (%s)\n' "whole, MCU options" "$t" "$d" "$b" "$MCU"
# the tflite runner linked into a program (gc-sections), what a model's build carries: with no
# operator, with hello_world_int8's one (FULLY_CONNECTED) and with all; the soft-float share is
# what deriving the multipliers from the float scales costs on a core without an FPU
cat >$T/tfl_main.c <<'CEOF'
#define ACCEL_IMPLEMENTATION
#define ACCEL_NO_TSP1
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_STATUS_STRINGS
#include "accel.h"
const uint8_t model_bytes[4] = {0};
static uint32_t arena[512];
int main(void);
int main(void)
{
    accel_tflite_model m;
    accel_tflite rt;
    static uint8_t in[1], out[1];
    size_t need, got;
    accel_status st = accel_tflite_open(&m, model_bytes, sizeof model_bytes);
    if (st == ACCEL_OK) st = accel_tflite_plan(&m, arena, sizeof arena, &need);
    if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, sizeof arena);
    if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, in, 1);
    if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);
    if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, 1, &got);
    return (int)st;
}
CEOF
printf 'int main(void);\nint main(void) { return 0; }\n' >$T/empty.c
LK="-Os -mcpu=$CPU -mthumb -ffunction-sections -fdata-sections -Wl,--gc-sections --specs=nano.specs --specs=nosys.specs -I."
if $CC $LK $T/empty.c -o $T/empty.elf 2>/dev/null; then
  e=$(arm-none-eabi-size $T/empty.elf | awk 'NR==2{print $1}')
  echo
  echo "tflite linked into a program ($CPU -Os, gc-sections, no status strings), .text over an empty program:"
  for ops in "0:no operator (runner, planner, reader)" "ACCEL_TFLITE_K_FULLY_CONNECTED:hello_world_int8 (FULLY_CONNECTED)" "ACCEL_TFLITE_K_ALL:every operator"; do
    $CC $LK "-DACCEL_TFLITE_OPS=(${ops%%:*})" $T/tfl_main.c -o $T/tfl.elf || exit 1
    t=$(arm-none-eabi-size $T/tfl.elf | awk 'NR==2{print $1}')
    sf=$(arm-none-eabi-nm -S -t d $T/tfl.elf | awk '$4 ~ /^__aeabi_[df]|[ds]f[23]$|^__(le|ge|eq|ne|lt|gt|unord)[ds]f/ {s += $2} END {print s + 0}')
    printf '  %-44s %7s  (soft float/double %s)\n' "${ops#*:}" "$((t - e))" "$sf"
  done
  # per model: the runner with exactly the kernels the model's operators need (ACCEL_TFLITE_OPS
  # from accel-run --info), on this CPU and on Cortex-M4 (the core TFLM's flash figures are for),
  # -Os and -O2 (the build make bench-mcu counts instructions of)
  D=${ACCEL_TFLITE_DATA:-../shared/data/tflite}
  if [ -f "$D/goldens.tsv" ] && make -s build/accel-run >/dev/null 2>&1; then
    echo
    echo "tflite per model (runner + the model's kernels, gc-sections, no status strings), .text over an empty program:"
    printf '  %-24s %18s %14s %14s  %s\n' model "$CPU -Os" "cortex-m4 -Os" "cortex-m4 -O2" operators
    for f in "$D"/*.tflite; do
      ops=$(build/accel-run "$f" --info 2>/dev/null | awk '$1 == "op" {print $3}' | sort -u)
      [ -n "$ops" ] || continue
      mask=0
      for o in $ops; do mask="$mask|ACCEL_TFLITE_K_$o"; done
      row=""
      for c in "$CPU:-Os" cortex-m4:-Os cortex-m4:-O2; do
        LKC="${c#*:} -mcpu=${c%%:*} -mthumb -ffunction-sections -fdata-sections -Wl,--gc-sections --specs=nano.specs --specs=nosys.specs -I."
        ec=$($CC $LKC $T/empty.c -o $T/empty_c.elf 2>/dev/null && arm-none-eabi-size $T/empty_c.elf | awk 'NR==2{print $1}')
        if $CC $LKC "-DACCEL_TFLITE_OPS=($mask)" $T/tfl_main.c -o $T/tfl_m.elf 2>/dev/null; then
          row="$row $(( $(arm-none-eabi-size $T/tfl_m.elf | awk 'NR==2{print $1}') - ec ))"
        else row="$row -"; fi
      done
      read -r a b c <<<"$row"
      printf '  %-24s %18s %14s %14s  %s\n' "$(basename "$f" .tflite)" "$a" "$b" "$c" "$(echo $ops | tr ' ' ,)"
    done
  fi
fi
echo
for s in $SECTIONS; do
  low=$(echo $s | tr A-Z a-z)
  rows=$(arm-none-eabi-nm -S --size-sort -t d $T/$s.o | awk -v p="accel_${low}_|accel__${low}_" '$0 ~ p {printf "  %-44s %6d\n", $4, $2}' | tail -12 | sort -k2 -n -r)
  [ -n "$rows" ] && { echo "largest in $low:"; echo "$rows"; }
done
# per-section detail reports (also run by make test, where they enforce their limits)
for r in tests/tsp1_size.sh tests/mac_size.sh; do echo; echo "== $r"; bash "$r"; done
exit 0
