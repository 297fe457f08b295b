#!/usr/bin/env python3
"""Small hand-made .tflite models for tests/test_tflite.c and the fuzz seeds, written with a
forward FlatBuffers serializer (vtable, then table, children after; every uoffset points
forward). Each model has one operator (or a few) with numbers chosen so the expected output is
worked out by hand in the comments below; the variants each break one rule of the schema or of
the graph, with the status the runner must give.
Usage: gen_tflite_models.py > tests/vectors/tflite/models.h
       gen_tflite_models.py demo > examples/host/tflite_demo_model.h
       gen_tflite_models.py seeds DIR   (one .tflite file per model, for tests/fuzz/seeds/tflite)"""
import os
import struct
import sys

SIZES = {"u8": 1, "i8": 1, "bool": 1, "i16": 2, "i32": 4, "u32": 4, "f32": 4, "off": 4, "i64": 8, "u64": 8}
FMT = {"u8": "<B", "i8": "<b", "bool": "<B", "i16": "<h", "i32": "<i", "u32": "<I", "f32": "<f",
       "i64": "<q", "u64": "<Q"}


class W:
    def __init__(s):
        s.b = bytearray(4)  # the root uoffset, patched at the end

    def align(s, n):
        while len(s.b) % n:
            s.b.append(0)

    def table(s, fields):
        """fields: list by field number of None or (kind, value); kind 'off' takes a function
        that writes the child and returns its position."""
        layout, size = [], 4
        for f in fields:
            if f is None:
                layout.append(0)
                continue
            n = SIZES[f[0]]
            while size % n:
                size += 1
            layout.append(size)
            size += n
        s.align(2)
        vt = len(s.b)
        s.b += struct.pack("<HH", 4 + 2 * len(fields), size)
        for o in layout:
            s.b += struct.pack("<H", o)
        s.align(8)
        t = len(s.b)
        s.b += bytes(size)
        struct.pack_into("<i", s.b, t, t - vt)
        for i, f in enumerate(fields):
            if f is not None and f[0] != "off":
                struct.pack_into(FMT[f[0]], s.b, t + layout[i], f[1])
        for i, f in enumerate(fields):
            if f is not None and f[0] == "off":
                at = t + layout[i]
                child = f[1](s)
                struct.pack_into("<I", s.b, at, child - at)
        return t

    def vec(s, kind, vals):
        n = SIZES[kind]
        s.align(4)
        while (len(s.b) + 4) % max(n, 4):
            s.b.append(0)
        pos = len(s.b)
        s.b += struct.pack("<I", len(vals))
        for v in vals:
            s.b += struct.pack(FMT[kind], v)
        return pos

    def bytes_vec(s, data):
        s.align(4)
        while (len(s.b) + 4) % 16:  # buffers are 16-byte aligned, as the converter does
            s.b.append(0)
        pos = len(s.b)
        s.b += struct.pack("<I", len(data)) + bytes(data)
        return pos

    def string(s, txt):
        s.align(4)
        pos = len(s.b)
        s.b += struct.pack("<I", len(txt)) + txt.encode() + b"\0"
        return pos

    def tables(s, fns):
        s.align(4)
        pos = len(s.b)
        s.b += struct.pack("<I", len(fns))
        slots = []
        for _ in fns:
            slots.append(len(s.b))
            s.b += bytes(4)
        for at, fn in zip(slots, fns):
            child = fn(s)
            struct.pack_into("<I", s.b, at, child - at)
        return pos


INT32, UINT8, INT16, INT8, FLOAT32 = 2, 3, 7, 9, 0


def T(shape, typ=INT8, data=None, scale=None, zp=0, var=False, name="t", scales=None, zps=None, qdim=0):
    return dict(shape=shape, type=typ, data=data, scale=scale, zp=zp, var=var, name=name, scales=scales,
                zps=zps, qdim=qdim)


def OP(code, ins, outs, opt_type=0, opt=None):
    return dict(code=code, ins=ins, outs=outs, opt_type=opt_type, opt=opt)


def i8(vals):
    return bytes(v & 0xFF for v in vals)


def i32(vals):
    return b"".join(struct.pack("<i", v) for v in vals)


def model(tensors, ops, inputs, outputs, version=3, opcodes=None, subgraphs=1, buffers_extra=0):
    """Serialize; constant tensors get a buffer each (buffer 0 is the empty one)."""
    codes = opcodes if opcodes is not None else sorted({o["code"] for o in ops})
    buffers = [b""]
    tbuf = []
    for t in tensors:
        if t["data"] is not None:
            tbuf.append(len(buffers))
            buffers.append(t["data"])
        else:
            tbuf.append(t.get("buffer", 0))
    buffers += [b""] * buffers_extra
    w = W()

    def opcode_fn(c):
        if isinstance(c, tuple):  # (deprecated byte, builtin_code)
            dep, bc = c
        else:
            dep, bc = min(c, 127), c
        return lambda s: s.table([("i8", dep), None, ("i32", 1), ("i32", bc)])

    def quant_fn(t):
        scales = t["scales"] if t["scales"] is not None else [t["scale"]]
        zps = t["zps"] if t["zps"] is not None else [t["zp"]] * len(scales)
        return lambda s: s.table([None, None, ("off", lambda s2: s2.vec("f32", scales)),
                                  ("off", lambda s2: s2.vec("i64", zps)), None, None, ("i32", t["qdim"])])

    def tensor_fn(t, bi):
        fields = [("off", lambda s: s.vec("i32", t["shape"])), ("i8", t["type"]), ("u32", bi),
                  ("off", lambda s: s.string(t["name"])),
                  ("off", quant_fn(t)) if (t["scale"] is not None or t["scales"] is not None) else None,
                  ("bool", 1) if t["var"] else None]
        return lambda s: s.table(fields)

    def op_fn(o):
        idx = codes.index(o["code"]) if o["code"] in codes else o.get("opcode_index", 0)
        if "opcode_index" in o:
            idx = o["opcode_index"]
        opt = o["opt"]
        return lambda s: s.table([("u32", idx), ("off", lambda s2: s2.vec("i32", o["ins"])),
                                  ("off", lambda s2: s2.vec("i32", o["outs"])),
                                  ("u8", o["opt_type"]) if o["opt_type"] else None,
                                  ("off", lambda s2: s2.table(opt)) if opt is not None else None])

    def subgraph_fn(s):
        return s.table([("off", lambda s2: s2.tables([tensor_fn(t, b) for t, b in zip(tensors, tbuf)])),
                        ("off", lambda s2: s2.vec("i32", inputs)), ("off", lambda s2: s2.vec("i32", outputs)),
                        ("off", lambda s2: s2.tables([op_fn(o) for o in ops]))])

    def buffer_fn(data):
        return lambda s: s.table([("off", lambda s2: s2.bytes_vec(data))] if data else [])

    root = w.table([("u32", version), ("off", lambda s: s.tables([opcode_fn(c) for c in codes])),
                    ("off", lambda s: s.tables([subgraph_fn] * subgraphs)), None,
                    ("off", lambda s: s.tables([buffer_fn(d) for d in buffers]))])
    struct.pack_into("<I", w.b, 0, root)
    return bytes(w.b)


CASES = []  # (name, bytes, open status, check status, bad op, input, output)


def case(name, m, inp=b"", out=b"", open_st="ACCEL_OK", check_st="ACCEL_OK", bad_op=0):
    CASES.append((name, m, open_st, check_st, bad_op, inp, out))


FC, SOFTMAX, ADD, MUL, QUANT, RESHAPE, CONCAT, MAXP, AVGP, CONV, DW, LOGISTIC = 9, 25, 0, 18, 114, 22, 2, 17, 1, 3, 4, 14

# FULLY_CONNECTED: in [4, 6] (scale 0.5), W [[1, 2], [3, -4]] (0.25), bias [8, -8] (0.125), out
# scale 1. acc0 = 4 + 12 + 8 = 24, * 0.125 = 3; acc1 = 12 - 24 - 8 = -20, * 0.125 = -2.5 -> -3
# (ties away from zero); RELU: [3, 0].
fc_t = [T([1, 2], scale=0.5, name="in"), T([2, 2], data=i8([1, 2, 3, -4]), scale=0.25, name="w"),
        T([2], INT32, data=i32([8, -8]), scale=0.125, name="b"), T([1, 2], scale=1.0, name="out")]
case("fc", model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]), i8([4, 6]), i8([3, -3]))
case("fc_relu", model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 1)])], [0], [3]), i8([4, 6]), i8([3, 0]))
# no bias (an absent optional input, -1): acc0 = 16 * 0.125 = 2, acc1 = -12 * 0.125 = -1.5 -> -2
case("fc_nobias", model(fc_t, [OP(FC, [0, 1, -1], [3], 8, [("u8", 0)])], [0], [3]), i8([4, 6]), i8([2, -2]))
# output zero point 10 and input zero point 2: in [6, 8] - 2 = [4, 6]: [3 + 10, -3 + 10]
fc_zp = [dict(t) for t in fc_t]
fc_zp[0]["zp"] = 2
fc_zp[3]["zp"] = 10
case("fc_zp", model(fc_zp, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]), i8([6, 8]), i8([13, 7]))
# per-channel weights: channel scales 0.25 and 0.5 -> acc1 * 0.5 * 0.5 = -20 * 0.25 = -5
fc_pc = [dict(t) for t in fc_t]
fc_pc[1] = T([2, 2], data=i8([1, 2, 3, -4]), scales=[0.25, 0.5], name="w")
case("fc_per_channel", model(fc_pc, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]), i8([4, 6]), i8([3, -5]))
# RELU6 with output scale 0.5: 6 / 0.5 = 12 is the top: acc0 = 24 * 0.25 = 6 -> 6 (<= 12);
# make it 40 + ...: in [10, 10]: acc0 = 10 + 20 + 8 = 38, * 0.5*0.25/0.5 = 9.5 -> 10;
# acc1 = 30 - 40 - 8 = -18 * 0.25 = -4.5 -> -5 -> RELU6 floor 0: [10, 0]
fc_r6 = [dict(t) for t in fc_t]
fc_r6[3] = T([1, 2], scale=0.5, name="out")
case("fc_relu6", model(fc_r6, [OP(FC, [0, 1, 2], [3], 8, [("u8", 3)])], [0], [3]), i8([10, 10]), i8([10, 0]))

# SOFTMAX int8 -> int8 (out scale 1/256, zp -128): equal inputs give 1/2 each = 128/256 -> 0;
# one input far below (diff beyond the radius) gets exactly the type's minimum.
sm_t = [T([1, 2], scale=0.1, name="in"), T([1, 2], scale=1.0 / 256, zp=-128, name="out")]
case("softmax_equal", model(sm_t, [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]), i8([5, 5]), i8([0, 0]))
case("softmax_one", model(sm_t, [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]), i8([127, -128]),
     i8([127, -128]))

# ADD with broadcast: a [1, 2] = [1, 2], b [1] = [3] (scales 1): [4, 5]; MUL: [2*3, ...] = [3, 6]
bin_t = [T([1, 2], scale=1.0, name="a"), T([1], scale=1.0, name="b"), T([1, 2], scale=1.0, name="out")]
case("add_broadcast", model(bin_t, [OP(ADD, [0, 1], [2], 11, [("u8", 0)])], [0, 1], [2]), i8([1, 2, 3]),
     i8([4, 5]))
case("mul_broadcast", model(bin_t, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]), i8([1, 2, 3]),
     i8([3, 6]))
# MUL into output scale 2: 3 * 3 / 2 = 4.5 -> 5 (ties away), 2 * 3 / 2 = 3
bin2 = [dict(t) for t in bin_t]
bin2[2] = T([1, 2], scale=2.0, name="out")
case("mul_rescale", model(bin2, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]), i8([3, 2, 3]), i8([5, 3]))

# QUANTIZE int8 (scale 1, zp 0) -> uint8 (scale 1, zp 128): [-128, 0, 127] -> [0, 128, 255];
# int8 -> int8 at half the scale with clamping: [-128, 0, 100] * 2 -> [-128, 0, 127]
q_t = [T([3], scale=1.0, name="in"), T([3], UINT8, scale=1.0, zp=128, name="out")]
case("quantize_u8", model(q_t, [OP(QUANT, [0], [1])], [0], [1]), i8([-128, 0, 127]), bytes([0, 128, 255]))
q2 = [T([3], scale=1.0, name="in"), T([3], scale=0.5, name="out")]
case("quantize_clamp", model(q2, [OP(QUANT, [0], [1])], [0], [1]), i8([-128, 0, 100]), i8([-128, 0, 127]))
# equal scales move only the zero point, clamped to the output type: uint8 (zp 0) -> int8 (zp 0):
# [0, 100, 200] -> [0, 100, 127]; int8 (zp 5) -> uint8 (zp 0): [-128, 4, 127] - 5 -> [0, 0, 122]
q3 = [T([3], UINT8, scale=0.25, name="in"), T([3], scale=0.25, name="out")]
case("quantize_same_u8_i8", model(q3, [OP(QUANT, [0], [1])], [0], [1]), bytes([0, 100, 200]), i8([0, 100, 127]))
q4 = [T([3], scale=0.25, zp=5, name="in"), T([3], UINT8, scale=0.25, name="out")]
case("quantize_same_i8_u8", model(q4, [OP(QUANT, [0], [1])], [0], [1]), i8([-128, 4, 127]), bytes([0, 0, 122]))

# RESHAPE [1, 4] -> [2, 2] (the shape input is a constant), then CONCATENATION on axis 1 of a
# [1, 2] and a [1, 1]: [a0, a1, b0]
rs_t = [T([1, 4], scale=1.0, name="in"), T([2], INT32, data=i32([2, 2]), name="shape"),
        T([2, 2], scale=1.0, name="out")]
case("reshape", model(rs_t, [OP(RESHAPE, [0, 1], [2], 17, [("off", lambda s: s.vec("i32", [2, 2]))])], [0], [2]),
     i8([1, -2, 3, -4]), i8([1, -2, 3, -4]))
cc_t = [T([1, 2], scale=1.0, name="a"), T([1, 1], scale=1.0, name="b"), T([1, 3], scale=1.0, name="out")]
case("concat", model(cc_t, [OP(CONCAT, [0, 1], [2], 10, [("i32", -1), ("u8", 0)])], [0, 1], [2]), i8([7, 8, 9]),
     i8([7, 8, 9]))

# pools over a 2x2 image [1, 2, 3, 5], 2x2 window VALID: max 5, average 11 / 4 = 2.75 -> 3
pl_t = [T([1, 2, 2, 1], scale=1.0, name="in"), T([1, 1, 1, 1], scale=1.0, name="out")]
pool_opt = [("u8", 1), ("i32", 1), ("i32", 1), ("i32", 2), ("i32", 2), ("u8", 0)]
case("max_pool", model(pl_t, [OP(MAXP, [0], [1], 5, pool_opt)], [0], [1]), i8([1, 2, 3, 5]), i8([5]))
case("avg_pool", model(pl_t, [OP(AVGP, [0], [1], 5, pool_opt)], [0], [1]), i8([1, 2, 3, 5]), i8([3]))
# SAME padding, stride 2 on 3x3 -> 2x2; average of in-image taps only: [1..9]:
# (1+2+4+5)/4 = 3, (3+6)/2 = 4.5 -> 5, (7+8)/2 = 7.5 -> 8, 9
pl3 = [T([1, 3, 3, 1], scale=1.0, name="in"), T([1, 2, 2, 1], scale=1.0, name="out")]
case("avg_pool_same", model(pl3, [OP(AVGP, [0], [1], 5, [("u8", 0), ("i32", 2), ("i32", 2), ("i32", 2),
                                                         ("i32", 2), ("u8", 0)])], [0], [1]),
     i8(range(1, 10)), i8([3, 5, 8, 9]))

# CONV_2D 1x1, two output channels (per-channel scales 1 and 0.5), input [1,1,2,2] scale 1:
# pixel (a, b): ch0 = a + b, ch1 = (a - b) * 0.5. Pixels (2, 4), (3, -1): [6, -1, 2, 2]
cv_t = [T([1, 1, 2, 2], scale=1.0, name="in"), T([2, 1, 1, 2], data=i8([1, 1, 1, -1]), scales=[1.0, 0.5], name="w"),
        T([2], INT32, data=i32([0, 0]), scales=[1.0, 0.5], name="b"), T([1, 1, 2, 2], scale=1.0, name="out")]
conv_opt = [("u8", 1), ("i32", 1), ("i32", 1), ("u8", 0), ("i32", 1), ("i32", 1)]
case("conv_1x1", model(cv_t, [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]), i8([2, 4, 3, -1]),
     i8([6, -1, 2, 2]))
# DEPTHWISE_CONV_2D 2x2 on a 2x2 image of one channel, depth multiplier 2, weights [1,1,1,1] and
# [1,-1,0,0] (per output channel, layout [1, kh, kw, out_c]): in [1,2,3,4]: ch0 10, ch1 -1
dw_t = [T([1, 2, 2, 1], scale=1.0, name="in"), T([1, 2, 2, 2], data=i8([1, 1, 1, -1, 1, 0, 1, 0]), scale=1.0, name="w"),
        T([2], INT32, data=i32([0, 0]), scale=1.0, name="b"), T([1, 1, 1, 2], scale=1.0, name="out")]
dw_opt = [("u8", 1), ("i32", 1), ("i32", 1), ("i32", 2), ("u8", 0), ("i32", 1), ("i32", 1)]
case("depthwise_dm2", model(dw_t, [OP(DW, [0, 1, 2], [3], 2, dw_opt)], [0], [3]), i8([1, 2, 3, 4]), i8([10, -1]))

# LOGISTIC int8 (out scale 1/256, zp -128): sigmoid(0) = 1/2 -> 0; very large -> 127; very small -> -128
lg_t = [T([3], scale=0.5, name="in"), T([3], scale=1.0 / 256, zp=-128, name="out")]
case("logistic", model(lg_t, [OP(LOGISTIC, [0], [1])], [0], [1]), i8([0, 127, -128]), i8([0, 127, -128]))

# two operators, the middle tensor planned: FC then RELU-free QUANTIZE to uint8 (+128): [131, 125]
two_t = fc_t + [T([1, 2], UINT8, scale=1.0, zp=128, name="u8")]
case("fc_then_quantize", model(two_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(QUANT, [3], [4])], [0], [4]),
     i8([4, 6]), bytes([131, 125]))

# ---- variants: one rule broken each ----
base = lambda **kw: model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3], **kw)
case("bad_version", base(version=2), open_st="ACCEL_E_TFLITE_VERSION")
case("bad_no_subgraph", base(subgraphs=0), open_st="ACCEL_E_TFLITE_SUBGRAPH")
case("bad_tensor_index", model(fc_t, [OP(FC, [0, 1, 7], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_TENSOR_INDEX")
case("bad_graph_input_index", model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [9], [3]),
     open_st="ACCEL_E_TFLITE_TENSOR_INDEX")
neg = [dict(t) for t in fc_t]
neg[3] = T([1, -2], scale=1.0, name="out")
case("bad_negative_dim", model(neg, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_SHAPE")
huge = [dict(t) for t in fc_t]
huge[3] = T([65536, 65536, 2], scale=1.0, name="out")
case("bad_overflow_shape", model(huge, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_SHAPE")
ty = [dict(t) for t in fc_t]
ty[3] = dict(T([1, 2], scale=1.0, name="out"), type=99)
case("bad_type", model(ty, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]), open_st="ACCEL_E_TFLITE_TYPE")
bsz = [dict(t) for t in fc_t]
bsz[1] = T([2, 2], data=i8([1, 2, 3]), scale=0.25, name="w")
case("bad_buffer_size", model(bsz, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_BUFFER")
bix = [dict(t) for t in fc_t]
bix[3] = dict(T([1, 2], scale=1.0, name="out"), buffer=40)
case("bad_buffer_index", model(bix, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_BUFFER")
qc = [dict(t) for t in fc_t]
qc[1] = T([2, 2], data=i8([1, 2, 3, -4]), scales=[0.25, 0.5], zps=[0], name="w")
case("bad_quant_counts", model(qc, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_QUANT")
qn = [dict(t) for t in fc_t]
qn[0] = T([1, 2], scale=-0.5, name="in")
case("bad_negative_scale", model(qn, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_QUANT")
qz = [dict(t) for t in fc_t]
qz[0] = T([1, 2], scale=0.5, zp=200, name="in")
case("bad_zero_point", model(qz, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_QUANT")
case("bad_opcode_index", model(fc_t, [dict(OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), opcode_index=3)], [0], [3]),
     open_st="ACCEL_E_TFLITE_OPCODE")
case("bad_builtin_code", model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3], opcodes=[(5, 200)]),
     open_st="ACCEL_E_TFLITE_OPCODE")
case("bad_options_type", model(fc_t, [OP(FC, [0, 1, 2], [3], 1, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_OPTIONS")
case("bad_read_before_write", model(fc_t, [OP(FC, [3, 1, 2], [0], 8, [("u8", 0)])], [0], [3]),
     open_st="ACCEL_E_TFLITE_GRAPH")
case("bad_writes_constant", model(fc_t, [OP(FC, [0, 3, 2], [1], 8, [("u8", 0)])], [0], [1]),
     open_st="ACCEL_E_TFLITE_GRAPH")
# accepted by open, refused by the operator's own rules (check / init)
case("bad_fc_arity", model(fc_t, [OP(FC, [0], [3], 8, [("u8", 0)])], [0], [3]), check_st="ACCEL_E_TFLITE_ARITY")
case("bad_fc_shape", model(fc_t[:3] + [T([1, 3], scale=1.0, name="out")], [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])],
                           [0], [3]), check_st="ACCEL_E_TFLITE_SHAPE")
case("bad_conv_padding", model(cv_t, [OP(CONV, [0, 1, 2], [3], 1, [("u8", 7)] + conv_opt[1:])], [0], [3]),
     check_st="ACCEL_E_TFLITE_OPTIONS")
case("bad_conv_outsize", model(cv_t[:3] + [T([1, 2, 2, 2], scale=1.0, name="out")],
                               [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]), check_st="ACCEL_E_TFLITE_SHAPE")
case("bad_softmax_out_quant", model([sm_t[0], T([1, 2], scale=0.5, zp=-128, name="out")],
                                    [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]),
     check_st="ACCEL_E_TFLITE_QUANT")
case("unsupported_tanh", model([T([2], scale=1.0, name="in"), T([2], scale=1.0, name="out")], [OP(28, [0], [1])],
                               [0], [1]), check_st="ACCEL_E_UNSUPPORTED")
case("unsupported_second_op", model(two_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(41, [3, 3], [4])], [0], [4]),
     check_st="ACCEL_E_UNSUPPORTED", bad_op=1)
case("unsupported_fc_float", model([T([1, 2], FLOAT32, name="in"), T([2, 2], FLOAT32, data=bytes(16), name="w"),
                                    T([1, 2], FLOAT32, name="out")], [OP(FC, [0, 1, -1], [2], 8, [("u8", 0)])],
                                   [0], [2]), check_st="ACCEL_E_UNSUPPORTED")


def cstr(b):
    return '"' + "".join("\\x%02x" % x for x in b) + '"'


DEMO = "fc_then_quantize"  # examples/host/demo_tflite.c runs this one


def array(name, m):
    out = ["static const uint8_t tfl_model_%s[%d] = {" % (name, len(m))]
    for k in range(0, len(m), 16):
        out.append("    " + ", ".join("0x%02x" % x for x in m[k:k + 16]) + ",")
    out.append("};")
    return out


def emit_demo():
    m = next(c[1] for c in CASES if c[0] == DEMO)
    out = ["/* Generated by scripts/gen/gen_tflite_models.py (demo): the fc_then_quantize model,",
           " * FULLY_CONNECTED then QUANTIZE to uint8; in [4, 6] -> [3, -3] -> [131, 125], worked out",
           " * by hand there. tests/vectors/tflite/models.h includes it too. Do not edit. */"]
    print("\n".join(out + array(DEMO, m)))


def emit_header():
    out = ["/* Generated by scripts/gen/gen_tflite_models.py: small hand-made .tflite models with the",
           " * statuses and outputs worked out by hand there. Do not edit. */",
           "typedef struct tfl_case {",
           "    const char *name;",
           "    const uint8_t *model;",
           "    size_t len;",
           "    accel_status open_st, check_st;",
           "    uint32_t bad_op;",
           "    const char *in, *out;",
           "    size_t in_len, out_len;",
           "} tfl_case;", ""]
    for name, m, *_ in CASES:
        if name == DEMO:  # the demo's copy is the one copy (examples must not include tests/)
            out.append('#include "../../../examples/host/tflite_demo_model.h"')
            continue
        out.extend(array(name, m))
    out.append("static const tfl_case tfl_cases[] = {")
    for name, m, o, c, bad, inp, res in CASES:
        out.append("    {\"%s\", tfl_model_%s, sizeof tfl_model_%s, %s, %s, %d, %s, %s, %d, %d}," %
                   (name, name, name, o, c, bad, cstr(inp), cstr(res), len(inp), len(res)))
    out.append("};")
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "seeds":
        for name, m, *_ in CASES:
            with open(os.path.join(sys.argv[2], name + ".tflite"), "wb") as f:
                f.write(m)
    elif len(sys.argv) > 1 and sys.argv[1] == "demo":
        emit_demo()
    else:
        emit_header()
