#!/usr/bin/env python3
"""inbox_groups.py - group unread mail by sender with himalaya; find replies and unsubscribe links."""
import argparse
import collections
import json
import re
import subprocess
import sys

AUTOMATED = re.compile(r"(no-?reply|notifications?|mailer-daemon|bounce|news(letter)?|updates?|info)@", re.I)


def hx(args, want_json=True):
    cmd = ["himalaya", *args] + (["--output", "json"] if want_json else [])
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if res.returncode != 0:
        sys.exit(res.stderr.strip() or "himalaya failed")
    return json.loads(res.stdout or "[]") if want_json else res.stdout


def unread(account, folder, limit):
    envs = hx(["envelope", "list", "--account", account, "--folder", folder, "--page-size", str(limit), "not", "flag", "seen"])
    return envs


def addr_of(env):
    f = env.get("from") or {}
    if isinstance(f, dict):
        return (f.get("name") or "").strip(), (f.get("addr") or "").lower()
    m = re.search(r"<([^>]+)>", str(f))
    return str(f), (m.group(1) if m else str(f)).lower()


def read_headers(account, mid, names):
    out = hx(["message", "read", str(mid), "--account", account, "--preview", "--headers", ",".join(names)], want_json=False)
    return out


def overview(envs):
    by_sender = collections.defaultdict(list)
    for e in envs:
        by_sender[addr_of(e)[1]].append(e)
    by_domain = collections.Counter(a.split("@")[-1] for a in by_sender for _ in by_sender[a])
    print(f"{len(envs)} unread from {len(by_sender)} senders\n")
    print(f"{'count':>5}  {'sender':<40} {'oldest':<12} auto")
    for sender, items in sorted(by_sender.items(), key=lambda kv: -len(kv[1]))[:40]:
        oldest = min((i.get("date") or "")[:10] for i in items)
        print(f"{len(items):>5}  {sender[:40]:<40} {oldest:<12} {'yes' if AUTOMATED.search(sender) else ''}")
    print("\nTop domains: " + ", ".join(f"{d} ({n})" for d, n in by_domain.most_common(10)))


def needs_reply(account, envs, me):
    hits = []
    for e in envs:
        name, sender = addr_of(e)
        if AUTOMATED.search(sender):
            continue
        text = read_headers(account, e["id"], ["To", "List-Id"])
        if "list-id:" in text.lower():
            continue
        if me and me.lower() not in text.lower().split("\n\n", 1)[0]:
            continue
        body = text.split("\n\n", 1)[-1].strip()
        last_para = [p for p in re.split(r"\n\s*\n", body) if p.strip() and not p.startswith(">")][:3]
        if any("?" in p for p in last_para) or re.search(r"\b(can you|could you|please|let me know)\b", body[:1500], re.I):
            hits.append((e["id"], name or sender, e.get("subject", "")))
    for mid, who, subj in hits:
        print(f"{mid:>6}  {who[:28]:<28} {subj[:70]}")
    print(f"\n{len(hits)} message(s) probably need a reply")


def unsubscribe(account, envs):
    seen = {}
    for e in envs:
        sender = addr_of(e)[1]
        if sender in seen:
            continue
        text = read_headers(account, e["id"], ["List-Unsubscribe", "List-Unsubscribe-Post"])
        m = re.search(r"list-unsubscribe:\s*(.+)", text, re.I)
        if not m:
            continue
        links = re.findall(r"<([^>]+)>", m.group(1))
        https = [l for l in links if l.startswith("https://")]
        mailto = [l for l in links if l.startswith("mailto:")]
        one_click = "list-unsubscribe-post" in text.lower()
        seen[sender] = (https[:1] or mailto[:1] or ["?"])[0], one_click
    for sender, (link, one_click) in sorted(seen.items()):
        print(f"{sender[:40]:<40} {'(one-click) ' if one_click else ''}{link}")
    print(f"\n{len(seen)} list(s) with unsubscribe links - show these to the user; do not open them automatically")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--account", required=True)
    ap.add_argument("--folder", default="INBOX")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--me", help="your address, to keep only mail sent directly to you")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--needs-reply", action="store_true")
    mode.add_argument("--unsubscribe", action="store_true")
    a = ap.parse_args()
    envs = unread(a.account, a.folder, a.limit)
    if a.needs_reply:
        needs_reply(a.account, envs, a.me)
    elif a.unsubscribe:
        unsubscribe(a.account, envs)
    else:
        overview(envs)


if __name__ == "__main__":
    main()
