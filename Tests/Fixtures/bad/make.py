#!/usr/bin/python3
"""Writes the bad-input fixtures in this directory (decoders must reject or
recover from each without crashing). Run: /usr/bin/python3 Tests/Fixtures/bad/make.py
Sources: p01 and v13 (derived from p01; CC-BY-2.0, danielbuechele) and p10
(Debian logo) from ../images; run ../reference/make_variants.py first.
"""
import os
import random
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "images")
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
import pngwriter  # noqa: E402


def read(name):
    with open(os.path.join(IMAGES, name), "rb") as f:
        return f.read()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def chunk_offsets(png):
    """(offset, type) of every chunk."""
    i, found = 8, []
    while i + 8 <= len(png):
        length, = struct.unpack(">I", png[i:i + 4])
        found.append((i, png[i + 4:i + 8]))
        i += 12 + length
    return found


def with_bad_crc(png, kind):
    offset = next(o for o, k in chunk_offsets(png) if k == kind)
    length, = struct.unpack(">I", png[offset:offset + 4])
    crc_at = offset + 8 + length
    data = bytearray(png)
    data[crc_at] ^= 0xFF
    return bytes(data)


def jpeg_with_size(jpeg, width, height):
    """The JPEG with its SOF0 frame size rewritten (header only: scan data kept short)."""
    at = jpeg.index(b"\xff\xc0")
    data = bytearray(jpeg)
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    sos = data.index(b"\xff\xda")
    return bytes(data[:sos + 200])


china = read("p01_china_640x427.jpg")
small_china = read("v13_china_orient1_120x80.jpg")  # keeps the cut-off files small
logo = read("p10_debianlogo_256x256_palette_trns.png")

write("empty.jpg", b"")
write("text.jpg", b"This is a text file that only pretends to be a JPEG.\n")
rng = random.Random(20240501)
noise = bytes(rng.randrange(256) for _ in range(4096))
assert not noise.startswith(b"\xff\xd8") and not noise.startswith(b"\x89PNG")
write("random.bin", noise)
write("truncated_header.jpg", china[:100])
write("truncated_scan.jpg", small_china[:len(small_china) * 60 // 100])
write("truncated.png", logo[:len(logo) * 60 // 100])
write("bad_crc_ihdr.png", with_bad_crc(logo, b"IHDR"))
write("bad_crc_idat.png", with_bad_crc(logo, b"IDAT"))
write("bomb_65500x65500.jpg", jpeg_with_size(small_china, 65500, 65500))
# A well-formed 100000x100000 header (correct CRC) followed by a token IDAT.
write("bomb_100000x100000.png", pngwriter.SIGNATURE + pngwriter.ihdr(100000, 100000, 8, 2)
      + pngwriter.chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + pngwriter.chunk(b"IEND", b""))
write("zero_0x0.png", pngwriter.SIGNATURE + pngwriter.ihdr(0, 0, 8, 2)
      + pngwriter.chunk(b"IDAT", zlib.compress(b"")) + pngwriter.chunk(b"IEND", b""))
# A genuine PNG under a JPEG name: the format comes from the magic bytes.
write("png_named.jpg", logo)
# The JPEG XL fixture with three random bytes changed (seed 7, the first
# draw): libjxl refuses it and prints JXL_FAILURE lines to stderr.
with open(os.path.join(HERE, "..", "formats", "china.jxl"), "rb") as f:
    damaged = bytearray(f.read())
draw = random.Random(7)
for _ in range(3):
    at = draw.randrange(10, len(damaged))
    damaged[at] = draw.randrange(256)
write("damaged.jxl", bytes(damaged))
# Not bad, only slow: a plain grey 10000x10000 PNG (100 MP, the default
# --max-pixels) of 300 KB that takes about a second to decode in a debug
# build, for the viewer's giving up on a decode (PXVIEW_DECODE_TIMEOUT_MS).
grey = zlib.compressobj(9)
row = b"\x00" + b"\x80" * 30000
idat = b"".join(grey.compress(row) for _ in range(10000)) + grey.flush()
write("slow_10000x10000.png", pngwriter.SIGNATURE + pngwriter.ihdr(10000, 10000, 8, 2)
      + pngwriter.chunk(b"IDAT", idat) + pngwriter.chunk(b"IEND", b""))
print("bad fixtures written to", HERE)
