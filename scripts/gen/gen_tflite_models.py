#!/usr/bin/env python3
"""Small hand-made .tflite models for tests/test_tflite.c and the fuzz seeds, written with a
forward FlatBuffers serializer (vtable, then table, children after; every uoffset points
forward). Each model has one operator (or a few) with numbers chosen so the expected output is
worked out by hand in the comments below; the variants each break one rule of the schema or of
the graph, with the status the runner must give.
Usage: gen_tflite_models.py > tests/vectors/tflite/models.h
       gen_tflite_models.py demo > examples/host/tflite_demo_model.h
       gen_tflite_models.py sketch examples/arduino/TfliteHello/model.h tests/avr/expect/TfliteHello.normal.txt
       gen_tflite_models.py progmem MODEL.tflite NAME IN.bin... > model.h   (any model, same form)
       gen_tflite_models.py seeds DIR   (one .tflite file per model, for tests/fuzz/seeds/tflite)"""
import math
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


INT32, UINT8, INT16, INT8, FLOAT32, INT64 = 2, 3, 7, 9, 0, 4


def T(shape, typ=INT8, data=None, scale=None, zp=0, var=False, name="t", scales=None, zps=None, qdim=0):
    return dict(shape=shape, type=typ, data=data, scale=scale, zp=zp, var=var, name=name, scales=scales,
                zps=zps, qdim=qdim)


def OP(code, ins, outs, opt_type=0, opt=None, custom_options=None):
    return dict(code=code, ins=ins, outs=outs, opt_type=opt_type, opt=opt, custom_options=custom_options)


def i8(vals):
    return bytes(v & 0xFF for v in vals)


def i32(vals):
    return b"".join(struct.pack("<i", v) for v in vals)


def i16(vals):
    return b"".join(struct.pack("<h", v) for v in vals)


def model(tensors, ops, inputs, outputs, version=3, opcodes=None, subgraphs=1, buffers_extra=0, custom_code=None):
    """Serialize; constant tensors get a buffer each (buffer 0 is the empty one). custom_code names
    the CUSTOM operator (builtin code 32) when there is one."""
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
        name = ("off", lambda s2: s2.string(custom_code)) if bc == CUSTOM and custom_code else None
        return lambda s: s.table([("i8", dep), name, ("i32", 1), ("i32", bc)])

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
        fields = [("u32", idx), ("off", lambda s2: s2.vec("i32", o["ins"])),
                  ("off", lambda s2: s2.vec("i32", o["outs"])),
                  ("u8", o["opt_type"]) if o["opt_type"] else None,
                  ("off", lambda s2: s2.table(opt)) if opt is not None else None]
        if o["custom_options"] is not None:  # field 5; the vtable only grows when it is there
            fields.append(("off", lambda s2: s2.vec("u8", list(o["custom_options"]))))
        return lambda s: s.table(fields)

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


CASES = []  # (name, bytes, open status, check status, bad op, input, output, invoke status, reason)


def case(name, m, inp=b"", out=b"", open_st="ACCEL_OK", check_st="ACCEL_OK", bad_op=0, invoke_st="ACCEL_OK",
         reason=""):
    """reason: what accel_tflite_check_op says of the refused operator (bad_op), when given"""
    CASES.append((name, m, open_st, check_st, bad_op, inp, out, invoke_st, reason))


FC, SOFTMAX, ADD, MUL, QUANT, RESHAPE, CONCAT, MAXP, AVGP, CONV, DW, LOGISTIC = 9, 25, 0, 18, 114, 22, 2, 17, 1, 3, 4, 14
DEQUANT, CUSTOM = 6, 32

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
# n equal inputs: each exponential is exp(0) = 1, 2^19 in TFLite's int32 sum (Q12.19), and each
# output 1/n. 256 into int8: the sum 2^27, 1/256 is one step above the zero point: -127 each.
# 512 into int8: the sum 2^28 needs RoundingDivideByPOT by 32, past the 31 TFLite defines: no
# result (ACCEL_E_TFLITE_RANGE at invoke, operator 0). 2048 into int16 (scale 1/65536, zero
# point -32768): the sum 2^30, 1/2048 = 32 steps: -32736 each. 4096 into int16: the sum 2^31
# overflows the int32 (signed overflow in TFLite's reference): ACCEL_E_TFLITE_RANGE.
def sm_equal(n, typ):
    out = T([1, n], scale=1.0 / 256, zp=-128, name="out") if typ == INT8 else \
        T([1, n], INT16, scale=1.0 / 65536, zp=-32768, name="out")
    return model([T([1, n], scale=0.1, name="in"), out], [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1])


case("softmax_256_equal", sm_equal(256, INT8), bytes(256), i8([-127] * 256))
case("softmax_512_equal", sm_equal(512, INT8), bytes(512), invoke_st="ACCEL_E_TFLITE_RANGE")
case("softmax_2048_equal_i16", sm_equal(2048, INT16), bytes(2048), i16([-32736] * 2048))
case("softmax_4096_equal_i16", sm_equal(4096, INT16), bytes(4096), invoke_st="ACCEL_E_TFLITE_RANGE")

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

# SPLIT (axis a constant input, num_splits outputs, the bytes copied): [2, 3] int8 on axis 0 ->
# [1, 2, 3] and [4, 5, 6]; on axis -1 (= 1) into 3 -> [1, 4], [2, 5], [3, 6]; uint8 the same
sp_t = [T([1], INT32, data=i32([0]), name="axis"), T([2, 3], scale=1.0, name="in"),
        T([1, 3], scale=1.0, name="a"), T([1, 3], scale=1.0, name="b")]
case("split_axis0", model(sp_t, [OP(49, [0, 1], [2, 3], 35, [("i32", 2)])], [1], [2, 3]), i8([1, 2, 3, 4, 5, 6]),
     i8([1, 2, 3, 4, 5, 6]))
sp3 = [T([1], INT32, data=i32([-1]), name="axis"), T([2, 3], UINT8, scale=1.0, name="in")] + \
      [T([2, 1], UINT8, scale=1.0, name="p%d" % k) for k in range(3)]
case("split_last_uint8", model(sp3, [OP(49, [0, 1], [2, 3, 4], 35, [("i32", 3)])], [1], [2, 3, 4]),
     bytes([1, 2, 3, 4, 5, 6]), bytes([1, 4, 2, 5, 3, 6]))
# num_splits 2 with three outputs; an axis that does not divide (3 into 2); the axis a graph input
case("split_bad_count", model(sp3, [OP(49, [0, 1], [2, 3, 4], 35, [("i32", 2)])], [1], [2, 3, 4]),
     check_st="ACCEL_E_TFLITE_ARITY")
case("split_uneven", model(sp3[:4], [OP(49, [0, 1], [2, 3], 35, [("i32", 2)])], [1], [2, 3]),
     check_st="ACCEL_E_TFLITE_SHAPE")
sp_in = [T([1], INT32, name="axis")] + sp_t[1:]
case("split_axis_not_const", model(sp_in, [OP(49, [0, 1], [2, 3], 35, [("i32", 2)])], [0, 1], [2, 3]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="weights or bias not constant")
# CONCATENATION uint8 of inputs quantized unlike the output (TFLite's reference rescales in
# float32: round(q * s + bias) + zp_out, s = s_in * (1 / s_out), bias = -zp_in * s). Output
# scale 0.5 zp 10; a: scale 0.5 zp 10 (copied as is): [10, 200]; b: scale 1.5 zp 100:
# s = 1.5 * 2 = 3, bias = -300: 100 -> 0 + 10 = 10, 101 -> 3 + 10 = 13, 90 -> -30 + 10 = -20 ->
# 0 (clamped), 180 -> 240 + 10 = 250. c: scale 0.25 zp 0: s = 0.5, bias 0: 3 -> 1.5 -> 2 (ties
# away from zero) + 10 = 12, 5 -> 2.5 -> 3 + 10 = 13, 255 -> 127.5 -> 128 + 10 = 138, 1 -> 0.5 -> 1 + 10 = 11
ccs = [T([1, 2], UINT8, scale=0.5, zp=10, name="a"), T([1, 4], UINT8, scale=1.5, zp=100, name="b"),
       T([1, 4], UINT8, scale=0.25, name="c"), T([1, 10], UINT8, scale=0.5, zp=10, name="out")]
case("concat_uint8_rescale", model(ccs, [OP(CONCAT, [0, 1, 2], [3], 10, [("i32", 1), ("u8", 0)])], [0, 1, 2], [3]),
     bytes([10, 200, 100, 101, 90, 180, 3, 5, 255, 1]), bytes([10, 200, 10, 13, 0, 250, 12, 13, 138, 11]))
# int8 inputs must share the output's quantization (TFLM's int8 kernel)
cci8 = [T([1, 2], scale=0.5, name="a"), T([1, 2], scale=1.0, name="b"), T([1, 4], scale=0.5, name="out")]
case("concat_int8_rescale", model(cci8, [OP(CONCAT, [0, 1], [2], 10, [("i32", 1), ("u8", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_QUANT")

# MEAN and SUM (axes a constant int32 vector; ReducerOptions keep_dims), TFLM's and TFLite's
# QuantizedMeanOrSum: the int32 sum less zero point * n, requantized by in / out scale with 1/n
# folded in (multiplier * 2^k / n, k = floor(log2 n)). [1, 2, 3, 5] over axes 1, 2 (keep_dims):
# scale 1 = 2^30 * 2^1; n 4: multiplier 2^30, shift -1: 11 -> SRDHM 6 (5.5 up) -> /2 = 3;
# [1, 2, 3, 4]: 10 -> 5 -> 2.5 -> 3 (away from zero); [-1, -2, -3, -5]: -11 -> -5 (truncated
# toward zero) -> -2.5 rounds to -3. SUM into scale 2 (multiplier 2^30, shift 0): 11 -> 5.5 -> 6.
mn_t = [T([1, 2, 2, 1], scale=1.0, name="in"), T([2], INT32, data=i32([1, 2]), name="axes"),
        T([1, 1, 1, 1], scale=1.0, name="out")]
case("mean_keep_dims", model(mn_t, [OP(40, [0, 1], [2], 27, [("u8", 1)])], [0], [2]), i8([1, 2, 3, 5]), i8([3]))
case("mean_half", model(mn_t, [OP(40, [0, 1], [2], 27, [("u8", 1)])], [0], [2]), i8([1, 2, 3, 4]), i8([3]))
case("mean_negative", model(mn_t, [OP(40, [0, 1], [2], 27, [("u8", 1)])], [0], [2]), i8([-1, -2, -3, -5]), i8([-3]))
sm2 = [mn_t[0], mn_t[1], T([1, 1, 1, 1], scale=2.0, name="out")]
case("sum_keep_dims", model(sm2, [OP(74, [0, 1], [2], 27, [("u8", 1)])], [0], [2]), i8([1, 2, 3, 5]), i8([6]))
# n = 3, axis -1, no keep_dims: [6, 7, 9] = 22, multiplier 2^31 / 3 = 715827882 (rounded down),
# shift 0: SRDHM(22, 715827882) = 7.83 -> 7 (the mean 7.33)
m3 = [T([1, 3], scale=1.0, name="in"), T([1], INT32, data=i32([-1]), name="axes"), T([1], scale=1.0, name="out")]
case("mean_three", model(m3, [OP(40, [0, 1], [2], 27, [("u8", 0)])], [0], [2]), i8([6, 7, 9]), i8([7]))
# uint8, zero point 128: [130, 126, 128, 140] = 2, -2, 0, 12: mean 3 -> 131
mu8 = [T([1, 4], UINT8, scale=1.0, zp=128, name="in"), T([1], INT32, data=i32([1]), name="axes"),
       T([1, 1], UINT8, scale=1.0, zp=128, name="out")]
case("mean_uint8", model(mu8, [OP(40, [0, 1], [2], 27, [("u8", 1)])], [0], [2]), bytes([130, 126, 128, 140]),
     bytes([131]))
# axes a graph input, and an output shape that is not the reduced one
mnx = [mn_t[0], T([2], INT32, name="axes"), mn_t[2]]
case("mean_axes_not_const", model(mnx, [OP(40, [0, 1], [2], 27, [("u8", 1)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="weights or bias not constant")
case("mean_bad_shape", model(mn_t, [OP(40, [0, 1], [2], 27, [("u8", 0)])], [0], [2]), check_st="ACCEL_E_TFLITE_SHAPE")

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

# A filter with one scale: FULLY_CONNECTED takes input scale * filter scale as a float32 product
# (GetQuantizedConvolutionMultipler, TFLM's and TFLite's), an int8 CONV_2D the exact product in
# double (TFLM's per-channel path). Scales 0.43438184, 0.018282602, 0.3247602 (float32): the
# exact product / output: multiplier 1680454293 * 2^-5; the product rounded to float32 first:
# 1680454201 * 2^-5. An accumulator of -62 * 61 = -3782 then gives -93 against -92.
FS = (0.4343818426132202, 0.018282601609826088, 0.32476019859313965)
fcf = [T([1, 1], scale=FS[0], name="in"), T([1, 1], data=i8([61]), scale=FS[1], name="w"),
       T([1, 1], scale=FS[2], name="out")]
case("fc_float_product", model(fcf, [OP(FC, [0, 1, -1], [2], 8, [("u8", 0)])], [0], [2]), i8([-62]), i8([-92]))
cvf = [T([1, 1, 1, 1], scale=FS[0], name="in"), T([1, 1, 1, 1], data=i8([61]), scale=FS[1], name="w"),
       T([1, 1, 1, 1], scale=FS[2], name="out")]
case("conv_double_product", model(cvf, [OP(CONV, [0, 1, -1], [2], 1, conv_opt)], [0], [2]), i8([-62]), i8([-93]))
# uint8 (TFLite's uint8 convolution, the float32 product too): input zero point 128 (66 = -62),
# filter 100 (161 = 61), output 200: -92 + 200 = 108
cvu = [T([1, 1, 1, 1], UINT8, scale=FS[0], zp=128, name="in"),
       T([1, 1, 1, 1], UINT8, data=bytes([161]), scale=FS[1], zp=100, name="w"),
       T([1, 1, 1, 1], UINT8, scale=FS[2], zp=200, name="out")]
case("conv_uint8_float_product", model(cvu, [OP(CONV, [0, 1, -1], [2], 1, conv_opt)], [0], [2]), bytes([66]),
     bytes([108]))

# ARG_MAX / ARG_MIN (axis a constant; the first index of the largest / smallest): [[3, 7, 7],
# [-1, -5, -5]] on axis 1 -> max [1, 0], min [0, 1] (int32); on axis 0 of [[3, 1, 7], [4, 1, -5]]
# -> max [1, 0, 0] (int64, the output_type option 4)
am_t = [T([2, 3], scale=1.0, name="in"), T([1], INT32, data=i32([1]), name="axis"), T([2], INT32, name="out")]
case("arg_max", model(am_t, [OP(56, [0, 1], [2], 40, [("u8", 2)])], [0], [2]), i8([3, 7, 7, -1, -5, -5]),
     i32([1, 0]))
case("arg_min", model(am_t, [OP(79, [0, 1], [2], 57, [("u8", 2)])], [0], [2]), i8([3, 7, 7, -1, -5, -5]),
     i32([0, 1]))
am0 = [T([2, 3], UINT8, scale=1.0, name="in"), T([1], INT32, data=i32([0]), name="axis"), T([3], INT64, name="out")]
case("arg_max_axis0_int64", model(am0, [OP(56, [0, 1], [2], 40, [("u8", 4)])], [0], [2]), bytes([3, 1, 7, 4, 1, 5]),
     struct.pack("<3q", 1, 0, 0))
# the output type option disagreeing with the output tensor
case("arg_max_bad_type", model(am_t, [OP(56, [0, 1], [2], 40, [("u8", 4)])], [0], [2]), check_st="ACCEL_E_TFLITE_TYPE")


def f32r(x):
    """x rounded to float32 (TFLite's float arithmetic, one operation at a time)"""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rb_u8(img, ih, iw, oh, ow, align, half):
    """RESIZE_BILINEAR uint8 as TFLite's reference computes it: float32, each operation rounded"""
    hs, ws = f32r(ih / oh), f32r(iw / ow)
    if align and oh > 1:
        hs = f32r((ih - 1) / (oh - 1))
    if align and ow > 1:
        ws = f32r((iw - 1) / (ow - 1))

    def pos(i, sc, size):
        v = f32r(f32r(f32r(i + 0.5) * sc) - 0.5) if half else f32r(i * sc)
        return v, max(math.floor(v), 0), min(math.ceil(v), size - 1)
    out = []
    for y in range(oh):
        vy, y0, y1 = pos(y, hs, ih)
        fy = f32r(vy - y0)
        for x in range(ow):
            vx, x0, x1 = pos(x, ws, iw)
            fx = f32r(vx - x0)
            a, b, p, q = img[y0 * iw + x0], img[y1 * iw + x0], img[y0 * iw + x1], img[y1 * iw + x1]
            t1 = f32r(f32r(a * f32r(1 - fy)) * f32r(1 - fx))
            t2 = f32r(f32r(b * fy) * f32r(1 - fx))
            t3 = f32r(f32r(p * f32r(1 - fy)) * fx)
            t4 = f32r(f32r(q * fy) * fx)
            out.append(int(f32r(f32r(f32r(f32r(t1 + t2) + t3) + t4) + 0.5)))
    return bytes(out)


# RESIZE_BILINEAR uint8 2x2 -> 3x3 (TFLite's float32 arithmetic, worked above one operation at a
# time): plain, align_corners, half_pixel_centers. By hand, plain: row 0 is 0, 100 * 2/3 + 0.5 =
# 67.2 -> 67, 100; the corners keep their values with align_corners.
RB_IN = [0, 100, 200, 255]
rb_t = [T([1, 2, 2, 1], UINT8, scale=1.0, name="in"), T([2], INT32, data=i32([3, 3]), name="size"),
        T([1, 3, 3, 1], UINT8, scale=1.0, name="out")]
for nm, al, hp in (("resize_bilinear_uint8", 0, 0), ("resize_bilinear_uint8_align", 1, 0),
                   ("resize_bilinear_uint8_half", 0, 1)):
    case(nm, model(rb_t, [OP(23, [0, 1], [2], 15, [("i32", 0), ("i32", 0), ("u8", al), ("u8", hp)])], [0], [2]),
         bytes(RB_IN), rb_u8(RB_IN, 2, 2, 3, 3, al, hp))
assert rb_u8(RB_IN, 2, 2, 3, 3, 0, 0)[:3] == bytes([0, 67, 100])
assert rb_u8(RB_IN, 2, 2, 3, 3, 1, 0)[::4] == bytes([0, 139, 255])  # corners; the centre 555 / 4 + .5 = 139.25


def rb_int(img, ih, iw, oh, ow, align, half):
    """RESIZE_BILINEAR int8 as TFLite's (and TFLM's) integer reference: 10 fractional bits"""
    hs = ((1 << 10) * ih + oh // 2) // oh
    ws = ((1 << 10) * iw + ow // 2) // ow
    if align and oh > 1:
        hs = ((1 << 10) * (ih - 1) + (oh - 1) // 2) // (oh - 1)
    if align and ow > 1:
        ws = ((1 << 10) * (iw - 1) + (ow - 1) // 2) // (ow - 1)

    def tdiv(a, b):  # C's division, toward zero
        return abs(a) // b * (1 if a >= 0 else -1)

    def pos(i, sc, size):
        v = i * sc + sc // 2 - (1 << 9) if half else i * sc
        return v, max(tdiv(v, 1024), 0), min(tdiv(v + 1023, 1024), size - 1)
    out = []
    for y in range(oh):
        vy, y0, y1 = pos(y, hs, ih)
        for x in range(ow):
            vx, x0, x1 = pos(x, ws, iw)
            a, b, p, q = img[y0 * iw + x0], img[y1 * iw + x0], img[y0 * iw + x1], img[y1 * iw + x1]
            wy1, wx1 = vy - 1024 * y0, vx - 1024 * x0
            v = a * (1024 - wy1) * (1024 - wx1) + b * wy1 * (1024 - wx1) + p * (1024 - wy1) * wx1 + q * wy1 * wx1
            out.append(tdiv(v + ((1 << 19) if v > 0 else -(1 << 19)), 1 << 20))
    return out


# int8, the integer kernel: -100, 50 / 20, -128; 3x3 plain, and half_pixel_centers
RB_I8 = [-100, 50, 20, -128]
rb_i = [dict(t) for t in rb_t]
rb_i[0] = T([1, 2, 2, 1], scale=1.0, name="in")
rb_i[2] = T([1, 3, 3, 1], scale=1.0, name="out")
for nm, al, hp in (("resize_bilinear_int8", 0, 0), ("resize_bilinear_int8_half", 0, 1),
                   ("resize_bilinear_int8_align", 1, 0)):
    case(nm, model(rb_i, [OP(23, [0, 1], [2], 15, [("i32", 0), ("i32", 0), ("u8", al), ("u8", hp)])], [0], [2]),
         i8(RB_I8), i8(rb_int(RB_I8, 2, 2, 3, 3, al, hp)))
assert rb_int(RB_I8, 2, 2, 3, 3, 0, 0)[:2] == [-100, 0]  # 683/1024 of the way to 50: -0.0 -> 0
# both corner options at once, and a size input that disagrees with the planned output
case("resize_bilinear_both", model(rb_t, [OP(23, [0, 1], [2], 15, [("i32", 0), ("i32", 0), ("u8", 1), ("u8", 1)])],
                                   [0], [2]), check_st="ACCEL_E_TFLITE_OPTIONS")
rb_bad = [rb_t[0], T([2], INT32, data=i32([3, 4]), name="size"), rb_t[2]]
case("resize_bilinear_bad_size", model(rb_bad, [OP(23, [0, 1], [2], 15, [("i32", 0), ("i32", 0), ("u8", 0), ("u8", 0)])],
                                       [0], [2]), check_st="ACCEL_E_TFLITE_SHAPE")
# PAD / PADV2 (paddings a constant [rank, 2]; the fill is the output's zero point, or PADV2's
# constant of the same quantization): int8 [[5, 6]] zero point -3, before/after [1, 0], [1, 2]
# -> [[-3] * 5, [-3, 5, 6, -3, -3]]; uint8 [[10], [20]] with 7, [0, 1], [2, 0] -> [[7, 7, 10],
# [7, 7, 20], [7, 7, 7]]; int64 paddings [2, 1] on [1, 2, 3] (zero point 0) -> [0, 0, 1, 2, 3, 0]
pd_t = [T([1, 2], scale=1.0, zp=-3, name="in"), T([2, 2], INT32, data=i32([1, 0, 1, 2]), name="pads"),
        T([2, 5], scale=1.0, zp=-3, name="out")]
case("pad_int8", model(pd_t, [OP(34, [0, 1], [2], 22, [])], [0], [2]), i8([5, 6]), i8([-3] * 6 + [5, 6, -3, -3]))
pd2 = [T([2, 1], UINT8, scale=0.5, zp=1, name="in"), T([2, 2], INT32, data=i32([0, 1, 2, 0]), name="pads"),
       T([1], UINT8, data=bytes([7]), scale=0.5, zp=1, name="cv"), T([3, 3], UINT8, scale=0.5, zp=1, name="out")]
case("padv2_uint8", model(pd2, [OP(60, [0, 1, 2], [3], 43, [])], [0], [3]), bytes([10, 20]),
     bytes([7, 7, 10, 7, 7, 20, 7, 7, 7]))
pd3 = [T([3], scale=1.0, name="in"), T([1, 2], INT64, data=struct.pack("<2q", 2, 1), name="pads"),
       T([6], scale=1.0, name="out")]
case("pad_int64_paddings", model(pd3, [OP(34, [0, 1], [2], 22, [])], [0], [2]), i8([1, 2, 3]), i8([0, 0, 1, 2, 3, 0]))
# a negative padding; PADV2's constant quantized unlike the output; the paddings a graph input
pdn = [pd_t[0], T([2, 2], INT32, data=i32([1, 0, -1, 4]), name="pads"), pd_t[2]]
case("pad_negative", model(pdn, [OP(34, [0, 1], [2], 22, [])], [0], [2]), check_st="ACCEL_E_TFLITE_SHAPE")
pdq = [dict(t) for t in pd2]
pdq[2] = T([1], UINT8, data=bytes([7]), scale=1.0, zp=1, name="cv")
case("padv2_constant_quant", model(pdq, [OP(60, [0, 1, 2], [3], 43, [])], [0], [3]), check_st="ACCEL_E_TFLITE_QUANT")
pdi = [pd_t[0], T([2, 2], INT32, name="pads"), pd_t[2]]
case("pad_not_const", model(pdi, [OP(34, [0, 1], [2], 22, [])], [0, 1], [2]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="weights or bias not constant")
# QUANTIZE uint8 -> uint8 (TFLite's Requantize): scale 1 zp 128 -> scale 2 zp 100: [128, 131, 0]
# = 0, 3, -128 -> 0, 1.5 -> 2 (away from zero), -64 -> 100, 102, 36
q5 = [T([3], UINT8, scale=1.0, zp=128, name="in"), T([3], UINT8, scale=2.0, zp=100, name="out")]
case("quantize_u8_u8", model(q5, [OP(QUANT, [0], [1])], [0], [1]), bytes([128, 131, 0]), bytes([100, 102, 36]))

# LOGISTIC int8 (out scale 1/256, zp -128): sigmoid(0) = 1/2 -> 0; very large -> 127; very small -> -128
lg_t = [T([3], scale=0.5, name="in"), T([3], scale=1.0 / 256, zp=-128, name="out")]
case("logistic", model(lg_t, [OP(LOGISTIC, [0], [1])], [0], [1]), i8([0, 127, -128]), i8([0, 127, -128]))

# LOGISTIC uint8 (TFLite's reference: a float32 table, TFLM has none): in scale 0.1 zp 128, out
# 1/256 zp 0. By hand: q 128 is 0 -> 1/2 -> 128; 255 is 12.7 -> 0.999997 * 256 = 255.9992 -> 256,
# clamped to 255; 0 is -12.8 -> 0.0007 -> 0; 138 is 1 -> 0.731059 * 256 = 187.15 -> 187; 118 is -1
# -> 68.85 -> 69. The same five from the formula in float32 (math.exp rounded), as a check.
def lg_u8(qs, si, zi, so, zo):
    out = []
    for q in qs:
        x = f32r(f32r(si) * (q - zi))
        sg = f32r(1.0 / f32r(1.0 + f32r(math.exp(-x))))
        v = f32r(sg * f32r(1.0 / f32r(so)))
        r = math.floor(v + 0.5)  # v >= 0: half away from zero
        out.append(min(255, max(0, r + zo)))
    return bytes(out)


LG_IN = [128, 255, 0, 138, 118]
assert lg_u8(LG_IN, 0.1, 128, 1.0 / 256, 0) == bytes([128, 255, 0, 187, 69])
lgu = [T([5], UINT8, scale=0.1, zp=128, name="in"), T([5], UINT8, scale=1.0 / 256, name="out")]
case("logistic_uint8", model(lgu, [OP(LOGISTIC, [0], [1])], [0], [1]), bytes(LG_IN), bytes([128, 255, 0, 187, 69]))
# TFLite requires the output scale 1/256
lgb = [lgu[0], T([5], UINT8, scale=1.0 / 128, name="out")]
case("logistic_uint8_bad_scale", model(lgb, [OP(LOGISTIC, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_QUANT")

# RELU and RELU6 (builtin codes 19 and 21, no options). RELU int8, the same quantization both
# sides: [-128, -10, -9, 127] zp -10 -> [-10, -10, -9, 127]. Rescaled, in scale 1 zp 0, out 0.5
# zp -128 (the multiplier 2): [-5, 3, 100, 127] -> -128 + [-10, 6, 200, 254], clamped at -128.
RELU, RELU6, RESIZE_NN = 19, 21, 97
rl1 = [T([4], scale=0.5, zp=-10, name="in"), T([4], scale=0.5, zp=-10, name="out")]
case("relu_int8", model(rl1, [OP(RELU, [0], [1])], [0], [1]), i8([-128, -10, -9, 127]), i8([-10, -10, -9, 127]))
rl2 = [T([4], scale=1.0, name="in"), T([4], scale=0.5, zp=-128, name="out")]
case("relu_int8_rescale", model(rl2, [OP(RELU, [0], [1])], [0], [1]), i8([-5, 3, 100, 127]),
     i8([-128, -122, 72, 126]))
# RELU6 int8 is TFLM's: the input clamped to its own zero point and six (round(6 / 0.1) = 60),
# the output's quantization (here another) not applied: [-5, 30, 61, 127] -> [0, 30, 60, 60]
rl3 = [T([4], scale=0.1, name="in"), T([4], scale=0.2, zp=5, name="out")]
case("relu6_int8", model(rl3, [OP(RELU6, [0], [1])], [0], [1]), i8([-5, 30, 61, 127]), i8([0, 30, 60, 60]))
# RELU6 uint8 is TFLite's (TFLM has none): in 0.05 zp 100, out 0.025 zp 0 (the multiplier 2, six
# = round(6 / 0.025) = 240): [90, 100, 150, 255] -> 2 * [-10, 0, 50, 155] clamped to 0..240
rl4 = [T([4], UINT8, scale=0.05, zp=100, name="in"), T([4], UINT8, scale=0.025, name="out")]
case("relu6_uint8", model(rl4, [OP(RELU6, [0], [1])], [0], [1]), bytes([90, 100, 150, 255]), bytes([0, 0, 100, 240]))
# an input without quantization, and a type pair
rl5 = [T([4], name="in"), T([4], scale=0.5, name="out")]
case("relu_no_quant", model(rl5, [OP(RELU, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_QUANT")
rl6 = [T([4], scale=0.5, name="in"), T([4], UINT8, scale=0.5, name="out")]
case("relu6_type_pair", model(rl6, [OP(RELU6, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for RELU6 with uint8 output 0")


# RELU_N1_TO_1 (20; TFLite's: TFLM has none): int8 scale 0.25 both sides, the range round(-1 /
# 0.25) = -4 .. 4: [-10, -3, 2, 9] -> [-4, -3, 2, 4]. uint8 in 0.5 zp 128, out 1/64 zp 128 (the
# multiplier 32, the range 128 -+ 64): [120, 128, 129, 200] -> 128 + 32 * [-8, 0, 1, 72] clamped to
# 64..192 = [64, 128, 160, 192]
RELU_N1 = 20
rn1 = [T([4], scale=0.25, name="in"), T([4], scale=0.25, name="out")]
case("relu_n1_to_1_int8", model(rn1, [OP(RELU_N1, [0], [1])], [0], [1]), i8([-10, -3, 2, 9]), i8([-4, -3, 2, 4]))
rn2 = [T([4], UINT8, scale=0.5, zp=128, name="in"), T([4], UINT8, scale=1.0 / 64, zp=128, name="out")]
case("relu_n1_to_1_uint8", model(rn2, [OP(RELU_N1, [0], [1])], [0], [1]), bytes([120, 128, 129, 200]),
     bytes([64, 128, 160, 192]))
# MAXIMUM (55) and MINIMUM (57), MaximumMinimumOptions (39): the raw values compared, broadcast.
# int8 [[1, -5, 7], [0, 3, -2]] with [2, -1, 5]: max [2, -1, 7, 2, 3, 5], min [1, -5, 5, 0, -1, -2]
MAXI, MINI = 55, 57
mm_t = [T([1, 2, 3], scale=1.0, name="a"), T([3], scale=1.0, name="b"), T([1, 2, 3], scale=1.0, name="out")]
MM_IN = i8([1, -5, 7, 0, 3, -2, 2, -1, 5])
case("maximum_int8_broadcast", model(mm_t, [OP(MAXI, [0, 1], [2], 39, [])], [0, 1], [2]), MM_IN,
     i8([2, -1, 7, 2, 3, 5]))
case("minimum_int8_broadcast", model(mm_t, [OP(MINI, [0, 1], [2], 39, [])], [0, 1], [2]), MM_IN,
     i8([1, -5, 5, 0, -1, -2]))
mmu = [T([2], UINT8, scale=1.0, name="a"), T([2], UINT8, scale=1.0, name="b"), T([2], UINT8, scale=1.0, name="out")]
case("maximum_uint8", model(mmu, [OP(MAXI, [0, 1], [2], 39, [])], [0, 1], [2]), bytes([200, 10, 100, 100]),
     bytes([200, 100]))
mm16 = [T([2], INT16, scale=1.0, name="a"), T([2], INT16, scale=1.0, name="b"), T([2], INT16, scale=1.0, name="out")]
case("minimum_int16", model(mm16, [OP(MINI, [0, 1], [2], 39, [])], [0, 1], [2]), i16([-300, 400, 5, 5]),
     i16([-300, 5]))
mm32 = [T([2], INT32, name="a"), T([2], INT32, name="b"), T([2], INT32, name="out")]
case("maximum_int32", model(mm32, [OP(MAXI, [0, 1], [2], 39, [])], [0, 1], [2]), i32([-70000, 5, -69999, 4]),
     i32([-69999, 5]))
mmx = [mm_t[0], T([3], UINT8, scale=1.0, name="b"), mm_t[2]]
case("maximum_type_pair", model(mmx, [OP(MAXI, [0, 1], [2], 39, [])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for MAXIMUM with uint8 input 1")
mmb = [mm_t[0], T([2], scale=1.0, name="b"), mm_t[2]]
case("minimum_bad_broadcast", model(mmb, [OP(MINI, [0, 1], [2], 39, [])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_SHAPE")
# SQUEEZE (43, SqueezeOptions 30) and EXPAND_DIMS (70, ExpandDimsOptions 52): the bytes as they
# are. [1, 3, 1, 2] -> [3, 2]; [2, 3] -> [2, 1, 3] at axis 1 (and -2, and as an int64); a squeeze
# that changes the other dimensions, an axis whose place is not a 1
SQZ, EXPD = 43, 70
sq_t = [T([1, 3, 1, 2], scale=1.0, name="in"), T([3, 2], scale=1.0, name="out")]
case("squeeze", model(sq_t, [OP(SQZ, [0], [1], 30, [])], [0], [1]), i8([1, 2, 3, 4, 5, 6]), i8([1, 2, 3, 4, 5, 6]))
sqb = [sq_t[0], T([6], scale=1.0, name="out")]
case("squeeze_bad_shape", model(sqb, [OP(SQZ, [0], [1], 30, [])], [0], [1]), check_st="ACCEL_E_TFLITE_SHAPE")
for nm, ax in (("expand_dims", i32([1])), ("expand_dims_negative", i32([-2])),
               ("expand_dims_int64", struct.pack("<q", 1))):
    ed = [T([2, 3], scale=1.0, name="in"), T([1], INT64 if len(ax) == 8 else INT32, data=ax, name="axis"),
          T([2, 1, 3], scale=1.0, name="out")]
    case(nm, model(ed, [OP(EXPD, [0, 1], [2], 52, [])], [0], [2]), i8([9, 8, 7, -1, -2, -3]),
         i8([9, 8, 7, -1, -2, -3]))
edb = [T([2, 3], scale=1.0, name="in"), T([1], INT32, data=i32([0]), name="axis"), T([2, 1, 3], scale=1.0, name="out")]
case("expand_dims_bad_axis", model(edb, [OP(EXPD, [0, 1], [2], 52, [])], [0], [2]), check_st="ACCEL_E_TFLITE_SHAPE")

# PACK (83, PackOptions 59: values_count, axis) and UNPACK (88, UnpackOptions 64: num, axis): the
# bytes moved. [1, 2] and [3, 4] packed on axis 0: [[1, 2], [3, 4]]; on axis 1 (and -1): [[1, 3],
# [2, 4]]. Three uint8 [1] on axis 0. An input quantized unlike the output is refused.
PACK, UNPACK, TRANSP = 83, 88, 39
pk_t = [T([2], scale=0.5, name="a"), T([2], scale=0.5, name="b"), T([2, 2], scale=0.5, name="out")]
for nm, ax, want in (("pack_axis0", 0, [1, 2, 3, 4]), ("pack_axis1", 1, [1, 3, 2, 4]), ("pack_axis_negative", -1,
                                                                                      [1, 3, 2, 4])):
    case(nm, model(pk_t, [OP(PACK, [0, 1], [2], 59, [("i32", 2), ("i32", ax)])], [0, 1], [2]), i8([1, 2, 3, 4]),
         i8(want))
pk3 = [T([1], UINT8, scale=1.0, zp=3, name="a"), T([1], UINT8, scale=1.0, zp=3, name="b"),
       T([1], UINT8, scale=1.0, zp=3, name="c"), T([3, 1], UINT8, scale=1.0, zp=3, name="out")]
case("pack_uint8_three", model(pk3, [OP(PACK, [0, 1, 2], [3], 59, [("i32", 3), ("i32", 0)])], [0, 1, 2], [3]),
     bytes([7, 8, 9]), bytes([7, 8, 9]))
pkq = [pk_t[0], T([2], scale=0.25, name="b"), pk_t[2]]
case("pack_quant_differs", model(pkq, [OP(PACK, [0, 1], [2], 59, [("i32", 2), ("i32", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_QUANT")
case("pack_count_differs", model(pk_t, [OP(PACK, [0, 1], [2], 59, [("i32", 3), ("i32", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_ARITY")
# UNPACK [[1, 2, 3], [4, 5, 6]]: on axis 0 two of [3]; on axis 1 three of [2]: [1, 4], [2, 5], [3, 6]
up0 = [T([2, 3], scale=1.0, name="in"), T([3], scale=1.0, name="a"), T([3], scale=1.0, name="b")]
case("unpack_axis0", model(up0, [OP(UNPACK, [0], [1, 2], 64, [("i32", 2), ("i32", 0)])], [0], [1, 2]),
     i8([1, 2, 3, 4, 5, 6]), i8([1, 2, 3, 4, 5, 6]))
up1 = [T([2, 3], scale=1.0, name="in"), T([2], scale=1.0, name="a"), T([2], scale=1.0, name="b"),
       T([2], scale=1.0, name="c")]
case("unpack_axis1", model(up1, [OP(UNPACK, [0], [1, 2, 3], 64, [("i32", 3), ("i32", 1)])], [0], [1, 2, 3]),
     i8([1, 2, 3, 4, 5, 6]), i8([1, 4, 2, 5, 3, 6]))
case("unpack_bad_axis", model(up0, [OP(UNPACK, [0], [1, 2], 64, [("i32", 2), ("i32", 1)])], [0], [1, 2]),
     check_st="ACCEL_E_TFLITE_SHAPE")
# TRANSPOSE (39, TransposeOptions 26; the permutation a constant int32): [2, 3] by [1, 0] ->
# [[1, 4], [2, 5], [3, 6]]; int16 [2, 1, 3] by [2, 0, 1] -> [3, 2, 1], out[c][a][b] = in[a][b][c]:
# the same order; a permutation that repeats an axis
tr_t = [T([2, 3], scale=1.0, name="in"), T([2], INT32, data=i32([1, 0]), name="perm"), T([3, 2], scale=1.0, name="out")]
case("transpose_2d", model(tr_t, [OP(TRANSP, [0, 1], [2], 26, [])], [0], [2]), i8([1, 2, 3, 4, 5, 6]),
     i8([1, 4, 2, 5, 3, 6]))
tr3 = [T([2, 1, 3], INT16, scale=1.0, name="in"), T([3], INT32, data=i32([2, 0, 1]), name="perm"),
       T([3, 2, 1], INT16, scale=1.0, name="out")]
case("transpose_3d_int16", model(tr3, [OP(TRANSP, [0, 1], [2], 26, [])], [0], [2]), i16([1, 2, 3, -4, -5, -6]),
     i16([1, -4, 2, -5, 3, -6]))
trb = [tr_t[0], T([2], INT32, data=i32([1, 1]), name="perm"), tr_t[2]]
case("transpose_bad_perm", model(trb, [OP(TRANSP, [0, 1], [2], 26, [])], [0], [2]), check_st="ACCEL_E_TFLITE_SHAPE")

# SLICE (65, SliceOptions 48; begin and size constant int32 or int64, -1: to the end) and GATHER
# (36, GatherOptions 23: axis, batch_dims). [[1, 2, 3], [4, 5, 6], [7, 8, 9]] from [1, 1] size
# [2, -1]: [[5, 6], [8, 9]]; int64 begin [0, 2] size [3, 1]: [3, 6, 9]
SLICE, GATHER = 65, 36
SL_IN = i8([1, 2, 3, 4, 5, 6, 7, 8, 9])
sl_t = [T([3, 3], scale=1.0, name="in"), T([2], INT32, data=i32([1, 1]), name="begin"),
        T([2], INT32, data=i32([2, -1]), name="size"), T([2, 2], scale=1.0, name="out")]
case("slice", model(sl_t, [OP(SLICE, [0, 1, 2], [3], 48, [])], [0], [3]), SL_IN, i8([5, 6, 8, 9]))
sl64 = [T([3, 3], scale=1.0, name="in"), T([2], INT64, data=struct.pack("<2q", 0, 2), name="begin"),
        T([2], INT64, data=struct.pack("<2q", 3, 1), name="size"), T([3, 1], scale=1.0, name="out")]
case("slice_int64", model(sl64, [OP(SLICE, [0, 1, 2], [3], 48, [])], [0], [3]), SL_IN, i8([3, 6, 9]))
slb = [sl_t[0], T([2], INT32, data=i32([2, 0]), name="begin"), T([2], INT32, data=i32([2, 2]), name="size"),
       sl_t[3]]
case("slice_out_of_bounds", model(slb, [OP(SLICE, [0, 1, 2], [3], 48, [])], [0], [3]), check_st="ACCEL_E_TFLITE_SHAPE")
# GATHER rows [2, 0, 2] of the same 3x3 (axis 0): [7, 8, 9, 1, 2, 3, 7, 8, 9]; columns [[1], [0]]
# (axis -1, indices [2, 1]): [[2], [1]], [[5], [4]], [[8], [7]]; an index of 3 fails the run
ga_t = [T([3, 3], scale=1.0, name="in"), T([3], INT32, name="idx"), T([3, 3], scale=1.0, name="out")]
case("gather_rows", model(ga_t, [OP(GATHER, [0, 1], [2], 23, [("i32", 0), ("i32", 0)])], [0, 1], [2]),
     SL_IN + i32([2, 0, 2]), i8([7, 8, 9, 1, 2, 3, 7, 8, 9]))
ga2 = [T([3, 3], scale=1.0, name="in"), T([2, 1], INT64, data=struct.pack("<2q", 1, 0), name="idx"),
       T([3, 2, 1], scale=1.0, name="out")]
case("gather_columns_int64", model(ga2, [OP(GATHER, [0, 1], [2], 23, [("i32", -1), ("i32", 0)])], [0], [2]), SL_IN,
     i8([2, 1, 5, 4, 8, 7]))
case("gather_index_out_of_range", model(ga_t, [OP(GATHER, [0, 1], [2], 23, [("i32", 0), ("i32", 0)])], [0, 1], [2]),
     SL_IN + i32([0, 3, 1]), invoke_st="ACCEL_E_TFLITE_RANGE")
# batch_dims b: params' and the indices' first b dimensions are batches, each gathering from
# its own params with its own indices; the output is params[:axis] + indices[b:] + params[axis+1:].
# [[1, 2, 3], [4, 5, 6]] with indices [[2, 0], [1, 1]], axis 1, b 1: [3, 1] from the first row,
# [5, 5] from the second. b -1 is the indices' last dimension (here 1, the same); axis 0 with b 1
# (b above the axis), and indices of 3 batches for params of 2, are refused; an index of 3 fails
# the run. With a dimension between the batch and the axis: [2, 2, 3] = 1..12, axis 2, b 1,
# indices [[2], [0]]: batch 0 picks column 2 of [1, 2, 3], [4, 5, 6] -> 3, 6; batch 1 column 0
# of [7, 8, 9], [10, 11, 12] -> 7, 10 (output [2, 2, 1]).
gb_t = [T([2, 3], scale=1.0, name="in"), T([2, 2], INT32, name="idx"), T([2, 2], scale=1.0, name="out")]
GB_IN = i8([1, 2, 3, 4, 5, 6])
case("gather_batch_dims", model(gb_t, [OP(GATHER, [0, 1], [2], 23, [("i32", 1), ("i32", 1)])], [0, 1], [2]),
     GB_IN + i32([2, 0, 1, 1]), i8([3, 1, 5, 5]))
case("gather_batch_dims_negative", model(gb_t, [OP(GATHER, [0, 1], [2], 23, [("i32", -1), ("i32", -1)])], [0, 1], [2]),
     GB_IN + i32([2, 0, 1, 1]), i8([3, 1, 5, 5]))
case("gather_batch_dims_index_out_of_range",
     model(gb_t, [OP(GATHER, [0, 1], [2], 23, [("i32", 1), ("i32", 1)])], [0, 1], [2]),
     GB_IN + i32([2, 0, 3, 1]), invoke_st="ACCEL_E_TFLITE_RANGE")
gb0 = [gb_t[0], gb_t[1], T([2, 2, 3], scale=1.0, name="out")]
case("gather_batch_dims_above_axis", model(gb0, [OP(GATHER, [0, 1], [2], 23, [("i32", 0), ("i32", 1)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_SHAPE")
gbm = [gb_t[0], T([3, 2], INT32, name="idx"), T([2, 2], scale=1.0, name="out")]
case("gather_batch_dims_mismatch", model(gbm, [OP(GATHER, [0, 1], [2], 23, [("i32", 1), ("i32", 1)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_SHAPE")
gbo = [T([2, 2, 3], scale=1.0, name="in"), T([2, 1], INT32, name="idx"), T([2, 2, 1], scale=1.0, name="out")]
case("gather_batch_dims_outer", model(gbo, [OP(GATHER, [0, 1], [2], 23, [("i32", 2), ("i32", 1)])], [0, 1], [2]),
     i8(list(range(1, 13))) + i32([2, 0]), i8([3, 6, 7, 10]))

# RESIZE_NEAREST_NEIGHBOR (ResizeNearestNeighborOptions 74: align_corners, half_pixel_centers):
# TFLite's float32 index arithmetic, worked here one rounding at a time.
def nn_idx(i, isz, osz, align, half):
    sc = f32r((isz - 1) / (osz - 1)) if align and osz > 1 else f32r(isz / osz)
    v = f32r((i + (0.5 if half else 0.0)) * sc)
    r = math.floor(v + 0.5) if align else math.floor(v)
    return max(0, min(r, isz - 1))


def nn_resize(img, ih, iw, ch, oh, ow, align, half):
    return [img[(nn_idx(y, ih, oh, align, half) * iw + nn_idx(x, iw, ow, align, half)) * ch + k]
            for y in range(oh) for x in range(ow) for k in range(ch)]


# uint8 2x2 -> 3x3: plain, scale 2/3, rows and columns [0, 0, 1]; align_corners, scale 1/2,
# round(1/2) = 1 -> [0, 1, 1]; half_pixel_centers, fl(1.5 * fl(2/3)) = 1.0 -> [0, 1, 1]
NN_IN = [1, 2, 3, 4]
assert nn_resize(NN_IN, 2, 2, 1, 3, 3, 0, 0) == [1, 1, 2, 1, 1, 2, 3, 3, 4]
assert nn_resize(NN_IN, 2, 2, 1, 3, 3, 1, 0) == [1, 2, 2, 3, 4, 4, 3, 4, 4]
assert nn_resize(NN_IN, 2, 2, 1, 3, 3, 0, 1) == [1, 2, 2, 3, 4, 4, 3, 4, 4]
nn_t = [T([1, 2, 2, 1], UINT8, scale=1.0, name="in"), T([2], INT32, data=i32([3, 3]), name="size"),
        T([1, 3, 3, 1], UINT8, scale=1.0, name="out")]
for nm, al, hp in (("resize_nearest_uint8", 0, 0), ("resize_nearest_uint8_align", 1, 0),
                   ("resize_nearest_uint8_half", 0, 1), ("resize_nearest_uint8_both", 1, 1)):
    case(nm, model(nn_t, [OP(RESIZE_NN, [0, 1], [2], 74, [("u8", al), ("u8", hp)])], [0], [2]), bytes(NN_IN),
         bytes(nn_resize(NN_IN, 2, 2, 1, 3, 3, al, hp)))
# int16, 2 channels, 3x3 -> 2x2 with half_pixel_centers (scale 1.5: 0.75 -> 0, 2.25 -> 2): the
# corner pixels, each its two channels
NN16 = list(range(-9, 9))
assert nn_resize(NN16, 3, 3, 2, 2, 2, 0, 1) == [-9, -8, -5, -4, 3, 4, 7, 8]
nn16 = [T([1, 3, 3, 2], INT16, scale=1.0, name="in"), T([2], INT32, data=i32([2, 2]), name="size"),
        T([1, 2, 2, 2], INT16, scale=1.0, name="out")]
case("resize_nearest_int16_half", model(nn16, [OP(RESIZE_NN, [0, 1], [2], 74, [("u8", 0), ("u8", 1)])], [0], [2]),
     i16(NN16), i16(nn_resize(NN16, 3, 3, 2, 2, 2, 0, 1)))
# int8 upscale 2 -> 5 on one axis (scale 0.4: 0, 0.4, 0.8, 1.2, 1.6 -> [0, 0, 0, 1, 1])
nn8 = [T([1, 1, 2, 1], scale=1.0, name="in"), T([2], INT32, data=i32([1, 5]), name="size"),
       T([1, 1, 5, 1], scale=1.0, name="out")]
case("resize_nearest_int8", model(nn8, [OP(RESIZE_NN, [0, 1], [2], 74, [("u8", 0), ("u8", 0)])], [0], [2]),
     i8([-7, 9]), i8([-7, -7, -7, 9, 9]))
assert nn_resize([-7, 9], 1, 2, 1, 1, 5, 0, 0) == [-7, -7, -7, 9, 9]
# a size that disagrees with the planned output, and a size computed at run time
nnb = [nn_t[0], T([2], INT32, data=i32([3, 4]), name="size"), nn_t[2]]
case("resize_nearest_bad_size", model(nnb, [OP(RESIZE_NN, [0, 1], [2], 74, [("u8", 0), ("u8", 0)])], [0], [2]),
     check_st="ACCEL_E_TFLITE_SHAPE")
nnc = [nn_t[0], T([2], INT32, name="size"), nn_t[2]]
case("resize_nearest_size_not_const", model(nnc, [OP(RESIZE_NN, [0, 1], [2], 74, [("u8", 0), ("u8", 0)])], [0, 1],
                                            [2]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="weights or bias not constant")

# two operators, the middle tensor planned: FC then RELU-free QUANTIZE to uint8 (+128): [131, 125]
two_t = fc_t + [T([1, 2], UINT8, scale=1.0, zp=128, name="u8")]
case("fc_then_quantize", model(two_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(QUANT, [3], [4])], [0], [4]),
     i8([4, 6]), bytes([131, 125]))


# DEQUANTIZE to FLOAT32: real = float32(scale * (q - zero_point)), the product taken in double
# from the float32 scale (TFLM's reference kernel), here with Python's own floats: a double, then
# rounded to binary32 by struct.
def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def dequant(qs, scale, zp):
    return b"".join(struct.pack("<f", f32(scale) * (q - zp)) for q in qs)


# int8, scale 0.1, zero point -3: [-3, 7, 127, -128] -> [0, 1, 13, -12.5] (up to binary32 rounding)
dq_in = [-3, 7, 127, -128]
case("dequantize_i8", model([T([1, 4], scale=0.1, zp=-3, name="in"), T([1, 4], FLOAT32, name="out")],
                            [OP(DEQUANT, [0], [1])], [0], [1]), i8(dq_in), dequant(dq_in, 0.1, -3))
case("dequantize_u8", model([T([3], UINT8, scale=0.5, zp=128, name="in"), T([3], FLOAT32, name="out")],
                            [OP(DEQUANT, [0], [1])], [0], [1]), bytes([0, 128, 255]),
     dequant([0, 128, 255], 0.5, 128))
dq16 = [-32768, -1, 0, 30001]
case("dequantize_i16", model([T([4], INT16, scale=1.0 / 3, name="in"), T([4], FLOAT32, name="out")],
                             [OP(DEQUANT, [0], [1])], [0], [1]), i16(dq16), dequant(dq16, 1.0 / 3, 0))
# a whole model ending in DEQUANTIZE: the FC above ([3, -3], scale 1) then to float: [3.0, -3.0]
case("fc_then_dequantize", model(fc_t + [T([1, 2], FLOAT32, name="real")],
                                 [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(DEQUANT, [3], [4])], [0], [4]),
     i8([4, 6]), struct.pack("<2f", 3.0, -3.0))
# Models an integer-only build (ACCEL_MAC_NO_FLOAT) refuses: the operator, and the reason.
# DEQUANTIZE's output is float; uint8 CONCATENATION's rescale and uint8 RESIZE_BILINEAR are
# TFLite's float32 arithmetic, which integers cannot reproduce.
NO_FLOAT_WHY = "float32 arithmetic (an ACCEL_MAC_NO_FLOAT build)"
FLOAT_OUT = {"dequantize_i8": (0, "no kernel for DEQUANTIZE int8"),
             "dequantize_u8": (0, "no kernel for DEQUANTIZE uint8"),
             "dequantize_i16": (0, "no kernel for DEQUANTIZE int16"),
             "fc_then_dequantize": (1, "no kernel for DEQUANTIZE int8"),
             "concat_uint8_rescale": (0, NO_FLOAT_WHY),
             "resize_bilinear_uint8": (0, NO_FLOAT_WHY),
             "resize_bilinear_uint8_align": (0, NO_FLOAT_WHY),
             "resize_bilinear_uint8_half": (0, NO_FLOAT_WHY),
             "logistic_uint8": (0, NO_FLOAT_WHY),
             "tanh_uint8": (0, NO_FLOAT_WHY),
             "tanh_uint8_out_quant": (0, NO_FLOAT_WHY),
             "detection_postprocess": (0, NO_FLOAT_WHY),
             "detection_postprocess_threshold": (0, NO_FLOAT_WHY),
             "detection_postprocess_iou": (0, NO_FLOAT_WHY),
             "detection_postprocess_defaults": (0, NO_FLOAT_WHY)}
# What the Edge TPU compiler writes: the graph is one CUSTOM operator named edgetpu-custom-op
# between the same inputs and outputs as the CPU model it came from (fc above); its options are
# a FlexBuffers map whose key "4" holds the compiled DarwiNN package, here the synthetic one of
# gen_edgetpu_synth.py. And a model with some other custom operator. Neither runs here.
def flex_map_blob(key, blob):
    """A FlexBuffers root map of one key -> blob, every width 4 bytes (FlexBuffers offsets point
    backwards: a field holds its own position minus its target's)."""
    b = bytearray(key.encode() + b"\0")
    while len(b) % 4:
        b.append(0)
    b += struct.pack("<I", 1)  # the keys vector: its length, then an offset per key
    keys = len(b)
    b += struct.pack("<I", keys - 0)
    b += struct.pack("<I", len(blob))  # the blob: its length, then its bytes
    at = len(b)
    b += blob
    while len(b) % 4:
        b.append(0)
    b += struct.pack("<III", len(b) - keys, 4, 1)  # the map: keys vector, its width, its length
    mp = len(b)
    b += struct.pack("<I", mp - at) + bytes([(25 << 2) | 2])  # the value, its type (BLOB, 32-bit)
    return bytes(b + struct.pack("<I", len(b) - mp) + bytes([(9 << 2) | 2, 4]))  # root: MAP, 32-bit


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_edgetpu_synth  # noqa: E402 (the synthetic package, from its one generator)

cu_t = [T([1, 2], scale=0.5, name="in"), T([1, 2], scale=1.0, name="out")]
case("edgetpu_compiled_fc", model(cu_t, [OP(CUSTOM, [0], [1],
                                            custom_options=flex_map_blob("4", gen_edgetpu_synth.main_package()[0]))],
                                  [0], [1], custom_code="edgetpu-custom-op"), check_st="ACCEL_E_TFLITE_CUSTOM",
     reason="custom operator edgetpu-custom-op")
case("custom_other", model(cu_t, [OP(CUSTOM, [0], [1])], [0], [1], custom_code="my-custom-op"),
     check_st="ACCEL_E_TFLITE_CUSTOM", reason="custom operator my-custom-op")



def flex_map(items):
    """A FlexBuffers root map of scalars, every width 4 bytes: items (key, kind, value) with kind
    "int", "float" (float32) or "bool"; the keys sorted by their bytes, as FlexBuffers requires."""
    items = sorted(items, key=lambda it: it[0].encode())
    b = bytearray()
    kpos = []
    for k, _, _ in items:
        kpos.append(len(b))
        b += k.encode() + b"\0"
    while len(b) % 4:
        b.append(0)
    b += struct.pack("<I", len(items))  # the keys vector: its length, then an offset per key
    keys = len(b)
    for i, at in enumerate(kpos):
        b += struct.pack("<I", keys + 4 * i - at)
    b += struct.pack("<III", len(b) - keys, 4, len(items))  # keys vector, its width, the count
    vals = len(b)
    types = {"int": (1 << 2) | 2, "float": (3 << 2) | 2, "bool": (26 << 2) | 2}
    for _, kind, v in items:
        b += struct.pack("<f", v) if kind == "float" else struct.pack("<i", int(v))
    b += bytes(types[kind] for _, kind, _ in items)
    while len(b) % 4:
        b.append(0)
    return bytes(b + struct.pack("<I", len(b) - vals) + bytes([(9 << 2) | 2, 4]))  # root: MAP, 32-bit


# TFLite_Detection_PostProcess (TensorFlow Lite's SSD decoding and fast NMS; a custom operator
# the runner has built in): 3 anchors, 2 classes after a background column. Anchors (scale 1/128):
# A0 centre (0.5, 0.5) size 0.25; A1 centre (0.53125, 0.5), the same size; A2 centre (0.125,
# 0.125) size 0.125. Encodings (scale 1/16, zero point 128): A0 and A1 zero, so their boxes are
# the anchors' (half size 0.25 / 2): A0 [0.375, 0.375, 0.625, 0.625], A1 [0.40625, 0.375, 0.65625,
# 0.625]; A2's y is 1.0 and h 0.5: centre 0.125 + 1.0 / 10 * 0.125, half height exp(0.5 / 5) /
# 2 * 0.125. Scores (1/256): A0 [bg 0, 200, 10], A1 [0, 50, 230], A2 [255, 100, 100]: the order
# A1 (class 1, 230/256), A0 (200/256, its IoU with A1 0.0546875 / 0.0703125 = 0.78 > 0.5:
# suppressed), A2 (class 0, the first of two equal scores, 100/256 = 0.390625 >= the 0.3
# threshold). So 2 detections of max 3, the third slot zero.
def nms_decode(enc, anc, es, ez, ascale, az, sc):
    e = [f32r(f32r(float(q) - ez) * f32r(es)) for q in enc]
    a = [f32r(f32r(float(q) - az) * f32r(ascale)) for q in anc]
    yc = f32r((e[0] / sc[0]) * a[2] + a[0])
    xc = f32r((e[1] / sc[1]) * a[3] + a[1])
    hh = f32r((0.5 * math.exp(e[2] / sc[2])) * a[2])
    hw = f32r((0.5 * math.exp(e[3] / sc[3])) * a[3])
    return [f32r(yc - hh), f32r(xc - hw), f32r(yc + hh), f32r(xc + hw)]


NMS_ENC = [128, 128, 128, 128, 128, 128, 128, 128, 144, 128, 136, 128]
NMS_ANC = [64, 64, 32, 32, 68, 64, 32, 32, 16, 16, 16, 16]
NMS_CLS = [0, 200, 10, 0, 50, 230, 255, 100, 100]
NMS_SC = [10.0, 10.0, 5.0, 5.0]
nms_boxes = [nms_decode(NMS_ENC[4 * i:4 * i + 4], NMS_ANC[4 * i:4 * i + 4], 1 / 16, 128, 1 / 128, 0, NMS_SC)
             for i in range(3)]
assert nms_boxes[0] == [0.375, 0.375, 0.625, 0.625] and nms_boxes[1] == [0.40625, 0.375, 0.65625, 0.625]


def nms_opts(**kw):
    o = dict(max_detections=("int", 3), max_classes_per_detection=("int", 1), detections_per_class=("int", 3),
             use_regular_nms=("bool", 0), nms_score_threshold=("float", 0.3), nms_iou_threshold=("float", 0.5),
             num_classes=("int", 2), y_scale=("float", 10.0), x_scale=("float", 10.0), h_scale=("float", 5.0),
             w_scale=("float", 5.0))
    o.update(kw)
    return flex_map([(k, v[0], v[1]) for k, v in o.items()])


def nms_model(opts, typ=UINT8):
    t = [T([1, 3, 4], typ, scale=1 / 16, zp=128 if typ == UINT8 else 0, name="boxes"),
         T([1, 3, 3], typ, scale=1 / 256, name="scores"),
         T([3, 4], typ, data=bytes(NMS_ANC), scale=1 / 128, name="anchors"),
         T([], FLOAT32, name="det_boxes"), T([], FLOAT32, name="det_classes"), T([], FLOAT32, name="det_scores"),
         T([], FLOAT32, name="num_det")]
    return model(t, [OP(CUSTOM, [0, 1, 2], [3, 4, 5, 6], custom_options=opts)], [0, 1], [3, 4, 5, 6],
                 custom_code="TFLite_Detection_PostProcess")


def fl(vals):
    return b"".join(struct.pack("<f", v) for v in vals)


NMS_IN = bytes(NMS_ENC + NMS_CLS)
case("detection_postprocess", nms_model(nms_opts()), NMS_IN,
     fl(nms_boxes[1] + nms_boxes[2] + [0.0] * 4) + fl([1.0, 0.0, 0.0]) + fl([230 / 256, 100 / 256, 0.0]) + fl([2.0]))
# a threshold of 0.5: A2 (0.39) is not a candidate, one detection
case("detection_postprocess_threshold", nms_model(nms_opts(nms_score_threshold=("float", 0.5))), NMS_IN,
     fl(nms_boxes[1] + [0.0] * 8) + fl([1.0, 0.0, 0.0]) + fl([230 / 256, 0.0, 0.0]) + fl([1.0]))
# an IoU threshold of 0.8: A0 (0.78) is kept too, all three
case("detection_postprocess_iou", nms_model(nms_opts(nms_iou_threshold=("float", 0.8))), NMS_IN,
     fl(nms_boxes[1] + nms_boxes[0] + nms_boxes[2]) + fl([1.0, 0.0, 0.0]) + fl([230 / 256, 200 / 256, 100 / 256]) +
     fl([3.0]))
NMS_WHY = "regular NMS or several classes per detection"
case("detection_postprocess_regular", nms_model(nms_opts(use_regular_nms=("bool", 1))),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason=NMS_WHY)
case("detection_postprocess_two_classes", nms_model(nms_opts(max_classes_per_detection=("int", 2))),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason=NMS_WHY)
case("detection_postprocess_iou_zero", nms_model(nms_opts(nms_iou_threshold=("float", 0.0))),
     check_st="ACCEL_E_TFLITE_OPTIONS")
case("detection_postprocess_no_detections", nms_model(nms_opts(max_detections=("int", 0))),
     check_st="ACCEL_E_TFLITE_OPTIONS")
# options: an integer written as a float, and max_detections absent (0: no output slot)
case("detection_postprocess_float_count", nms_model(nms_opts(max_detections=("float", 3.0))),
     check_st="ACCEL_E_TFLITE_OPTIONS")
case("detection_postprocess_no_count", nms_model(flex_map([("num_classes", "int", 2),
                                                           ("max_classes_per_detection", "int", 1),
                                                           ("nms_iou_threshold", "float", 0.5)])),
     check_st="ACCEL_E_TFLITE_OPTIONS")
# the defaults of the keys left out: detections_per_class 100, use_regular_nms false, the score
# threshold 0 (every anchor a candidate), the box scales given: all three detections, as above
case("detection_postprocess_defaults", nms_model(flex_map([
    ("max_detections", "int", 3), ("max_classes_per_detection", "int", 1), ("num_classes", "int", 2),
    ("nms_iou_threshold", "float", 0.8), ("y_scale", "float", 10.0), ("x_scale", "float", 10.0),
    ("h_scale", "float", 5.0), ("w_scale", "float", 5.0)])), NMS_IN,
     fl(nms_boxes[1] + nms_boxes[0] + nms_boxes[2]) + fl([1.0, 0.0, 0.0]) + fl([230 / 256, 200 / 256, 100 / 256]) +
     fl([3.0]))
case("detection_postprocess_int8", nms_model(nms_opts(), INT8), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for CUSTOM with int8 input 0")

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
case("unsupported_elu", model([T([2], scale=1.0, name="in"), T([2], scale=1.0, name="out")], [OP(111, [0], [1])],
                              [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for ELU int8")
case("unsupported_second_op", model(two_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(42, [3, 3], [4])], [0], [4]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", bad_op=1, reason="no kernel for DIV int8")
case("unsupported_fc_float", model([T([1, 2], FLOAT32, name="in"), T([2, 2], FLOAT32, data=bytes(16), name="w"),
                                    T([1, 2], FLOAT32, name="out")], [OP(FC, [0, 1, -1], [2], 8, [("u8", 0)])],
                                   [0], [2]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for FULLY_CONNECTED with float32 input 0")
# TF1's quantization, as the Coral zoo's models have it: uint8 tensors, asymmetric uint8 weights
# (zero point 128) and an int32 bias, TFLite's reference arithmetic (the int8 kernels' with the
# filter's zero point). Weights 129, 129 / 129, 127 are [1, 1] / [1, -1]; input zero point 128:
# pixels [130, 125] = (2, -3) and [128, 140] = (0, 12): ch0 -1, 5 -> 127, 133; ch1 12, -12 ->
# 140, 116 (output zero point 128, every scale 1). With RELU the floor is the zero point: 128.
cv_u8 = [T([1, 1, 2, 2], UINT8, scale=1.0, zp=128, name="in"),
         T([2, 1, 1, 2], UINT8, data=bytes([129, 129, 129, 127]), scale=1.0, zp=128, name="w"),
         T([2], INT32, data=i32([0, 0]), scale=1.0, name="b"), T([1, 1, 2, 2], UINT8, scale=1.0, zp=128, name="out")]
case("conv_uint8", model(cv_u8, [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]),
     bytes([130, 125, 128, 140]), bytes([127, 133, 140, 116]))
cv_u8_relu = [("u8", 1), ("i32", 1), ("i32", 1), ("u8", 1), ("i32", 1), ("i32", 1)]
case("conv_uint8_relu", model(cv_u8, [OP(CONV, [0, 1, 2], [3], 1, cv_u8_relu)], [0], [3]),
     bytes([130, 125, 128, 140]), bytes([128, 133, 140, 128]))
# int8 activations with uint8 weights, and uint8 activations with int8 weights: no kernel (the
# filter takes the input's type); uint8 weights with a scale per channel: TFLite's uint8 kernels
# take one for the whole filter
cv_mix = [dict(t) for t in cv_u8]
cv_mix[0] = T([1, 1, 2, 2], scale=1.0, name="in")
cv_mix[3] = T([1, 1, 2, 2], scale=1.0, name="out")
case("unsupported_conv_int8_uint8_weights", model(cv_mix, [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for CONV_2D with uint8 input 1")
cv_mix2 = [dict(t) for t in cv_u8]
cv_mix2[1] = T([2, 1, 1, 2], data=i8([1, 1, 1, -1]), scale=1.0, name="w")
case("unsupported_conv_uint8_int8_weights", model(cv_mix2, [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for CONV_2D with int8 input 1")
cv_u8pc = [dict(t) for t in cv_u8]
cv_u8pc[1] = T([2, 1, 1, 2], UINT8, data=bytes([129, 129, 129, 127]), scales=[1.0, 0.5], zps=[128, 128], name="w")
case("unsupported_conv_uint8_per_channel", model(cv_u8pc, [OP(CONV, [0, 1, 2], [3], 1, conv_opt)], [0], [3]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="per-channel quantization")
# FULLY_CONNECTED uint8: fc's numbers with zero points: input 10 ([14, 16] = 4, 6), weights 100
# ([101, 102, 103, 96] = [1, 2], [3, -4]), output 50: 3 -> 53, -2.5 -> -3 (ties away) -> 47
fc_u8 = [T([1, 2], UINT8, scale=0.5, zp=10, name="in"),
         T([2, 2], UINT8, data=bytes([101, 102, 103, 96]), scale=0.25, zp=100, name="w"),
         T([2], INT32, data=i32([8, -8]), scale=0.125, name="b"), T([1, 2], UINT8, scale=1.0, zp=50, name="out")]
case("fc_uint8", model(fc_u8, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)])], [0], [3]), bytes([14, 16]), bytes([53, 47]))
# DEPTHWISE_CONV_2D uint8: depthwise_dm2's filter + 1 with zero point 1, output zero point 20:
# [10, -1] -> [30, 19]
dw_u8 = [T([1, 2, 2, 1], UINT8, scale=1.0, name="in"),
         T([1, 2, 2, 2], UINT8, data=bytes([2, 2, 2, 0, 2, 1, 2, 1]), scale=1.0, zp=1, name="w"),
         T([2], INT32, data=i32([0, 0]), scale=1.0, name="b"), T([1, 1, 1, 2], UINT8, scale=1.0, zp=20, name="out")]
case("depthwise_uint8", model(dw_u8, [OP(DW, [0, 1, 2], [3], 2, dw_opt)], [0], [3]), bytes([1, 2, 3, 4]),
     bytes([30, 19]))
# SOFTMAX uint8 -> uint8 (scale 1/256, zero point 0): equal inputs 1/2 each = 128; one input
# 25.5 above the other: 1 - 8e-12 -> 256, clamped to 255, and 0
sm_u8 = [T([1, 2], UINT8, scale=0.1, name="in"), T([1, 2], UINT8, scale=1.0 / 256, name="out")]
case("softmax_uint8_equal", model(sm_u8, [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]), bytes([5, 5]),
     bytes([128, 128]))
case("softmax_uint8_one", model(sm_u8, [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]), bytes([255, 0]),
     bytes([255, 0]))
# uint8 output with int8's zero point (-128 cannot be a uint8's): the fixed quantization refused
sm_u8bad = [sm_u8[0], T([1, 2], UINT8, scale=1.0 / 128, name="out")]
case("softmax_uint8_bad_scale", model(sm_u8bad, [OP(SOFTMAX, [0], [1], 9, [("f32", 1.0)])], [0], [1]),
     check_st="ACCEL_E_TFLITE_QUANT")
# ADD / MUL uint8, broadcast: a zero point 10 ([11, 12] = 1, 2), b 20 ([23] = 3), output 5:
# [4, 5] -> [9, 10]; [3, 6] -> [8, 11]
bin_u8 = [T([1, 2], UINT8, scale=1.0, zp=10, name="a"), T([1], UINT8, scale=1.0, zp=20, name="b"),
          T([1, 2], UINT8, scale=1.0, zp=5, name="out")]
case("add_uint8", model(bin_u8, [OP(ADD, [0, 1], [2], 11, [("u8", 0)])], [0, 1], [2]), bytes([11, 12, 23]),
     bytes([9, 10]))
case("mul_uint8", model(bin_u8, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]), bytes([11, 12, 23]),
     bytes([8, 11]))
# the same shapes, no broadcast: a [11, 12] + b [23, 21] (3, 1) -> [4, 3] -> [9, 8]
bin_u8f = [bin_u8[0], T([1, 2], UINT8, scale=1.0, zp=20, name="b"), bin_u8[2]]
case("add_uint8_flat", model(bin_u8f, [OP(ADD, [0, 1], [2], 11, [("u8", 0)])], [0, 1], [2]),
     bytes([11, 12, 23, 21]), bytes([9, 8]))
# MUL's multiplier: TFLM's int8 takes s1 * s2 / s3 in double, TFLite's uint8 in float32 (the
# product and the quotient each rounded to a float). Scales 0.039467987, 0.13516073, 0.20966126:
# double 1748465838 * 2^-5, float 1748465792 * 2^-5; -71 * 13 = -923 gives -24 in int8 and -23
# in uint8 (zero points 100, 100, 128: 29 * 113 -> 128 - 23 = 105)
MS = (0.039467986673116684, 0.13516072928905487, 0.20966126024723053)
mf8 = [T([1], scale=MS[0], name="a"), T([1], scale=MS[1], name="b"), T([1], scale=MS[2], name="out")]
case("mul_int8_double_scale", model(mf8, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]), i8([-71, 13]),
     i8([-24]))
mfu = [T([1], UINT8, scale=MS[0], zp=100, name="a"), T([1], UINT8, scale=MS[1], zp=100, name="b"),
       T([1], UINT8, scale=MS[2], zp=128, name="out")]
case("mul_uint8_float_scale", model(mfu, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]), bytes([29, 113]),
     bytes([105]))
# uint8 MUL whose multiplier is 2^31 or more: a, b scale 1/16, out 2^-71, so s1 * s2 / s3 = 2^63
# and QuantizeMultiplier gives 2^30 with shift 64. TFLite's reference shifts the product left
# by 64 (undefined in C++); x86-64 and AArch64 take the count mod 32, so a shift of 0: the
# product halved, rounded. [2, 7, 0, 100] * [3, 1, 9, 3] = [6, 7, 0, 300] -> [3, 4, 0, 150] (not
# the 255 the real multiplier would give: the model's own arithmetic, as TFLite runs it). And
# the same with the int8 (TFLM) kernel, which refuses the multiplier.
mwu = [T([4], UINT8, scale=1.0 / 16, name="a"), T([4], UINT8, scale=1.0 / 16, name="b"),
       T([4], UINT8, scale=2.0 ** -71, name="out")]
case("mul_uint8_wide_shift", model(mwu, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]),
     bytes([2, 7, 0, 100, 3, 1, 9, 3]), bytes([3, 4, 0, 150]))
mw8 = [T([4], scale=1.0 / 16, name="a"), T([4], scale=1.0 / 16, name="b"), T([4], scale=2.0 ** -71, name="out")]
case("mul_int8_wide_shift", model(mw8, [OP(MUL, [0, 1], [2], 21, [("u8", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_QUANT")
# int8 a with uint8 b: no kernel
bin_mix = [T([1, 2], scale=1.0, name="a"), bin_u8[1], T([1, 2], scale=1.0, name="out")]
case("unsupported_add_int8_uint8", model(bin_mix, [OP(ADD, [0, 1], [2], 11, [("u8", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for ADD with uint8 input 1")
# a builtin with no kernel, named by the schema (never "builtin 107"), and one above 127 (in
# builtin_code only, the old byte 127); a fused TANH on FULLY_CONNECTED
gn_t = [T([2, 2], scale=1.0, name="params"), T([1, 1], INT32, data=i32([1]), name="indices"),
        T([1, 2], scale=1.0, name="out")]
case("unsupported_gather_nd", model(gn_t, [OP(107, [0, 1], [2])], [0], [2]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for GATHER_ND int8")
case("unsupported_broadcast_to", model(gn_t, [OP(130, [0, 1], [2])], [0], [2], opcodes=[(127, 130)]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for BROADCAST_TO int8")
case("unsupported_fc_tanh", model(fc_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 4)])], [0], [3]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="fused activation")
# every refused operator is listed, not only the first: FULLY_CONNECTED runs, then ELU and
# GATHER_ND have no kernel (accel_tflite_check_op on each; test_refusals)
ls_t = fc_t + [T([1, 2], scale=1.0, name="elu"), T([1, 1], INT32, data=i32([1]), name="indices"),
               T([1], scale=1.0, name="out")]
case("unsupported_two_of_three", model(ls_t, [OP(FC, [0, 1, 2], [3], 8, [("u8", 0)]), OP(111, [3], [4]),
                                              OP(107, [4, 5], [6])], [0], [6]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", bad_op=1, reason="no kernel for ELU int8")

# SVDF reads its weights and bias in place, so they must be constants: the same model with its
# feature weights made a graph input is refused. The constant one, its control, runs (int8 in,
# int16 state, TFLM's integer SVDF, rank 1, first invocation so the old state is all 0):
#   in [8, 4, 2, 2] (scale 0.5) . wf rows [1, 0, -1, 2], [0, 1, 1, -2] = 10, 2; times
#   0.5 * 0.25 / 0.5 (state scale) = 0.25, double rounding: 10 -> SRDHM 5 -> 3; 2 -> 1 -> 1:
#   the newest state entries 3 and 1; wt rows [1, 2, 3] and [4, 5, 6] weigh them by 3 and 6:
#   9 and 6, plus bias [2, -1]: 11 and 5; times 0.5 * 0.125 / 0.25 (out) = 0.25: 11 -> SRDHM 6
#   -> 3; 5 -> SRDHM 3 -> 2 (double rounding: 1.25 becomes 2).
SVDF = 27
sv_t = [T([1, 4], scale=0.5, name="in"), T([2, 4], data=i8([1, 0, -1, 2, 0, 1, 1, -2]), scale=0.25, name="wf"),
        T([2, 3], INT16, data=i16([1, 2, 3, 4, 5, 6]), scale=0.125, name="wt"),
        T([2], INT32, data=i32([2, -1]), scale=0.0625, name="b"),
        T([1, 6], INT16, scale=0.5, var=True, name="state"), T([1, 2], scale=0.25, name="out")]
sv_op = [OP(SVDF, [0, 1, 2, 3, 4], [5], 6, [("i32", 1), ("u8", 0)])]
case("svdf_constant_weights", model(sv_t, sv_op, [0], [5]), i8([8, 4, 2, 2]), i8([3, 2]))
sv_in = [dict(t) for t in sv_t]
sv_in[1] = T([2, 4], scale=0.25, name="wf")
case("unsupported_svdf_weights_input", model(sv_in, sv_op, [0, 1], [5]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="weights or bias not constant")


DEMO = "fc_then_quantize"  # examples/host/demo_tflite.c runs this one


def array(name, m):
    out = ["static const uint8_t tfl_model_%s[%d] = {" % (name, len(m))]
    for k in range(0, len(m), 16):
        out.append("    " + ", ".join("0x%02x" % x for x in m[k:k + 16]) + ",")
    out.append("};")
    return out


def data_array(kind, name, data):
    if not data:
        return []
    out = ["static const uint8_t tfl_%s_%s[%d] = {" % (kind, name, len(data))]
    for k in range(0, len(data), 16):
        out.append("    " + ", ".join("0x%02x" % x for x in data[k:k + 16]) + ",")
    out.append("};")
    return out


def data_ref(kind, name, data):
    return "tfl_%s_%s" % (kind, name) if data else "NULL"


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
           "    const uint8_t *in, *out;",
           "    size_t in_len, out_len;",
           "    accel_status invoke_st; /* not ACCEL_OK: invoke fails at bad_op (no output) */",
           "    const char *reason;     /* accel_tflite_check_op's reason for bad_op (\"\": not checked) */",
           "} tfl_case;", ""]
    for name, m, *_ in CASES:
        if name == DEMO:  # the demo's copy is the one copy (examples must not include tests/)
            out.append('#include "../../../examples/host/tflite_demo_model.h"')
            continue
        out.extend(array(name, m))
    for name, m, o, c, bad, inp, res, inv, why in CASES:  # inputs and outputs as arrays (no long strings)
        out.extend(data_array("in", name, inp) + data_array("out", name, res))
    out.append("static const tfl_case tfl_cases[] = {")
    row = "    {\"%s\", tfl_model_%s, sizeof tfl_model_%s, %s, %s, %d, %s, %s, %d, %d, %s, \"%s\"},"
    for name, m, o, c, bad, inp, res, inv, why in CASES:
        if name in FLOAT_OUT:  # float arithmetic is left out of an integer-only build: refused there
            out.append("#ifndef ACCEL_MAC_NO_FLOAT")
        out.append(row % (name, name, name, o, c, bad, data_ref("in", name, inp), data_ref("out", name, res),
                          len(inp), len(res), inv, why))
        if name in FLOAT_OUT:
            out.append("#else")
            out.append(row % (name, name, name, o, "ACCEL_E_TFLITE_UNSUPPORTED", FLOAT_OUT[name][0], "NULL", "NULL",
                              0, 0, "ACCEL_OK", FLOAT_OUT[name][1]))
            out.append("#endif")
    out.append("};")
    print("\n".join(out))


# ---- the Arduino sketch's model (examples/arduino/TfliteHello): our own "hello world", a sine
# made of straight pieces. FULLY_CONNECTED 1 -> 16 with RELU gives h_i = relu(x - k_i) at the
# knots k_i = i * 2pi/16, then FULLY_CONNECTED 16 -> 1 sums them with the slope changes, so that
# y is sin(x) interpolated linearly between the knots. Scales are powers of two where two of
# them multiply (weights, output), so every float32 product is exact and the multipliers do not
# depend on whether a runtime multiplies scales in float or in double.
SK_X_SCALE = struct.unpack("<f", struct.pack("<f", 2 * math.pi / 256))[0]  # x = (q + 128) * s
SK_H_SCALE = struct.unpack("<f", struct.pack("<f", 2 * math.pi / 255))[0]  # h in [0, 2pi]
SK_KNOTS = [i * 2 * math.pi / 16 for i in range(16)]
SK_INPUTS = [-128, -112, -96, -80, -64, -48, -32, -16, 0, 16, 32, 48, 64, 80, 96, 112, 127]


def sk_model():
    slopes = [(math.sin(SK_KNOTS[i + 1] if i < 15 else 2 * math.pi) - math.sin(SK_KNOTS[i])) / (2 * math.pi / 16)
              for i in range(16)]
    c = [slopes[0]] + [slopes[i] - slopes[i - 1] for i in range(1, 16)]
    c_shift = 0
    while max(abs(v) for v in c) * 2 ** (c_shift + 1) <= 127:
        c_shift += 1
    w2 = [int(round(v * 2 ** c_shift)) for v in c]
    b1 = [int(round(-k / (SK_X_SCALE / 64))) for k in SK_KNOTS]  # bias scale = s_x * s_w1, s_w1 = 1/64
    t = [T([1, 1], scale=SK_X_SCALE, zp=-128, name="x"),
         T([16, 1], data=i8([64] * 16), scale=1.0 / 64, name="w1"),
         T([16], INT32, data=i32(b1), scale=SK_X_SCALE / 64, name="b1"),
         T([1, 16], scale=SK_H_SCALE, zp=-128, name="h"),
         T([1, 16], data=i8(w2), scale=2.0 ** -c_shift, name="w2"),
         T([1], INT32, data=i32([0]), scale=SK_H_SCALE * 2.0 ** -c_shift, name="b2"),
         T([1, 1], scale=1.0 / 128, name="y")]
    ops = [OP(FC, [0, 1, 2], [3], 8, [("u8", 1)]), OP(FC, [3, 4, 5], [6], 8, [("u8", 0)])]
    return model(t, ops, [0], [6]), t


# TensorFlow Lite's integer arithmetic, written out here from its definitions (not from accel):
# QuantizeMultiplier (frexp, round half away from zero), SaturatingRoundingDoublingHighMul,
# RoundingDivideByPOT, and the int8 FULLY_CONNECTED of its reference kernels.
def tfl_quantize_multiplier(m):
    if m == 0:
        return 0, 0
    q, shift = math.frexp(m)
    qf = int(math.floor(abs(q) * 2 ** 31 + 0.5)) * (1 if q >= 0 else -1)
    if qf == 2 ** 31:
        qf //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return qf, shift


def tfl_srdhm(a, b):
    if a == b == -2 ** 31:
        return 2 ** 31 - 1
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    v = ab + nudge
    return (abs(v) >> 31) * (1 if v >= 0 else -1)  # C's division: toward zero


def tfl_rdbpot(x, e):
    mask = (1 << e) - 1
    rem = x & mask
    thr = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> e) + (1 if rem > thr else 0)


def tfl_mbqm(x, qm, shift):
    left, right = max(shift, 0), max(-shift, 0)
    return tfl_rdbpot(tfl_srdhm(x * (1 << left), qm), right)


def tfl_fc_int8(x, x_zp, w, rows, cols, b, mult, zp, relu):
    qm, sh = tfl_quantize_multiplier(mult)
    lo = max(-128, zp) if relu else -128
    out = []
    for r in range(rows):
        acc = sum((x[k] - x_zp) * w[r * cols + k] for k in range(cols)) + b[r]
        out.append(min(127, max(lo, tfl_mbqm(acc, qm, sh) + zp)))
    return out


# SVDF with an int8 state whose zero point is not 0, memory 5 (a word of four and one more),
# batch 2, rank 2 (4 filters sum in pairs into 2 units), zero points on every tensor that has
# one. Worked out below from TFLM's integer SVDF (the scales' products and quotients in float32,
# as TFLM forms them; first invocation, so the older memory holds the state's zero point and
# only the newest column counts).
def svdf_int8_first(x, x_zp, wf, wt, bias, n_in, filters, memory, rank, s_in, s_wf, s_wt, s_st, st_zp,
                    s_out, out_zp):
    f = f32r
    m1, sh1 = tfl_quantize_multiplier(f(f(f(s_in) * f(s_wf)) / f(s_st)))
    m2, sh2 = tfl_quantize_multiplier(f(f(f(s_st) * f(s_wt)) / f(s_out)))
    batch, units, out = len(x) // n_in, filters // rank, []
    for b in range(batch):
        sums = []
        for q in range(filters):
            dot = sum(wf[q * n_in + k] * (x[b * n_in + k] - x_zp) for k in range(n_in))
            newest = st_zp + min(max(tfl_mbqm(dot, m1, sh1), -128), 127)
            mem = [st_zp] * (memory - 1) + [newest]
            sums.append(sum(wt[q * memory + k] * (mem[k] - st_zp) for k in range(memory)))
        for u in range(units):
            acc = bias[u] + sum(sums[u * rank + r] for r in range(rank))
            out.append(min(max(tfl_mbqm(acc, m2, sh2) + out_zp, -128), 127))
    return out


sv8_x = [9, -4, 17, 3, -20, 8, 30, 1, -7, -12, 5, 22]
sv8_wf = [3, -1, 2, 0, 5, -4, 1, 1, -2, 6, -3, 2, -5, 4, 0, 1, 2, -1, 2, 2, 2, -6, 1, 3]
sv8_wt = [1, -2, 3, 4, 7, 2, 0, -1, 5, -3, -4, 3, 2, 1, 6, 5, 5, -5, 0, 9]
sv8_b = [40, -25]
sv8_t = [T([2, 6], scale=0.5, zp=3, name="in"), T([4, 6], data=i8(sv8_wf), scale=0.25, name="wf"),
         T([4, 5], data=i8(sv8_wt), scale=0.125, name="wt"),
         T([2], INT32, data=i32(sv8_b), scale=0.0625, name="b"),
         T([2, 20], scale=0.75, zp=-7, var=True, name="state"), T([2, 2], scale=0.375, zp=4, name="out")]
case("svdf_int8_state_zp", model(sv8_t, [OP(SVDF, [0, 1, 2, 3, 4], [5], 6, [("i32", 2), ("u8", 0)])], [0], [5]),
     i8(sv8_x), i8(svdf_int8_first(sv8_x, 3, sv8_wf, sv8_wt, sv8_b, 6, 4, 5, 2, 0.5, 0.25, 0.125, 0.75, -7,
                                   0.375, 4)))


# SUB (41, SubOptions 28: the fused activation), int8 (TFLM's; TFLM's multipliers are float32
# quotients, where ADD's are double): scales 0.5 everywhere, so the result is a - b: [10, -100,
# 127] - [3, 50, -128] = [7, -150, 255] -> [7, -128, 127]; broadcast b [5] with RELU: [5, -105,
# 122] -> [5, 0, 122]
SUB = 41
sb_t = [T([3], scale=0.5, name="a"), T([3], scale=0.5, name="b"), T([3], scale=0.5, name="out")]
case("sub_int8", model(sb_t, [OP(SUB, [0, 1], [2], 28, [("u8", 0)])], [0, 1], [2]), i8([10, -100, 127, 3, 50, -128]),
     i8([7, -128, 127]))
sb_b = [sb_t[0], T([1], scale=0.5, name="b"), sb_t[2]]
case("sub_int8_broadcast_relu", model(sb_b, [OP(SUB, [0, 1], [2], 28, [("u8", 1)])], [0, 1], [2]),
     i8([10, -100, 127, 5]), i8([5, 0, 122]))


def tfl_sub_int8(a, b, s1, s2, so, in_float=True):
    """TFLM's int8 SUB of one pair (zero points 0): twice the larger scale, each multiplier a
    float32 quotient (in_float=False: a double one, as ADD takes them)"""
    s1, s2, so = f32r(s1), f32r(s2), f32r(so)
    tw = 2 * max(s1, s2)
    r = f32r if in_float else (lambda v: v)
    q1, e1 = tfl_quantize_multiplier(r(s1 / tw))
    q2, e2 = tfl_quantize_multiplier(r(s2 / tw))
    q3, e3 = tfl_quantize_multiplier(r(tw / f32r((1 << 20) * so)))
    v = tfl_mbqm(tfl_mbqm(a << 20, q1, e1) - tfl_mbqm(b << 20, q2, e2), q3, e3)
    return max(-128, min(127, v))


# scales where the float quotients change the result: 34 - 112 at 0.14216, 0.071616 -> 0.120285 is
# -26 with TFLM's float multipliers and would be -27 with double ones
SS = (0.14215999841690063, 0.0716160386800766, 0.12028515338897705)
assert tfl_sub_int8(34, 112, *SS) == -26 and tfl_sub_int8(34, 112, *SS, in_float=False) == -27
sb_f = [T([1], scale=SS[0], name="a"), T([1], scale=SS[1], name="b"), T([1], scale=SS[2], name="out")]
case("sub_int8_float_scales", model(sb_f, [OP(SUB, [0, 1], [2], 28, [("u8", 0)])], [0, 1], [2]), i8([34, 112]),
     i8([-26]))
sb_u = [T([1], UINT8, scale=0.5, name="a"), T([1], UINT8, scale=0.5, name="b"), T([1], UINT8, scale=0.5, name="out")]
case("sub_uint8", model(sb_u, [OP(SUB, [0, 1], [2], 28, [("u8", 0)])], [0, 1], [2]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="no kernel for SUB with uint8 input 0")

# LEAKY_RELU (98, LeakyReluOptions 75: alpha), TFLM's int8 and TFLite's uint8 (the same): q - zp
# times in/out scale when >= 0, else times in scale * alpha / out scale (float32 quotients).
# int8 0.5 -> 0.5, alpha 0.25: [-8, -3, -2, 0, 5, 127] -> [-2, -1 (-0.75), -1 (-0.5 away from
# zero), 0, 5, 127]; uint8 in 1.0 zp 100, out 0.5 zp 50, alpha 0.5 (multipliers 2 and 1): [0, 99,
# 100, 180] -> [-50 -> 0, 49, 50, 210]; a negative alpha is refused
LEAKY = 98
lk_t = [T([6], scale=0.5, name="in"), T([6], scale=0.5, name="out")]
LK_IN = [-8, -3, -2, 0, 5, 127]
_qa = tfl_quantize_multiplier(0.25)
assert [tfl_mbqm(x, *_qa) if x < 0 else x for x in LK_IN] == [-2, -1, -1, 0, 5, 127]
case("leaky_relu_int8", model(lk_t, [OP(LEAKY, [0], [1], 75, [("f32", 0.25)])], [0], [1]), i8(LK_IN),
     i8([-2, -1, -1, 0, 5, 127]))
lku = [T([4], UINT8, scale=1.0, zp=100, name="in"), T([4], UINT8, scale=0.5, zp=50, name="out")]
case("leaky_relu_uint8", model(lku, [OP(LEAKY, [0], [1], 75, [("f32", 0.5)])], [0], [1]), bytes([0, 99, 100, 180]),
     bytes([0, 49, 50, 210]))
case("leaky_relu_negative_alpha", model(lk_t, [OP(LEAKY, [0], [1], 75, [("f32", -0.5)])], [0], [1]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="a variant of LEAKY_RELU with no kernel")
# SPLIT_V (102, SplitVOptions 79: num_splits; sizes a constant int32 vector, one -1 for the rest;
# the axis a constant int32): [[0..4], [5..9]] on axis 1 into 2, the rest (2), 1: [[0, 1], [5, 6]],
# [[2, 3], [7, 8]], [[4], [9]]; axis -1 the same; sizes that do not add up, two -1
SPLITV = 102


def splitv_model(sizes, axis):
    t = [T([2, 5], scale=1.0, name="in"), T([3], INT32, data=i32(sizes), name="sizes"),
         T([1], INT32, data=i32([axis]), name="axis"), T([2, 2], scale=1.0, name="a"), T([2, 2], scale=1.0, name="b"),
         T([2, 1], scale=1.0, name="c")]
    return model(t, [OP(SPLITV, [0, 1, 2], [3, 4, 5], 79, [("i32", 3)])], [0], [3, 4, 5])


case("split_v", splitv_model([2, -1, 1], 1), i8(range(10)), i8([0, 1, 5, 6, 2, 3, 7, 8, 4, 9]))
case("split_v_negative_axis", splitv_model([2, 2, 1], -1), i8(range(10)), i8([0, 1, 5, 6, 2, 3, 7, 8, 4, 9]))
case("split_v_bad_sizes", splitv_model([2, 2, 2], 1), check_st="ACCEL_E_TFLITE_SHAPE")
case("split_v_two_rest", splitv_model([-1, -1, 1], 1), check_st="ACCEL_E_TFLITE_SHAPE")

# TANH (28, no options) and HARD_SWISH (117, no options), from the upstream definitions written
# out here in Python integers (not from accel): TFLM's int8 TANH is gemmlowp's fixed-point tanh
# of the input rescaled to Q4.27; HARD_SWISH is TFLite's reference template (TFLM's int8, TFLite's
# uint8) in int16 fixed point, each int16_t it stores wrapping.
TANH, HARD_SWISH = 28, 117
I32_MIN, I32_MAX = -2 ** 31, 2 ** 31 - 1


def ctrunc(a, b):
    """C's integer division (toward zero)"""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def gl_sat_shl(x, e):
    """SaturatingRoundingMultiplyByPOT<e>, e > 0: x * 2^e saturated to int32"""
    return max(I32_MIN, min(I32_MAX, x << e))


def gl_exp_quarter(a):
    """exp_on_interval_between_negative_one_quarter_and_0_excl, Q0.31: Taylor around -1/8"""
    c, third = 1895147668, 715827883
    x = a + (1 << 28)
    x2 = tfl_srdhm(x, x)
    x3 = tfl_srdhm(x2, x)
    x4 = tfl_srdhm(x2, x2)
    poly = tfl_rdbpot(tfl_srdhm(tfl_rdbpot(x4, 2) + x3, third) + x2, 1)
    return c + tfl_srdhm(c, x + poly)


def gl_exp_neg(a, ib):
    """exp_on_negative_values of a Q(ib).(31-ib) a <= 0, Q0.31: exp of a mod 1/4, then a barrel
    of exp(-2^k) factors for the bits of the rest"""
    fb = 31 - ib
    quarter = 1 << (fb - 2)
    mod = (a & (quarter - 1)) - quarter
    r = gl_exp_quarter(gl_sat_shl(mod, ib))
    rem = mod - a
    for k, m in zip(range(-2, 5), [1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242]):
        if ib > k and rem & (1 << (fb + k)):
            r = tfl_srdhm(r, m)
    return I32_MAX if a == 0 else r  # (its clamp at -32 needs more than 5 integer bits: none here)


def gl_one_minus_over(a):
    """one_minus_x_over_one_plus_x_for_x_in_0_1, Q0.31: Newton-Raphson on (1 + a) / 2, Q2.29"""
    s = a + I32_MAX
    half = ctrunc(s + (1 if s >= 0 else -1), 2)
    x = 1515870810 + tfl_srdhm(half, -1010580540)
    for _ in range(3):
        x = x + gl_sat_shl(tfl_srdhm(x, (1 << 29) - tfl_srdhm(half, x)), 2)
    return gl_sat_shl(x - (1 << 29), 2)


def gl_tanh(a):
    """gemmlowp::tanh of a Q4.27 value, Q0.31: -(neg_tanh of -|a|), exp of twice -|a| (the same
    raw value as Q5.26)"""
    if a == 0:
        return 0
    t = gl_one_minus_over(gl_exp_neg(a if a < 0 else -a, 5))
    return -t if a < 0 else t


def tflm_tanh_int8(qs, zp, scale):
    """TFLM's int8 TANH: Prepare's frexp of scale * 2^27 (the fraction to 31 bits, half away from
    zero) and CalculateInputRadius(4, shift, 31); Eval's saturation, rescale, tanh, / 2^24"""
    fr, shift = math.frexp(f32r(scale) * 2 ** 27)
    mult = int(math.floor(fr * 2 ** 31 + 0.5))
    radius = math.floor(15 * 2 ** 27 / 2 ** shift)
    out = []
    for q in qs:
        x = q - zp
        if x <= -radius:
            out.append(-128)
        elif x >= radius:
            out.append(127)
        else:
            out.append(max(-128, min(127, tfl_rdbpot(gl_tanh(tfl_mbqm(x, mult, shift)), 24))))
    return out


# int8 scale 1/16 (the multiplier 2^30, shift 24, radius 15 * 2^27 / 2^24 = 120): q is q/16 in
# Q4.27 exactly, and the result is 128 tanh(q / 16) rounded: 0 -> 0; 16 -> 128 tanh(1) = 97.48 ->
# 97; -16 -> -97; 8 -> 128 tanh(0.5) = 59.15 -> 59; 119 -> 127.99995 -> 128, clamped to 127; 120
# and 127 are past the radius: 127; -120 and -128: -128
TH_IN = [0, 16, -16, 8, 119, 120, 127, -120, -128]
TH_OUT = [0, 97, -97, 59, 127, 127, 127, -128, -128]
assert tflm_tanh_int8(TH_IN, 0, 1.0 / 16) == TH_OUT
th_t = [T([9], scale=1.0 / 16, name="in"), T([9], scale=1.0 / 128, name="out")]
case("tanh_int8", model(th_t, [OP(TANH, [0], [1])], [0], [1]), i8(TH_IN), i8(TH_OUT))
# scale 0.1 zero point 10 (the multiplier 0.1 * 2^27 = 0.8 * 2^24: 1717986944 (0.8 rounded to
# float32, to 31 bits), shift 24; radius 120 again): x = q - 10, 128 tanh(x / 10): 10 -> 0; 20 ->
# 97.48 -> 97; 0 -> -97; 15 -> 59.15 -> 59; 13 -> 128 tanh(0.3) = 37.39 -> 37; 7 -> -37; 127 (x
# 117, inside the radius): 128 tanh(11.7) -> 128, clamped to 127; -110 (x -120) and -128: -128.
# The output's quantization (here 0.5, zp 3) is not read: TFLM's result is 128 tanh.
TH2_IN = [10, 20, 0, 15, 13, 7, 127, -110, -128]
TH2_OUT = [0, 97, -97, 59, 37, -37, 127, -128, -128]
assert tflm_tanh_int8(TH2_IN, 10, 0.1) == TH2_OUT
assert all(abs(o - 128 * math.tanh(0.1 * (q - 10))) <= 0.5 + 1e-6 or o in (127, -128) for q, o in zip(TH2_IN, TH2_OUT))
th2 = [T([9], scale=0.1, zp=10, name="in"), T([9], scale=0.5, zp=3, name="out")]
case("tanh_int8_zero_point", model(th2, [OP(TANH, [0], [1])], [0], [1]), i8(TH2_IN), i8(TH2_OUT))
# every int8 input at a typical scale (0.0235, zp -5), against the formula: within one step
TH3_IN = list(range(-128, 128))
TH3_OUT = tflm_tanh_int8(TH3_IN, -5, 0.0235)
assert all(abs(o - 128 * math.tanh(f32r(0.0235) * (q + 5))) <= 1.0 for q, o in zip(TH3_IN, TH3_OUT))
th3 = [T([256], scale=0.0235, zp=-5, name="in"), T([256], scale=1.0 / 128, name="out")]
case("tanh_int8_all", model(th3, [OP(TANH, [0], [1])], [0], [1]), i8(TH3_IN), i8(TH3_OUT))


def tanh_u8(qs, si, zi, so, zo):
    """TFLite's uint8 TANH table: tanhf of the dequantized input (math.tanh rounded to float32:
    the correctly rounded value), over the output scale in float32, half away from zero"""
    out = []
    for q in qs:
        x = f32r(f32r(si) * (q - zi))
        v = f32r(f32r(math.tanh(x)) * f32r(1.0 / f32r(so)))
        r = math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)
        out.append(min(255, max(0, r + zo)))
    return bytes(out)


# uint8 (TFLite's reference: a float32 table, TFLM has none), in scale 0.05 zp 128, out 1/128 zp
# 128 (the converter's): 128 -> 0 -> 128; 148 is 1.0 -> 97.48 -> 97 + 128 = 225; 108 -> 31; 138 is
# 0.5 -> 59.15 -> 187; 118 -> 69; 255 is 6.35 -> 127.9996 -> 128 + 128 = 256, clamped to 255; 0 is
# -6.4 -> -128 + 128 = 0
TU_IN = [128, 148, 108, 138, 118, 255, 0]
assert tanh_u8(TU_IN, 0.05, 128, 1.0 / 128, 128) == bytes([128, 225, 31, 187, 69, 255, 0])
tu_t = [T([7], UINT8, scale=0.05, zp=128, name="in"), T([7], UINT8, scale=1.0 / 128, zp=128, name="out")]
case("tanh_uint8", model(tu_t, [OP(TANH, [0], [1])], [0], [1]), bytes(TU_IN), bytes([128, 225, 31, 187, 69, 255, 0]))
# TFLite takes any output quantization: out scale 0.01 zp 100: 148 -> 76.16 -> 176; 108 -> 24;
# 138 -> 46.21 -> 146; 118 -> 54; 255 -> 99.9996 -> 200; 0 -> -100 -> 0; 128 -> 100
assert tanh_u8(TU_IN, 0.05, 128, 0.01, 100) == bytes([100, 176, 24, 146, 54, 200, 0])
tu2 = [tu_t[0], T([7], UINT8, scale=0.01, zp=100, name="out")]
case("tanh_uint8_out_quant", model(tu2, [OP(TANH, [0], [1])], [0], [1]), bytes(TU_IN),
     bytes([100, 176, 24, 146, 54, 200, 0]))
# refused: int8 in and uint8 out; shapes that differ; an int8 input
# without quantization; an int8 input scale of 8 or more (TFLM's radius is then 0, past it its
# shifts are undefined)
case("tanh_type_mismatch", model([th_t[0], T([9], UINT8, scale=1.0 / 128, zp=128, name="out")], [OP(TANH, [0], [1])],
                                 [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for TANH with uint8 output 0")
case("tanh_shape", model([th_t[0], T([8], scale=1.0 / 128, name="out")], [OP(TANH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_SHAPE")
case("tanh_int8_unquantized", model([T([9], name="in"), th_t[1]], [OP(TANH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_QUANT")
case("tanh_int8_big_scale", model([T([9], scale=8.0, name="in"), th_t[1]], [OP(TANH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="input scale out of range")

# int16 (TFLM's): zero points 0, the output scale 2^-15. The input is rescaled to steps of
# 1 / (3 * 4096) (a 2^-12 or 2^-11 scale: times 3 << shift; any other: the multiplier scale * 3 *
# 4096 doubled while at most 32767 / 2, the shift counting the doublings, truncated; rounded
# shift), and TFLM's table of sigmoid(k / 24) in 0.16 (256 entries, tanh(x) = 2 sigmoid(2x) - 1)
# interpolated at |v| / 256 with the remainder as weight. The entries these cases read, from
# TFLM's table (each 65536 sigmoid(k / 24) rounded): 0 32768, 1 33451, 24 47911, 48 57724,
# 60 60565, 120 65097.
TANH16_TABLE = {0: 32768, 1: 33451, 24: 47911, 48: 57724, 60: 60565, 120: 65097}
assert all(TANH16_TABLE[k] == round(65536 / (1 + math.exp(-k / 24))) for k in TANH16_TABLE)


def tflm_tanh_int16(qs, scale):
    s = f32r(scale)
    l2 = round(math.log2(s))
    shift = 12 + l2
    if abs(math.log2(s) - l2) < 1e-3 and shift in (0, 1):
        mult, shift = 3 << shift, 0
    else:
        m, shift = s * 4096.0 * 3.0, 0
        while m <= 32767.0 / 2.0 and shift <= 30:
            shift, m = shift + 1, m * 2.0
        mult = int(m)
    rnd = 1 << (shift - 1) if shift > 0 else 0
    out = []
    for q in qs:
        v = (q * mult + rnd) >> shift
        a = abs(v)
        k, frac = a >> 8, a & 0xFF
        if k >= 255:
            r = 0xFFFF << 8
        else:
            ua = TANH16_TABLE[k]
            ub = TANH16_TABLE[k + 1] if frac else ua  # at a knot the next entry weighs 0
            r = (ua << 8) + frac * (ub - ua)
        r = r - (1 << 23) + (1 << 7) if v >= 0 else -r + (1 << 23) + (1 << 7) - 1
        out.append(r >> 8)
    return out


# scale 2^-12 (3 << 0): v = 3q. q 0 -> v 0: entry 0, (32768 << 8) - 2^23 + 128 >> 8 = 0; q 43 ->
# v 129 = 0 * 256 + 129: (32768 << 8) + 129 * (33451 - 32768) = 8476715, - 2^23 + 128 = 88235, >> 8
# = 344 (32768 tanh(43 / 4096) = 344.0); q -43: -8476715 + 2^23 + 127 = -87980 >> 8 = -344; q 2048
# (v = 24 * 256): 47911 - 32768 = 15143 (32768 tanh(0.5) = 15142.6); q 4096 (entry 48): 24956
# (32768 tanh(1) = 24955.9); q -4096: -24956; q 5120 (entry 60): 27797; q 21760 (v = 255 * 256)
# and 32767: saturated, (0xFFFF << 8) - 2^23 + 128 >> 8 = 32767; q -32768: -32767
T16_IN = [0, 43, -43, 2048, 4096, -4096, 5120, 21760, 32767, -32768]
T16_OUT = [0, 344, -344, 15143, 24956, -24956, 27797, 32767, 32767, -32767]
assert tflm_tanh_int16(T16_IN, 1.0 / 4096) == T16_OUT
t16 = [T([10], INT16, scale=1.0 / 4096, name="in"), T([10], INT16, scale=1.0 / 32768, name="out")]
case("tanh_int16", model(t16, [OP(TANH, [0], [1])], [0], [1]), i16(T16_IN), i16(T16_OUT))
# scale 2^-11 (3 << 1): v = 6q. q 1024 (v = 24 * 256): 15143; q 2048 (entry 48): 24956; q -2048:
# -24956; q 0: 0; q 32767: saturated, 32767
assert tflm_tanh_int16([1024, 2048, -2048, 0, 32767], 1.0 / 2048) == [15143, 24956, -24956, 0, 32767]
case("tanh_int16_pot_shift", model([T([5], INT16, scale=1.0 / 2048, name="in"), T([5], INT16, scale=1.0 / 32768,
                                                                                   name="out")],
                                   [OP(TANH, [0], [1])], [0], [1]), i16([1024, 2048, -2048, 0, 32767]),
     i16([15143, 24956, -24956, 0, 32767]))
# scale 10 / 32768 (5 * 2^-14, not a power of two): the multiplier 3.75, doubled 13 times:
# 30720, shift 13: v = (30720 q + 4096) >> 13. q 4096: 15360 (entry 60): 27797; q 8192: 30720
# (entry 120): 65097 - 32768 = 32329 (32768 tanh(2.5) = 32329.2); q -8192: (-251658240 + 4096)
# >> 13 = -30720: -32329; q 32767: 122876, saturated: 32767; q 0: 0
T16B_IN = [4096, 8192, -8192, 32767, 0]
T16B_OUT = [27797, 32329, -32329, 32767, 0]
assert tflm_tanh_int16(T16B_IN, 10.0 / 32768) == T16B_OUT
t16b = [T([5], INT16, scale=10.0 / 32768, name="in"), T([5], INT16, scale=1.0 / 32768, name="out")]
case("tanh_int16_scale", model(t16b, [OP(TANH, [0], [1])], [0], [1]), i16(T16B_IN), i16(T16B_OUT))
# refused as TFLM refuses: a zero point; an output scale not 2^-15; and here an input scale so
# near 2^(k + 0.001) that TFLite's float log decides whether it is a power of two, and one so
# large that TFLM's product would overflow int32 (the multiplier 4 * 12288 * 2 = 98304 > 65535)
case("tanh_int16_zero_point", model([T([10], INT16, scale=1.0 / 4096, zp=1, name="in"), t16[1]], [OP(TANH, [0], [1])],
                                    [0], [1]), check_st="ACCEL_E_TFLITE_QUANT")
case("tanh_int16_out_scale", model([t16[0], T([10], INT16, scale=1.0 / 16384, name="out")], [OP(TANH, [0], [1])],
                                   [0], [1]), check_st="ACCEL_E_TFLITE_QUANT")
case("tanh_int16_doubtful_scale", model([T([10], INT16, scale=2.0 ** -12 * (1 + 5800 / 2 ** 23), name="in"), t16[1]],
                                        [OP(TANH, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="input scale out of range")
case("tanh_int16_big_scale", model([T([10], INT16, scale=8.0, name="in"), t16[1]], [OP(TANH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_UNSUPPORTED", reason="input scale out of range")


def s16(v):
    """a value stored in an int16_t (wrapping)"""
    v &= 0xFFFF
    return v - 65536 if v >= 32768 else v


def srdhm16(a, b):
    """gemmlowp's int16 SaturatingRoundingDoublingHighMul"""
    if a == b == -32768:
        return 32767
    ab = a * b
    return s16(ctrunc(ab + (16384 if ab >= 0 else 1 - 16384), 32768))


def sdhm16(a, b):
    """TFLite's SaturatingDoublingHighMul: toward zero"""
    if a == b == -32768:
        return 32767
    return s16(ctrunc(a * b, 32768))


def rdbpot16(x, e):
    """gemmlowp's RoundingDivideByPOT on int16_t: the mask (1 << e) - 1 is an int16_t too"""
    mask = s16((1 << e) - 1)
    rem = s16(x & mask)
    thr = s16((mask >> 1) + (1 if x < 0 else 0))
    return s16((x >> e) + (1 if rem > thr else 0))


def sat_lshift16(v, n):
    return max(-32768, min(32767, v * (1 << n)))


def downscale16(m):
    """DownScaleInt32ToInt16Multiplier"""
    return 32767 if m >= I32_MAX - 32768 else (m + 32768) >> 16


def hswish_params(si, so):
    """HardSwishPrepare: the input scale / 128 (float32), over the output scale and over
    3 / 32768, float32 quotients, QuantizeMultiplier, then to 16 bits"""
    hires = f32r(f32r(si) * f32r(1.0 / 128))
    om, oe = tfl_quantize_multiplier(f32r(hires / f32r(so)))
    rm, re = tfl_quantize_multiplier(f32r(hires / f32r(3.0 / 32768)))
    return downscale16(om), oe, downscale16(rm), re


def hard_swish(qs, si, zi, so, zo, lo, hi):
    """reference_ops::HardSwish (quantized), one element at a time"""
    om, oe, rm, re = hswish_params(si, so)
    assert oe <= 0
    out = []
    for q in qs:
        hires = s16(s16(q - s16(zi)) * 128)
        pre = srdhm16(hires, om)
        rl = hires
        if re > 0:
            rl = sat_lshift16(rl, re - 1)
        rl = srdhm16(rl, rm)
        if re > 0:
            rl = sat_lshift16(rl, 1)
        if re < 0:
            rl = rdbpot16(rl, -re)
        rl = s16((rl + (1 << 15)) >> 1)
        v = s16(rdbpot16(sdhm16(rl, pre), -oe) + s16(zo))
        out.append(max(lo, min(hi, v)))
    return out


# int8 in and out scale 1/16, zero points 0: the output multiplier 2^-11 / 2^-4 = 2^-7 (16384 in
# 16 bits, exponent -6), the relu-ish one 2^-11 / (3 * 2^-15) = 16/3 in float32, 5.3333335 ->
# 1431655808 (exponent 3) -> 21845. By hand (x = q, hires = 128 x, pre = 64 x): q 48 (3.0): the
# relu-ish value 6144 << 2 = 24576, * 21845 / 2^15 = 16384.5 -> 16384, << 1 = 32768 -> 32767;
# (32767 + 32768) >> 1 = 32767; 32767 * 3072 / 2^15 = 3071.9 -> 3071 (toward zero); / 2^6 = 47.98
# -> 48 (3 * 6 / 6 = 3). q 16 (1.0): 8192 * 21845 / 2^15 = 5461.8 -> 5461, 10922; (10922 + 32768)
# >> 1 = 21845; 21845 * 1024 / 2^15 = 682.7 -> 682; / 64 = 10.66 -> 11 (1 * 4 / 6 = 0.667 = 10.7
# / 16). q -16: -5461.8 -> -5461, -10922, 10923; 10923 * -1024 / 2^15 = -341.3 -> -341; / 64 =
# -5.33 -> -5. q 127: the relu-ish value saturates, 32767 * 8128 / 2^15 = 8127.75 -> 8127, / 64 =
# 126.98 -> 127. q -48 and -128: relu-ish -32768 -> 0 -> 0. q 0 -> 0.
HS_IN = [0, 48, 16, -16, 127, -48, -128]
HS_OUT = [0, 48, 11, -5, 127, 0, 0]
assert hswish_params(1.0 / 16, 1.0 / 16) == (16384, -6, 21845, 3)
assert hard_swish(HS_IN, 1.0 / 16, 0, 1.0 / 16, 0, -128, 127) == HS_OUT
hs_t = [T([7], scale=1.0 / 16, name="in"), T([7], scale=1.0 / 16, name="out")]
case("hard_swish_int8", model(hs_t, [OP(HARD_SWISH, [0], [1])], [0], [1]), i8(HS_IN), i8(HS_OUT))
# uint8 (TFLite's reference, the same template), zero points 128 both: the same values + 128
HSU_IN = [q + 128 for q in HS_IN]
HSU_OUT = [o + 128 for o in HS_OUT]
assert hard_swish(HSU_IN, 1.0 / 16, 128, 1.0 / 16, 128, 0, 255) == HSU_OUT
hsu = [T([7], UINT8, scale=1.0 / 16, zp=128, name="in"), T([7], UINT8, scale=1.0 / 16, zp=128, name="out")]
case("hard_swish_uint8", model(hsu, [OP(HARD_SWISH, [0], [1])], [0], [1]), bytes(HSU_IN), bytes(HSU_OUT))
# every int8 input at MobileNetV3-like scales: a relu-ish exponent below 0 (in 0.005: 0.4267, -1)
# and one above (in 0.0235: 2.005, 2), against the float formula (within 1.5 steps)
for _nm, _si, _zi, _so, _zo in (("hard_swish_int8_small_scale", 0.005, 3, 0.004, -20),
                                ("hard_swish_int8_all", 0.0235, -5, 0.0127, -100)):
    _out = hard_swish(list(range(-128, 128)), _si, _zi, _so, _zo, -128, 127)
    for _q, _o in zip(range(-128, 128), _out):
        _x = f32r(_si) * (_q - _zi)
        _want = _x * min(6.0, max(0.0, _x + 3.0)) / 6.0 / f32r(_so) + _zo
        assert abs(_o - max(-128, min(127, _want))) <= 1.5, (_nm, _q, _o, _want)
    case(_nm, model([T([256], scale=_si, zp=_zi, name="in"), T([256], scale=_so, zp=_zo, name="out")],
                    [OP(HARD_SWISH, [0], [1])], [0], [1]), i8(range(-128, 128)), i8(_out))
# an output scale 2^10 times the input's (the output exponent -16): the reference's int16
# RoundingDivideByPOT then has an all-ones mask and gives 1 for every value >= 0 and -1 below, so
# every output is 1 or -1 (0 too gives 1): q 0 -> 1, 127 -> 1, -16 -> -1, -128 -> pre 0 -> 1
assert hswish_params(1.0 / 16, 64.0)[1] == -16
assert hard_swish([0, 127, -16, -128], 1.0 / 16, 0, 64.0, 0, -128, 127) == [1, 1, -1, 1]
case("hard_swish_int8_coarse_output", model([T([4], scale=1.0 / 16, name="in"), T([4], scale=64.0, name="out")],
                                            [OP(HARD_SWISH, [0], [1])], [0], [1]), i8([0, 127, -16, -128]),
     i8([1, 1, -1, 1]))
# refused: an output scale at most the input's / 128 (the output exponent above 0: TFLM's Prepare
# fails; here 1/2048 = (1/16) / 128, the multiplier 1.0, exponent 1); int16 (no kernel); int8 in
# and uint8 out; shapes that differ; an input without quantization
case("hard_swish_out_scale", model([hs_t[0], T([7], scale=1.0 / 2048, name="out")], [OP(HARD_SWISH, [0], [1])], [0],
                                   [1]), check_st="ACCEL_E_TFLITE_QUANT")
case("hard_swish_int16", model([T([2], INT16, scale=1.0 / 16, name="in"), T([2], INT16, scale=1.0 / 16, name="out")],
                               [OP(HARD_SWISH, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for HARD_SWISH with int16 input 0")
case("hard_swish_type_mismatch", model([hs_t[0], T([7], UINT8, scale=1.0 / 16, name="out")],
                                       [OP(HARD_SWISH, [0], [1])], [0], [1]), check_st="ACCEL_E_TFLITE_UNSUPPORTED",
     reason="no kernel for HARD_SWISH with uint8 output 0")
case("hard_swish_shape", model([hs_t[0], T([6], scale=1.0 / 16, name="out")], [OP(HARD_SWISH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_SHAPE")
case("hard_swish_unquantized", model([T([7], name="in"), hs_t[1]], [OP(HARD_SWISH, [0], [1])], [0], [1]),
     check_st="ACCEL_E_TFLITE_QUANT")



def tfl_selfcheck():
    """The arithmetic above against values worked out by hand (the FULLY_CONNECTED cases at the
    top of this file, and TFLite's rounding rules): the sketch's expected outputs rest on it."""
    assert tfl_quantize_multiplier(0.125) == (1 << 30, -2) and tfl_quantize_multiplier(1.0) == (1 << 30, 1)
    assert tfl_rdbpot(5, 1) == 3 and tfl_rdbpot(-5, 1) == -3 and tfl_rdbpot(-6, 2) == -2  # ties away from 0
    assert tfl_srdhm(-2 ** 31, -2 ** 31) == 2 ** 31 - 1 and tfl_srdhm(-3, 1 << 30) == -1
    w, b = [1, 2, 3, -4], [8, -8]
    assert tfl_fc_int8([4, 6], 0, w, 2, 2, b, 0.125, 0, False) == [3, -3]   # fc
    assert tfl_fc_int8([4, 6], 0, w, 2, 2, b, 0.125, 0, True) == [3, 0]     # fc_relu
    assert tfl_fc_int8([6, 8], 2, w, 2, 2, b, 0.125, 10, False) == [13, 7]  # fc_zp


def sk_reference(t, q):
    """y (int8) for input q, through both layers as TFLite computes them."""
    w1 = list(struct.unpack("<16b", t[1]["data"]))
    b1 = list(struct.unpack("<16i", t[2]["data"]))
    w2 = list(struct.unpack("<16b", t[4]["data"]))
    b2 = list(struct.unpack("<1i", t[5]["data"]))
    f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]  # noqa: E731 (the file's float32 scales)
    s = [f32(x["scale"]) for x in t]
    h = tfl_fc_int8([q], -128, w1, 16, 1, b1, s[0] * s[1] / s[3], -128, True)
    return tfl_fc_int8(h, -128, w2, 1, 16, b2, s[3] * s[4] / s[6], 0, False)[0]


def c_bytes(name, data, ctype="uint8_t"):
    out = ["const %s %s[%d] PROGMEM = {" % (ctype, name, len(data))]
    for k in range(0, len(data), 16):
        out.append("  " + ", ".join("0x%02x" % x for x in data[k:k + 16]) + ",")
    out.append("};")
    return out


def progmem_header(model_bytes, name, inputs, about):
    """The sketch's model.h: the model and its inputs in flash, in the form TfliteHello reads."""
    n = len(inputs[0])
    out = ["// model.h - the model TfliteHello runs and its inputs, kept in flash (PROGMEM).",
           "// Generated by scripts/gen/gen_tflite_models.py; do not edit."] + ["// " + a for a in about]
    out += ["#include <Arduino.h>", "", "#define MODEL_NAME \"%s\"" % name, ""]
    out += c_bytes("model", model_bytes)
    out += ["", "// one row per inference: the input tensor's bytes",
            "const uint8_t inputs[%d][%d] PROGMEM = {" % (len(inputs), n)]
    for row in inputs:
        out.append("  {" + ", ".join("0x%02x" % x for x in row) + "},")
    out.append("};")
    return "\n".join(out) + "\n"


def sk_lines(name, inputs, outputs):
    """What TfliteHello prints for int8 inputs and outputs (the compared lines)."""
    sb = lambda v: v - 256 if v > 127 else v  # noqa: E731
    lines = ["TfliteHello: " + name]
    for i, o in zip(inputs, outputs):
        lines.append("in " + " ".join(str(sb(v)) for v in i) + " -> out " + " ".join(str(sb(v)) for v in o))
    lines.append("%d inferences" % len(inputs))
    return lines


def emit_sketch(model_h, expect):
    tfl_selfcheck()
    m, t = sk_model()
    ys = [sk_reference(t, q) for q in SK_INPUTS]
    for q, y in zip(SK_INPUTS, ys):  # the reference itself against the sine it approximates
        x = (q + 128) * SK_X_SCALE
        assert abs(y - 128 * math.sin(x)) <= 4, (q, y, 128 * math.sin(x))
    about = ["Our own \"hello world\": y = sin(x) for x in [0, 2pi), from straight pieces between 16",
             "knots (two FULLY_CONNECTED layers; see sk_model in the generator). Input x: int8, scale",
             "2pi/256, zero point -128 (q = -128 is x = 0, q = 0 is x = pi); output y: int8, scale",
             "1/128, zero point 0 (y = 127 is 0.99)."]
    with open(model_h, "w") as f:
        f.write(progmem_header(m, "sine", [bytes([q & 0xFF]) for q in SK_INPUTS], about))
    with open(expect, "w") as f:
        f.write("# TfliteHello on the sine model of scripts/gen/gen_tflite_models.py: every output byte as\n"
                "# that script's own TensorFlow Lite arithmetic (Python) gives it, within 4/128 of sin(x).\n")
        f.write("\n".join(sk_lines("sine", [[q & 0xFF] for q in SK_INPUTS], [[y & 0xFF] for y in ys])) + "\n")


def emit_progmem(path, name, ins):
    with open(path, "rb") as f:
        m = f.read()
    rows = []
    for p in ins:
        with open(p, "rb") as f:
            rows.append(f.read())
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        sys.exit("progmem: every input file must have the same size")
    sys.stdout.write(progmem_header(m, name, rows, ["%s, with %d inputs (%s)." % (
        os.path.basename(path), len(rows), " ".join(os.path.basename(p) for p in ins))]))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "seeds":
        for name, m, *_ in CASES:
            with open(os.path.join(sys.argv[2], name + ".tflite"), "wb") as f:
                f.write(m)
    elif len(sys.argv) == 4 and sys.argv[1] == "sketch":
        emit_sketch(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 4 and sys.argv[1] == "progmem":
        emit_progmem(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) > 1 and sys.argv[1] == "demo":
        emit_demo()
    else:
        emit_header()
