#!/usr/bin/env bash
# edgetpu_tool.sh - tool-level tests of build/accel-edgetpu (disasm, disasm --tsv, info --json,
# plan, run). Expected values come from scripts/gen/gen_edgetpu_vectors.py's independent Python
# decoders or are worked out by hand. A hand-made program runs everywhere; compiled programs and
# models (and libedgetpu's USB trace) are third-party artefacts read from $ACCEL_EDGETPU_DATA,
# else lib.sh's DATA_ROOT: without them those parts skip by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
T=build/accel-edgetpu
[ -x "$T" ] || make -s "$T" >/dev/null 2>&1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check_eq() { same "$@"; }

# 0. a hand-made program: START (640 bits = 5 bundles), HALT, 4 NOPs, END, with the fields
#    worked out by hand in test_edgetpu.c's test_prog_build
z='\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
nop="\x00\x08\x00\x00$z"
printf "\x80\x0f\x00\x14$z\x40\x08\x01\x00$z$nop$nop$nop$nop\xc0\x0f\x00\x04$z" > "$tmp/empty.coral"
check_eq "disasm hand-made program" "$("$T" disasm "$tmp/empty.coral")" "$(printf '%s\n' \
    "0x0000 S         START len=640 bits" "0x0010 S         HALT  | vs_reg_v1=0x4" \
    "0x0020 S         NOP" "0x0030 S         NOP" "0x0040 S         NOP" "0x0050 S         NOP" \
    "0x0060 S         END  | imm_size=0x80")"
# imm_size, enable_scalar, branch of START and END
check_eq "tsv hand-made START" "$("$T" disasm --tsv "$tmp/empty.coral" | awk -F'\t' '$1=="0x0"' | cut -f13,16,17)" \
    "$(printf '0x280\t0x1\t0x1e')"
check_eq "tsv hand-made END" "$("$T" disasm --tsv "$tmp/empty.coral" | awk -F'\t' '$1=="0x60"' | cut -f13,16,17)" \
    "$(printf '0x80\t0x1\t0x1f')"
# errors and usage
"$T" disasm "$tmp/nonexistent.coral" >/dev/null 2>&1; check_eq "missing file" "$?" "1"
"$T" >/dev/null 2>&1; check_eq "usage" "$?" "2"
printf 'abc' > "$tmp/odd.coral"
"$T" disasm "$tmp/odd.coral" >/dev/null 2>&1; check_eq "disasm odd size" "$?" "1"
"$T" run --firmwar x "$tmp/empty.coral" "$tmp/odd.coral" "$tmp/out.bin" 2>/dev/null; check_eq "run bad option" "$?" "2"

if D=$(data_dir edgetpu ACCEL_EDGETPU_DATA); then
# 1. TSV header (tab-separated): the offset, then the 20 fields from the top bit down
want=$(printf 'offset\tunk_3\tvs_reg_w\tv_op_2\timm_scalar\ts_y\ts_x\ts_op\tvs_reg\tv_cmd\tv_offset\tv_op\timm_size\tvs_reg_v1\tenable_vector\tenable_scalar\tbranch\tunk_0\tyes_pred\tpred_reg\tgate')
check_eq "tsv header" "$("$T" disasm --tsv "$D/programs/add1.coral" | head -1)" "$want"
# 2. add1 @0x6B0, decoded by hand (the op-specific bundle of the program)
want=$(printf '0x6b0\t0x0\t0x0\t0x0\t0x21bf7f\t0x1f\t0x1e\t0x1f\t0x17\t0x1d\t0xff\t0x1f\t0xc06\t0x3\t0x0\t0x0\t0x0\t0x0\t0x0\t0x4\t0x0')
check_eq "tsv add1 0x6b0" "$("$T" disasm --tsv "$D/programs/add1.coral" | awk -F'\t' '$1=="0x6b0"')" "$want"
# 3. every program: every row equals the Python decode
for f in "$D"/programs/*.coral; do
    "$T" disasm --tsv "$f" > "$tmp/out.tsv" || { bad "tsv $f exit"; continue; }
    python3 - "$f" "$tmp/out.tsv" > "$tmp/py.txt" <<'PY'
import sys, importlib.util
spec = importlib.util.spec_from_file_location("g", "scripts/gen/gen_edgetpu_vectors.py")
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
data = open(sys.argv[1], "rb").read()
rows = open(sys.argv[2]).read().splitlines()[1:]
exp = ["\t".join(["0x%x" % i] + ["0x%x" % v for v in g.insn(data[i:i+16])]) for i in range(0, len(data), 16)]
print("same" if rows == exp else "differ %d/%d" % (len(rows), len(exp)))
PY
    check_eq "tsv rows $(basename "$f")" "$(cat "$tmp/py.txt")" "same"
done
# 4. disasm of a .coral: one line per bundle; of a model: a header per bitstream + lines
check_eq "disasm lines sub1" "$("$T" disasm "$D/programs/sub1.coral" | wc -l)" "$(( $(stat -c %s "$D/programs/sub1.coral") / 16 ))"
check_eq "disasm golden sub1" "$("$T" disasm "$D/programs/sub1.coral" | md5sum)" "$(md5sum < tests/vectors/edgetpu/sub1.dis)"
check_eq "disasm model lines" "$("$T" disasm "$D/models/dense_256_edgetpu.tflite" | wc -l)" "$((2 + 264 + 67))"
check_eq "disasm model headers" "$("$T" disasm "$D/models/dense_256_edgetpu.tflite" | grep '^#' | tr '\n' '|')" \
    "# executable 0 EXECUTION_ONLY bitstream 0: 264 instructions|# executable 1 PARAMETER_CACHING bitstream 0: 67 instructions|"
# 5. info --json against the Python walker, every field it prints
for m in dense_256_edgetpu bright_16x16_edgetpu; do
    "$T" info --json "$D/models/$m.tflite" > "$tmp/info.json" || { bad "info $m exit"; continue; }
    python3 - "$D/models/$m.tflite" "$tmp/info.json" > "$tmp/py.txt" <<'PY'
import sys, json, struct, importlib.util
spec = importlib.util.spec_from_file_location("g", "scripts/gen/gen_edgetpu_vectors.py")
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
b = open(sys.argv[1], "rb").read(); j = json.load(open(sys.argv[2]))
m = g.root(b); op = m.tabs(2)[0].tabs(3)[0]; co = op.bytes_(5)
_, pkg, _ = g.flex_map_get(co, "4"); P = g.root(pkg); me = P.bytes_(1); M = g.root(me); v = M.vec(0)
T = {0: "STAND_ALONE", 1: "PARAMETER_CACHING", 2: "EXECUTION_ONLY"}
DS = ["BASE_ADDRESS_OUTPUT_ACTIVATION", "BASE_ADDRESS_INPUT_ACTIVATION", "BASE_ADDRESS_PARAMETER", "BASE_ADDRESS_SCRATCH"]
DT = {0: "FIXED_POINT8", 1: "FIXED_POINT16", 2: "SIGNED_FIXED_POINT32", 8: "SIGNED_FIXED_POINT8", 9: "SIGNED_FIXED_POINT16"}
errs = []
def eq(what, a, b):
    if a != b: errs.append("%s: %r != %r" % (what, a, b))
exes = j["executables"]; eq("count", len(exes), v[1])
for k in range(v[1]):
    p = v[0] + 4*k; sp = p + struct.unpack_from("<I", me, p)[0]; n = struct.unpack_from("<I", me, sp)[0]
    E = g.root(me[sp+4:sp+4+n]); x = exes[k]
    eq("type", x["type"], T[E.sc(13, "h")])
    eq("token", int(x["parameter_caching_token"], 16), E.sc(14, "Q"))
    eq("params", x["parameters_len"], (E.vec(6) or (0, 0))[1])
    eq("batch", x["batch_size"], E.sc(3, "i"))
    for bi, ib in enumerate(E.tabs(5)):
        xb = x["bitstreams"][bi]
        eq("insns", xb["instructions"], len(ib.bytes_(0)) // 16)
        fos = ib.tabs(1); eq("nfo", len(xb["field_offsets"]), len(fos))
        for f, xf in zip(fos, xb["field_offsets"]):
            mt = f.tab(0)
            eq("fo desc", xf["desc"], DS[mt.sc(0, "h")])
            eq("fo pos", xf["position"], ["LOWER_32BIT", "UPPER_32BIT"][mt.sc(3, "h")])
            eq("fo bit", xf["offset_bit"], f.sc(1, "i"))
    dh = E.tab(7); eq("fd", x["dma_hints"]["fully_deterministic"], bool(dh.sc(1, "B")))
    hs = dh.tabs(0); eq("nh", len(x["dma_hints"]["hints"]), len(hs))
    for h, xh in zip(hs, x["dma_hints"]["hints"]):
        t = h.sc(0, "B"); ht = h.tab(1)
        eq("h type", xh["type"], {1: "DMA_DESCRIPTOR", 2: "INSTRUCTION", 3: "INTERRUPT", 4: "FENCE"}[t])
        eq("h dir", xh["direction"], ["INFEED", "OUTFEED"][h.sc(2, "h")])
        if t == 1:
            eq("h desc", xh["desc"], DS[ht.tab(0).sc(0, "h")])
            eq("h off", xh["offset_in_bytes"], ht.sc(1, "i")); eq("h size", xh["size_in_bytes"], ht.sc(2, "i"))
        if t == 2: eq("h chunk", xh["instruction_chunk_index"], ht.sc(0, "i"))
        if t == 3: eq("h irq", xh["interrupt_type"], "SCALAR_CORE_INT_%d" % ht.sc(0, "h"))
    for key, idx in (("input_layers", 8), ("output_layers", 9)):
        Ls = E.tabs(idx); eq(key, len(x[key]), len(Ls))
        for L, xl in zip(Ls, x[key]):
            nu = L.tab(5)
            eq("l name", xl["name"], L.str_(0)); eq("l size", xl["size_bytes"], L.sc(1, "i"))
            eq("l y", xl["y_dim"], L.sc(2, "i")); eq("l x", xl["x_dim"], L.sc(3, "i")); eq("l z", xl["z_dim"], L.sc(4, "i"))
            eq("l dt", xl["data_type"], DT[L.sc(6, "h")]); eq("l zp", xl["zero_point"], nu.sc(0, "i"))
            f = nu.sc(1, "f")
            if abs(xl["dequantization_factor"] - f) > 1e-8 * max(1.0, abs(f)): errs.append("dq %r %r" % (xl["dequantization_factor"], f))
print("same" if not errs else "; ".join(errs[:5]))
PY
    check_eq "info json $m" "$(cat "$tmp/py.txt")" "same"
done
# 6. plan: bring-up (the 52 control transfers of the trace, in order) + first inference
"$T" plan "$D/models/dense_256_edgetpu.tflite" > "$tmp/plan.txt"; check_eq "plan exit" "$?" "0"
python3 - "$D/init_sequence_libedgetpu_usb.tsv" "$tmp/plan.txt" > "$tmp/py.txt" <<'PY'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
ctrl = [l for l in open(sys.argv[2]).read().splitlines() if l.startswith("ctrl_")]
errs = []
if len(rows) != len(ctrl): errs.append("count %d != %d" % (len(ctrl), len(rows)))
for r, c in zip(rows, ctrl):
    kind = "ctrl_in" if r[1].startswith("R") else "ctrl_out"
    want = "%s bRequest=%s wValue=0x%04x wIndex=0x%04x len=%d" % (kind, r[3], int(r[4], 16), int(r[5], 16), 8 if r[1].endswith("64") else 4)
    if not c.startswith(want): errs.append("%s != %s" % (c, want))
    if kind == "ctrl_out":
        v = int(r[8], 16); n = 8 if r[1].endswith("64") else 4
        if ("data=" + v.to_bytes(n, "little").hex()) not in c: errs.append("value %s: %s" % (r[8], c))
print("same" if not errs else "; ".join(errs[:4]))
PY
check_eq "plan ctrl = trace" "$(cat "$tmp/py.txt")" "same"
# the USB data transfers, by hand from the model's hints (PC: 1072-byte program, 67584 bytes of
# parameters, event; EO: 4224-byte program, 256 input bytes, 256 output bytes, event)
want='bulk_out ep=0x01 len=8 header=30 04 00 00 00 00 00 00
bulk_out ep=0x01 len=1072
bulk_out ep=0x01 len=8 header=00 08 01 00 02 00 00 00
bulk_out ep=0x01 len=67584
bulk_in ep=0x82 len=16
bulk_out ep=0x01 len=8 header=80 10 00 00 00 00 00 00
bulk_out ep=0x01 len=4224
bulk_out ep=0x01 len=8 header=00 01 00 00 01 00 00 00
bulk_out ep=0x01 len=256
bulk_in ep=0x81 len=256
bulk_in ep=0x82 len=16'
check_eq "plan bulk" "$(grep '^bulk' "$tmp/plan.txt")" "$want"
check_eq "plan result" "$(tail -1 "$tmp/plan.txt")" "# ACCEL_OK: success, parameter caching ran, device violations 0x0"
"$T" plan "$D/models/bright_16x16_edgetpu.tflite" > "$tmp/plan2.txt"; check_eq "plan bright exit" "$?" "0"
check_eq "plan bright output" "$(grep -c '^bulk_in ep=0x81 len=8$' "$tmp/plan2.txt")" "1"
"$T" plan "$D/models/dense_256.tflite" >/dev/null 2>&1; check_eq "plan plain tflite" "$?" "1"

# 7. run without hardware: a clear error, exit 1; wrong input size refused before any USB
head -c 256 /dev/zero > "$tmp/in.bin"
if have lsusb && lsusb 2>/dev/null | grep -qi -e '18d1:9302' -e '1a6e:089a'; then
    skip "run without a device" "a Coral device is attached"
else
    "$T" run "$D/models/dense_256_edgetpu.tflite" "$tmp/in.bin" "$tmp/out.bin" 2> "$tmp/err.txt"
    check_eq "run no device exit" "$?" "1"
    check_eq "run no device msg" "$(grep -c -e 'no Coral USB Accelerator' -e 'without libusb' "$tmp/err.txt")" "1"
    "$T" run --firmware "$tmp/in.bin" "$D/models/dense_256_edgetpu.tflite" "$tmp/in.bin" "$tmp/out.bin" 2>/dev/null
    check_eq "run --firmware no device exit" "$?" "1"
fi
head -c 10 /dev/zero > "$tmp/in10.bin"
"$T" run "$D/models/dense_256_edgetpu.tflite" "$tmp/in10.bin" "$tmp/out.bin" 2>/dev/null; check_eq "run short input" "$?" "1"

# 8. errors on compiled models
"$T" info "$D/models/dense_256_edgetpu.tflite" >/dev/null 2>&1; check_eq "info without --json" "$?" "2"
"$T" disasm --tsv "$D/models/dense_256_edgetpu.tflite" >/dev/null 2>&1; check_eq "tsv on a model" "$?" "1"
head -c 1000 "$D/models/dense_256_edgetpu.tflite" > "$tmp/cut.tflite"
"$T" info --json "$tmp/cut.tflite" >/dev/null 2>&1; check_eq "info truncated model" "$?" "1"
"$T" info --json "$D/models/dense_256.tflite" >/dev/null 2>&1; check_eq "info plain tflite" "$?" "1"

else
    why=$(data_absent edgetpu ACCEL_EDGETPU_DATA)
    for part in "tsv of compiled programs" "disasm of compiled programs and models" \
                "info --json of the compiled models" "plan against libedgetpu's USB trace" \
                "run without a device" "errors on compiled models"; do
        skip "$part" "$why"
    done
fi
lib_end
