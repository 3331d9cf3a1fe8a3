#!/usr/bin/python3
"""Writes reference.json: what PIL decodes each fixture to, in compact form,
for DecodingTests to compare against.

Per entry: displayed size (after EXIF orientation, like ImageOps.exif_transpose),
mean R,G,B,A over all pixels, an 8x8 grid of sampled RGBA pixels at
x = (2i+1)*W//16, y = (2j+1)*H//16, and the FNV-1a 64-bit hash of the whole
RGBA buffer (exact checks for lossless formats).
Arithmetic-coded JPEGs are decoded by djpeg (same libjpeg-turbo) instead.
Keys are file names; "name@1/4" entries are DCT-scaled decodes (PIL draft mode).
Run: /usr/bin/python3 Tests/Fixtures/reference/make_reference.py
"""
import io
import json
import os
import subprocess

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "images")


def rgba_array(image):
    if image.mode in ("I", "I;16", "I;16B"):
        # 16-bit gray: keep the high byte (PIL's own convert would clip instead).
        gray = (np.asarray(image).astype(np.uint32) >> 8).astype(np.uint8)
        return np.dstack([gray, gray, gray, np.full_like(gray, 255)])
    return np.asarray(image.convert("RGBA"))


def fnv1a64(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def entry(image):
    return fingerprint(rgba_array(ImageOps.exif_transpose(image)))


def fingerprint(pixels):
    """Size, channel means, an 8x8 grid of samples and the FNV-1a 64 of an RGBA array."""
    height, width = pixels.shape[:2]
    samples = []
    for j in range(8):
        for i in range(8):
            x, y = (2 * i + 1) * width // 16, (2 * j + 1) * height // 16
            samples.append([x, y] + [int(v) for v in pixels[y, x]])
    return {
        "width": width,
        "height": height,
        "mean": [round(float(pixels[:, :, c].mean()), 3) for c in range(4)],
        "samples": samples,
        "fnv1a64": fnv1a64(pixels.tobytes()),
    }


def open_decoded(path):
    """PIL's decode, or djpeg's for arithmetic-coded JPEGs: libjpeg cannot
    decode arithmetic coding from PIL's suspending data source."""
    image = Image.open(path)
    try:
        image.load()
        return image
    except OSError:
        ppm = subprocess.run(["djpeg", "-ppm", path], check=True, capture_output=True).stdout
        return Image.open(io.BytesIO(ppm))


def main():
    reference = {}
    for name in sorted(os.listdir(IMAGES)):
        if not name.endswith((".jpg", ".png")):
            continue
        image = open_decoded(os.path.join(IMAGES, name))
        if image.size[0] * image.size[1] > 4_000_000:
            continue  # full decodes of huge images stay out of the (debug-built) tests
        reference[name] = entry(image)

    for name, denominator in [("p03_storm_1920x1280.jpg", 4), ("p05_infinitesea_4096x4096.jpg", 8)]:
        image = Image.open(os.path.join(IMAGES, name))
        w, h = image.size
        image.draft("RGB", ((w + denominator - 1) // denominator, (h + denominator - 1) // denominator))
        assert image.size == ((w + denominator - 1) // denominator, (h + denominator - 1) // denominator)
        reference["%s@1/%d" % (name, denominator)] = entry(image)

    with open(os.path.join(HERE, "reference.json"), "w") as f:
        # One entry per line: compact, yet diffs show which fixture changed.
        lines = ["%s: %s" % (json.dumps(k), json.dumps(reference[k], separators=(",", ":"))) for k in sorted(reference)]
        f.write("{\n" + ",\n".join(lines) + "\n}\n")
    print(len(reference), "entries")


if __name__ == "__main__":
    main()
