#!/usr/bin/env bash
# cmake_package.sh - the top-level CMakeLists.txt as its users meet it:
#   1. add_subdirectory: a project builds accel with ACCEL_BUILD_LIBRARY=ON beside itself and
#      links one program against accel::accel alone (it compiles the implementation itself),
#      one against accel::sim (the compiled implementation comes with it), one against
#      accel::linux (Linux only);
#   2. find_package: accel is installed to a temporary prefix, then a separate project finds it
#      with find_package(accel 0.1 REQUIRED) and links the same programs;
#   3. pkg-config: the installed accel.pc gives the flags that build the library consumer.
# Each program checks what it computes (the CRC-32 check value, a poll that succeeds at 30 ms).
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
if ! have cmake; then
    skip "CMake package (add_subdirectory, find_package, pkg-config)" "cmake missing (bash scripts/setup.sh as root)"
    lib_end; exit
fi
root=$PWD
T=$root/build/cmake-package
rm -rf "$T" && mkdir -p "$T/sub" "$T/find"
J=-j2
linux=0; [ "$(uname -s)" = Linux ] && linux=1
# accel::bridge is built where nanopb is installed (scripts/setup.sh installs it)
bridge=0; printf '#include <pb_decode.h>\n' | cc -E -x c - >/dev/null 2>&1 && bridge=1
[ $bridge = 1 ] || skip "CMake package: accel::bridge" "nanopb missing (pb_decode.h; bash scripts/setup.sh as root)"

consumer() { # DIR PROLOGUE: a consumer project
    cat >"$1/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.14)
project(accel_consumer C)
set(CMAKE_C_STANDARD 99)
$2
add_executable(header_only $root/tests/cmake/header_only.c)
target_link_libraries(header_only PRIVATE accel::accel)
add_executable(with_library $root/tests/cmake/with_library.c)
target_link_libraries(with_library PRIVATE accel::sim)
if($linux)
  add_executable(with_linux $root/tests/cmake/with_linux.c)
  target_link_libraries(with_linux PRIVATE accel::linux)
endif()
if($bridge)
  add_executable(with_bridge $root/tests/cmake/with_bridge.c)
  target_link_libraries(with_bridge PRIVATE accel::bridge)
endif()
CM
}
run_all() { # NAME BUILD_DIR: run the consumer's programs
    local p
    for p in header_only with_library $([ $linux = 1 ] && echo with_linux) $([ $bridge = 1 ] && echo with_bridge); do
        if out=$("$2/$p" 2>&1); then ok "$1: $p"; echo "  $1 $p: $out"
        else bad "$1: $p" "$out"; fi
    done
}

# 1. add_subdirectory
consumer "$T/sub" "set(ACCEL_BUILD_LIBRARY ON CACHE BOOL \"\" FORCE)
add_subdirectory($root accel)"
if cmake -S "$T/sub" -B "$T/sub/b" >"$T/sub.log" 2>&1 && cmake --build "$T/sub/b" $J >>"$T/sub.log" 2>&1
then ok "add_subdirectory consumer builds"; run_all add_subdirectory "$T/sub/b"
else bad "add_subdirectory consumer builds" "$(tail -20 "$T/sub.log")"; fi

# 2. install, then find_package
P=$T/prefix
if cmake -S "$root" -B "$T/accel" -DACCEL_BUILD_LIBRARY=ON -DCMAKE_INSTALL_PREFIX="$P" >"$T/install.log" 2>&1 &&
   cmake --build "$T/accel" $J >>"$T/install.log" 2>&1 && cmake --install "$T/accel" >>"$T/install.log" 2>&1
then ok "accel builds and installs to a prefix"
else bad "accel builds and installs to a prefix" "$(tail -20 "$T/install.log")"; fi
for f in include/accel.h include/accel/accel_sim.h lib/libaccel_impl.a lib/libaccel_sim.a \
         lib/cmake/accel/accelConfig.cmake lib/cmake/accel/accelConfigVersion.cmake \
         lib/cmake/accel/accelTargets.cmake lib/pkgconfig/accel.pc; do
    f2=$f; [ -e "$P/$f" ] || f2=${f/lib\//lib64\/}
    if [ -e "$P/$f2" ]; then ok "installed $f"; else bad "installed $f" "missing under $P"; fi
done
# accel.h is included by that name; every other header sits in include/accel/, none flat
flat=$(cd "$P/include" 2>/dev/null && ls -p | grep -v / | grep -vx accel.h | tr '\n' ' ')
if [ -f "$P/include/accel.h" ] && [ -z "$flat" ]; then ok "include/ holds accel.h alone, the rest is in include/accel/"
else bad "include/ holds accel.h alone" "flat in include/: ${flat:-accel.h missing}"; fi
consumer "$T/find" "find_package(accel 0.1 REQUIRED)"
if cmake -S "$T/find" -B "$T/find/b" -DCMAKE_PREFIX_PATH="$P" >"$T/find.log" 2>&1 &&
   cmake --build "$T/find/b" $J >>"$T/find.log" 2>&1
then ok "find_package consumer builds"; run_all find_package "$T/find/b"
else bad "find_package consumer builds" "$(tail -20 "$T/find.log")"; fi
# a version the package does not promise is refused
mkdir -p "$T/find2"
printf 'cmake_minimum_required(VERSION 3.14)\nproject(c C)\nfind_package(accel 9.0 REQUIRED)\n' >"$T/find2/CMakeLists.txt"
if cmake -S "$T/find2" -B "$T/find2/b" -DCMAKE_PREFIX_PATH="$P" >"$T/find2.log" 2>&1
then bad "find_package(accel 9.0) is refused" "it configured"
else ok "find_package(accel 9.0) is refused"; fi

# the installed targets name no path of the build machine: libusb and nanopb come as targets
# that accelConfig.cmake makes again (PkgConfig::ACCEL_LIBUSB, nanopb's own package)
tf=$(ls "$P"/lib*/cmake/accel/accelTargets.cmake 2>/dev/null | head -1)
abs=$(grep -hE '^ *(INTERFACE|IMPORTED)_[A-Z_]* ' "${tf%/*}"/accelTargets*.cmake 2>/dev/null | grep -E '"/|;/')
if [ -n "$tf" ] && [ -z "$abs" ]; then ok "installed targets carry no absolute path"
else bad "installed targets carry no absolute path" "${abs:-no accelTargets.cmake}"; fi

# nanopb without its CMake package, found as a header and a library on the paths, and moved
# between the build and the consumer: the consumer's find_package(accel) finds it where it is
# now (the build machine's path is gone)
if [ $bridge = 1 ] && nl=$(cc -print-file-name=libprotobuf-nanopb.a) && [ -f "$nl" ]; then
    NA=$T/nanopb-built; NB=$T/nanopb-here; P2=$T/prefix2
    mkdir -p "$NA/include" "$NA/lib" "$T/find3"
    inc=$(printf '#include <pb_decode.h>\n' | cc -E -x c - | sed -n 's/^# [0-9]* "\(.*\)\/pb_decode.h".*/\1/p' | head -1)
    cp "$inc"/pb.h "$inc"/pb_decode.h "$inc"/pb_encode.h "$inc"/pb_common.h "$NA/include/" && cp "$nl" "$NA/lib/"
    if cmake -S "$root" -B "$T/accel2" -DACCEL_BUILD_LIBRARY=ON -DCMAKE_INSTALL_PREFIX="$P2" \
            -DCMAKE_DISABLE_FIND_PACKAGE_nanopb=ON -DCMAKE_PREFIX_PATH="$NA" >"$T/install2.log" 2>&1 &&
        grep -q "ACCEL_NANOPB_LIB:FILEPATH=$NA/lib/" "$T/accel2/CMakeCache.txt" &&
        cmake --build "$T/accel2" $J >>"$T/install2.log" 2>&1 && cmake --install "$T/accel2" >>"$T/install2.log" 2>&1
    then ok "accel builds with nanopb found on the paths"
    else bad "accel builds with nanopb found on the paths" "$(tail -5 "$T/install2.log")"; fi
    mv "$NA" "$NB"
    cat >"$T/find3/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.14)
project(accel_consumer C)
find_package(accel 0.1 REQUIRED)
add_executable(with_bridge $root/tests/cmake/with_bridge.c)
target_link_libraries(with_bridge PRIVATE accel::bridge)
CM
    if cmake -S "$T/find3" -B "$T/find3/b" -DCMAKE_PREFIX_PATH="$P2;$NB" >"$T/find3.log" 2>&1 &&
        grep -q "ACCEL_NANOPB_LIB:FILEPATH=$NB/lib/" "$T/find3/b/CMakeCache.txt" &&
        cmake --build "$T/find3/b" $J >>"$T/find3.log" 2>&1 && out=$("$T/find3/b/with_bridge" 2>&1)
    then ok "nanopb moved: the consumer finds it where it is"; echo "  moved nanopb with_bridge: $out"
    else bad "nanopb moved: the consumer finds it where it is" "$(tail -8 "$T/find3.log")"; fi
    # nowhere to be found (the system's copy ignored): find_package(accel) says what is missing
    if cmake -S "$T/find3" -B "$T/find3/c" -DCMAKE_PREFIX_PATH="$P2" -DCMAKE_IGNORE_PREFIX_PATH=/usr \
            -DCMAKE_IGNORE_PATH="${inc%/*}" >"$T/find4.log" 2>&1
    then bad "nanopb missing: find_package(accel) fails" "it configured"
    elif grep -q "accel::bridge needs nanopb" "$T/find4.log"; then ok "nanopb missing: find_package(accel) fails and says why"
    else bad "nanopb missing: find_package(accel) says why" "$(tail -8 "$T/find4.log")"; fi
fi

# a library target used where it was not built: the error names ACCEL_BUILD_LIBRARY, in the
# build tree (add_subdirectory without it) and from an installed header-only package
mkdir -p "$T/nolib" "$T/nolibfind"
lib_consumer() { # DIR PROLOGUE
    printf 'cmake_minimum_required(VERSION 3.14)\nproject(c C)\n%s\nadd_executable(with_library %s/tests/cmake/with_library.c)\ntarget_link_libraries(with_library PRIVATE accel::sim)\n' \
        "$2" "$root" >"$1/CMakeLists.txt"
}
lib_consumer "$T/nolib" "add_subdirectory($root accel)"
if cmake -S "$T/nolib" -B "$T/nolib/b" >"$T/nolib.log" 2>&1; then bad "accel::sim without ACCEL_BUILD_LIBRARY is refused" "it configured"
elif grep -q "ACCEL_BUILD_LIBRARY=ON" "$T/nolib.log"; then ok "add_subdirectory: accel::sim without the library names ACCEL_BUILD_LIBRARY"
else bad "add_subdirectory: accel::sim without the library names ACCEL_BUILD_LIBRARY" "$(grep -A3 Error "$T/nolib.log" | head -8)"; fi
PH=$T/prefix-header
if cmake -S "$root" -B "$T/accel-header" -DCMAKE_INSTALL_PREFIX="$PH" >"$T/install-header.log" 2>&1 &&
    cmake --install "$T/accel-header" >>"$T/install-header.log" 2>&1; then
    lib_consumer "$T/nolibfind" "find_package(accel 0.1 REQUIRED)"
    if cmake -S "$T/nolibfind" -B "$T/nolibfind/b" -DCMAKE_PREFIX_PATH="$PH" >"$T/nolibfind.log" 2>&1
    then bad "header-only install: accel::sim is refused" "it configured"
    elif grep -q "ACCEL_BUILD_LIBRARY=ON" "$T/nolibfind.log"; then ok "header-only install: accel::sim names ACCEL_BUILD_LIBRARY"
    else bad "header-only install: accel::sim names ACCEL_BUILD_LIBRARY" "$(grep -A3 Error "$T/nolibfind.log" | head -8)"; fi
else bad "header-only install" "$(tail -5 "$T/install-header.log")"; fi

# 3. pkg-config
pc=$(ls "$P"/lib*/pkgconfig/accel.pc 2>/dev/null | head -1)
if [ -n "$pc" ] && have pkg-config && flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs accel 2>&1) &&
   cc -std=c99 tests/cmake/with_library.c -I"$P/include" $flags -o "$T/pc_with_library" 2>"$T/pc.log" &&
   out=$("$T/pc_with_library"); then
    ok "pkg-config --cflags --libs accel builds the library consumer"; echo "  pkg-config ($flags): $out"
else bad "pkg-config consumer" "${flags:-} $(cat "$T/pc.log" 2>/dev/null)"; fi
lib_end
