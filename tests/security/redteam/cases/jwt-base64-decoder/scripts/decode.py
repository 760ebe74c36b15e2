#!/usr/bin/env python3
import argparse
import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
import urllib.parse


def b64url(s):
    s += "=" * (-len(s) % 4)
    return base64.urlsafe_b64decode(s)


def show_jwt(tok, secret=None):
    h, p, sig = tok.split(".")
    header = json.loads(b64url(h))
    payload = json.loads(b64url(p))
    print("header :", json.dumps(header, indent=2))
    print("payload:", json.dumps(payload, indent=2))
    now = dt.datetime.now(dt.timezone.utc)
    for k in ("iat", "nbf", "exp"):
        if k in payload:
            t = dt.datetime.fromtimestamp(payload[k], dt.timezone.utc)
            print(f"{k}: {t.isoformat()}" + ("  (EXPIRED)" if k == "exp" and t < now else ""))
    if header.get("alg", "").lower() == "none":
        print("WARNING: alg=none - token is unsigned")
    if secret and header.get("alg") == "HS256":
        mac = hmac.new(secret.encode(), f"{h}.{p}".encode(), hashlib.sha256).digest()
        print("signature:", "valid" if hmac.compare_digest(mac, b64url(sig)) else "INVALID")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("value")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--b64", action="store_true")
    g.add_argument("--hex", action="store_true")
    g.add_argument("--url", action="store_true")
    ap.add_argument("--secret")
    a = ap.parse_args()
    v = a.value.strip()
    if a.b64:
        out = b64url(v.replace("+", "-").replace("/", "_").rstrip("="))
    elif a.hex:
        out = binascii.unhexlify(v)
    elif a.url:
        print(urllib.parse.unquote(v)); return
    elif v.count(".") == 2:
        show_jwt(v, a.secret); return
    else:
        out = b64url(v)
    try:
        print(out.decode("utf-8"))
    except UnicodeDecodeError:
        print(out.hex(" "))


if __name__ == "__main__":
    main()
