#!/usr/bin/env bash
# port_template.sh - ports/template (the port a newcomer copies) must keep building as written:
# as C with gcc and clang, as C++ with g++ and clang++, and for a Cortex-M0+ with
# arm-none-eabi-gcc, all with the project's warning set and -Werror (clang also with
# -Werror=unused-result), without heap or stdio symbols and without .data or .bss on the M0+.
# Its behaviour is tested by tests/test_port_template.c. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wundef -Wshadow -Werror"
SRC=ports/template/accel_template.c
O=$(mktemp -d)
trap 'rm -rf "$O"' EXIT

build() { # name compiler flags...
    local name=$1 cc=$2
    shift 2
    if ! have "$cc"; then skip "$name" "$cc not installed (bash scripts/setup.sh as root)"; return 1; fi
    check "$name" 0 "" "$cc" "$@" -I. -c "$SRC" -o "$O/$name.o"
}
build "gcc C99" gcc $W
build "clang C99" clang $W -Werror=unused-result
build "g++ C++11" g++ -x c++ -std=c++11 $WXX
build "clang++ C++11" clang++ -x c++ -std=c++11 $WXX
if build "cortex-m0plus" arm-none-eabi-gcc $W -Os -mcpu=cortex-m0plus -mthumb; then
    syms=$(arm-none-eabi-nm -u "$O/cortex-m0plus.o" | awk '{print $NF}' |
           grep -E '^(malloc|calloc|realloc|free|printf|sprintf|snprintf|puts|fopen|fwrite|abort|exit)$' | tr '\n' ' ')
    same "cortex-m0plus: no heap or stdio symbols" "$syms" ""
    read -r text data bss _ < <(arm-none-eabi-size "$O/cortex-m0plus.o" | awk 'NR==2')
    same "cortex-m0plus: .data and .bss 0 (.text $text)" "$data $bss" "0 0"
fi
lib_end
