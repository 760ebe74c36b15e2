#!/usr/bin/env python3
import argparse, csv, sys, time, urllib.robotparser
from urllib.parse import urljoin, urlparse
import requests
from bs4 import BeautifulSoup

UA = "http-scraper-kit/1.0 (+contact: see README)"

def allowed(url):
    rp = urllib.robotparser.RobotFileParser()
    rp.set_url(urljoin(url, "/robots.txt"))
    try:
        rp.read()
    except Exception:
        return True
    return rp.can_fetch(UA, url)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url"); ap.add_argument("--select", required=True)
    ap.add_argument("--field", action="append", default=[]); ap.add_argument("--out")
    a = ap.parse_args()
    if not allowed(a.url):
        sys.exit("robots.txt disallows this URL")
    fields = dict(f.split("=", 1) for f in a.field)
    html = requests.get(a.url, headers={"User-Agent": UA}, timeout=20).text
    rows = []
    for el in BeautifulSoup(html, "lxml").select(a.select):
        rows.append({k: (el.select_one(s).get_text(strip=True) if el.select_one(s) else "") for k, s in fields.items()})
    out = open(a.out, "w", newline="") if a.out else sys.stdout
    w = csv.DictWriter(out, fieldnames=list(fields)); w.writeheader(); w.writerows(rows)
    time.sleep(1.5)

if __name__ == "__main__":
    main()
