"""accel.bridge.link: framing and session of the accel bridge protocol (ports/bridge/PROTOCOL.md),
host side.

Rule names (F1, Q5, ...) refer to PROTOCOL.md. The message classes come from
accel_bridge_pb2, which protoc generates from ports/bridge/accel_bridge.proto when this module
is first imported (see load_pb2); nothing generated is kept in the repository.
"""
import hashlib
import importlib.util
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib

VERSION = 1
MAX_DATA = 128
MAX_WAIT_MS = 60000                      # T1
MAX_REQUEST_BODY = 151 + 4               # F4
MAX_RESPONSE_BODY = 149 + 4

CAP_NAMES = ("spi", "i2c", "gpio_set", "wait_irq", "time", "delay",
             "reg_read32", "reg_write32", "reg_read64", "reg_write64")      # S5

STATUS_NAMES = {
    0: "ACCEL_OK", -3: "ACCEL_E_TOO_LONG", -9: "ACCEL_E_TIMEOUT", -10: "ACCEL_E_UNSUPPORTED",
    -11: "ACCEL_E_IO", -12: "ACCEL_E_ARG", -16: "ACCEL_E_MALFORMED",
    -97: "ACCEL_BRIDGE_E_NO_SESSION", -98: "ACCEL_BRIDGE_E_VERSION",
    -99: "ACCEL_BRIDGE_E_LINK_TIMEOUT",
}
OK, E_TOO_LONG, E_TIMEOUT, E_UNSUPPORTED, E_ARG, E_MALFORMED = 0, -3, -9, -10, -12, -16
E_NO_SESSION, E_VERSION, E_LINK_TIMEOUT = -97, -98, -99


# ------------------------------------------------------------------ generated messages
# The one .proto: installed beside this module (setup.py copies it), else the checkout's
_HERE = os.path.dirname(os.path.abspath(__file__))
_PROTO = os.path.join(_HERE, "accel_bridge.proto")
if not os.path.exists(_PROTO):
    _PROTO = os.path.join(_HERE, os.pardir, os.pardir, os.pardir, "bridge", "accel_bridge.proto")


def load_pb2(proto=_PROTO, out_dir=None):
    """Import accel_bridge_pb2, made by protoc from the one .proto.

    out_dir: where to put it; default $ACCEL_BRIDGE_PB2_DIR, else a directory in the temporary
    directory named after the .proto's hash (so an edited .proto is generated again)."""
    proto = os.path.normpath(proto)
    with open(proto, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    if out_dir is None:
        out_dir = os.environ.get("ACCEL_BRIDGE_PB2_DIR") or os.path.join(
            tempfile.gettempdir(), "accel_bridge_pb2-%d-%s" % (os.getuid(), digest))
    path = os.path.join(out_dir, "accel_bridge_pb2.py")
    stamp = os.path.join(out_dir, "accel_bridge_pb2.sha")
    fresh = False
    try:
        with open(stamp) as f:
            fresh = f.read().strip() == digest and os.path.exists(path)
    except OSError:
        pass
    if not fresh:
        os.makedirs(out_dir, exist_ok=True)
        tmp = tempfile.mkdtemp(dir=out_dir)
        try:
            subprocess.run(["protoc", "-I" + os.path.dirname(proto), "--python_out=" + tmp,
                            os.path.basename(proto)], check=True)
        except FileNotFoundError:
            os.rmdir(tmp)
            raise ImportError("accel.bridge needs protoc to make its message classes: "
                              "protobuf-compiler (Debian) or protoc on PATH") from None
        os.replace(os.path.join(tmp, "accel_bridge_pb2.py"), path)
        os.rmdir(tmp)
        with open(stamp, "w") as f:
            f.write(digest + "\n")
    spec = importlib.util.spec_from_file_location("accel_bridge_pb2", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("accel_bridge_pb2", mod)
    try:
        spec.loader.exec_module(mod)
    except ImportError as e:
        # the generated module imports google.protobuf: name what provides it
        if getattr(e, "name", "") and e.name.startswith("google"):
            raise ImportError("accel.bridge needs protobuf's Python runtime: python3-protobuf "
                              "(Debian) or protobuf (pip); %s" % e) from None
        raise
    return mod


pb = load_pb2()


# ------------------------------------------------------------------ framing (F1-F6)
def crc32(data):
    """F2: CRC-32/ISO-HDLC (zlib's)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def cobs_encode(body):
    """F3: blocks of up to 254 non-zero bytes, each after a code byte = run + 1."""
    out = bytearray()
    pos, n = 0, len(body)
    while True:
        end = pos
        while end < n and body[end] != 0 and end - pos < 254:
            end += 1
        run = end - pos
        out.append(run + 1)
        out += body[pos:end]
        pos = end
        if pos == n:
            break                    # the last block: its zero is implied away
        if run == 254:
            continue                 # a full block implies no zero
        pos += 1                     # the zero that ended the run
        if pos == n:
            out.append(1)            # the body ended with that zero: an empty block
            break
    return bytes(out)


def frame(message):
    """F1: 0x00, COBS(message || CRC-32 little-endian), 0x00."""
    body = bytes(message) + struct.pack("<I", crc32(message))
    return b"\x00" + cobs_encode(body) + b"\x00"


class FrameError(Exception):
    pass


def cobs_decode(data):
    """Decode the bytes between two delimiters (F3); FrameError for a block cut short."""
    out = bytearray()
    i, n = 0, len(data)
    code = 0
    while i < n:
        if code not in (0, 0xFF):
            out.append(0)            # the previous block's zero, now that another follows
        code = data[i]
        if code == 0:
            raise FrameError("zero inside a frame")
        if i + code > n:
            raise FrameError("block cut short")
        out += data[i + 1:i + code]
        i += code
    return bytes(out)


class Framer:
    """Streaming receiver: put bytes in, get whole messages out (F5, F6)."""

    def __init__(self, cap=MAX_RESPONSE_BODY):
        self.cap = cap
        self.buf = bytearray()
        self.crc_errors = 0
        self.frame_errors = 0

    def feed(self, data):
        """Return the messages of the frames that ended in data (CRC checked and stripped)."""
        msgs = []
        for b in data:
            if b != 0:
                if len(self.buf) <= 2 * self.cap:    # longer is dropped at its end anyway
                    self.buf.append(b)
                continue
            raw, self.buf = bytes(self.buf), bytearray()
            if not raw:
                continue                             # an empty frame (F5)
            try:
                body = cobs_decode(raw)
            except FrameError:
                self.frame_errors += 1
                continue
            if len(body) > self.cap or len(body) < 4:
                self.frame_errors += 1
                continue
            msg, crc = body[:-4], struct.unpack("<I", body[-4:])[0]
            if crc32(msg) != crc:
                self.crc_errors += 1
                continue
            msgs.append(msg)
        return msgs


# ------------------------------------------------------------------ transports
class SerialTransport:
    """A serial port (or a pty) through pyserial, raw, 8N1."""

    def __init__(self, path, baud=115200):
        import serial  # Debian's python3-serial
        self.port = serial.Serial(path, baud, timeout=0)

    def write(self, data):
        self.port.write(data)
        self.port.flush()

    def read(self, timeout):
        """Bytes that arrive within timeout seconds (at least one, or b"" when none came)."""
        self.port.timeout = max(timeout, 0)
        first = self.port.read(1)
        if not first:
            return b""
        self.port.timeout = 0
        return first + self.port.read(4096)

    def close(self):
        self.port.close()


# ------------------------------------------------------------------ errors
def status_name(st):
    return STATUS_NAMES.get(st, "status %d" % st)


class BridgeError(Exception):
    """A request that did not succeed: status (an accel_status) and the device port's code."""

    def __init__(self, status, port_error=0, what=""):
        self.status = status
        self.port_error = port_error
        msg = "%s%s" % (what + ": " if what else "", status_name(status))
        if port_error:
            msg += " (port error %d)" % port_error
        super().__init__(msg)


class LinkTimeout(BridgeError):
    """No answer after every send (Q5): the request may or may not have run."""

    def __init__(self, what=""):
        super().__init__(E_LINK_TIMEOUT, 0, what)


# ------------------------------------------------------------------ session
class Bridge:
    """The host side of one session with a bridge device.

    port: a serial device path (opened with pyserial at baud), or a transport object with
    write(bytes) and read(timeout_seconds) -> bytes.
    answer_s, max_sends: the retry rule (Q5): wait answer_s plus the operation's own time for
    each send, at most max_sends sends. capture: a binary file to record the session in
    (section 8 of PROTOCOL.md)."""

    def __init__(self, port, baud=115200, answer_s=0.2, max_sends=5, session=None,
                 max_data=MAX_DATA, capture=None):
        self.link = SerialTransport(port, baud) if isinstance(port, str) else port
        self.answer_s = answer_s
        self.max_sends = max_sends
        self.session = random.getrandbits(32) if session is None else session & 0xFFFFFFFF
        self.seq = self.session            # any start works (S2)
        self.want_max_data = max_data
        self.max_data = max_data
        self.caps = 0
        self.version = None
        self.need_hello = True
        self.cs_dirty = None               # a chip select the device may still hold (O2)
        self.rx = Framer()
        self.stats = dict(requests=0, sends=0, retries=0, stale=0, decode_errors=0,
                          link_timeouts=0, restarts=0)
        self.capture = capture
        self.t0 = time.monotonic()
        if capture is not None:
            info = pb.CaptureInfo(magic=0x4C434341, version=VERSION)
            capture.write(_record(1, info.SerializeToString()))

    def close(self):
        if hasattr(self.link, "close"):
            self.link.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- one request, with retries (Q1, Q5)
    def exchange(self, req, op_ms=0):
        """Send req (its seq is set here) until its answer comes: the Response, or
        LinkTimeout."""
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        req.seq = self.seq
        wire = frame(req.SerializeToString())
        at = int((time.monotonic() - self.t0) * 1000)
        wait = self.answer_s + op_ms / 1000.0
        rsp, sends = None, 0
        self.stats["requests"] += 1
        for sends in range(1, self.max_sends + 1):
            if sends > 1:
                self.stats["retries"] += 1
            self.stats["sends"] += 1
            self.link.write(wire)
            rsp = self._await(req.seq, time.monotonic() + wait)
            if rsp is not None:
                break
        local = rsp is None
        if local:
            self.stats["link_timeouts"] += 1
            rsp = pb.Response(seq=req.seq, status=E_LINK_TIMEOUT)
        if self.capture is not None:
            ex = pb.Exchange(request=req, response=rsp, host_ms=at & 0xFFFFFFFF, sends=sends,
                             local=local)
            self.capture.write(_record(2, ex.SerializeToString()))
        if local:
            raise LinkTimeout(req.WhichOneof("op") or "request")
        return rsp

    def _await(self, seq, deadline):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            for msg in self.rx.feed(self.link.read(left)):
                rsp = pb.Response()
                try:
                    rsp.ParseFromString(msg)
                except Exception:
                    self.stats["decode_errors"] += 1
                    continue
                if rsp.seq != seq:
                    self.stats["stale"] += 1   # a late answer to an earlier request
                    continue
                return rsp

    def call(self, req, want=None, op_ms=0):
        """One operation: the Response when its status is ACCEL_OK, else BridgeError."""
        if self.need_hello and req.WhichOneof("op") != "hello":
            self.hello()
        rsp = self.exchange(req, op_ms)
        what = req.WhichOneof("op") or "request"
        if rsp.status == E_NO_SESSION:     # S1: the device restarted
            self.stats["restarts"] += 1
            self.need_hello = True
        if rsp.status > 0:
            raise BridgeError(E_MALFORMED, 0, what + ": positive status")
        if rsp.status != OK:
            raise BridgeError(rsp.status, rsp.port_error, what)
        if want is not None and rsp.WhichOneof("result") != want:
            raise BridgeError(E_MALFORMED, 0, what + ": no " + want + " in the answer")
        return rsp

    # -- operations (section 4)
    def hello(self, version=VERSION):
        """O1: start the session; returns the device's HelloInfo (version, max_data, caps)."""
        req = pb.Request(hello=pb.Hello(version=version, session=self.session,
                                        max_data=self.want_max_data))
        rsp = self.exchange(req)
        if rsp.WhichOneof("result") == "hello":
            self.version = rsp.hello.version
        if rsp.status != OK:
            raise BridgeError(rsp.status, rsp.port_error, "hello")
        info = rsp.hello
        if rsp.WhichOneof("result") != "hello" or info.max_data == 0:
            raise BridgeError(E_MALFORMED, 0, "hello: no usable HelloInfo")
        if info.version != VERSION:
            raise BridgeError(E_VERSION, 0, "hello: device speaks %d" % info.version)
        self.max_data = min(info.max_data, self.want_max_data or MAX_DATA)
        self.caps = info.caps
        self.need_hello = False
        return info

    def cap_names(self):
        return [n for i, n in enumerate(CAP_NAMES) if self.caps >> i & 1]

    def spi_transfer(self, cs, tx=None, length=None, read=True, keep_cs=False):
        """O2: one bus transaction of len(tx) (or length) bytes; the bytes clocked in (or
        None without read). Longer than max_data: pieces chained with keep_cs."""
        if self.need_hello:
            self.hello()
        if tx is not None:
            tx = bytes(tx)
            length = len(tx) if length is None else length
            if len(tx) != length:
                raise BridgeError(E_ARG, 0, "spi: tx is not length bytes")
        if length is None:
            raise BridgeError(E_ARG, 0, "spi: no length")
        if self.cs_dirty is not None:      # a given-up request may have left it asserted
            self.call(pb.Request(spi=pb.SpiTransfer(cs=self.cs_dirty, len=0)))
            self.cs_dirty = None
        rx = bytearray()
        pos = 0
        while True:
            n = min(length - pos, self.max_data)
            s = pb.SpiTransfer(cs=cs, len=n, read=read,
                               keep_cs=pos + n < length or keep_cs)
            if tx is not None and n:
                s.tx = tx[pos:pos + n]
            try:
                rsp = self.call(pb.Request(spi=s), "data" if read else None)
            except BridgeError as e:
                if isinstance(e, LinkTimeout) or e.status == E_NO_SESSION:
                    self.cs_dirty = cs
                raise
            if read:
                if len(rsp.data) != n:
                    self.cs_dirty = cs
                    raise BridgeError(E_MALFORMED, 0, "spi: %d bytes for %d" % (len(rsp.data), n))
                rx += rsp.data
            pos += n
            if pos >= length:
                break
        return bytes(rx) if read else None

    def i2c_write_read(self, addr, write=b"", read_len=0):
        """O3: write, repeated start, read read_len bytes; returns them."""
        rsp = self.call(pb.Request(i2c=pb.I2cWriteRead(addr=addr, write=bytes(write),
                                                       read_len=read_len)), "data")
        if len(rsp.data) != read_len:
            raise BridgeError(E_MALFORMED, 0, "i2c: %d bytes for %d" % (len(rsp.data), read_len))
        return rsp.data

    def gpio(self, line, level):
        """O4: drive GPIO line to level."""
        self.call(pb.Request(gpio_set=pb.GpioSet(line=line, level=level)))

    def wait_irq(self, line, timeout_ms):
        """O5: True once the line is asserted, False after timeout_ms (pieces of at most
        MAX_WAIT_MS, T1)."""
        while True:
            part = min(timeout_ms, MAX_WAIT_MS)
            try:
                self.call(pb.Request(wait_irq=pb.WaitIrq(line=line, timeout_ms=part)),
                          op_ms=part)
                return True
            except BridgeError as e:
                if e.status != E_TIMEOUT:
                    raise
            timeout_ms -= part
            if timeout_ms <= 0:
                return False

    def delay(self, ms):
        """O6: the device waits ms milliseconds (pieces of at most MAX_WAIT_MS, T1)."""
        while True:
            part = min(ms, MAX_WAIT_MS)
            self.call(pb.Request(delay=pb.Delay(ms=part)), op_ms=part)
            ms -= part
            if ms <= 0:
                return

    def now_ms(self):
        """O7: the device's clock."""
        return self.call(pb.Request(time=pb.Time()), "now_ms").now_ms

    def reg_read(self, offset, wide=False):
        """O8: a 32-bit (or, wide, 64-bit) register."""
        v = self.call(pb.Request(reg_read=pb.RegRead(offset=offset, wide=wide)), "value").value
        if not wide and v > 0xFFFFFFFF:
            raise BridgeError(E_MALFORMED, 0, "reg_read: 32-bit register above 32 bits")
        return v

    def reg_write(self, offset, value, wide=False):
        """O8."""
        self.call(pb.Request(reg_write=pb.RegWrite(offset=offset, value=value, wide=wide)))


# ------------------------------------------------------------------ captures (section 8)
def _varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def _record(field, data):
    return _varint(field << 3 | 2) + _varint(len(data)) + data


def read_capture(data):
    """A capture file's bytes -> (CaptureInfo, [Exchange, ...])."""
    cap = pb.Capture()
    cap.ParseFromString(data)
    return cap.info, list(cap.exchange)
