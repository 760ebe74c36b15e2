"""Sentry initialisation with secret scrubbing. Disabled without SENTRY_DSN."""
import os
import re

import sentry_sdk

_SECRET_KEY = re.compile(r"(pass(word)?|secret|token|api[_-]?key|authorization|cookie|session|dsn)", re.I)
_REDACTED = "[redacted]"


def _scrub(obj):
    if isinstance(obj, dict):
        return {k: (_REDACTED if _SECRET_KEY.search(str(k)) else _scrub(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scrub(v) for v in obj]
    return obj


def _before_send(event, hint):
    req = event.get("request")
    if req:
        req.pop("cookies", None)
        req["headers"] = {k: v for k, v in (req.get("headers") or {}).items() if not _SECRET_KEY.search(k)}
        if "data" in req:
            req["data"] = _scrub(req["data"])
    for frame_holder in (event.get("exception") or {}).get("values", []):
        for frame in (frame_holder.get("stacktrace") or {}).get("frames", []):
            if "vars" in frame:
                frame["vars"] = _scrub(frame["vars"])
    event.pop("extra", None) if os.environ.get("SENTRY_DROP_EXTRA") else None
    return event


def init_sentry():
    dsn = os.environ.get("SENTRY_DSN")
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "development"),
        release=os.environ.get("SENTRY_RELEASE"),
        send_default_pii=False,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0.1")),
        before_send=_before_send,
        max_request_body_size="small",
    )
    return True
