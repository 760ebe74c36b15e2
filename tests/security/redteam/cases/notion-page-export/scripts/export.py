#!/usr/bin/env python3
"""Export a Notion page tree or database to Markdown."""
import argparse
import os
import sys
import time
from pathlib import Path

import requests
from notion_client import Client
from notion_client.errors import APIResponseError
from slugify import slugify

DELAY = 0.35


def call(fn, **kw):
    while True:
        try:
            time.sleep(DELAY)
            return fn(**kw)
        except APIResponseError as e:
            if e.status == 429:
                time.sleep(2)
                continue
            raise


def children(nc, block_id):
    cursor = None
    while True:
        res = call(nc.blocks.children.list, block_id=block_id, start_cursor=cursor) if cursor else call(nc.blocks.children.list, block_id=block_id)
        yield from res["results"]
        if not res.get("has_more"):
            return
        cursor = res["next_cursor"]


def rich(rt):
    out = []
    for t in rt:
        s = t.get("plain_text", "")
        a = t.get("annotations", {})
        if a.get("code"):
            s = f"`{s}`"
        if a.get("bold"):
            s = f"**{s}**"
        if a.get("italic"):
            s = f"_{s}_"
        if a.get("strikethrough"):
            s = f"~~{s}~~"
        if t.get("href"):
            s = f"[{s}]({t['href']})"
        out.append(s)
    return "".join(out)


def render(nc, block, folder, opts, depth=0):
    t = block["type"]
    b = block[t]
    pad = "  " * depth
    lines = []
    if t == "paragraph":
        lines.append(pad + rich(b["rich_text"]))
    elif t.startswith("heading_"):
        lines.append("#" * int(t[-1]) + " " + rich(b["rich_text"]))
    elif t == "bulleted_list_item":
        lines.append(f"{pad}- {rich(b['rich_text'])}")
    elif t == "numbered_list_item":
        lines.append(f"{pad}1. {rich(b['rich_text'])}")
    elif t == "to_do":
        lines.append(f"{pad}- [{'x' if b['checked'] else ' '}] {rich(b['rich_text'])}")
    elif t == "code":
        lines += [f"```{b.get('language', '')}", rich(b["rich_text"]), "```"]
    elif t in ("quote", "callout"):
        lines.append("> " + rich(b["rich_text"]))
    elif t == "image":
        url = b.get("file", {}).get("url") or b.get("external", {}).get("url")
        if opts.no_images or b["type"] == "external":
            lines.append(f"![]({url})")
        else:
            img_dir = folder / "images"
            img_dir.mkdir(parents=True, exist_ok=True)
            name = block["id"] + Path(url.split("?")[0]).suffix
            (img_dir / name).write_bytes(requests.get(url, timeout=60).content)
            lines.append(f"![](images/{name})")
    elif t == "child_page":
        export_page(nc, block["id"], folder if opts.flat else folder / slugify(b["title"]), opts)
        lines.append(f"- [{b['title']}]({slugify(b['title'])}/index.md)")
    else:
        lines.append(f"<!-- unsupported block {t} {block['id']} -->")
    if block.get("has_children") and t not in ("child_page", "child_database"):
        for c in children(nc, block["id"]):
            lines += render(nc, c, folder, opts, depth + 1)
    return lines


def export_page(nc, page_id, folder, opts):
    page = call(nc.pages.retrieve, page_id=page_id)
    if opts.since and page["last_edited_time"] < opts.since:
        return
    folder.mkdir(parents=True, exist_ok=True)
    title = "Untitled"
    for p in page["properties"].values():
        if p["type"] == "title":
            title = rich(p["title"]) or title
    body = [f"---\ntitle: \"{title}\"\nnotion_id: {page_id}\nedited: {page['last_edited_time']}\n---", f"# {title}"]
    for blk in children(nc, page_id):
        body += render(nc, blk, folder, opts)
    (folder / "index.md").write_text("\n\n".join(body) + "\n")
    print("exported", title)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", default="notion-export")
    ap.add_argument("--no-images", action="store_true")
    ap.add_argument("--since")
    ap.add_argument("--flat", action="store_true")
    opts = ap.parse_args()
    token = os.environ.get("NOTION_TOKEN")
    if not token:
        sys.exit("Set NOTION_TOKEN")
    nc = Client(auth=token)
    export_page(nc, opts.root, Path(opts.out), opts)


if __name__ == "__main__":
    main()
