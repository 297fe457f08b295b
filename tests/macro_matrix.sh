#!/usr/bin/env bash
# macro_matrix.sh - every macro that changes accel.h's code is built with -Werror as C (gcc -O2),
# as C++ (g++) and for Cortex-M0+ (-Os); a switch that removes code must shrink the M0+ build
# (so a switch that silently does nothing fails here); tests run under the macros that change
# behaviour; the project itself uses none of the deprecated names. Ends "N passed, N failed".
. "$(dirname "$0")/lib.sh"
T=build/test-tmp/macro_matrix
mkdir -p "$T"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-std=c++11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$T/impl.c"
cp "$T/impl.c" "$T/impl.cpp"
m0_text() { arm-none-eabi-size "$1" | awk 'NR==2{print $1}'; }

build_all() { # NAME FLAGS...: C for Cortex-M0+ (-Os; host gcc -O2 without the cross compiler) and C++
  local name=$1; shift
  if have arm-none-eabi-gcc; then
    if arm-none-eabi-gcc $W -Os -mcpu=cortex-m0plus -mthumb "$@" -I. -c "$T/impl.c" -o "$T/$name.m0.o" \
        >"$T/$name.m0.log" 2>&1; then ok "$name (C, cortex-m0plus)"
    else bad "$name (C, cortex-m0plus)" "$(head -5 "$T/$name.m0.log")"; fi
  elif gcc $W -O2 "$@" -I. -c "$T/impl.c" -o "$T/$name.o" >"$T/$name.log" 2>&1; then ok "$name (C, gcc)"
  else bad "$name (C, gcc)" "$(head -5 "$T/$name.log")"; fi
  if g++ $WXX "$@" -I. -fsyntax-only "$T/impl.cpp" >"$T/$name.xx.log" 2>&1; then ok "$name (C++)"
  else bad "$name (C++)" "$(head -5 "$T/$name.xx.log")"; fi
}

build_all default
base=$( [ -f "$T/default.m0.o" ] && m0_text "$T/default.m0.o" )
# switches that remove code: built, and smaller than the default on M0+
for m in ACCEL_TSP1_NO_MODEL ACCEL_EDGETPU_NO_MODEL ACCEL_REFSI_NO_MODEL ACCEL_ANE_NO_MODEL \
         ACCEL_EDGETPU_NO_DISASM ACCEL_MAC_NO_FLOAT ACCEL_NO_STATUS_STRINGS; do
  build_all "$m" "-D$m"
  if [ -n "$base" ] && [ -f "$T/$m.m0.o" ]; then
    t=$(m0_text "$T/$m.m0.o")
    if [ "$t" -lt "$base" ]; then ok "$m removes code"; echo "  $m: M0+ .text $base -> $t"
    else bad "$m removes code" "M0+ .text $t, default $base"; fi
  fi
done
# switches that change code without removing a part
build_all tsp1_big_endian -DACCEL_TSP1_BIG_ENDIAN=1
build_all mac_fast0 -DACCEL_MAC_FAST=0
build_all mac_fast1 -DACCEL_MAC_FAST=1
build_all no_deprecated -DACCEL_NO_DEPRECATED
build_all tsp1_i2c -DACCEL_TSP1_I2C=1
build_all tsp1_in_place1 -DACCEL_TSP1_IN_PLACE=1
build_all tsp1_no_marker -DACCEL_TSP1_MARKER=0
build_all tsp1_no_long_errors -DACCEL_TSP1_LONG_ERROR_MAX=0
build_all tsp1_custom_crc "-DACCEL_TSP1_CRC(p,n)=accel_crc32((p),(n))" # no streaming form
build_all crc_braid -DACCEL_CRC32_IMPL=ACCEL_CRC32_BRAID
build_all crc_no_simd -DACCEL_CRC32_NO_SIMD
build_all mac_mcu0 -DACCEL_MAC_MCU=0
build_all tflite_max_dims4 -DACCEL_TFLITE_MAX_DIMS=4
build_all tflite_ops_fc "-DACCEL_TFLITE_OPS=ACCEL_TFLITE_K_FULLY_CONNECTED"
build_all tflite_ops_none -DACCEL_TFLITE_OPS=0
build_all tflite_no_records -DACCEL_TFLITE_RECORDS=0
# models read through a copy (flash on a Harvard MCU): its own reader and kernel paths
build_all fb_copy "-DACCEL_FB_COPY(d,s,n)=__builtin_memcpy((d),(s),(n))"
build_all all_models_out -DACCEL_TSP1_NO_MODEL -DACCEL_EDGETPU_NO_MODEL -DACCEL_REFSI_NO_MODEL \
  -DACCEL_ANE_NO_MODEL -DACCEL_EDGETPU_NO_DISASM
# the old spelling of a renamed config macro still works
build_all old_edgetpu_switch -DACCEL_EDGETPU_NO_DEVMODEL
if [ -f "$T/old_edgetpu_switch.m0.o" ] && [ -f "$T/ACCEL_EDGETPU_NO_MODEL.m0.o" ] &&
   [ "$(m0_text "$T/old_edgetpu_switch.m0.o")" = "$(m0_text "$T/ACCEL_EDGETPU_NO_MODEL.m0.o")" ]; then
  ok "ACCEL_EDGETPU_NO_DEVMODEL acts as ACCEL_EDGETPU_NO_MODEL"
else bad "ACCEL_EDGETPU_NO_DEVMODEL acts as ACCEL_EDGETPU_NO_MODEL"; fi

# behaviour-changing macros: run the section's tests under them
run_test() { # NAME SOURCE FLAGS...
  local name=$1 src=$2; shift 2
  if gcc $W -O1 -g $SAN "$@" -I. -Iports/sim -Itests "$src" ports/sim/accel_sim.c -o "$T/$name" -lm \
      >"$T/$name.log" 2>&1; then
    if "$T/$name" >>"$T/$name.log" 2>&1; then ok "$name"
    else bad "$name" "$(grep -E 'FAIL|passed' "$T/$name.log" | head -8)"; fi
  else bad "$name (build)" "$(head -5 "$T/$name.log")"; fi
}
run_test "test_mac with ACCEL_MAC_NO_FLOAT" tests/test_mac.c -DACCEL_MAC_NO_FLOAT
# the shared models and the hand-made ones have at most 4 dimensions
run_test "test_tflite with ACCEL_TFLITE_MAX_DIMS=4" tests/test_tflite.c -DACCEL_TFLITE_MAX_DIMS=4
# integer only: the runner needs no floating point (DEQUANTIZE is what it leaves out)
run_test "test_tflite with ACCEL_MAC_NO_FLOAT" tests/test_tflite.c -DACCEL_MAC_NO_FLOAT
# no run records (the AVR default) on a host: invoke re-reads each operator from the model
run_test "test_tflite with ACCEL_TFLITE_RECORDS=0" tests/test_tflite.c -DACCEL_TFLITE_RECORDS=0
run_test "test_tflite_far with ACCEL_TFLITE_RECORDS=0" tests/test_tflite_far.c -DACCEL_TFLITE_RECORDS=0
case "$(uname -m)" in
  x86_64) run_test "test_mac with ACCEL_MAC_NO_SIMD under -mavx2" tests/test_mac.c -mavx2 -DACCEL_MAC_NO_SIMD ;;
  *) skip "test_mac with ACCEL_MAC_NO_SIMD" "not an x86-64 host" ;;
esac
# the TSP1 decoder's copying path alone (the default in size-optimised builds), and both ways
# through the driver's random sessions
run_test "test_tsp1 with ACCEL_TSP1_IN_PLACE=0" tests/test_tsp1.c -DACCEL_TSP1_IN_PLACE=0
run_test "test_tsp1_driver with ACCEL_TSP1_IN_PLACE=0" tests/test_tsp1_driver.c -DACCEL_TSP1_IN_PLACE=0

# the project uses the new names only: every test, tool, port and bench with ACCEL_NO_DEPRECATED
usb=$(pkg-config --cflags libusb-1.0 2>/dev/null)
for f in tests/test_*.c examples/host/*.c ports/*/*.c scripts/bench/*.c; do
  [ -f "$f" ] || continue
  case "$f" in ports/arduino/*|ports/zephyr/*|ports/bridge/accel_bridge*) continue ;; esac # own builds
  case "$f" in ports/bridge/accel_replay.c) printf '#include <pb.h>\n' | cc -E -x c - >/dev/null 2>&1 || continue ;; esac
  if gcc $W -DACCEL_NO_DEPRECATED $usb -DACCEL_HAVE_LIBUSB=1 -I. -Iports/sim -Iports/linux -Iports/bridge -Itests \
      -Iscripts/bench -fsyntax-only "$f" >"$T/nodep.log" 2>&1; then ok "$f without deprecated names"
  else bad "$f uses a deprecated name" "$(grep -m3 error "$T/nodep.log")"; fi
done
# ... and no script, Makefile, Kconfig, sketch or port built on its own spells an old name: the
# old names are the first name of each line of accel.h's two deprecated blocks, and the Kconfig
# symbols whose prompt says "Deprecated" (their own entry and the line that honours them aside)
old=$(sed -n '/---- @deprecated\.config/,/end of the deprecated config names/p' accel.h |
        grep -oE '^#if defined\([A-Z0-9_]+' | sed 's/.*(//'
      sed -n '/---- @deprecated\.names/,/end of the deprecated names/p' accel.h |
        grep -oE '^#define [A-Za-z0-9_]+' | sed 's/^#define //' | grep -v '^ACCEL__'
      awk '/^config /{c=$2} /^[ \t]*bool "Deprecated/{print c; print "CONFIG_" c}' ports/zephyr/Kconfig)
# (a name whose signature changed keeps its spelling: it is no old name)
old=$(for n in $old; do grep -qE "^ACCELDEF .*\b$n\(" accel.h || echo "$n"; done)
n_old=$(printf '%s\n' "$old" | grep -c .)
if [ "$n_old" -ge 100 ]; then ok "deprecated names found ($n_old)"; else bad "deprecated names found ($n_old)"; fi
for f in scripts/*.sh scripts/*.py scripts/gen/* scripts/bench/mcu/* Makefile ports/arduino/* ports/zephyr/* \
         ports/bridge/* examples/arduino/*/* examples/zephyr/*/src/* tests/*.sh; do
  [ -f "$f" ] || continue
  [ "$f" = tests/macro_matrix.sh ] && continue # the old-names build below
  hits=$(grep -nwF "$(printf '%s\n' "$old")" "$f" | grep -v 'Deprecated name of\|/\* old name \*/' |
         grep -v "^[0-9]*:config [A-Z0-9_]*$" | head -3)
  if [ -z "$hits" ]; then ok "$f: new names only"; else bad "$f spells a deprecated name" "$hits"; fi
done
# and old code still compiles through the aliases
cat >"$T/old.c" <<'OLD'
#include "accel.h"
#include <string.h>
int f(accel_edgetpu_dev *d, accel_refsi_cmp *c, accel_ane_fw *w);
int g(void);
int g(void)
{
    accel_status (*open_fn)(accel_tsp1 *, const accel_tsp1_config *) = accel_tsp1_open;
    accel_tsp1_config c; /* the driver's memory given as three regions */
    c.pending_mem = 0; c.pending_len = 0; c.rx_mem = 0; c.rx_len = 0; c.tx_mem = 0; c.tx_len = 0;
    (void)c;
    (void)open_fn;
    uint8_t b[160];
    size_t n;
    accel_ane_stats_hdr h;
    accel_ane_stats_engine e;
    memset(&h, 0, sizeof h);
    memset(&e, 0, sizeof e);
    /* renamed after 0.1.0; the argument order of the last four changed with their names */
    (void)accel_tsp1_query_nn;
    (void)accel_ane_pc_check;
    (void)accel_ane_xl_encode_hdr(0x204, b, sizeof b);
    (void)accel_edgetpu_decode_tflite;
    if (accel_ane_encode_stats(b, sizeof b, &h, &e, 1, &n) != ACCEL_OK || n <= 0x28) return 1;
    if (accel_edgetpu_encode_header(b, 16, 1) != ACCEL_OK || b[0] != 16 || b[4] != 1) return 2;
    if (accel_tsp1_encode_cmd(b, sizeof b, ACCEL_TSP1_ECHO, 7, "hi", 2, &n) != ACCEL_OK || n != 14) return 3;
    if (accel_tsp1_encode_u32(b, sizeof b, ACCEL_TSP1_NN_START, 8, 1, &n) != ACCEL_OK || n != 16) return 4;
    if (accel_tsp1_encode_frame(b, sizeof b, ACCEL_TSP1_RSP_PREAMBLE, 0x8000, 9, NULL, 0, &n) != ACCEL_OK)
        return 5;
    /* the two-argument form of the model's memory query returns the size itself */
    if (accel_tsp1_model_mem_size(64, 64) != 3 * 64 + 48 + 64) return 7;
    if (accel_mac_fully_connected_pack_size(4, 4, &n) != ACCEL_OK || n < 64 + 16 + 16) return 8;
    return accel_mac_srdhm(1 << 30, 1 << 30) == 1 << 29 ? 0 : 6;
}
int main(void) { return g(); }
OLD
if gcc $W -I. "$T/old.c" "$T/impl.c" -o "$T/old" >"$T/old.log" 2>&1; then ok "deprecated names still compile"
  check "deprecated names still work (arguments reordered by the aliases)" 0 "" "$T/old"
else bad "deprecated names still compile" "$(head -5 "$T/old.log")"; fi
lib_end
