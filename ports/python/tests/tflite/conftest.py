"""Fixtures of the accel.tflite suite. Runs against the INSTALLED package (tests/python_tflite.sh
installs it into a temporary directory and puts that on PYTHONPATH), never the checkout's
ports/python, which has no compiled library.

    ACCEL_TFLITE_DATA        TFLM's goldens (default: the tflite folder of the third-party data
                             directory kept beside the checkout, as tests/lib.sh looks for it)
    ACCEL_TFLITE_CORAL_DATA  TensorFlow Lite's goldens of the Coral models (default: its
                             tflite-coral folder)
    ACCEL_RUN                the accel-run binary for cross-checks (default build/accel-run)
"""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, os.pardir, os.pardir))
SEEDS = os.path.join(REPO, "tests", "fuzz", "seeds")
ACCEL_RUN = os.environ.get("ACCEL_RUN", os.path.join(REPO, "build", "accel-run"))


DATA_ROOT = os.path.normpath(os.path.join(REPO, os.pardir, "shared", "data"))


def data_dir(env, sub):
    d = os.environ.get(env) or os.path.join(DATA_ROOT, sub)
    return d if os.path.isdir(d) else None


def absent(env, sub):
    """The reason to skip with when data_dir(env, sub) found nothing (as tests/lib.sh words it)."""
    if os.environ.get(env):
        return "third-party data absent (%s=%s)" % (env, os.environ[env])
    return "third-party data absent (no %s; %s overrides it)" % (os.path.join(DATA_ROOT, sub), env)


def seed(name):
    return os.path.join(SEEDS, "tflite", name)


@pytest.fixture
def accel_run():
    if not os.access(ACCEL_RUN, os.X_OK):
        pytest.skip("no accel-run (make build/accel-run)")
    return ACCEL_RUN


def read_goldens(d):
    """goldens.tsv's rows as dicts (column names from its header)."""
    with open(os.path.join(d, "goldens.tsv")) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    head = lines[0]
    return [dict(zip(head, row)) for row in lines[1:]]


def read_layers_tsv(path):
    with open(path) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [dict(zip(lines[0], row)) for row in lines[1:]]
