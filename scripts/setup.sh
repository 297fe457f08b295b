#!/usr/bin/env bash
# scripts/setup.sh - install the Debian 12 packages accel's tests (and, with --bench, its
# benchmarks) need. As root it installs what is missing; otherwise it prints the exact apt-get
# line and returns 0, and scripts/test.sh skips (and names) only what it cannot build.
#   bash scripts/setup.sh            test packages
#   bash scripts/setup.sh --bench    test packages + benchmark baselines (zlib, gemmlowp, XNNPACK)
#   bash scripts/setup.sh --list     print the package list and exit
set -u
PKGS="make gcc g++ clang libclang-rt-14-dev pkg-config python3 python3-yaml
gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi
gcc-riscv64-unknown-elf
gcc-avr avr-libc binutils-avr
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user qemu-system-arm
libusb-1.0-0-dev zlib1g-dev
arduino-builder arduino-core-avr arduino-ctags simavr libsimavr-dev zip unzip
nanopb libnanopb-dev protobuf-compiler python3-protobuf python3-serial python3-pytest dpkg-dev
cppcheck clang-tidy valgrind gcovr
device-tree-compiler python3-kconfiglib"
BENCH_PKGS="zlib1g-dev libgemmlowp-dev libxnnpack-dev"
want="$PKGS"
case "${1:-}" in
  --bench) want="$PKGS $BENCH_PKGS" ;;
  --list) echo $PKGS; exit 0 ;;
esac
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "setup: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing) >/tmp/accel-setup.log 2>&1 \
    || { echo "setup: apt-get failed, see /tmp/accel-setup.log"; tail -5 /tmp/accel-setup.log; exit 1; }
else
  echo "setup: missing packages; run as root:"
  echo "  apt-get update && apt-get install -y$missing"
fi
exit 0
