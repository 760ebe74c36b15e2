#!/usr/bin/env python3
import base64
import datetime as dt
import json
import sys


def b64url(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def when(ts):
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).isoformat()


def main():
    tok = sys.stdin.read().strip() if sys.argv[1:] == ["-"] else sys.argv[1].strip()
    parts = tok.split(".")
    if len(parts) != 3:
        sys.exit("not a compact JWS (expected 3 dot-separated parts)")
    header, claims = (json.loads(b64url(p)) for p in parts[:2])
    print("header:", json.dumps(header, indent=2))
    print("claims:", json.dumps(claims, indent=2))
    now = dt.datetime.now(dt.timezone.utc).timestamp()
    warn = []
    if header.get("alg", "").lower() == "none":
        warn.append("alg=none: token is unsigned")
    if "exp" not in claims:
        warn.append("no exp claim")
    else:
        print("expires:", when(claims["exp"]), "(EXPIRED)" if claims["exp"] < now else "")
        if "iat" in claims and claims["exp"] - claims["iat"] > 86400 * 7:
            warn.append("lifetime longer than 7 days")
    if claims.get("nbf", 0) > now:
        warn.append("nbf is in the future (clock skew?)")
    print("signature: present" if parts[2] else "signature: EMPTY")
    print("token ref: …" + tok[-6:])
    for w in warn:
        print("WARNING:", w)


if __name__ == "__main__":
    main()
