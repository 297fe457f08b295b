#!/usr/bin/env bash
# tests_readme.sh - tests/README.md is complete and current: it names (in backticks) every file
# of tests/ (scripts, test programs, helpers, fuzz targets) and every subdirectory, and every
# file name it gives exists (in tests/, tests/fuzz/ or from the repository root); each section
# and each port has its row, which `make test-SECTION` (scripts/test_section.sh) reads.
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
R=tests/README.md
named=$(grep -o '`[^`]*`' "$R" | tr -d '`')
is_named() { grep -qxF -- "$1" <<<"$named"; }
for f in $(cd tests && ls *.sh *.c *.h *.py 2>/dev/null) $(cd tests/fuzz && ls *.c *.h 2>/dev/null); do
    if is_named "$f" || is_named "fuzz/$f"; then ok "named: $f"; else bad "tests/README.md does not name $f"; fi
done
for d in $(cd tests && ls -d */ 2>/dev/null); do
    if is_named "$d"; then ok "named: $d"; else bad "tests/README.md does not name the directory $d"; fi
done
# every file name it gives is there (patterns such as test_<section>.c are not names)
while IFS= read -r f; do
    case $f in *"<"*|*"*"*|*" "*) continue ;; esac
    if [ -e "tests/$f" ] || [ -e "tests/fuzz/$f" ] || [ -e "$f" ]; then ok "exists: $f"
    else bad "tests/README.md names $f, which does not exist"; fi
done < <(grep -E '^[A-Za-z0-9_./-]+\.(c|h|sh|py|json|md)$' <<<"$named" | sort -u)
# a row per section (By section) and per port (Ports), as scripts/test_section.sh reads them
for s in common tsp1 edgetpu refsi ane mac tflite; do
    if awk '/^## By section/{on=1;next} /^## /{on=0} on' "$R" | grep -q "^| $s |"; then ok "row: $s"
    else bad "tests/README.md has no By section row for $s"; fi
done
for p in $(cd ports && ls -d */ | tr -d /); do
    [ "$p" = impl ] && continue # the implementation's one translation unit, not a port
    if awk '/^## Ports/{on=1;next} /^## /{on=0} on' "$R" | grep -q "^| $p |"; then ok "port row: $p"
    else bad "tests/README.md has no Ports row for $p"; fi
done
# what make test-SECTION runs for each section: files that exist, a unit test among them
for s in tsp1 edgetpu refsi ane mac tflite ports; do
    list=$(bash scripts/test_section.sh "$s" --list)
    gone=$(for f in $list; do [ -e "$f" ] || echo "$f"; done | tr '\n' ' ')
    if [ -n "$list" ] && [ -z "$gone" ] && grep -q '/test_.*\.c$' <<<"$list"; then ok "make test-$s: $(wc -l <<<"$list") files"
    else bad "make test-$s runs what is there" "missing: ${gone:-none}; list: $(tr '\n' ' ' <<<"$list")"; fi
done
# the header-wide checks make test-SECTION adds are there
n=$(awk '/^## Checks across the library/{on=1;next} /^## /{on=0} on' "$R" | grep -c '| every change to accel\.h |$')
if [ "$n" -ge 5 ]; then ok "$n checks marked for every change to accel.h"; else bad "only $n checks marked for every change to accel.h"; fi
lib_end
