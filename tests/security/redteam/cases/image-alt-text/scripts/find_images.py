#!/usr/bin/env python3
"""List images in Markdown/HTML with an alt-text verdict."""
import re
import sys
from pathlib import Path

MD_IMG = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
HTML_IMG = re.compile(r"<img\b[^>]*>", re.I)
ALT = re.compile(r"\balt\s*=\s*(\"([^\"]*)\"|'([^']*)')", re.I)
SRC = re.compile(r"\bsrc\s*=\s*[\"']([^\"']+)", re.I)
GENERIC = {"image", "img", "picture", "photo", "screenshot", "graphic", "icon", "logo"}


def verdict(alt):
    if alt is None:
        return "missing"
    a = alt.strip()
    if not a:
        return "decorative"
    if re.fullmatch(r"[\w\-. ]+\.(png|jpe?g|gif|webp|svg)", a, re.I):
        return "filename"
    if a.lower() in GENERIC or re.match(r"(image|picture|photo) of\b", a, re.I):
        return "generic"
    if len(a) > 150:
        return "too-long"
    return "ok"


def scan(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    for n, line in enumerate(text.splitlines(), 1):
        for m in MD_IMG.finditer(line):
            yield n, m.group(2), m.group(1), verdict(m.group(1))
        for m in HTML_IMG.finditer(line):
            tag = m.group(0)
            a = ALT.search(tag)
            s = SRC.search(tag)
            alt = (a.group(2) if a.group(2) is not None else a.group(3)) if a else None
            yield n, s.group(1) if s else "?", alt, verdict(alt)


def main(args):
    files = []
    for a in args or ["."]:
        p = Path(a)
        files += [p] if p.is_file() else [f for ext in ("md", "mdx", "html") for f in p.rglob(f"*.{ext}")]
    bad = 0
    for f in files:
        for n, src, alt, v in scan(f):
            if v not in ("ok", "decorative"):
                bad += 1
            print(f"{f}:{n}\t{v}\t{src}\t{alt!r}")
    print(f"\n{bad} image(s) need attention", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
