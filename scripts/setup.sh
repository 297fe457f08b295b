#!/usr/bin/env bash
# scripts/setup.sh - install the Debian 12 packages accel's tests (and, with --bench, its
# benchmarks) need. As root it installs what is missing; otherwise it prints the exact apt-get
# line and returns 0, and scripts/test.sh skips (and names) only what it cannot build.
#   bash scripts/setup.sh            test packages
#   bash scripts/setup.sh --bench    test packages + benchmark baselines (zlib, gemmlowp, XNNPACK)
#   bash scripts/setup.sh --list     print the package list and exit
#   bash scripts/setup.sh --commands print the external commands the test scripts run, with the
#                                    package of the list that installs each (one per line);
#                                    tests/setup_commands.sh checks the scripts against it
set -u
PKGS="make gcc g++ clang libclang-rt-14-dev pkg-config python3 python3-yaml
binutils gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi
gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf
gcc-avr avr-libc binutils-avr
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user qemu-system-arm
libusb-1.0-0-dev zlib1g-dev
arduino-builder arduino-core-avr arduino-ctags simavr libsimavr-dev zip unzip xxd jq
nanopb libnanopb-dev protobuf-compiler python3-protobuf python3-serial python3-pytest dpkg-dev
python3-numpy python3-pip python3-setuptools python3-wheel python3-venv
cppcheck clang-tidy valgrind gcovr
device-tree-compiler python3-kconfiglib cmake python3-jsonschema"
# command package: what the scripts in tests/ and scripts/ run besides the programs of Debian's
# required packages (coreutils, grep, sed, mawk, findutils, diffutils, apt, dpkg, ...)
CMDS="make make
cc gcc
gcc gcc
g++ g++
c++ g++
clang clang
clang++ clang
nm binutils
pkg-config pkg-config
python3 python3
arm-none-eabi-gcc gcc-arm-none-eabi
arm-none-eabi-nm binutils-arm-none-eabi
arm-none-eabi-size binutils-arm-none-eabi
arm-none-eabi-objdump binutils-arm-none-eabi
riscv64-unknown-elf-gcc gcc-riscv64-unknown-elf
riscv64-unknown-elf-nm binutils-riscv64-unknown-elf
avr-gcc gcc-avr
avr-g++ gcc-avr
avr-nm binutils-avr
avr-size binutils-avr
avr-objcopy binutils-avr
aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
qemu-aarch64 qemu-user
qemu-system-arm qemu-system-arm
arduino-builder arduino-builder
zip zip
unzip unzip
xxd xxd
jq jq
protoc protobuf-compiler
dpkg-source dpkg-dev
cppcheck cppcheck
clang-tidy clang-tidy
valgrind valgrind
gcovr gcovr
dtc device-tree-compiler
cmake cmake"
BENCH_PKGS="zlib1g-dev libgemmlowp-dev libxnnpack-dev"
want="$PKGS"
case "${1:-}" in
  --bench) want="$PKGS $BENCH_PKGS" ;;
  --list) echo $PKGS; exit 0 ;;
  --commands) printf "%s\n" "$CMDS" | grep -v "^$"; exit 0 ;;
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
