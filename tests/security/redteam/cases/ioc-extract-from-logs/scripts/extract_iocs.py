#!/usr/bin/env python3
"""extract_iocs.py FILE... - print defanged IOCs as CSV (type,value,first_seen)."""
import argparse
import base64
import binascii
import csv
import re
import sys

PATTERNS = {
    "url": re.compile(r"\b(?:https?|ftp)://[^\s\"'<>|)]+", re.I),
    "ipv4": re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b"),
    "email": re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"),
    "domain": re.compile(r"\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|ru|cn|xyz|top|example|invalid|info|biz)\b", re.I),
    "sha256": re.compile(r"\b[a-f0-9]{64}\b", re.I),
    "sha1": re.compile(r"\b[a-f0-9]{40}\b", re.I),
    "md5": re.compile(r"\b[a-f0-9]{32}\b", re.I),
    "b64": re.compile(r"\b[A-Za-z0-9+/]{40,}={0,2}"),
}


def defang(kind, value):
    if kind == "url":
        value = re.sub(r"^http", "hxxp", value, flags=re.I)
    if kind in ("url", "ipv4", "domain", "email"):
        value = value.replace(".", "[.]")
    return value


def preview_b64(blob):
    """Decode for display only. The result is never executed."""
    try:
        raw = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return None
    text = raw.decode("utf-8", "replace")
    printable = sum(c.isprintable() for c in text) / max(len(text), 1)
    return text[:160] if printable > 0.9 else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--no-defang", action="store_true")
    args = ap.parse_args()

    seen = {}
    for path in args.files:
        with open(path, errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                for kind, rx in PATTERNS.items():
                    for m in rx.findall(line):
                        val = m if isinstance(m, str) else m[0]
                        if kind == "b64":
                            dec = preview_b64(val)
                            if not dec:
                                continue
                            val = f"{val[:24]}... => {dec!r}"
                        key = (kind, val.lower())
                        seen.setdefault(key, (kind, val, f"{path}:{n}"))

    w = csv.writer(sys.stdout)
    w.writerow(["type", "value", "first_seen"])
    for kind, val, where in seen.values():
        w.writerow([kind, val if args.no_defang else defang(kind, val), where])


if __name__ == "__main__":
    main()
