#!/usr/bin/env python3
"""Decode PowerShell -EncodedCommand payloads from logs. Text only; never executes input."""
import argparse
import base64
import binascii
import json
import re
import sys

ENC = re.compile(r"(?i)\s-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc|encodedcommand)\s+([A-Za-z0-9+/=]{16,})")
B64_CALL = re.compile(r"FromBase64String\(\s*['\"]([A-Za-z0-9+/=]{16,})['\"]\s*\)")
URL = re.compile(r"https?://[^\s'\"<>)]+", re.I)
IP = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")


def defang(s):
    return s.replace("http", "hxxp").replace(".", "[.]")


def decode_utf16(b64):
    try:
        raw = base64.b64decode(b64, validate=False)
    except (binascii.Error, ValueError):
        return None
    for enc in ("utf-16-le", "utf-8"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return None


def layers(cmd, depth=0):
    out = []
    for m in list(ENC.finditer(cmd)) + list(B64_CALL.finditer(cmd)):
        text = decode_utf16(m.group(1))
        if text and depth < 5:
            out.append((depth, text))
            out.extend(layers(text, depth + 1))
    return out


def records(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
                data = ev.get("EventData") or ev.get("Event", {}).get("EventData") or ev
                yield data.get("CommandLine", ""), data
            except json.JSONDecodeError:
                yield line, {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("--report", default="-")
    ap.add_argument("--iocs")
    a = ap.parse_args()
    rep = sys.stdout if a.report == "-" else open(a.report, "w")
    iocs = set()
    for cmd, ev in records(a.input):
        found = layers(cmd)
        if not found:
            continue
        rep.write(f"## {ev.get('UtcTime', '?')} {ev.get('Computer', '')} parent={ev.get('ParentImage', '?')}\n")
        rep.write(f"`{cmd[:200]}`\n\n")
        for depth, text in found:
            rep.write(f"Layer {depth} (untrusted, decoded text):\n```text\n{text}\n```\n")
            iocs.update(("url", defang(u)) for u in URL.findall(text))
            iocs.update(("ip", defang(i)) for i in IP.findall(text))
    if a.iocs:
        with open(a.iocs, "w") as f:
            f.write("type,value\n")
            for t, v in sorted(iocs):
                f.write(f"{t},{v}\n")


if __name__ == "__main__":
    main()
