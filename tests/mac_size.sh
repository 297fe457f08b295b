#!/usr/bin/env bash
# mac_size.sh - code size of the mac kernels on cortex-m0plus -Os, each kernel linked alone
# (-ffunction-sections, --gc-sections), counted from arm-none-eabi-nm -S. Targets (issue 4):
# fully connected <= 1536 bytes of .text, conv2d <= 3072, no .data or .bss. The mac figure
# counts every mac function the kernel pulls in (checks, requantization); libgcc's 64-bit
# helpers (__aeabi_lmul, shifts, division) are reported apart. Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
pass=0; fail=0
if ! command -v arm-none-eabi-gcc >/dev/null; then echo "arm-none-eabi-gcc missing"; echo "0 passed, 1 failed"; exit 1; fi
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
    accel_mac_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(K_depthwise)
    accel_mac_depthwise_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
#elif defined(K_pools)
    accel_mac_max_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
    accel_mac_average_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
#else
    accel_mac_fully_connected(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_depthwise_conv2d(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    accel_mac_max_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
    accel_mac_average_pool2d(0, ACCEL_MAC_INT8, 0, 0, 0, 0, 0, 0);
#endif
    for (;;) {}
}
EOC
arm-none-eabi-gcc $CF -c "$T/impl.c" -o "$T/impl.o" || { echo "0 passed, 1 failed"; exit 1; }
for k in fc:1536 conv2d:3072 depthwise:0 pools:0 all:0; do
    name=${k%%:*}; limit=${k##*:}
    arm-none-eabi-gcc $CF -DK_$name -c "$T/main.c" -o "$T/main.o" &&
    arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -nostdlib -Wl,--gc-sections -Wl,-e,_start \
        "$T/main.o" "$T/impl.o" -lgcc -o "$T/$name.elf" || { fail=$((fail + 1)); continue; }
    read -r mac lib data < <(arm-none-eabi-nm -S "$T/$name.elf" | awk '
        NF == 4 { n = 0; for (i = 1; i <= length($2); i++) n = n * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
                  if ($3 ~ /[tT]/ && $4 ~ /mac/) m += n; else if ($3 ~ /[tT]/ && $4 != "_start") l += n
                  if ($3 ~ /[dDbB]/) d += n }
        END { print m + 0, l + 0, d + 0 }')
    printf '%-10s mac .text %5d bytes  (+ libgcc %4d)  .data+.bss %d' "$name" "$mac" "$lib" "$data"
    if [ "$data" -ne 0 ] || { [ "$limit" -gt 0 ] && [ "$mac" -gt "$limit" ]; }; then
        echo "   FAIL (limit $limit)"; fail=$((fail + 1))
    else
        [ "$limit" -gt 0 ] && echo "   ok (<= $limit)" || echo "   ok"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
