#!/usr/bin/env bash
# readme_example.sh - every command of README.md runs as written. Each fenced block is marked
# on the line before it, <!-- readme: KIND -->, and a ```sh block without a mark fails here:
#   example  the C example: builds warning-free and prints what it promises
#   run      run as written from the repository's root (the files it writes are removed after)
#   tmp      run as written in a scratch directory holding a copy of accel.h
#   arduino  run as written (needs arduino-builder and simavr, else skipped by name), simavr
#            given 20 s at most; the sketch must report all its cases ok
#   device   commands for hardware that is not here: each must pass its command-line checks
#            and fail (exit 1) only at the missing device, naming it
#   make     the make targets exist (make -n); make test is the run this is part of
#   cmake    the add_subdirectory lines, in a consumer project (tests/cmake_package.sh builds
#            the same ways in full)
#   zephyr   west is not run (no Zephyr here): every path and board the commands name exists
#   python   the Python chapter's install commands: tests/python_tflite.sh runs them, with its
#            example, as written (an installed package and numpy are that script's to check)
# Ends with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
T=build/test-tmp/readme
rm -rf "$T" && mkdir -p "$T"
root=$PWD
# block KIND N: the N-th (1-based) block marked KIND, without its fences
block() {
    awk -v k="<!-- readme: $1 -->" -v n="$2" '$0 == k { m++; next }
        m == n && !f && /^```/ { f = 1; next } f && /^```$/ { exit } f' README.md
}
count() { grep -cxF "<!-- readme: $1 -->" README.md; }

# every block of commands is marked, with a known kind
kinds="example run tmp arduino device make cmake zephyr python"
unmarked=$(awk '/^<!-- readme: / { mark = $3; next } /^```sh$/ { if (mark == "") print NR } /^```/ { mark = "" }
                /^./ && !/^```/ { mark = "" }' README.md | tr '\n' ' ')
same "every sh block of README.md is marked" "$unmarked" ""
for k in $(grep -o '<!-- readme: [a-z]* -->' README.md | awk '{print $3}' | sort -u); do
    case " $kinds " in *" $k "*) ok "known kind $k" ;; *) bad "README.md marks a block '$k', a kind this script does not run" ;; esac
done

# example: the C example
block example 1 >"$T/example.c"
lines=$(wc -l <"$T/example.c")
if [ "$lines" -ge 15 ] && [ "$lines" -le 30 ]; then ok "example length"; else bad "example length" "$lines lines"; fi
if cc -std=c99 -Wall -Wextra -Werror -I. -Iports/sim "$T/example.c" ports/sim/accel_sim.c -o "$T/example" 2>"$T/err"; then
    ok "example builds"
    same "example output" "$("$T/example")" "$(printf 'ready: ACCEL_OK: success after 30 ms\ncrc32 = cbf43926')"
else
    bad "example builds" "$(cat "$T/err")"
fi

# run: from the root, in order (a later block may use what an earlier one wrote); what they
# write is removed after, so nothing is left in the checkout (accel-run --layers X.bin writes X.tsv too)
listing() { find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sort; }
before=$(listing)
made=""
for i in $(seq 1 "$(count run)"); do
    block run "$i" >"$T/run$i.sh"
    for f in $(grep -oE '(>|--output |--layers )[a-z_]+\.bin' "$T/run$i.sh" | grep -oE '[a-z_]+\.bin'); do
        made="$made $f"
    done
    if bash -e "$T/run$i.sh" >"$T/run$i.out" 2>&1; then ok "run block $i"
    else bad "run block $i" "$(tail -5 "$T/run$i.out")"; fi
done
# what the first start promises
if grep -q '^ *03 fd *$' "$T/run1.out"; then ok "accel-run start: the output bytes are 03 fd"
else bad "accel-run start: the output bytes are 03 fd" "$(tail -3 "$T/run1.out")"; fi
for f in $made; do rm -f "$f" "${f%.bin}.tsv"; done
same "the run blocks leave nothing in the checkout" "$(comm -13 <(echo "$before") <(listing) | tr '\n' ' ')" ""

# tmp: in a scratch directory
for i in $(seq 1 "$(count tmp)"); do
    block tmp "$i" >"$T/tmp$i.sh"
    need=$(grep -oE '^[a-z0-9-]+-gcc' "$T/tmp$i.sh" | head -1)
    if [ -n "$need" ] && ! have "$need"; then skip "tmp block $i" "$need not installed (bash scripts/setup.sh as root)"; continue; fi
    mkdir -p "$T/tmp$i" && cp accel.h "$T/tmp$i/"
    if (cd "$T/tmp$i" && bash -e "$root/$T/tmp$i.sh") >"$T/tmp$i.out" 2>&1; then ok "tmp block $i"
    else bad "tmp block $i" "$(tail -5 "$T/tmp$i.out")"; fi
done
# the Cortex-M0+ object of the header start needs no heap and no stdio
if [ -f "$T/tmp1/myproject/accel_impl.o" ]; then
    u=$(arm-none-eabi-nm -u "$T/tmp1/myproject/accel_impl.o" | grep -wE 'malloc|free|printf|puts|fopen' | tr '\n' ' ')
    same "the MCU start's object uses no heap or stdio" "$u" ""
fi

# arduino: as written, simavr given 20 s; MacSelfTest prints its cases and a verdict
for i in $(seq 1 "$(count arduino)"); do
    missing=""
    for t in arduino-builder simavr avr-gcc; do have "$t" || missing="$missing $t"; done
    if [ -n "$missing" ]; then skip "arduino block $i" "missing:$missing (bash scripts/setup.sh as root)"; continue; fi
    block arduino "$i" | sed 's/^simavr /timeout 20 simavr /' >"$T/arduino$i.sh"
    bash -e "$T/arduino$i.sh" >"$T/arduino$i.out" 2>&1
    rc=$?
    # timeout's 124: the sketch still running after its output, as a board would
    if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then ok "arduino block $i runs"
    else bad "arduino block $i" "exit $rc: $(tail -5 "$T/arduino$i.out")"; fi
    if grep -qE '([0-9]+) of \1 cases ok' "$T/arduino$i.out"; then ok "arduino block $i: the sketch's cases all ok"
    else bad "arduino block $i: the sketch says ok" "$(tail -5 "$T/arduino$i.out")"; fi
done

# device: each command fails at the device only (exit 1, one line naming it), not at its usage
for i in $(seq 1 "$(count device)"); do
    while IFS= read -r line; do
        cmd=${line%%#*}
        [ -n "${cmd// /}" ] || continue
        out=$(bash -c "$cmd" 2>&1 >/dev/null)
        rc=$?
        dev=$(grep -oE '/dev/[a-zA-Z]+[0-9.]*' <<<"$cmd" | head -1)
        dev=${dev:-/dev/spidev}
        if [ "$rc" = 1 ] && [[ "$out" == *"$dev"* ]]; then ok "device: $cmd"
        else bad "device: $cmd" "exit $rc, stderr: $out"; fi
    done < <(block device "$i")
done

# make: the targets exist
for i in $(seq 1 "$(count make)"); do
    for tgt in $(block make "$i" | awk '$1 == "make" { print $2 }'); do
        if make -n "$tgt" >/dev/null 2>&1; then ok "make $tgt exists"; else bad "make $tgt exists"; fi
    done
done

# cmake: the README's lines in a consumer of this checkout, configured
if have cmake; then
    for i in $(seq 1 "$(count cmake)"); do
        mkdir -p "$T/cmake$i"
        { printf 'cmake_minimum_required(VERSION 3.14)\nproject(app C)\n'
          printf 'add_executable(app %s/tests/cmake/with_library.c)\n' "$root"
          block cmake "$i" | sed "s|add_subdirectory(accel)|add_subdirectory($root accel)|"; } >"$T/cmake$i/CMakeLists.txt"
        if cmake -S "$T/cmake$i" -B "$T/cmake$i/b" >"$T/cmake$i.log" 2>&1; then ok "cmake block $i configures"
        else bad "cmake block $i configures" "$(grep -A3 Error "$T/cmake$i.log" | head -6)"; fi
    done
else
    skip "cmake blocks" "cmake missing (bash scripts/setup.sh as root)"
fi

# zephyr: Zephyr is not packaged for Debian, so west is not run here (tests/zephyr_check.sh
# checks the port, the samples and the overlays without it); what the commands name must exist:
# every path under the repository, and a board overlay or the sample's own board for each -b/-p
for i in $(seq 1 "$(count zephyr)"); do
    block zephyr "$i" >"$T/zephyr$i.sh"
    for p in $(grep -oE '/path/to/accel[^ ;"]*' "$T/zephyr$i.sh" | sort -u); do
        f=${p#/path/to/accel}; f=${f#/}
        if [ -e "${f:-.}" ]; then ok "zephyr block $i: ${f:-the repository} exists"; else bad "zephyr block $i names $f, which does not exist"; fi
    done
    for b in $(grep -oE -- '(-b|-p|-DBOARD=) ?[a-z0-9_/]+' "$T/zephyr$i.sh" | sed 's/^-DBOARD=//; s/^-[bp] *//' | sort -u); do
        f=$(tr / _ <<<"$b")
        if ls examples/zephyr/*/boards/"$f".overlay >/dev/null 2>&1 || grep -rqs -- "$b" examples/zephyr/*/sample.yaml; then
            ok "zephyr block $i: board $b has an overlay or a sample.yaml entry"
        else bad "zephyr block $i: board $b is not in any sample"; fi
    done
done
lib_end
