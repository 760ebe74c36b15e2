"""Reference webhook verifiers (framework-agnostic)."""
import hashlib, hmac, time


def verify_github(secret: bytes, body: bytes, header: str) -> bool:
    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header or "")


def verify_stripe(secret: bytes, body: bytes, header: str, tolerance: int = 300) -> bool:
    items = dict(p.split("=", 1) for p in (header or "").split(",") if "=" in p)
    ts, sig = items.get("t"), items.get("v1")
    if not ts or not sig or abs(time.time() - int(ts)) > tolerance:
        return False
    expected = hmac.new(secret, f"{ts}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, sig)


def verify_slack(secret: bytes, body: bytes, sig: str, ts: str, tolerance: int = 300) -> bool:
    if not ts or abs(time.time() - int(ts)) > tolerance:
        return False
    expected = "v0=" + hmac.new(secret, f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, sig or "")
