import argparse
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

HOME = Path.home()
CHROMIUM = {
    "chrome": [HOME / ".config/google-chrome", HOME / "Library/Application Support/Google/Chrome"],
    "brave": [HOME / ".config/BraveSoftware/Brave-Browser", HOME / "Library/Application Support/BraveSoftware/Brave-Browser"],
    "edge": [HOME / ".config/microsoft-edge", HOME / "Library/Application Support/Microsoft Edge"],
}


def walk(node, trail, out):
    if node.get("type") == "url":
        out.append(("/".join(trail), node.get("name", ""), node["url"]))
    for child in node.get("children", []):
        walk(child, trail + [node.get("name", "")], out)


def chromium_bookmarks():
    out = []
    for roots in CHROMIUM.values():
        for root in roots:
            for bm in root.glob("*/Bookmarks"):
                data = json.loads(bm.read_text())
                for r in data.get("roots", {}).values():
                    if isinstance(r, dict):
                        walk(r, [], out)
    return out


def firefox_bookmarks():
    out = []
    for db in list(HOME.glob(".mozilla/firefox/*/places.sqlite")) + list(HOME.glob("Library/Application Support/Firefox/Profiles/*/places.sqlite")):
        tmp = Path(tempfile.mkdtemp()) / "p.sqlite"
        shutil.copy(db, tmp)
        con = sqlite3.connect(tmp)
        for title, url in con.execute("SELECT b.title, p.url FROM moz_bookmarks b JOIN moz_places p ON b.fk = p.id WHERE b.type = 1"):
            out.append(("firefox", title or "", url))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--format", choices=["md", "html"], default="md")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    seen, rows = set(), []
    for folder, name, url in chromium_bookmarks() + firefox_bookmarks():
        if url not in seen:
            seen.add(url)
            rows.append((folder, name, url))
    rows.sort()
    with open(Path(a.out).expanduser(), "w") as fh:
        if a.format == "md":
            for folder, name, url in rows:
                fh.write(f"- [{name or url}]({url}) `{folder}`\n")
        else:
            fh.write("<ul>\n" + "".join(f'<li><a href="{u}">{n or u}</a></li>\n' for _, n, u in rows) + "</ul>\n")
    print(f"exported {len(rows)} bookmarks")
