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
check "unsupported operator named" 1 "unsupported operator 0: ELU (builtin code 111)" \
    "$T" "$S/unsupported_elu.tflite" --input "$W/in46.bin"
check "unsupported second operator named" 1 "unsupported operator 1: DIV (builtin code 42)" \
    "$T" "$S/unsupported_second_op.tflite" --input "$W/in46.bin"
check "malformed model" 1 "ACCEL_E_TFLITE_VERSION" "$T" "$S/bad_version.tflite" --info
# --info lists every operator this build cannot run, with its types and why (not only the first)
check "info: first refused listed" 1 "unsupported op   1 ELU                          int8 -> int8: no kernel for ELU int8" \
    "$T" "$S/unsupported_two_of_three.tflite" --info
check "info: second refused listed" 1 "unsupported op   2 GATHER_ND                    int8 int32 -> int8: no kernel for GATHER_ND int8" \
    "$T" "$S/unsupported_two_of_three.tflite" --info
check "info: uint8 weights with int8 activations named" 1 "int8 uint8 int32 -> int8: no kernel for CONV_2D with uint8 input 1" \
    "$T" "$S/unsupported_conv_int8_uint8_weights.tflite" --info
check "info: custom operator named" 1 "custom operator my-custom-op" "$T" "$S/custom_other.tflite" --info
check "info: a code above 127 named" 1 "no kernel for BROADCAST_TO int8" "$T" "$S/unsupported_broadcast_to.tflite" --info
# 4,096 equal inputs: SOFTMAX's int32 sum of exponentials overflows (no TFLite result)
head -c 4096 /dev/zero > "$W/zero4k.bin"
check "softmax sum overflow named" 1 "operator 0 (SOFTMAX): ACCEL_E_TFLITE_RANGE" \
    "$T" "$S/softmax_4096_equal_i16.tflite" --input "$W/zero4k.bin"

# FLOAT32 outputs (a model ending in DEQUANTIZE). dequantize_i8: int8 [-3, 7, 127, -128], scale
# 0.1, zero point -3 -> float32 [0, 1, 13, -12.5] (binary32 rounding of 0.1f * 10, * 130, * -125)
printf '\375\007\177\200' > "$W/dq_in.bin"
f32() { printf '%s\n' "$@" | /usr/bin/python3 -c 'import struct, sys; sys.stdout.buffer.write(b"".join(struct.pack("<f", float(x)) for x in sys.stdin.read().split()))'; }
"$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --output "$W/dq_out.bin" &&
    same "dequantize: float output" "$(xxd -p "$W/dq_out.bin")" "000000000000803f00005041000048c1"
f32 0 1 13 -12.5 > "$W/dq_same.bin"
check "compare float: exact" 0 "compare: exact (4 elements)" "$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" \
    --compare "$W/dq_same.bin"
f32 -0 1 13 -12.5 > "$W/dq_negzero.bin"
check "compare float: -0 equals 0" 0 "compare: exact (4 elements)" "$T" "$S/dequantize_i8.tflite" \
    --input "$W/dq_in.bin" --compare "$W/dq_negzero.bin"
# elements 1 and 3 off by 0.25 and 0.5: two differ, the largest by 0.5 real, the first at 1
f32 0 1.25 13 -13 > "$W/dq_off.bin"
check "compare float: differs (exit 3)" 3 "2 of 4 elements differ; max |diff| 0.5 real; first at element 1" \
    "$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq_off.bin"
out=$("$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq_off.bin" --json)
if printf '%s' "$out" | jq -e '.compare == {"exact": false, "elements": 4, "differing": 2, "max_abs_diff_q": null,
        "max_abs_diff_real": 0.5, "first_index": 1} and .output_bytes == 16' >/dev/null 2>&1
then ok "compare float --json: fields"; else bad "compare float --json" "$out"; fi
out=$("$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq_same.bin" --json)
if printf '%s' "$out" | jq -e '.compare.exact == true and .compare.differing == 0 and .compare.first_index == -1 and
        .compare.max_abs_diff_real == 0' >/dev/null 2>&1
then ok "compare float --json: exact"; else bad "compare float --json exact" "$out"; fi
# a NaN against a number: differs by an infinite amount, which JSON cannot hold (null)
f32 0 1 nan -12.5 > "$W/dq_nan.bin"
check "compare float: NaN" 3 "1 of 4 elements differ; max |diff| inf real; first at element 2" \
    "$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq_nan.bin"
out=$("$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq_nan.bin" --json)
if printf '%s' "$out" | jq -e '.compare.max_abs_diff_real == null and .compare.differing == 1' >/dev/null 2>&1
then ok "compare float --json: NaN"; else bad "compare float --json NaN" "$out"; fi
head -c 12 "$W/dq_same.bin" > "$W/dq12.bin"
check "compare float: wrong size" 1 "dq12.bin: 12 bytes, the model's outputs take 16" \
    "$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq12.bin"
head -c 15 "$W/dq_same.bin" > "$W/dq15.bin"
check "compare float: not a multiple of 4 bytes" 1 "dq15.bin: 15 bytes, the model's outputs take 16 (4-byte elements: 15 is not a whole number of them)" \
    "$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --compare "$W/dq15.bin"
# a quantized graph then DEQUANTIZE: FC [3, -3] (scale 1) -> [3.0, -3.0]; the layers file
# holds both operators' outputs, int8 then float32
"$T" "$S/fc_then_dequantize.tflite" --input "$W/in46.bin" --output "$W/fd.bin" --layers "$W/fdl.bin" &&
    same "fc then dequantize: output" "$(xxd -p "$W/fd.bin")" "00004040000040c0" &&
    same "fc then dequantize: layers" "$(xxd -p "$W/fdl.bin")" "03fd00004040000040c0"

# --twin: a compiled Edge TPU model (edgetpu_compiled_fc: its graph one edgetpu-custom-op between
# fc.tflite's input and output, holding the synthetic DarwiNN package) runs its CPU twin in its
# place. The edgetpu section reads it as a compiled model too.
[ -x build/accel-edgetpu ] || make -s build/accel-edgetpu >/dev/null
out=$(build/accel-edgetpu info --json "$S/edgetpu_compiled_fc.tflite" 2>&1)
if printf '%s' "$out" | jq -e '.executables[0].type == "STAND_ALONE"' >/dev/null 2>&1
then ok "the stand-in is a compiled Edge TPU model (accel-edgetpu info)"; else bad "stand-in compiled model" "$(printf '%s' "$out" | head -c 300)"; fi
check "compiled model without --twin" 1 "a compiled Edge TPU model (an edgetpu-custom-op): give the CPU model" \
    "$T" "$S/edgetpu_compiled_fc.tflite" --input "$W/in46.bin"
check "compiled model --info without --twin" 1 "unsupported operator 0: CUSTOM (builtin code 32); a compiled Edge TPU model" \
    "$T" "$S/edgetpu_compiled_fc.tflite" --info
"$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc.tflite" --input "$W/in46.bin" --output "$W/tw.bin" &&
    same "twin runs in its place" "$(xxd -p "$W/tw.bin")" "03fd"
check "twin: compare" 3 "1 of 2 elements differ" "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc.tflite" \
    --input "$W/in46.bin" --compare "$W/hw_off.bin"
out=$("$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc.tflite" --input "$W/in46.bin" --json)
if printf '%s' "$out" | jq -e '(.model | endswith("edgetpu_compiled_fc.tflite")) and (.twin | endswith("/fc.tflite"))' >/dev/null 2>&1
then ok "twin --json names both"; else bad "twin --json" "$out"; fi
check "twin --info describes the twin" 0 "FULLY_CONNECTED" "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc.tflite" --info
check "twin with other outputs refused" 1 "fc_then_quantize.tflite: graph output 0 is UINT8 [1,2] s=1 zp=128, " \
    "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc_then_quantize.tflite" --input "$W/in46.bin"
check "twin with other quantization refused" 1 "graph input 0 is INT8 [1,2] s=0.5 zp=2, " \
    "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/fc_zp.tflite" --input "$W/in46.bin"
check "twin that is compiled too refused" 1 "is a compiled Edge TPU model too" \
    "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$S/edgetpu_compiled_fc.tflite" --input "$W/in46.bin"
check "--twin for a model with no edgetpu-custom-op refused" 1 "fc.tflite: has no edgetpu-custom-op" \
    "$T" "$S/fc.tflite" --twin "$S/fc.tflite" --input "$W/in46.bin"
check "--twin for another custom operator refused" 1 "custom_other.tflite: has no edgetpu-custom-op" \
    "$T" "$S/custom_other.tflite" --twin "$S/fc.tflite" --input "$W/in46.bin"
out=$("$T" "$S/custom_other.tflite" --input "$W/in46.bin" 2>&1)
if [[ $out == *"unsupported operator 0: CUSTOM (builtin code 32)" ]]; then ok "another custom operator: no --twin hint"
else bad "another custom operator" "$out"; fi
check "twin missing" 1 "no_such.tflite" "$T" "$S/edgetpu_compiled_fc.tflite" --twin "$W/no_such.tflite" --input "$W/in46.bin"

# ---- a verifier's tool
# --info names the graph inputs and outputs first, with shape, type and quantization
out=$("$T" "$S/fc_then_quantize.tflite" --info)
same "info: graph input and output first" "$(printf '%s\n' "$out" | head -2)" \
    "$(printf 'input  0: tensor 0 "in" INT8 [1,2] s=0.5 zp=0\noutput 0: tensor 4 "u8" UINT8 [1,2] s=1 zp=128')"
out=$("$T" "$S/dequantize_i8.tflite" --info)
same "info: a float output is not quantized" "$(printf '%s\n' "$out" | head -2)" \
    "$(printf 'input  0: tensor 0 "in" INT8 [1,4] s=0.100000001 zp=-3\noutput 0: tensor 1 "out" FLOAT32 [1,4] not quantized')"
# the output printed as values and real numbers by default (FC [3, -3], QUANTIZE to uint8 s=1 zp=128)
out=$("$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin")
same "output printed as values and real numbers" "$out" "$(printf '%s\n' 'output 0: tensor 4 "u8" UINT8 [1,2] s=1 zp=128' \
    '  values: 131 125' '  real:   3 -3' 'output (2 bytes): 83 7d')"
out=$("$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin")
same "a float output printed as numbers" "$out" "$(printf '%s\n' 'output 0: tensor 1 "out" FLOAT32 [1,4] not quantized' \
    '  values: 0 1 13 -12.5' 'output (16 bytes): 00 00 00 00 00 00 80 3f 00 00 50 41 00 00 48 c1')"
# --json: the outputs' values, quantized and real
out=$("$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --json)
if printf '%s' "$out" | jq -e '.outputs == [{"index": 0, "tensor": 4, "name": "u8", "type": "UINT8", "shape": [1, 2],
        "scale": 1, "zero_point": 128, "values": [131, 125], "real": [3, -3]}]' >/dev/null 2>&1
then ok "json: output values quantized and real"; else bad "json: output values" "$out"; fi
out=$("$T" "$S/dequantize_i8.tflite" --input "$W/dq_in.bin" --json)
if printf '%s' "$out" | jq -e '.outputs[0].values == [0, 1, 13, -12.5] and .outputs[0].real == [0, 1, 13, -12.5] and
        .outputs[0].scale == null' >/dev/null 2>&1
then ok "json: float output values"; else bad "json: float output values" "$out"; fi
# --layers writes its index beside the blob (LAYERS.bin -> LAYERS.tsv), in the goldens' layout
rm -f "$W/lq.tsv"
"$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --layers "$W/lq.bin" >/dev/null
same "layers index" "$(cat "$W/lq.tsv" 2>&1)" "$(printf 'op_index\top\ttensor_index\ttensor_name\ttype\tshape\toffset\tbytes\n0\tFULLY_CONNECTED\t3\tout\tINT8\t1,2\t0\t2\n1\tQUANTIZE\t4\tu8\tUINT8\t1,2\t2\t2')"
"$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --layers "$W/lq_nosuffix" >/dev/null
same "layers index of a name without .bin" "$(head -c 8 "$W/lq_nosuffix.tsv" 2>&1)" "op_index"
# --compare-layers: every operator's output against EXPECTED (--layers' layout); the first differing
# operator and each operator's counts
printf '\003\375\203\175' > "$W/lq_same.bin"
printf '\003\375\203\176' > "$W/lq_off.bin"
printf '\003\375\203' > "$W/lq_short.bin"
check "compare-layers exact" 0 "compare-layers: exact (2 layers, 4 elements)" \
    "$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --compare-layers "$W/lq_same.bin"
out=$("$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --compare-layers "$W/lq_off.bin"); rc=$?
same "compare-layers differs (exit 3)" "$rc $out" "3 $(printf '%s\n' \
    'layer   0 FULLY_CONNECTED tensor 3: exact (2 elements)' \
    'layer   1 QUANTIZE tensor 4: 1 of 2 elements differ; max |diff| 1 quantized, 1 real; first at element 1' \
    'compare-layers: first differing operator 1 (QUANTIZE, tensor 4); 1 of 2 layers differ')"
check "compare-layers: wrong size" 1 "lq_short.bin: 3 bytes, the operators' outputs take 4" \
    "$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --compare-layers "$W/lq_short.bin"
out=$("$T" "$S/fc_then_quantize.tflite" --input "$W/in46.bin" --compare-layers "$W/lq_off.bin" --json)
if printf '%s' "$out" | jq -e '.compare_layers.exact == false and .compare_layers.first_op == 1 and
        .compare_layers.first_tensor == 4 and .compare_layers.differing_layers == 1 and
        (.compare_layers.per_layer | map(.differing)) == [0, 1] and .compare_layers.per_layer[1].name == "QUANTIZE"' >/dev/null 2>&1
then ok "compare-layers --json"; else bad "compare-layers --json" "$out"; fi
check "compare-layers with --info refused" 2 "usage" "$T" "$S/fc.tflite" --info --compare-layers "$W/lq_same.bin"
# a model read from a stream stops as soon as it cannot be one (here its first bytes), rather
# than at 1 GiB: /dev/zero ends within a second, in 64 MB of address space
out=$( (ulimit -v 65536; timeout 5 "$T" /dev/zero --info) 2>&1); rc=$?
same "/dev/zero stops at once" "$rc $out" "1 accel-run: /dev/zero: not a TFLite model: its root offset is 0 (a flatbuffer's root table follows the offset)"
# an input, or the bytes to compare, from a stream: read one byte past the size they must have
for opt in --input --compare --compare-layers; do
    extra=(); [ $opt = --input ] || extra=(--input "$W/in46.bin")
    out=$( (ulimit -v 65536; timeout 5 "$T" "$S/fc_then_quantize.tflite" "${extra[@]}" $opt /dev/zero) 2>&1); rc=$?
    [ $opt = --compare-layers ] && n=4 || n=2
    same "$opt /dev/zero stops past $n bytes" "$rc $out" "1 accel-run: /dev/zero: too large: more than $n bytes"
done

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
            cmp -s "$W/o.bin" "$D/$output" && cmp -s "$W/l.bin" "$D/$layers" &&
            cmp -s "$W/l.tsv" "$D/cases/$model/layers.tsv" &&
            "$T" "$D/$model.tflite" "${args[@]}" --compare-layers "$D/$layers" >/dev/null 2>>"$W/err"; then good=$((good + 1))
        else bad "accel-run $model/$cs" "$(head -c 300 "$W/err")"; fi
    done < "$D/goldens.tsv"
    same "accel-run: golden cases byte for byte (output, layers, layers' index, --compare-layers)" "$good of $n" "63 of 63"
    # a changed layer byte: the first differing operator is the one layers.tsv puts that byte in
    # (person_detect: byte 40000 lies in operator 2, CONV_2D, tensor 54, bytes 36864..73727)
    cp "$D/cases/person_detect/rand0.layers.bin" "$W/pd.bin"
    printf '\001' | dd of="$W/pd.bin" bs=1 seek=40000 conv=notrunc status=none
    cmp -s "$W/pd.bin" "$D/cases/person_detect/rand0.layers.bin" || {
        check "compare-layers: a changed golden layer byte" 3 "compare-layers: first differing operator 2 (CONV_2D, tensor 54); 1 of 31 layers differ" \
            "$T" "$D/person_detect.tflite" --input "$D/cases/person_detect/rand0.in.bin" --compare-layers "$W/pd.bin"; }
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
    for mdl in bright_16x16 dense_256; do
        if "$T" "$E/models/${mdl}_edgetpu.tflite" --twin "$E/models/$mdl.tflite" --input "$W/z256.bin" \
                --output "$W/et_twin.bin" --layers "$W/et_twin_l.bin" &&
            "$T" "$E/models/$mdl.tflite" --input "$W/z256.bin" --output "$W/et_cpu.bin" --layers "$W/et_cpu_l.bin" &&
            cmp -s "$W/et_twin.bin" "$W/et_cpu.bin" && cmp -s "$W/et_twin_l.bin" "$W/et_cpu_l.bin"
        then ok "$mdl: --twin gives the CPU model's output and layers"; else bad "$mdl: --twin output"; fi
    done
    check "Edge TPU model with another model's twin" 1 "not the model it was compiled from" \
        "$T" "$E/models/bright_16x16_edgetpu.tflite" --twin "$E/models/dense_256.tflite" --input "$W/z256.bin"
    check "a CPU model with --twin" 1 "has no edgetpu-custom-op" \
        "$T" "$E/models/bright_16x16.tflite" --twin "$E/models/bright_16x16.tflite" --input "$W/z256.bin"
else
    skip "accel-run --twin" "third-party data absent (no ../shared/data/edgetpu/models)"
fi
# A custom operator: the run goes up to it (named), --layers holding every output before it;
# --custom-output gives its outputs (what the device returned) and the run goes on past it.
# custom_other: one CUSTOM "my-custom-op", int8 [1, 2] -> [1, 2]
rm -f "$W/cl.bin"
check "a run stops at a custom operator, naming it" 1 "unsupported operator 0: CUSTOM (builtin code 32)" \
    "$T" "$S/custom_other.tflite" --input "$W/in46.bin" --layers "$W/cl.bin"
if [ -f "$W/cl.bin" ] && [ ! -s "$W/cl.bin" ]; then ok "--layers written up to the custom operator (none before it)"
else bad "--layers at a custom operator" "$(ls -l "$W/cl.bin" 2>&1)"; fi
printf '\011\367' > "$W/dev2.bin"
"$T" "$S/custom_other.tflite" --input "$W/in46.bin" --custom-output "$W/dev2.bin" --output "$W/co.bin" &&
    same "--custom-output: the device's bytes are the custom operator's outputs" "$(xxd -p "$W/co.bin")" "09f7"
check "--custom-output of the wrong size" 1 "dev3.bin: 3 bytes, the custom operators' outputs take 2" \
    "$T" "$S/custom_other.tflite" --input "$W/in46.bin" --custom-output "$(printf 'abc' > "$W/dev3.bin"; echo "$W/dev3.bin")"
check "--custom-output for a model without custom operators" 1 "has no custom operator" \
    "$T" "$S/fc.tflite" --input "$W/in46.bin" --custom-output "$W/dev2.bin"
check "--custom-output with --twin" 2 "one of them" \
    "$T" "$S/custom_other.tflite" --input "$W/in46.bin" --custom-output "$W/dev2.bin" --twin "$S/fc.tflite"
# The shared Coral compiled models, run as the hardware runs them: the edgetpu-custom-op's outputs
# are the CPU model's tensors of the same names (what a correct Edge TPU returns: no device is
# here), the CPU operators around it run in accel, and the result is the CPU model's golden.
if C=$(data_dir tflite-coral ACCEL_TFLITE_CORAL_DATA); then
    for mdl in deeplabv3_mnv2_dm05_pascal_quant mobilenet_v1_0.25_128_quant tools_split_concat; do
        cs=$(awk -F'\t' -v m="$mdl" '$1 == m {print $2; exit}' "$C/goldens.tsv")
        "$T" "$C/$mdl.tflite" --input "$C/cases/$mdl/$cs.in.bin" --layers "$W/cpu_l.bin" >/dev/null 2>&1
        "$T" "$C/compiled/${mdl}_edgetpu.tflite" --info --json > "$W/comp.json" 2>/dev/null
        if python3 - "$W/comp.json" "$W/cpu_l.bin" "$W/cpu_l.tsv" "$W/dev.bin" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
blob = open(sys.argv[2], "rb").read()
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[3])]
ix = {h: i for i, h in enumerate(rows[0])}
by_name = {r[ix["tensor_name"]]: blob[int(r[ix["offset"]]):int(r[ix["offset"]]) + int(r[ix["bytes"]])] for r in rows[1:]}
out = b""
for op in info["operators"]:
    if op["code"] != 32:
        continue
    for t in op["outputs"]:
        out += by_name[info["tensors"][t]["name"]]
open(sys.argv[4], "wb").write(out)
PY
        then
            check "$mdl compiled: the Edge TPU's outputs from a file, the CPU operators here, the CPU golden" 0 \
                "compare: exact" "$T" "$C/compiled/${mdl}_edgetpu.tflite" --input "$C/cases/$mdl/$cs.in.bin" \
                --custom-output "$W/dev.bin" --compare "$C/cases/$mdl/$cs.out.bin"
        else
            bad "$mdl compiled: the custom operator's outputs from the CPU model's tensors" "$(cat "$W/comp.json" | head -c 300)"
        fi
    done
else
    skip "accel-run --custom-output on the Coral compiled models" "$(data_absent tflite-coral ACCEL_TFLITE_CORAL_DATA)"
fi
lib_end
