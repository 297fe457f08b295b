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
# 32-bit size_t: arm-m3 below runs tests/arm/mac_arm_test.c and all of tests/test_mac.c on a
# Cortex-M3 under qemu-system-arm (skipped by name without arm-none-eabi-gcc/-gcov, newlib's
# librdimon or qemu-system-arm), so the mac section's element counts and scratch sizes past
# 2^32 (test_size_overflow, test_wide_overflow) count their ACCEL_E_OVERFLOW arcs.
# What the union still misses in the mac section's size_t checks needs a 16-bit size_t (AVR):
# accel__mac_mul's `(uint32_t)sv != v` (a uint32 that does not fit size_t), and a product's
# first factor alone: fully connected batches (input count) and out_depth (filter count), raw
# GEMM m_rows and n_cols, the geometry's batches (input count), the wide scratch size's m_rows
# (output planes) and n_cols (b's planes); and k_h*k_w (at most 65535^2) in
# conv2d_scratch_size, conv2d_with_scratch and depthwise. tests/mac_avr.sh runs every one of
# them on an ATmega2560 under simavr and checks each status (no gcov data comes back from the
# AVR, so they stay uncovered here). Never reachable, whatever size_t's width: the second
# multiplication of a factor that an earlier one already took from 1 (FC batches for the
# output count, GEMM m_rows for the output count, the geometry's batches for the output count,
# the wide scratch's m_rows for a's planes) and 1*k_h (k_h <= 65535 <= SIZE_MAX).
# Coverage depends on the machine: a build compiles the kernels of every x86 instruction set
# (test_mac_simd.c switches AVX-512 on for its code), but a test whose ISA this CPU lacks is
# skipped, so its kernels count as never run. The report therefore names each ISA-specific path
# (from accel.h's own #if structure: ACCEL_MAC_SIMD == 2 or layout 2 is AVX-512 VNNI/BW, == 1 is
# AVX2, the #else of either inside the x86 block is the other, == 3 AArch64 dotprod, == 4 Arm DSP;
# ACCEL_CRC32_SIMD 2/1/3 likewise), says which of them this CPU can run (/proc/cpuinfo flags),
# counts the lines and branches of those it cannot apart, and gives the figures without them.
# COV_ONLY="test_mac_simd test_mac_simd_avx2": only those tests/*.c (no other builds, no arm-m3,
# no fuzz targets), for a quick look at one section's kernels; the figures are then of them alone.
set -u
cd "$(dirname "$0")/.."
COV_ONLY=${COV_ONLY:-}
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
# arm-m3 (see the head comment): the same flags as the host builds for a Cortex-M3. Counters
# leave the emulator through semihosting: -fprofile-info-section puts a pointer to the object's
# counters in the section gcov_info, and tests/arm/gcov_dump.c (newlib's libgcov,
# __gcov_info_to_gcda) writes the .gcda beside the object after main; arm-none-eabi-gcov reads
# it. Runs in the background beside the host builds (about a minute of emulation at -O0).
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
[ -n "$COV_ONLY" ] && arm_need=" (COV_ONLY is set)"
if [ -n "$arm_need" ]; then
  echo "coverage: skipping arm-m3 (32-bit size_t under qemu-system-arm): missing$arm_need"
else
  (
    t0=$(date +%s)
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
    echo "coverage: arm-m3 took $(($(date +%s) - t0)) s (build and emulated run)"
  ) &
  arm_pid=$!
fi
echo "coverage: building and running the tests with --coverage (-O0)..."
if [ -n "$COV_ONLY" ]; then
  for t in $COV_ONLY; do build_run "$t" "tests/$t.c"; done
else
for t in tests/test_*.c; do build_run "$(basename "$t" .c)" "$t"; done
for impl in BITWISE NIBBLE TABLE256; do build_run "test_common_$impl" tests/test_common.c "-DACCEL_CRC32_IMPL=ACCEL_CRC32_$impl"; done
build_run test_mac_nofloat tests/test_mac.c -DACCEL_MAC_NO_FLOAT
fi
for fz in $([ -z "$COV_ONLY" ] && ls tests/fuzz/fuzz_*.c); do
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
# any build took it, among the builds that compiled the most branches at that line. A build with
# fewer there left code out (arm-m3 drops the device sections, so a status switch has fewer
# cases) and its branch i is another arc: its branch counts at that line are not merged.
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
                if len(br) > len(c[1]): c[1] = br
                elif len(br) == len(c[1]): c[1] = [a or t for a, t in zip(c[1], br)]
lines = open('accel.h').read().split('\n')
sec, cur = [], 'config'
for l in lines:
    m = re.match(r'^ \* SECTION: (\w+)', l)
    if m: cur = m.group(1)
    if l.startswith(' * IMPLEMENTATION'): cur = 'common'
    sec.append(cur)
# The ISA a line needs, from the #if structure around it (innermost ISA-specific condition)
X86 = 'x86 SIMD (AVX2 or AVX-512)'
def isa_of(cond):
    c = re.sub(r'\s+', ' ', cond)
    if re.search(r'ACCEL_MAC_SIMD == 1 \|\| ACCEL_MAC_SIMD == 2', c): return X86
    if re.search(r'ACCEL_MAC_SIMD == 2|ACCEL__MAC_PACK_LAYOUT == 2', c): return 'AVX-512 VNNI/BW (mac)'
    if re.search(r'ACCEL_MAC_SIMD == 1\b', c): return 'AVX2 (mac)'
    if re.search(r'ACCEL_MAC_SIMD == 3', c): return 'AArch64 dotprod (mac)'
    if re.search(r'ACCEL_MAC_SIMD == 4', c): return 'Arm DSP (mac)'
    if re.search(r'ACCEL_CRC32_SIMD == 1 \|\| ACCEL_CRC32_SIMD == 2', c): return 'x86 PCLMUL (crc)'
    if re.search(r'ACCEL_CRC32_SIMD == 2', c): return 'AVX-512 VPCLMULQDQ (crc)'
    if re.search(r'ACCEL_CRC32_SIMD == 3', c): return 'AArch64 CRC32 (crc)'
    return None
isa = []
stack = []  # per open #if: [label of the current branch, label of the #if branch]
for l in lines:
    m = re.match(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)', l)
    if m:
        d, rest = m.group(1), m.group(2)
        if d in ('if', 'ifdef', 'ifndef'):
            lab = isa_of(rest) if d == 'if' else None
            stack.append([lab, lab])
        elif d == 'elif' and stack:
            stack[-1][0] = isa_of(rest)
        elif d == 'else' and stack:
            outer = next((f[0] for f in reversed(stack[:-1]) if f[0]), None)
            # inside the x86 block, the #else of the AVX-512 test is the AVX2 path and the
            # #else of the AVX2 test the AVX-512 one
            flip = {'AVX-512 VNNI/BW (mac)': 'AVX2 (mac)', 'AVX2 (mac)': 'AVX-512 VNNI/BW (mac)'}
            stack[-1][0] = flip.get(stack[-1][1]) if outer == X86 else None
        elif d == 'endif' and stack:
            stack.pop()
    isa.append(next((f[0] for f in reversed(stack) if f[0]), None))
flags = set()
try:
    for l in open('/proc/cpuinfo'):
        if l.startswith('flags') or l.startswith('Features'):
            flags = set(l.split(':', 1)[1].split()); break
except OSError:
    pass
runs = {X86: 'avx2' in flags, 'AVX2 (mac)': 'avx2' in flags,
        'AVX-512 VNNI/BW (mac)': {'avx512f', 'avx512bw', 'avx512_vnni'} <= flags,
        'x86 PCLMUL (crc)': 'pclmulqdq' in flags, 'AVX-512 VPCLMULQDQ (crc)': {'avx512f', 'vpclmulqdq'} <= flags,
        # no coverage build runs Arm code (tests/mac_arm.sh and crc_simd.sh run it under QEMU
        # without gcov): counted apart on every host
        'AArch64 dotprod (mac)': False, 'Arm DSP (mac)': False, 'AArch64 CRC32 (crc)': False}
stats, apart, rest = {}, {}, {}
for no, (cnt, br) in cov.items():
    s = sec[no - 1] if no - 1 < len(sec) else '?'
    lab = isa[no - 1] if no - 1 < len(isa) else None
    tgt = [stats.setdefault(s, [0, 0, 0, 0])]
    if lab and not runs.get(lab, False): tgt.append(apart.setdefault(lab, [0, 0, 0, 0]))
    else: tgt.append(rest.setdefault(s, [0, 0, 0, 0]))
    for st in tgt:
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
print('\nISA paths this CPU could not run (its flags: %s), counted apart:' %
      (' '.join(sorted(f for f in flags if re.match(r'(avx|sse4|fma|bmi|pclmul|vpclmul|asimd)', f))) or 'unknown'))
if not apart: print('  none: every ISA-specific path compiled here ran')
for lab in sorted(apart): row('  ' + lab, apart[lab])
print('\nwithout them (what this host can run):')
tot2 = [0, 0, 0, 0]
for s in order + sorted(set(rest) - set(order)):
    if s not in rest: continue
    for i in range(4): tot2[i] += rest[s][i]
    row(s, rest[s])
row('total', tot2)
print('ISA paths this CPU ran:', ', '.join(sorted(l for l in set(filter(None, isa)) if runs.get(l))) or 'none')
with open(os.path.join(sys.argv[1], '..', 'uncovered.txt'), 'w') as out:
    for no in sorted(cov):
        cnt, br = cov[no]
        if cnt == 0 or not all(br):
            lab = isa[no - 1] if no - 1 < len(isa) else None
            tag = '[not run here: %s] ' % lab if lab and not runs.get(lab, False) else ''
            out.write('%6d %-8s %s%s%s\n' % (no, sec[no - 1], 'line ' if cnt == 0 else 'branch ', tag, lines[no - 1].strip()[:100]))
PY
echo "uncovered lines and branches: $B/uncovered.txt"
