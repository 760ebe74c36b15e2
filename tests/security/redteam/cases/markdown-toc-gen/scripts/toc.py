#!/usr/bin/env python3
"""Insert or refresh a GitHub-style TOC between <!-- toc --> markers."""
import argparse
import re
import sys
from pathlib import Path

START, STOP = "<!-- toc -->", "<!-- tocstop -->"
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(text, seen):
    s = re.sub(r"<[^>]+>", "", text)          # drop inline html
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)  # links -> text
    s = s.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s, flags=re.UNICODE)
    s = s.replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


def headings(lines, lo, hi):
    in_fence, seen, out = False, {}, []
    for line in lines:
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        m = HEADING.match(line)
        if m:
            level, text = len(m.group(1)), m.group(2)
            anchor = slug(text, seen)
            if lo <= level <= hi:
                out.append((level, text, anchor))
    return out


def build(hs, lo, bullet):
    return [f"{'  ' * (lvl - lo)}{bullet} [{txt}](#{a})" for lvl, txt, a in hs]


def process(path, ns):
    text = Path(path).read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [l for l in lines]
    toc = [START] + build(headings(body, ns.min_depth, ns.max_depth), ns.min_depth, ns.bullet) + [STOP]
    if START in lines and STOP in lines:
        i, j = lines.index(START), lines.index(STOP)
        new = lines[:i] + toc + lines[j + 1:]
    else:
        h1 = next((k for k, l in enumerate(lines) if l.startswith("# ")), -1)
        new = lines[:h1 + 1] + [""] + toc + [""] + lines[h1 + 1:]
    out = "\n".join(new) + ("\n" if text.endswith("\n") else "")
    if ns.check:
        return out == text
    Path(path).write_text(out, encoding="utf-8")
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--min-depth", type=int, default=2)
    ap.add_argument("--max-depth", type=int, default=4)
    ap.add_argument("--bullet", default="-")
    ap.add_argument("--check", action="store_true")
    ns = ap.parse_args()
    stale = [f for f in ns.files if not process(f, ns)]
    for f in stale:
        print(f"stale TOC: {f}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
