"""Every shared golden case through accel.tflite's Interpreter, byte for byte: the output, and
every layer (each operator's output: its bytes against layers.bin, or against the sha256 of
layers.tsv where no layers.bin is stored, and its place in layers.tsv's index: operator,
tensor, type, shape, offset, bytes). A compiled Edge TPU model beside a case runs twice more: through
its twin, and with its edgetpu-custom-op's outputs taken from the CPU run (as a device returns
them), the CPU operators around it run here; both give the case's output.

  tflite (the third-party data directory beside the checkout, or $ACCEL_TFLITE_DATA)
                                TFLM's goldens: 63 cases, all run.
  tflite-coral                  TensorFlow Lite's goldens of the Coral models
                                ($ACCEL_TFLITE_CORAL_DATA): the models this runner cannot run
                                raise UnsupportedOperator naming every operator it has no kernel
                                for; keras_lstm_mnist_ptq and the uint8 mobilenets run.
Without the data, each group is one skip that names what is missing.
"""
import hashlib
import os

import numpy as np
import pytest

from accel import _native
from accel.tflite import Interpreter, UnsupportedOperator
from conftest import absent, data_dir, read_goldens, read_layers_tsv

TFLM = data_dir("ACCEL_TFLITE_DATA", "tflite")
CORAL = data_dir("ACCEL_TFLITE_CORAL_DATA", "tflite-coral")

# The operators this build has a kernel for (the section's operator table, which its own unit
# test checks against the schema's names): any other in a model must be named.
RUNS = {_native.op_name(c).decode() for c in range(256) if _native.op_name(c) and _native.runs_code(c)}
# and the custom operators the runner has built in
RUNS |= {"CUSTOM:" + n for n in ("TFLite_Detection_PostProcess",) if _native.custom_kept(n.encode())}


def cases(d, group):
    if not d:
        env = "ACCEL_TFLITE_DATA" if group == "tflite" else "ACCEL_TFLITE_CORAL_DATA"
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=absent(env, group)),
                             id="%s-absent" % group)]
    return [pytest.param(d, row, id="%s/%s" % (row["model"], row["case"])) for row in read_goldens(d)]


def read(d, rel):
    with open(os.path.join(d, rel), "rb") as f:
        return f.read()


def case_inputs(d, row, ins):
    """Each invocation's inputs, one array per graph input (several invocations' inputs are
    joined by "+"; a case name may hold one: split where a path starts)."""
    for rel in row["input"].replace("+cases/", "\ncases/").split("\n"):
        blob, off, arrays = read(d, rel), 0, []
        for det in ins:
            dt = np.dtype(det["dtype"]).newbyteorder("<")
            n = int(np.prod(det["shape"])) * dt.itemsize
            arrays.append(np.frombuffer(blob[off:off + n], dtype=dt).astype(det["dtype"]).reshape(det["shape"]))
            off += n
        assert off == len(blob), "%s: %d bytes, the inputs take %d" % (rel, len(blob), off)
        yield arrays


def device_runs(d, row, compiled):
    """The compiled model run as the Edge TPU and its host run it: the edgetpu-custom-op's
    outputs are the CPU model's tensors of the same names at each invocation (what a correct
    Edge TPU returns; no device is here), the CPU operators around it run in accel. The graph
    outputs' bytes of the last invocation."""
    cpu = Interpreter(model_path=os.path.join(d, row["model"] + ".tflite"))
    cpu.allocate_tensors()
    by_name = {}
    dev = Interpreter(model_path=compiled, custom_output=lambda details: [by_name[x["name"]] for x in details])
    assert {x["op"] for x in dev.get_custom_output_details()} == {"CUSTOM:edgetpu-custom-op"}
    dev.allocate_tensors()
    got = None
    for arrays in case_inputs(d, row, cpu.get_input_details()):
        for it in (cpu, dev):
            for det, x in zip(it.get_input_details(), arrays):
                it.set_tensor(det["index"], x)
        cpu.invoke()
        by_name = {L.name: L.array for L in cpu.layers()}
        dev.invoke()
        got = outputs(dev)
    return got


def run_case(d, row, it=None):
    """The Interpreter after the case's invocations (several inputs: without reset)."""
    if it is None:
        it = Interpreter(model_path=os.path.join(d, row["model"] + ".tflite"))
    it.allocate_tensors()
    ins = it.get_input_details()
    for arrays in case_inputs(d, row, ins):
        for det, x in zip(ins, arrays):
            it.set_tensor(det["index"], x)
        it.invoke()
    return it


def outputs(it):
    return b"".join(it.get_tensor(o["index"]).astype(np.dtype(o["dtype"]).newbyteorder("<")).tobytes()
                    for o in it.get_output_details())


def layers_index(it):
    return [(str(L.op_index), L.op, str(L.tensor_index), L.name, L.type,
             ",".join(str(x) for x in L.shape), str(L.offset), str(L.bytes)) for L in it.layers()]


def want_index(rows):
    return [(r["op_index"], r["op"], r["tensor_index"], r["tensor_name"], r["type"], r["shape"],
             r["offset"], r["bytes"]) for r in rows]


@pytest.mark.parametrize("d,row", cases(TFLM, "tflite"))
def test_tflm_golden(d, row):
    it = run_case(d, row)
    assert outputs(it) == read(d, row["output"]), "output differs"
    got = it.layer_bytes()
    want = read(d, row["layers"])
    if got != want:
        i = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), min(len(got), len(want)))
        first = next((L for L in it.layers() if L.offset <= i < L.offset + L.bytes), None)
        pytest.fail("layers differ at byte %d of %d (got %d), in %r" % (i, len(want), len(got), first))
    assert hashlib.sha256(got).hexdigest() == row["layers_sha256"]
    tsv = os.path.join(d, "cases", row["model"], "layers.tsv")
    assert layers_index(it) == want_index(read_layers_tsv(tsv))
    # the layers' arrays are the same bytes, each a copy of its own shape
    for L in it.layers():
        assert L.array.tobytes() == want[L.offset:L.offset + L.bytes]


def coral_ops(row):
    """The operators of the golden's ops column: builtin names, CUSTOM:CODE for a custom one
    (the name UnsupportedOperator gives it too)."""
    return set(row["ops"].split(","))


@pytest.mark.parametrize("d,row", cases(CORAL, "tflite-coral"))
def test_coral_golden(d, row):
    path = os.path.join(d, row["model"] + ".tflite")
    missing = coral_ops(row) - RUNS
    if missing:
        with pytest.raises(UnsupportedOperator) as e:
            Interpreter(model_path=path)
        named = {name for _, name, _ in e.value.operators}
        assert missing <= named, "not named: %s" % (missing - named)
        assert e.value.status in ("ACCEL_E_UNSUPPORTED", "ACCEL_E_TFLITE_UNSUPPORTED",
                                  "ACCEL_E_TFLITE_CUSTOM")
        assert named <= coral_ops(row), "named, but not in the model: %s" % (named - coral_ops(row))
        for idx, name, code in e.value.operators:
            assert "%d: %s (builtin code %d)" % (idx, name, code) in str(e.value)
        return
    # every operator of a kind the runner has: it runs (uint8 included), exactly
    it = run_case(d, row)
    compiled = os.path.join(d, "compiled", row["model"] + "_edgetpu.tflite")
    if os.path.exists(compiled):
        assert twin_runs(d, row)
        assert device_runs(d, row, compiled) == read(d, row["output"])
    assert outputs(it) == read(d, row["output"]), "output differs"
    rows = read_layers_tsv(os.path.join(d, row["layers"]))
    assert layers_index(it) == want_index(rows)
    blob = read(d, row["layers_bin"]) if row.get("layers_bin") else None
    # TensorFlow Lite's integer LSTM (these goldens) and TFLM's (this runner, and ../tflite's
    # goldens) differ by 1 in places: the data's README gives 31 of 560 values of
    # keras_lstm_mnist_ptq's LSTM layer on mnist_nine. Every layer before the first LSTM is
    # byte for byte; from it on, no value is off by more than 1.
    seen_lstm = False
    for L, r in zip(it.layers(), rows):
        seen_lstm = seen_lstm or L.op == "UNIDIRECTIONAL_SEQUENCE_LSTM"
        exact = hashlib.sha256(L.array.tobytes()).hexdigest() == r["sha256"]
        if not seen_lstm:
            assert exact, "layer %s (op %d %s) differs" % (r["tensor_name"], L.op_index, L.op)
            continue
        if exact:
            continue
        assert blob is not None, "layer %s differs (no layers.bin to say by how much)" % r["tensor_name"]
        want = np.frombuffer(blob[L.offset:L.offset + L.bytes], L.array.dtype)
        diff = np.abs(L.array.reshape(-1).astype(np.int64) - want.astype(np.int64))
        assert diff.max() <= 1, "layer %s: off by %d" % (r["tensor_name"], diff.max())
        if row["case"] == "mnist_nine" and L.op == "UNIDIRECTIONAL_SEQUENCE_LSTM":
            assert (int((diff != 0).sum()), diff.size) == (31, 560)


def twin_runs(d, row):
    """The model's compiled Edge TPU version with this model as its twin gives this case's output."""
    compiled = os.path.join(d, "compiled", row["model"] + "_edgetpu.tflite")
    with pytest.raises(UnsupportedOperator) as e:
        Interpreter(model_path=compiled)
    assert ("CUSTOM:edgetpu-custom-op" in {n for _, n, _ in e.value.operators}
            and "give the CPU model it was compiled from as twin_path" in str(e.value))
    it = Interpreter(model_path=compiled, twin_path=os.path.join(d, row["model"] + ".tflite"))
    assert it.compiled_model.path == compiled
    return outputs(run_case(d, row, it)) == read(d, row["output"])
