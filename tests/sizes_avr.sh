#!/usr/bin/env bash
# sizes_avr.sh - every caller-memory size function and size macro where size_t has 16 bits:
# tests/avr/sizes_avr_test.c built for an ATmega2560 (avr-gcc -Os, the full warning set) and run
# under simavr, where a size past 65535 is ACCEL_E_OVERFLOW (never a wrapped number), and the
# same file on the host (size_t 64 bits), where the same calls give the true size. A missing
# tool skips its part by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
host_and_mega build/sizes_avr tests/avr/sizes_avr_test.c
lib_end
