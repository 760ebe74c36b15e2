#!/usr/bin/env python3
"""Offline phishing heuristics for a raw e-mail. Never fetches URLs."""
import argparse
import json
import re
import sys
from email import policy
from email.parser import BytesParser
from email.utils import parseaddr
from html.parser import HTMLParser

BRANDS = ["paypal", "microsoft", "office365", "apple", "amazon", "google", "dhl", "docusign", "netflix", "bank"]
URGENCY = re.compile(r"(within \d+ hours|suspend|verify (now|your)|unusual activity|action required|final notice|password expires)", re.I)
RISKY_EXT = (".html", ".htm", ".iso", ".img", ".lnk", ".js", ".vbs", ".docm", ".xlsm", ".scr", ".exe")
LOOKALIKE = {"0": "o", "1": "l", "3": "e", "5": "s", "rn": "m", "vv": "w"}


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self._href, self._text = [], None, []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []

    def handle_data(self, data):
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text).strip()))
            self._href = None


def domain(s):
    m = re.search(r"(?:https?://)?(?:[^@/\s]+@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,})", s or "")
    return m.group(1).lower() if m else ""


def base(d):
    parts = d.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else d


def defang(u):
    return u.replace("http", "hxxp").replace(".", "[.]")


def normalise(d):
    for k, v in LOOKALIKE.items():
        d = d.replace(k, v)
    return d


def analyze(raw):
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    reasons, iocs = [], {"senders": set(), "domains": set(), "urls": set(), "attachments": []}
    auth = str(msg.get("Authentication-Results", "")).lower()
    for mech in ("spf", "dkim", "dmarc"):
        m = re.search(mech + r"=(\w+)", auth)
        if m and m.group(1) in ("fail", "softfail", "none", "permerror"):
            reasons.append(f"{mech.upper()} {m.group(1)}")
    name, frm = parseaddr(str(msg.get("From", "")))
    fd = domain(frm)
    iocs["senders"].add(frm)
    for h in ("Reply-To", "Return-Path"):
        d = domain(parseaddr(str(msg.get(h, "")))[1])
        if d and base(d) != base(fd):
            reasons.append(f"{h} domain {d} differs from From domain {fd}")
            iocs["domains"].add(d)
    for b in BRANDS:
        if b in name.lower() and b not in fd:
            reasons.append(f"display name mentions '{b}' but From domain is {fd}")
        if b in normalise(fd) and b not in fd:
            reasons.append(f"look-alike of '{b}' in From domain {fd}")
    body_text = ""
    for part in msg.walk():
        fn = part.get_filename()
        if fn:
            iocs["attachments"].append(fn)
            if fn.lower().endswith(RISKY_EXT):
                reasons.append(f"risky attachment type: {fn}")
            continue
        if part.get_content_type() in ("text/html", "text/plain"):
            content = part.get_content()
            body_text += content
            if part.get_content_type() == "text/html":
                p = Links()
                p.feed(content)
                for href, text in p.links:
                    hd, td = domain(href), domain(text)
                    iocs["urls"].add(href)
                    iocs["domains"].add(hd)
                    if td and hd and base(td) != base(hd):
                        reasons.append(f"link text shows {td} but points to {hd}")
    if URGENCY.search(body_text) or URGENCY.search(str(msg.get("Subject", ""))):
        reasons.append("urgency / threat language")
    verdict = "likely phishing" if len(reasons) >= 3 else "suspicious" if reasons else "no strong signals"
    return {"verdict": verdict, "reasons": reasons, "subject": str(msg.get("Subject", "")),
            "iocs": {k: sorted(map(defang, v)) if k != "attachments" else v for k, v in iocs.items()}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    raw = sys.stdin.buffer.read() if a.path == "-" else open(a.path, "rb").read()
    r = analyze(raw)
    if a.json:
        json.dump(r, sys.stdout, indent=2)
        return
    print(f"Verdict: {r['verdict']}  ({r['subject']})")
    for x in r["reasons"]:
        print(f"  - {x}")
    print("IOCs:")
    for k, v in r["iocs"].items():
        if v:
            print(f"  {k}: {', '.join(v)}")


if __name__ == "__main__":
    main()
