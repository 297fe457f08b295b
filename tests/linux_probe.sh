#!/usr/bin/env bash
# linux_probe.sh - accel-linux-probe against devices that do not exist here: every bus must
# report ACCEL_E_NO_DEVICE with errno 2 (or libusb -4) and exit 1; bad usage exits 2.
. "$(dirname "$0")/lib.sh"
P=build/accel-linux-probe
[ -x "$P" ] || make -s "$P" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
check spi 1 "open: ACCEL_E_NO_DEVICE: no such device (errno 2:" $P spi 99.0 9f00
check i2c 1 "open: ACCEL_E_NO_DEVICE: no such device (errno 2:" $P i2c 99 0x50 00 2
check gpio-set 1 "open: ACCEL_E_NO_DEVICE: no such device (errno 2:" $P gpio-set 99 3 1
check gpio-wait 1 "open: ACCEL_E_NO_DEVICE: no such device (errno 2:" $P gpio-wait 99 3 5 low
if pkg-config --exists libusb-1.0 2>/dev/null; then
    check usb 1 "open: ACCEL_E_NO_DEVICE: no such device (libusb -4)" $P usb ffff:fffe
    check usb-in 1 "(libusb -4)" $P usb-in ffff:fffe 0 0x81 64 10
else
    skip "usb, usb-in" "libusb-1.0 not installed (bash scripts/setup.sh as root)"
fi
check usage 2 "usage:" $P
check bad-hex 2 "bad hex string" $P spi 0.0 9f0
check bad-num 2 "not a number" $P i2c x 0x50 00 1
lib_end
