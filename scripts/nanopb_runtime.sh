#!/usr/bin/env bash
# scripts/nanopb_runtime.sh - put nanopb's runtime sources (pb.h, pb_common, pb_encode, pb_decode
# and the licence) into build/ and print that directory. Cross builds (AVR, the Arduino library)
# need them; Debian's libnanopb-dev ships headers and an x86-64 library only.
# The sources come from Debian's nanopb source package, the same version as the installed
# libnanopb-dev when there is one. When the system has no deb-src entry, a private apt list in
# build/ names the system's own Debian mirror; the system's apt configuration is not touched.
# Nothing fetched here is committed: build/ is not part of the repository.
#   bash scripts/nanopb_runtime.sh      prints e.g. build/nanopb-runtime-0.4.7 (exit 1: failed)
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
mkdir -p "$B"
ver=$(dpkg-query -W -f='${source:Version}' libnanopb-dev 2>/dev/null || true)
upstream=${ver%-*}
out="$B/nanopb-runtime${upstream:+-$upstream}"
if [ -f "$out/pb_decode.c" ] && [ -f "$out/pb_encode.c" ] && [ -f "$out/pb_common.c" ]; then
  echo "$out"
  exit 0
fi
log="$B/nanopb-runtime.log"
: >"$log"
work="$B/nanopb-fetch"
rm -rf "$work"
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
pkg="nanopb${ver:+=$ver}"
fetch() { # extra apt options...
  (cd "$work/src" && apt-get -q "$@" -o APT::Sandbox::User="$(id -un)" source --download-only "$pkg") >>"$log" 2>&1
}
# 1) the system's own deb-src entries, if it has any
if ! fetch; then
  # 2) a private list: deb-src for the Debian mirror and release the system already uses
  mirror=$(grep -hoE '(URIs:|deb)[[:space:]]+[^[:space:]]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
             /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | grep -m1 'debian')
  suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  if [ -z "$mirror" ] || [ -z "$suite" ]; then
    echo "nanopb_runtime: no Debian mirror or release found in /etc/apt and /etc/os-release" >&2
    exit 1
  fi
  key=/usr/share/keyrings/debian-archive-keyring.gpg
  opt=""
  [ -f "$key" ] && opt="[signed-by=$key] "
  echo "deb-src ${opt}$mirror $suite main" >"$work/sources.list"
  apt_opts=(-o Dir::Etc::sourcelist="$PWD/$work/sources.list" -o Dir::Etc::sourceparts=-
            -o Dir::State::Lists="$PWD/$work/lists" -o Dir::Cache="$PWD/$work/cache")
  if ! apt-get -q "${apt_opts[@]}" -o APT::Sandbox::User="$(id -un)" update >>"$log" 2>&1 || ! fetch "${apt_opts[@]}"; then
    echo "nanopb_runtime: apt-get could not fetch the nanopb source package (network?); see $log" >&2
    exit 1
  fi
fi
dsc=$(ls "$work"/src/nanopb_*.dsc 2>/dev/null | head -1)
if [ -z "$dsc" ] || ! (cd "$work/src" && dpkg-source -q --no-check -x "$(basename "$dsc")" tree) >>"$log" 2>&1; then
  echo "nanopb_runtime: dpkg-source could not unpack the source package; see $log" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
for f in pb.h pb_common.h pb_common.c pb_encode.h pb_encode.c pb_decode.h pb_decode.c LICENSE.txt; do
  cp "$work/src/tree/$f" "$out/" || { echo "nanopb_runtime: $f missing from the source package" >&2; exit 1; }
done
# the runtime must be the one the installed headers describe (same struct layouts)
if [ -f /usr/include/pb.h ] && ! cmp -s /usr/include/pb.h "$out/pb.h"; then
  echo "nanopb_runtime: warning: $out/pb.h differs from /usr/include/pb.h" >&2
fi
rm -rf "$work"
echo "$out"
