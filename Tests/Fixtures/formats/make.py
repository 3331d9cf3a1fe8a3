#!/usr/bin/python3
"""Makes the fixtures of the codec table's newer formats with each format's
own encoder, and fingerprints each as that format's own decoder reads it
(formats.json, for DecodingTests/FormatRoundTripTests):

  GIF      ImageMagick (frames, quantised) + gifsicle (animation, optimised)   reference: ImageMagick -coalesce
  WebP     cwebp (lossy, lossless, alpha), img2webp, gif2webp (animation)       reference: dwebp; the lossless animation's frames are its sources; gif2webp's, libwebp's WebPAnimDecoder
  AVIF     avifenc (8-bit 4:2:0, alpha, irot/imir)                              reference: avifdec; heif-convert for irot/imir
           (avifdec leaves them; libheif converts YUV with other rounding, so that one is compared within a tolerance)
  HEIC     heif-enc (x265)                                                      reference: heif-convert
  JPEG XL  cjxl (VarDCT, lossless, alpha, animation from the GIF)               reference: djxl; the lossless animation's frames are the GIF's

Sources: the 640x427 china photo (p01) and the alpha chelsea (p06), both
fitted to 96x64 (see Tests/Fixtures/images/SOURCES.md for their licences).
Fingerprints are those of make_reference.py: size, channel means, an 8x8
grid of samples and the FNV-1a 64 of the RGBA bytes, per frame.
Run: /usr/bin/python3 Tests/Fixtures/formats/make.py
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageSequence

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "images")
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
from make_reference import fingerprint  # noqa: E402  (one fingerprint for every reference file)


def rgba(path):
    return np.asarray(Image.open(path).convert("RGBA"))


def run(*args):
    subprocess.run(args, check=True, capture_output=True)


def coalesced_frames(path, tmp):
    """ImageMagick's composited frames of an animation, as RGBA arrays, with
    fully transparent pixels made (0, 0, 0, 0): ImageMagick leaves the
    background colour's RGB under them, which no viewer shows."""
    out = os.path.join(tmp, "coalesced-%03d.png")
    run("convert", path, "-coalesce", "+adjoin", out)
    frames = sorted(f for f in os.listdir(tmp) if f.startswith("coalesced-"))
    result = []
    for f in frames:
        pixels = rgba(os.path.join(tmp, f)).copy()
        pixels[pixels[:, :, 3] == 0] = 0
        result.append(pixels)
    for f in frames:
        os.remove(os.path.join(tmp, f))
    return result


def main():
    reference = {}
    with tempfile.TemporaryDirectory() as tmp:
        china = os.path.join(tmp, "china.png")
        chelsea = os.path.join(tmp, "chelsea.png")
        Image.open(os.path.join(IMAGES, "p01_china_640x427.jpg")).convert("RGB").resize((96, 64), Image.LANCZOS).save(china)
        Image.open(os.path.join(IMAGES, "p06_chelsea_alpha_451x300.png")).convert("RGBA").resize(
            (96, 64), Image.LANCZOS).save(chelsea)
        out = lambda name: os.path.join(HERE, name)

        # GIF: a still, and 12 frames of 80 ms panning across the photo (local palettes, optimised).
        run("convert", china, "-dither", "FloydSteinberg", "-colors", "256", os.path.join(tmp, "still.gif"))
        run("gifsicle", "-O2", "--no-comments", "--no-names", os.path.join(tmp, "still.gif"), "-o", out("china.gif"))
        reference["china.gif"] = [fingerprint(rgba(out("china.gif")))]
        run("gifsicle", "--interlace", out("china.gif"), "-o", out("china-interlaced.gif"))
        reference["china-interlaced.gif"] = [fingerprint(rgba(out("china-interlaced.gif")))]
        frames = []
        for i in range(12):
            frame = os.path.join(tmp, "f%02d.png" % i)
            Image.open(china).crop((4 * i, 8, 4 * i + 48, 40)).save(frame)
            run("convert", frame, "-colors", "64", os.path.join(tmp, "f%02d.gif" % i))
            frames.append(frame)
        run("gifsicle", "-O2", "--no-comments", "--no-names", "--delay", "8", "--loopcount=forever",
            *[os.path.join(tmp, "f%02d.gif" % i) for i in range(12)], "-o", out("anim.gif"))
        reference["anim.gif"] = [fingerprint(f) for f in coalesced_frames(out("anim.gif"), tmp)]

        # Disposal: 16x16, red; blue 8x8 at 0,0 (disposal 2); green 8x8 at 8,8,
        # interlaced (disposal 3); a 4x4 with a local palette at 4,4, whose
        # left column is transparent. Loop extension 3: four plays.
        def solid(name, size, colour):
            Image.new("RGB", size, colour).save(os.path.join(tmp, name + ".png"))
            run("convert", os.path.join(tmp, name + ".png"), os.path.join(tmp, name + ".gif"))
            return os.path.join(tmp, name + ".gif")
        corner = Image.new("RGB", (4, 4), (255, 255, 255))
        for y in range(4):
            corner.putpixel((0, y), (255, 0, 255))
        corner.save(os.path.join(tmp, "corner.png"))
        run("convert", os.path.join(tmp, "corner.png"), os.path.join(tmp, "corner.gif"))
        run("gifsicle", "--no-comments", "--no-names", "--loopcount=3", "-S", "16x16",
            "-d", "10", "-D", "none", solid("red", (16, 16), (255, 0, 0)),
            "-d", "20", "-D", "background", "-p", "0,0", solid("blue", (8, 8), (0, 0, 255)),
            "-d", "30", "-D", "previous", "-p", "8,8", "-i", solid("green", (8, 8), (0, 255, 0)),
            "-d", "0", "-D", "none", "-p", "4,4", "--no-interlace", "-t", "#FF00FF", os.path.join(tmp, "corner.gif"),
            "-o", out("disposal.gif"))
        reference["disposal.gif"] = [fingerprint(f) for f in coalesced_frames(out("disposal.gif"), tmp)]

        # WebP.
        for name, args, source in [
            ("china-lossy.webp", ["-q", "80"], china),
            ("china-lossless.webp", ["-lossless"], china),
            ("chelsea-alpha.webp", ["-q", "80", "-alpha_q", "100"], chelsea),
        ]:
            run("cwebp", "-quiet", "-metadata", "none", *args, source, "-o", out(name))
            run("dwebp", "-quiet", out(name), "-o", os.path.join(tmp, "ref.png"))
            reference[name] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]
        # Scaled while decoding, as pxview asks for a smaller box.
        run("dwebp", "-quiet", "-scale", "48", "32", out("china-lossy.webp"), "-o", os.path.join(tmp, "ref.png"))
        reference["china-lossy.webp@48x32"] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]
        run("img2webp", "-lossless", "-loop", "0", "-d", "80", *frames, "-o", out("anim.webp"))
        reference["anim.webp"] = [fingerprint(rgba(f)) for f in frames]
        # Animations with blending, disposal and frames smaller than the
        # canvas (gif2webp's), referenced by libwebp's own WebPAnimDecoder
        # (through PIL), whose compositing pxview's shim ports.
        run("gif2webp", "-q", "70", "-mixed", out("disposal.gif"), "-o", out("disposal-mixed.webp"))
        run("gif2webp", "-lossy", "-q", "50", out("anim.gif"), "-o", out("anim-lossy.webp"))
        for name in ["disposal-mixed.webp", "anim-lossy.webp"]:
            reference[name] = [fingerprint(np.asarray(f.convert("RGBA"))) for f in ImageSequence.Iterator(Image.open(out(name)))]

        # AVIF.
        for name, args, source in [
            ("china.avif", ["--min", "20", "--max", "30", "-y", "420"], china),
            ("chelsea-alpha.avif", ["--min", "20", "--max", "30", "-y", "444"], chelsea),
        ]:
            run("avifenc", "-s", "6", "-j", "1", *args, source, out(name))
            run("avifdec", "-d", "8", out(name), os.path.join(tmp, "ref.png"))
            reference[name] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]
        run("avifenc", "-s", "6", "-j", "1", "--min", "20", "--max", "30", "--irot", "1", "--imir", "1", china,
            out("china-irot1-imir1.avif"))
        run("heif-convert", out("china-irot1-imir1.avif"), os.path.join(tmp, "ref.png"))
        reference["china-irot1-imir1.avif"] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]

        # HEIC.
        for name, args, source in [
            ("china.heic", ["-q", "60"], china),
            ("chelsea-alpha.heic", ["-q", "60"], chelsea),
            ("china-thumbnail.heic", ["-q", "60", "-t", "48"], china),
        ]:
            run("heif-enc", *args, source, "-o", out(name))
            run("heif-convert", out(name), os.path.join(tmp, "ref.png"))
            reference[name] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]

        # JPEG XL.
        for name, args, source in [
            ("china.jxl", ["-d", "1.0"], china),
            ("china-lossless.jxl", ["-d", "0"], china),
            ("chelsea-alpha.jxl", ["-d", "1.0"], chelsea),
        ]:
            run("cjxl", "--quiet", *args, source, out(name))
            run("djxl", out(name), os.path.join(tmp, "ref.png"))
            reference[name] = [fingerprint(rgba(os.path.join(tmp, "ref.png")))]
        run("cjxl", "--quiet", "-d", "0", out("anim.gif"), out("anim.jxl"))
        reference["anim.jxl"] = reference["anim.gif"]

    with open(os.path.join(HERE, "formats.json"), "w") as f:
        f.write("{\n" + ",\n".join(
            json.dumps(name) + ": " + json.dumps(reference[name], separators=(",", ":")) for name in sorted(reference)) + "\n}\n")


main()
