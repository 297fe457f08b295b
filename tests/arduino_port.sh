#!/usr/bin/env bash
# arduino_port.sh - ports/arduino on the host, against a fake Arduino core that logs every pin,
# SPI and Wire call (tests/avr/fake): bus sequences, the transfer limit, chip-select release
# after an error, wait_irq, Wire codes -> statuses, status names. Sanitized, warnings as errors
# (C++11). The real core builds and runs in tests/avr_sketches.sh.
. "$(dirname "$0")/lib.sh"
B=build/avr
mkdir -p "$B"
if ! have g++; then skip "arduino port host test" "g++ not installed"; lib_end; exit; fi
if g++ -std=c++11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror \
    -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Itests/avr/fake -Iports/arduino -I. -Itests \
    tests/avr/port_host_test.cpp tests/avr/fake/fake_arduino.cpp ports/arduino/accel_arduino.cpp \
    -o "$B/port_host_test" >"$B/port_host_test.log" 2>&1; then
  ok "build port_host_test"
  out=$("$B/port_host_test" 2>&1)
  echo "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
  line=$(echo "$out" | tail -1)
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
  pass=$((pass + p)); fail=$((fail + f))
else
  bad "build port_host_test" "$(head -20 "$B/port_host_test.log")"
fi
lib_end
