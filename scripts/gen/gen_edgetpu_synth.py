#!/usr/bin/env python3
"""A hand-made DarwiNN package for tests/test_edgetpu_driver.c, written with a small forward
FlatBuffers serializer (vtable, then table, children after; every uoffset points forward).
It exercises what the shared models do not: signed 16-bit input and 32-bit output layers, a
split (overlapping) input DMA, a fence, interrupt 1, two instruction chunks.
Usage: gen_edgetpu_synth.py > tests/vectors/edgetpu/synth_pkg.h"""
import struct

class W:
    def __init__(s): s.b = bytearray(); s.fix = []
    def align(s, n):
        while len(s.b) % n: s.b.append(0)

def ser(w, obj):
    """obj: ('table', [(idx, kind, val)]) | ('bytes', b) | ('str', s) | ('vec', [obj]) ; returns pos"""
    t = obj[0]
    if t in ("bytes", "str"):
        data = obj[1] if t == "bytes" else obj[1].encode()
        w.align(4); pos = len(w.b)
        w.b += struct.pack("<I", len(data)) + data + (b"\0" if t == "str" else b"")
        return pos
    if t == "vec":
        w.align(4); pos = len(w.b)
        w.b += struct.pack("<I", len(obj[1])); slots = []
        for _ in obj[1]:
            slots.append(len(w.b)); w.b += b"\0\0\0\0"
        for slot, child in zip(slots, obj[1]):
            cp = ser(w, child); struct.pack_into("<I", w.b, slot, cp - slot)
        return pos
    fields = obj[1]
    nf = max([f[0] for f in fields] + [-1]) + 1
    # table layout: soffset, then fields in order, each aligned to its size
    layout = []; off = 4
    for idx, kind, val in fields:
        size = {"u8": 1, "i16": 2, "i32": 4, "u32": 4, "f32": 4, "u64": 8, "ref": 4}[kind]
        while off % size: off += 1
        layout.append((idx, kind, val, off, size)); off += size
    tsize = off
    w.align(4)
    vt = len(w.b)
    vtab = [0] * nf
    for idx, kind, val, o, size in layout: vtab[idx] = o
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
        else: struct.pack_into(fmt, w.b, tpos + o, val)
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
print("/* generated by scripts/gen/gen_edgetpu_synth.py: do not edit */")
print("static const uint8_t synth_pkg[%d] = {" % len(pkg))
for i in range(0, len(pkg), 16):
    print("    " + ", ".join("0x%02x" % x for x in pkg[i:i + 16]) + ",")
print("};")
print("#define SYNTH_PROG0_LEN %d" % len(prog0))
print("#define SYNTH_PROG1_LEN %d" % len(prog1))
