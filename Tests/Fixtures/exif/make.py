#!/usr/bin/python3
"""Makes the EXIF fixtures for DecodingTests (the viewer's i line: date taken, camera, lens, exposure):

  camera.jpg   a 32x24 crop of the flower photo with EXIF as a camera writes it (IFD0 Make, Model,
               DateTime; the Exif IFD's DateTimeOriginal, ExposureTime, FNumber, ISO, FocalLength,
               LensModel), little-endian as Pillow writes it
  camera.png   the same pixels with the same EXIF in an eXIf chunk

Run: /usr/bin/python3 Tests/Fixtures/exif/make.py
"""
import os
from fractions import Fraction

from PIL import Image, TiffImagePlugin

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "images", "p04_freshflower_1600x1203_progressive.jpg")

photo = Image.open(SOURCE).convert("RGB").resize((32, 24))
exif = Image.Exif()
exif[0x010F] = "Canon"
exif[0x0110] = "Canon EOS R5"
exif[0x0132] = "2024:05:02 09:00:00"
ifd = {}
ifd[0x9003] = "2024:05:01 18:42:07"
ifd[0x829A] = TiffImagePlugin.IFDRational(Fraction(1, 250))
ifd[0x829D] = TiffImagePlugin.IFDRational(Fraction(28, 10))
ifd[0x8827] = 400
ifd[0x920A] = TiffImagePlugin.IFDRational(Fraction(50, 1))
ifd[0xA434] = "RF50mm F1.8 STM"
exif[0x8769] = ifd
photo.save(os.path.join(HERE, "camera.jpg"), quality=90, exif=exif.tobytes())
photo.save(os.path.join(HERE, "camera.png"), exif=exif.tobytes())
print("EXIF fixtures written to", HERE)
