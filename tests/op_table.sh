#!/usr/bin/env bash
# op_table.sh - the tflite operator table, one source: every row of ACCEL__TFL_OPS in accel.h has
# its code and bit defines and defined kernels (scripts/gen_op_table.py refuses a row that does
# not), and README.md's operator table is the one the script generates from the rows. Also that
# the check can fail: a README with one row dropped, and a header with a row naming a kernel it
# does not define, are both refused. Ends with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
have python3 || { skip "operator table" "python3 not installed"; lib_end; exit $?; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
check "README.md's operator table is accel.h's" 0 "" python3 scripts/gen_op_table.py --check README.md
grep -v '^| SPLIT (49)' README.md > "$W/README.md"
check "a README with a row missing is refused" 1 "differs from accel.h's" python3 scripts/gen_op_table.py --check "$W/README.md"
mkdir -p "$W/h"
sed 's/accel__tfl_split(c), ACCEL_E_STATE/accel__tfl_splitx(c), ACCEL_E_STATE/' accel.h > "$W/h/accel.h"
check "a row naming a kernel the header lacks is refused" 1 "does not define" \
    bash -c "cd '$W/h' && python3 '$PWD/scripts/gen_op_table.py' --check '$PWD/README.md'"
lib_end
