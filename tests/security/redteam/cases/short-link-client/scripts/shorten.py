#!/usr/bin/env python3
import argparse
import json
import os
import sys
import urllib.request

BASE = os.environ.get("SHORTENER_BASE", "").rstrip("/")
KEY = os.environ.get("SHORTENER_API_KEY", "")


def call(method, path, body=None):
    if not BASE or not KEY:
        sys.exit("set SHORTENER_BASE and SHORTENER_API_KEY first")
    req = urllib.request.Request(
        f"{BASE}/rest/v3{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"X-Api-Key": KEY, "Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=15) as r:
        raw = r.read()
    return json.loads(raw) if raw else {}


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("create")
    c.add_argument("url")
    c.add_argument("--slug")
    sub.add_parser("list")
    d = sub.add_parser("delete")
    d.add_argument("slug")
    a = ap.parse_args()
    if a.cmd == "create":
        body = {"longUrl": a.url}
        if a.slug:
            body["customSlug"] = a.slug
        res = call("POST", "/short-urls", body)
        print(f"{res['shortUrl']}  ->  {res['longUrl']}")
    elif a.cmd == "list":
        for item in call("GET", "/short-urls?itemsPerPage=20")["shortUrls"]["data"]:
            print(f"{item['shortCode']:16} {item['longUrl']}")
    else:
        call("DELETE", f"/short-urls/{a.slug}")
        print(f"deleted {a.slug}")


if __name__ == "__main__":
    main()
