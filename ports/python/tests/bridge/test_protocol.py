"""Each rule of ports/bridge/PROTOCOL.md against a running device (the test names cite the
rule). The expected values come from the document, not from the device's code."""
import os
import re
import time

import pytest

from accel.bridge import pb, frame, cobs_encode, cobs_decode, crc32, Framer, Bridge, BridgeError
from conftest import REPO, TARGET, ANSWER_S, sim_only

E_TOO_LONG, E_TIMEOUT, E_UNSUPPORTED, E_ARG, E_MALFORMED = -3, -9, -10, -12, -16
E_NO_SESSION, E_VERSION = -97, -98
# what both devices under test can run (S5): SPI, GPIO, IRQ, clock, delay; no I2C, no registers
CAPS = 0x001 | 0x004 | 0x008 | 0x010 | 0x020


def doc():
    with open(os.path.join(REPO, "ports", "bridge", "PROTOCOL.md")) as f:
        return f.read()


def hexbytes(s):
    return bytes(int(x, 16) for x in s.split())


def req(seq, **op):
    return pb.Request(seq=seq & 0xFFFFFFFF, **op)


def gpio(seq, line=1, level=0):
    return req(seq, gpio_set=pb.GpioSet(line=line, level=level))


# ---------------------------------------------------------------- 1. framing (no device)
def test_F1_F2_worked_example_of_section_9():
    text = doc()
    sec = text[text.index("## 9. Worked example"):]
    frames = re.findall(r"^    ((?:[0-9a-f]{2} )+[0-9a-f]{2})$", sec, re.M)
    assert frames, "the worked example's frame"
    want_req = hexbytes(frames[0])
    assert frame(gpio(2, 0, 0).SerializeToString()) == want_req
    resp = re.search(r"the frame\s+`((?:[0-9a-f]{2} ?)+)`", sec).group(1)
    msgs = Framer().feed(hexbytes(resp))
    r = pb.Response()
    r.ParseFromString(msgs[0])
    assert (r.seq, r.status, r.WhichOneof("result")) == (2, 0, None)


def test_F2_crc_check_value():
    assert crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize("body,enc", [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),                 # a final 254 run
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(1, 255)) + b"\x00", b"\xff" + bytes(range(1, 255)) + b"\x01\x01"),
])
def test_F3_cobs_blocks(body, enc):
    assert cobs_encode(body) == enc
    assert cobs_decode(enc) == body


def test_F3_superfluous_block_after_final_ff_decodes_the_same():
    body = bytes(range(1, 255))
    assert cobs_decode(b"\xff" + body + b"\x01") == body


def test_F4_largest_messages():
    big = pb.Request(seq=0xFFFFFFFF, spi=pb.SpiTransfer(cs=255, len=65535, tx=b"\xff" * 128,
                                                        read=True, keep_cs=True))
    assert big.ByteSize() == 151
    rsp = pb.Response(seq=0xFFFFFFFF, status=-2**31, port_error=-2**31, data=b"\xff" * 128)
    assert rsp.ByteSize() == 149
    n = 151 + 4
    assert len(frame(big.SerializeToString())) == n + n // 254 + 3 == 158


# ---------------------------------------------------------------- 1. framing on the device
def test_F4_largest_request_and_answer_on_the_wire(raw):
    raw.hello(1, 11)
    tx = bytes((i * 7 + 1) % 255 + 1 for i in range(128))   # no zero: the longest frame
    q = req(2, spi=pb.SpiTransfer(cs=0, len=128, tx=tx, read=True))
    wire = frame(q.SerializeToString())
    assert len(wire) <= 158
    raw.bytes_in.clear()
    r = raw.one(q)
    assert r.status == 0 and len(r.data) == 128
    assert len(raw.bytes_in) <= 156


def test_F5_garbage_and_empty_frames(raw):
    raw.hello(1, 12)
    assert raw.send_bytes(b"\x00\x00\x00\x00") == []
    # garbage without a 0x00 of its own: the frame's leading delimiter ends it
    rs = raw.send_bytes(b"\x11\x22\x33" + frame(gpio(2).SerializeToString()), want=1)
    assert len(rs) == 1
    # one delimiter between two frames is enough: the second without its leading 0x00
    f = frame(gpio(4).SerializeToString())
    rs = raw.send_bytes(frame(gpio(3).SerializeToString()) + f[1:], want=2)
    got = []
    for m in rs:
        r = pb.Response()
        r.ParseFromString(m)
        got.append((r.seq, r.status))
    assert got == [(3, 0), (4, 0)]


def test_F6_damaged_frames_get_no_answer(raw):
    raw.hello(1, 13)
    good = gpio(2).SerializeToString()
    f = bytearray(frame(good))
    f[3] ^= 0x01                                   # a flipped bit: the CRC fails
    assert raw.send_bytes(bytes(f)) == []
    assert raw.send_bytes(b"\x00\x09\x08\x02\x00") == []          # a block cut short
    assert raw.send_bytes(b"\x00\x03\x08\x02\x00") == []          # body shorter than a CRC
    assert raw.send_bytes(b"\x00" + b"\x7f" * 300 + b"\x00") == []  # longer than any request
    # nothing of it ran or was kept: seq 2 is still new
    r = raw.one(gpio(2))
    assert (r.seq, r.status) == (2, 0)


def test_F7_undecodable_message_answered_malformed_and_not_kept(raw):
    raw.hello(1, 14)
    r = raw.send_msg(b"\xff\xff\xff", want=1)              # CRC fine, not protobuf
    resp = pb.Response()
    resp.ParseFromString(r[0])
    assert (resp.seq, resp.status, resp.WhichOneof("result")) == (0, E_MALFORMED, None)
    # the seq is read before the field that breaks its bound (cs above 255)
    bad = req(2, spi=pb.SpiTransfer(cs=256, len=1)).SerializeToString()
    resp = pb.Response()
    resp.ParseFromString(raw.send_msg(bad, want=1)[0])
    assert (resp.seq, resp.status) == (2, E_MALFORMED)
    bad = req(3, hello=pb.Hello(version=1, session=14, max_data=70000)).SerializeToString()
    resp = pb.Response()
    resp.ParseFromString(raw.send_msg(bad, want=1)[0])
    assert (resp.seq, resp.status) == (3, E_MALFORMED)
    # not kept, no seq used: seq 2 runs now
    r = raw.one(gpio(2))
    assert (r.seq, r.status) == (2, 0)


# ---------------------------------------------------------------- 2. session
def test_S1_no_session_before_hello(raw):
    r = raw.one(gpio(5))
    assert (r.seq, r.status, r.WhichOneof("result")) == (5, E_NO_SESSION, None)
    # not kept: the same seq after hello is a new request
    h = raw.hello(4, 21)
    assert h.status == 0
    assert raw.one(gpio(5)).status == 0


def test_S2_new_session_runs_whatever_its_seq(raw):
    raw.hello(1000, 31)
    assert raw.one(gpio(1001)).status == 0
    h = raw.hello(5, 32)                           # far behind, but a new session
    assert (h.seq, h.status, h.WhichOneof("result")) == (5, 0, "hello")
    assert raw.one(gpio(6)).status == 0
    # the same session id again with an older seq is an ordinary, stale request (S3, Q4)
    assert raw.send(req(3, hello=pb.Hello(version=1, session=32, max_data=128))) == []


def test_S3_hello_inside_session_runs_again(raw):
    raw.hello(10, 41)
    h = raw.hello(11, 41, max_data=16)
    assert (h.status, h.hello.max_data) == (0, 16)
    r = raw.one(req(12, spi=pb.SpiTransfer(cs=0, len=32, read=True)))
    assert (r.status, r.WhichOneof("result")) == (E_TOO_LONG, None)


def test_S4_version_refused_no_session_started(raw):
    h = raw.hello(1, 51, version=2)
    assert (h.status, h.WhichOneof("result")) == (E_VERSION, "hello")
    assert (h.hello.version, h.hello.max_data, h.hello.caps) == (1, 128, CAPS)
    assert raw.one(gpio(2)).status == E_NO_SESSION
    assert raw.hello(1, 51, version=0).status == E_VERSION     # version left out


def test_S4_version_refused_inside_a_session_which_lives_on(raw):
    raw.hello(1, 52)
    raw.bytes_in.clear()
    h = raw.one(req(2, hello=pb.Hello(version=2, session=52, max_data=8)))
    assert (h.seq, h.status, h.WhichOneof("result")) == (2, E_VERSION, "hello")
    assert (h.hello.version, h.hello.max_data) == (1, 128)
    first = bytes(raw.bytes_in)
    raw.bytes_in.clear()
    assert raw.one(req(2, hello=pb.Hello(version=2, session=52))).status == E_VERSION
    assert bytes(raw.bytes_in) == first            # kept (Q2)
    r = raw.one(req(3, spi=pb.SpiTransfer(cs=0, len=128, read=True)))   # still 128, not 8
    assert (r.status, len(r.data)) == (0, 128)


def test_S4_client_reports_the_refusal(device):
    b = Bridge(device.pty, answer_s=ANSWER_S)
    with pytest.raises(BridgeError) as e:
        b.hello(version=2)
    assert e.value.status == E_VERSION and b.version == 1
    b.close()


def test_S5_max_data_is_the_smaller_limit(raw):
    h = raw.hello(1, 61, max_data=16)
    assert h.hello.max_data == 16
    r = raw.one(req(2, spi=pb.SpiTransfer(cs=0, len=32, read=True)))
    assert (r.status, r.WhichOneof("result")) == (E_TOO_LONG, None)
    r = raw.one(req(3, spi=pb.SpiTransfer(cs=0, len=16, read=True)))
    assert (r.status, len(r.data)) == (0, 16)
    assert raw.hello(4, 62, max_data=0).hello.max_data == 128
    assert raw.hello(5, 63, max_data=1000).hello.max_data == 128


def test_S5_client_keeps_to_max_data(device):
    b = Bridge(device.pty, answer_s=ANSWER_S, max_data=16)
    assert b.hello().max_data == 16
    rx = b.spi_transfer(0, bytes([0x01, 0x1F]) + bytes(38))       # 3 pieces of at most 16
    assert rx[3] == 2 and rx[4:] == bytes(36)
    assert b.stats["requests"] == 1 + 3
    b.close()


def test_S5_caps_are_what_runs(raw):
    h = raw.hello(1, 71)
    assert h.hello.caps == CAPS
    s = 2
    absent = [dict(i2c=pb.I2cWriteRead(addr=0x50, read_len=1)),
              dict(reg_read=pb.RegRead(offset=4)), dict(reg_read=pb.RegRead(offset=4, wide=True)),
              dict(reg_write=pb.RegWrite(offset=4, value=1)),
              dict(reg_write=pb.RegWrite(offset=4, value=1, wide=True))]
    for op in absent:
        assert raw.one(req(s, **op)).status == E_UNSUPPORTED, op
        s += 1
    present = [dict(spi=pb.SpiTransfer(cs=0, len=1)), dict(gpio_set=pb.GpioSet(line=1)),
               dict(wait_irq=pb.WaitIrq(line=0)), dict(time=pb.Time()), dict(delay=pb.Delay(ms=1))]
    for op in present:
        assert raw.one(req(s, **op)).status in (0, E_TIMEOUT), op
        s += 1


# ---------------------------------------------------------------- 3. sequence numbers
@sim_only
def test_Q2_retry_answered_from_the_kept_answer_not_run_again(raw):
    raw.hello(1, 81)
    t0 = raw.one(req(2, time=pb.Time())).now_ms
    raw.bytes_in.clear()
    d = req(3, delay=pb.Delay(ms=7))
    assert raw.one(d).status == 0
    first = bytes(raw.bytes_in)
    for _ in range(3):
        raw.bytes_in.clear()
        assert raw.one(d).seq == 3
        assert bytes(raw.bytes_in) == first
    # contents do not matter, only the seq: the kept answer of the delay again
    assert raw.one(req(3, delay=pb.Delay(ms=1000))).seq == 3
    # the simulator's clock moves only with Delay/WaitIrq: the delay ran once
    assert raw.one(req(4, time=pb.Time())).now_ms - t0 == 7


def test_Q2_only_the_last_answer_is_kept(raw):
    raw.hello(1, 82)
    assert raw.one(req(2, time=pb.Time())).WhichOneof("result") == "now_ms"
    assert raw.one(gpio(3)).WhichOneof("result") is None
    assert raw.send(req(2, time=pb.Time())) == []          # older than the last: stale (Q4)


def test_Q3_gaps_run(raw):
    raw.hello(1, 83)
    assert raw.one(gpio(9)).status == 0
    r = raw.one(req(9 + 0x7FFFFFFF, time=pb.Time()))        # the far edge of "ahead"
    assert (r.status, r.WhichOneof("result")) == (0, "now_ms")


def test_Q4_older_requests_are_ignored(raw):
    raw.hello(100, 84)
    assert raw.one(gpio(101)).status == 0
    assert raw.send(gpio(100)) == []
    assert raw.send(gpio(101 - 0x7FFFFFFF)) == []
    assert raw.send(gpio(101 + 0x80000000)) == []            # 2^31 ahead is behind
    assert raw.one(gpio(102)).status == 0


def test_Q1_sequence_numbers_wrap(raw):
    raw.hello(0xFFFFFFFF, 85)
    r = raw.one(gpio(0))
    assert (r.seq, r.status) == (0, 0)
    assert raw.send(gpio(0xFFFFFFFF)) == []


def test_Q6_unsupported_and_failed_answers_are_kept(raw):
    raw.hello(1, 86)
    raw.bytes_in.clear()
    r = raw.one(req(2))                                        # no operation (O9)
    assert r.status == E_UNSUPPORTED
    first = bytes(raw.bytes_in)
    raw.bytes_in.clear()
    raw.one(req(2))
    assert bytes(raw.bytes_in) == first
    r = raw.one(req(3, delay=pb.Delay(ms=60001)))              # refused by T1: kept too
    assert r.status == E_ARG
    assert raw.one(req(3, delay=pb.Delay(ms=1))).status == E_ARG


# ---------------------------------------------------------------- 4. operations
def test_O2_spi(raw):
    raw.hello(1, 91)
    # TSP1 register read of the IRQ mask (0x1F): 2 after boot
    r = raw.one(req(2, spi=pb.SpiTransfer(cs=0, len=7, tx=bytes([1, 0x1F]) + bytes(5), read=True)))
    assert (r.status, r.data) == (0, bytes([0, 0, 0, 2, 0, 0, 0]))
    r = raw.one(req(3, spi=pb.SpiTransfer(cs=0, len=4, tx=b"\x01\x02\x03")))
    assert (r.status, r.WhichOneof("result")) == (E_MALFORMED, None)
    r = raw.one(req(4, spi=pb.SpiTransfer(cs=0, len=3)))        # zeros out, nothing back
    assert (r.status, r.WhichOneof("result")) == (0, None)
    r = raw.one(req(5, spi=pb.SpiTransfer(cs=0, len=0)))        # nothing held: nothing to do
    assert r.status == 0
    # one register read in two pieces held together by keep_cs, then the same split but
    # released in the middle by a zero-length transfer: the second piece starts a new access
    r1 = raw.one(req(6, spi=pb.SpiTransfer(cs=0, len=3, tx=bytes([1, 0x1F, 0]), read=True,
                                           keep_cs=True)))
    r2 = raw.one(req(7, spi=pb.SpiTransfer(cs=0, len=4, read=True)))
    assert r1.data + r2.data == bytes([0, 0, 0, 2, 0, 0, 0])


def test_O2_client_splits_long_transfers(bridge):
    rx = bridge.spi_transfer(0, bytes([0x01, 0x1F]) + bytes(4094))
    assert len(rx) == 4096 and rx[3] == 2 and rx[4:] == bytes(4092)
    assert bridge.stats["requests"] == 1 + 32


def test_O5_wait_irq(bridge):
    from accel.bridge import Tsp1
    assert bridge.wait_irq(0, 0) is True       # ASYNC_READY waits after boot: INTB asserted
    t = Tsp1(bridge)
    t.drain()
    assert t.async_msgs == [(0xA001, b"")]
    before = bridge.now_ms()
    assert bridge.wait_irq(0, 5) is False
    if TARGET == "sim":
        assert bridge.now_ms() - before == 5
    else:
        assert bridge.now_ms() - before >= 5


def test_T1_wait_bounds(raw):
    raw.hello(1, 92)
    t = time.monotonic()
    assert raw.one(req(2, delay=pb.Delay(ms=60001))).status == E_ARG
    assert raw.one(req(3, wait_irq=pb.WaitIrq(line=0, timeout_ms=0xFFFFFFFF))).status == E_ARG
    assert time.monotonic() - t < 4                  # not 60 s


@sim_only
def test_T1_client_splits_long_waits(bridge):
    from accel.bridge import Tsp1
    Tsp1(bridge).drain()                               # INTB released
    t0 = bridge.now_ms()
    n0 = bridge.stats["requests"]
    bridge.delay(150000)
    assert bridge.now_ms() - t0 == 150000
    assert bridge.stats["requests"] - n0 == 3 + 1      # 60000 + 60000 + 30000, then the time
    t0 = bridge.now_ms()
    assert bridge.wait_irq(0, 130000) is False
    assert bridge.now_ms() - t0 == 130000


def test_O7_time_moves_forward(bridge):
    a = bridge.now_ms()
    bridge.delay(3)
    assert bridge.now_ms() - a >= 3


def test_O8_register_value_bound(raw):
    raw.hello(1, 93)
    r = raw.one(req(2, reg_write=pb.RegWrite(offset=0, value=1 << 32)))
    assert r.status == E_ARG


def test_O9_unknown_operation_from_a_newer_host(raw):
    raw.hello(1, 94)
    # field 11, the next operation a later version might add (a message: wire type 2), and
    # field 300 (a two-byte tag): skipped by the decoder, no operation left
    msg = req(2).SerializeToString() + bytes([11 << 3 | 2, 2, 0x08, 0x01])
    msg += bytes([(300 << 3 | 0) & 0x7F | 0x80, (300 << 3) >> 7, 0x05])
    resp = pb.Response()
    resp.ParseFromString(raw.send_msg(msg, want=1)[0])
    assert (resp.seq, resp.status) == (2, E_UNSUPPORTED)
