#!/usr/bin/env bash
# tsp1_tool.sh - accel-tsp1 on the simulated TSP1: echo, info, start/stop with mask checks,
# a secure update from a file (and a refused one), spidev that does not exist, bad usage.
cd "$(dirname "$0")/.." || exit 1
P=build/accel-tsp1
[ -x "$P" ] || make -s "$P" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
pass=0 fail=0
check() { # name, want exit code, want output substring, command...
    local name=$1 want_rc=$2 want=$3; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" = "$want_rc" ] && [[ "$out" == *"$want"* ]]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL $name: rc=$rc out=$out"; fi
}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# 10 chunks of 144 bytes; the simulated device accepts an image whose last 4 bytes are the
# CRC-32 (LE) of the rest, which is what gzip's trailer starts with
head -c 1436 /dev/zero | tr '\0' 'A' >"$T/img.bin"
gzip -c "$T/img.bin" | tail -c 8 | head -c 4 >>"$T/img.bin"
head -c 1440 /dev/zero | tr '\0' 'A' >"$T/unsigned.bin"  # the same size, no valid CRC
head -c 100 /dev/zero >"$T/bad.bin"                  # not k x 144
check echo 0 "echo: hello tsp1" $P echo "hello tsp1"
check ready 0 "async 0xA001 tid 0" $P echo x
check info 0 "net 3: 4 total, 1 in (buffer 10), 1 out (buffer 11), stopped" $P info
check start 0 "start 0x3: ok" $P start 0x3
check stop 0 "stop 0xf: ok" $P stop 0xf
check start-mask 1 "ACCEL_E_TSP1_MASK" $P start 0x10
check update 0 "update done" $P update "$T/img.bin"
check update-progress 0 "update 1440 / 1440 bytes" $P update "$T/img.bin"
check update-bad 1 "bad.bin: 100 bytes, not a whole number of 144-byte NVM chunks" $P update "$T/bad.bin"
check update-unsigned 1 "update: ACCEL_E_TSP1_ERR_CRYPT" $P update "$T/unsigned.bin"
check update-missing 1 "No such file" $P update "$T/none.bin"
check spidev 1 "/dev/spidev99.0: ACCEL_E_NO_DEVICE" $P --spidev 99.0 echo x
check usage 2 "usage:" $P
check usage-cmd 2 "usage:" $P frobnicate
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
