#!/usr/bin/env python3
"""Print the CRC-32/ISO-HDLC tables that accel.h embeds (nibble, 256-entry, slicing-by-8).

Run: python3 scripts/gen_crc32_tables.py > /tmp/t.txt, then paste between the
`crc32 tables` markers of accel.h. tests/test_common.c checks every table entry against a
bitwise recomputation, so a bad paste fails the tests.
"""
POLY = 0xEDB88320

def step(c, bits):
    for _ in range(bits):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    return c

nib = [step(i, 4) for i in range(16)]
t = [[step(i, 8) for i in range(256)]]
for k in range(1, 8):
    t.append([(t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF] for i in range(256)])

def emit(name, vals, per=6):
    print("static const uint32_t %s[%d] = {" % (name, len(vals)))
    for i in range(0, len(vals), per):
        print("    " + ", ".join("0x%08lXUL" % v for v in vals[i:i + per]) + ",")
    print("};")

print("#if ACCEL_CRC32_IMPL == ACCEL_CRC32_NIBBLE")
emit("accel__crc32_nibble", nib, 4)
print("#elif ACCEL_CRC32_IMPL == ACCEL_CRC32_TABLE256 || ACCEL_CRC32_IMPL == ACCEL_CRC32_SLICE8")
print("/* row 0 is the byte-at-a-time table; slicing-by-8 adds rows 1-7 */")
print("#if ACCEL_CRC32_IMPL == ACCEL_CRC32_SLICE8")
print("#define ACCEL__CRC32_ROWS 8")
print("#else")
print("#define ACCEL__CRC32_ROWS 1")
print("#endif")
print("static const uint32_t accel__crc32_t8[ACCEL__CRC32_ROWS][256] = {")
for k in range(8):
    if k == 1:
        print("#if ACCEL_CRC32_IMPL == ACCEL_CRC32_SLICE8")
    print("  {")
    for i in range(0, 256, 6):
        print("    " + ", ".join("0x%08lXUL" % v for v in t[k][i:i + 6]) + ",")
    print("  },")
print("#endif")
print("};")
print("#endif")
