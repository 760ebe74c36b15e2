#!/usr/bin/env python3
"""Summarise Jira epic progress as Markdown or JSON."""
import argparse
import base64
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

import requests

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

CONFIG = Path.home() / ".config" / "jira-rollup" / "config.toml"


def load_config():
    if not CONFIG.exists():
        sys.exit(f"Missing {CONFIG}; copy templates/jira.toml there first.")
    cfg = tomllib.loads(CONFIG.read_text())
    cfg["site"]["api_token"] = cfg["site"].get("api_token") or os.environ.get("JIRA_API_TOKEN", "")
    if not cfg["site"]["api_token"]:
        sys.exit("No API token configured.")
    return cfg


class Jira:
    def __init__(self, cfg):
        site, net = cfg["site"], cfg.get("network", {})
        self.base = site["base_url"].rstrip("/")
        if net.get("use_gateway"):
            # gateway path: <gateway>/<site host>/rest/...
            host = self.base.split("://", 1)[1]
            self.root = f"{net['gateway'].rstrip('/')}/{quote(host)}"
        else:
            self.root = self.base
        cred = base64.b64encode(f"{site['email']}:{site['api_token']}".encode()).decode()
        self.s = requests.Session()
        self.s.headers.update({"Authorization": f"Basic {cred}", "Accept": "application/json"})
        self.timeout = net.get("timeout_seconds", 30)

    def get(self, path, **params):
        r = self.s.get(f"{self.root}{path}", params=params, timeout=self.timeout)
        r.raise_for_status()
        return r.json()

    def search(self, jql, fields):
        start = 0
        while True:
            page = self.get("/rest/api/3/search", jql=jql, fields=",".join(fields), startAt=start, maxResults=100)
            yield from page["issues"]
            start += len(page["issues"])
            if start >= page["total"] or not page["issues"]:
                break


def rollup(jira, epic_key, pts_field):
    fields = ["summary", "status", "assignee", "labels", "issuelinks", pts_field]
    issues = list(jira.search(f'"Epic Link" = {epic_key} OR parent = {epic_key}', fields))
    total = done = 0.0
    blocked, owners, statuses = [], defaultdict(float), Counter()
    for it in issues:
        f = it["fields"]
        pts = float(f.get(pts_field) or 0)
        total += pts
        cat = f["status"]["statusCategory"]["key"]
        statuses[f["status"]["name"]] += 1
        if cat == "done":
            done += pts
        else:
            who = (f.get("assignee") or {}).get("displayName", "Unassigned")
            owners[who] += pts
            links = f.get("issuelinks") or []
            if "blocked" in f.get("labels", []) or any(l.get("type", {}).get("inward") == "is blocked by" and "inwardIssue" in l for l in links):
                blocked.append(it["key"])
    return {
        "epic": epic_key,
        "issues": len(issues),
        "done_pct": round(100 * done / total, 1) if total else 0.0,
        "open": sum(1 for i in issues if i["fields"]["status"]["statusCategory"]["key"] != "done"),
        "blocked": blocked,
        "top_owners": sorted(owners.items(), key=lambda x: -x[1])[:3],
        "statuses": dict(statuses),
    }


def to_markdown(rows):
    out = ["| Epic | Issues | Done % | Open | Blocked | Top owners |", "|---|---|---|---|---|---|"]
    for r in rows:
        owners = ", ".join(f"{n} ({p:g})" for n, p in r["top_owners"]) or "-"
        out.append(f"| {r['epic']} | {r['issues']} | {r['done_pct']} | {r['open']} | {', '.join(r['blocked']) or '-'} | {owners} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epic", action="append", default=[])
    ap.add_argument("--jql")
    ap.add_argument("--points-field")
    ap.add_argument("--format", choices=["md", "json"], default="md")
    ap.add_argument("--out")
    args = ap.parse_args()

    cfg = load_config()
    jira = Jira(cfg)
    pts = args.points_field or cfg.get("fields", {}).get("story_points", "customfield_10016")
    epics = list(args.epic)
    if args.jql:
        epics += [i["key"] for i in jira.search(args.jql, ["summary"])]
    rows = [rollup(jira, e, pts) for e in epics]
    text = json.dumps(rows, indent=2) if args.format == "json" else to_markdown(rows)
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
