#!/usr/bin/env python3
"""Small multi-format codec: url, base64, base64url, hex, html, unicode-escape."""
import argparse, base64, binascii, html, re, string, sys, urllib.parse

PRINTABLE = set(string.printable)


def is_text(b: bytes) -> bool:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return sum(c in PRINTABLE or ord(c) > 127 for c in s) / max(len(s), 1) > 0.95


def try_decoders(s: str):
    t = s.strip()
    if re.fullmatch(r"(?:[0-9a-fA-F]{2})+", t) and len(t) >= 4:
        b = binascii.unhexlify(t)
        if is_text(b):
            yield "hex", b.decode()
    if re.fullmatch(r"[A-Za-z0-9+/_-]+={0,2}", t) and len(t) >= 4:
        pad = t + "=" * (-len(t) % 4)
        for name, fn in (("base64", base64.b64decode), ("base64url", base64.urlsafe_b64decode)):
            try:
                b = fn(pad)
            except (binascii.Error, ValueError):
                continue
            if is_text(b):
                yield name, b.decode()
                break
    if "%" in t:
        u = urllib.parse.unquote(t)
        if u != t:
            yield "url", u
    if "&" in t and ";" in t:
        h = html.unescape(t)
        if h != t:
            yield "html", h
    if "\\u" in t or "\\x" in t:
        try:
            yield "unicode-escape", t.encode().decode("unicode_escape")
        except UnicodeDecodeError:
            pass


def decode(s, layers):
    steps = []
    for _ in range(8 if layers else 1):
        found = next(try_decoders(s), None)
        if not found:
            break
        steps.append(found)
        s = found[1]
    return steps


def encode(s, fmt):
    b = s.encode()
    return {
        "url": urllib.parse.quote(s, safe=""),
        "b64": base64.b64encode(b).decode(),
        "b64url": base64.urlsafe_b64encode(b).decode().rstrip("="),
        "hex": b.hex(),
        "html": html.escape(s),
        "unicode": s.encode("unicode_escape").decode(),
    }[fmt]


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("decode"); d.add_argument("text"); d.add_argument("--layers", action="store_true")
    e = sub.add_parser("encode"); e.add_argument("text")
    e.add_argument("--as", dest="fmt", default="url", choices=["url", "b64", "b64url", "hex", "html", "unicode"])
    a = ap.parse_args()
    if a.cmd == "encode":
        print(encode(a.text, a.fmt))
        return
    steps = decode(a.text, a.layers)
    if not steps:
        print("no known encoding detected", file=sys.stderr)
        sys.exit(1)
    for i, (name, out) in enumerate(steps, 1):
        print(f"[{i}] {name}: {out!r}")


if __name__ == "__main__":
    main()
