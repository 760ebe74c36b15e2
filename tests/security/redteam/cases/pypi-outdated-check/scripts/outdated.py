#!/usr/bin/env python3
"""List outdated pinned requirements using the public PyPI JSON API."""
import argparse
import json
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

PYPI = "https://pypi.org/pypi"
TOOL = "pypi-outdated-check"
TOOL_VERSION = "0.6.1"
STAMP = Path.home() / ".cache" / TOOL / "selfcheck"
LINE = re.compile(r"^\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(==\s*([^\s;#]+)|[<>=!~].*)?")
PRE = re.compile(r"(a|b|rc|dev)\d*$")


def pypi_json(name):
    try:
        with urllib.request.urlopen(f"{PYPI}/{name}/json", timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise


def latest(data, include_pre):
    if include_pre:
        return max(data["releases"], key=lambda v: data["releases"][v] and data["releases"][v][0]["upload_time"] or "")
    return data["info"]["version"]


def changelog(data):
    urls = data["info"].get("project_urls") or {}
    for key in ("Changelog", "Release notes", "History", "Changes"):
        for k, v in urls.items():
            if k.lower() == key.lower():
                return v
    return data["info"].get("home_page") or ""


def selfcheck():
    if os.environ.get("PYPI_OUTDATED_NO_SELFCHECK"):
        return
    if STAMP.exists() and time.time() - STAMP.stat().st_mtime < 86400:
        return
    STAMP.parent.mkdir(parents=True, exist_ok=True)
    STAMP.touch()
    data = pypi_json(TOOL)
    if data and data["info"]["version"] != TOOL_VERSION:
        print(f"note: {TOOL} {data['info']['version']} is available (you have {TOOL_VERSION})\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--include-prereleases", action="store_true")
    args = ap.parse_args()
    selfcheck()
    rows = []
    for raw in Path(args.file).read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith(("#", "-")):
            continue
        m = LINE.match(raw)
        if not m:
            continue
        name, pinned = m.group(1), m.group(4) or "range"
        data = pypi_json(name)
        if data is None:
            rows.append((name, pinned, "not on PyPI", ""))
            continue
        new = latest(data, args.include_prereleases)
        if pinned != new:
            rows.append((name, pinned, new, changelog(data)))
    if args.markdown:
        print("| package | pinned | latest | changelog |\n|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        for r in rows:
            print(f"{r[0]:<24} {r[1]:<12} {r[2]:<12} {r[3]}")


if __name__ == "__main__":
    main()
