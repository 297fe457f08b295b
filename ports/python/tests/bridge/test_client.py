"""The Python client as a test bench uses it: exactly-once over a lossy link (Q5), the TSP1
convenience, and cross-checks with the C host (accel-tsp1, accel-capture) on the same device
and the same capture files."""
import random
import re
import subprocess

import pytest

from accel.bridge import Bridge, BridgeError, LinkTimeout, Tsp1, pb, read_capture, frame
from conftest import TARGET, ANSWER_S, sim_only, tool, start_device


class Lossy:
    """A link that loses, garbles, duplicates and replays: requests on their way out, answers
    on their way in. Every fault is counted."""

    def __init__(self, inner, seed, p=0.2):
        self.inner = inner
        self.rng = random.Random(seed)
        self.p = p
        self.sent = []
        self.pending = b""
        self.faults = dict(drop_out=0, garble_out=0, dup_out=0, replay_out=0, drop_in=0,
                           garble_in=0)

    def _garble(self, data):
        b = bytearray(data)
        i = self.rng.randrange(1, len(b) - 1) if len(b) > 2 else 0
        b[i] ^= 1 << self.rng.randrange(8)
        return bytes(b)

    def write(self, data):
        r = self.rng.random()
        if r < self.p:
            self.faults["drop_out"] += 1
        elif r < 1.5 * self.p:
            self.faults["garble_out"] += 1
            self.inner.write(self._garble(data))
        else:
            self.inner.write(data)
            if self.rng.random() < self.p / 2:
                self.faults["dup_out"] += 1
                self.inner.write(data)
        if self.sent and self.rng.random() < self.p / 2:
            # a delayed copy of an earlier request turns up: the device must ignore it (Q4)
            self.faults["replay_out"] += 1
            self.inner.write(self.rng.choice(self.sent[-8:]))
        self.sent.append(data)

    def read(self, timeout):
        # Faults strike answers, one draw per frame, not per read: a slow line (the emulated
        # Uno) hands a frame over one or two bytes per read, and a draw per read would lose
        # nearly every answer (0.7 ** 15 of a 15-byte frame survives), not a fifth of them.
        # A frame's bytes are held back until its closing 0x00 has come.
        self.pending += self.inner.read(timeout)
        out = bytearray()
        end = self.pending.rfind(0)
        done, self.pending = self.pending[:end + 1], self.pending[end + 1:]
        for piece in done.split(b"\0")[:-1]:
            if piece:
                r = self.rng.random()
                if r < self.p:
                    self.faults["drop_in"] += 1
                    continue
                if r < 1.5 * self.p:
                    self.faults["garble_in"] += 1
                    piece = self._garble(b"\0" + piece + b"\0")[1:-1]
            out += piece + b"\0"
        return bytes(out)

    def close(self):
        self.inner.close()


def lossy_bridge(device, seed, capture=None):
    from accel.bridge import SerialTransport
    link = Lossy(SerialTransport(device.pty), seed)
    # the emulated Uno runs slower than real time on a busy machine: a longer wait per send
    # there, or every send of one request can time out before its (late) answer comes
    b = Bridge(link, answer_s=0.1 if TARGET == "sim" else 0.3, max_sends=50, capture=capture)
    return b, link


class Chunks:
    """An inner link that hands over its bytes size bytes per read."""

    def __init__(self, data, size):
        self.data, self.size = data, size

    def read(self, timeout):
        out, self.data = self.data[:self.size], self.data[self.size:]
        return out


def test_lossy_link_faults_answers_per_frame_however_they_are_read():
    """A slow line hands an answer over a byte or two per read: the faults on the way in
    must be the same as when each frame comes whole, one draw per frame, or nearly every
    answer would be lost on the emulated Uno instead of about a fifth of them."""
    frames = [frame(pb.Response(seq=i, status=0).SerializeToString()) for i in range(1, 201)]
    seen = []
    for size in (len(frames[0]), 1, 2, 7):
        link = Lossy(Chunks(b"".join(frames), size), 5)
        got = b""
        while link.inner.data or link.pending:
            got += link.read(0)
        seen.append((got, link.faults["drop_in"], link.faults["garble_in"]))
    assert seen[1:] == [seen[0]] * 3
    got, dropped, garbled = seen[0]
    intact = sum(1 for f in frames if f[1:] in got)
    assert intact + dropped + garbled == 200
    assert 20 <= dropped <= 60 and 5 <= garbled <= 40 and intact >= 120


# ---------------------------------------------------------------- Q5: exactly once
@sim_only
def test_Q5_exactly_once_under_a_lossy_link_device_clock(device):
    """The simulator's clock moves only with Delay and WaitIrq: after n delays of 3 ms through
    a link that loses a fifth of everything, it moved exactly 3n."""
    b, link = lossy_bridge(device, 1)
    b.hello()
    t0 = b.now_ms()
    for _ in range(60):
        b.delay(3)
    assert b.now_ms() - t0 == 180
    assert b.stats["retries"] >= 20 and b.stats["link_timeouts"] == 0
    assert min(link.faults.values()) > 0, link.faults
    b.close()


def test_Q5_exactly_once_under_a_lossy_link_tsp1(device, tmp_path):
    """A TSP1 command written twice into the command buffer would be answered twice (the
    client refuses a second answer, or one with another TID): every echo gets exactly its own
    answer, and nothing is left over at the end."""
    cap = open(tmp_path / "lossy.cap", "wb")
    b, link = lossy_bridge(device, 2, capture=cap)
    t = Tsp1(b)
    t.drain()
    n = 12 if TARGET == "sim" else 6
    for i in range(n):
        text = b"lossy %d " % i + bytes(range(0x41, 0x41 + 3 * i))
        assert t.echo(text) == text
    assert t.take_responses() == []
    assert b.stats["retries"] > 0 and link.faults["replay_out"] > 0
    # the C host's reader sees the same session in the capture: as many exchanges, the same
    # retries
    b.close()
    cap.close()
    info, ex = read_capture((tmp_path / "lossy.cap").read_bytes())
    assert len(ex) == b.stats["requests"]
    assert sum(e.sends - 1 for e in ex) == b.stats["retries"]
    # and accel-capture (the C reader) counts the same
    retried = sum(1 for e in ex if e.sends > 1)
    assert ("%d exchanges, protocol version 1; %d retried (%d extra sends), 0 without an answer"
            % (len(ex), retried, b.stats["retries"])) in dump(str(tmp_path / "lossy.cap"))


def dump(path):
    out = subprocess.run([tool("accel-capture"), "dump", path], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_capture_of_the_python_client_read_by_the_c_tools(device, tmp_path):
    path = tmp_path / "py.cap"
    with open(path, "wb") as f:
        b = Bridge(device.pty, answer_s=ANSWER_S, capture=f)
        t = Tsp1(b)
        t.drain()
        assert t.echo(b"from python") == b"from python"
        b.gpio(1, 0)
        b.delay(2)
        b.close()
    info, ex = read_capture(path.read_bytes())
    assert (info.magic, info.version) == (0x4C434341, 1)
    text = dump(str(path))
    lines = [l for l in text.splitlines() if l.startswith("#")]
    assert len(lines) == len(ex) == b.stats["requests"]
    retried = sum(1 for e in ex if e.sends > 1)
    assert re.search(r"^%d exchanges, protocol version 1; %d retried \(%d extra sends\), 0 without"
                     % (len(ex), retried, b.stats["retries"]), text, re.M), text
    for line, e in zip(lines, ex):
        op = e.request.WhichOneof("op")
        assert line.split()[3] == op, line
        data = e.response.data
        if e.response.WhichOneof("result") == "data" and data:
            # the C tool prints the first 16 bytes, then the length
            want = "data " + data[:16].hex(" ")
            if len(data) > 16:
                want += " ... (%d bytes)" % len(data)
            assert line.endswith(want), line
    # the ECHO's DATA answer (id 0x8000, 11 bytes) as the C tool saw it in the buffer read
    assert "data 00 00 00 55 cc 00 80 0b 00" in text
    dec = subprocess.run(["protoc", "--decode=accel.bridge.Capture", "-I" + tool_dir_proto(),
                          "accel_bridge.proto"], input=path.read_bytes(), capture_output=True)
    assert dec.returncode == 0 and dec.stdout.count(b"exchange {") == len(ex)


def tool_dir_proto():
    import os
    from conftest import REPO
    return os.path.join(REPO, "ports", "bridge")


def test_capture_of_the_c_host_replayed_by_python(tmp_path):
    """accel-tsp1 --bridge records a session; on a second, fresh device the Python client sends
    the same requests (its own session and sequence numbers) and must get the same answers."""
    path = str(tmp_path / "c.cap")
    d1 = start_device()
    try:
        out = subprocess.run([tool("accel-tsp1"), "--bridge", d1.pty, "--capture", path, "echo",
                              "cross check"], capture_output=True, text=True, timeout=60)
    finally:
        d1.stop()
    assert out.returncode == 0 and "echo: cross check" in out.stdout, out.stdout + out.stderr
    info, ex = read_capture(open(path, "rb").read())
    assert ex[0].request.WhichOneof("op") == "hello" and not any(e.local for e in ex)
    d2 = start_device()
    try:
        b = Bridge(d2.pty, answer_s=ANSWER_S)
        compared = skipped = 0
        for e in ex:
            q = pb.Request()
            q.CopyFrom(e.request)
            if q.WhichOneof("op") == "hello":
                q.hello.session = b.session
            r = b.exchange(q)
            want = e.response
            if q.WhichOneof("op") == "time":
                assert r.WhichOneof("result") == "now_ms"
                if TARGET != "sim":
                    skipped += 1           # the emulated Uno's clock runs with the host's pace
                    continue
            if TARGET != "sim" and q.WhichOneof("op") == "wait_irq":
                skipped += 1
                continue
            assert (r.status, r.port_error, r.WhichOneof("result")) == \
                (want.status, want.port_error, want.WhichOneof("result")), q
            if r.WhichOneof("result"):
                assert getattr(r, r.WhichOneof("result")) == getattr(want, want.WhichOneof("result")), q
            compared += 1
        # only clock readings and interrupt waits go uncompared, and they are the minority: the
        # session's bus transfers (its start, the echo) are all compared
        assert compared + skipped == len(ex) and compared > 2 * skipped, (compared, skipped)
        b.close()
    finally:
        d2.stop()


def test_tsp1_echo_and_info_agree_with_the_c_host(device):
    p = tool("accel-tsp1")
    out = subprocess.run([p, "--bridge", device.pty, "echo", "first"], capture_output=True,
                         text=True, timeout=60)
    assert "echo: first" in out.stdout, out.stdout + out.stderr
    b = Bridge(device.pty, answer_s=ANSWER_S)       # a new session on the same device
    t = Tsp1(b)
    t.drain()
    assert t.echo(b"second") == b"second"
    nets = t.info()
    b.close()
    out = subprocess.run([p, "--bridge", device.pty, "info"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    want = ["net %(idx)d: %(total)d total, %(n_in)d in (buffer %(buf_in0)d), %(n_out)d out "
            "(buffer %(buf_out0)d), %(state)s" % n for n in nets]
    assert out.stdout.splitlines() == want
    assert len(nets) == (4 if TARGET == "sim" else 2)


def test_spi_agrees_with_accel_linux_probe(device):
    tx = bytes([0x01, 0x1F]) + bytes(298)
    out = subprocess.run([tool("accel-linux-probe"), "--bridge", device.pty, "spi", "0.0",
                          tx.hex()], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    got = re.search(r"rx \((\d+)\): ([0-9a-f ]+)", out.stdout)
    b = Bridge(device.pty, answer_s=ANSWER_S)
    rx = b.spi_transfer(0, tx)
    b.close()
    assert int(got.group(1)) == 300
    assert got.group(2).split()[:16] == rx.hex(" ").split()[:16]
    assert rx[3] == 2


@sim_only
def test_link_timeout_when_nothing_answers():
    d = start_device("--mute")
    try:
        b = Bridge(d.pty, answer_s=0.05, max_sends=3)
        with pytest.raises(LinkTimeout):
            b.hello()
        assert b.stats["sends"] == 3
        b.close()
    finally:
        d.stop()


def test_S1_client_says_hello_again_after_a_restart(device):
    b = Bridge(device.pty, answer_s=ANSWER_S)
    b.hello()
    device.stop()
    d2 = start_device()           # the "board" restarted: a new device on a new pty
    try:
        b.close()
        b.link = Bridge(d2.pty).link
        with pytest.raises(BridgeError) as e:
            b.gpio(1, 1)
        assert e.value.status == -97 and b.need_hello
        b.gpio(1, 1)              # hello first, then the request
        assert b.stats["restarts"] == 1 and not b.need_hello
        b.close()
    finally:
        d2.stop()


@sim_only
def test_sim_pty_is_raw_without_the_client_setting_it(device):
    """A client that opens the pty with plain open() and leaves termios alone: no echo of its
    own bytes, answers delivered without a newline, bytes untranslated."""
    import os
    import select
    from accel.bridge import Framer
    fd = os.open(device.pty, os.O_RDWR | os.O_NOCTTY)
    try:
        # a request whose bytes a cooked line would change: 0x0d (CR -> NL), 0x03 (^C)
        q = pb.Request(seq=0x0d03, gpio_set=pb.GpioSet(line=0x0d, level=3))
        os.write(fd, frame(q.SerializeToString()))
        got, fr = [], Framer()
        while not got and select.select([fd], [], [], 2)[0]:
            got = fr.feed(os.read(fd, 4096))
        assert got, "no answer through a pty left as it was opened"
        r = pb.Response()
        r.ParseFromString(got[0])
        assert (r.seq, r.status) == (0x0d03, -97)      # no session yet: refused, S1
    finally:
        os.close(fd)


def test_client_reports_operations_the_device_lacks(bridge):
    """Neither device under test has I2C or registers (S5): the client's calls are refused
    with the device's ACCEL_E_UNSUPPORTED, and the session goes on."""
    assert "i2c" not in bridge.cap_names() and "reg_read32" not in bridge.cap_names()
    for call in (lambda: bridge.i2c_write_read(0x50, b"\x01", 2), lambda: bridge.reg_read(4),
                 lambda: bridge.reg_read(4, wide=True), lambda: bridge.reg_write(4, 1)):
        with pytest.raises(BridgeError) as e:
            call()
        assert e.value.status == -10
    bridge.gpio(1, 0)
