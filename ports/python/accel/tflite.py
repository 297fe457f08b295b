"""accel.tflite: accel.h's TFLite reference runner (bit-exact with TensorFlow Lite Micro's
reference kernels) with the interface of tflite_runtime's Interpreter.

    from accel.tflite import Interpreter      # instead of tflite_runtime.interpreter's
    interp = Interpreter(model_path="person_detect.tflite")
    interp.allocate_tensors()
    inp = interp.get_input_details()[0]
    interp.set_tensor(inp["index"], x)         # an ndarray of inp["shape"] and inp["dtype"]
    interp.invoke()
    y = interp.get_tensor(interp.get_output_details()[0]["index"])

What tflite_runtime does not have: interp.layers() (every operator's output of the last
invoke, in execution order, as named arrays; dequantized on request), interp.layer_bytes()
(their concatenation, the layout of `accel-run --layers`), interp.compare(actual) and
compare(expected, actual) (the report of `accel-run --compare`), interp.compare_layers(...)
(the first operator whose output differs), interp.arena_bytes; a compiled Edge TPU model runs
through its CPU twin (Interpreter(model_path=COMPILED, twin_path=CPU)), as accel-run --twin, or
as the Edge TPU and its host run it: custom_output=DEVICE_BYTES gives the custom operators'
outputs (what the device returned) and the CPU operators around them run here, as accel-run
--custom-output.

Memory: the package owns every byte the runner uses. The arena is a numpy buffer of the size
the plan gives; the runner itself never allocates. get_tensor() and layers() return copies;
interp.tensor(i)() is a view into the arena (as tflite_runtime's), valid until the next invoke.

Errors are exceptions that carry accel's status name (.status) and, where one is to blame, the
operator (.operator, .op_name): ModelError (the file is not a usable model; a ValueError, as
tflite_runtime raises), UnsupportedOperator (names every operator this build cannot run, in
.operators), InvokeError (an operator failed on this input). All derive from AccelError.
"""
import ctypes

import numpy as np

from . import _native as _n

__all__ = ["Interpreter", "compare", "Comparison", "Layer", "AccelError", "ModelError",
           "UnsupportedOperator", "InvokeError", "load_delegate"]

# TensorType values of the schema that accel.h knows, and their numpy types (little-endian in
# the model and the arena)
_DTYPES = {0: np.float32, 2: np.int32, 3: np.uint8, 4: np.int64, 6: np.bool_, 7: np.int16,
           9: np.int8}
TYPE_NAMES = {0: "FLOAT32", 2: "INT32", 3: "UINT8", 4: "INT64", 6: "BOOL", 7: "INT16", 9: "INT8"}

_E_UNSUPPORTED = -10        # ACCEL_E_UNSUPPORTED
_E_TFLITE_UNSUPPORTED = -612
_E_TFLITE_CUSTOM = -614
CUSTOM = 32  # the schema's BuiltinOperator code of a custom operator
_UNSUPPORTED = (_E_UNSUPPORTED, _E_TFLITE_UNSUPPORTED, _E_TFLITE_CUSTOM)

__version__ = _n.version().decode()


# ------------------------------------------------------------------ errors
def status_text(st):
    """accel_status_str(st): "ACCEL_E_NAME: what it means"."""
    return (_n.status_str(int(st)) or b"").decode("ascii", "replace") or "accel status %d" % st


def status_name(st):
    """The status's name, e.g. "ACCEL_E_UNSUPPORTED"."""
    return status_text(st).split(":", 1)[0]


def op_name(code):
    """The builtin operator's name ("CONV_2D"), or "builtin N" for one accel.h has no name for."""
    n = _n.op_name(int(code))
    return n.decode() if n else "builtin %d" % code


class AccelError(Exception):
    """A refusal by accel.h: .status (the status name), .code (its value), .operator and
    .op_name (the operator it stopped at, None when the failure is no operator's)."""

    def __init__(self, message, code, operator=None, op_code=None):
        super().__init__(message)
        self.code = code
        self.status = status_name(code)
        self.operator = operator
        self.op_code = op_code
        self.op_name = None if op_code is None else op_name(op_code)


class ModelError(AccelError, ValueError):
    """The file is not a model accel can open, or a rule of the schema or the graph is broken."""


class UnsupportedOperator(AccelError, ValueError, RuntimeError):
    """Operators this build does not run. .operators: [(index, name, builtin code), ...], every
    operator of the model with no kernel here, and the operator check stopped at (whose
    variant, types or options may be what is refused)."""

    def __init__(self, message, code, operators):
        first = operators[0]
        super().__init__(message, code, first[0], first[2])
        self.operators = operators


class InvokeError(AccelError, RuntimeError):
    """invoke() failed: the operator and the status say why."""


def _where(path):
    return "%s: " % path if path else ""


# ------------------------------------------------------------------ memory
def _buffer(nbytes):
    """nbytes of zeroed memory aligned for any scalar (the arena wants int32 alignment, the
    records pointers): a uint8 view of a uint64 array."""
    return np.zeros(max(1, (nbytes + 7) // 8), dtype=np.uint64).view(np.uint8)[:nbytes]


def _p(a):
    return a.ctypes.data_as(_n.P)


def _pt(a, t):
    return a.ctypes.data_as(ctypes.POINTER(t))


_SIZES = np.zeros(5, dtype=np.uint64)
_n.sizes(_pt(_SIZES, _n.U64))
_MODEL_BYTES, _RT_BYTES, _LAYERS_BYTES, MAX_DIMS, _FEED_BYTES = (int(x) for x in _SIZES)


# ------------------------------------------------------------------ the model
class _TensorInfo:
    __slots__ = ("index", "name", "type", "dtype", "shape", "elements", "bytes", "scales",
                 "zero_points", "quantized_dimension", "variable", "constant")

    def dequantize(self, q):
        """Real values of quantized values q (float32; per channel along the quantized axis)."""
        if self.type == 0 or not len(self.scales):
            return np.asarray(q, dtype=np.float32)
        q = np.asarray(q).astype(np.float64)
        if len(self.scales) == 1:
            return ((q - self.zero_points[0]) * float(self.scales[0])).astype(np.float32)
        shape = [1] * q.ndim
        shape[self.quantized_dimension] = len(self.scales)
        s = self.scales.astype(np.float64).reshape(shape)
        z = self.zero_points.astype(np.float64).reshape(shape)
        return ((q - z) * s).astype(np.float32)


class _Model:
    """An opened, validated model: its bytes (kept: accel reads it in place) and descriptions."""

    def __init__(self, content, path=None):
        self.path = path
        self.buf = np.frombuffer(bytes(content), dtype=np.uint8).copy()
        self.rec = _buffer(_MODEL_BYTES)
        counts = np.zeros(5, dtype=np.uint32)
        if len(self.buf) == 0:
            raise ModelError("%sempty: not a TFLite model" % _where(path), -2)
        st = _n.open_(_p(self.rec), _p(self.buf), len(self.buf), _pt(counts, _n.U32))
        if st != 0:
            cut = len(self.buf) >= 8 and bytes(self.buf[4:8]) == b"TFL3"
            what = ("a cut or damaged TFLite model" if st == -16 and cut else
                    "not a TFLite model, or a cut or damaged one" if st == -16 else
                    "not a usable TFLite model")
            raise ModelError("%s%s: %s" % (_where(path), what, status_text(st)), st)
        self.n_tensors, self.n_ops, self.n_inputs, self.n_outputs, self.version = (int(c) for c in counts)
        self.tensors = [self._tensor(i) for i in range(self.n_tensors)]
        self.ops = [self._op(i) for i in range(self.n_ops)]
        self.labels = [self._label(i) for i in range(self.n_ops)]
        self.inputs = [self._graph(0, k) for k in range(self.n_inputs)]
        self.outputs = [self._graph(1, k) for k in range(self.n_outputs)]

    def _fail(self, st, what):
        raise ModelError("%s%s: %s" % (_where(self.path), what, status_text(st)), st)

    def _tensor(self, i):
        t = _n.Tensor()
        st = _n.tensor_info(_p(self.rec), i, t)
        if st != 0:
            self._fail(st, "tensor %d" % i)
        info = _TensorInfo()
        info.index = i
        info.name = bytes(self.buf[t.name_off:t.name_off + t.name_len]).decode("utf-8", "replace")
        info.type = t.type
        info.dtype = _DTYPES.get(t.type)
        info.shape = tuple(t.dims[d] for d in range(t.ndims))
        info.elements = int(t.elements)
        info.bytes = int(t.bytes)
        bits = np.zeros(max(1, t.n_scales), dtype=np.uint32)
        zps = np.zeros(max(1, t.n_scales), dtype=np.int32)
        if t.n_scales:
            st = _n.tensor_scales(_p(self.rec), i, t.n_scales, _pt(bits, _n.U32), _pt(zps, _n.I32))
            if st != 0:
                self._fail(st, "tensor %d: scales" % i)
        info.scales = bits[:t.n_scales].view(np.float32).copy()
        info.zero_points = zps[:t.n_scales].copy()
        info.quantized_dimension = int(t.quantized_dimension)
        info.variable = bool(t.is_variable)
        info.constant = bool(t.is_constant)
        return info

    def _op(self, i):
        io = np.zeros(3, dtype=np.int32)
        st = _n.op_info(_p(self.rec), i, _pt(io, _n.I32))
        if st != 0:
            self._fail(st, "operator %d" % i)
        ts = np.zeros(max(1, int(io[1]) + int(io[2])), dtype=np.int32)
        st = _n.op_tensors(_p(self.rec), i, _pt(ts, _n.I32))
        if st != 0:
            self._fail(st, "operator %d" % i)
        return int(io[0]), [int(x) for x in ts[:io[1]]], [int(x) for x in ts[io[1]:io[1] + io[2]]]

    def _label(self, i):
        """The operator's name; a custom one as CUSTOM:ITS_CODE (the goldens' way)."""
        code = self.ops[i][0]
        if code != 32:
            return op_name(code)
        off, n = np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64)
        if _n.op_custom(_p(self.rec), i, _pt(off, _n.U64), _pt(n, _n.U64)) != 0 or not n[0]:
            return "CUSTOM"
        return "CUSTOM:" + bytes(self.buf[int(off[0]):int(off[0]) + int(n[0])]).decode("utf-8", "replace")

    def is_compiled_edgetpu(self):
        """A compiled Edge TPU model: its graph is in an edgetpu-custom-op, which only the chip runs."""
        return "CUSTOM:edgetpu-custom-op" in self.labels

    def _graph(self, is_output, k):
        t = np.zeros(1, dtype=np.uint32)
        st = _n.graph_tensor(_p(self.rec), is_output, k, _pt(t, _n.U32))
        if st != 0:
            self._fail(st, "graph %s %d" % ("output" if is_output else "input", k))
        return int(t[0])

    def check(self):
        """UnsupportedOperator or ModelError when the model cannot run in this build."""
        where = np.zeros(2, dtype=np.int64)
        st = _n.check(_p(self.rec), _pt(where, _n.I64))
        if st == 0:
            return
        op = int(where[0])
        if st in _UNSUPPORTED:
            named = {}
            if op >= 0:
                named[op] = int(where[1])
            for i, (code, _, _) in enumerate(self.ops):
                # a custom operator runs only through a kernel registered in C (accel_tflite_set_custom),
                # which this package registers none of, or one the runner has built in
                if code == CUSTOM:
                    if not _n.custom_kept(self.labels[i].split(":", 1)[-1].encode()):
                        named.setdefault(i, code)
                elif not _n.runs_code(code):
                    named.setdefault(i, code)
            ops = [(i, self.labels[i], c) for i, c in sorted(named.items())]
            if not ops:
                raise ModelError("%s%s" % (_where(self.path), status_text(st)), st)
            names = ", ".join("%d: %s (builtin code %d)" % o for o in ops)
            hint = ("; a compiled Edge TPU model: give the CPU model it was compiled from as twin_path "
                    "(it then runs as the reference)" if self.is_compiled_edgetpu() else "")
            raise UnsupportedOperator("%sunsupported operator%s %s%s" % (
                _where(self.path), "s" if len(ops) > 1 else "", names, hint), st, ops)
        if op >= 0:
            raise ModelError("%soperator %d (%s): %s" % (_where(self.path), op, op_name(int(where[1])),
                                                         status_text(st)), st, op, int(where[1]))
        raise ModelError("%s%s" % (_where(self.path), status_text(st)), st)

    def describe(self, t):
        """"TYPE [d0,d1] s=SCALE zp=ZP" of tensor t, for a message."""
        x = self.tensors[t]
        q = ("s=%.9g zp=%d" % (x.scales[0], x.zero_points[0])) if len(x.scales) else "not quantized"
        return "%s [%s] %s" % (TYPE_NAMES.get(x.type, x.type), ",".join(str(d) for d in x.shape), q)


def _same_io(compiled, twin):
    """The twin stands in for the compiled model only if it takes and gives the same tensors:
    as many graph inputs and outputs, each of the same type, shape and quantization (the Edge TPU
    compiler keeps the CPU model's). ValueError naming the first that differs."""
    for what, a, b in (("input", compiled.inputs, twin.inputs), ("output", compiled.outputs, twin.outputs)):
        if len(a) != len(b):
            raise ValueError("%s: %d graph %ss, %s has %d: not the model it was compiled from"
                             % (twin.path or "twin", len(b), what, compiled.path or "the model", len(a)))
        for k, (x, y) in enumerate(zip(a, b)):
            tx, ty = compiled.tensors[x], twin.tensors[y]
            same = (tx.type == ty.type and tx.shape == ty.shape and len(tx.scales) == len(ty.scales)
                    and tx.scales[:1].view(np.uint32).tolist() == ty.scales[:1].view(np.uint32).tolist()
                    and tx.zero_points[:1].tolist() == ty.zero_points[:1].tolist())
            if not same:
                raise ValueError("%s: graph %s %d is %s, %s's is %s: not the model it was compiled from"
                                 % (twin.path or "twin", what, k, twin.describe(y), compiled.path or "the model",
                                    compiled.describe(x)))


# ------------------------------------------------------------------ results
class Layer:
    """One operator output of the last invoke: op_index, op (its name; a custom one
    CUSTOM:ITS_CODE), code, tensor_index, name, type (TYPE_NAMES' name), shape, offset and bytes
    (in layer_bytes()), array (a copy)."""
    __slots__ = ("op_index", "op", "code", "tensor_index", "name", "type", "shape", "offset",
                 "bytes", "array")

    def __repr__(self):
        return "Layer(op %d %s, tensor %d %r, %s %s)" % (self.op_index, self.op, self.tensor_index,
                                                        self.name, self.type, list(self.shape))


class Comparison:
    """The report of `accel-run --compare`: exact, elements, differing, max_abs_diff_q (None when
    no element compared as a quantized integer), max_abs_diff_real, first_index (-1: none)."""
    __slots__ = ("exact", "elements", "differing", "max_abs_diff_q", "max_abs_diff_real",
                 "first_index")

    def __bool__(self):
        return self.exact

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return "Comparison(%s)" % ", ".join("%s=%r" % kv for kv in self.as_dict().items())

    def __str__(self):
        """The line accel-run prints."""
        if not self.differing:
            return "compare: exact (%d elements)" % self.elements
        if self.max_abs_diff_q is not None:
            return ("compare: %d of %d elements differ; max |diff| %d quantized, %.9g real; first at "
                    "element %d" % (self.differing, self.elements, self.max_abs_diff_q,
                                    self.max_abs_diff_real, self.first_index))
        return ("compare: %d of %d elements differ; max |diff| %.9g real; first at element %d"
                % (self.differing, self.elements, self.max_abs_diff_real, self.first_index))


def _as_list(x):
    if isinstance(x, np.ndarray) or np.isscalar(x):
        return [x]
    return list(x)


def compare(expected, actual, scale=None):
    """Compare actual with expected, as `accel-run --compare` does: a Comparison.

    expected, actual: an array, or a sequence of arrays (one per output; they are counted as one
    run of elements, first_index counting across them), each pair with as many elements;
    integers compare as integers whatever their width, so give actual as values, not bytes
    (Interpreter.compare takes the bytes). scale: the real value of one quantized step, a number or one per
    array (None: not quantized, the real difference is the integer one). float32 arrays compare
    as numbers, in real units only: equal values are the same (so -0 and 0 are), two NaNs are
    the same, a NaN and a number differ by an infinite amount."""
    if isinstance(expected, np.ndarray):  # one array: actual is one too (a list of values, say)
        exp, act = [expected], [actual]
    else:
        exp, act = _as_list(expected), _as_list(actual)
    if len(exp) != len(act):
        raise ValueError("compare: %d expected arrays, %d actual" % (len(exp), len(act)))
    scales = _as_list(scale) if scale is not None and not np.isscalar(scale) else [scale] * len(exp)
    if len(scales) != len(exp):
        raise ValueError("compare: %d scales for %d arrays" % (len(scales), len(exp)))
    r = Comparison()
    r.elements = r.differing = 0
    r.first_index = -1
    maxq, maxr, qelems = 0, 0.0, 0
    for e, a, s in zip(exp, act, scales):
        e = np.asarray(e)
        a = np.asarray(a)
        if a.size != e.size:
            raise ValueError("compare: %d actual elements against %d expected" % (a.size, e.size))
        e, a = e.reshape(-1), a.reshape(-1)
        if e.dtype.kind in "iub" and a.dtype.kind not in "iub":
            raise ValueError("compare: actual values are %s, expected %s: give the device's integers"
                             % (a.dtype, e.dtype))
        if e.dtype.kind == "f":
            ed, ad = e.astype(np.float64), a.astype(np.float64)
            both_nan = np.isnan(ed) & np.isnan(ad)
            differ = (ed != ad) & ~both_nan
            with np.errstate(invalid="ignore", over="ignore"):
                d = np.where(np.isnan(ed) | np.isnan(ad), np.inf, np.abs(ed - ad))
            d = np.where(differ, d, 0.0)
        else:
            ei, ai = e.astype(np.int64), a.astype(np.int64)
            di = np.abs(ei - ai)
            differ = di != 0
            qelems += e.size
            if differ.any():
                maxq = max(maxq, int(di.max()))
            step = 1.0 if s is None else float(np.float32(s))
            d = di.astype(np.float64) * step
        n = int(differ.sum())
        if n and r.first_index < 0:
            r.first_index = r.elements + int(np.argmax(differ))
        if n:
            maxr = max(maxr, float(d.max()))
        r.differing += n
        r.elements += e.size
    r.exact = r.differing == 0
    r.max_abs_diff_q = maxq if qelems else None
    r.max_abs_diff_real = maxr
    return r


# ------------------------------------------------------------------ the interpreter
def load_delegate(library, options=None):
    """tflite_runtime's load_delegate: accel runs no delegates (the reference is the CPU)."""
    raise ValueError("accel.tflite runs no delegates: %s is not loaded (accel is the reference "
                     "the delegate's results are checked against)" % library)


class Interpreter:
    """tflite_runtime.interpreter.Interpreter's working subset on accel's runner.

    Interpreter(model_path=... | model_content=...): opens and checks the model (ModelError,
    UnsupportedOperator). num_threads and experimental_* arguments are accepted and ignored (one
    thread, reference kernels); experimental_delegates must be empty. keep_layers (default True):
    keep every operator's output of each invoke for layers().

    A compiled Edge TPU model (its graph in an edgetpu-custom-op, which only the chip runs) runs
    through its twin: twin_path=... | twin_content=... names the CPU model it was compiled from,
    which must have the same graph inputs and outputs (type, shape, quantization) and then runs
    as the reference (.compiled_model keeps the compiled one). Without a twin such a model
    raises UnsupportedOperator naming CUSTOM:edgetpu-custom-op.

    custom_output=... (bytes, one array per custom output, or a file's path) runs every custom
    operator (the edgetpu-custom-op of a compiled model among them) from what a device returned:
    each custom operator's outputs back to back in output order, the operators in execution
    order (get_custom_output_details() lists them), the same bytes at every invoke until
    set_custom_output() gives others; the CPU operators around them run here. A callable is
    called at each invoke with get_custom_output_details() and returns that invoke's data (a
    test bench asks its device there). A twin or a custom_output: one of them."""

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=None,
                 experimental_preserve_all_tensors=False, keep_layers=True, twin_path=None,
                 twin_content=None, custom_output=None):
        if (model_path is None) == (model_content is None):
            raise ValueError("Interpreter: give model_path or model_content (one of them)")
        if experimental_delegates:
            raise ValueError("accel.tflite runs no delegates")
        if model_path is not None:
            model_path = str(model_path)
            with open(model_path, "rb") as f:
                model_content = f.read()
        self._model = _Model(model_content, model_path)
        self.compiled_model = None
        self._feed = None
        if twin_path is not None or twin_content is not None:
            if custom_output is not None:
                raise ValueError("a twin runs the CPU model in the compiled one's place, custom_output the "
                                 "compiled one with the device's outputs: one of them")
            self._twin(twin_path, twin_content)
        if custom_output is not None:
            self._custom = self._custom_outputs()
            if not self._custom:
                raise ValueError("%shas no custom operator, so no custom_output to take" % _where(model_path))
            self._feed = _buffer(_FEED_BYTES)
            self._feed_fn = custom_output if callable(custom_output) else None
            need = sum(self._model.tensors[t].bytes for _, _, t in self._custom)
            # a callable gives its data at each invoke: until then the operators' bytes are zeros
            self.set_custom_output(bytes(need) if self._feed_fn else custom_output)
        self._model.check()
        self._keep_layers = keep_layers
        self._rt = None
        self._arena = None
        self._kept = None
        self.arena_bytes = self._plan()

    def _twin(self, path, content):
        m = self._model
        if not m.is_compiled_edgetpu():
            raise ValueError("%shas no edgetpu-custom-op, so it is no compiled Edge TPU model: a twin is "
                             "for those; run it without one" % _where(m.path))
        if content is None:
            with open(str(path), "rb") as f:
                content = f.read()
        twin = _Model(content, None if path is None else str(path))
        if twin.is_compiled_edgetpu():
            raise ValueError("%sis a compiled Edge TPU model too: the twin is the CPU model %s was compiled "
                             "from" % (_where(twin.path), m.path or "the model"))
        _same_io(m, twin)
        self.compiled_model, self._model = m, twin

    # -- the custom operators' outputs from a device
    def _custom_outputs(self):
        """(operator index, output k, tensor) of every custom operator's outputs, in the order
        their bytes come: a built-in custom kernel (TFLite_Detection_PostProcess) runs here."""
        m = self._model
        return [(i, k, t) for i, (code, _, outs) in enumerate(m.ops) if code == CUSTOM
                and not _n.custom_kept(m.labels[i].split(":", 1)[-1].encode())
                for k, t in enumerate(outs)]

    def get_custom_output_details(self):
        """What custom_output holds, in its order: a tensor's details (get_output_details' keys)
        with op_index, op (CUSTOM:ITS_CODE), output (k of that operator) and bytes."""
        out = []
        for i, k, t in getattr(self, "_custom", []):
            d = self._details(t)
            d.update(op_index=i, op=self._model.labels[i], output=k, bytes=self._model.tensors[t].bytes)
            out.append(d)
        return out

    def set_custom_output(self, data):
        """The custom operators' outputs for the next invokes: bytes (back to back), one array
        per custom output (its dtype and shape), or a file's path. ValueError when they do not
        fit what the model's custom operators give."""
        if self._feed is None:
            raise RuntimeError("this Interpreter was made without custom_output: its custom operators "
                               "run from no device's bytes")
        m = self._model
        need = sum(m.tensors[t].bytes for _, _, t in self._custom)
        if isinstance(data, str) or hasattr(data, "__fspath__"):
            with open(data, "rb") as f:
                blob = f.read(need + 1)   # no more than can fit: a file may be a stream
            where = "%s: " % str(data)
        elif isinstance(data, (bytes, bytearray, memoryview)):
            blob, where = bytes(data), ""
        else:
            arrays = list(data)
            if len(arrays) != len(self._custom):
                raise ValueError("%d arrays given, the custom operators have %d output%s"
                                 % (len(arrays), len(self._custom), "" if len(self._custom) == 1 else "s"))
            parts = []
            for (i, k, t), a in zip(self._custom, arrays):
                x = m.tensors[t]
                a = np.asarray(a)
                if x.dtype is None or a.dtype != np.dtype(x.dtype) or a.shape != x.shape:
                    raise ValueError("output %d of operator %d (%s) is %s, got %s %s" % (
                        k, i, m.labels[i], m.describe(t), a.dtype.name.upper(),
                        list(a.shape)))
                parts.append(np.ascontiguousarray(a, dtype=np.dtype(x.dtype).newbyteorder("<")).tobytes())
            blob, where = b"".join(parts), ""
        if len(blob) != need:
            n = "more than %d" % need if where and len(blob) > need else str(len(blob))
            raise ValueError("%s%s byte%s, the custom operators' outputs take %d"
                             % (where, n, "" if n == "1" else "s", need))
        self._feed_data = np.frombuffer(blob, dtype=np.uint8).copy()
        st = _n.custom_feed(_p(m.rec), _p(self._feed), _p(self._feed_data), len(self._feed_data))
        if st != 0:
            raise AccelError("custom_output: %s" % status_text(st), st)

    # -- sizes and allocation
    def _plan(self):
        m = self._model
        need = np.zeros(1, dtype=np.uint64)
        st = _n.plan_scratch_size(_p(m.rec), _pt(need, _n.U64))
        if st != 0:
            m._fail(st, "plan")
        work = _buffer(int(need[0]) + 8)
        arena = np.zeros(1, dtype=np.uint64)
        st = _n.plan(_p(m.rec), _p(work), len(work), _pt(arena, _n.U64))
        if st != 0:
            m._fail(st, "plan")
        return int(arena[0])

    def allocate_tensors(self):
        """Lay the plan on a fresh arena (a numpy buffer of arena_bytes): variables start reset."""
        m = self._model
        rt = _buffer(_RT_BYTES)
        arena = _buffer(self.arena_bytes)
        where = np.zeros(2, dtype=np.int64)
        st = _n.init(_p(rt), _p(m.rec), _p(arena), len(arena), _pt(where, _n.I64))
        if st != 0:
            op = int(where[0])
            if op >= 0:
                cls = UnsupportedOperator if st in _UNSUPPORTED else ModelError
                if cls is UnsupportedOperator:
                    raise cls("%sunsupported operator %d: %s (builtin code %d)" % (
                        _where(m.path), op, op_name(int(where[1])), int(where[1])), st,
                        [(op, op_name(int(where[1])), int(where[1]))])
                raise cls("%soperator %d (%s): %s" % (_where(m.path), op, op_name(int(where[1])),
                                                       status_text(st)), st, op, int(where[1]))
            raise ModelError("%sinit: %s" % (_where(m.path), status_text(st)), st)
        self._rt, self._arena = rt, arena
        if self._keep_layers:
            outs = [(i, t) for i, (_, _, o) in enumerate(m.ops) for t in o]
            total = sum(m.tensors[t].bytes for _, t in outs if t >= 0)
            self._lay_rec = _buffer(_LAYERS_BYTES)
            self._lay_buf = _buffer(total)
            self._lay_idx = np.zeros((max(1, len(outs)), 5), dtype=np.int64)
        self._kept = None

    def _need_rt(self):
        if self._rt is None:
            raise RuntimeError("allocate_tensors() first")

    # -- details
    def _details(self, index):
        t = self._model.tensors[index]
        scale = float(t.scales[0]) if len(t.scales) else 0.0
        zp = int(t.zero_points[0]) if len(t.zero_points) else 0
        return {
            "name": t.name,
            "index": index,
            "shape": np.array(t.shape, dtype=np.int32),
            "shape_signature": np.array(t.shape, dtype=np.int32),
            "dtype": t.dtype,
            "quantization": (scale, zp),
            "quantization_parameters": {
                "scales": t.scales.copy(),
                "zero_points": t.zero_points.copy(),
                "quantized_dimension": t.quantized_dimension,
            },
            "sparsity_parameters": {},
        }

    def get_input_details(self):
        return [self._details(t) for t in self._model.inputs]

    def get_output_details(self):
        return [self._details(t) for t in self._model.outputs]

    def get_tensor_details(self):
        return [self._details(i) for i in range(self._model.n_tensors)]

    def get_signature_list(self):
        return {}

    # -- data
    def set_tensor(self, tensor_index, value):
        """Copy value into graph input tensor_index: its dtype and shape must be the input's."""
        self._need_rt()
        m = self._model
        if tensor_index not in m.inputs:
            raise ValueError("Cannot set tensor: tensor %d is not a graph input (inputs: %s)"
                             % (tensor_index, m.inputs))
        k = m.inputs.index(tensor_index)
        t = m.tensors[tensor_index]
        value = np.asarray(value)
        if t.dtype is None or value.dtype != np.dtype(t.dtype):
            raise ValueError("Cannot set tensor: Got value of type %s but expected type %s for input "
                             "%d, name: %s " % (value.dtype.name.upper(), TYPE_NAMES.get(t.type, t.type),
                                                tensor_index, t.name))
        if value.shape != t.shape:
            if value.ndim != len(t.shape):
                raise ValueError("Cannot set tensor: Dimension mismatch. Got %d but expected %d for "
                                 "input %d." % (value.ndim, len(t.shape), tensor_index))
            d = next(i for i in range(value.ndim) if value.shape[i] != t.shape[i])
            raise ValueError("Cannot set tensor: Dimension mismatch. Got %d but expected %d for "
                             "dimension %d of input %d." % (value.shape[d], t.shape[d], d, tensor_index))
        data = np.ascontiguousarray(value, dtype=np.dtype(t.dtype).newbyteorder("<"))
        st = _n.set_input(_p(self._rt), k, _p(data), data.nbytes)
        if st != 0:
            raise AccelError("input %d: %s" % (k, status_text(st)), st)

    def _locate(self, tensor_index):
        self._need_rt()
        if not 0 <= tensor_index < self._model.n_tensors:
            raise ValueError("Tensor with no shape found: tensor %d of %d" % (tensor_index,
                                                                              self._model.n_tensors))
        w = np.zeros(3, dtype=np.uint64)
        st = _n.tensor_where(_p(self._rt), tensor_index, _pt(w, _n.U64))
        if st != 0:
            raise ValueError("tensor %d: %s" % (tensor_index, status_text(st)))
        t = self._model.tensors[tensor_index]
        if t.dtype is None:
            raise ValueError("tensor %d: type %d has no numpy type here" % (tensor_index, t.type))
        src = self._arena if int(w[0]) == 0 else self._model.buf
        off, n = int(w[1]), int(w[2])
        return src[off:off + n].view(np.dtype(t.dtype).newbyteorder("<")).reshape(t.shape), int(w[0])

    def get_tensor(self, tensor_index):
        """A copy of the tensor's data (a graph input or output, a constant; an intermediate
        only until a later operator reuses its bytes: layers() keeps every operator's output)."""
        v, _ = self._locate(tensor_index)
        return v.astype(v.dtype.newbyteorder("="), copy=True)

    def tensor(self, tensor_index):
        """tflite_runtime's: a function that returns a view of the tensor in the arena (no copy;
        valid until the next invoke or allocate_tensors). A constant's view is read-only."""
        def view():
            v, in_model = self._locate(tensor_index)
            if in_model:
                v = v.view()
                v.flags.writeable = False
            return v
        return view

    def invoke(self):
        """Run every operator once (InvokeError names the one that failed)."""
        self._need_rt()
        where = np.zeros(2, dtype=np.int64)
        if self._feed is not None:
            if self._feed_fn is not None:
                self.set_custom_output(self._feed_fn(self.get_custom_output_details()))
            _n.feed_rewind(_p(self._feed))
        if self._keep_layers:
            st = _n.invoke(_p(self._rt), _p(self._lay_rec), _p(self._lay_buf), len(self._lay_buf),
                           _pt(self._lay_idx, _n.I64), self._lay_idx.shape[0],
                           _pt(where, _n.I64))
        else:
            st = _n.invoke(_p(self._rt), None, None, 0, None, 0, _pt(where, _n.I64))
        self._kept = None
        if st != 0:
            op = int(where[0])
            if op >= 0:
                raise InvokeError("%soperator %d (%s): %s" % (_where(self._model.path), op,
                                                               op_name(int(where[1])), status_text(st)),
                                  st, op, int(where[1]))
            raise InvokeError("%sinvoke: %s" % (_where(self._model.path), status_text(st)), st)
        if self._keep_layers:
            c = np.zeros(2, dtype=np.uint64)
            _n.layers_kept(_p(self._lay_rec), _pt(c, _n.U64))
            self._kept = (int(c[0]), int(c[1]))

    def reset_all_variables(self):
        """Variable (state) tensors back to their initial value (int8: the zero point; else 0)."""
        self._need_rt()
        st = _n.reset(_p(self._rt))
        if st != 0:
            raise AccelError("reset: %s" % status_text(st), st)

    # -- what tflite_runtime does not have
    def _need_layers(self):
        if not self._keep_layers:
            raise RuntimeError("layers: this Interpreter was made with keep_layers=False")
        if self._kept is None:
            raise RuntimeError("layers: invoke() first")

    def layers(self, dequantize=False):
        """Every operator's output of the last invoke, in execution order: a list of Layer
        (arrays are copies; dequantize=True: real values as float32, per channel where the
        tensor is quantized per channel; float tensors as they are)."""
        self._need_layers()
        m = self._model
        out = []
        for op, code, ti, off, n in self._lay_idx[:self._kept[0]].tolist():
            t = m.tensors[ti]
            L = Layer()
            L.op_index, L.code, L.op, L.tensor_index, L.name = op, code, m.labels[op], ti, t.name
            L.type, L.shape, L.offset, L.bytes = TYPE_NAMES.get(t.type, str(t.type)), t.shape, off, n
            raw = self._lay_buf[off:off + n]
            if t.dtype is None:
                L.array = raw.copy()
            else:
                a = raw.view(np.dtype(t.dtype).newbyteorder("<")).reshape(t.shape)
                a = a.astype(a.dtype.newbyteorder("="))
                L.array = t.dequantize(a) if dequantize else a
            out.append(L)
        return out

    def layer_bytes(self):
        """The concatenation of every operator's output of the last invoke, in execution order:
        the bytes `accel-run --layers` writes."""
        self._need_layers()
        return self._lay_buf[:self._kept[1]].tobytes()

    def _output_scales(self):
        sc = []
        for ti in self._model.outputs:
            t = self._model.tensors[ti]
            sc.append(float(t.scales[0]) if len(t.scales) else None)
        return sc

    def compare(self, actual):
        """Compare actual (the outputs' bytes back to back, as bytes, or one array per output)
        with this run's outputs, as `accel-run --compare` does: a Comparison."""
        m = self._model
        ref = [self.get_tensor(t) for t in m.outputs]
        if isinstance(actual, (bytes, bytearray, memoryview)):
            actual = self._split(bytes(actual), m.outputs, "the outputs")
        return compare(ref, actual, self._output_scales())

    def _split(self, blob, tensors, what):
        need = sum(self._model.tensors[t].bytes for t in tensors)
        if len(blob) != need:
            raise ValueError("%d bytes, %s take %d" % (len(blob), what, need))
        out, off = [], 0
        for ti in tensors:
            t = self._model.tensors[ti]
            a = np.frombuffer(blob, dtype=np.dtype(t.dtype).newbyteorder("<"), count=t.elements,
                              offset=off)
            out.append(a.reshape(t.shape))
            off += t.bytes
        return out

    def compare_layers(self, actual):
        """Compare every operator's output of the last invoke with actual (bytes in the layout
        of layer_bytes(), or one array per layer): (first, reports), reports one (Layer,
        Comparison) per layer in execution order, first the first Layer that differs (None when
        all are exact)."""
        layers = self.layers()
        if isinstance(actual, (bytes, bytearray, memoryview)):
            actual = self._split(bytes(actual), [L.tensor_index for L in layers],
                                 "the operators' outputs")
        if len(actual) != len(layers):
            raise ValueError("%d layers given, the model's operators have %d outputs"
                             % (len(actual), len(layers)))
        reports, first = [], None
        for L, a in zip(layers, actual):
            t = self._model.tensors[L.tensor_index]
            r = compare(L.array, a, float(t.scales[0]) if len(t.scales) else None)
            reports.append((L, r))
            if first is None and not r.exact:
                first = L
        return first, reports
