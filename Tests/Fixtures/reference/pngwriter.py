"""A tiny PNG writer for test fixtures.

PIL cannot write several of the layouts the decoder must handle (16-bit RGBA,
1/2/4-bit gray, Adam7 with 16-bit samples, eXIf), so fixtures are written by
hand here: every byte is spelled out, which also makes damaged files easy.
"""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind: bytes, data: bytes) -> bytes:
    """One chunk with a correct CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def ihdr(width, height, bit_depth, color_type, interlace=False) -> bytes:
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlace else 0))


def pack_row(samples, bit_depth) -> bytes:
    """Samples (ints) to the bytes of one scanline, without the filter byte."""
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if bit_depth == 8:
        return bytes(samples)
    per_byte = 8 // bit_depth
    out = bytearray()
    for i in range(0, len(samples), per_byte):
        group = samples[i:i + per_byte]
        byte = 0
        for j, s in enumerate(group):
            byte |= s << (8 - bit_depth * (j + 1))
        out.append(byte)
    return bytes(out)


def raw_image_data(pixels, width, height, bit_depth, color_type, interlace) -> bytes:
    """Filter-type-0 scanlines, per Adam7 pass when interlaced.
    pixels[y][x] is a tuple of samples."""
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    out = bytearray()
    for x0, y0, dx, dy in passes:
        xs = range(x0, width, dx)
        ys = range(y0, height, dy)
        if len(xs) == 0 or len(ys) == 0:
            continue  # empty passes have no scanlines at all
        for y in ys:
            samples = [s for x in xs for s in pixels[y][x]]
            out += b"\x00" + pack_row(samples, bit_depth)
    return bytes(out)


def png_bytes(pixels, bit_depth, color_type, interlace=False, extra_chunks=()) -> bytes:
    height = len(pixels)
    width = len(pixels[0])
    data = zlib.compress(raw_image_data(pixels, width, height, bit_depth, color_type, interlace), 9)
    return (SIGNATURE + ihdr(width, height, bit_depth, color_type, interlace)
            + b"".join(extra_chunks) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def tiff_with_orientation(orientation: int, big_endian: bool) -> bytes:
    """A minimal TIFF stream (as in EXIF): IFD0 with Make and Orientation."""
    e = ">" if big_endian else "<"
    make = b"pxview\x00"
    ifd_offset = 8
    entry_count = 2
    data_offset = ifd_offset + 2 + entry_count * 12 + 4
    out = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, ifd_offset)
    out += struct.pack(e + "H", entry_count)
    out += struct.pack(e + "HHII", 0x010F, 2, len(make), data_offset)  # Make, ASCII, stored after the IFD
    out += struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0)  # Orientation, SHORT, inline
    out += struct.pack(e + "I", 0)  # no next IFD
    return out + make
