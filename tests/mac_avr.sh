#!/usr/bin/env bash
# mac_avr.sh - the mac section's size_t overflow refusals where size_t has 16 bits:
# tests/avr/mac_avr_test.c built for an ATmega2560 (avr-gcc -Os, the full warning set) and run
# under simavr, where a dimension past 65535, or the product of two 16-bit ones, is
# ACCEL_E_OVERFLOW; and the same file on the host (size_t 64 bits), where the same calls go on
# to refuse the short buffers. The Cortex-M builds of tests/mac_arm.sh cover 32 bits. A missing
# tool skips its part by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
host_and_mega build/mac_avr tests/avr/mac_avr_test.c
lib_end
