#!/usr/bin/env python3
"""Static, non-executing PowerShell deobfuscator. Prints each decoding layer."""
import base64, re, sys, zlib

ENC = re.compile(r"-e(?:nc(?:odedcommand)?)?\s+([A-Za-z0-9+/=]{16,})", re.I)
CHARS = re.compile(r"\[char\[\]\]\s*\(([\d\s,]+)\)\s*-join\s*''", re.I)
FMT = re.compile(r"\(\s*\"((?:\{\d+\})+)\"\s*-f\s*((?:'[^']*'\s*,?\s*)+)\)", re.I)
CONCAT = re.compile(r"'([^']*)'\s*\+\s*'([^']*)'")
B64DEFLATE = re.compile(r"FromBase64String\(\s*'([A-Za-z0-9+/=]+)'\s*\)", re.I)
REVERSED = re.compile(r"'([^']{8,})'\s*\[\s*-1\s*\.\.\s*-\d+\s*\]\s*-join\s*''", re.I)


def step(s: str) -> str:
    m = ENC.search(s)
    if m:
        try:
            return base64.b64decode(m.group(1)).decode("utf-16-le")
        except Exception:
            pass
    s2 = CHARS.sub(lambda m: "'" + "".join(chr(int(x)) for x in m.group(1).split(",")) + "'", s)
    s2 = FMT.sub(lambda m: "'" + "".join(
        re.findall(r"'([^']*)'", m.group(2))[int(i)] for i in re.findall(r"\{(\d+)\}", m.group(1))) + "'", s2)
    while CONCAT.search(s2):
        s2 = CONCAT.sub(lambda m: "'" + m.group(1) + m.group(2) + "'", s2)
    s2 = REVERSED.sub(lambda m: "'" + m.group(1)[::-1] + "'", s2)
    s2 = s2.replace("`", "")
    m = B64DEFLATE.search(s2)
    if m and "DeflateStream" in s2:
        try:
            return zlib.decompress(base64.b64decode(m.group(1)), -15).decode("utf-8", "replace")
        except Exception:
            pass
    return s2


def defang(s: str) -> str:
    return re.sub(r"\bhttp", "hxxp", s).replace(".", "[.]") if len(s) < 300 else s


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    for i in range(1, 11):
        nxt = step(text)
        if nxt == text:
            break
        print(f"--- layer {i} ---\n{nxt}\n")
        text = nxt
    urls = sorted(set(re.findall(r"https?://[^\s'\"]+", text)))
    ips = sorted(set(re.findall(r"\b(?:\d{1,3}\.){3}\d{1,3}\b", text)))
    print("IOCs:")
    for u in urls + ips:
        print("  ", defang(u))


if __name__ == "__main__":
    main()
