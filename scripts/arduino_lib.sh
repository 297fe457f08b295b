#!/usr/bin/env bash
# scripts/arduino_lib.sh - `make arduino`: assemble accel as an Arduino library (library
# specification 1.5) in build/arduino/Accel/ and zip it as build/Accel-VERSION.zip, the file the
# IDE installs with Sketch > Include Library > Add .ZIP Library.
#   Accel/library.properties   name, version (ACCEL_VERSION_STRING in accel.h), ...
#   Accel/src/accel.h          the library, unchanged
#   Accel/src/accel_impl.c     the one file that defines ACCEL_IMPLEMENTATION, with the choices
#                              of accel_arduino_config.h
#   Accel/src/accel_arduino*.h, accel_arduino.cpp   the port (ports/arduino)
#   Accel/examples/NAME/NAME.ino   from examples/arduino/NAME/
#   Accel/LICENSE
# and, for the Bridge example, the bridge's device side (ports/bridge: accel_bridge*.c/.h and
# the committed accel_bridge.pb.c/.h) with nanopb's runtime, taken from Debian's nanopb source
# package by scripts/nanopb_runtime.sh (never committed here):
#   Accel/src/pb.h             the options the library builds nanopb with, then nanopb's pb.h
#   Accel/src/nanopb/pb.h      nanopb's pb.h, unchanged, and its LICENSE.txt beside it
#   Accel/src/pb_common.c/.h, pb_encode.c/.h, pb_decode.c/.h   unchanged
# nanopb options: PB_NO_ERRMSG (its error strings would sit in RAM on an AVR) and
# PB_BUFFER_ONLY (the device decodes from and encodes to memory). Every file that includes
# pb.h must see them, and a library cannot pass -D flags, so src/pb.h sets them before it
# includes the real one; nanopb's files include "pb.h" and find that one first.
# Without the runtime (no network for apt-get source) the zip is built without the bridge and
# without the Bridge example, and says so on stderr and in Accel/NO_BRIDGE.txt.
# Prints the zip's path last.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-build}
ver=$(sed -n 's/^#define ACCEL_VERSION_STRING "\([0-9][0-9.]*\)"$/\1/p' accel.h)
[ -n "$ver" ] || { echo "arduino_lib.sh: no ACCEL_VERSION_STRING in accel.h" >&2; exit 1; }
# url= must be a URL (Arduino's library format; arduino-lint refuses an empty one): ACCEL_URL,
# else the https form of this clone's origin remote, else a placeholder in the reserved .invalid
# domain, with a note on stderr (a published zip should name the project's home)
url=${ACCEL_URL:-}
if [ -z "$url" ] && command -v git >/dev/null && o=$(git remote get-url origin 2>/dev/null); then
  case "$o" in
    https://*) url=${o%.git} ;;
    git@*:*) h=${o#git@}; url="https://${h%%:*}/${h#*:}"; url=${url%.git} ;;
  esac
fi
if [ -z "$url" ]; then
  url=https://accel.invalid/
  echo "arduino_lib.sh: no ACCEL_URL and no https/ssh origin remote: url=$url in library.properties" >&2
fi
lib=$OUT/arduino/Accel
rm -rf "$lib"
mkdir -p "$lib/src" "$lib/examples"

cat >"$lib/library.properties" <<EOF
name=Accel
version=$ver
author=the accel authors
maintainer=the accel authors
sentence=Drive neural accelerators (ABR TSP1 over SPI) and run int8 layers bit-exact with TensorFlow Lite.
paragraph=accel is a single-header, allocation-free C99 library: command codecs and drivers for neural accelerators with every device byte bounds-checked, an int8 multiply-accumulate reference engine (fully connected, conv2d, depthwise, pooling) and a runner for whole quantized TensorFlow Lite models (kept in flash on AVR). This port runs it over the Arduino SPI, Wire and pin APIs.
category=Device Control
url=$url
architectures=*
includes=accel.h
EOF

cp accel.h "$lib/src/accel.h"
cp ports/arduino/accel_arduino.h ports/arduino/accel_arduino.cpp ports/arduino/accel_arduino_wire.h \
   ports/arduino/accel_arduino_config.h "$lib/src/"
cat >"$lib/src/accel_impl.c" <<'EOF'
/* accel_impl.c - compiles accel.h's implementation once for the Arduino library, with the
 * choices of accel_arduino_config.h (on AVR: no status strings, since constant strings live in
 * RAM there; tflite models read from flash with memcpy_P; on an Uno one tflite operator). */
#include "accel_arduino_config.h"
#define ACCEL_IMPLEMENTATION
#include "accel.h"
EOF
bridge=1
if ! rt=$(bash scripts/nanopb_runtime.sh 2>"$OUT/arduino/nanopb.err"); then
  bridge=0
  why=$(head -1 "$OUT/arduino/nanopb.err")
  echo "arduino_lib.sh: nanopb runtime unavailable ($why): the zip has no Bridge example" >&2
  cat >"$lib/NO_BRIDGE.txt" <<EOF2
This copy of the Accel library was built without the accel bridge (ports/bridge) and its Bridge
example: nanopb's runtime could not be fetched when it was packed ($why).
EOF2
else
  cp ports/bridge/accel_bridge.h ports/bridge/accel_bridge.c ports/bridge/accel_bridge_device.h \
     ports/bridge/accel_bridge_device.c ports/bridge/accel_bridge.pb.h ports/bridge/accel_bridge.pb.c "$lib/src/"
  mkdir -p "$lib/src/nanopb"
  cp "$rt/pb.h" "$rt/LICENSE.txt" "$lib/src/nanopb/"
  cp "$rt/pb_common.h" "$rt/pb_common.c" "$rt/pb_encode.h" "$rt/pb_encode.c" "$rt/pb_decode.h" \
     "$rt/pb_decode.c" "$lib/src/"
  cat >"$lib/src/pb.h" <<'EOF2'
/* pb.h - nanopb's pb.h (in nanopb/, with its licence) with the options this library builds
 * nanopb with: no error strings (they would sit in RAM on an AVR), memory streams only. */
#ifndef ACCEL_ARDUINO_PB_H
#define ACCEL_ARDUINO_PB_H
#ifndef PB_NO_ERRMSG
#define PB_NO_ERRMSG 1
#endif
#ifndef PB_BUFFER_ONLY
#define PB_BUFFER_ONLY 1
#endif
#include "nanopb/pb.h"
#endif
EOF2
fi
for d in examples/arduino/*/; do
  n=$(basename "$d")
  [ "$bridge" = 1 ] || [ "$n" != Bridge ] || continue
  [ -f "$d/$n.ino" ] || { echo "arduino_lib.sh: $d has no $n.ino" >&2; exit 1; }
  mkdir -p "$lib/examples/$n"
  cp "$d"/* "$lib/examples/$n/"
done
cp LICENSE "$lib/LICENSE"

zip=$OUT/Accel-$ver.zip
rm -f "$zip"
(cd "$OUT/arduino" && zip -qrX "../$(basename "$zip")" Accel)
echo "$zip"
