"""accel.bridge: a Python host for the accel bridge protocol (ports/bridge/PROTOCOL.md).

    from accel.bridge import Bridge
    with Bridge("/dev/ttyACM0", 115200) as b:
        print(b.hello(), b.now_ms())

Needs Debian's python3-protobuf and python3-serial, and protoc (protobuf-compiler): the message
classes are generated from ports/bridge/accel_bridge.proto on first import. Its old name,
`accel_bridge`, still imports for one release (0.1.x); it goes in 0.2.0.
"""
from .link import (Bridge, BridgeError, LinkTimeout, SerialTransport, Framer, frame, crc32,
                   cobs_encode, cobs_decode, read_capture, status_name, pb, CAP_NAMES)
from .tsp1 import Tsp1

__all__ = ["Bridge", "BridgeError", "LinkTimeout", "SerialTransport", "Framer", "frame", "crc32",
           "cobs_encode", "cobs_decode", "read_capture", "status_name", "pb", "CAP_NAMES", "Tsp1"]
