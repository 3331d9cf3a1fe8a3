#!/usr/bin/python3
"""Make the raw RGBA8 fixtures the Encoding tests round-trip through sixel and kitty.

The Encoding module cannot decode JPEG/PNG itself (that is the Decoding
module's job), so its tests read plain RGBA bytes: width*height*4, rows top
to bottom, straight alpha. Run from anywhere: /usr/bin/python3 make.py
"""
import os
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "..", "images")

FIXTURES = [
    # (source image, output name, size)
    ("p01_china_640x427.jpg", "china_320x213.rgba", (320, 213)),
    ("p02_coffee_600x400.png", "coffee_300x200.rgba", (300, 200)),
    ("p06_chelsea_alpha_451x300.png", "chelsea_alpha_225x150.rgba", (225, 150)),
]

for source, name, size in FIXTURES:
    image = Image.open(os.path.join(IMAGES, source)).convert("RGBA")
    image = image.resize(size, Image.LANCZOS)
    data = image.tobytes()
    assert len(data) == size[0] * size[1] * 4
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    print(name, len(data))
