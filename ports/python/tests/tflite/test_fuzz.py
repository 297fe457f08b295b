"""A bad model never crashes the interpreter process: every file of the fuzz corpus
(tests/fuzz/seeds/tflite*), and every cut of one real model, goes through the package in a
child process (open, allocate, invoke on zero inputs, layers). The child must end normally,
each file with a result or an accel.tflite exception; a crash names the file it was on."""
import os
import subprocess
import sys

from conftest import SEEDS

CHILD = r'''
import sys
import numpy as np
from accel.tflite import Interpreter, AccelError

def one(content):
    try:
        it = Interpreter(model_content=content)
        it.allocate_tensors()
        for d in it.get_input_details():
            it.set_tensor(d["index"], np.zeros(tuple(d["shape"]), d["dtype"]))
        it.invoke()
        it.layers(dequantize=True)
        for d in it.get_output_details():
            it.get_tensor(d["index"])
        return "ran"
    except AccelError as e:
        return e.status

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    print("start", path, flush=True)
    print("done", path, one(data), flush=True)
'''

CUTS = r'''
import sys
from accel.tflite import Interpreter, AccelError
with open(sys.argv[1], "rb") as f:
    data = f.read()
refused = 0
for n in range(len(data)):
    print("start cut", n, flush=True)
    try:
        Interpreter(model_content=data[:n]).allocate_tensors()
    except AccelError:
        refused += 1
print("refused", refused, "of", len(data), flush=True)
'''


def corpus():
    files = []
    for d in sorted(os.listdir(SEEDS)):
        if d.startswith("tflite"):
            files += [os.path.join(SEEDS, d, f) for f in sorted(os.listdir(os.path.join(SEEDS, d)))]
    return files


def run_child(code, args):
    import accel
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(accel.__file__))))
    r = subprocess.run([sys.executable, "-c", code] + args, capture_output=True, text=True,
                       timeout=600, env=env)
    last = [line for line in r.stdout.splitlines() if line.startswith("start")]
    assert r.returncode == 0, "child ended with %d on %s: %s" % (
        r.returncode, last[-1] if last else "?", r.stderr[-500:])
    return r.stdout.splitlines()


def test_fuzz_corpus_in_a_child():
    files = corpus()
    assert len(files) >= 100
    out = run_child(CHILD, files)
    done = [line.split() for line in out if line.startswith("done")]
    assert [d[1] for d in done] == files
    results = {d[1]: d[2] for d in done}
    # the corpus has both kinds: models that run, models refused with a status
    assert sum(v == "ran" for v in results.values()) >= 20
    assert sum(v.startswith("ACCEL_E_") for v in results.values()) >= 20
    assert results[os.path.join(SEEDS, "tflite", "bad_version.tflite")] == "ACCEL_E_TFLITE_VERSION"


def test_every_cut_of_a_model_is_refused():
    out = run_child(CUTS, [os.path.join(SEEDS, "tflite", "fc_then_quantize.tflite")])
    with open(os.path.join(SEEDS, "tflite", "fc_then_quantize.tflite"), "rb") as f:
        n = len(f.read())
    assert out[-1] == "refused %d of %d" % (n, n)


MUTATE = r'''
import random, sys
import numpy as np
from accel.tflite import Interpreter, AccelError
rng = random.Random(20261202)
ran = refused = 0
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    for k in range(20):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):         # 1 to 4 bytes replaced anywhere
            b[rng.randrange(len(b))] = rng.randrange(256)
        print("start", path, k, flush=True)
        try:
            it = Interpreter(model_content=bytes(b))
            it.allocate_tensors()
            for d in it.get_input_details():
                it.set_tensor(d["index"], np.zeros(tuple(d["shape"]), d["dtype"]))
            it.invoke()
            it.layers(dequantize=True)
            ran += 1
        except AccelError:
            refused += 1
print("mutants", ran, refused, flush=True)
'''


def test_mutated_models_in_a_child():
    # every hand-made model with 20 random mutations each (seeded): each runs or is refused
    # with an accel.tflite exception, never a crash
    files = [f for f in corpus() if "/tflite/" in f]
    out = run_child(MUTATE, files)
    ran, refused = (int(x) for x in out[-1].split()[1:])
    assert ran + refused == 20 * len(files) and ran > 0 and refused > 0
