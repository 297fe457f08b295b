# tests/lib.sh - the counters every tests/*.sh shares. Source it first:
#   . "$(dirname "$0")/lib.sh"      # also cds to the repository root
#   check NAME WANT_RC WANT_SUBSTRING command...   # runs it, compares exit code and output
#   ok NAME / bad NAME [detail]                     # record one case
#   same NAME GOT WANT                              # one case: two strings must be equal
#   skip NAME REASON                                # listed by name; a failure under ACCEL_REQUIRE_ALL=1
#   cpu_has FLAG / cpu_lacks FLAGS...               # /proc/cpuinfo flags; cpu_lacks prints the missing ones
#   isa_skip NAME MISSING                           # compiled, but this CPU cannot execute it: listed by
#                                                   # name with the CPU, never a failure (not a missing tool)
#   D=$(data_dir SUB ENV) || skip NAME "$(data_absent SUB ENV)"   # third-party artefacts (README):
#                                                   # $ENV, else $DATA_ROOT/SUB
#   py_cases NAME ARGS... <<'PY' ... PY             # a python3 check printing "ok CASE" / "FAIL CASE"
#   lib_end                                         # prints "N passed, N failed", returns the status
# scripts/test.sh adds the last line's counts to its own and lists every SKIP line.
cd "$(dirname "${BASH_SOURCE[1]:-$0}")/.." || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1${2:+: $2}"; }
skip() {
    if [ "${ACCEL_REQUIRE_ALL:-0}" = 1 ]; then bad "$1" "skipped, but ACCEL_REQUIRE_ALL=1: $2"
    else echo "SKIP $1: $2"; fi
}
# A build for an instruction set this CPU lacks is still compiled (a build failure is a failure);
# only its run is skipped. ACCEL_REQUIRE_ALL=1 forbids skips for missing tools and data, not
# for a CPU that cannot execute the code: CI runs on whatever x86-64 machine it gets.
CPU_FLAGS=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
CPU_MODEL=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')
cpu_has() { case "$CPU_FLAGS" in *" $1 "*) return 0 ;; esac; return 1; }
cpu_lacks() {
    local f out=""
    for f in "$@"; do cpu_has "$f" || out="$out $f"; done
    [ -n "$out" ] && echo "${out# }"
}
isa_skip() { echo "SKIP $1: this CPU lacks $2 (compiled, not run; CPU: ${CPU_MODEL:-unknown}) [isa]"; }
same() {
    if [ "$2" = "$3" ]; then ok "$1"
    else bad "$1" "got [$(printf '%s' "$2" | head -c 600)] want [$(printf '%s' "$3" | head -c 600)]"; fi
}
# Third-party artefacts are not part of the repository: print their directory ($2 names the
# variable that overrides it), or fail when it does not exist so the caller skips by name.
# DATA_ROOT is the fallback of the README's contract (testlib.h's TL_DATA_ROOT is the same).
DATA_ROOT=../shared/data
data_dir() {
    local d=${2:+${!2:-}}
    d=${d:-$DATA_ROOT/$1}
    [ -d "$d" ] && printf '%s\n' "$d"
}
# the reason to skip with when data_dir SUB ENV found nothing
data_absent() {
    local d=${2:+${!2:-}}
    if [ -n "$d" ]; then echo "third-party data absent ($2=$d)"
    else echo "third-party data absent (no $DATA_ROOT/$1; $2 overrides it)"; fi
}
have() { command -v "$1" >/dev/null 2>&1; }
check() {
    local name=$1 want_rc=$2 want=$3 out rc
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" = "$want_rc" ] && [[ "$out" == *"$want"* ]]; then ok "$name"
    else bad "$name" "rc=$rc (want $want_rc), output: $(printf '%s' "$out" | head -c 600)"; fi
}
# py_cases NAME ARGS... <<'PY' program PY: runs the python3 program on stdin with ARGS; each line
# "ok CASE" or "FAIL CASE[: why]" it prints is one case, other lines are shown as they are.
# Without python3 the whole check is skipped by NAME.
py_cases() {
    local name=$1 out line
    shift
    if ! have python3; then skip "$name" "python3 not installed"; return; fi
    out=$(python3 - "$@")
    while IFS= read -r line; do
        case "$line" in
        "ok "*) ok "${line#ok }" ;;
        "FAIL "*) bad "${line#FAIL }" ;;
        *) printf '%s\n' "$line" ;;
        esac
    done <<<"$out"
}
# host_and_mega B SRC: tests/avr programs that check 16-bit size_t refusals. SRC is built for the
# host (size_t 64 bits) and for an ATmega2560 (avr-gcc -Os, the full warning set, run under
# simavr); each run's last result line must be "N passed, 0 failed" with N > 0.
host_and_mega() {
    local B=$1 SRC=$2 elf
    local W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
    elf=$B/$(basename "$SRC" .c).elf
    mkdir -p "$B"
    # shellcheck disable=SC2086
    if gcc $W -O1 -I. "$SRC" -o "$B/host" >"$B/host.log" 2>&1; then
        result_line_ok "host (64-bit size_t)" "$("$B/host" 2>&1)"
    else bad "host build" "$(head -10 "$B/host.log")"; fi
    # shellcheck disable=SC2086
    if ! have avr-gcc; then skip "ATmega2560 build" "avr-gcc missing (gcc-avr, avr-libc)"
    elif ! avr-gcc $W -Os -mmcu=atmega2560 -ffunction-sections -fdata-sections -Wl,--gc-sections -I. \
            "$SRC" -o "$elf" >"$B/avr.log" 2>&1; then
        bad "ATmega2560 build" "$(head -10 "$B/avr.log")"
    else
        ok "ATmega2560 build"; echo "ok   ATmega2560 build (16-bit size_t)"
        if ! have simavr; then skip "ATmega2560 run" "simavr missing"
        else result_line_ok "ATmega2560 under simavr (16-bit size_t)" \
            "$(timeout 60 simavr -m atmega2560 -f 16000000 "$elf" 2>&1)"; fi
    fi
}
# result_line_ok NAME OUTPUT: OUTPUT's last result line is "N passed, 0 failed" (N > 0)
result_line_ok() {
    local name=$1 out=$2 last
    last=$(printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g; s/\.$//' | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    if echo "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then ok "$name"; echo "ok   $name: $last"
    else bad "$name" "$(printf '%s\n' "$out" | tail -5)"; fi
}
# pytest_tally NAME LOG: the counts of one pytest run (-q -rs) whose output is LOG added to ours;
# a pytest skip means something the suite needs is missing: named like every other skip.
pytest_tally() {
    local name=$1 log=$2 line p f e s
    line=$(tail -1 "$log")
    p=$(grep -o '[0-9]* passed' <<<"$line" | cut -d' ' -f1)
    f=$(grep -o '[0-9]* failed' <<<"$line" | cut -d' ' -f1)
    e=$(grep -o '[0-9]* error' <<<"$line" | cut -d' ' -f1)
    s=$(grep -o '[0-9]* skipped' <<<"$line" | cut -d' ' -f1)
    pass=$((pass + ${p:-0}))
    if [ -z "$p" ] || [ "${f:-0}" != 0 ] || [ "${e:-0}" != 0 ]; then
        fail=$((fail + ${f:-0} + ${e:-0}))
        [ -z "$p$f$e" ] && fail=$((fail + 1))
        echo "FAIL pytest $name: $line"
        grep -E '^(FAILED|ERROR)' "$log" | head -20 | sed 's/^/     | /'
    fi
    if [ "${s:-0}" != 0 ]; then
        grep -E '^SKIPPED' "$log" | sed 's/^SKIPPED \[[0-9]*\] [^:]*:[0-9]*: //; s/^SKIPPED \[[0-9]*\] //' | sort | uniq -c |
            while read -r count why; do skip "pytest $name ($count)" "$why"; done
        grep -qE '^SKIPPED' "$log" || skip "pytest $name" "$s skipped"
    fi
    echo "  pytest $name: $line"
}
lib_end() {
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
}
