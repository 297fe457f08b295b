#!/usr/bin/env bash
# scripts/test_section.sh SECTION [--list] - `make test-SECTION`: one section's tests, for the loop of a
# change to that section (SECTION: tsp1 edgetpu refsi ane mac tflite ports). What it runs is
# read from tests/README.md, so a file is listed in one place:
#   - the section's row of the "By section" table (the "Ports" table for ports): its unit tests
#     (tests/test_*.c), shell checks (tests/*.sh) and fuzz targets (run over their seeds);
#   - the checks of "Checks across the library" marked for every change to accel.h.
# Each unit test and fuzz target is compiled with the other sections left out (ACCEL_NO_*; the
# tflite section keeps mac, which it runs on; ports keep every section: their tests drive the
# sections' device models, test_bridge.c the TSP1's, as devices), with the
# sanitizers and flags of `make tests` (the Makefile passes them), into build/test-SECTION/.
# Each part prints its counts and seconds; the last line is "N passed, N failed". --list prints
# the files it would run, one per line, and runs nothing.
set -u
cd "$(dirname "$0")/.."
SEC=${1:-}
SECTIONS="tsp1 edgetpu refsi ane mac tflite"
case " $SECTIONS ports " in
*" $SEC "*) [ -n "$SEC" ] || { echo "usage: make test-SECTION, SECTION one of: $SECTIONS ports" >&2; exit 2; } ;;
*) echo "usage: make test-SECTION, SECTION one of: $SECTIONS ports (not '$SEC')" >&2; exit 2 ;;
esac
LIST=${2:-}
# the Makefile's test flags and libraries (as make writes them: eval undoes the quoting)
if [ "$LIST" != --list ]; then
    eval "TFLAGS=(${ACCEL_TFLAGS:?run through make test-$SEC})"
    eval "TLIBS=(${ACCEL_TLIBS:?run through make test-$SEC})"
fi
CC=${CC:-cc}
OUT=build/test-$SEC
mkdir -p "$OUT"
PASS=0
FAIL=0
T0=$SECONDS

# the other sections, left out
keep=$SEC
[ "$SEC" = tflite ] && keep="tflite mac"
[ "$SEC" = ports ] && keep=$SECTIONS
NO=()
for s in $SECTIONS; do
    case " $keep " in *" $s "*) ;; *) NO+=("-DACCEL_NO_$(tr a-z A-Z <<<"$s")=") ;; esac
done

# the files named in backticks on the section's table row(s)
if [ "$SEC" = ports ]; then
    rows=$(awk '/^## Ports/ { on = 1; next } /^## / { on = 0 } on && /^\| [a-z]/ && !/^\| port /' tests/README.md)
else
    rows=$(awk -v s="$SEC" '/^## By section/ { on = 1; next } /^## / { on = 0 } on && $0 ~ "^\\| " s " \\|"' tests/README.md)
fi
[ -n "$rows" ] || { echo "tests/README.md has no row for $SEC" >&2; exit 1; }
files=$(grep -o '`[^`]*`' <<<"$rows" | tr -d '`' | grep -E '^(test_[a-z0-9_]+\.c|fuzz_[a-z0-9_]+\.c|[a-z0-9_]+\.sh)$' | sort -u)
# the header-wide checks: rows of "Checks across the library" whose last cell says so
across=$(awk '/^## Checks across the library/ { on = 1; next } /^## / { on = 0 }
              on && /\| every change to accel\.h \|$/' tests/README.md | grep -o '^| `[^`]*`' | tr -d '|` ')

if [ "$LIST" = --list ]; then
    for f in $files; do case $f in fuzz_*) echo "tests/fuzz/$f" ;; *) echo "tests/$f" ;; esac; done
    for f in $across; do echo "tests/$f"; done
    exit 0
fi

# add_counts NAME SECONDS LOG: the "N passed, M failed" line of LOG into the totals
add_counts() {
    local line p f
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$3" | tail -1)
    if [ -z "$line" ]; then
        FAIL=$((FAIL + 1)); echo "FAIL $1 (no result line, ${2} s)"; tail -15 "$3" | sed 's/^/     | /'
        return
    fi
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    PASS=$((PASS + p)); FAIL=$((FAIL + f))
    if [ "$f" = 0 ]; then echo "ok   $1: $line (${2} s)"
    else echo "FAIL $1: $line (${2} s)"; grep FAIL "$3" | head -20 | sed 's/^/     | /'; fi
    grep -E '^SKIP ' "$3" | sed 's/^/     /'
}
one_fail() { FAIL=$((FAIL + 1)); echo "FAIL $1"; [ -f "${2:-}" ] && tail -20 "$2" | sed 's/^/     | /'; }

# the ports library the tests link (make builds it, or finds it current)
make -s build/tests/libports.a >"$OUT/make.log" 2>&1 || { one_fail "make build/tests/libports.a" "$OUT/make.log"; }

echo "== unit tests, other sections left out: ${NO[*]:-none}"
for f in $files; do
    case $f in test_*.c) ;; *) continue ;; esac
    n=${f%.c}; t=$SECONDS
    if ! "$CC" "${TFLAGS[@]}" "${NO[@]}" -o "$OUT/$n" "tests/$f" "${TLIBS[@]}" >"$OUT/$n.build.log" 2>&1; then
        one_fail "build $n ($((SECONDS - t)) s)" "$OUT/$n.build.log"; continue
    fi
    "$OUT/$n" >"$OUT/$n.log" 2>&1
    add_counts "$n" $((SECONDS - t)) "$OUT/$n.log"
done

echo "== fuzz targets over their seeds"
for f in $files; do
    case $f in fuzz_*.c) ;; *) continue ;; esac
    n=${f%.c}; t=$SECONDS; xf=()
    if [ -f "tests/fuzz/$n.flags" ]; then read -ra xf <<<"$(grep -v '^#' "tests/fuzz/$n.flags" | tr '\n' ' ')"; fi
    seeds=tests/fuzz/seeds/${n#fuzz_}
    if "$CC" -std=c99 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DACCEL_FUZZ_MAIN \
        -I. -Iports/sim -Itests "${NO[@]}" "tests/fuzz/$f" ${xf[@]+"${xf[@]}"} -o "$OUT/$n" >"$OUT/$n.log" 2>&1 &&
        "$OUT/$n" "$seeds" >>"$OUT/$n.log" 2>&1; then
        PASS=$((PASS + 1)); echo "ok   $n over $seeds ($((SECONDS - t)) s)"
    else one_fail "$n over $seeds ($((SECONDS - t)) s)" "$OUT/$n.log"; fi
done

echo "== shell checks"
for f in $files $across; do
    case $f in *.sh) ;; *) continue ;; esac
    t=$SECONDS
    bash "tests/$f" >"$OUT/${f%.sh}.sh.log" 2>&1
    add_counts "$f" $((SECONDS - t)) "$OUT/${f%.sh}.sh.log"
done

echo "test-$SEC: $((SECONDS - T0)) s"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
