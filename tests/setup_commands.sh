#!/usr/bin/env bash
# setup_commands.sh - every external command the test scripts run is either installed by
# scripts/setup.sh (its command -> package table, `setup.sh --commands`, whose packages must be
# in its package list) or checked in the script that runs it (`have CMD` / `command -v CMD`),
# so that a fresh Debian 12 machine skips it by name instead of failing.
# A command is a word in command position (line start, after | ; && || ( $( ` { and after
# if/then/do/else/!/time/exec) in tests/*.sh, tests/*/*.sh and scripts/*.sh, outside comments,
# quotes and here-documents; shell keywords, builtins, functions the scripts define, paths and
# variables are not commands, and neither are the programs of Debian's required packages.
# One case per command found, plus one for the table's packages. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"

table=$(bash scripts/setup.sh --commands) || { bad "setup.sh --commands"; lib_end; exit; }
pkgs=" $(bash scripts/setup.sh --list | tr '\n' ' ') "
# the table names packages of the list only
while read -r c p; do
    [ -n "$c" ] || continue
    case "$pkgs" in *" $p "*) ok "table: $c" ;; *) bad "table: $c" "package $p is not in setup.sh's list" ;; esac
done <<<"$table"

# Programs of the Essential and Priority: required packages are on every Debian system (the
# smallest debootstrap installs them, and dpkg refuses to remove the Essential ones).
essential=""
if have dpkg-query; then
    for p in $(dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' 2>/dev/null | awk '$2 == "yes" || $3 == "required" {print $1}'); do
        essential="$essential $(dpkg-query -L "$p" 2>/dev/null | grep -E '^(/usr)?/s?bin/' | sed 's#.*/##' | tr '\n' ' ')"
    done
else
    skip "Essential programs from dpkg" "dpkg-query missing: not a Debian system"
fi

found=$(python3 tests/setup_commands.py "awk $essential" tests/*.sh tests/*/*.sh scripts/*.sh 2>&1) || { bad "scan of the scripts" "$found"; lib_end; exit; }

known=" $(printf '%s\n' "$table" | awk '{print $1}' | tr '\n' ' ') "
while read -r cmd where how; do
    [ -n "$cmd" ] || continue
    case "$known" in
        *" $cmd "*) ok "$cmd ($where): installed by setup.sh" ;;
        *) if [ "$how" = guarded ]; then ok "$cmd ($where): checked and skipped by name"
           else bad "$cmd ($where)" "neither in setup.sh's command table nor checked with have/command -v"; fi ;;
    esac
done <<<"$found"
lib_end
