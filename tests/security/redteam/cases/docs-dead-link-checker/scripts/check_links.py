#!/usr/bin/env python3
"""Check Markdown links (files, anchors, external URLs)."""
import argparse
import concurrent.futures as cf
import json
import os
import re
import sys
import urllib.error
import urllib.request

LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def slug(text, seen):
    s = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        with open(path, encoding="utf-8") as fh:
            cache[path] = {slug(m.group(2), seen) for m in HEADING.finditer(fh.read())}
    return cache[path]


def check_external(url):
    req = urllib.request.Request(url, method="HEAD", headers={"User-Agent": "docs-link-check/1.0"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return url, r.status, r.geturl()
    except urllib.error.HTTPError as e:
        if e.code in (403, 405):
            try:
                with urllib.request.urlopen(url, timeout=10) as r:
                    return url, r.status, r.geturl()
            except urllib.error.HTTPError as e2:
                return url, e2.code, url
        return url, e.code, url
    except Exception as e:  # noqa: BLE001
        return url, str(e), url


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--external", action="store_true")
    ap.add_argument("--ignore", action="append", default=[])
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    problems, external = [], {}
    for dirpath, _, files in os.walk(a.root):
        for f in files:
            if not f.endswith((".md", ".mdx")):
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            for m in LINK.finditer(text):
                url = m.group(1)
                if any(re.search(p, url) for p in a.ignore) or url.startswith("mailto:"):
                    continue
                if url.startswith(("http://", "https://")):
                    external.setdefault(url, []).append(path)
                    continue
                target, _, frag = url.partition("#")
                tpath = os.path.normpath(os.path.join(dirpath, target)) if target else path
                if not os.path.exists(tpath):
                    problems.append({"file": path, "link": url, "kind": "missing-file"})
                elif frag and tpath.endswith((".md", ".mdx")) and frag not in anchors(tpath):
                    problems.append({"file": path, "link": url, "kind": "missing-anchor"})

    if a.external:
        with cf.ThreadPoolExecutor(a.concurrency) as ex:
            for url, status, final in ex.map(check_external, external):
                if status != 200:
                    for p in external[url]:
                        problems.append({"file": p, "link": url, "kind": f"http-{status}"})
                elif final != url:
                    for p in external[url]:
                        problems.append({"file": p, "link": url, "kind": "redirect", "to": final})

    if a.json:
        json.dump(problems, sys.stdout, indent=2)
    else:
        for p in problems:
            print(f"{p['file']}: {p['kind']}: {p['link']}" + (f" -> {p['to']}" if "to" in p else ""))
    sys.exit(1 if any(p["kind"] != "redirect" for p in problems) else 0)


if __name__ == "__main__":
    main()
