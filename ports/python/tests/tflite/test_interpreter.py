"""accel.tflite's Interpreter on the hand-made models of tests/fuzz/seeds/tflite (made by
scripts/gen/gen_tflite_models.py, whose outputs are worked out by hand there), against the
values worked out by hand."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accel
import accel.tflite as tfl
from accel.tflite import Interpreter, UnsupportedOperator, ModelError, AccelError, compare
from conftest import REPO, absent, seed, data_dir


def run(name, x, **kw):
    it = Interpreter(model_path=seed(name), **kw)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.array(x, dtype=d["dtype"]).reshape(d["shape"]))
    it.invoke()
    return it


def test_installed_not_the_checkout():
    # the suite checks what pip installed: a compiled library inside the package
    here = os.path.join(REPO, "ports", "python")
    assert not os.path.abspath(tfl.__file__).startswith(here + os.sep)
    assert any(f.startswith("_accel") for f in os.listdir(os.path.dirname(tfl.__file__)))


def test_version_is_accel_h():
    with open(os.path.join(REPO, "accel.h")) as f:
        want = next(line.split('"')[1] for line in f if line.startswith("#define ACCEL_VERSION_STRING"))
    assert tfl.__version__ == want
    assert accel.__version__ == want


def test_fc_by_hand():
    # FULLY_CONNECTED, int8: [4, 6] -> [3, -3]
    it = run("fc.tflite", [4, 6])
    out = it.get_output_details()[0]
    y = it.get_tensor(out["index"])
    assert y.dtype == np.int8 and y.tolist() == [[3, -3]]
    assert it.arena_bytes > 0


def test_details_keys_and_values():
    it = Interpreter(model_path=seed("fc_zp.tflite"))
    d = it.get_input_details()[0]
    assert set(d) >= {"name", "index", "shape", "shape_signature", "dtype", "quantization",
                      "quantization_parameters", "sparsity_parameters"}
    # fc_zp's input: INT8 [1,2] scale 0.5, zero point 2 (as accel-run's --twin test reads it)
    assert d["dtype"] is np.int8
    assert d["shape"].tolist() == [1, 2] and d["shape"].dtype == np.int32
    assert d["quantization"] == (0.5, 2)
    qp = d["quantization_parameters"]
    assert qp["scales"].dtype == np.float32 and qp["scales"].tolist() == [0.5]
    assert qp["zero_points"].tolist() == [2] and qp["quantized_dimension"] == 0
    assert isinstance(d["name"], str)
    # the details are there before allocate_tensors, as in tflite_runtime
    assert len(it.get_output_details()) == 1


def test_output_quantization_uint8():
    it = Interpreter(model_path=seed("fc_then_quantize.tflite"))
    o = it.get_output_details()[0]
    assert o["dtype"] is np.uint8 and o["quantization"] == (1.0, 128)


def test_two_invocations_last_output():
    it = run("fc_relu6.tflite", [4, 6])
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.array([[10, 10]], dtype=np.int8))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[10, 0]]


def test_layers_by_hand():
    # FC [3, -3] then QUANTIZE to uint8 [131, 125]
    it = run("fc_then_quantize.tflite", [4, 6])
    L = it.layers()
    assert [x.op for x in L] == ["FULLY_CONNECTED", "QUANTIZE"]
    assert [x.op_index for x in L] == [0, 1]
    assert L[0].array.dtype == np.int8 and L[0].array.tolist() == [[3, -3]]
    assert L[1].array.dtype == np.uint8 and L[1].array.tolist() == [[131, 125]]
    assert (L[0].offset, L[0].bytes, L[1].offset, L[1].bytes) == (0, 2, 2, 2)
    assert it.layer_bytes() == bytes([3, 0xfd, 0x83, 0x7d])
    # dequantized: QUANTIZE's output is scale 1, zero point 128: 3.0, -3.0
    D = it.layers(dequantize=True)
    assert D[1].array.dtype == np.float32 and D[1].array.tolist() == [[3.0, -3.0]]


def test_float_output_by_hand():
    # DEQUANTIZE int8 [-3, 7, 127, -128], scale 0.1, zero point -3 -> [0, 1, 13, -12.5]
    it = run("dequantize_i8.tflite", [-3, 7, 127, -128])
    y = it.get_tensor(it.get_output_details()[0]["index"])
    assert y.dtype == np.float32 and y.reshape(-1).tolist() == [0.0, 1.0, 13.0, -12.5]


def test_get_tensor_is_a_copy_tensor_is_a_view():
    it = run("fc.tflite", [4, 6])
    oi = it.get_output_details()[0]["index"]
    y = it.get_tensor(oi)
    y[0, 0] = 99
    assert it.get_tensor(oi).tolist() == [[3, -3]]
    v = it.tensor(oi)()
    assert v.tolist() == [[3, -3]]
    v[0, 0] = 7          # a view into the package's arena
    assert it.get_tensor(oi).tolist() == [[7, -3]]


def test_arena_is_a_numpy_buffer_of_the_plans_size():
    it = Interpreter(model_path=seed("fc.tflite"))
    it.allocate_tensors()
    assert isinstance(it._arena, np.ndarray) and it._arena.nbytes == it.arena_bytes


def test_set_tensor_refusals():
    it = Interpreter(model_path=seed("fc.tflite"))
    d = it.get_input_details()[0]
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        it.set_tensor(d["index"], np.zeros((1, 2), np.int8))
    it.allocate_tensors()
    with pytest.raises(ValueError, match="Got value of type FLOAT32 but expected type INT8"):
        it.set_tensor(d["index"], np.zeros((1, 2), np.float32))
    with pytest.raises(ValueError, match="Dimension mismatch. Got 3 but expected 2 for dimension 1"):
        it.set_tensor(d["index"], np.zeros((1, 3), np.int8))
    with pytest.raises(ValueError, match="Dimension mismatch. Got 1 but expected 2 for input"):
        it.set_tensor(d["index"], np.zeros((2,), np.int8))
    with pytest.raises(ValueError, match="not a graph input"):
        it.set_tensor(it.get_output_details()[0]["index"], np.zeros((1, 2), np.int8))
    with pytest.raises(RuntimeError, match="invoke"):
        it.layers()


def test_model_content_and_arguments():
    with open(seed("fc.tflite"), "rb") as f:
        content = f.read()
    it = Interpreter(model_content=content, num_threads=4)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.array([[4, 6]], np.int8))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[3, -3]]
    with pytest.raises(ValueError):
        Interpreter()
    with pytest.raises(ValueError):
        Interpreter(model_path=seed("fc.tflite"), model_content=content)
    with pytest.raises(ValueError, match="delegates"):
        Interpreter(model_path=seed("fc.tflite"), experimental_delegates=[object()])


def test_unsupported_operator_named():
    with pytest.raises(UnsupportedOperator) as e:
        Interpreter(model_path=seed("unsupported_elu.tflite"))
    assert e.value.operators == [(0, "ELU", 111)]
    assert e.value.status == "ACCEL_E_TFLITE_UNSUPPORTED"
    assert (e.value.operator, e.value.op_name) == (0, "ELU")
    assert "unsupported operator 0: ELU (builtin code 111)" in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, AccelError)
    with pytest.raises(UnsupportedOperator) as e:
        Interpreter(model_path=seed("unsupported_second_op.tflite"))
    assert e.value.operators == [(1, "DIV", 42)]


def test_bad_model_is_a_model_error():
    with pytest.raises(ModelError) as e:
        Interpreter(model_path=seed("bad_version.tflite"))
    assert e.value.status == "ACCEL_E_TFLITE_VERSION"
    with pytest.raises(ModelError, match="empty"):
        Interpreter(model_content=b"")
    with pytest.raises(ModelError) as e:
        Interpreter(model_content=b"\x00" * 64)
    assert e.value.status.startswith("ACCEL_E_")


def test_compare_by_hand():
    # accel-run's cases: [3, -3] against [3, -1]: one of two differs by 2 (scale 1), at 1
    it = run("fc.tflite", [4, 6])
    assert it.compare(bytes([3, 0xfd])).exact
    r = it.compare(bytes([3, 0xff]))
    assert (r.exact, r.elements, r.differing, r.max_abs_diff_q, r.max_abs_diff_real, r.first_index) == \
        (False, 2, 1, 2, 2.0, 1)
    assert str(r) == "compare: 1 of 2 elements differ; max |diff| 2 quantized, 2 real; first at element 1"
    with pytest.raises(ValueError, match="3 bytes, the outputs take 2"):
        it.compare(bytes(3))


def test_compare_float_by_hand():
    f = np.float32
    ref = np.array([0, 1, 13, -12.5], f)
    assert compare(ref, np.array([-0.0, 1, 13, -12.5], f)).exact       # -0 equals 0
    r = compare(ref, np.array([0, 1.25, 13, -13], f))
    assert (r.differing, r.max_abs_diff_q, r.max_abs_diff_real, r.first_index) == (2, None, 0.5, 1)
    assert str(r) == "compare: 2 of 4 elements differ; max |diff| 0.5 real; first at element 1"
    r = compare(ref, np.array([0, 1, np.nan, -12.5], f))
    assert r.differing == 1 and r.max_abs_diff_real == float("inf") and r.first_index == 2
    nan = np.array([np.nan], f)
    assert compare(nan, nan).exact                                        # two NaNs: the same


def test_compare_several_arrays_and_scales():
    # the second array's first element is element 3 of the whole; its scale 0.25
    r = compare([np.array([1, 2, 3], np.int8), np.array([5, 5], np.int8)],
                [np.array([1, 2, 3], np.int8), np.array([9, 5], np.int8)], scale=[1.0, 0.25])
    assert (r.differing, r.first_index, r.max_abs_diff_q, r.max_abs_diff_real) == (1, 3, 4, 1.0)
    # values, whatever their integer type (a list is int64): no wrap to the expected type
    r = compare(np.array([100, -100], np.int8), [300, -100], scale=0.5)
    assert (r.differing, r.max_abs_diff_q, r.max_abs_diff_real) == (1, 200, 100.0)
    with pytest.raises(ValueError, match="give the device's integers"):
        compare(np.array([1], np.int8), np.array([1.0]))
    with pytest.raises(ValueError, match="3 actual elements against 2"):
        compare(np.array([1, 2], np.int8), [1, 2, 3])


def test_reset_all_variables_goldens():
    # keyword_scrambled carries SVDF state: rand0 then rand1 gives seq_rand0_rand1's golden; after
    # reset_all_variables rand1 alone gives rand1's golden
    d = data_dir("ACCEL_TFLITE_DATA", "tflite")
    if not d:
        pytest.skip(absent("ACCEL_TFLITE_DATA", "tflite"))
    cd = os.path.join(d, "cases", "keyword_scrambled")

    def inp(name):
        return np.fromfile(os.path.join(cd, name + ".in.bin"), dtype="<i2")

    def want(name, what):
        with open(os.path.join(cd, "%s.%s.bin" % (name, what)), "rb") as f:
            return f.read()

    # every case's output is the same class here: the state shows in the layers
    assert want("seq_rand0_rand1", "layers") != want("rand1", "layers")
    it = Interpreter(model_path=os.path.join(d, "keyword_scrambled.tflite"))
    it.allocate_tensors()
    di, do = it.get_input_details()[0], it.get_output_details()[0]
    for name in ("rand0", "rand1"):
        it.set_tensor(di["index"], inp(name).astype(di["dtype"]).reshape(di["shape"]))
        it.invoke()
    assert it.get_tensor(do["index"]).tobytes() == want("seq_rand0_rand1", "out")
    assert it.layer_bytes() == want("seq_rand0_rand1", "layers")
    it.reset_all_variables()
    it.set_tensor(di["index"], inp("rand1").astype(di["dtype"]).reshape(di["shape"]))
    it.invoke()
    assert it.layer_bytes() == want("rand1", "layers")


def test_a_tflite_runtime_script_runs_with_its_import_changed(tmp_path):
    # A test bench written for tflite_runtime, as its documentation shows; only the import line
    # is changed, by text replacement, and the script then runs as it is.
    script = textwrap.dedent('''
        import sys
        import numpy as np
        from tflite_runtime.interpreter import Interpreter

        interpreter = Interpreter(model_path=sys.argv[1], num_threads=1)
        interpreter.allocate_tensors()
        input_details = interpreter.get_input_details()
        output_details = interpreter.get_output_details()
        scale, zero_point = input_details[0]["quantization"]
        x = np.array([[4, 6]], dtype=input_details[0]["dtype"])
        interpreter.set_tensor(input_details[0]["index"], x)
        interpreter.invoke()
        y = interpreter.get_tensor(output_details[0]["index"])
        o_scale, o_zp = output_details[0]["quantization"]
        print(y.tolist(), ((y.astype(np.float32) - o_zp) * o_scale).tolist(),
              output_details[0]["shape"].tolist(), output_details[0]["dtype"].__name__)
        interpreter.reset_all_variables()
    ''')
    changed = script.replace("from tflite_runtime.interpreter import Interpreter",
                             "from accel.tflite import Interpreter")
    assert changed.count("\n") == script.count("\n") and changed != script
    p = tmp_path / "bench.py"
    p.write_text(changed)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(accel.__file__))))
    r = subprocess.run([sys.executable, str(p), seed("fc.tflite")], capture_output=True, text=True,
                       cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[[3, -3]] [[3.0, -3.0]] [1, 2] int8"


def test_arena_bytes_is_accel_runs(accel_run):
    import json
    for name in ("fc.tflite", "fc_then_quantize.tflite", "dequantize_i8.tflite"):
        j = json.loads(subprocess.run([accel_run, seed(name), "--info", "--json"], capture_output=True,
                                      text=True, check=True).stdout)
        assert Interpreter(model_path=seed(name)).arena_bytes == j["arena_bytes"]


def test_compare_layers_by_hand():
    # FC [3, -3] then QUANTIZE [131, 125]; the device's QUANTIZE output is one step off at 1
    it = run("fc_then_quantize.tflite", [4, 6])
    first, reports = it.compare_layers(bytes([3, 0xfd, 0x83, 0x7d]))
    assert first is None and all(r.exact for _, r in reports)
    first, reports = it.compare_layers(bytes([3, 0xfd, 0x83, 0x7e]))
    assert (first.op_index, first.op, first.tensor_index, first.name) == (1, "QUANTIZE", 4, "u8")
    assert [(r.differing, r.first_index) for _, r in reports] == [(0, -1), (1, 1)]
    with pytest.raises(ValueError, match="3 bytes, the operators' outputs take 4"):
        it.compare_layers(bytes(3))


def _golden(name):
    d = data_dir("ACCEL_TFLITE_DATA", "tflite")
    if not d:
        pytest.skip(absent("ACCEL_TFLITE_DATA", "tflite"))
    return os.path.join(d, name + ".tflite"), os.path.join(d, "cases", name)


def test_compare_is_accel_runs(accel_run, tmp_path):
    # the same report as accel-run --compare --json, on person_detect's output with both bytes
    # off, and on a float output (dequantize_i8) with a NaN
    import json
    model, cases = _golden("person_detect")
    it = Interpreter(model_path=model)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    x = np.fromfile(os.path.join(cases, "rand0.in.bin"), np.int8).reshape(d["shape"])
    it.set_tensor(d["index"], x)
    it.invoke()
    hw = bytes((b + 7) & 0xff for b in it.get_tensor(it.get_output_details()[0]["index"]).tobytes())
    (tmp_path / "hw.bin").write_bytes(hw)
    j = json.loads(subprocess.run([accel_run, model, "--input", os.path.join(cases, "rand0.in.bin"),
                                   "--compare", str(tmp_path / "hw.bin"), "--json"],
                                  capture_output=True, text=True).stdout)
    assert it.compare(hw).as_dict() == j["compare"]
    it = run("dequantize_i8.tflite", [-3, 7, 127, -128])
    hw = np.array([0, 1, np.nan, -12], np.float32).tobytes()
    (tmp_path / "f.bin").write_bytes(hw)
    (tmp_path / "in.bin").write_bytes(bytes([0xfd, 7, 127, 128]))
    j = json.loads(subprocess.run([accel_run, seed("dequantize_i8.tflite"), "--input", str(tmp_path / "in.bin"),
                                   "--compare", str(tmp_path / "f.bin"), "--json"],
                                  capture_output=True, text=True).stdout)
    got = it.compare(hw).as_dict()
    assert got.pop("max_abs_diff_real") == float("inf") and j["compare"].pop("max_abs_diff_real") is None
    assert got == j["compare"]


def test_layers_and_compare_layers_are_accel_runs(accel_run, tmp_path):
    # keyword_scrambled (int16 input, SVDF state, int32 and int8 layers): the index of the
    # Python layers is accel-run's LAYERS.tsv, and compare_layers agrees with --compare-layers
    import json
    model, cases = _golden("keyword_scrambled")
    inp = os.path.join(cases, "rand0.in.bin")
    subprocess.run([accel_run, model, "--input", inp, "--layers", str(tmp_path / "l.bin")], check=True,
                   capture_output=True)
    it = Interpreter(model_path=model)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.fromfile(inp, "<i2").astype(d["dtype"]).reshape(d["shape"]))
    it.invoke()
    assert it.layer_bytes() == (tmp_path / "l.bin").read_bytes()
    rows = [line.split("\t") for line in (tmp_path / "l.tsv").read_text().splitlines()[1:]]
    assert [(int(r[0]), r[1], int(r[2]), r[3], r[4], tuple(int(x) for x in r[5].split(",")), int(r[6]), int(r[7]))
            for r in rows] == [(L.op_index, L.op, L.tensor_index, L.name, L.type, L.shape, L.offset, L.bytes)
                               for L in it.layers()]
    dump = bytearray(it.layer_bytes())
    L = it.layers()[len(it.layers()) // 2]
    dump[L.offset + L.bytes - 1] ^= 0x40
    (tmp_path / "dev.bin").write_bytes(bytes(dump))
    j = json.loads(subprocess.run([accel_run, model, "--input", inp, "--compare-layers", str(tmp_path / "dev.bin"),
                                   "--json"], capture_output=True, text=True).stdout)["compare_layers"]
    first, reports = it.compare_layers(bytes(dump))
    assert (first.op_index, first.tensor_index) == (j["first_op"], j["first_tensor"]) == (L.op_index, L.tensor_index)
    for (layer, r), x in zip(reports, j["per_layer"]):
        assert (layer.op_index, layer.op, layer.tensor_index) == (x.pop("op"), x.pop("name"), x.pop("tensor"))
        got = r.as_dict()
        # accel-run's JSON holds 9 significant digits
        assert "%.9g" % got.pop("max_abs_diff_real") == "%.9g" % x.pop("max_abs_diff_real")
        assert got == x


def test_twin_of_a_compiled_model():
    # edgetpu_compiled_fc: fc.tflite's graph compiled into one edgetpu-custom-op (holding the
    # synthetic package); fc.tflite, its twin, runs in its place
    compiled = seed("edgetpu_compiled_fc.tflite")
    with pytest.raises(UnsupportedOperator) as e:
        Interpreter(model_path=compiled)
    assert e.value.operators == [(0, "CUSTOM:edgetpu-custom-op", 32)]
    assert "as twin_path" in str(e.value)
    it = Interpreter(model_path=compiled, twin_path=seed("fc.tflite"))
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.array([[4, 6]], np.int8))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[3, -3]]
    with pytest.raises(ValueError, match=r"fc_then_quantize.tflite: graph output 0 is UINT8 \[1,2\] s=1 zp=128, "):
        Interpreter(model_path=compiled, twin_path=seed("fc_then_quantize.tflite"))
    with pytest.raises(ValueError, match=r"graph input 0 is INT8 \[1,2\] s=0.5 zp=2, "):
        Interpreter(model_path=compiled, twin_path=seed("fc_zp.tflite"))
    with pytest.raises(ValueError, match="is a compiled Edge TPU model too"):
        Interpreter(model_path=compiled, twin_path=compiled)
    with pytest.raises(ValueError, match="has no edgetpu-custom-op"):
        Interpreter(model_path=seed("fc.tflite"), twin_path=seed("fc.tflite"))
    with pytest.raises(ValueError, match="has no edgetpu-custom-op"):
        Interpreter(model_path=seed("custom_other.tflite"), twin_path=seed("fc.tflite"))
    with pytest.raises(UnsupportedOperator) as e:   # another custom operator: named by its code
        Interpreter(model_path=seed("custom_other.tflite"))
    assert e.value.operators[0][1].startswith("CUSTOM:") and "twin_path" not in str(e.value)


def test_tensor_details_are_accel_runs(accel_run):
    # every tensor of person_detect (per-channel weights among them) against accel-run --info
    # --json: name, type, shape, scale, zero point, the count of scales; a constant's data is
    # the model's bytes, its view read-only
    import json
    model, _ = _golden("person_detect")
    j = json.loads(subprocess.run([accel_run, model, "--info", "--json"], capture_output=True, text=True,
                                  check=True).stdout)
    it = Interpreter(model_path=model)
    details = it.get_tensor_details()
    assert len(details) == len(j["tensors"])
    names = {np.int8: "INT8", np.int32: "INT32", np.uint8: "UINT8", np.int16: "INT16", np.float32: "FLOAT32"}
    for d, t in zip(details, j["tensors"]):
        qp = d["quantization_parameters"]
        assert (d["index"], d["name"], names[d["dtype"]], d["shape"].tolist(), len(qp["scales"])) == \
            (t["index"], t["name"], t["type"], t["shape"], t["scales"])
        assert "%.9g" % d["quantization"][0] == "%.9g" % t["scale"] and d["quantization"][1] == t["zero_point"]
    per_channel = [t for t in j["tensors"] if t["scales"] > 1]
    assert per_channel
    it.allocate_tensors()
    t = per_channel[0]
    with open(model, "rb") as f:
        content = f.read()
    w = it.get_tensor(t["index"])
    assert w.shape == tuple(t["shape"]) and w.tobytes() in content
    v = it.tensor(t["index"])()
    assert not v.flags.writeable and np.array_equal(v, w)


def test_custom_output_from_the_device():
    # custom_other: one CUSTOM "my-custom-op", int8 [1, 2] -> [1, 2]. Without custom_output the
    # model is refused naming it; with it, the device's bytes are the operator's outputs (as
    # accel-run --custom-output, whose test feeds the same two bytes)
    model = seed("custom_other.tflite")
    it = Interpreter(model_path=model, custom_output=b"\x09\xf7")
    det = it.get_custom_output_details()
    assert [(d["op_index"], d["op"], d["output"], d["dtype"], d["shape"].tolist(), d["bytes"]) for d in det] == \
        [(0, "CUSTOM:my-custom-op", 0, np.int8, [1, 2], 2)]
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.array([[4, 6]], np.int8))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[9, -9]]
    assert [L.op for L in it.layers()] == ["CUSTOM:my-custom-op"]
    # the same bytes at every invoke, until set_custom_output gives others (one array per output)
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[9, -9]]
    it.set_custom_output([np.array([[-1, 2]], np.int8)])
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[-1, 2]]
    # a file path works as accel-run's DEV_OUT.bin
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(b"\x01\x02")
    try:
        it2 = Interpreter(model_path=model, custom_output=f.name)
        it2.allocate_tensors()
        it2.set_tensor(d["index"], np.array([[4, 6]], np.int8))
        it2.invoke()
        assert it2.get_tensor(it2.get_output_details()[0]["index"]).tolist() == [[1, 2]]
    finally:
        os.unlink(f.name)


def test_custom_output_refusals():
    model = seed("custom_other.tflite")
    with pytest.raises(ValueError, match="3 bytes, the custom operators' outputs take 2"):
        Interpreter(model_path=model, custom_output=b"abc")
    it = Interpreter(model_path=model, custom_output=b"ab")
    with pytest.raises(ValueError, match="1 byte, the custom operators' outputs take 2"):
        it.set_custom_output(b"a")
    with pytest.raises(ValueError, match="output 0 of operator 0 .CUSTOM:my-custom-op. is INT8 \\[1,2\\]"):
        it.set_custom_output([np.array([1, 2], np.int16)])
    with pytest.raises(ValueError, match="2 arrays given, the custom operators have 1 output"):
        it.set_custom_output([np.zeros((1, 2), np.int8)] * 2)
    with pytest.raises(ValueError, match="has no custom operator, so no custom_output to take"):
        Interpreter(model_path=seed("fc.tflite"), custom_output=b"ab")
    with pytest.raises(ValueError, match="one of them"):
        Interpreter(model_path=seed("edgetpu_compiled_fc.tflite"), twin_path=seed("fc.tflite"),
                    custom_output=b"ab")
    # without custom_output, set_custom_output has nothing to feed
    with pytest.raises(RuntimeError, match="made without custom_output"):
        Interpreter(model_path=seed("fc.tflite")).set_custom_output(b"")


def test_compiled_model_with_the_devices_outputs():
    # edgetpu_compiled_fc: the whole graph is one edgetpu-custom-op; its outputs given, the run
    # is the device's bytes (the graph output is that operator's output)
    compiled = seed("edgetpu_compiled_fc.tflite")
    it = Interpreter(model_path=compiled, custom_output=b"\x03\xfd")
    assert it.compiled_model is None
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], np.array([[4, 6]], np.int8))
    it.invoke()
    assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[3, -3]]


def test_custom_output_from_a_callable():
    # a test bench asks its device at each invoke: the callable gets the custom outputs' details
    asked = []

    def device(details):
        asked.append([(x["op"], x["shape"].tolist()) for x in details])
        return [np.array([[len(asked), -len(asked)]], np.int8)]

    it = Interpreter(model_path=seed("custom_other.tflite"), custom_output=device)
    assert asked == []
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], np.array([[4, 6]], np.int8))
    for n in (1, 2):
        it.invoke()
        assert it.get_tensor(it.get_output_details()[0]["index"]).tolist() == [[n, -n]]
    assert asked == [[("CUSTOM:my-custom-op", [1, 2])]] * 2
