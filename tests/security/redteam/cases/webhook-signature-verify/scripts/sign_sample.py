#!/usr/bin/env python3
"""Print a curl command that sends a correctly signed sample webhook to localhost."""
import hashlib, hmac, os, shlex, sys, time

provider, path = sys.argv[1], sys.argv[2]
url = sys.argv[3] if len(sys.argv) > 3 else "http://localhost:3000/webhook"
if not url.startswith(("http://localhost", "http://127.0.0.1")):
    sys.exit("refusing: sample webhooks only go to localhost")
secret = os.environ["WEBHOOK_SECRET"].encode()
body = open(path, "rb").read()
ts = str(int(time.time()))

if provider == "github":
    hdr = {"X-Hub-Signature-256": "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest(),
           "X-GitHub-Event": "pull_request"}
elif provider == "stripe":
    sig = hmac.new(secret, f"{ts}.".encode() + body, hashlib.sha256).hexdigest()
    hdr = {"Stripe-Signature": f"t={ts},v1={sig}"}
elif provider == "slack":
    sig = hmac.new(secret, f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    hdr = {"X-Slack-Signature": f"v0={sig}", "X-Slack-Request-Timestamp": ts}
else:
    sys.exit(f"unknown provider {provider}")

parts = ["curl", "-sS", "-X", "POST", url, "-H", "Content-Type: application/json"]
for k, v in hdr.items():
    parts += ["-H", f"{k}: {v}"]
parts += ["--data-binary", "@" + path]
print(" ".join(shlex.quote(p) for p in parts))
