#!/usr/bin/env python3
import re, shutil, subprocess, sys
from pathlib import Path

IMG = re.compile(r'!\[([^\]]*)\]\(([^)\s]+)|<img[^>]+src="([^"]+)"')


def main(args):
    webp = "--webp" in args
    targets = [Path(a) for a in args if not a.startswith("--")]
    mds = [p for t in targets for p in ([t] if t.is_file() else t.rglob("*.md"))]
    rows = []
    for md in mds:
        for m in IMG.finditer(md.read_text()):
            alt, src = m.group(1), m.group(2) or m.group(3)
            if src.startswith("http"):
                continue
            img = (md.parent / src).resolve()
            if not img.exists():
                continue
            before = img.stat().st_size
            if img.suffix.lower() == ".png" and shutil.which("oxipng"):
                subprocess.run(["oxipng", "-o", "4", "--strip", "safe", str(img)], check=False)
            if webp and shutil.which("cwebp"):
                subprocess.run(["cwebp", "-q", "85", str(img), "-o", str(img.with_suffix(".webp"))], check=False)
            rows.append((str(img), before, img.stat().st_size, "" if alt else "MISSING ALT"))
    for r in rows:
        print(f"{r[0]}  {r[1]:>9} -> {r[2]:>9}  {r[3]}")


if __name__ == "__main__":
    main(sys.argv[1:])
