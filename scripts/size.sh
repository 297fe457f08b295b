#!/usr/bin/env bash
# scripts/size.sh - `make size`: code size of accel.h on cortex-m0plus -Os (arm-none-eabi-gcc),
# the whole header and each section alone (section = header with only that section, minus the
# common-only build), as a table; then the 12 largest functions of each section.
#   bash scripts/size.sh [CPU]      default CPU cortex-m0plus
set -u
cd "$(dirname "$0")/.."
CPU=${1:-cortex-m0plus}
CC=arm-none-eabi-gcc
command -v $CC >/dev/null || { echo "size: $CC not installed (bash scripts/setup.sh)"; exit 1; }
T=build/size
mkdir -p $T
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >$T/impl.c
SECTIONS="TSP1 EDGETPU REFSI ANE MAC"
F="-std=c99 -Os -mcpu=$CPU -mthumb -ffunction-sections -fdata-sections -I."
ALL_NO=""
for s in $SECTIONS; do ALL_NO="$ALL_NO -DACCEL_NO_$s"; done
sz() { arm-none-eabi-size "$1" | awk 'NR==2{print $1, $2, $3}'; }
$CC $F -c $T/impl.c -o $T/all.o || exit 1
$CC $F $ALL_NO -c $T/impl.c -o $T/common.o || exit 1
read -r ct cd cb <<<"$(sz $T/common.o)"
echo "accel.h on $CPU -Os (arm-none-eabi-gcc $($CC -dumpversion)); bytes"
printf '%-22s %8s %8s %8s\n' "part" ".text" ".data" ".bss"
read -r t d b <<<"$(sz $T/all.o)"
printf '%-22s %8s %8s %8s\n' "whole header" "$t" "$d" "$b"
printf '%-22s %8s %8s %8s\n' "common" "$ct" "$cd" "$cb"
for s in $SECTIONS; do
  alone=$(echo "$ALL_NO" | sed "s/ -DACCEL_NO_$s//")
  $CC $F $alone -c $T/impl.c -o $T/$s.o || exit 1
  read -r t d b <<<"$(sz $T/$s.o)"
  printf '%-22s %8s %8s %8s\n' "$(echo $s | tr A-Z a-z) (alone)" "$((t - ct))" "$((d - cd))" "$((b - cb))"
done
echo
for s in $SECTIONS; do
  low=$(echo $s | tr A-Z a-z)
  rows=$(arm-none-eabi-nm -S --size-sort -t d $T/$s.o | awk -v p="accel_${low}_|accel__${low}_" '$0 ~ p {printf "  %-44s %6d\n", $4, $2}' | tail -12 | sort -k2 -n -r)
  [ -n "$rows" ] && { echo "largest in $low:"; echo "$rows"; }
done
exit 0
