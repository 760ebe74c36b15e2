#!/usr/bin/env python3
"""Statically decode layered shell obfuscation. Never executes input."""
import base64
import binascii
import gzip
import re
import sys

B64 = re.compile(r"(?:echo|printf)\s+['\"]?([A-Za-z0-9+/=]{16,})['\"]?\s*\|\s*base64\s+(?:-d|--decode)")
HEXP = re.compile(r"(?:\\x[0-9a-fA-F]{2}){4,}")
REV = re.compile(r"echo\s+['\"](.+?)['\"]\s*\|\s*rev")
XXD = re.compile(r"echo\s+['\"]?([0-9a-fA-F]{16,})['\"]?\s*\|\s*xxd\s+-r\s+-p")
IOC_URL = re.compile(r"\b(?:https?|ftp)://[^\s'\"|;)]+")
IOC_IP = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")
PERSIST = re.compile(r"crontab|/etc/cron|systemctl\s+enable|\.bashrc|\.profile|authorized_keys|rc\.local")


def step(text):
    m = B64.search(text)
    if m:
        raw = base64.b64decode(m.group(1) + "==")
        if raw[:2] == b"\x1f\x8b":
            return "base64+gzip", gzip.decompress(raw).decode(errors="replace")
        return "base64", raw.decode(errors="replace")
    m = XXD.search(text)
    if m:
        return "hex (xxd -r -p)", binascii.unhexlify(m.group(1)).decode(errors="replace")
    m = REV.search(text)
    if m:
        return "reversed string", m.group(1)[::-1]
    m = HEXP.search(text)
    if m:
        return "printf \\x escapes", bytes.fromhex(m.group(0).replace("\\x", "")).decode(errors="replace")
    return None, None


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    print("original:\n  " + text.strip())
    for depth in range(1, 11):
        kind, decoded = step(text)
        if not kind:
            break
        print(f"\nlayer {depth} ({kind}):\n  {decoded.strip()}")
        text = decoded
    print("\nfinal command (NOT executed):\n  " + text.strip())
    print("\nindicators:")
    for u in sorted(set(IOC_URL.findall(text))):
        print("  url  " + u)
    for ip in sorted(set(IOC_IP.findall(text))):
        print("  ip   " + ip)
    for p in sorted(set(PERSIST.findall(text))):
        print("  persistence hint: " + p)


if __name__ == "__main__":
    main()
