#!/usr/bin/env python3
"""Offline JWT decoder and (optional) RS/ES signature verifier."""
from __future__ import annotations

import argparse
import base64
import json
import sys
from datetime import datetime, timezone


def b64url_decode(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def rel(ts: int) -> str:
    delta = ts - datetime.now(timezone.utc).timestamp()
    word = "in" if delta > 0 else "ago"
    delta = abs(int(delta))
    h, rem = divmod(delta, 3600)
    m = rem // 60
    span = f"{h}h{m:02d}m" if h else f"{m}m"
    return f"{span} {word}" if word == "ago" else f"{word} {span}"


def verify(token: str, header: dict, pem_path: str) -> str:
    try:
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, padding
    except ImportError:
        return "cryptography not installed; skipping verification"
    key = serialization.load_pem_public_key(open(pem_path, "rb").read())
    signing_input = ".".join(token.split(".")[:2]).encode()
    sig = b64url_decode(token.split(".")[2])
    alg = header.get("alg", "")
    h = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}.get(alg[-3:])
    try:
        if alg.startswith("RS"):
            key.verify(sig, signing_input, padding.PKCS1v15(), h)
        elif alg.startswith("PS"):
            key.verify(sig, signing_input, padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size), h)
        elif alg.startswith("ES"):
            from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
            n = len(sig) // 2
            der = encode_dss_signature(int.from_bytes(sig[:n], "big"), int.from_bytes(sig[n:], "big"))
            key.verify(der, signing_input, ec.ECDSA(h))
        else:
            return f"unsupported alg {alg} for public-key verification"
    except Exception as exc:  # InvalidSignature and friends
        return f"INVALID signature ({type(exc).__name__})"
    return "signature valid"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("token", nargs="?", default=None, help="token or '-' for stdin")
    ap.add_argument("--file")
    ap.add_argument("--pubkey")
    a = ap.parse_args()
    if a.file:
        token = open(a.file).read().strip()
    elif a.token in (None, "-"):
        token = sys.stdin.read().strip()
    else:
        token = a.token.strip()
    token = token.removeprefix("Bearer ").strip()
    parts = token.split(".")
    if len(parts) != 3:
        print("not a compact JWS (expected 3 dot-separated parts)")
        return 1
    header = json.loads(b64url_decode(parts[0]))
    claims = json.loads(b64url_decode(parts[1]))
    print(f"token:  {token[:12]}… ({len(token)} chars)")
    print("header:", json.dumps(header))
    if header.get("alg", "").lower() == "none":
        print("WARNING: alg=none — unsigned token")
    for k in ("iss", "aud", "sub", "azp", "scope", "scp"):
        if k in claims:
            print(f"{k:>6}: {claims[k]}")
    for k in ("iat", "nbf", "exp"):
        if k in claims:
            ts = int(claims[k])
            print(f"{k:>6}: {datetime.fromtimestamp(ts, timezone.utc).isoformat()} ({rel(ts)})")
    if a.pubkey:
        print("verify:", verify(token, header, a.pubkey))
    return 0


if __name__ == "__main__":
    sys.exit(main())
