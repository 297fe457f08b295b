"""A TSP1 behind a bridge device: echo and network info, written from the frame and bus formats
documented in accel.h's tsp1 section (the same defaults as the C driver):

  frame:  PREAMBLE(2) ID(2) N_BYTES(2) TID(2) PAYLOAD(n) CRC-32(4), little-endian fields, a
          command starts CC 55 (0x55CC), a response 55 CC; the CRC covers bytes 0..7+n
  bus:    one chip-select frame per access: register read 01 REG DUMMY + 4 bytes LE; buffer
          write 04 INDEX data...; buffer read 03 INDEX DUMMY data...; buffer 0 takes commands,
          buffer 1 holds responses, its fill level in bits 15:0 of register 0x20 + 2*1

This is a convenience for test benches (one command in flight, no error-state handling), not
the C driver's session layer.
"""
import struct

from .link import BridgeError, crc32, E_MALFORMED, E_TIMEOUT

CMD_PREAMBLE, RSP_PREAMBLE = 0x55CC, 0xCC55
ECHO, NN_INFO = 0x0010, 0x0080
R_DATA, R_NN_INFO = 0x8000, 0x8001
OP_REG_READ, OP_BUF_READ, OP_BUF_WRITE, DUMMY = 0x01, 0x03, 0x04, 1
REG_BUF_STATUS_RSP = 0x20 + 2 * 1
BUF_CMD, BUF_RSP = 0, 1
STATES = ("stopped", "running", "paused", "finished")


def encode_frame(preamble, fid, tid, payload=b""):
    head = struct.pack("<HHHH", preamble, fid, len(payload), tid) + bytes(payload)
    return head + struct.pack("<I", crc32(head))


def decode_frames(data):
    """Split a response buffer's bytes into (id, tid, payload) frames; MALFORMED on a bad one."""
    out, pos = [], 0
    while pos < len(data):
        if len(data) - pos < 12:
            raise BridgeError(E_MALFORMED, 0, "tsp1: %d stray bytes" % (len(data) - pos))
        pre, fid, n, tid = struct.unpack_from("<HHHH", data, pos)
        end = pos + 8 + n
        if pre != RSP_PREAMBLE or end + 4 > len(data):
            raise BridgeError(E_MALFORMED, 0, "tsp1: not a response frame")
        if crc32(data[pos:end]) != struct.unpack_from("<I", data, end)[0]:
            raise BridgeError(E_MALFORMED, 0, "tsp1: frame CRC")
        out.append((fid, tid, bytes(data[pos + 8:end])))
        pos = end + 4
    return out


class Tsp1:
    """TSP1 on chip select cs of a Bridge; INTB on interrupt line intb."""

    def __init__(self, bridge, cs=0, intb=0):
        self.b = bridge
        self.cs = cs
        self.intb = intb
        self.tid = 0
        self.async_msgs = []   # ASYNC_* frames seen (id, payload), e.g. ASYNC_READY after boot

    def reg_read(self, reg):
        rx = self.b.spi_transfer(self.cs, bytes([OP_REG_READ, reg]) + bytes(DUMMY + 4))
        return struct.unpack("<I", rx[2 + DUMMY:])[0]

    def take_responses(self):
        """Everything in the response buffer, as frames."""
        fill = self.reg_read(REG_BUF_STATUS_RSP) & 0xFFFF
        if fill == 0:
            return []
        rx = self.b.spi_transfer(self.cs, bytes([OP_BUF_READ, BUF_RSP]) + bytes(DUMMY + fill))
        return decode_frames(rx[2 + DUMMY:])

    def drain(self):
        """Take what waits from before (an ASYNC_READY after boot, an earlier session's)."""
        for fid, tid, payload in self.take_responses():
            if fid >= 0xA000:
                self.async_msgs.append((fid, payload))

    def command(self, fid, payload=b"", timeout_ms=1000):
        """Send one command, wait for INTB, return (response id, payload) of its answer. The
        answer must be the only frame with its TID; async frames are set aside."""
        self.tid = (self.tid + 1) & 0x7FFF
        tid = self.tid
        self.b.spi_transfer(self.cs, bytes([OP_BUF_WRITE, BUF_CMD]) +
                            encode_frame(CMD_PREAMBLE, fid, tid, payload), read=False)
        got = []
        waited = 0
        while not got:
            if not self.b.wait_irq(self.intb, 10):
                waited += 10
                if waited >= timeout_ms:
                    raise BridgeError(E_TIMEOUT, 0, "tsp1: no answer to 0x%04x" % fid)
            for rid, rtid, rp in self.take_responses():
                if rid >= 0xA000:
                    self.async_msgs.append((rid, rp))
                elif rtid != tid:
                    raise BridgeError(E_MALFORMED, 0,
                                      "tsp1: answer for TID %d while waiting for %d" % (rtid, tid))
                else:
                    got.append((rid, rp))
        if len(got) != 1:
            raise BridgeError(E_MALFORMED, 0, "tsp1: %d answers to one command" % len(got))
        return got[0]

    def echo(self, data):
        """ECHO: the device returns the payload in a DATA response."""
        rid, rp = self.command(ECHO, bytes(data))
        if rid != R_DATA:
            raise BridgeError(E_MALFORMED, 0, "tsp1: echo answered 0x%04x" % rid)
        return rp

    def nn_info(self, slot):
        """NN_INFO of one slot: a dict, or None for an empty slot."""
        rid, p = self.command(NN_INFO, struct.pack("<I", slot))
        if rid != R_NN_INFO or len(p) != 8 or p[0] > 1 or p[7] > 3:
            raise BridgeError(E_MALFORMED, 0, "tsp1: not an NN_INFO answer")
        if not p[0]:
            return None
        return dict(idx=p[1], total=p[2], n_in=p[3], n_out=p[4], buf_in0=p[5], buf_out0=p[6],
                    state=STATES[p[7]])

    def info(self):
        """NN_INFO of every slot up to the first empty one."""
        nets = []
        for slot in range(32):
            n = self.nn_info(slot)
            if n is None:
                break
            nets.append(n)
        return nets
