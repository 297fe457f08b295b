#!/usr/bin/env python3
"""A hand-made DarwiNN package for tests/test_edgetpu_driver.c, written with a small forward
FlatBuffers serializer (vtable, then table, children after; every uoffset points forward).
It exercises what the shared models do not: signed 16-bit input and 32-bit output layers, a
split (overlapping) input DMA, a fence, interrupt 1, two instruction chunks.
With `variants`, it writes instead small packages each with one deliberate defect (or one
feature the main package lacks: a parameter-caching executable, a scratch DMA hint, an unnamed
input hint), with the status a decoder must give, for tests/test_edgetpu_malformed.c.
Usage: gen_edgetpu_synth.py > examples/host/edgetpu_synth_pkg.h
       gen_edgetpu_synth.py variants > tests/vectors/edgetpu/synth_variants.h"""
import sys
import struct

class W:
    def __init__(s): s.b = bytearray(); s.fix = []
    def align(s, n):
        while len(s.b) % n: s.b.append(0)

def ser(w, obj):
    """obj: ('table', [(idx, kind, val)] [, vtable overrides {idx: offset}]) | ('bytes', b [, count])
    | ('str', s) | ('strnonul', s) | ('vec', [obj]) | ('raw', b) ; returns pos.
    Defects for the variants: a 'ref0' field or a None vector element keeps a zero uoffset; a
    bytes count may claim more than is there; 'raw' writes bytes as they are (unaligned)."""
    t = obj[0]
    if t == "raw":
        pos = len(w.b); w.b += obj[1]
        return pos
    if t in ("bytes", "str", "strnonul"):
        data = obj[1] if t == "bytes" else obj[1].encode()
        count = obj[2] if len(obj) > 2 else len(data)
        w.align(4); pos = len(w.b)
        w.b += struct.pack("<I", count) + data + (b"\0" if t == "str" else b"")
        return pos
    if t == "vec":
        w.align(4); pos = len(w.b)
        w.b += struct.pack("<I", len(obj[1])); slots = []
        for _ in obj[1]:
            slots.append(len(w.b)); w.b += b"\0\0\0\0"
        for slot, child in zip(slots, obj[1]):
            if child is None: continue
            cp = ser(w, child); struct.pack_into("<I", w.b, slot, cp - slot)
        return pos
    fields = obj[1]
    vt_over = obj[2] if len(obj) > 2 else {}
    nf = max([f[0] for f in fields] + list(vt_over) + [-1]) + 1
    # table layout: soffset, then fields in order, each aligned to its size
    layout = []; off = 4
    for idx, kind, val in fields:
        size = {"u8": 1, "i16": 2, "i32": 4, "u32": 4, "f32": 4, "u64": 8, "ref": 4, "ref0": 4}[kind]
        while off % size: off += 1
        layout.append((idx, kind, val, off, size)); off += size
    tsize = off
    w.align(4)
    vt = len(w.b)
    vtab = [0] * nf
    for idx, kind, val, o, size in layout: vtab[idx] = o
    for idx, o in vt_over.items(): vtab[idx] = o
    w.b += struct.pack("<HH", 4 + 2 * nf, tsize) + b"".join(struct.pack("<H", x) for x in vtab)
    w.align(8)
    # the table must start so that 8-byte fields land aligned: pad after the vtable
    tpos = len(w.b)
    w.b += bytes(tsize)
    struct.pack_into("<i", w.b, tpos, tpos - vt)
    refs = []
    for idx, kind, val, o, size in layout:
        fmt = {"u8": "<B", "i16": "<h", "i32": "<i", "u32": "<I", "f32": "<f", "u64": "<Q"}.get(kind)
        if kind == "ref": refs.append((tpos + o, val))
        elif kind != "ref0": struct.pack_into(fmt, w.b, tpos + o, val)
    for slot, child in refs:
        cp = ser(w, child); struct.pack_into("<I", w.b, slot, cp - slot)
    return tpos

def buffer(root, ident=None):
    w = W()
    w.b += b"\0\0\0\0" + (ident or b"\0\0\0\0")
    rp = ser(w, root)
    struct.pack_into("<I", w.b, 0, rp)
    return bytes(w.b)

def meta(desc, name=None, pos=0):
    f = [(0, "i16", desc), (3, "i16", pos)]
    if name: f.append((2, "ref", ("str", name)))
    return ("table", f)

def bundle(v): return v.to_bytes(16, "little")
START, HALT, NOP, END = (1 << 11) | (0x1e << 6), (1 << 11) | (1 << 6) | (4 << 14), 1 << 11, (1 << 11) | (0x1f << 6) | (0x80 << 19)
def program(n_body):
    bits = (n_body + 5) * 128
    start = START | ((bits & 0xfff) << 19) | (((bits >> 12) & 0x1f) << 31) | (((bits >> 17) & 0xff) << 36)
    movi = (1 << 11) | (0x2f << 54)  # MOVI s0, imm (patched)
    return bundle(start) + bundle(movi) * n_body + bundle(HALT) + bundle(NOP) * 4 + bundle(END)

def hint(kind, direction, val): return ("table", [(0, "u8", kind), (1, "ref", val), (2, "i16", direction)])

def layer(name, size, z, dt, zp, scale):
    return ("table", [(0, "ref", ("str", name)), (1, "i32", size), (2, "i32", 1), (3, "i32", 1), (4, "i32", z),
                      (5, "ref", ("table", [(0, "i32", zp), (1, "f32", scale)])), (6, "i16", dt)])

def main_package():
    prog0, prog1 = program(2), program(1)
    exe = ("table", [
        (0, "i32", 0), (1, "ref", ("str", "synth")), (3, "i32", 1), (4, "i32", 0),
        (5, "ref", ("vec", [
            ("table", [(0, "ref", ("bytes", prog0)), (1, "ref", ("vec", [
                ("table", [(0, "ref", meta(1, "in", 0)), (1, "i32", 16 * 8 + 70)]),
                ("table", [(0, "ref", meta(1, "in", 1)), (1, "i32", 32 * 8 + 70)])]))]),
            ("table", [(0, "ref", ("bytes", prog1)), (1, "ref", ("vec", [
                ("table", [(0, "ref", meta(0, "out", 0)), (1, "i32", 16 * 8 + 70)])]))])])),
        (7, "ref", ("table", [(0, "ref", ("vec", [
            hint(2, 0, ("table", [(0, "i32", 0)])),
            hint(1, 0, ("table", [(0, "ref", meta(1, "in")), (1, "i32", 0), (2, "i32", 7)])),
            hint(1, 0, ("table", [(0, "ref", meta(1, "in")), (1, "i32", 5), (2, "i32", 5)])),
            hint(4, 0, ("table", [])),
            hint(2, 0, ("table", [(0, "i32", 1)])),
            hint(1, 1, ("table", [(0, "ref", meta(0, "out")), (1, "i32", 0), (2, "i32", 8)])),
            hint(3, 1, ("table", [(0, "i16", 1)]))])), (1, "u8", 1)])),
        (8, "ref", ("vec", [layer("in", 10, 5, 9, 0, 0.5)])),
        (9, "ref", ("vec", [layer("out", 8, 2, 2, 0, 0.25)])),
        (10, "ref", ("str", "beagle")), (13, "i16", 0), (14, "u64", 0)])
    exe_b = buffer(exe)
    multi = buffer(("table", [(0, "ref", ("vec", [("bytes", exe_b)]))]))
    pkg = buffer(("table", [(0, "i32", 14), (1, "ref", ("bytes", multi)), (4, "ref", ("str", "synth-gen"))]), b"DWN1")
    return pkg, prog0, prog1

def emit_main():
    pkg, prog0, prog1 = main_package()
    print("/* generated by scripts/gen/gen_edgetpu_synth.py: do not edit */")
    print("static const uint8_t synth_pkg[%d] = {" % len(pkg))
    for i in range(0, len(pkg), 16):
        print("    " + ", ".join("0x%02x" % x for x in pkg[i:i + 16]) + ",")
    print("};")
    print("#define SYNTH_PROG0_LEN %d" % len(prog0))
    print("#define SYNTH_PROG1_LEN %d" % len(prog1))

# ---------------------------------------------------------------- variants
# A small executable, as a dict field index -> (kind, value); each variant changes one thing.
BAD_TABLE = ("raw", struct.pack("<i", 0x7fffffff))  # soffset pointing before the buffer
FAR = 0xfff0  # a vtable entry past the end of any table here

def dma(desc, direction, off, size, name=None, m=None):
    return hint(1, direction, ("table", [(0, "ref", m or meta(desc, name)), (1, "i32", off), (2, "i32", size)]))

def layer_t(name="in", size=16, y=1, x=1, z=16, dt=0, numerics=True, extra=(), vt=None):
    f = [(0, "ref", ("str", name)), (1, "i32", size), (2, "i32", y), (3, "i32", x), (4, "i32", z), (6, "i16", dt)]
    if numerics: f.append((5, "ref", ("table", [(0, "i32", 0), (1, "f32", 0.5)])))
    f += list(extra)
    return ("table", f, vt or {})

def small_exe(type_=0, token=0, hints=None, fos=None, bits=None, inputs=None, outputs=None, drop=(),
              over=None, vt=None, det=1):
    fos = fos if fos is not None else [("table", [(0, "ref", meta(1, "in", 0)), (1, "i32", 64)])]
    bs = ("table", [(0, "ref", ("bytes", bits if bits is not None else bundle(NOP))), (1, "ref", ("vec", fos))])
    if hints is None: hints = [hint(2, 0, ("table", [(0, "i32", 0)]))]
    f = {0: ("i32", 0), 3: ("i32", 1), 4: ("i32", 0), 5: ("ref", ("vec", [bs])),
         6: ("ref", ("bytes", bytes(range(32)))),
         7: ("ref", ("table", [(0, "ref", ("vec", hints)), (1, "u8", det)])),
         8: ("ref", ("vec", inputs if inputs is not None else [layer_t("in")])),
         13: ("i16", type_), 14: ("u64", token)}
    if outputs is not None: f[9] = ("ref", ("vec", outputs))
    for k in drop: del f[k]
    f.update(over or {})
    return ("table", [(k, kind, val) for k, (kind, val) in sorted(f.items())], vt or {})

def package(exes=None, multi_obj=None, pkg_fields=None):
    """exes: executables as trees or as ready ('bytes', ...) objects"""
    if multi_obj is None and exes is not None:
        multi_obj = ("bytes", buffer(("table", [(0, "ref", ("vec", [
            x if x is None or x[0] in ("bytes", "raw") else ("bytes", buffer(x)) for x in exes]))])))
    f = pkg_fields if pkg_fields is not None else [(0, "i32", 14), (1, "ref", multi_obj)]
    return buffer(("table", f), b"DWN1")

def with_ref0(over_idx):
    return {over_idx: ("ref0", None)}

def variants():
    M, TL, OK, UNS = "ACCEL_E_MALFORMED", "ACCEL_E_TOO_LONG", "ACCEL_OK", "ACCEL_E_UNSUPPORTED"
    fo = lambda m=None, f=None, vt=None: ("table", f if f is not None else [(0, "ref", m), (1, "i32", 64)], vt or {})
    lay = lambda **kw: small_exe(inputs=[layer_t(**kw)])
    hv = lambda h: small_exe(hints=[h])
    exe_b = buffer(small_exe())
    v = [
        # the package and its executables vector
        ("valid", package([small_exe()]), OK),
        ("no_executables_field", package(pkg_fields=[(0, "i32", 14)]), M),
        ("multi_too_short", package(multi_obj=("bytes", b"\0\0\0\0")), M),
        ("multi_bad_vector", package(multi_obj=("bytes", buffer(("table", [(0, "ref0", None)])))), M),
        ("no_executable", package([]), M),
        ("too_many_executables", package([("bytes", b"")] * 17), TL),
        ("executable_offset_zero", package([None]), M),
        ("executable_at_buffer_end", package([("raw", b"\0\0")]), M),
        ("executable_count_over", package([("bytes", exe_b, len(exe_b) + 1)]), M),
        ("executable_too_short", package([("bytes", b"\0\0\0\0")]), M),
        # executable fields
        ("type_negative", package([small_exe(type_=-1)]), M),
        ("type_3", package([small_exe(type_=3)]), M),
        ("batch_negative", package([small_exe(over={3: ("i32", -1)})]), M),
        ("scratch_negative", package([small_exe(over={4: ("i32", -1)})]), M),
        ("type_outside_table", package([small_exe(vt={13: FAR})]), M),
        ("type_inside_vtable", package([small_exe(vt={13: 2})]), M),
        ("version_outside_table", package([small_exe(vt={0: FAR})]), M),
        ("hints_offset_zero", package([small_exe(over=with_ref0(7))]), M),
        ("no_bitstreams", package([small_exe(drop=(5,))]), M),
        ("chip_without_nul", package([small_exe(over={10: ("ref", ("strnonul", "beagle"))})]), M),
        ("field_offset_past_bits", package([small_exe(fos=[fo(meta(1, "in", 0), f=[(0, "ref", meta(1)), (1, "i32", 97)])])]), M),
        ("parameters_overrun", package([small_exe(hints=[dma(2, 0, 1, 32)])]), M),
        # bitstreams and field offsets
        ("bitstream_bad_table", package([small_exe(over={5: ("ref", ("vec", [BAD_TABLE]))})]), M),
        ("bitstream_bits_offset_zero", package([small_exe(over={5: ("ref", ("vec", [("table", [(0, "ref0", None)])]))})]), M),
        ("bitstream_no_bits", package([small_exe(over={5: ("ref", ("vec", [("table", [(1, "ref", ("vec", []))])]))})]), M),
        ("bitstream_empty", package([small_exe(bits=b"")]), M),
        ("bitstream_15_bytes", package([small_exe(bits=bytes(15))]), M),
        ("field_offset_bad_table", package([small_exe(fos=[BAD_TABLE])]), M),
        ("field_offset_no_meta", package([small_exe(fos=[fo(f=[(1, "i32", 64)])])]), M),
        ("meta_desc_outside_table", package([small_exe(fos=[fo(("table", [(0, "i16", 1)], {0: FAR}))])]), M),
        ("meta_batch_outside_table", package([small_exe(fos=[fo(("table", [(0, "i16", 1)], {1: FAR}))])]), M),
        ("meta_name_offset_zero", package([small_exe(fos=[fo(("table", [(0, "i16", 1), (2, "ref0", None)]))])]), M),
        ("meta_desc_negative", package([small_exe(fos=[fo(meta(-1))])]), M),
        ("meta_desc_4", package([small_exe(fos=[fo(meta(4))])]), M),
        ("meta_position_negative", package([small_exe(fos=[fo(meta(1, None, -1))])]), M),
        ("meta_position_2", package([small_exe(fos=[fo(meta(1, None, 2))])]), M),
        ("meta_batch_negative", package([small_exe(fos=[fo(("table", [(0, "i16", 1), (1, "i32", -1)]))])]), M),
        # DMA hints
        ("hint_bad_table", package([hv(BAD_TABLE)]), M),
        ("hint_kind_outside_table", package([hv(("table", [(0, "u8", 2), (1, "ref", ("table", [(0, "i32", 0)]))], {0: FAR}))]), M),
        ("hint_direction_outside_table", package([hv(("table", [(0, "u8", 2), (1, "ref", ("table", [(0, "i32", 0)]))], {2: FAR}))]), M),
        ("hint_value_offset_zero", package([hv(("table", [(0, "u8", 2), (1, "ref0", None)]))]), M),
        ("hint_kind_0", package([hv(hint(0, 0, ("table", [(0, "i32", 0)])))]), M),
        ("hint_kind_5", package([hv(hint(5, 0, ("table", [(0, "i32", 0)])))]), M),
        ("hint_no_value", package([hv(("table", [(0, "u8", 2), (2, "i16", 0)]))]), M),
        ("hint_direction_negative", package([hv(hint(2, -1, ("table", [(0, "i32", 0)])))]), M),
        ("hint_direction_2", package([hv(hint(2, 2, ("table", [(0, "i32", 0)])))]), M),
        ("dma_no_meta", package([hv(hint(1, 0, ("table", [(1, "i32", 0), (2, "i32", 16)])))]), M),
        ("dma_offset_negative", package([hv(dma(1, 0, -1, 16, "in"))]), M),
        ("dma_size_0", package([hv(dma(1, 0, 0, 0, "in"))]), M),
        ("dma_offset_outside_table", package([hv(hint(1, 0, ("table", [(0, "ref", meta(1, "in")), (2, "i32", 16)], {1: FAR})))]), M),
        ("chunk_outside_table", package([hv(hint(2, 0, ("table", [(0, "i32", 0)], {0: FAR})))]), M),
        ("chunk_negative", package([hv(hint(2, 0, ("table", [(0, "i32", -1)])))]), M),
        ("chunk_1_of_1", package([hv(hint(2, 0, ("table", [(0, "i32", 1)])))]), M),
        ("interrupt_outside_table", package([hv(hint(3, 1, ("table", [(0, "i16", 0)], {0: FAR})))]), M),
        ("interrupt_negative", package([hv(hint(3, 1, ("table", [(0, "i16", -1)])))]), M),
        ("interrupt_4", package([hv(hint(3, 1, ("table", [(0, "i16", 4)])))]), M),
        # layers
        ("layer_bad_table", package([small_exe(inputs=[BAD_TABLE])]), M),
        ("layer_size_negative", package([lay(size=-1)]), M),
        ("layer_y_negative", package([lay(y=-1)]), M),
        ("layer_x_negative", package([lay(x=-1)]), M),
        ("layer_z_negative", package([lay(z=-1)]), M),
        ("layer_count_negative", package([lay(extra=[(9, "i32", -1)])]), M),
        ("layer_name_outside_table", package([lay(vt={0: FAR})]), M),
        ("numerics_zero_point_outside_table", package([small_exe(inputs=[("table", [(0, "ref", ("str", "in")), (1, "i32", 16), (5, "ref", ("table", [(0, "i32", 0)], {0: FAR}))])])]), M),
        ("numerics_scale_outside_table", package([small_exe(inputs=[("table", [(0, "ref", ("str", "in")), (1, "i32", 16), (5, "ref", ("table", [(0, "i32", 0)], {1: FAR}))])])]), M),
        ("numerics_offset_zero", package([small_exe(inputs=[("table", [(0, "ref", ("str", "in")), (5, "ref0", None)])])]), M),
        # a zero uoffset in each vector of tables
        ("bitstream_offset_zero", package([small_exe(over={5: ("ref", ("vec", [None]))})]), M),
        ("field_offset_offset_zero", package([small_exe(fos=[None])]), M),
        ("hint_offset_zero", package([hv(None)]), M),
        ("layer_offset_zero", package([small_exe(inputs=[None])]), M),
        # well-formed: parameter caching (token 0x1234 in both executables; the main one has an
        # unnamed hint for its only input layer, signed 8-bit, 32 bytes, and an output layer
        # without numerics), its caching executable alone or without a token or instructions
        ("pc_main", package([PC_MAIN, pc_exe(0x1234)]), OK),
        ("pc_no_token", package([PC_MAIN, pc_exe(0)]), OK),
        ("pc_only", package([pc_exe(0x1234)]), OK),
        ("pc_no_bitstreams", package([PC_MAIN, small_exe(type_=1, token=0x1234, drop=(5,), hints=[dma(2, 0, 0, 32)])]), OK),
        # well-formed, refused when run: no DMA hints, scratch DMA, parameters or an input
        # flowing out, an unnamed hint with two input layers, a hint naming no layer
        ("no_dma_hints", package([small_exe(drop=(7,))]), OK),
        ("scratch_hint", package([hv(dma(3, 0, 0, 16))]), OK),
        ("parameters_outfeed", package([hv(dma(2, 1, 0, 32))]), OK),
        ("input_outfeed", package([hv(dma(1, 1, 0, 16, "in"))]), OK),
        ("unnamed_two_inputs", package([small_exe(hints=[dma(1, 0, 0, 16)], inputs=[layer_t("in"), layer_t("in2")])]), OK),
        ("input_name_unknown", package([hv(dma(1, 0, 0, 16, "ab"))]), OK),
    ]
    return v

INSTR0 = hint(2, 0, ("table", [(0, "i32", 0)]))
PC_MAIN = small_exe(type_=2, token=0x1234,
                    hints=[INSTR0, dma(1, 0, 0, 32), dma(0, 1, 0, 8, "out"), hint(3, 1, ("table", [(0, "i16", 0)]))],
                    inputs=[layer_t("in", size=32, z=32, dt=8)], outputs=[layer_t("out", size=8, z=8, numerics=False)])

def pc_exe(token):
    return small_exe(type_=1, token=token, hints=[INSTR0, dma(2, 0, 0, 32)])

def emit_variants():
    v = variants()
    print("/* generated by scripts/gen/gen_edgetpu_synth.py variants: do not edit. Small DarwiNN")
    print(" * packages, each with one deliberate defect, and the status decoding must give. */")
    blob = bytearray()
    rows = []
    for name, data, st in v:
        rows.append((name, len(blob), len(data), st))
        blob += data
    print("static const uint8_t synth_variant_bytes[%d] = {" % len(blob))
    for i in range(0, len(blob), 32):
        print(",".join("%d" % x for x in blob[i:i + 32]) + ",")
    print("};")
    print("typedef struct synth_variant { const char *name; uint32_t at, len; accel_status status; } synth_variant;")
    print("static const synth_variant synth_variants[%d] = {" % len(rows))
    for name, at, n, st in rows:
        print('    {"%s", %d, %d, %s},' % (name, at, n, st))
    print("};")

if __name__ == "__main__":
    if sys.argv[1:] == ["variants"]:
        emit_variants()
    else:
        emit_main()
