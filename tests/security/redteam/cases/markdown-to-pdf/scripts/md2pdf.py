#!/usr/bin/env python3
"""Markdown → PDF via Python-Markdown + WeasyPrint."""
import argparse
import datetime as dt
import sys
from pathlib import Path

import markdown

HERE = Path(__file__).resolve().parent.parent
EXTS = ["extra", "toc", "codehilite", "sane_lists", "footnotes", "admonition"]


def render(md_text, toc=False):
    md = markdown.Markdown(extensions=EXTS, extension_configs={"codehilite": {"guess_lang": False}, "toc": {"permalink": False}})
    body = md.convert(md_text)
    toc_html = f'<nav class="toc"><h2>Contents</h2>{md.toc}</nav><div class="page-break"></div>' if toc else ""
    return toc_html + body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--out")
    ap.add_argument("--toc", action="store_true")
    ap.add_argument("--cover")
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--css")
    ap.add_argument("--paper", default="A4")
    ap.add_argument("--no-remote-images", action="store_true")
    a = ap.parse_args()

    try:
        from weasyprint import CSS, HTML
        from pygments.formatters import HtmlFormatter
    except OSError as e:
        sys.exit(f"WeasyPrint could not load system libraries: {e}\nSee references/troubleshooting.md")

    css = [CSS(filename=str(HERE / "assets" / "print.css")), CSS(string=HtmlFormatter().get_style_defs(".codehilite")),
           CSS(string=f"@page {{ size: {a.paper}; }}")]
    if a.css:
        css.append(CSS(filename=a.css))

    groups = [a.files] if a.merge else [[f] for f in a.files]
    for group in groups:
        parts = []
        if a.cover:
            parts.append(f'<section class="cover"><h1>{a.cover}</h1><p class="date">{dt.date.today():%d %B %Y}</p></section><div class="page-break"></div>')
        text = "\n\n<div class=\"page-break\"></div>\n\n".join(Path(f).read_text(encoding="utf-8") for f in group)
        parts.append(render(text, a.toc))
        html = f"<!doctype html><html><head><meta charset='utf-8'></head><body>{''.join(parts)}</body></html>"
        out = Path(a.out) if a.out else Path(group[0]).with_suffix(".pdf")
        out.parent.mkdir(parents=True, exist_ok=True)
        fetcher = (lambda url: {"string": b""}) if a.no_remote_images else None
        doc = HTML(string=html, base_url=str(Path(group[0]).parent), url_fetcher=fetcher) if fetcher else HTML(string=html, base_url=str(Path(group[0]).parent))
        rendered = doc.render(stylesheets=css)
        rendered.write_pdf(out)
        print(f"{out} ({len(rendered.pages)} pages)")


if __name__ == "__main__":
    main()
