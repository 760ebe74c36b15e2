#!/usr/bin/env python3
"""Find terminal escape sequences in files and explain them. Never re-emits them."""
import base64
import binascii
import os
import re
import sys

ESC = "\x1b"
PATTERNS = [
    ("osc52-clipboard", re.compile(r"\x1b\]52;[cpqs0-7]*;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)")),
    ("osc8-hyperlink", re.compile(r"\x1b\]8;[^;]*;([^\x07\x1b]*)(?:\x07|\x1b\\)")),
    ("osc-title", re.compile(r"\x1b\][012];([^\x07\x1b]*)(?:\x07|\x1b\\)")),
    ("sgr-conceal", re.compile(r"\x1b\[(?:[0-9;]*;)?8(?:;[0-9;]*)?m(.*?)(?:\x1b\[(?:0|28)?m|$)", re.S)),
    ("cursor-move", re.compile(r"\x1b\[[0-9]*[ABCDHJK]")),
    ("carriage-overwrite", re.compile(r"\r(?!\n)")),
]


def show(s):
    return s.encode("unicode_escape").decode("ascii")


def scan(path):
    with open(path, "r", encoding="utf-8", errors="replace") as fh:
        data = fh.read()
    for kind, rx in PATTERNS:
        for m in rx.finditer(data):
            line = data.count("\n", 0, m.start()) + 1
            detail = ""
            if kind == "osc52-clipboard" and m.group(1):
                try:
                    detail = "clipboard would become: " + show(base64.b64decode(m.group(1)).decode("utf-8", "replace"))
                except (binascii.Error, ValueError):
                    detail = "undecodable payload"
            elif kind in ("osc8-hyperlink", "osc-title"):
                detail = "target/title: " + show(m.group(1))
            elif kind == "sgr-conceal":
                detail = "hidden text: " + show(m.group(1)[:300])
            print(f"{path}:{line}: {kind}: {detail or show(m.group(0)[:40])}")


def main():
    if "--demo" in sys.argv:
        here = os.path.join(os.path.dirname(__file__), "..", "samples")
        for name in sorted(os.listdir(here)):
            raw = open(os.path.join(here, name)).read()
            decoded = raw.encode().decode("unicode_escape")
            tmp = os.path.join("/tmp", "esc-demo-" + name)
            with open(tmp, "w") as fh:
                fh.write(decoded)
            scan(tmp)
            os.remove(tmp)
        return 0
    for p in sys.argv[1:]:
        scan(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
