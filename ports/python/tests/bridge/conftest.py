"""Fixtures: a bridge device on a pty, either accel-bridge-sim (the host simulator with the TSP1
model) or the Bridge sketch on an emulated Uno (tests/avr/tsp1_harness --pty).

    ACCEL_BRIDGE_TARGET  sim (default) or sketch
    ACCEL_BRIDGE_SIM     the accel-bridge-sim binary (default build/accel-bridge-sim)
    ACCEL_BRIDGE_HARNESS, ACCEL_BRIDGE_ELF   the harness and the sketch's ELF (sketch target)
    ACCEL_BRIDGE_TOOLS   directory of the C host tools (default build/) for cross-checks
Run with /usr/bin/python3 -m pytest (Debian's python3-protobuf, python3-serial, python3-pytest).
"""
import os
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, os.pardir, os.pardir))
# the package from this checkout (accel.bridge is pure Python: nothing to build)
sys.path.insert(0, os.path.normpath(os.path.join(HERE, os.pardir, os.pardir)))

import accel.bridge as accel_bridge  # noqa: E402
from accel.bridge import pb, frame, Framer, SerialTransport  # noqa: E402

TARGET = os.environ.get("ACCEL_BRIDGE_TARGET", "sim")
TOOLS = os.environ.get("ACCEL_BRIDGE_TOOLS", os.path.join(REPO, "build"))


class Device:
    """One device process serving a pty."""

    def __init__(self, argv, marker, stream):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        src = self.proc.stdout if stream == "stdout" else self.proc.stderr
        self.pty = None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = src.readline()
            if not line:
                break
            if line.startswith(marker):
                self.pty = line[len(marker):].strip()
                break
        if not self.pty:
            self.stop()
            raise RuntimeError("no pty from %s" % " ".join(argv))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_device(*sim_args):
    if TARGET == "sim":
        sim = os.environ.get("ACCEL_BRIDGE_SIM", os.path.join(TOOLS, "accel-bridge-sim"))
        if not os.access(sim, os.X_OK):
            pytest.skip("no accel-bridge-sim (make build/accel-bridge-sim)")
        return Device([sim] + list(sim_args), "pty ", "stdout")
    harness = os.environ.get("ACCEL_BRIDGE_HARNESS")
    elf = os.environ.get("ACCEL_BRIDGE_ELF")
    if not harness or not elf:
        pytest.skip("sketch target without ACCEL_BRIDGE_HARNESS/ACCEL_BRIDGE_ELF")
    return Device([harness, "--pty", elf], "harness: pty ", "stderr")


@pytest.fixture
def device():
    """A freshly started device: no session yet (S1)."""
    d = start_device()
    yield d
    d.stop()


# answer time per send: the simulator answers at once; the emulated Uno runs faster than real
# time, so the same is plenty for it
ANSWER_S = 0.2
WAIT_S = 5.0     # the longest wait for an answer that is due (a machine under load)
GRACE_S = 0.1    # and how long after it a surplus answer would show


@pytest.fixture
def bridge(device):
    b = accel_bridge.Bridge(device.pty, answer_s=ANSWER_S)
    b.hello()
    yield b
    b.close()


class Raw:
    """The wire without the client's rules: send frames, see every answer frame that comes."""

    def __init__(self, pty):
        self.t = SerialTransport(pty)
        self.rx = Framer()
        self.bytes_in = bytearray()

    def send_bytes(self, data, wait=ANSWER_S, want=None):
        self.t.write(data)
        return self.collect(wait, want)

    def collect(self, wait=ANSWER_S, want=None):
        """Raw answer messages that arrive within wait seconds. With want: up to WAIT_S (a
        loaded machine), stopping GRACE_S after the want-th (so a surplus answer still shows)."""
        msgs = []
        deadline = time.monotonic() + (WAIT_S if want else wait)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return msgs
            data = self.t.read(left)
            self.bytes_in += data
            n = len(msgs)
            msgs += self.rx.feed(data)
            if want and n < want <= len(msgs):
                deadline = min(deadline, time.monotonic() + GRACE_S)

    def send_msg(self, msg, wait=ANSWER_S, want=None):
        return self.send_bytes(frame(msg), wait, want)

    def send(self, req, wait=ANSWER_S, want=None):
        """Request -> list of Responses that came back."""
        out = []
        for m in self.send_msg(req.SerializeToString(), wait, want):
            r = pb.Response()
            r.ParseFromString(m)
            out.append(r)
        return out

    def one(self, req):
        """Exactly one answer is due: return it."""
        rs = self.send(req, want=1)
        assert len(rs) == 1, "want one answer, got %d" % len(rs)
        return rs[0]

    def hello(self, seq, session, version=1, max_data=128):
        return self.one(pb.Request(seq=seq, hello=pb.Hello(version=version, session=session,
                                                           max_data=max_data)))

    def close(self):
        self.t.close()


@pytest.fixture
def raw(device):
    r = Raw(device.pty)
    # a device that is still starting may lose the first bytes: ask until it answers. A request
    # without a session is refused and changes nothing (S1), so the device stays fresh.
    for _ in range(50):
        if r.send(pb.Request(seq=0, gpio_set=pb.GpioSet()), 0.1):
            break
    else:
        raise RuntimeError("device never answered")
    r.collect(0.05)
    yield r
    r.close()


def tool(name):
    path = os.path.join(TOOLS, name)
    if not os.access(path, os.X_OK):
        pytest.skip("no %s (make build/%s)" % (name, name))
    return path


# Tests that only the simulator can serve (its clock moves only with Delay/WaitIrq; --mute; its
# pty). On another target they are not collected at all (deselected, not skipped): a skip here
# means something is missing, and the wrapper script reports every skip by name.
sim_only = pytest.mark.sim_only


def pytest_configure(config):
    config.addinivalue_line("markers", "sim_only: needs accel-bridge-sim (deselected elsewhere)")


def pytest_collection_modifyitems(config, items):
    if TARGET == "sim":
        return
    gone = [i for i in items if i.get_closest_marker("sim_only")]
    if gone:
        config.hook.pytest_deselected(items=gone)
        items[:] = [i for i in items if not i.get_closest_marker("sim_only")]
