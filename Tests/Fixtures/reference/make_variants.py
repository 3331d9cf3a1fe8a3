#!/usr/bin/python3
"""Writes the decoder-path variants (v*.{jpg,png}) into ../images.

Run from anywhere: /usr/bin/python3 Tests/Fixtures/reference/make_variants.py
Needs python3-pil, python3-numpy and jpegtran (libjpeg-turbo-progs).
Each variant is derived from a committed fixture photo; see ../images/SOURCES.md.
"""
import io
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "images")
sys.path.insert(0, HERE)
import pngwriter  # noqa: E402

CHINA = os.path.join(IMAGES, "p01_china_640x427.jpg")
CAMERA = os.path.join(IMAGES, "p07_camera_gray_512x512.jpg")


def out(name):
    return os.path.join(IMAGES, name)


def resized_float(image, size):
    """Each channel resampled in floating point, so 16-bit outputs carry real low bytes."""
    channels = image.split() if image.mode != "L" else [image]
    return np.stack([np.asarray(c.convert("F").resize(size, Image.LANCZOS)) for c in channels], axis=-1).clip(0, 255)


def feathered_ellipse(width, height):
    """Alpha 0..1: opaque centre, soft edge, transparent corners."""
    y, x = np.mgrid[0:height, 0:width]
    r = np.sqrt(((x + 0.5 - width / 2) / (width / 2)) ** 2 + ((y + 0.5 - height / 2) / (height / 2)) ** 2)
    return np.clip((1.0 - r) / 0.25, 0.0, 1.0)


def to_pixels(array):
    return [[tuple(int(v) for v in array[y, x]) for x in range(array.shape[1])] for y in range(array.shape[0])]


def write(name, data):
    with open(out(name), "wb") as f:
        f.write(data)
    assert len(data) < 200_000, name


def check_pil_reads(name, expected_rgba):
    """Guards the hand-written PNGs: PIL must decode them to the intended pixels."""
    im = Image.open(out(name))
    if im.mode in ("I", "I;16", "I;16B"):
        gray = (np.asarray(im).astype(np.uint32) >> 8).astype(np.uint8)
        got = np.dstack([gray, gray, gray, np.full_like(gray, 255)])
    else:
        got = np.asarray(im.convert("RGBA"))
    assert np.array_equal(got, expected_rgba), name


def rgba_from(gray=None, rgb=None, alpha=None):
    base = np.dstack([gray] * 3) if gray is not None else rgb
    if alpha is None:
        alpha = np.full(base.shape[:2], 255)
    return np.dstack([base, alpha]).astype(np.uint8)


china = Image.open(CHINA).convert("RGB")
camera = Image.open(CAMERA).convert("L")

# JPEG variants.
buf = io.BytesIO()
china.save(buf, "JPEG", quality=88, subsampling=2)  # 2 = 4:2:0
write("v01_china_420_640x427.jpg", buf.getvalue())
arith = subprocess.run(["jpegtran", "-arithmetic", "-copy", "none", out("v01_china_420_640x427.jpg")],
                       check=True, capture_output=True).stdout
write("v02_china_arithmetic_640x427.jpg", arith)
buf = io.BytesIO()
china.resize((320, 213), Image.LANCZOS).convert("CMYK").save(buf, "JPEG", quality=92)
assert b"Adobe" in buf.getvalue()[:200], "PIL is expected to write an Adobe APP14 marker (inverted CMYK)"
write("v03_china_cmyk_adobe_320x213.jpg", buf.getvalue())

# 16-bit RGBA, plain and Adam7.
rgb16 = np.rint(resized_float(china, (96, 64)) * 257).astype(np.uint32)
alpha16 = np.rint(feathered_ellipse(96, 64) * 65535).astype(np.uint32)
rgba16 = np.dstack([rgb16, alpha16])
expected = (rgba16 >> 8).astype(np.uint8)
write("v04_china_rgba16_interlaced_96x64.png", pngwriter.png_bytes(to_pixels(rgba16), 16, 6, interlace=True))
check_pil_reads("v04_china_rgba16_interlaced_96x64.png", expected)
write("v05_china_rgba16_96x64.png", pngwriter.png_bytes(to_pixels(rgba16), 16, 6))
check_pil_reads("v05_china_rgba16_96x64.png", expected)

# Gray at every bit depth, from the camera photo.
gray_f = resized_float(camera, (128, 128))[:, :, 0]
gray8 = np.rint(gray_f).astype(np.uint32)
dithered = np.asarray(Image.fromarray(gray8.astype(np.uint8)).convert("1"), dtype=np.uint32)
for name, depth, samples, scale in [
    ("v06_camera_gray1_128x128.png", 1, dithered, 255),
    ("v07_camera_gray2_128x128.png", 2, np.rint(gray_f / 255 * 3).astype(np.uint32), 85),
    ("v08_camera_gray4_128x128.png", 4, np.rint(gray_f / 255 * 15).astype(np.uint32), 17),
    ("v09_camera_gray8_128x128.png", 8, gray8, 1),
]:
    write(name, pngwriter.png_bytes(to_pixels(samples[:, :, None]), depth, 0))
    check_pil_reads(name, rgba_from(gray=samples * scale))
gray16 = np.rint(gray_f * 257).astype(np.uint32)
write("v10_camera_gray16_128x128.png", pngwriter.png_bytes(to_pixels(gray16[:, :, None]), 16, 0))
check_pil_reads("v10_camera_gray16_128x128.png", rgba_from(gray=gray16 >> 8))

# Gray + alpha.
alpha8 = np.rint(feathered_ellipse(128, 128) * 255).astype(np.uint32)
write("v11_camera_grayalpha_128x128.png", pngwriter.png_bytes(to_pixels(np.dstack([gray8, alpha8])), 8, 4))
check_pil_reads("v11_camera_grayalpha_128x128.png", rgba_from(gray=gray8, alpha=alpha8))

# PNG with an eXIf chunk (orientation 6): stored 64x96, displayed 96x64.
upright = np.rint(resized_float(china, (96, 64))).astype(np.uint8)
stored = np.asarray(Image.fromarray(upright).transpose(Image.ROTATE_90))
exif = pngwriter.chunk(b"eXIf", pngwriter.tiff_with_orientation(6, big_endian=True))
write("v12_china_exif6_png_64x96.png", pngwriter.png_bytes(to_pixels(stored), 8, 2, extra_chunks=[exif]))
assert ImageOps.exif_transpose(Image.open(out("v12_china_exif6_png_64x96.png"))).size == (96, 64)

# The same small upright picture stored for each EXIF orientation 1..8, so
# that every one displays identically. inverse[k] undoes what orientation k does.
inverse = {1: None, 2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM,
           5: Image.TRANSPOSE, 6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270}
small = china.crop((0, 0, 640, 426)).resize((120, 80), Image.LANCZOS)
for k in range(1, 9):
    stored = small if inverse[k] is None else small.transpose(inverse[k])
    # Alternate byte orders so both TIFF flavours are exercised.
    tiff = pngwriter.tiff_with_orientation(k, big_endian=(k % 2 == 0))
    buf = io.BytesIO()
    stored.save(buf, "JPEG", quality=95, subsampling=0, exif=b"Exif\x00\x00" + tiff)
    name = "v%02d_china_orient%d_%dx%d.jpg" % (12 + k, k, stored.width, stored.height)
    write(name, buf.getvalue())
    assert ImageOps.exif_transpose(Image.open(out(name))).size == (120, 80)
print("variants written to", os.path.normpath(IMAGES))
