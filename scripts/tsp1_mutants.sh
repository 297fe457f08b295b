#!/usr/bin/env bash
# tsp1_mutants.sh - by hand, not part of make test (it builds each test once per mutant): every
# fix of the TSP1 promises issue (update positions, sleep, two sessions, REBOOT, full and late
# response buffers, long answers, the running mask, impossible NN_INFO content, 16-bit sizes)
# and of what the soak found on the way (M11: the lost state after a drop in a long ECHO)
# reverted or perturbed, one mutant at a time, in a temp copy of the tree; the tests that must
# catch it are built against that copy (the test build's flags, sanitizers on, without -Werror:
# a mutant may leave a variable unused) and run.
#   bash scripts/tsp1_mutants.sh             every mutant
#   bash scripts/tsp1_mutants.sh M6 M9a      only these
#   TSP1_MUTANT_JOBS=1                       builds one at a time (default 2)
# A mutant is caught when one of its tests fails, traps or runs past 300 s. Prints one table row
# per mutant and exits 1 if any mutant survives, its text is not found exactly once (the code
# moved: update the mutant), or the unmutated tree fails a test (nothing would be learned).
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
ASSERT='-DACCEL_ASSERT(x)=((x) ? (void)0 : __builtin_trap())'
JOBS=${TSP1_MUTANT_JOBS:-2}

# name | fix it undoes | file | text | replacement | tests (test_* binaries; sh:NAME runs
# tests/NAME.sh). Text and replacement are literal (no regex), one line each.
MUTANTS=$(cat <<'EOF'
M1a|1 update: a failed closing reboot keeps its own status, not REBOOT_PENDING|accel.h|    return st == ACCEL_OK \|\| st == ACCEL_E_TSP1_ROM ? st : ACCEL_E_TSP1_REBOOT_PENDING;|    return st;|test_tsp1_promises test_tsp1_soak
M1b|1 update: a chunk of unknown fate keeps position (no_cancel)|accel.h|        else if (st != ACCEL_OK && !accel__tsp1_not_run(st) && s->next_tid != t0)|        else if (0)|test_tsp1_promises test_tsp1_soak
M1c|1 update: a FINISH of unknown fate starts over instead of rebooting|accel.h|        else if (st == ACCEL_E_TSP1_ERR_CRYPT \|\| accel__tsp1_not_run(st) \|\| s->next_tid == t0)|        else if (st != ACCEL_OK)|test_tsp1_promises test_tsp1_soak
M1d|1 update: a reboot into ROM leaves position at the total|accel.h|    u->position = st == ACCEL_E_TSP1_ROM ? 0u : u->total; /* ROM: the image did not take */|    u->position = u->total;|test_tsp1_promises test_tsp1_soak
M2a|2 sleep: OK on its timeout|accel.h|    return st == ACCEL_OK ? accel__tsp1_cmd_drained(s, timeout_ms) : st;|    return st == ACCEL_OK ? ((void)accel__tsp1_cmd_drained(s, timeout_ms), ACCEL_OK) : st;|test_tsp1_promises test_tsp1_soak
M2b|2 sleep: waits without reading answers|accel.h|        (void)accel_tsp1_poll(s); /* what it reports goes to on_outcome/on_async */|        /* no poll */|test_tsp1_promises test_tsp1_soak
M2c|2 wake: pulses before the DEEP_SLEEP left the command buffer|accel.h|    st = s->asleep == 1 ? accel__tsp1_cmd_drained(s, timeout_ms) : ACCEL_OK;|    st = ACCEL_OK;|test_tsp1_promises test_tsp1_soak
M3a|3 two sessions: DISCARDED although a foreign answer came|accel.h|                                      !s->foreign && !f ? ACCEL_E_TSP1_DISCARDED : st, f);|                                      !f ? ACCEL_E_TSP1_DISCARDED : st, f);|test_tsp1_promises test_tsp1_soak
M3b|3 two sessions: a foreign answer is not remembered|accel.h|            s->foreign = 1;\n            accel__tsp1_on_async(s, f);|            accel__tsp1_on_async(s, f);|test_tsp1_promises test_tsp1_soak
M3c|3 two sessions: foreign not reset by a new error|accel.h|        s->foreign = 0;|        (void)0;|test_tsp1_promises test_tsp1_soak
M3d|3 two sessions: no lock on the device node|ports/linux/accel_linux_base.c|    do r = flock(*fd_slot, LOCK_EX \| LOCK_NB);|    do r = 0;|test_tsp1_lock
M4|4 REBOOT: a boot seen while settled is not its OK|accel.h|                accel__tsp1_finish(s, s->settled ? ACCEL_OK : ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);|                accel__tsp1_finish(s, ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);|test_tsp1_promises test_tsp1_soak
M5a|5 full response buffer: deadlines while the command buffer holds commands|accel.h|            empty = 0;\n            for (i = 0; (p = accel__tsp1_at(s, i)) != NULL; i++) p->sent_ms = now;|            for (i = 0; (p = accel__tsp1_at(s, i)) != NULL; i++) p->sent_ms = now;|test_tsp1_promises test_tsp1_soak
M5b|5 full response buffer: deadlines not restarted while commands wait|accel.h|            for (i = 0; (p = accel__tsp1_at(s, i)) != NULL; i++) p->sent_ms = now;|            (void)i;|test_tsp1_promises test_tsp1_soak
M6a|6 late poll: deadlines after 4 KiB read|accel.h|    /* a command still in the device's command buffer has not completed|    if (st == ACCEL_OK \&\& rounds == 64u) empty = 1;\n    /* a command still in the device's command buffer has not completed|test_tsp1_promises test_tsp1_soak
M6b|6 late poll: a level of all ones taken as a level|accel.h|        if (st == ACCEL_OK && (fill & space) == 0xFFFFu) st = ACCEL_E_IO;|        (void)0;|test_tsp1_promises test_tsp1_soak
M7a|7 rx: rsp_payload 4 accepted|accel.h|    if (depth < 2 \|\| rsp_payload < 8u \|\| (depth \| cmd_payload \| rsp_payload) > 0xFFFFu)|    if (depth < 2 \|\| rsp_payload < 4u \|\| (depth \| cmd_payload \| rsp_payload) > 0xFFFFu)|test_tsp1_promises test_tsp1_soak
M7b|7 rx: the deprecated rx_len under 20 accepted|accel.h|            (rm && rl < ACCEL_TSP1_OVERHEAD + 8u))|            (rm && rl < ACCEL_TSP1_OVERHEAD + 4u))|test_tsp1_promises test_tsp1_driver
M7c|7 long error: dropped whole again|accel.h|#define ACCEL_TSP1_LONG_ERROR_MAX 255u|#define ACCEL_TSP1_LONG_ERROR_MAX 0u|test_tsp1 test_tsp1_promises test_tsp1_soak
M7d|7 long error: its CRC not checked|accel.h|        if ((cut ? d->crc : ACCEL_TSP1_CRC(d->buf, need - 4)) != accel__tsp1_get32(d->buf + need - 4)) {|        if (!cut \&\& ACCEL_TSP1_CRC(d->buf, need - 4) != accel__tsp1_get32(d->buf + need - 4)) {|test_tsp1 test_tsp1_promises test_tsp1_soak
M7e|7 long error: the bytes not held are not counted when it fails|accel.h|        d->dropped[reason] += (uint32_t)(d->len + d->passed);|        d->dropped[reason] += (uint32_t)d->len;|test_tsp1 test_tsp1_promises test_tsp1_soak
M7g|7 long error: followed although its rest is not there|accel.h|                    (d->passed \|\| take <= n - pos \|\| take - (n - pos) <= d->more)) {|                    1) {|test_tsp1 test_tsp1_promises test_tsp1_soak
M7h|7 long error: the driver does not say what the response buffer still holds|accel.h|            s->dec.more = fill - got; /* the rest of a frame begun here is among them */|            (void)0;|test_tsp1_promises test_tsp1_soak
M7f|7 rx: an ECHO whose answer cannot fit the receive buffer is sent|accel.h|    if (id == ACCEL_TSP1_ECHO && cap > s->dec.cap) cap = s->dec.cap;|    (void)0;|test_tsp1_driver test_tsp1_promises test_tsp1_soak
M8|8 running mask: update_run refuses on a stale mask|accel.h|    st = accel_tsp1_buf_level(\&s->bus, ACCEL_TSP1_BUF_CMD, \&fill, \&space);\n    if (st != ACCEL_OK) return st;\n    /* a command and its marker must fit|    if (s->running_mask) return ACCEL_E_BUSY;\n    st = accel_tsp1_buf_level(\&s->bus, ACCEL_TSP1_BUF_CMD, \&fill, \&space);\n    if (st != ACCEL_OK) return st;\n    /* a command and its marker must fit|test_tsp1_promises test_tsp1_soak
M9a|9 NN_INFO: another slot's IDX accepted|accel.h|    return st == ACCEL_OK && info->idx != idx ? ACCEL_E_MALFORMED : st;|    return st;|test_tsp1_promises test_tsp1_soak
M9b|9 NN_INFO: VALID not tied to IDX < N_TOTAL|accel.h|        p[2] > ACCEL_TSP1_MAX_NETS \|\| p[0] != (p[1] < p[2]))|        p[2] > ACCEL_TSP1_MAX_NETS)|test_tsp1_promises test_tsp1_soak
M9c|9 NN_INFO: N_TOTAL over 32 accepted|accel.h|        p[2] > ACCEL_TSP1_MAX_NETS \|\| p[0] != (p[1] < p[2]))|        p[0] != (p[1] < p[2]))|test_tsp1_promises test_tsp1_soak
M9d|9 NN_INFO: IDX 32 or more accepted|accel.h|    if (n != 8 \|\| p[0] > 1 \|\| p[7] > 3 \|\| p[1] >= ACCEL_TSP1_MAX_NETS \|\||    if (n != 8 \|\| p[0] > 1 \|\| p[7] > 3 \|\||test_tsp1 test_tsp1_errors test_tsp1_promises test_tsp1_soak
M9e|9 NN_INFO: STATE over 3 accepted|accel.h|    if (n != 8 \|\| p[0] > 1 \|\| p[7] > 3 \|\| p[1] >= ACCEL_TSP1_MAX_NETS \|\||    if (n != 8 \|\| p[0] > 1 \|\| p[1] >= ACCEL_TSP1_MAX_NETS \|\||test_tsp1 test_tsp1_errors test_tsp1_promises test_tsp1_soak
M10a|10 16-bit size_t: the driver's size wraps|accel.h|    if ((size_t)need != need) return ACCEL_E_OVERFLOW;\n    *bytes = (size_t)need;|    *bytes = (size_t)need;|sh:sizes_avr
M10b|10 16-bit size_t: ACCEL_TSP1_DRIVER_MEM sums the payloads in size_t|accel.h|     3ul * ACCEL_TSP1_OVERHEAD + (unsigned long)(cmd_payload) + (unsigned long)(rsp_payload))|     3ul * ACCEL_TSP1_OVERHEAD + (unsigned long)((size_t)(cmd_payload) + (size_t)(rsp_payload)))|sh:sizes_avr
M10c|10 16-bit size_t: the model's size wraps|accel.h|    if ((size_t)rsp_cap > room \|\| (size_t)cmd_cap > (room - rsp_cap) / 3u) return ACCEL_E_OVERFLOW;|    if ((size_t)rsp_cap > room) return ACCEL_E_OVERFLOW;|sh:sizes_avr
M11a|lost: one empty level read (no CRC) ends it|accel.h|        if (st == ACCEL_OK && !fill && (s->lost \|\| s->dec.len != s->dec.emitted) && !again) {|        if (0) {|test_tsp1_promises test_tsp1_soak
M11c|lost: an empty read that gave up a cut frame does not end it|accel.h|            s->lost = 0;\n            empty = 1;|            if (s->dec.dropped[ACCEL_TSP1_DROP_TRUNCATED] == 0) s->lost = 0;\n            empty = 1;|test_tsp1_promises test_tsp1_soak
M11b|lost: an answer ignored while lost leaves doomed commands DISCARDED|accel.h|        s->foreign = 1; /* or be the evidence that a doomed command ran: they end UNKNOWN */|        (void)0;|test_tsp1_promises test_tsp1_soak
M11d|lost: bytes dropped after an error leave doomed commands DISCARDED|accel.h|                s->foreign = 1;\n                if (s->big) s->lost = 1;|                if (s->big) s->lost = 1;|test_tsp1_promises test_tsp1_soak
EOF
)

# mutate FILE TEXT REPLACEMENT: exactly one occurrence, else status 3 (\n is a newline, "\|" and
# "\&" stand for | and & so that a row stays one line of |-separated fields)
mutate() {
    python3 - "$@" <<'EOP'
import sys
path, old, new = sys.argv[1:4]
def unq(s): return s.replace('\\n', '\n').replace('\\|', '|').replace('\\&', '&')
old, new = unq(old), unq(new)
src = open(path).read()
if src.count(old) != 1:
    sys.exit(3)
open(path, 'w').write(src.replace(old, new))
EOP
}

# build_run TREE TEST LOG: 0 passed, 1 failed (caught), 2 build failed
build_run() {
    local tree=$1 t=$2 log=$3 bin extra=""
    if [ "${t#sh:}" != "$t" ]; then
        ( cd "$tree" && timeout 300 bash "tests/${t#sh:}.sh" ) >"$log" 2>&1
        grep -Eq '^[1-9][0-9]* passed, 0 failed' <(tail -1 "$log") && return 0 || return 1
    fi
    bin=$tree/build/$t
    mkdir -p "$tree/build"
    case $t in test_tsp1_lock) extra=$(echo "$tree"/ports/linux/*.c) ;; esac
    # shellcheck disable=SC2086
    if ! cc $W -O1 -g $SAN "$ASSERT" -I"$tree" -I"$tree/ports/sim" -I"$tree/ports/linux" \
            -I"$tree/tests" -o "$bin" "$tree/tests/$t.c" "$tree/ports/sim/accel_sim.c" $extra -lm \
            >"$log" 2>&1; then
        return 2
    fi
    ( cd "$tree" && ACCEL_TEST_SEED=12 timeout 300 "$bin" ) >>"$log" 2>&1 || return 1
    grep -Eq '^[0-9]+ passed, 0 failed' <(tail -1 "$log") && return 0 || return 1
}

copy_tree() { # DIR: the files a mutant's tests need
    mkdir -p "$1"
    cp -r "$ROOT/accel.h" "$ROOT/tests" "$ROOT/ports" "$1/"
}

# one mutant: prints "NAME|FIX|TESTS|VERDICT|DETAIL" to its result file
run_mutant() {
    local row=$1 out=$2 name fix file old new tests dir t r caught="" built=1
    IFS='|' read -r name fix file old new tests <<<"$(printf '%s' "$row" | sed 's/\\|/\x01/g')"
    old=${old//$'\x01'/\\|}; new=${new//$'\x01'/\\|}; fix=${fix//$'\x01'/|}
    dir=$T/$name
    copy_tree "$dir"
    if ! mutate "$dir/$file" "$old" "$new"; then
        echo "$name|$fix|$tests|NOT APPLIED|text not found once in $file" >"$out"; return
    fi
    for t in $tests; do
        build_run "$dir" "$t" "$T/$name.$t.log"; r=$?
        if [ $r = 1 ]; then caught="$caught $t"; elif [ $r = 2 ]; then built=0; fi
    done
    if [ -n "$caught" ]; then echo "$name|$fix|$tests|caught|by${caught}" >"$out"
    elif [ $built = 0 ]; then echo "$name|$fix|$tests|BUILD FAILED|$(grep -m1 error: "$T/$name".*.log)" >"$out"
    else echo "$name|$fix|$tests|MISSED|every test passed" >"$out"; fi
    rm -rf "$dir"
}

want=" $* "
rows=()
while IFS= read -r row; do
    [ -n "$row" ] || continue
    [ $# -eq 0 ] || [[ $want == *" ${row%%|*} "* ]] && rows+=("$row")
done <<<"$MUTANTS"
[ ${#rows[@]} -gt 0 ] || { echo "no such mutant: $*"; exit 2; }

# the unmutated tree must pass every test named, or a "caught" means nothing
base_tests=$(for row in "${rows[@]}"; do printf '%s\n' "${row##*|}"; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
copy_tree "$T/base"
for t in $base_tests; do
    if ! build_run "$T/base" "$t" "$T/base.$t.log"; then
        echo "the unmutated tree fails $t:"; tail -5 "$T/base.$t.log"; exit 1
    fi
done
rm -rf "$T/base"

i=0
for row in "${rows[@]}"; do
    run_mutant "$row" "$T/result.$(printf %03d $i)" &
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
done
wait

fail=0
printf '%-5s %-12s %-70s %s\n' mutant verdict "fix undone" "tests / detail"
for f in "$T"/result.*; do
    IFS='|' read -r name fix tests verdict detail <"$f"
    printf '%-5s %-12s %-70s %s\n' "$name" "$verdict" "$fix" "$detail"
    [ "$verdict" = caught ] || fail=1
done
n=$(ls "$T"/result.* | wc -l); c=$(cat "$T"/result.* | grep -c '|caught|')
echo "$c of $n mutants caught"
exit $fail
