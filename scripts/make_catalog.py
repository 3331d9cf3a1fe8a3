#!/usr/bin/python3
"""Builds pxview's offline photo catalog (Sources/Pixabay/Catalog).

The catalog is what pxview shows without a Pixabay API key, so it mirrors
Pixabay's response shape: every photo comes in a preview (<=150 px), web
(<=640 px) and large (<=1280 px) variant, and catalog.json holds hits with
the same keys Pixabay sends. URLs are relative to the catalog folder; the
Swift side turns them into file:// URLs at run time.

Tags describe what is actually in each picture (checked by eye). Likes,
views, downloads and the editors' choice flags are made up (plausible, fixed
numbers so the build is reproducible); SOURCES.md says so.

Run from the repository root:  /usr/bin/python3 scripts/make_catalog.py
"""
import json
import os
import sys

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "Pixabay", "Catalog")
# The wallpapers come from the shared photo set (Debian packages, see the
# catalog's SOURCES.md); the other pictures are the in-repo test fixtures.
PHOTOS = os.environ.get("PXVIEW_CATALOG_PHOTOS", os.path.join(ROOT, "..", "shared", "catalog-photos"))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")

MATE = "https://tracker.debian.org/pkg/mate-backgrounds"
LOMIRI = "https://tracker.debian.org/pkg/lomiri-wallpapers"
DESKTOP_BASE = "https://tracker.debian.org/pkg/desktop-base"
SKIMAGE = "https://pypi.org/project/scikit-image/"
CHINA_FLICKR = "https://www.flickr.com/photos/danielbuechele/6061409035"

# name, source file, type, category, colors, tags, user, page URL, licence,
# likes, views, downloads, editors' choice
ENTRIES = [
    ("aqua", f"{PHOTOS}/Aqua.jpg", "photo", "nature", ["blue", "gray", "white"],
     "water, drop, splash, droplet, ripple, macro, blue", "Charles Barbin", MATE,
     "GPL-2+", 412, 18250, 9120, True),
    ("leaf", f"{PHOTOS}/Blinds.jpg", "photo", "nature", ["green", "yellow"],
     "leaf, green, plant, veins, macro, nature, texture", "Lennart Poettering, Andrea Cimitan",
     MATE, "GPL-2+", 233, 11020, 5230, False),
    ("elephants", f"{PHOTOS}/Elephants.jpg", "illustration", "animals", ["blue", "turquoise"],
     "elephants, painting, art, abstract, animals, mirrored, blue", "Wyng Stancikaite", MATE,
     "GPL-2+", 158, 7400, 2810, False),
    ("fossa", f"{PHOTOS}/Fossa_by_Jasper_Roks.jpg", "illustration", "backgrounds",
     ["red", "lilac", "pink"], "abstract, wallpaper, shapes, curves, purple, red, gradient",
     "Jasper Roks", LOMIRI, "CC-BY-SA-3.0", 301, 15880, 8040, False),
    ("marigold", f"{PHOTOS}/Garden.jpg", "photo", "nature", ["red", "orange", "green"],
     "flower, marigold, petals, blossom, bloom, garden, orange, red", "Charles Barbin", MATE,
     "GPL-2+", 527, 24310, 12770, True),
    ("dandelion", f"{PHOTOS}/TwoWings.jpg", "photo", "nature", ["orange", "green"],
     "dandelion, seeds, flower, bokeh, macro, nature, orange", "Charles Barbin, Hylke Bons",
     MATE, "GPL-2+", 389, 16700, 7350, False),
    ("wood", f"{PHOTOS}/Wood.jpg", "photo", "backgrounds", ["white", "gray"],
     "wood, plank, grain, texture, surface, background", "Jean-François Fortin Tam", MATE,
     "GPL-2+", 96, 5320, 2990, False),
    ("pagoda", f"{IMAGES}/p01_china_640x427.jpg", "photo", "travel", ["blue", "green", "red"],
     "pagoda, temple, tower, china, summer palace, architecture, trees, lake", "danielbuechele",
     CHINA_FLICKR, "CC-BY-2.0", 644, 30120, 14480, True),
    ("espresso", f"{IMAGES}/p02_coffee_600x400.png", "photo", "food", ["brown", "red", "white"],
     "coffee, espresso, cup, saucer, spoon, table, wood, drink", "Rachel Michetti", SKIMAGE,
     "CC0-1.0", 575, 27640, 13010, False),
    ("storm", f"{IMAGES}/p03_storm_1920x1280.jpg", "photo", "nature", ["blue", "gray", "black"],
     "storm, clouds, sky, road, motion blur, weather, landscape, dark", "Sergey Nazarov", MATE,
     "GPL-2+", 270, 13390, 6100, False),
    ("gerbera", f"{IMAGES}/p04_freshflower_1600x1203_progressive.jpg", "photo", "nature",
     ["orange", "red"], "flower, gerbera, petals, blossom, bloom, macro, orange", "Jens Ansorg",
     MATE, "GPL-2+", 462, 21900, 10560, False),
    ("infinite-sea", f"{IMAGES}/p05_infinitesea_4096x4096.jpg", "illustration", "backgrounds",
     ["lilac", "blue", "pink", "red"],
     "milky way, stars, night sky, sea, horizon, reflection, space, wallpaper", "Aury88", LOMIRI,
     "CC-BY-SA-3.0", 498, 22480, 11230, True),
    ("cat", f"{IMAGES}/p11_chelsea_interlaced_451x300.png", "photo", "animals",
     ["brown", "orange"], "cat, tabby, pet, animal, whiskers, eyes, face", "Stefan van der Walt",
     SKIMAGE, "CC0-1.0", 731, 35410, 16920, True),
    ("cameraman", f"{IMAGES}/p07_camera_gray_512x512.jpg", "photo", "people",
     ["grayscale", "gray", "black", "white"],
     "man, photographer, camera, tripod, black and white, field, buildings", "Lav Varshney",
     SKIMAGE, "CC0-1.0", 187, 9880, 4410, False),
    ("debian-logo", f"{IMAGES}/p10_debianlogo_256x256_palette_trns.png", "illustration",
     "computer", ["transparent", "white"], "debian, logo, swirl, linux, symbol, white",
     "Software in the Public Interest, Inc.", DESKTOP_BASE, "GPL-3+ or CC-BY-SA-3.0", 120, 6150,
     3020, False),
]

SIZES = {"preview": 150, "web": 640, "large": 1280}


def variant(image, longest):
    """A copy no larger than `longest` px on its long side (never upscaled)."""
    copy = image.copy()
    copy.thumbnail((longest, longest), Image.LANCZOS)
    return copy


def main():
    hits = []
    for index, (name, source, kind, category, colors, tags, user, page_url, licence,
                likes, views, downloads, editors_choice) in enumerate(ENTRIES):
        original = Image.open(source)
        keep_png = source.endswith(".png") and "trns" in source
        if keep_png:
            # The Debian logo's transparency is the point of the picture: stay PNG.
            image = original.convert("RGBA")
            extension = "png"
        else:
            image = original.convert("L" if original.mode == "L" else "RGB")
            extension = "jpg"
        urls = {}
        dims = {}
        for folder, longest in SIZES.items():
            os.makedirs(os.path.join(OUT, folder), exist_ok=True)
            scaled = variant(image, longest)
            relative = f"{folder}/{name}.{extension}"
            path = os.path.join(OUT, relative)
            if keep_png:
                scaled.save(path, "PNG", optimize=True)
            else:
                scaled.save(path, "JPEG", quality=85, optimize=True)
            urls[folder] = relative
            dims[folder] = scaled.size
        hits.append({
            "id": 1000001 + index,
            "pageURL": page_url,
            "type": kind,
            "tags": tags,
            "previewURL": urls["preview"],
            "previewWidth": dims["preview"][0],
            "previewHeight": dims["preview"][1],
            "webformatURL": urls["web"],
            "webformatWidth": dims["web"][0],
            "webformatHeight": dims["web"][1],
            "largeImageURL": urls["large"],
            "imageWidth": original.size[0],
            "imageHeight": original.size[1],
            "imageSize": os.path.getsize(source),
            "views": views,
            "downloads": downloads,
            "collections": downloads // 40,
            "likes": likes,
            "comments": likes // 12,
            "user_id": 0,
            "user": user,
            "userImageURL": "",
            # Offline-only keys (Pixabay does not send them; PixabayHit ignores them):
            "category": category,
            "colors": colors,
            "editorsChoice": editors_choice,
            "licence": licence,
        })
    catalog = {"total": len(hits), "totalHits": len(hits), "hits": hits}
    with open(os.path.join(OUT, "catalog.json"), "w", encoding="utf-8") as out:
        json.dump(catalog, out, indent=1, ensure_ascii=False)
        out.write("\n")
    total = 0
    for base, _, files in os.walk(OUT):
        total += sum(os.path.getsize(os.path.join(base, f)) for f in files)
    print(f"{len(hits)} entries, catalog folder {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
