#!/usr/bin/env python3
"""Independent generator of the TSP1 frame vectors in frames.h: builds each frame by hand from
the seed and RULINGS (little-endian fields, CC 55 / 55 CC preambles) and takes the CRC from
python zlib.crc32 (CRC-32/ISO-HDLC), not from accel.h. Run: python3 gen_frames.py > frames.h"""
import zlib, struct
def frame(pre, id_, tid, payload=b''):
    b = bytes(pre) + struct.pack('<HHH', id_, len(payload), tid) + payload
    return b + struct.pack('<I', zlib.crc32(b))
C = [0xCC,0x55]; R=[0x55,0xCC]
vecs = [
 ('echo_hi', C, 0x0010, 1, b'hi'),
 ('echo_empty', C, 0x0010, 0, b''),
 ('su_cancel', C, 0x0022, 2, b''),
 ('su_finish', C, 0x0023, 3, b''),
 ('reboot', C, 0x0050, 4, b''),
 ('deep_sleep', C, 0x0060, 5, b''),
 ('nn_info3', C, 0x0080, 7, bytes([3,0,0,0])),
 ('nn_start5', C, 0x0081, 8, bytes([5,0,0,0])),
 ('nn_stop', C, 0x0082, 9, bytes([1,0,0,0x80])),
 ('nn_pause', C, 0x0083, 10, bytes([2,0,0,0])),
 ('nn_finish', C, 0x0084, 11, bytes([0xFF,0xFF,0xFF,0xFF])),
 ('clear_error', C, 0x7FFF, 0xFFFE, b''),
 ('r_data_hi', R, 0x8000, 1, b'hi'),
 ('r_nn_info', R, 0x8001, 7, bytes([1,3,4,2,1,5,7,1])),
 ('r_err_arg', R, 0x9000, 9, b''),
 ('r_err_busy', R, 0x9001, 9, b''),
 ('r_err_len', R, 0x9002, 9, b''),
 ('r_err_mem', R, 0x9003, 9, bytes([0xDE,0xAD,0xBE,0xEF])),
 ('r_err_crypt', R, 0x9004, 9, b''),
 ('r_err_checksum', R, 0x9006, 9, b''),
 ('r_err_framing', R, 0x9007, 0xFFFF, b''),
 ('r_async_ready', R, 0xA001, 0, b''),
 ('r_async_ecc', R, 0xA002, 1, b''),
 ('r_async_npu', R, 0xA003, 2, b''),
 ('r_unknown_9005', R, 0x9005, 3, b'\x01'),
]
for name, pre, id_, tid, pl in vecs:
    f = frame(pre, id_, tid, pl)
    crc = zlib.crc32(f[:-4])
    print('/* %s: zlib.crc32 of bytes 0..%d = 0x%08X */' % (name, len(f)-5, crc))
    print('static const uint8_t v_%s[] = {%s};' % (name, ', '.join('0x%02X'%x for x in f)))
su = bytes(i & 0xFF for i in range(144))
f = frame(C, 0x0021, 0x1234, su)
print('/* secure_update tid 0x1234, payload bytes i & 0xFF for i < 144: zlib.crc32 = 0x%08X */' % zlib.crc32(f[:-4]))
print('static const uint8_t v_su_hdr[] = {%s};' % ', '.join('0x%02X'%x for x in f[:8]))
print('static const uint8_t v_su_crc[] = {%s};' % ', '.join('0x%02X'%x for x in f[-4:]))
