#!/usr/bin/env bash
# mac_pack_layouts.sh - a prepacked fully-connected filter is a cache for the build that made
# it: tests/pack/fcpack_xbuild.c built three ways (the AVX-512 VNNI path, the AVX2 path,
# ACCEL_MAC_NO_SIMD), each build packs four fixed cases into a file and runs every build's
# file. A build runs its own packs (read back from the file by another process: the pack does
# not depend on its address) with the output equal to test_mac.c's reference; an AVX-512 pack
# given to the AVX2 or portable build is ACCEL_E_UNSUPPORTED with nothing written; any other
# pairing either runs correctly or is ACCEL_E_UNSUPPORTED, the same for all four cases.
# The AVX-512 build runs only where the CPU has AVX-512 VNNI and BW (otherwise an ISA skip, by name).
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/mac_pack
mkdir -p "$B"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
SRC=tests/pack/fcpack_xbuild.c



# NAME FLAGS...: compile in the background (-O0: the builds' compile time is this script's
# cost; the code paths are the same at any level); the result is counted after the wait, as the
# counters of a background subshell would be lost
build() {
    local name=$1
    shift
    rm -f "$B/$name" "$B/$name.rc"
    ( gcc $W -O0 -I. "$@" "$SRC" -o "$B/$name" -lm >"$B/$name.log" 2>&1; echo $? >"$B/$name.rc" ) &
}
build avx512 -mavx2 -mavx512f -mavx512bw -mavx512vnni
build avx2 -mavx2
build portable -DACCEL_MAC_NO_SIMD
wait
for n in avx512 avx2 portable; do
    if [ "$(cat "$B/$n.rc" 2>/dev/null)" = 0 ] && [ -x "$B/$n" ]; then ok "build $n"
    else bad "build $n" "$(head -5 "$B/$n.log")"; rm -f "$B/$n"; fi
done

BUILDS=""
[ -x "$B/portable" ] && BUILDS="portable"
if [ -x "$B/avx2" ]; then
    if miss=$(cpu_lacks avx2); then isa_skip "AVX2 build's run" "$miss"; else BUILDS="$BUILDS avx2"; fi
fi
if [ -x "$B/avx512" ]; then
    if miss=$(cpu_lacks avx512f avx512bw avx512_vnni); then isa_skip "AVX-512 build's run" "$miss"
    else BUILDS="$BUILDS avx512"; fi
fi

for w in $BUILDS; do
    if out=$("$B/$w" write "$B/$w.pack" 2>&1); then
        ok "$w packs"; echo "ok   $w packs: $out"
        case "$w:$out" in
            portable:"simd 0 "*|avx2:"simd 1 "*|avx512:"simd 2 "*) ok "$w path" ;;
            *) bad "$w path" "the build did not report its SIMD path: $out" ;;
        esac
    else bad "$w packs" "$out"; fi
done

for w in $BUILDS; do
    [ -f "$B/$w.pack" ] || continue
    for r in $BUILDS; do
        out=$("$B/$r" read "$B/$w.pack" 2>&1)
        n_ok=$(printf '%s\n' "$out" | grep -c '^case [0-9]* ok$')
        n_un=$(printf '%s\n' "$out" | grep -c '^case [0-9]* unsupported$')
        if [ "$w" = "$r" ]; then want="4 ok"
        elif [ "$w" = avx512 ]; then want="4 unsupported"
        else want="4 ok or 4 unsupported"; fi
        got="$n_ok ok, $n_un unsupported"
        case "$want:$n_ok:$n_un" in
            "4 ok:4:0"|"4 unsupported:0:4"|"4 ok or 4 unsupported:4:0"|"4 ok or 4 unsupported:0:4")
                ok "$w pack on $r"; echo "ok   $w's packs on the $r build: $got" ;;
            *) bad "$w pack on $r" "want $want, got $got: $(printf '%s' "$out" | tr '\n' ';')" ;;
        esac
    done
done
lib_end
