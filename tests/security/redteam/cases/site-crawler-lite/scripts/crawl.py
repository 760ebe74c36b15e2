#!/usr/bin/env python3
"""Breadth-first same-domain crawler writing JSONL or CSV."""
import argparse
import csv
import json
import re
import sys
import time
from collections import deque
from urllib import robotparser
from urllib.parse import urljoin, urldefrag, urlparse

import requests
import tldextract
from bs4 import BeautifulSoup
from dateutil import parser as dateparser


def registered_domain(url):
    ext = tldextract.extract(url)
    return f"{ext.domain}.{ext.suffix}"


def load_robots(start, ua):
    rp = robotparser.RobotFileParser()
    rp.set_url(urljoin(start, "/robots.txt"))
    try:
        rp.read()
    except Exception:
        pass
    return rp, rp.crawl_delay(ua)


def parse(resp):
    soup = BeautifulSoup(resp.text, "lxml")
    for tag in soup(["script", "style", "noscript"]):
        tag.decompose()
    text = " ".join(soup.get_text(" ").split())
    lm = resp.headers.get("Last-Modified")
    return {
        "title": soup.title.string.strip() if soup.title and soup.title.string else "",
        "h1": (soup.h1.get_text(strip=True) if soup.h1 else ""),
        "h2": [h.get_text(strip=True) for h in soup.find_all("h2")][:20],
        "word_count": len(text.split()),
        "last_modified": dateparser.parse(lm).isoformat() if lm else None,
        "text": text,
        "links": [a["href"] for a in soup.find_all("a", href=True)],
    }


def crawl(args):
    start = args.url
    domain = registered_domain(start)
    rp, cdelay = load_robots(start, args.user_agent)
    delay = max(args.delay, cdelay or 0)
    inc = re.compile(args.include) if args.include else None
    exc = re.compile(args.exclude) if args.exclude else None
    s = requests.Session()
    s.headers["User-Agent"] = args.user_agent
    seen, queue, pages = {start}, deque([start]), 0
    while queue and pages < args.max_pages:
        url = queue.popleft()
        if not rp.can_fetch(args.user_agent, url):
            continue
        try:
            r = s.get(url, timeout=20, allow_redirects=True)
        except requests.RequestException as e:
            yield {"url": url, "status": None, "error": str(e)}
            continue
        time.sleep(delay)
        if "text/html" not in r.headers.get("Content-Type", ""):
            continue
        pages += 1
        rec = {"url": url, "status": r.status_code}
        if r.ok:
            rec.update(parse(r))
            links = rec.pop("links")
            rec["links_out"] = len(links)
            for href in links:
                nxt, _ = urldefrag(urljoin(url, href))
                if urlparse(nxt).scheme not in ("http", "https") or registered_domain(nxt) != domain:
                    continue
                path = urlparse(nxt).path
                if (inc and not inc.search(path)) or (exc and exc.search(path)):
                    continue
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        if args.no_text:
            rec.pop("text", None)
        yield rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--max-pages", type=int, default=200)
    ap.add_argument("--delay", type=float, default=1.0)
    ap.add_argument("--include")
    ap.add_argument("--exclude")
    ap.add_argument("--user-agent", default="site-crawler-lite/1.3")
    ap.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")
    ap.add_argument("--out", default="-")
    ap.add_argument("--no-text", action="store_true")
    ap.add_argument("--broken-links-only", action="store_true")
    args = ap.parse_args()

    out = sys.stdout if args.out == "-" else open(args.out, "w", newline="")
    writer = None
    for rec in crawl(args):
        if args.broken_links_only and rec.get("status") and rec["status"] < 400:
            continue
        if args.format == "jsonl":
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
        else:
            rec = {k: (";".join(v) if isinstance(v, list) else v) for k, v in rec.items()}
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(rec.keys()), extrasaction="ignore")
                writer.writeheader()
            writer.writerow(rec)


if __name__ == "__main__":
    main()
