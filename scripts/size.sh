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
MCU="$NS -DACCEL_TSP1_NO_MODEL -DACCEL_EDGETPU_NO_DISASM -DACCEL_EDGETPU_NO_DEVMODEL"
$CC $F $MCU -c $T/impl.c -o $T/mcu.o || exit 1
read -r t d b <<<"$(sz $T/mcu.o)"
printf '%-22s %8s %8s %8s   (%s)\n' "whole, MCU options" "$t" "$d" "$b" "$MCU"
echo
for s in $SECTIONS; do
  low=$(echo $s | tr A-Z a-z)
  rows=$(arm-none-eabi-nm -S --size-sort -t d $T/$s.o | awk -v p="accel_${low}_|accel__${low}_" '$0 ~ p {printf "  %-44s %6d\n", $4, $2}' | tail -12 | sort -k2 -n -r)
  [ -n "$rows" ] && { echo "largest in $low:"; echo "$rows"; }
done
# per-section detail reports (also run by make test, where they enforce their limits)
for r in tests/tsp1_size.sh tests/mac_size.sh; do echo; echo "== $r"; bash "$r"; done
exit 0
