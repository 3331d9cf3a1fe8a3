#!/usr/bin/python3
"""Makes the colour-managed fixtures: one saturated photo (p04, a flower, 96x72) in
other colour spaces, each tagged the way its format says, for
DecodingTests/ColourTests (what the colour step finds and does):

  adobe.jpg, adobe.png, adobe.webp  the pixels converted to Adobe RGB (1998) with
                                    Pillow's ImageCms (lcms2), the profile embedded
                                    (icc-profiles-free's compatibleWithAdobeRGB1998.icc;
                                    the JPEG's in one APP2 chunk)
  adobe-split.jpg                   the same JPEG with its profile in three APP2 chunks
  adobe.jxl, adobe-lossless.jxl     cjxl of adobe.png, lossy (XYB) and lossless (-d 0)
  p3.avif, p3.heic                  the pixels converted to Display P3 by the matrices
                                    below, tagged by nclx 12/13 (avifenc; heif-enc, whose
                                    colr box is added here: heif-enc 1.15 writes none)
  pq.avif, pq.heic                  BT.2100 PQ in BT.2020, 10-bit, SDR white at 203 cd/m²
  hlg.avif                          BT.2100 HLG (1000 cd/m² display), the same light
  pq8.avif                          pq.avif's light in 8 bits
  pq.jxl                            the same light as a lossy JPEG XL (cjxl, its colour encoding BT.2100 PQ)
  gamma18.png                       no profile: gAMA 1/1.8 and the pixels encoded so
  srgb.png                          an sRGB chunk
  srgb-icc.png                      an sRGB ICC profile (lcms2's, as Pillow writes it)
  srgb-original.png                 the photo as it is, untagged
  srgb-icc-profiles-free.icc        (copied, not made) icc-profiles-free's sRGB.icc, a table-curve sRGB profile
  cmyk-test.icc                     a CMYK profile (impure inks) made by cmyk-profile.c with lcms2: Debian has none
  cmyk.jpg                          the photo as ink amounts (half its grey as black), an Adobe (inverted) CMYK
                                    JPEG carrying cmyk-test.icc
  cmyk-reference.png                cmyk.jpg as Pillow decodes it, through its profile to sRGB by lcms2
                                    (ImageCms, perceptual): what pxview should show

Run: /usr/bin/python3 Tests/Fixtures/colour/make.py [SIZE] [OUTDIR]
(SIZE 96x72 by default; larger ones for the README's measurements go to OUTDIR).
"""
import io
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "images", "p04_freshflower_1600x1203_progressive.jpg")
ADOBE = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"


def srgb_to_linear(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v):
    v = np.clip(v, 0, 1)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def rgb_to_xyz(xy):
    """The RGB-to-XYZ matrix of primaries and white (x, y each)."""
    (rx, ry), (gx, gy), (bx, by), (wx, wy) = xy
    m = np.array([[rx / ry, gx / gy, bx / by], [1, 1, 1],
                  [(1 - rx - ry) / ry, (1 - gx - gy) / gy, (1 - bx - by) / by]])
    white = np.array([wx / wy, 1, (1 - wx - wy) / wy])
    return m * np.linalg.solve(m, white)


SRGB = rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06), (0.3127, 0.3290)])
P3 = rgb_to_xyz([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)])


def to_p3(image):
    rgb = np.asarray(image.convert("RGB")).astype(np.float64) / 255
    linear = srgb_to_linear(rgb) @ (np.linalg.inv(P3) @ SRGB).T
    return Image.fromarray((linear_to_srgb(linear) * 255 + 0.5).astype(np.uint8))


def pq_encode(nits):
    """SMPTE ST 2084's inverse EOTF: cd/m² to a code value (0..1)."""
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    y = np.clip(nits / 10000, 0, 1) ** m1
    return ((c1 + c2 * y) / (1 + c3 * y)) ** m2


def hlg_encode(display_nits):
    """BT.2100 HLG for a 1000 cd/m² display (system gamma 1.2): display light
    (BT.2020 RGB, cd/m²) through the inverse OOTF, then the OETF (0..1)."""
    lw, gamma = 1000.0, 1.2
    rgb = np.clip(display_nits / lw, 0, None)
    y = rgb @ np.array([0.2627, 0.6780, 0.0593])
    scene = rgb * np.where(y > 0, y, 1)[..., None] ** ((1 - gamma) / gamma)
    a, b = 0.17883277, 1 - 4 * 0.17883277
    c = 0.5 - a * np.log(4 * a)
    return np.where(scene <= 1 / 12, np.sqrt(3 * scene), a * np.log(np.clip(12 * scene - b, 1e-12, None)) + c)


BT2020 = rgb_to_xyz([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046), (0.3127, 0.3290)])


def png16(rgb):
    """An RGB PNG of 16-bit samples (rgb: height x width x 3, 0..65535)."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\0" + row.astype(">u2").tobytes() for row in rgb)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def png_with_chunks(image, chunks):
    """A PNG of `image` with `chunks` (type, data) right after IHDR."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data = buffer.getvalue()
    at = 8 + 25
    extra = b"".join(struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d)) for t, d in chunks)
    return data[:at] + extra + data[at:]


def app2_split(jpeg, profile, parts):
    """`jpeg` (no profile) with `profile` in `parts` APP2 ICC_PROFILE chunks after SOI."""
    size = -(-len(profile) // parts)
    segments = b""
    for i in range(parts):
        body = b"ICC_PROFILE\0" + bytes([i + 1, parts]) + profile[i * size:(i + 1) * size]
        segments += b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body
    return jpeg[:2] + segments + jpeg[2:]


def with_nclx(heic, primaries, transfer, matrix):
    """`heic` (heif-enc 1.15 writes no colr box for its --colour_primaries) with
    a `colr` `nclx` box added to ipco and associated with the primary item;
    iloc's base offsets move with the data behind it."""
    def box(kind, payload):
        return struct.pack(">I", 8 + len(payload)) + kind + payload

    def children(data, start, end):
        out, at = [], start
        while at + 8 <= end:
            size, kind = struct.unpack(">I4s", data[at:at + 8])
            out.append((kind, data[at + 8:at + size]))
            at += size
        return out

    colr = box(b"colr", b"nclx" + struct.pack(">HHHB", primaries, transfer, matrix, 0x80))
    top = children(heic, 0, len(heic))
    out = b""
    for kind, body in top:
        if kind != b"meta":
            out += box(kind, body)
            continue
        items = []
        for sub, payload in children(body, 4, len(body)):
            if sub == b"iprp":
                props = children(payload, 0, len(payload))
                ipco = dict(props)[b"ipco"] + colr
                count = len(children(ipco, 0, len(ipco)))
                ipma = dict(props)[b"ipma"]
                # version 0, flags 0: entries of a 16-bit item id, a count and 8-bit associations.
                assert ipma[:4] == b"\0\0\0\0", "ipma layout heif-enc 1.15 writes"
                entries, at, rebuilt_ipma = struct.unpack(">I", ipma[4:8])[0], 8, ipma[:8]
                for _ in range(entries):
                    item, n = struct.unpack(">HB", ipma[at:at + 3])
                    associations = ipma[at + 3:at + 3 + n]
                    if item == 1:
                        associations += bytes([0x80 | count])
                    rebuilt_ipma += struct.pack(">HB", item, len(associations)) + associations
                    at += 3 + n
                payload = box(b"ipco", ipco) + box(b"ipma", rebuilt_ipma)
            items.append((sub, payload))
        grown = len(colr) + 1
        rebuilt = []
        for sub, payload in items:
            if sub == b"iloc":
                iloc = bytearray(payload)
                version = iloc[0]
                offset_size, length_size, base_size = iloc[4] >> 4, iloc[4] & 15, iloc[5] >> 4
                index_size = iloc[5] & 15 if version else 0
                assert version < 2 and offset_size in (4, 8) and base_size in (0, 4, 8), "iloc layout heif-enc 1.15 writes"

                def shift(at, size):
                    value = int.from_bytes(iloc[at:at + size], "big")
                    iloc[at:at + size] = (value + grown).to_bytes(size, "big")

                count = struct.unpack(">H", iloc[6:8])[0]
                at = 8
                for _ in range(count):
                    # item, construction method (1: in idat, which does not move), data reference
                    in_file = not version or iloc[at + 3] & 15 == 0
                    at += 2 + (2 if version else 0) + 2
                    if base_size and in_file:
                        shift(at, base_size)
                    at += base_size
                    extents = struct.unpack(">H", iloc[at:at + 2])[0]
                    at += 2
                    for _ in range(extents):
                        at += index_size
                        if not base_size and in_file:
                            shift(at, offset_size)
                        at += offset_size + length_size
                payload = bytes(iloc)
            rebuilt.append(box(sub, payload))
        out += box(b"meta", body[:4] + b"".join(rebuilt))
    return out


def cmyk(photo, out):
    with tempfile.TemporaryDirectory() as tmp:
        maker = os.path.join(tmp, "cmyk-profile")
        subprocess.run(["cc", os.path.join(HERE, "cmyk-profile.c"), "-llcms2", "-lm", "-o", maker], check=True)
        subprocess.run([maker, os.path.join(out, "cmyk-test.icc")], check=True)
    profile = open(os.path.join(out, "cmyk-test.icc"), "rb").read()
    rgb = np.asarray(photo).astype(np.float64) / 255
    k = (1 - rgb.max(axis=2, keepdims=True)) / 2
    inks = np.concatenate([(1 - rgb - k) / (1 - k), k], axis=2)
    Image.fromarray((np.clip(inks, 0, 1) * 255 + 0.5).astype(np.uint8), "CMYK").save(
        os.path.join(out, "cmyk.jpg"), quality=95, icc_profile=profile)
    decoded = Image.open(os.path.join(out, "cmyk.jpg"))
    reference = ImageCms.profileToProfile(decoded, ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                          ImageCms.createProfile("sRGB"), outputMode="RGB")
    reference.save(os.path.join(out, "cmyk-reference.png"))


def main():
    size = tuple(int(v) for v in (sys.argv[1] if len(sys.argv) > 1 else "96x72").split("x"))
    out = sys.argv[2] if len(sys.argv) > 2 else HERE
    os.makedirs(out, exist_ok=True)
    photo = Image.open(SOURCE).convert("RGB").resize(size, Image.LANCZOS)
    photo.save(os.path.join(out, "srgb-original.png"))
    profile = open(ADOBE, "rb").read()
    adobe = ImageCms.profileToProfile(photo, ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                      outputMode="RGB")
    adobe.save(os.path.join(out, "adobe.jpg"), quality=95, icc_profile=profile)
    adobe.save(os.path.join(out, "adobe.png"), icc_profile=profile)
    adobe.save(os.path.join(out, "adobe.webp"), quality=95, icc_profile=profile)
    plain = io.BytesIO()
    adobe.save(plain, "JPEG", quality=95)
    with open(os.path.join(out, "adobe-split.jpg"), "wb") as f:
        f.write(app2_split(plain.getvalue(), profile, 3))
    p3 = to_p3(photo)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "p3.png")
        p3.save(source)
        subprocess.run(["avifenc", "--min", "8", "--max", "8", "--cicp", "12/13/6", source, os.path.join(out, "p3.avif")],
                       check=True, capture_output=True)
        subprocess.run(["heif-enc", "-q", "90", "--colour_primaries", "12", "--transfer_characteristic", "13",
                        "--matrix_coefficients", "6", source, "-o", os.path.join(tmp, "p3.heic")],
                       check=True, capture_output=True)
        with open(os.path.join(tmp, "p3.heic"), "rb") as f, open(os.path.join(out, "p3.heic"), "wb") as g:
            g.write(with_nclx(f.read(), 12, 13, 6))
    # JPEG XL from the Adobe RGB PNG: lossy (XYB; libjxl is asked for sRGB)
    # and lossless (the pixels stay Adobe RGB; the profile goes to lcms2).
    subprocess.run(["cjxl", "-d", "1", os.path.join(out, "adobe.png"), os.path.join(out, "adobe.jxl")],
                   check=True, capture_output=True)
    subprocess.run(["cjxl", "-d", "0", os.path.join(out, "adobe.png"), os.path.join(out, "adobe-lossless.jxl")],
                   check=True, capture_output=True)
    # HDR: the sRGB photo as BT.2100 PQ, SDR white at 203 cd/m² (BT.2408), in
    # BT.2020 primaries, 10-bit (avifenc --cicp 9/16/9).
    linear = srgb_to_linear(np.asarray(photo).astype(np.float64) / 255) @ (np.linalg.inv(BT2020) @ SRGB).T
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "pq.png")
        with open(source, "wb") as f:
            f.write(png16((pq_encode(np.clip(linear, 0, None) * 203) * 65535 + 0.5).astype(np.uint16)))
        subprocess.run(["avifenc", "-d", "10", "--min", "8", "--max", "8", "--cicp", "9/16/9", source,
                        os.path.join(out, "pq.avif")], check=True, capture_output=True)
        subprocess.run(["avifenc", "-d", "8", "--min", "8", "--max", "8", "--cicp", "9/16/9", source,
                        os.path.join(out, "pq8.avif")], check=True, capture_output=True)
        subprocess.run(["cjxl", "-x", "color_space=RGB_D65_202_Rel_PeQ", source, os.path.join(out, "pq.jxl")],
                       check=True, capture_output=True)
        hlg = os.path.join(tmp, "hlg.png")
        with open(hlg, "wb") as f:
            f.write(png16((np.clip(hlg_encode(np.clip(linear, 0, None) * 203), 0, 1) * 65535 + 0.5).astype(np.uint16)))
        subprocess.run(["avifenc", "-d", "10", "--min", "8", "--max", "8", "--cicp", "9/18/9", hlg,
                        os.path.join(out, "hlg.avif")], check=True, capture_output=True)
        subprocess.run(["heif-enc", "-b", "10", "-q", "90", "--colour_primaries", "9", "--transfer_characteristic", "16",
                        "--matrix_coefficients", "9", source, "-o", os.path.join(tmp, "pq.heic")],
                       check=True, capture_output=True)
        with open(os.path.join(tmp, "pq.heic"), "rb") as f, open(os.path.join(out, "pq.heic"), "wb") as g:
            g.write(with_nclx(f.read(), 9, 16, 9))
    gamma = Image.fromarray((srgb_to_linear(np.asarray(photo).astype(np.float64) / 255) ** (1 / 1.8) * 255 + 0.5)
                            .astype(np.uint8))
    with open(os.path.join(out, "gamma18.png"), "wb") as f:
        f.write(png_with_chunks(gamma, [(b"gAMA", struct.pack(">I", round(100000 / 1.8)))]))
    with open(os.path.join(out, "srgb.png"), "wb") as f:
        f.write(png_with_chunks(photo, [(b"sRGB", b"\0")]))
    photo.save(os.path.join(out, "srgb-icc.png"), icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    cmyk(photo, out)
    print("colour fixtures written to", out)


main()
