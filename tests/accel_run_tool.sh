#!/usr/bin/env bash
# Tool-level tests for build/accel-run on the hand-made models (tests/fuzz/seeds/tflite, from
# scripts/gen/gen_tflite_models.py, outputs worked out by hand there) and, when present, the
# shared TFLM goldens ($ACCEL_TFLITE_DATA, else ../shared/data/tflite; skipped by name without).
# Ends with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
T=build/accel-run
[ -x "$T" ] || make -s "$T" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
S=tests/fuzz/seeds/tflite
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf '\004\006' > "$W/in46.bin"

check "usage" 2 "usage:" "$T"
check "usage: no input" 2 "usage:" "$T" "$S/fc.tflite"
check "info lists the operator and arena" 0 "FULLY_CONNECTED" "$T" "$S/fc.tflite" --info
check "info arena line" 0 "arena:" "$T" "$S/fc.tflite" --info
out=$("$T" "$S/fc.tflite" --info --json)
if printf '%s' "$out" | jq -e '.arena_bytes > 0 and (.tensors | length) == 4 and (.operators[0].name == "FULLY_CONNECTED")' >/dev/null 2>&1
then ok "info --json: arena_bytes, tensors, operators"; else bad "info --json" "$out"; fi
# FC by hand: in [4, 6] -> [3, -3]
"$T" "$S/fc.tflite" --input "$W/in46.bin" --output "$W/out.bin" && same "fc output" "$(xxd -p "$W/out.bin")" "03fd"
# two invocations (no state here): the last one's output
printf '\012\012' > "$W/in1010.bin"
"$T" "$S/fc_relu6.tflite" --input "$W/in46.bin" --input "$W/in1010.bin" --output "$W/out2.bin" &&
    same "two inputs: last output" "$(xxd -p "$W/out2.bin")" "0a00"
# layers: FC [3, -3] then QUANTIZE to uint8 [131, 125]
"$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --layers "$W/layers.bin" >/dev/null &&
    same "layers in execution order" "$(xxd -p "$W/layers.bin")" "03fd837d"
printf '\003\375' > "$W/hw_same.bin"
printf '\003\377' > "$W/hw_off.bin"
check "compare exact" 0 "compare: exact (2 elements)" "$T" "$S/fc.tflite" --input "$W/in46.bin" --compare "$W/hw_same.bin"
check "compare differs (exit 3)" 3 "1 of 2 elements differ; max |diff| 2 quantized, 2 real; first at element 1" \
    "$T" "$S/fc.tflite" --input "$W/in46.bin" --compare "$W/hw_off.bin"
out=$("$T" "$S/fc.tflite" --input "$W/in46.bin" --compare "$W/hw_off.bin" --json)
if printf '%s' "$out" | jq -e '.compare.exact == false and .compare.differing == 1 and .compare.first_index == 1 and .compare.max_abs_diff_q == 2' >/dev/null 2>&1
then ok "compare --json"; else bad "compare --json" "$out"; fi
printf "\003\375\000" > "$W/hw3.bin"
check "compare: wrong size" 1 "hw3.bin: 3 bytes, the model's outputs take 2" "$T" "$S/fc.tflite" --input "$W/in46.bin" --compare "$W/hw3.bin"
check "input of the wrong size" 1 "bytes, the model's inputs take 2" "$T" "$S/fc.tflite" --input "$W/layers.bin"
check "unsupported operator named" 1 "unsupported operator 0: TANH (builtin code 28)" \
    "$T" "$S/unsupported_tanh.tflite" --input "$W/in46.bin"
check "unsupported second operator named" 1 "unsupported operator 1: SUB (builtin code 41)" \
    "$T" "$S/unsupported_second_op.tflite" --input "$W/in46.bin"
check "malformed model" 1 "ACCEL_E_TFLITE_VERSION" "$T" "$S/bad_version.tflite" --info

if D=$(data_dir tflite ACCEL_TFLITE_DATA); then
    # every golden case through the tool: output and layers byte for byte
    n=0; good=0
    while IFS=$'\t' read -r model cs input output _ _ _ layers _; do
        [ "$model" = model ] && continue
        n=$((n + 1))
        args=()
        rest=$input
        while [ -n "$rest" ]; do
            f=${rest%%+cases/*}
            args+=(--input "$D/$f")
            [ "$f" = "$rest" ] && rest="" || rest=${rest#"$f"+}
        done
        if "$T" "$D/$model.tflite" "${args[@]}" --output "$W/o.bin" --layers "$W/l.bin" >/dev/null 2>"$W/err" &&
            cmp -s "$W/o.bin" "$D/$output" && cmp -s "$W/l.bin" "$D/$layers"; then good=$((good + 1))
        else bad "accel-run $model/$cs" "$(head -c 300 "$W/err")"; fi
    done < "$D/goldens.tsv"
    same "accel-run: golden cases byte for byte" "$good of $n" "63 of 63"
    out=$("$T" "$D/person_detect.tflite" --info --json)
    if printf '%s' "$out" | jq -e '.arena_bytes <= 85024' >/dev/null 2>&1; then ok "person_detect arena <= TFLM's"
    else bad "person_detect arena" "$(printf '%s' "$out" | tail -c 200)"; fi
else
    skip "accel-run on the shared goldens" "third-party data absent (no ../shared/data/tflite; ACCEL_TFLITE_DATA overrides it)"
fi
if E=$(data_dir edgetpu ACCEL_EDGETPU_DATA) && [ -f "$E/models/bright_16x16_edgetpu.tflite" ]; then
    head -c 256 /dev/zero > "$W/z256.bin"
    check "Edge TPU model without its twin" 1 "--twin" "$T" "$E/models/bright_16x16_edgetpu.tflite" --input "$W/z256.bin"
    check "Edge TPU model runs its CPU twin" 0 "\"arena_bytes\"" "$T" "$E/models/bright_16x16_edgetpu.tflite" \
        --twin "$E/models/bright_16x16.tflite" --input "$W/z256.bin" --json
else
    skip "accel-run --twin" "third-party data absent (no ../shared/data/edgetpu/models)"
fi
lib_end
