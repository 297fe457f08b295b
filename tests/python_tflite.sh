#!/usr/bin/env bash
# python_tflite.sh - the Python package `accel` (ports/python): installed offline with Debian's
# pip into a temporary directory (never the system), then its pytest suite
# (ports/python/tests/tflite) against that installation:
#   1. `pip install --no-build-isolation --no-index ./ports/python` compiles the library's C into
#      the package (the time is printed); the README's Python chapter's install line is that one;
#   2. the Interpreter on the hand-made models (values worked out by hand), tflite_runtime's
#      interface (a script written for it runs with its import changed), compare();
#   3. every shared golden (../shared/data/tflite and tflite-coral) byte for byte, layers
#      included; the models the runner cannot run raise UnsupportedOperator naming them;
#   4. the fuzz corpus and every cut of a model in a child process: no crash; then the whole
#      suite again on the library built with AddressSanitizer (its runtime preloaded);
#   5. the suite fails when a golden byte is changed (a copy of the data with two bytes changed);
#   6. examples/python's test bench, and the README's Python chapter as written.
# Each pytest case counts as one case here. Runs with /usr/bin/python3 (Debian's numpy, pytest).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
B=build/python_tflite
rm -rf "$B"
mkdir -p "$B"
missing=""
[ -x $PY ] || missing="$missing python3"
for m in numpy pytest setuptools pip wheel ensurepip; do
    [ -x $PY ] && $PY -c "import $m" 2>/dev/null || missing="$missing $m"
done
have cc || missing="$missing cc"
if [ -n "$missing" ]; then
    skip "Python package accel" "missing:$missing (python3-numpy python3-pytest python3-setuptools python3-pip python3-wheel python3-venv gcc)"
    lib_end; exit $?
fi

# ---- 1. install, offline, into a directory of its own
SITE=$PWD/$B/site
untracked() { # what pip might leave in the checkout (not in a git checkout: nothing to see)
    if have git && git rev-parse --git-dir >/dev/null 2>&1; then
        git status --porcelain --untracked-files=all ports 2>/dev/null | grep '^??'
    fi
}
before=$(untracked)
start=$(date +%s%N)
if $PY -m pip install --no-build-isolation --no-index --no-deps --disable-pip-version-check -q \
    --target "$SITE" ./ports/python >"$B/pip.log" 2>&1 && ls "$SITE"/accel/_accel*.so >/dev/null 2>&1; then
    ok "pip install ./ports/python (offline, --target)"
    ms=$((($(date +%s%N) - start) / 1000000))
    echo "  installed in $((ms / 1000)).$((ms % 1000 / 100)) s: $(cd "$SITE" && ls -d accel/_accel*.so) ($(du -k "$SITE"/accel/_accel*.so | cut -f1) KiB)"
else
    bad "pip install ./ports/python" "$(tail -20 "$B/pip.log")"
    lib_end; exit $?
fi
same "nothing installed but the package" "$(cd "$SITE" && ls -d -- * | grep -v '\.dist-info$' | tr '\n' ' ')" "accel accel_bridge "
same "installing leaves no new file in the checkout (but ignored ones)" "$(untracked)" "$before"

make -s build/accel-run >"$B/make.log" 2>&1 || bad "build accel-run" "$(tail -5 "$B/make.log")"

run_pytest() { # NAME, pytest arguments...: one pytest run, its cases added to the counts
    local name=$1
    shift
    PYTHONPATH=$SITE $PY -m pytest -q -rs -p no:cacheprovider "$@" >"$B/$name.log" 2>&1
    pytest_tally "$name" "$B/$name.log"
}

# ---- 2-4. the suite
run_pytest suite ports/python/tests/tflite

# ---- 4b. the same suite on the library built with AddressSanitizer and UBSan
# (ACCEL_PY_SANITIZE=address,undefined, every report fatal), ASan's runtime preloaded into the
# interpreter: an out-of-bounds access or undefined behaviour that does not crash is caught too
# (the fuzz corpus's child processes inherit it). First, that it catches one: the C interface
# handed an array too small for what it writes.
ASAN_RT=$(gcc -print-file-name=libasan.so 2>/dev/null)
if [ -f "$ASAN_RT" ]; then
    if ACCEL_PY_SANITIZE=address,undefined $PY -m pip install --no-build-isolation --no-index --no-deps \
        --disable-pip-version-check -q --target "$PWD/$B/asan-site" ./ports/python >"$B/pip-asan.log" 2>&1; then
        ok "pip install with ACCEL_PY_SANITIZE=address,undefined"
        out=$(LD_PRELOAD=$ASAN_RT ASAN_OPTIONS=detect_leaks=0 PYTHONPATH=$PWD/$B/asan-site $PY -c '
import numpy as np, accel.tflite as t
from accel import _native as n
m = t._Model(open("tests/fuzz/seeds/tflite/fc.tflite", "rb").read())
small = np.zeros(1, np.int32)  # operator 0 has 3 inputs and 1 output: 4 indices written
n.op_tensors(t._p(m.rec), 0, t._pt(small, n.I32))
print("not caught")' 2>&1)
        [[ $out == *"ERROR: AddressSanitizer: heap-buffer-overflow"* ]] && ok "the ASan build catches an overflow" ||
            bad "the ASan build catches an overflow" "$(printf '%s' "$out" | head -3)"
        SITE_SAVE=$SITE
        SITE=$PWD/$B/asan-site
        LD_PRELOAD=$ASAN_RT ASAN_OPTIONS=detect_leaks=0 run_pytest asan ports/python/tests/tflite
        SITE=$SITE_SAVE
    else
        bad "pip install with ACCEL_PY_SANITIZE=address,undefined" "$(tail -5 "$B/pip-asan.log")"
    fi
else
    skip "Python package under AddressSanitizer" "no libasan.so for gcc (libasan8)"
fi

# ---- 5. a changed golden byte fails the suite: a copy of the data (links, but for the files
# changed) with one output byte and one layer byte of TFLM's goldens changed, and one output
# byte of the Coral goldens
flip() { # FILE OFFSET: the byte at OFFSET xor 0x01, in place
    printf "$(printf '\\%03o' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 1 )))" |
        dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
if T=$(data_dir tflite ACCEL_TFLITE_DATA) && C=$(data_dir tflite-coral ACCEL_TFLITE_CORAL_DATA); then
    M=$B/mutated
    for g in tflite:$T coral:$C; do
        mkdir -p "$M/${g%%:*}"
        cp -rs "$(cd "${g#*:}" && pwd)/." "$M/${g%%:*}/"
    done
    for f in tflite/cases/hello_world_int8/x-63.out.bin tflite/cases/person_detect/rand1.layers.bin \
        coral/cases/keras_lstm_mnist_ptq/rand0.out.bin; do
        cp --remove-destination "$(readlink -f "$M/$f")" "$M/$f"
    done
    flip "$M/tflite/cases/hello_world_int8/x-63.out.bin" 0
    flip "$M/tflite/cases/person_detect/rand1.layers.bin" 40000
    flip "$M/coral/cases/keras_lstm_mnist_ptq/rand0.out.bin" 3
    ACCEL_TFLITE_DATA=$PWD/$M/tflite ACCEL_TFLITE_CORAL_DATA=$PWD/$M/coral PYTHONPATH=$SITE \
        $PY -m pytest -q -p no:cacheprovider ports/python/tests/tflite/test_goldens.py >"$B/mutated.log" 2>&1
    rc=$?
    same "a changed golden byte fails the suite (exit 1)" "$rc" 1
    same "the suite names the three changed cases, and only them" \
        "$(grep -E '^FAILED' "$B/mutated.log" | sed 's/ - .*//' | sort | tr '\n' ' ')" \
        "FAILED ports/python/tests/tflite/test_goldens.py::test_coral_golden[keras_lstm_mnist_ptq/rand0] FAILED ports/python/tests/tflite/test_goldens.py::test_tflm_golden[hello_world_int8/x-63] FAILED ports/python/tests/tflite/test_goldens.py::test_tflm_golden[person_detect/rand1] "
    grep -q 'layers differ at byte 40000 of' "$B/mutated.log" && ok "the changed layer byte is found where it is" ||
        bad "the changed layer byte is found where it is" "$(grep -m3 'layers differ' "$B/mutated.log")"
else
    skip "a changed golden byte fails the suite" "third-party data absent (../shared/data/tflite and tflite-coral)"
fi
# ---- 6. examples/python's test bench: a "device" is a file of its results. By hand: the
# fc_then_quantize model's layers are FC [3, -3] then QUANTIZE [131, 125] (bytes 03 fd 83 7d)
S=tests/fuzz/seeds/tflite
printf '\004\006' >"$B/in46.bin"
printf '\003\375\203\175' >"$B/dev_same.bin"
printf '\003\375\203\176' >"$B/dev_off.bin"
printf '\203\175' >"$B/dev_out.bin"
ex() { PYTHONPATH=$SITE $PY examples/python/check_device.py "$@"; }
check "check_device: a device that agrees" 0 "device agrees with the reference" ex "$S/fc_then_quantize.tflite" "$B/in46.bin" "$B/dev_same.bin"
check "check_device: the first diverging layer" 3 "first diverging layer: operator 1 QUANTIZE, tensor 4 'u8' (UINT8 [1, 2])" \
    ex "$S/fc_then_quantize.tflite" "$B/in46.bin" "$B/dev_off.bin"
check "check_device: the outputs only" 0 "compare: exact (2 elements)" ex "$S/fc_then_quantize.tflite" "$B/in46.bin" "$B/dev_out.bin"
check "check_device: a model it cannot run" 1 "unsupported operator 0: ELU (builtin code 111)" \
    ex "$S/unsupported_elu.tflite" "$B/in46.bin" "$B/dev_out.bin"
printf '%s\t%s\t%s\n' "$PWD/$S/fc_then_quantize.tflite" in46.bin dev_same.bin "$PWD/$S/fc_then_quantize.tflite" in46.bin dev_off.bin >"$B/bench.tsv"
if T=$(data_dir tflite ACCEL_TFLITE_DATA); then # TFLM itself as the device: its dump of person_detect
    printf '%s\t%s\t%s\n' "$(cd "$T" && pwd)/person_detect.tflite" "$(cd "$T" && pwd)/cases/person_detect/rand0.in.bin" \
        "$(cd "$T" && pwd)/cases/person_detect/rand0.layers.bin" >>"$B/bench.tsv"
fi
ACCEL_BENCH=$PWD/$B/bench.tsv PYTHONPATH=$SITE $PY -m pytest -q -p no:cacheprovider examples/python/test_bench.py >"$B/bench.log" 2>&1
# count the failure body's lines (E ...): pytest's short summary repeats the message only when the
# terminal is wide enough (COLUMNS), which differs between hosts
same "test bench: the diverging device fails, naming its first diverging layer" \
    "$(grep -c "^E .*first diverging layer: operator 1 QUANTIZE" "$B/bench.log") $(tail -1 "$B/bench.log" | sed 's/ in .*//')" \
    "1 1 failed, $(wc -l <"$B/bench.tsv" | awk '{print $1 - 1}') passed"

# ---- 7. the README's Python chapter as written: its commands from the repository's root (a
# virtual environment in build/venv that sees Debian's numpy), then its example
awk '/^## Python$/{c=1;next} c&&/^## /{exit} c&&/^```sh$/{f=1;next} f&&/^```$/{exit} f' README.md >"$B/readme.sh"
awk '/^## Python$/{c=1;next} c&&/^## /{exit} c&&/^```python$/{f=1;next} f&&/^```$/{exit} f' README.md >"$B/example.py"
run_line=$(awk '/^## Python$/{c=1;next} c&&/^## /{exit} c' README.md | tr '\n' ' ' | grep -o '`build/venv/bin/python example.py [^`]*`' | tr -d '`')
same "README Python chapter: two commands, a 13-line example, a command to run it" \
    "$(wc -l <"$B/readme.sh") $(wc -l <"$B/example.py") ${run_line:+found}" "2 13 found"
rm -rf build/venv
if bash -e "$B/readme.sh" >"$B/readme_sh.log" 2>&1; then ok "README Python chapter: its install commands"
else bad "README Python chapter: its install commands" "$(tail -5 "$B/readme_sh.log")"; fi
# and the plain `pip install ./ports/python` too (no pyproject.toml: Debian 12's pip builds with
# the installed setuptools, no isolated environment to fetch), offline
if build/venv/bin/python -m pip install --no-index --no-deps --force-reinstall -q --disable-pip-version-check \
    ./ports/python >"$B/pip-plain.log" 2>&1; then ok "plain pip install ./ports/python, offline"
else bad "plain pip install ./ports/python, offline" "$(tail -5 "$B/pip-plain.log")"; fi
out=$(${run_line/example.py/$B/example.py} 2>&1)
same "README Python chapter: its example's output" "$out" "$(printf '%s\n' 'output [[131, 125]] (1.0, 128)' \
    '0 FULLY_CONNECTED out [[3.0, -3.0]]' '1 QUANTIZE u8 [[3.0, -3.0]]' \
    'compare: 1 of 2 elements differ; max |diff| 1 quantized, 1 real; first at element 1')"
lib_end
