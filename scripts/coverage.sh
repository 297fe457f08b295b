#!/usr/bin/env bash
# scripts/coverage.sh - `make coverage`: line and branch coverage of accel.h by the unit tests,
# per section and in total, as the union over every test build (a line compiled into several
# test programs or configurations counts once; it is covered when any build ran it).
# Builds: every tests/test_*.c, test_common under each CRC-32 implementation, test_mac with
# ACCEL_MAC_NO_FLOAT, and the header's fuzz targets over their seeds. -O0 --coverage, no
# sanitizers (they add branches of their own). A report, not a pass/fail test.
# The mac kernels are always-inline functions specialized by constant flags (int8/uint8, weight
# sums or none, rows per tile); inlined at -O0, gcov would count each copy's constant condition
# as a branch never taken in that copy, although no optimized build has it. Here they are built
# as ordinary functions (-DACCEL__MAC_AI=static): each source condition counts once, covered in
# a direction when any call took it, as for every other function. The code is the same source.
set -u
cd "$(dirname "$0")/.."
B=build/coverage
rm -rf "$B" && mkdir -p "$B"
W="-std=c99 -Wall -Wextra -Wno-unused-function -DACCEL__MAC_AI=static"
INC="-I. -Iports/sim -Iports/linux -Itests"
USB=""
pkg-config --exists libusb-1.0 2>/dev/null && USB="$(pkg-config --cflags libusb-1.0) -DACCEL_HAVE_LIBUSB=1 $(pkg-config --libs libusb-1.0)"
ports="ports/sim/accel_sim.c $(ls ports/linux/*.c 2>/dev/null)"
n=0
build_run() { # NAME SRC EXTRA_FLAGS...: build from the root (gcov then finds the sources), run there
  local name=$1 src=$2
  shift 2
  mkdir -p "$B/$name"
  if gcc $W -O0 -g --coverage "$@" $INC "$src" $ports -o "$B/$name/prog" $USB -lm >"$B/$name.log" 2>&1; then
    "$B/$name/prog" >>"$B/$name.log" 2>&1 || echo "  note: $name exited non-zero (see $B/$name.log)"
    n=$((n + 1))
  else
    echo "  note: $name did not build (see $B/$name.log)"
  fi
}
# arm-m3: tests/arm/mac_arm_test.c (its random cases, then all of tests/test_mac.c) on a
# Cortex-M3 under qemu-system-arm, where size_t is 32 bits: the element counts and scratch sizes
# that fit a 64-bit size_t but not 32 bits take the overflow refusals here (test_size_overflow,
# test_wide_overflow). Counters leave the emulator through semihosting: -fprofile-info-section
# plus tests/arm/gcov_dump.c (newlib's libgcov, __gcov_info_to_gcda) write the .gcda beside the
# object; arm-none-eabi-gcov reads it. Runs in the background beside the host builds (about a
# minute of emulation at -O0). Skipped by name when a cross tool is missing.
# What stays uncovered with 32 bits needs a 16-bit size_t (AVR): accel__mac_mul's
# `(uint32_t)sv != v` (a uint32 dimension that does not fit size_t) and the products of two
# 16-bit dimensions that a 32-bit size_t holds. No AVR build runs the mac section's error
# paths (tests/avr/ has the bridge and TSP1 firmware, the Arduino MacSelfTest sketch runs good
# shapes only); see the note at the end of this comment block for the exact lines.
arm_pid=""
arm_need=""
for t in arm-none-eabi-gcc arm-none-eabi-gcov qemu-system-arm; do
  command -v $t >/dev/null 2>&1 || arm_need="$arm_need $t"
done
if [ -z "$arm_need" ]; then
  case "$(arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -print-file-name=librdimon.a 2>/dev/null)" in
    /*) ;; *) arm_need=" newlib's librdimon (libnewlib-arm-none-eabi)" ;;
  esac
fi
if [ -n "$arm_need" ]; then
  echo "coverage: skipping arm-m3 (32-bit size_t under qemu-system-arm): missing$arm_need"
else
  (
    A=$B/arm-m3
    M="-mcpu=cortex-m3 -mthumb -mfloat-abi=soft"
    mkdir -p "$A"
    if arm-none-eabi-gcc $W -O0 -g --coverage -fprofile-info-section=gcov_info $M -DMAC_ARM_WANT=0 \
         -DMAC_ARM_MCU=1 -I. -c tests/arm/mac_arm_test.c -o "$A/mac_arm_test.o" >"$B/arm-m3.log" 2>&1 &&
       arm-none-eabi-gcc -std=c99 -O1 $M -DMAC_ARM_GCOV -I. --specs=rdimon.specs -nostartfiles \
         -L tests/arm -T mps2.ld tests/arm/m_startup.c tests/arm/gcov_dump.c "$A/mac_arm_test.o" \
         -lgcov -o "$A/prog" >>"$B/arm-m3.log" 2>&1; then
      timeout 600 qemu-system-arm -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -M mps2-an385 -kernel "$A/prog" >>"$B/arm-m3.log" 2>&1 ||
        echo "  note: arm-m3 exited non-zero (see $B/arm-m3.log)"
      [ -f "$A/mac_arm_test.gcda" ] || echo "  note: arm-m3 wrote no .gcda (see $B/arm-m3.log)"
    else
      echo "  note: arm-m3 did not build (see $B/arm-m3.log)"
    fi
  ) &
  arm_pid=$!
fi
echo "coverage: building and running the tests with --coverage (-O0)..."
for t in tests/test_*.c; do build_run "$(basename "$t" .c)" "$t"; done
for impl in BITWISE NIBBLE TABLE256; do build_run "test_common_$impl" tests/test_common.c "-DACCEL_CRC32_IMPL=ACCEL_CRC32_$impl"; done
build_run test_mac_nofloat tests/test_mac.c -DACCEL_MAC_NO_FLOAT
for fz in tests/fuzz/fuzz_*.c; do
  name=$(basename "$fz" .c)
  seeds=tests/fuzz/seeds/${name#fuzz_}
  mkdir -p "$B/$name"
  if gcc -std=c99 -O0 -g --coverage -DACCEL__MAC_AI=static -DACCEL_FUZZ_MAIN $INC "$fz" -o "$B/$name/prog" -lm >"$B/$name.log" 2>&1; then
    [ -d "$seeds" ] && "$B/$name/prog" $(ls -d "$seeds"/* 2>/dev/null) >>"$B/$name.log" 2>&1
    n=$((n + 1))
  fi
done
if [ -n "$arm_pid" ]; then
  wait "$arm_pid"
  [ -f "$B/arm-m3/mac_arm_test.gcda" ] && n=$((n + 1))
fi
echo "coverage: $n programs ran; reading gcov's JSON for accel.h"
rm -rf "$B/json" && mkdir -p "$B/json"
for d in "$B"/*/; do
  for g in "$d"*.gcda; do
    [ -f "$g" ] || continue
    (cd "$B/json" && mkdir -p "$(basename "$d")" && cd "$(basename "$d")" &&
     $(case "$d" in */arm-*) echo arm-none-eabi-gcov ;; *) echo gcov ;; esac) \
       -j -b -o "../../../../$d" "../../../../$g" >/dev/null 2>&1)
  done
done
python3 - "$B/json" <<'PY'
import gzip, json, os, re, sys
# Union over builds: a line is covered when any build ran it; branch i of a line is taken when
# any build took it, out of the most branches any build compiled at that line.
cov = {}
for root, _, files in os.walk(sys.argv[1]):
    for fn in files:
        if not fn.endswith('.gcov.json.gz'): continue
        d = json.load(gzip.open(os.path.join(root, fn)))
        for f in d['files']:
            if not (f['file'] == 'accel.h' or f['file'].endswith('/accel.h')): continue
            for ln in f['lines']:
                c = cov.setdefault(ln['line_number'], [0, []])
                c[0] = max(c[0], ln['count'])
                br = [b['count'] > 0 for b in ln.get('branches', [])]
                if len(br) > len(c[1]): c[1] += [False] * (len(br) - len(c[1]))
                for i, t in enumerate(br): c[1][i] = c[1][i] or t
lines = open('accel.h').read().split('\n')
sec, cur = [], 'config'
for l in lines:
    m = re.match(r'^ \* SECTION: (\w+)', l)
    if m: cur = m.group(1)
    if l.startswith(' * IMPLEMENTATION'): cur = 'common'
    sec.append(cur)
stats = {}
for no, (cnt, br) in cov.items():
    s = sec[no - 1] if no - 1 < len(sec) else '?'
    st = stats.setdefault(s, [0, 0, 0, 0])
    st[1] += 1
    st[0] += cnt > 0
    st[3] += len(br)
    st[2] += sum(br)
order = ['config', 'common', 'tsp1', 'edgetpu', 'refsi', 'ane', 'mac']
tot = [0, 0, 0, 0]
print('%-10s %21s %21s' % ('section', 'lines', 'branches'))
def row(name, a):
    print('%-10s %6d/%-6d %6.1f%% %6d/%-6d %6.1f%%' % (name, a[0], a[1], 100.0 * a[0] / max(a[1], 1),
          a[2], a[3], 100.0 * a[2] / max(a[3], 1)))
for s in order + sorted(set(stats) - set(order)):
    if s not in stats: continue
    for i in range(4): tot[i] += stats[s][i]
    row(s, stats[s])
row('total', tot)
with open(os.path.join(sys.argv[1], '..', 'uncovered.txt'), 'w') as out:
    for no in sorted(cov):
        cnt, br = cov[no]
        if cnt == 0 or not all(br):
            out.write('%6d %-8s %s%s\n' % (no, sec[no - 1], 'line ' if cnt == 0 else 'branch ', lines[no - 1].strip()[:100]))
PY
echo "uncovered lines and branches: $B/uncovered.txt"
