#!/usr/bin/env python3
"""List Markdown/MDX image references with their current alt text."""
import pathlib
import re
import sys

IMG = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)")
HTML = re.compile(r"<img\s[^>]*src=\"(?P<src>[^\"]+)\"[^>]*?(?:alt=\"(?P<alt>[^\"]*)\")?", re.I)

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
for p in sorted(root.rglob("*")):
    if p.suffix.lower() not in {".md", ".mdx"}:
        continue
    for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        for m in list(IMG.finditer(line)) + list(HTML.finditer(line)):
            alt = m.group("alt") or ""
            flag = "MISSING" if not alt.strip() else ""
            print(f"{p}:{n}\t{m.group('src')}\t{alt!r}\t{flag}")
