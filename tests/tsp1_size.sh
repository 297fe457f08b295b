#!/usr/bin/env bash
# tsp1_size.sh - code size of the TSP1 host driver + codec (everything but the device model) on
# cortex-m0plus -Os, as the size budget is defined: accel.h with every other section off,
# ACCEL_TSP1_NO_MODEL and ACCEL_NO_STATUS_STRINGS, minus the common-only build. Split by layer
# (wire = codec and decoder, bus, driver) from arm-none-eabi-nm -S. Fails when the total grows
# past LIMIT (the size reached, rounded up to 64 bytes; the budget is 3072), when .data/.bss is
# not 0, or when the section calls a libgcc helper the common section does not already pull in.
# Then reports what a firmware links for three uses of the driver (gc-sections). Ends with
# "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
LIMIT=${TSP1_SIZE_LIMIT:-5824}
pass=0; fail=0
ok() { echo "  ok   $*"; pass=$((pass + 1)); }
bad() { echo "  FAIL $*"; fail=$((fail + 1)); }
if ! command -v arm-none-eabi-gcc >/dev/null; then echo "arm-none-eabi-gcc missing"; echo "0 passed, 1 failed"; exit 1; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' > "$T/impl.c"
CF="-std=c99 -Os -mcpu=cortex-m0plus -mthumb -ffunction-sections -fdata-sections -I."
CF="$CF -DACCEL_NO_STATUS_STRINGS -DACCEL_TSP1_NO_MODEL"
OTHERS="-DACCEL_NO_EDGETPU -DACCEL_NO_REFSI -DACCEL_NO_ANE -DACCEL_NO_MAC"
arm-none-eabi-gcc $CF $OTHERS -c "$T/impl.c" -o "$T/tsp1.o" &&
arm-none-eabi-gcc $CF $OTHERS -DACCEL_NO_TSP1 -c "$T/impl.c" -o "$T/common.o" ||
    { echo "0 passed, 1 failed"; exit 1; }
sz() { arm-none-eabi-size "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }
read -r t d b <<<"$(sz "$T/tsp1.o")"
read -r ct cd cb <<<"$(sz "$T/common.o")"
text=$((t - ct)); data=$((d - cd + b - cb))
# per layer, from the symbols (their sum must be the whole delta: nothing unaccounted for)
read -r wire bus drv sum < <(arm-none-eabi-nm -S "$T/tsp1.o" | awk '
    NF == 4 && $4 ~ /tsp1/ {
        n = 0; for (i = 1; i <= length($2); i++) n = n * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
        if ($4 ~ /(encode|check_cmd|kind_of|error_status|nn_info|decoder|dec_|get16|put16|get32|put32)/ && $4 !~ /query/) w += n
        else if ($4 ~ /(xfer|reg_read|reg_write|tsp1_buf|irq_config|wake_pulse)/) b += n
        else d += n
        s += n }
    END { print w + 0, b + 0, d + 0, s + 0 }')
echo "tsp1 driver + codec on cortex-m0plus -Os (arm-none-eabi-gcc $(arm-none-eabi-gcc -dumpversion)), bytes of .text:"
printf '  wire (codec, decoder) %5d\n  bus                   %5d\n  driver                %5d\n  total                 %5d   (budget 3072, limit %d)\n' \
    "$wire" "$bus" "$drv" "$text" "$LIMIT"
[ "$sum" -eq "$text" ] && ok "symbols account for every byte ($sum)" || bad "symbols sum to $sum, delta is $text"
[ "$text" -le "$LIMIT" ] && ok ".text $text <= $LIMIT" || bad ".text $text > $LIMIT"
[ "$data" -eq 0 ] && ok ".data + .bss 0" || bad ".data + .bss $data (state belongs in the caller's struct)"
# libgcc helpers the tsp1 code calls that the common section does not already need
helpers() { arm-none-eabi-objdump -r "$1" | awk -v want="$2" '
    /^RELOCATION RECORDS FOR/ { sec = $4 }
    $3 ~ /^__aeabi_|^__(u?div|u?mod|ashl|lshr|mul|clz|ctz|popcount)/ && (want == "" || sec ~ want) { print $3 }' | sort -u; }
extra=$(comm -23 <(helpers "$T/tsp1.o" tsp1) <(helpers "$T/common.o" ""))
[ -z "$extra" ] && ok "no libgcc helper beyond common's ($(helpers "$T/tsp1.o" tsp1 | tr '\n' ' '))" ||
    bad "libgcc helpers only tsp1 needs: $extra"
# What a firmware links (-ffunction-sections, --gc-sections) for three uses of the driver: the
# object total above counts every public function, used or not.
cat > "$T/app.c" <<'EOC'
#include "accel.h"
void _start(void);
static void on_async(void *u, const accel_tsp1_frame *f) { (void)u; (void)f; }
void _start(void)
{
    static accel_tsp1 s; static accel_tsp1_config c; static accel_tsp1_nn_info in;
    uint8_t n; size_t l;
    c.on_async = on_async;
    accel_tsp1_init(&s, &c);
    accel_tsp1_submit(&s, ACCEL_TSP1_ECHO, 0, 0, 0);
    accel_tsp1_poll(&s);
    accel_tsp1_call(&s, ACCEL_TSP1_ECHO, 0, 0, 0, 0, &l, 5);
#if APP >= 2
    accel_tsp1_wait_ready(&s, 1); accel_tsp1_reboot(&s, 1);
    accel_tsp1_nn_scan(&s, &n, 1); accel_tsp1_nn_query(&s, 0, &in, 1);
    accel_tsp1_nn_control(&s, ACCEL_TSP1_NN_START, 1, 1);
#endif
#if APP >= 3
    accel_tsp1_sleep(&s, 1); accel_tsp1_wake(&s, 1);
    { static accel_tsp1_update u; accel_tsp1_update_run(&s, &u, 1); }
    { uint16_t a, b, d; accel_tsp1_async_take(&s, &a, &b, &d); }
    accel_tsp1_irq_config(&s.bus, 1, 0, 1);
#endif
    for (;;) {}
}
EOC
echo "linked into a firmware (tsp1 + the common functions it calls + libc/libgcc memcpy, memset, division):"
for a in "1:commands (open, submit, poll, call; async by callback)" \
         "2:+ wait_ready, reboot, nn_scan, nn_query, nn_control" \
         "3:+ sleep, wake, secure update, async queue, irq_config"; do
    arm-none-eabi-gcc $CF $OTHERS -DAPP=${a%%:*} -c "$T/app.c" -o "$T/app.o" &&
    arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -nostdlib -Wl,--gc-sections -Wl,-e,_start \
        "$T/app.o" "$T/tsp1.o" -lc -lgcc -o "$T/app.elf" || { bad "link app ${a%%:*}"; continue; }
    arm-none-eabi-nm -S "$T/app.elf" | awk -v what="${a#*:}" '
        NF == 4 && $3 ~ /[tT]/ && $4 != "_start" && $4 != "on_async" {
            n = 0; for (i = 1; i <= length($2); i++) n = n * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
            if ($4 ~ /tsp1/) t += n; else if ($4 ~ /^accel/) c += n; else l += n }
        END { printf "  %-56s tsp1 %4d  common %4d  libc/libgcc %4d\n", what, t, c, l }'
done
# The state lives in the caller's structs: their sizes on this target (and on 8-bit AVR), read
# from the symbol sizes of arrays declared as large as each struct.
cat > "$T/sizes.c" <<'EOC'
#include "accel.h"
char sz_accel_tsp1[sizeof(accel_tsp1)], sz_accel_tsp1_decoder[sizeof(accel_tsp1_decoder)],
    sz_accel_tsp1_pending[sizeof(accel_tsp1_pending)], sz_accel_tsp1_config[sizeof(accel_tsp1_config)],
    sz_accel_tsp1_bus[sizeof(accel_tsp1_bus)], sz_accel_tsp1_update[sizeof(accel_tsp1_update)],
    sz_accel_tsp1_frame[sizeof(accel_tsp1_frame)];
EOC
sizes() { "$1" -std=c99 -fno-common -I. $2 -c "$T/sizes.c" -o "$T/sizes.o" 2>/dev/null &&
    "${1%gcc}nm" -S "$T/sizes.o" | awk '$4 ~ /^sz_/ { n = 0
        for (i = 1; i <= length($2); i++) n = n * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
        printf "%s=%d ", substr($4, 4), n }'; }
echo "caller-owned state, bytes (sizeof):"
m0=$(sizes arm-none-eabi-gcc "-mcpu=cortex-m0plus -mthumb")
echo "  cortex-m0plus: $m0"
case "$m0" in *accel_tsp1=*) ok "struct sizes printed" ;; *) bad "struct sizes not computed" ;; esac
command -v avr-gcc >/dev/null && echo "  atmega328p:    $(sizes avr-gcc "-mmcu=atmega328p")"
echo "  plus the caller's memory block, ACCEL_TSP1_DRIVER_MEM(depth, cmd, rsp): pending table"
echo "  (depth x accel_tsp1_pending), tx (24 + largest command payload: the frame and its marker),"
echo "  rx (12 + largest response payload), 3 bytes of alignment slack"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
