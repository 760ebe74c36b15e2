#!/usr/bin/env python3
"""Decode and inspect a JWT locally; optionally verify with a JWKS URL or PEM."""
import argparse
import base64
import datetime as dt
import json
import sys
import urllib.request


def b64url_decode(seg):
    seg += "=" * (-len(seg) % 4)
    return base64.urlsafe_b64decode(seg.encode())


def when(ts):
    t = dt.datetime.fromtimestamp(int(ts), dt.timezone.utc)
    delta = t - dt.datetime.now(dt.timezone.utc)
    mins = int(abs(delta.total_seconds()) // 60)
    rel = f"{mins // 60}h{mins % 60:02d}m"
    return f"{t.isoformat().replace('+00:00', 'Z')}  ({'in ' + rel if delta.total_seconds() > 0 else rel + ' ago'})"


def verify(token, header, jwks=None, pem=None):
    try:
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding, ec, rsa
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
    except ImportError:
        return "cannot verify: pip install cryptography"
    signing_input = token.rsplit(".", 1)[0].encode()
    sig = b64url_decode(token.rsplit(".", 1)[1])
    if pem:
        key = serialization.load_pem_public_key(open(pem, "rb").read())
    else:
        with urllib.request.urlopen(jwks, timeout=10) as r:  # public keys only
            keys = json.load(r)["keys"]
        jwk = next((k for k in keys if k.get("kid") == header.get("kid")), None)
        if not jwk:
            return f"no key with kid {header.get('kid')} in JWKS"
        if jwk["kty"] == "RSA":
            n = int.from_bytes(b64url_decode(jwk["n"]), "big")
            e = int.from_bytes(b64url_decode(jwk["e"]), "big")
            key = rsa.RSAPublicNumbers(e, n).public_key()
        else:
            curve = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1()}[jwk["crv"]]
            x = int.from_bytes(b64url_decode(jwk["x"]), "big")
            y = int.from_bytes(b64url_decode(jwk["y"]), "big")
            key = ec.EllipticCurvePublicNumbers(x, y, curve).public_key()
    alg = header.get("alg", "")
    h = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}[alg[-3:]]
    try:
        if alg.startswith("RS"):
            key.verify(sig, signing_input, padding.PKCS1v15(), h)
        elif alg.startswith("ES"):
            half = len(sig) // 2
            der = encode_dss_signature(int.from_bytes(sig[:half], "big"), int.from_bytes(sig[half:], "big"))
            key.verify(der, signing_input, ec.ECDSA(h))
        else:
            return f"verification of {alg} not supported"
    except Exception as exc:
        return f"INVALID signature ({exc.__class__.__name__})"
    return "signature valid"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("token")
    ap.add_argument("--jwks")
    ap.add_argument("--pem")
    ap.add_argument("--aud")
    ns = ap.parse_args()
    tok = sys.stdin.read().strip() if ns.token == "-" else ns.token.strip()
    parts = tok.split(".")
    if len(parts) != 3:
        sys.exit("not a JWS compact token (expected 3 dot-separated parts)")
    header = json.loads(b64url_decode(parts[0]))
    payload = json.loads(b64url_decode(parts[1]))
    print("header: ", json.dumps(header, sort_keys=True))
    print("payload:", json.dumps(payload, sort_keys=True, indent=2))
    warnings = []
    now = dt.datetime.now(dt.timezone.utc).timestamp()
    for claim in ("exp", "nbf", "iat"):
        if claim in payload:
            print(f"{claim}:{' ' * (8 - len(claim))}{when(payload[claim])}")
    if payload.get("exp", now + 1) < now:
        warnings.append("token is EXPIRED")
    if payload.get("nbf", 0) > now + 60:
        warnings.append("nbf is in the future (clock skew?)")
    if header.get("alg", "").lower() == "none":
        warnings.append("CRITICAL: alg=none, token is unsigned")
    if header.get("alg", "").startswith("HS"):
        warnings.append("HMAC token: cannot be verified without the shared secret")
    for c in ("aud", "iss"):
        if c not in payload:
            warnings.append(f"missing {c} claim")
    if ns.aud and ns.aud not in (payload.get("aud") if isinstance(payload.get("aud"), list) else [payload.get("aud")]):
        warnings.append(f"aud {payload.get('aud')!r} does not include {ns.aud!r}")
    if ns.jwks or ns.pem:
        print("verify: ", verify(tok, header, ns.jwks, ns.pem))
    if warnings:
        print("warnings:")
        for w in warnings:
            print("  -", w)


if __name__ == "__main__":
    main()
