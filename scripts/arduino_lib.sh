#!/usr/bin/env bash
# scripts/arduino_lib.sh - `make arduino`: assemble accel as an Arduino library (library
# specification 1.5) in build/arduino/Accel/ and zip it as build/Accel-VERSION.zip, the file the
# IDE installs with Sketch > Include Library > Add .ZIP Library.
#   Accel/library.properties   name, version (ACCEL_VERSION_STRING in accel.h), ...
#   Accel/src/accel.h          the library, unchanged
#   Accel/src/accel_impl.c     the one file that defines ACCEL_IMPLEMENTATION
#   Accel/src/accel_arduino.*  the port (ports/arduino)
#   Accel/examples/NAME/NAME.ino   from examples/arduino/NAME/
#   Accel/LICENSE
# Prints the zip's path last.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-build}
ver=$(sed -n 's/^#define ACCEL_VERSION_STRING "\([0-9][0-9.]*\)"$/\1/p' accel.h)
[ -n "$ver" ] || { echo "arduino_lib.sh: no ACCEL_VERSION_STRING in accel.h" >&2; exit 1; }
lib=$OUT/arduino/Accel
rm -rf "$lib"
mkdir -p "$lib/src" "$lib/examples"

cat >"$lib/library.properties" <<EOF
name=Accel
version=$ver
author=the accel authors
maintainer=the accel authors
sentence=Drive neural accelerators (ABR TSP1 over SPI) and run int8 layers bit-exact with TensorFlow Lite.
paragraph=accel is a single-header, allocation-free C99 library: command codecs and drivers for neural accelerators with every device byte bounds-checked, and an int8 multiply-accumulate reference engine (fully connected, conv2d, depthwise, pooling). This port runs it over the Arduino SPI, Wire and pin APIs.
category=Device Control
url=
architectures=*
includes=accel.h
EOF

cp accel.h "$lib/src/accel.h"
cp ports/arduino/accel_arduino.h ports/arduino/accel_arduino.cpp ports/arduino/accel_arduino_wire.h "$lib/src/"
cat >"$lib/src/accel_impl.c" <<'EOF'
/* accel_impl.c - compiles accel.h's implementation once for the Arduino library.
 * On AVR the status strings are left out: constant strings live in RAM there, and the whole
 * table would not fit an Uno's 2 KB. accel_arduino_print_status() prints names from flash. */
#if defined(__AVR__) && !defined(ACCEL_NO_STATUS_STRINGS)
#define ACCEL_NO_STATUS_STRINGS
#endif
#define ACCEL_IMPLEMENTATION
#include "accel.h"
EOF
for d in examples/arduino/*/; do
  n=$(basename "$d")
  [ -f "$d/$n.ino" ] || { echo "arduino_lib.sh: $d has no $n.ino" >&2; exit 1; }
  mkdir -p "$lib/examples/$n"
  cp "$d"/* "$lib/examples/$n/"
done
cp LICENSE "$lib/LICENSE"

zip=$OUT/Accel-$ver.zip
rm -f "$zip"
(cd "$OUT/arduino" && zip -qrX "../$(basename "$zip")" Accel)
echo "$zip"
