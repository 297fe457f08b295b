#!/usr/bin/env bash
# zephyr_check.sh - what can be checked of the Zephyr module, port and samples without Zephyr
# (its tree is not on these machines): against tests/zephyr/include, declaration-only stand-ins
# for the part of the Zephyr 4.3.0 API they use.
#   1. module files: module.yml, the binding and each sample.yaml parse as YAML with the keys
#      Zephyr reads; the vendor prefix is listed.
#   2. Kconfig: ports/zephyr/Kconfig parses (kconfiglib), every sample's prj.conf assignment
#      exists and takes; autoconf.h per sample, as Zephyr writes it.
#   3. devicetree: each board overlay through cpp + dtc, checked against the binding; a
#      devicetree_generated.h stand-in per board (tests/zephyr/dt_gen.py).
#   4. cross builds, arm-none-eabi-gcc -mcpu=cortex-m4, the project's warning set, -Werror:
#      the port, the library file and every sample's main.c, per sample and per board, with
#      that sample's autoconf.h (-imacros, as Zephyr does) and the module's config header.
#   5. tests/zephyr/test_zephyr_port.c: the port against recording fakes (ASan + UBSan);
#      tests/zephyr/test_zephyr_bridge.c: the bridge sample's UART/feed loop, with the real port,
#      the bridge's device side and nanopb, against fakes (frames in, exact frames out).
#   6. the samples' main.c run on the host through the real port against the stand-ins of
#      tests/zephyr/sim_zephyr.c (tsp1_basics talks to accel's TSP1 device model), and the same
#      builds for Cortex-M4 run under qemu-system-arm (mps2-an386, semihosting).
# None of this is Zephyr: `west build` / twister on a real workspace is the first real build
# (README, "Zephyr"). A missing tool skips its part (a failure with ACCEL_REQUIRE_ALL=1).
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/zephyr
rm -rf "$B" && mkdir -p "$B"
PY=/usr/bin/python3 # Debian's: kconfiglib and yaml are Debian packages
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align -Wundef -Wshadow -Werror"
CFG='-DACCEL_CONFIG_HEADER="accel_zephyr_config.h"'
SAN="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
M4="-mcpu=cortex-m4 -mthumb"
SAMPLES="tsp1_basics mac_selftest bridge"
log() { echo "$B/$1.log"; }
run() { # NAME command... : ok when it exits 0, else bad with the log's head
    local name=$1 l
    shift
    l=$(log "$(echo "$name" | tr ' /' '__')")
    if "$@" >"$l" 2>&1; then ok "$name"; else bad "$name" "$(head -c 1500 "$l")"; fi
}

have_py=1
$PY -c 'import yaml' 2>/dev/null || { have_py=0; skip "module yaml" "python3-yaml"; }

# ---------------------------------------------------------------- 1. module files
if [ $have_py = 1 ]; then
    run "module.yml and sample.yaml files" $PY - <<'EOF'
import yaml, os, sys
# west finds a module by zephyr/module.yml at a project's root: the repository's root
assert not os.path.exists("ports/zephyr/zephyr/module.yml"), "a second module.yml"
m = yaml.safe_load(open("zephyr/module.yml"))
b = m["build"]
assert m["name"] == "accel"
assert b["cmake"] == "ports/zephyr" and os.path.exists("ports/zephyr/CMakeLists.txt")
assert b["kconfig"] == "ports/zephyr/Kconfig" and os.path.exists(b["kconfig"])
assert b["settings"]["dts_root"] == "ports/zephyr" and os.path.isdir("ports/zephyr/dts/bindings")
for s in m["samples"]:
    assert os.path.isdir(s), s
for s in ("tsp1_basics", "mac_selftest", "bridge"):
    d = "examples/zephyr/" + s
    y = yaml.safe_load(open(d + "/sample.yaml"))
    assert y["sample"]["name"] and y["tests"], s
    for name, t in y["tests"].items():
        assert name.startswith("sample.accel."), name
    plats = list(y["common"]["platform_allow"])
    for t in y["tests"].values():
        plats += t.get("platform_allow", [])
    for f in ("CMakeLists.txt", "prj.conf", "src/main.c"):
        assert os.path.exists(os.path.join(d, f)), (s, f)
    for p in plats:  # every real board named has its overlay when the sample uses a devicetree node
        if "DT_NODELABEL" in open(d + "/src/main.c").read() and not p.startswith("qemu"):
            if p.startswith("native_sim"):  # the emulator's configuration beside the overlay
                assert os.path.exists(d + "/boards/" + p.replace("/", "_") + ".conf"), (s, p)
            ov = d + "/boards/" + p.replace("/", "_") + ".overlay"
            assert os.path.exists(ov), ov
    cm = open(d + "/CMakeLists.txt").read()
    assert "find_package(Zephyr" in cm and "ZEPHYR_EXTRA_MODULES" in cm and "src/main.c" in cm, s
bind = yaml.safe_load(open("ports/zephyr/dts/bindings/abr,tsp1.yaml"))
assert bind["compatible"] == "abr,tsp1" and bind["include"] == "spi-device.yaml"
print("ok")
EOF
fi

# ---------------------------------------------------------------- 2. Kconfig
have_kconf=1
$PY -c 'import kconfiglib' 2>/dev/null || { have_kconf=0; skip "Kconfig checks" "python3-kconfiglib"; }
if [ $have_kconf = 1 ]; then
    for s in $SAMPLES; do
        run "Kconfig + $s/prj.conf" $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig \
            examples/zephyr/$s/prj.conf "$B/autoconf_$s.h"
    done
    run "Kconfig defaults" $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "" \
        "$B/autoconf_defaults.h" CONFIG_ACCEL=y
    # a wrong assignment must be caught (the check can fail)
    printf 'CONFIG_ACCEL=y\nCONFIG_ACCEL_TSP1_READ_CHUNK=4096\n' >"$B/bad.conf"
    check "Kconfig rejects an out-of-range value" 1 "did not take" \
        $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "$B/bad.conf" "$B/bad.h"
    # host runs: the port's unit test (I2C too, two chip selects) and tsp1_basics on the model
    run "Kconfig: host test config" $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig \
        examples/zephyr/tsp1_basics/prj.conf "$B/autoconf_host.h" CONFIG_I2C=y \
        CONFIG_ACCEL_ZEPHYR_MAX_SPI=2 CONFIG_ACCEL_TSP1_MODEL=y
    # tsp1_basics on native_sim/native/64: prj.conf and the board's fragment (the emulator)
    run "Kconfig + tsp1_basics/prj.conf + native_sim_native_64.conf" $PY tests/zephyr/kconfig_gen.py \
        ports/zephyr/Kconfig \
        examples/zephyr/tsp1_basics/prj.conf,examples/zephyr/tsp1_basics/boards/native_sim_native_64.conf \
        "$B/autoconf_emul.h"
    # the emulator needs Zephyr's emulators
    printf 'CONFIG_ACCEL=y\nCONFIG_SPI=y\nCONFIG_GPIO=y\nCONFIG_ACCEL_TSP1_EMUL=y\n' >"$B/bad_emul.conf"
    check "Kconfig refuses the emulator without CONFIG_EMUL" 1 "CONFIG_ACCEL_TSP1_EMUL=y did not take" \
        $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "$B/bad_emul.conf" "$B/bad.h"
    # every option reaches accel.h through the config header: all on / all off compile
    run "Kconfig: every section and option on" $PY tests/zephyr/kconfig_gen.py \
        ports/zephyr/Kconfig "" "$B/autoconf_all.h" CONFIG_ACCEL=y CONFIG_ACCEL_EDGETPU=y \
        CONFIG_ACCEL_REFSI=y CONFIG_ACCEL_ANE=y CONFIG_ACCEL_TSP1_MODEL=y \
        CONFIG_ACCEL_REFSI_MODEL=y CONFIG_ACCEL_ANE_MODEL=y CONFIG_ACCEL_EDGETPU_DISASM=y CONFIG_ACCEL_EDGETPU_MODEL=y CONFIG_ACCEL_MAC_FAST=y \
        CONFIG_ACCEL_CRC32_SLICE8=y CONFIG_SPI=y CONFIG_GPIO=y CONFIG_I2C=y
    # every section in with its defaults: the device models stay out, MAC_FAST switched off
    run "Kconfig: every section, no models" $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "" \
        "$B/autoconf_sections.h" CONFIG_ACCEL=y CONFIG_ACCEL_EDGETPU=y CONFIG_ACCEL_REFSI=y \
        CONFIG_ACCEL_ANE=y CONFIG_ACCEL_MAC_FAST=n
    # a model option needs its section
    check "Kconfig refuses a model without its section" 1 "CONFIG_ACCEL_REFSI_MODEL=y did not take" \
        $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "" "$B/bad.h" CONFIG_ACCEL=y \
        CONFIG_ACCEL_REFSI_MODEL=y
    run "Kconfig: every section off" $PY tests/zephyr/kconfig_gen.py ports/zephyr/Kconfig "" \
        "$B/autoconf_none.h" CONFIG_ACCEL=y CONFIG_ACCEL_TSP1=n CONFIG_ACCEL_MAC=n \
        CONFIG_ACCEL_STATUS_STRINGS=n CONFIG_ACCEL_CRC32_BITWISE=y CONFIG_ACCEL_ZEPHYR_PORT=n
fi

# ---------------------------------------------------------------- 3. devicetree
mkdir -p "$B/nodt"
echo '/* no board: files that use no devicetree node */' >"$B/nodt/devicetree_generated.h"
have_dt=1
for t in dtc cpp; do have $t || { have_dt=0; skip "devicetree overlays" "$t (device-tree-compiler, cpp)"; }; done
[ $have_py = 1 ] || have_dt=0
OVERLAYS=""
if [ $have_dt = 1 ]; then
    for ov in examples/zephyr/*/boards/*.overlay; do
        s=$(basename "$(dirname "$(dirname "$ov")")")
        bname=$(basename "$ov" .overlay)
        run "overlay $s/$bname" $PY tests/zephyr/dt_gen.py "$ov" ports/zephyr/dts/bindings \
            "$B/dt_${s}_$bname"
        OVERLAYS="$OVERLAYS $s:$bname"
    done
    # an overlay without a required property must be refused
    sed '/wake-gpios/d' examples/zephyr/tsp1_basics/boards/nucleo_f401re.overlay >"$B/bad.overlay"
    check "dt_gen refuses a missing required property" 1 "required property wake-gpios" \
        $PY tests/zephyr/dt_gen.py "$B/bad.overlay" ports/zephyr/dts/bindings "$B/dt_bad"
fi

# ---------------------------------------------------------------- 4. cross builds
# nanopb's headers for the bridge sample: Debian's (libnanopb-dev), copied alone so that a
# cross build does not see the host's /usr/include
mkdir -p "$B/pbinc"
have_pb=1
for h in pb.h pb_common.h pb_encode.h pb_decode.h; do
    cp "/usr/include/$h" "$B/pbinc/" 2>/dev/null || have_pb=0
done
[ $have_pb = 1 ] || skip "bridge sample builds and unit test" "nanopb's headers (libnanopb-dev)"
BRIDGE_SRCS="ports/bridge/accel_bridge.c ports/bridge/accel_bridge_device.c ports/bridge/accel_bridge.pb.c"
if ! have arm-none-eabi-gcc; then
    skip "Cortex-M4 builds" "arm-none-eabi-gcc (gcc-arm-none-eabi)"
elif [ $have_kconf = 1 ]; then
    cross() { # NAME AUTOCONF DTDIR SOURCE
        local out="$B/m4_$(echo "$1" | tr ' :/' '___').o"
        run "m4 build $1" arm-none-eabi-gcc $M4 -Os $W -I. -Iports/zephyr -Iports/bridge \
            -isystem "$B/pbinc" -Itests/zephyr/include -I"$3" -imacros "$2" "$CFG" -c "$4" -o "$out"
    }
    for s in $SAMPLES; do
        [ $s = bridge ] && [ $have_pb = 0 ] && continue
        dirs=""
        for ov in $OVERLAYS; do [ "${ov%%:*}" = "$s" ] && dirs="$dirs $B/dt_${s}_${ov#*:}"; done
        if grep -q DT_NODELABEL examples/zephyr/$s/src/main.c; then
            [ -n "$dirs" ] || { skip "m4 build $s" "its overlays (dtc)"; continue; }
        else
            dirs="$B/nodt" # a sample without devicetree nodes builds once
        fi
        for d in $dirs; do
            tag=$s
            [ "$d" = "$B/nodt" ] || tag="$s ${d#$B/dt_${s}_}"
            cross "$tag main.c" "$B/autoconf_$s.h" "$d" examples/zephyr/$s/src/main.c
        done
        cross "$s accel_impl.c" "$B/autoconf_$s.h" "$B/nodt" ports/zephyr/accel_impl.c
        if grep -q '^#define CONFIG_ACCEL_ZEPHYR_PORT 1' "$B/autoconf_$s.h"; then
            cross "$s accel_zephyr.c" "$B/autoconf_$s.h" "$B/nodt" ports/zephyr/accel_zephyr.c
        fi
        if [ $s = bridge ]; then # the bridge files the sample's CMakeLists.txt adds
            for f in $BRIDGE_SRCS; do cross "$s $(basename $f)" "$B/autoconf_$s.h" "$B/nodt" $f; done
        fi
    done
    # Zephyr 4.1 (SPI_DT_SPEC_GET with its third argument): the samples that use SPI
    for s in tsp1_basics bridge; do
        [ $s = bridge ] && [ $have_pb = 0 ] && continue
        d="$B/dt_${s}_nrf52840dk_nrf52840"
        [ -d "$d" ] || continue
        run "m4 build $s main.c as Zephyr 4.1" arm-none-eabi-gcc $M4 -Os $W -I. -Iports/zephyr \
            -Iports/bridge -isystem "$B/pbinc" -Itests/zephyr/include -I"$d" -imacros "$B/autoconf_$s.h" \
            "$CFG" -DZEPHYR_VERSION_CODE=0x040100 -c examples/zephyr/$s/src/main.c -o "$B/m4_${s}_41.o"
    done
    # the emulator and tsp1_basics with it (native_sim's configuration and overlay)
    edt="$B/dt_tsp1_basics_native_sim_native_64"
    if [ -f "$B/autoconf_emul.h" ] && [ -d "$edt" ]; then
        for f in ports/zephyr/emul/accel_tsp1_emul.c examples/zephyr/tsp1_basics/src/main.c; do
            for v in 0x040100 0x040300; do
                run "m4 build $(basename "$f") with the emulator, Zephyr $v" arm-none-eabi-gcc $M4 -Os $W \
                    -I. -Iports/zephyr -Iports/zephyr/emul -Itests/zephyr/include -I"$edt" \
                    -imacros "$B/autoconf_emul.h" "$CFG" -DZEPHYR_VERSION_CODE=$v -c "$f" \
                    -o "$B/m4_emul_$(basename "$f" .c)_$v.o"
            done
        done
    fi
    for c in all none defaults host; do
        cross "config $c: accel_zephyr.c" "$B/autoconf_$c.h" "$B/nodt" ports/zephyr/accel_zephyr.c
    done
    run "m4 build config all: accel_impl.c (syntax)" arm-none-eabi-gcc $M4 -Os $W -I. -Iports/zephyr \
        -Itests/zephyr/include -I"$B/nodt" -imacros "$B/autoconf_all.h" "$CFG" -fsyntax-only \
        ports/zephyr/accel_impl.c
    cross "config none: accel_impl.c" "$B/autoconf_none.h" "$B/nodt" ports/zephyr/accel_impl.c
    cross "config sections: accel_impl.c" "$B/autoconf_sections.h" "$B/nodt" ports/zephyr/accel_impl.c
    # each Kconfig choice reaches accel.h as the README's table says: the macros accel.h sees
    # (want: NAME=VALUE, NAME defined with any value, !NAME undefined)
    macros() { # CONFIG WANT...
        local c=$1 m w name val line missing=""
        shift
        m=$(arm-none-eabi-gcc $M4 -I. -Iports/zephyr -Itests/zephyr/include -I"$B/nodt" \
            -imacros "$B/autoconf_$c.h" "$CFG" -E -dM ports/zephyr/accel_impl.c 2>&1)
        for w in "$@"; do
            case "$w" in
            !*) echo "$m" | grep -q "^#define ${w#!}[ (]" && missing="$missing $w" ;;
            *=*) name=${w%%=*} val=${w#*=}
                 line=$(echo "$m" | grep "^#define $name ")
                 [ "${line#"#define $name "}" = "$val" ] || missing="$missing $w(got '${line#"#define $name "}')" ;;
            *) echo "$m" | grep -q "^#define $w[ (]" || missing="$missing $w" ;;
            esac
        done
        if [ -z "$missing" ]; then ok "Kconfig -> accel.h macros: $c"
        else bad "Kconfig -> accel.h macros: $c" "not as expected:$missing"; fi
    }
    macros none ACCEL_NO_TSP1 ACCEL_NO_EDGETPU ACCEL_NO_REFSI ACCEL_NO_ANE ACCEL_NO_MAC \
        ACCEL_NO_STATUS_STRINGS ACCEL_CRC32_IMPL=ACCEL_CRC32_BITWISE
    macros all '!ACCEL_NO_TSP1' '!ACCEL_NO_EDGETPU' '!ACCEL_NO_REFSI' '!ACCEL_NO_ANE' \
        '!ACCEL_NO_MAC' '!ACCEL_NO_STATUS_STRINGS' '!ACCEL_TSP1_NO_MODEL' \
        '!ACCEL_EDGETPU_NO_DISASM' '!ACCEL_EDGETPU_NO_MODEL' '!ACCEL_MAC_NO_FLOAT' \
        '!ACCEL_REFSI_NO_MODEL' '!ACCEL_ANE_NO_MODEL' ACCEL_MAC_FAST=1 ACCEL_CRC32_IMPL=ACCEL_CRC32_SLICE8 ACCEL_MAC_SIMD=4
    macros defaults '!ACCEL_NO_TSP1' ACCEL_NO_EDGETPU ACCEL_NO_REFSI ACCEL_NO_ANE '!ACCEL_NO_MAC' \
        '!ACCEL_NO_STATUS_STRINGS' ACCEL_TSP1_NO_MODEL '!ACCEL_MAC_NO_FLOAT' ACCEL_MAC_FAST=1 \
        ACCEL_CRC32_IMPL=ACCEL_CRC32_NIBBLE CONFIG_ACCEL_TSP1_READ_CHUNK=64 \
        'ACCEL_TSP1_READ_CHUNK=((unsigned)CONFIG_ACCEL_TSP1_READ_CHUNK)'
    macros sections '!ACCEL_NO_EDGETPU' '!ACCEL_NO_REFSI' '!ACCEL_NO_ANE' ACCEL_TSP1_NO_MODEL \
        ACCEL_EDGETPU_NO_MODEL ACCEL_REFSI_NO_MODEL ACCEL_ANE_NO_MODEL ACCEL_MAC_FAST=0
    # the library and the port stay MCU-clean: no heap, no stdio
    for o in "$B/m4_tsp1_basics_accel_impl.c.o" "$B/m4_tsp1_basics_accel_zephyr.c.o" \
        "$B"/m4_bridge_accel_bridge*.o; do
        [ -f "$o" ] || continue
        u=$(arm-none-eabi-nm -u "$o" | awk '{print $NF}' | grep -E '^(malloc|calloc|realloc|free|printf|sprintf|snprintf|puts|fopen)$' | tr '\n' ' ')
        if [ -n "$u" ]; then bad "$(basename "$o") needs $u"; else ok "$(basename "$o"): no heap or stdio"; fi
    done
fi

# ---------------------------------------------------------------- 5. the port's unit test
# the library and the port for the host runs, built once (ASan + UBSan)
HOSTINC="-I. -Iports/zephyr -Itests/zephyr/include -I$B/nodt -imacros $B/autoconf_host.h"
if [ -f "$B/autoconf_host.h" ]; then
    l=$(log host_objects)
    gcc $W $SAN $HOSTINC "$CFG" -c ports/zephyr/accel_impl.c -o "$B/host_impl.o" >"$l" 2>&1 &&
        gcc $W $SAN $HOSTINC "$CFG" -c ports/zephyr/accel_zephyr.c -o "$B/host_port.o" >>"$l" 2>&1 ||
        { bad "host build of accel_impl.c, accel_zephyr.c" "$(head -30 "$l")"; rm -f "$B/autoconf_host.h"; }
fi
# run_unit NAME LOG: run $B/NAME (a testlib program) appending to LOG, and add its closing
# "N passed, N failed" to this script's counts; a crash or a missing count line is a failure.
run_unit() {
    local name=$1 l=$2 rc line
    "$B/$name" >>"$l" 2>&1
    rc=$?
    line=$(tail -1 "$l")
    if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        pass=$((pass + BASH_REMATCH[1]))
        fail=$((fail + BASH_REMATCH[2]))
        [ "${BASH_REMATCH[2]}" = 0 ] || grep FAIL "$l" | head -20
        [ $rc = 0 ] || [ "${BASH_REMATCH[2]}" != 0 ] || bad "$name exit $rc"
    else bad "$name (exit $rc)" "$(tail -20 "$l")"; fi
}

if [ -f "$B/autoconf_host.h" ]; then
    l=$(log unit)
    if gcc $W $SAN -Itests $HOSTINC "$CFG" tests/zephyr/test_zephyr_port.c "$B/host_port.o" \
        "$B/host_impl.o" -o "$B/test_zephyr_port" >"$l" 2>&1; then
        run_unit test_zephyr_port "$l"
    else bad "build test_zephyr_port" "$(head -30 "$l")"; fi
fi

# the bridge sample's loop (its main.c included by the test) with the port, the device side and
# Debian's nanopb library, built with the sample's own configuration and board overlay
bdt="$B/dt_bridge_nrf52840dk_nrf52840"
if [ $have_pb = 1 ] && [ -f "$B/autoconf_bridge.h" ] && [ -d "$bdt" ]; then
    l=$(log unit_bridge)
    if gcc $W $SAN -Itests -I. -Iports/zephyr -Iports/bridge -Itests/zephyr/include -I"$bdt" \
        -imacros "$B/autoconf_bridge.h" "$CFG" tests/zephyr/test_zephyr_bridge.c \
        ports/zephyr/accel_zephyr.c ports/zephyr/accel_impl.c $BRIDGE_SRCS "$bdt/devicetree_devices.c" \
        -lprotobuf-nanopb -o "$B/test_zephyr_bridge" >"$l" 2>&1; then
        run_unit test_zephyr_bridge "$l"
    else bad "build test_zephyr_bridge" "$(head -30 "$l")"; fi
elif [ $have_pb = 1 ] && [ $have_kconf = 1 ] && [ $have_dt = 1 ]; then
    bad "test_zephyr_bridge" "no autoconf or devicetree stand-in for the bridge sample (see above)"
fi

# ---------------------------------------------------------------- 6. the samples, run
# sample_run NAME WANT-LINES-FILE command...: the output must contain every wanted line, in order
sample_run() {
    local name=$1 want=$2 l
    shift 2
    l=$(log "run_$(echo "$name" | tr ' /' '__')")
    if ! timeout 120 "$@" >"$l" 2>&1; then bad "$name" "exit $?: $(tail -15 "$l")"; return; fi
    if $PY - "$want" "$l" <<'EOF'; then ok "$name"; else bad "$name" "$(cat "$l" | head -40)"; fi
import sys
want = [w for w in open(sys.argv[1]).read().splitlines() if w]
got = open(sys.argv[2]).read().splitlines()
i = 0
for g in got:
    if i < len(want) and g.startswith(want[i]):
        i += 1
if i < len(want):
    print("missing, in order: %r" % want[i])
    sys.exit(1)
EOF
}
cat >"$B/want_tsp1.txt" <<'EOF'
ready: ACCEL_OK
echo: ACCEL_OK
scan: ACCEL_OK
  2 network(s), mask 0x00000003
start net 0: ACCEL_OK
stop net 0: ACCEL_OK
bad mask, host check: ACCEL_E_TSP1_MASK
bad mask, device: ACCEL_E_TSP1_ERR_ARG
echo in the error state: ACCEL_E_TSP1_ERROR_STATE
clear error: ACCEL_OK
recovered: ACCEL_OK
tsp1_basics: done, 0 unexpected
sim: 
EOF
printf 'case fc_int8 ok\ncase fc_uint8 ok\ncase conv_int8 ok\ncase depthwise_dm2 ok\ncase maxpool_pad ok\ncase avgpool_int8 ok\ncase avgpool_uint8 ok\ncase wide_s16 ok\ncase crc32 ok\nmac_selftest: 9 passed, 0 failed\n' >"$B/want_mac.txt"

# build_sim TAG CC FLAGS AUTOCONF DTDIR SAMPLE LIBS [extra link args]: the sample's main.c as
# sample_main, tests/zephyr/sim_zephyr.c, and LIBS (the port and library, sources or objects)
build_sim() {
    local tag=$1 cc=$2 flags=$3 ac=$4 dt=$5 s=$6 libs=$7 l
    shift 7
    l=$(log "build_sim_$tag")
    local inc="-I. -Iports/zephyr -Itests/zephyr/include -I$dt -imacros $ac"
    { $cc $flags $W $inc "$CFG" -Dmain=sample_main -c examples/zephyr/$s/src/main.c \
          -o "$B/sim_${tag}_main.o" &&
      $cc $flags $W $inc "$CFG" tests/zephyr/sim_zephyr.c "$B/sim_${tag}_main.o" $libs \
          $( [ -f "$dt/devicetree_devices.c" ] && echo "$dt/devicetree_devices.c" ) "$@" \
          -o "$B/sim_$tag"; } >"$l" 2>&1 || { bad "build sim $tag" "$(head -30 "$l")"; return 1; }
}
SRCS="ports/zephyr/accel_zephyr.c ports/zephyr/accel_impl.c"
sim_dt="$B/dt_tsp1_basics_nrf52840dk_nrf52840"
if [ -f "$B/autoconf_host.h" ] && [ -d "$sim_dt" ]; then
    build_sim tsp1_host gcc "$SAN" "$B/autoconf_host.h" "$sim_dt" tsp1_basics \
        "$B/host_port.o $B/host_impl.o" &&
        sample_run "tsp1_basics on the host, TSP1 model behind the port" "$B/want_tsp1.txt" "$B/sim_tsp1_host"
fi
# tsp1_basics as on native_sim/native/64: the sample, the real port and the emulator of
# ports/zephyr/emul, with tests/zephyr/sim_emul.c in place of Zephyr's kernel and its SPI and
# GPIO emulators (the board's overlay and configuration fragment)
EDT="$B/dt_tsp1_basics_native_sim_native_64"
grep -v '^sim: ' "$B/want_tsp1.txt" >"$B/want_emul.txt"
printf 'accel_tsp1_emul: \nsim: \n' >>"$B/want_emul.txt"
build_emul() { # TAG CC FLAGS PORT_SOURCE [extra link args]
    local tag=$1 cc=$2 flags=$3 port=$4 l
    shift 4
    l=$(log "build_emul_$tag")
    local inc="-I. -Iports/zephyr -Iports/zephyr/emul -Itests/zephyr/include -I$EDT -imacros $B/autoconf_emul.h"
    { $cc $flags $W $inc "$CFG" -Dmain=sample_main -c examples/zephyr/tsp1_basics/src/main.c \
          -o "$B/emul_${tag}_main.o" &&
      $cc $flags $W $inc "$CFG" tests/zephyr/sim_emul.c "$B/emul_${tag}_main.o" \
          ports/zephyr/emul/accel_tsp1_emul.c "$port" ports/zephyr/accel_impl.c \
          "$EDT/devicetree_devices.c" "$@" -o "$B/emul_$tag"; } >"$l" 2>&1 ||
        { bad "build emul $tag" "$(head -30 "$l")"; return 1; }
}
have_emul=0
if [ -f "$B/autoconf_emul.h" ] && [ -d "$EDT" ]; then
    have_emul=1
    build_emul host gcc "$SAN" ports/zephyr/accel_zephyr.c &&
        sample_run "tsp1_basics on the TSP1 emulator (native_sim's overlay), host" \
            "$B/want_emul.txt" "$B/emul_host"
    # a port that drops the tx bytes it holds for a chip-select frame: the emulator must see
    # the broken frames (the contract check, and the session fails)
    sed 's/if (z->hold_len) {/if (0 \&\& z->hold_len) {/' ports/zephyr/accel_zephyr.c >"$B/broken_port.c"
    if ! grep -q 'if (0 && z->hold_len)' "$B/broken_port.c"; then
        bad "broken port: the mutation did not apply (accel_zephyr.c changed?)"
    elif build_emul broken gcc "$SAN" "$B/broken_port.c"; then
        l=$(log run_emul_broken)
        timeout 120 "$B/emul_broken" >"$l" 2>&1
        rc=$?
        if [ $rc != 0 ] && grep -q "accel_tsp1_emul: SPI contract broken" "$l" &&
            ! grep -q "tsp1_basics: done, 0 unexpected" "$l"; then ok "the emulator fails a port that drops held bytes"
        else bad "the emulator fails a port that drops held bytes" "exit $rc: $(tail -8 "$l")"; fi
    fi
else
    bad "tsp1_basics on the TSP1 emulator" "no autoconf or devicetree stand-in for it (see above)"
fi
if [ -f "$B/autoconf_mac_selftest.h" ]; then
    build_sim mac_host gcc "$SAN" "$B/autoconf_mac_selftest.h" "$B/nodt" mac_selftest "$SRCS" &&
        sample_run "mac_selftest on the host" "$B/want_mac.txt" "$B/sim_mac_host"
fi
# the same on an emulated Cortex-M4 (tests/arm: start-up, linker script, rdimon semihosting)
m4_ok=1
have qemu-system-arm || { m4_ok=0; skip "samples on an emulated Cortex-M4" "qemu-system-arm"; }
have arm-none-eabi-gcc || m4_ok=0
case "$(arm-none-eabi-gcc $M4 -print-file-name=librdimon.a 2>/dev/null)" in
    /*) ;; *) [ $m4_ok = 1 ] && skip "samples on an emulated Cortex-M4" "newlib's librdimon"; m4_ok=0 ;;
esac
if [ $m4_ok = 1 ]; then
    QEMU="qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none -semihosting-config enable=on,target=native -kernel"
    MLINK="--specs=rdimon.specs -nostartfiles -Ltests/arm -Tmps2.ld tests/arm/m_startup.c"
    if [ -f "$B/autoconf_host.h" ] && [ -d "$sim_dt" ]; then
        build_sim tsp1_m4 arm-none-eabi-gcc "$M4 -mfloat-abi=soft -O2" "$B/autoconf_host.h" "$sim_dt" \
            tsp1_basics "$SRCS" $MLINK &&
            sample_run "tsp1_basics on QEMU Cortex-M4, TSP1 model behind the port" "$B/want_tsp1.txt" \
                $QEMU "$B/sim_tsp1_m4"
    fi
    if [ $have_emul = 1 ]; then
        build_emul m4 arm-none-eabi-gcc "$M4 -mfloat-abi=soft -O2" ports/zephyr/accel_zephyr.c $MLINK &&
            sample_run "tsp1_basics on the TSP1 emulator, QEMU Cortex-M4" "$B/want_emul.txt" \
                $QEMU "$B/emul_m4"
    fi
    if [ -f "$B/autoconf_mac_selftest.h" ]; then
        build_sim mac_m4 arm-none-eabi-gcc "$M4 -mfloat-abi=soft -O2" "$B/autoconf_mac_selftest.h" "$B/nodt" \
            mac_selftest "$SRCS" $MLINK &&
            sample_run "mac_selftest on QEMU Cortex-M4" "$B/want_mac.txt" $QEMU "$B/sim_mac_m4"
    fi
fi
lib_end
