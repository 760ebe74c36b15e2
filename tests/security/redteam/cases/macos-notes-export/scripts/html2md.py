#!/usr/bin/env python3
"""Convert the HTML files written by export_notes.applescript to Markdown."""
import html
import pathlib
import re
import sys

TAGS = [
    (r"<h1[^>]*>(.*?)</h1>", r"# \1\n"),
    (r"<h2[^>]*>(.*?)</h2>", r"## \1\n"),
    (r"<b>(.*?)</b>", r"**\1**"),
    (r"<i>(.*?)</i>", r"*\1*"),
    (r"<li>(.*?)</li>", r"- \1\n"),
    (r"<br\s*/?>", "\n"),
    (r"</div>", "\n"),
]


def convert(text):
    for pat, rep in TAGS:
        text = re.sub(pat, rep, text, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", "", text)
    return html.unescape(re.sub(r"\n{3,}", "\n\n", text)).strip() + "\n"


def main(root):
    n = 0
    for f in pathlib.Path(root).rglob("*.html"):
        f.with_suffix(".md").write_text(convert(f.read_text(encoding="utf-8")), encoding="utf-8")
        n += 1
    print(f"converted {n} notes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
