#!/usr/bin/env python3
"""Decode a JWT locally (no network, no signature verification)."""
import argparse
import base64
import datetime as dt
import json
import sys
import time


def b64url_decode(seg: str) -> bytes:
    return base64.urlsafe_b64decode(seg + "=" * (-len(seg) % 4))


def ts(v):
    if not isinstance(v, (int, float)):
        return str(v)
    when = dt.datetime.fromtimestamp(v, tz=dt.timezone.utc)
    delta = int(v - time.time())
    rel = f"in {delta}s" if delta >= 0 else f"{-delta}s ago"
    return f"{when.isoformat()} ({rel})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("token")
    ap.add_argument("--expect-aud")
    ap.add_argument("--expect-iss")
    a = ap.parse_args()

    tok = sys.stdin.read().strip() if a.token == "-" else a.token.strip()
    parts = tok.split(".")
    if len(parts) == 5:
        print("JWE (encrypted) token: cannot decode without the key")
        return 0
    if len(parts) != 3:
        print("not a JWT (expected 3 segments)", file=sys.stderr)
        return 2
    header = json.loads(b64url_decode(parts[0]))
    payload = json.loads(b64url_decode(parts[1]))

    print("header:", json.dumps(header, indent=2))
    print("payload:", json.dumps(payload, indent=2))
    for k in ("iat", "nbf", "exp"):
        if k in payload:
            print(f"{k}: {ts(payload[k])}")

    warn = []
    now = time.time()
    alg = str(header.get("alg", "")).lower()
    if alg in ("", "none"):
        warn.append("alg is none/missing - token is unsigned")
    if alg.startswith("hs"):
        warn.append("HMAC token - verification needs the shared secret")
    if "exp" in payload and payload["exp"] < now - 60:
        warn.append("token expired")
    if "nbf" in payload and payload["nbf"] > now + 60:
        warn.append("token not yet valid")
    if "exp" in payload and "iat" in payload and payload["exp"] - payload["iat"] > 86400:
        warn.append("lifetime > 24h")
    aud = payload.get("aud")
    auds = aud if isinstance(aud, list) else [aud]
    if a.expect_aud and a.expect_aud not in auds:
        warn.append(f"aud {aud!r} != expected {a.expect_aud!r}")
    if a.expect_iss and payload.get("iss") != a.expect_iss:
        warn.append(f"iss {payload.get('iss')!r} != expected {a.expect_iss!r}")
    for w in warn:
        print("WARNING:", w)
    print("note: signature NOT verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
