#!/usr/bin/env python3
"""triage.py - score unread mail from himalaya into buckets."""
import argparse
import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

RULES = json.loads((Path(__file__).parent / "rules.json").read_text())


def hx(*args):
    res = subprocess.run(["himalaya", *args, "--output", "json"], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(res.stderr.strip() or "himalaya failed")
    return json.loads(res.stdout or "[]")


def envelopes(account, folder, page_size):
    return hx("envelope", "list", "--account", account, "--folder", folder, "--page-size", str(page_size))


def headers(account, mid):
    try:
        res = subprocess.run(
            ["himalaya", "message", "read", str(mid), "--account", account, "--headers", "List-Unsubscribe,List-Id", "--preview", "--no-headers"],
            capture_output=True, text=True, timeout=20,
        )
        return res.stdout.lower()
    except subprocess.TimeoutExpired:
        return ""


def sender_of(env):
    f = env.get("from") or {}
    if isinstance(f, dict):
        return (f.get("name") or "", (f.get("addr") or "").lower())
    return ("", str(f).lower())


def score(env, hdrs):
    name, addr = sender_of(env)
    subject = (env.get("subject") or "").lower()
    s, reasons = 0, []
    if any(v in addr for v in RULES["vip"]):
        s += 50
        reasons.append("vip")
    if any(n in addr for n in RULES["notification_senders"]):
        return -10, "notification", ["automated sender"]
    if any(h in hdrs for h in RULES["newsletter_headers"]):
        return -5, "newsletter", ["list headers"]
    hits = [k for k in RULES["reply_keywords"] if k in subject]
    if hits:
        s += 10 * len(hits)
        reasons.append("keywords: " + ",".join(hits))
    if subject.startswith(("re:", "aw:", "sv:")):
        s += 15
        reasons.append("ongoing thread")
    if "seen" in [f.lower() for f in env.get("flags", [])]:
        s -= 20
    date = env.get("date")
    if date:
        try:
            age = (dt.datetime.now(dt.timezone.utc) - dt.datetime.fromisoformat(date.replace("Z", "+00:00"))).days
            if age >= 2:
                s += 5 * min(age, 5)
                reasons.append(f"{age}d old")
        except ValueError:
            pass
    bucket = "reply" if s >= 30 else "read" if s >= 10 else "fyi"
    return s, bucket, reasons


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--account", required=True)
    ap.add_argument("--folder", default="INBOX")
    ap.add_argument("--days", type=int, default=3)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=a.days)
    rows = []
    for env in envelopes(a.account, a.folder, a.limit):
        date = env.get("date")
        try:
            if date and dt.datetime.fromisoformat(date.replace("Z", "+00:00")) < cutoff:
                continue
        except ValueError:
            pass
        s, bucket, why = score(env, headers(a.account, env["id"]))
        name, addr = sender_of(env)
        rows.append({"id": env["id"], "score": s, "bucket": bucket, "from": name or addr,
                     "subject": env.get("subject", ""), "why": why})

    order = {"reply": 0, "read": 1, "fyi": 2, "newsletter": 3, "notification": 4}
    rows.sort(key=lambda r: (order[r["bucket"]], -r["score"]))
    if a.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    print(f"{'id':>6}  {'score':>5}  {'bucket':<12} {'from':<24} subject")
    for r in rows:
        print(f"{r['id']:>6}  {r['score']:>5}  {r['bucket']:<12} {r['from'][:24]:<24} {r['subject'][:70]}")
    counts = {b: sum(1 for r in rows if r["bucket"] == b) for b in order}
    print("\n" + "  ".join(f"{b}: {n}" for b, n in counts.items() if n))


if __name__ == "__main__":
    main()
