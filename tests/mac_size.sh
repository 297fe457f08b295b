#!/usr/bin/env bash
# mac_size.sh - code size of the mac kernels on cortex-m0plus -Os, each kernel linked alone
# (-ffunction-sections, --gc-sections), counted from arm-none-eabi-nm -S, in both builds:
#   fast   the default (ACCEL_MAC_FAST 1: the microcontroller kernels; the portable ones on an
#          M0+), limits: what CMSIS-NN's own kernels take on the M0+ (the yardstick): fully
#          connected 2.1 KiB (2150 bytes), conv2d 4.4 KiB (4505 bytes); the line also says
#          whether the kernel fits the smaller budget of the small build
#   small  ACCEL_MAC_FAST 0, the smallest loops: fully connected <= 1536 bytes, conv2d <= 3072
# No .data or .bss in either. The mac figure counts every mac function the kernel pulls in
# (checks, requantization); libgcc's helpers (__aeabi_lmul, shifts, division) are reported
# apart. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
if ! have arm-none-eabi-gcc; then skip "mac kernel sizes" "arm-none-eabi-gcc missing (gcc-arm-none-eabi)"; lib_end; exit; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
CF="-std=c99 -Os -mcpu=cortex-m0plus -mthumb -ffunction-sections -fdata-sections -I."
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' > "$T/impl.c"
cat > "$T/main.c" <<'EOC'
#include "accel.h"
void _start(void);
void _start(void)
{
#if defined(K_fc)
    accel_mac_fully_connected(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(K_conv2d)
    accel_mac_conv2d_with_scratch(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(K_depthwise)
    accel_mac_depthwise_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(K_pools)
    accel_mac_max_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
    accel_mac_average_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
#else
    accel_mac_fully_connected(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_conv2d_with_scratch(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_depthwise_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_max_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
    accel_mac_average_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
#endif
    for (;;) {}
}
EOC
# size BUILD NAME: prints "mac lib data" of kernel NAME linked alone in BUILD (fast, small)
size_of() {
    local build=$1 name=$2 def=""
    [ "$build" = small ] && def=-DACCEL_MAC_FAST=0
    arm-none-eabi-gcc $CF $def -c "$T/impl.c" -o "$T/impl_$build.o" 2>"$T/err" &&
    arm-none-eabi-gcc $CF $def -DK_$name -c "$T/main.c" -o "$T/main.o" 2>>"$T/err" &&
    arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -nostdlib -Wl,--gc-sections -Wl,-e,_start \
        "$T/main.o" "$T/impl_$build.o" -lgcc -o "$T/$name.elf" 2>>"$T/err" || return 1
    arm-none-eabi-nm -S "$T/$name.elf" | awk '
        NF == 4 { n = 0; for (i = 1; i <= length($2); i++) n = n * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
                  if ($3 ~ /[tT]/ && $4 ~ /mac/) m += n; else if ($3 ~ /[tT]/ && $4 != "_start") l += n
                  if ($3 ~ /[dDbB]/) d += n }
        END { print m + 0, l + 0, d + 0 }'
}
echo "mac kernels on cortex-m0plus -Os (arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion)), each linked alone, bytes"
for build in fast small; do
    for k in fc:2150:1536 conv2d:4505:3072 depthwise:0:0 pools:0:0 all:0:0; do
        name=${k%%:*}; rest=${k#*:}; big=${rest%%:*}; budget=${rest##*:}
        limit=$([ $build = fast ] && echo "$big" || echo "$budget")
        if ! r=$(size_of $build $name); then bad "$build $name" "build or link failed: $(head -3 "$T/err")"; continue; fi
        read -r mac lib data <<<"$r"
        note=""
        [ $build = fast ] && [ "$budget" -gt 0 ] &&
            note=$([ "$mac" -le "$budget" ] && echo ", within the small build's budget of $budget" || echo ", above the small build's budget of $budget")
        line=$(printf '%-5s %-10s mac .text %5d bytes  (+ libgcc %4d)  .data+.bss %d' $build $name "$mac" "$lib" "$data")
        if [ "$data" -ne 0 ] || { [ "$limit" -gt 0 ] && [ "$mac" -gt "$limit" ]; }; then
            echo "$line   FAIL (limit $limit)"; bad "$build $name" "$mac bytes, limit $limit, .data+.bss $data"
        else
            echo "$line   ok$([ "$limit" -gt 0 ] && echo " (<= $limit$note)")"; ok "$build $name"
        fi
    done
done
lib_end
