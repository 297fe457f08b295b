"""test_bench.py - a pytest test bench: a device's dumps against accel's reference, one test per
case, each failure naming the first layer where the device diverges.

    ACCEL_BENCH=cases.tsv /usr/bin/python3 -m pytest examples/python/test_bench.py

cases.tsv: one line per case, tab-separated: MODEL.tflite, IN.bin (several joined with "+"),
DEVICE.bin (the device's every-operator dump, or its outputs; see check_device.py). Relative
paths are taken from the file's directory.
"""
import os

import pytest

from check_device import reference, check


def cases():
    path = os.environ.get("ACCEL_BENCH")
    if not path:
        return [pytest.param(None, marks=pytest.mark.skip(reason="no ACCEL_BENCH=cases.tsv given"))]
    base = os.path.dirname(os.path.abspath(path))
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    return [pytest.param((os.path.join(base, r[0]), [os.path.join(base, p) for p in r[1].split("+")],
                          os.path.join(base, r[2])), id=os.path.basename(r[2])) for r in rows]


@pytest.mark.parametrize("case", cases())
def test_device_matches_reference(case):
    model, inputs, device = case
    blobs = []
    for p in inputs:
        with open(p, "rb") as f:
            blobs.append(f.read())
    with open(device, "rb") as f:
        dump = f.read()
    first, lines = check(reference(model, blobs), dump)
    assert first is None, "\n".join(lines[-1:] + lines[:-1])
