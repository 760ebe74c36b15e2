#!/usr/bin/env python3
"""cycle_report.py - Linear cycle progress report."""
import argparse
import datetime as dt
import json
import os
import sys
import urllib.error
import urllib.request
from collections import defaultdict

API = "https://api.linear.app/graphql"

CYCLES = """
query($key: String!) {
  teams(filter: {key: {eq: $key}}) {
    nodes { id name cycles(first: 20, orderBy: createdAt) { nodes { id number name startsAt endsAt isActive } } }
  }
}"""

ISSUES = """
query($id: String!, $after: String) {
  cycle(id: $id) {
    issues(first: 100, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        identifier title estimate createdAt updatedAt completedAt url
        state { type name }
        assignee { name }
        history(first: 20) { nodes { createdAt toCycle { id } } }
      }
    }
  }
}"""


def gql(key, query, variables):
    req = urllib.request.Request(
        API,
        data=json.dumps({"query": query, "variables": variables}).encode(),
        headers={"Authorization": key, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            data = json.load(r)
    except urllib.error.HTTPError as e:
        sys.exit(f"Linear API HTTP {e.code}")
    if data.get("errors"):
        sys.exit("Linear API: " + data["errors"][0]["message"])
    return data["data"]


def parse_ts(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00")) if s else None


def pick_cycle(key, team, offset):
    teams = gql(key, CYCLES, {"key": team})["teams"]["nodes"]
    if not teams:
        sys.exit(f"team {team} not found")
    cycles = sorted(teams[0]["cycles"]["nodes"], key=lambda c: c["startsAt"])
    active = next((i for i, c in enumerate(cycles) if c["isActive"]), len(cycles) - 1)
    idx = active + offset
    if not 0 <= idx < len(cycles):
        sys.exit("no cycle at that offset")
    return teams[0]["name"], cycles[idx]


def issues(key, cycle_id):
    after = None
    while True:
        conn = gql(key, ISSUES, {"id": cycle_id, "after": after})["cycle"]["issues"]
        yield from conn["nodes"]
        if not conn["pageInfo"]["hasNextPage"]:
            return
        after = conn["pageInfo"]["endCursor"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--team", required=True)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--unestimated", type=float, default=1.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    key = os.environ.get("LINEAR_API_KEY") or sys.exit("LINEAR_API_KEY not set")

    team_name, cyc = pick_cycle(key, a.team, a.offset)
    start, end = parse_ts(cyc["startsAt"]), parse_ts(cyc["endsAt"])
    now = dt.datetime.now(dt.timezone.utc)
    rows = list(issues(key, cyc["id"]))

    pts = lambda i: i["estimate"] if i["estimate"] is not None else a.unestimated
    done = [i for i in rows if i["state"]["type"] == "completed"]
    cancelled = [i for i in rows if i["state"]["type"] == "canceled"]
    active = [i for i in rows if i["state"]["type"] == "started"]
    todo = [i for i in rows if i["state"]["type"] in ("unstarted", "backlog", "triage")]
    scope = [i for i in rows if i not in cancelled]
    total_pts = sum(map(pts, scope)) or 1
    done_pts = sum(map(pts, done))

    added = []
    for i in scope:
        moves = [parse_ts(h["createdAt"]) for h in i["history"]["nodes"] if (h.get("toCycle") or {}).get("id") == cyc["id"]]
        first = min(moves) if moves else parse_ts(i["createdAt"])
        if first and first > start + dt.timedelta(hours=12):
            added.append(i)

    per = defaultdict(lambda: {"done": 0.0, "active": 0.0, "todo": 0.0})
    for bucket, items in (("done", done), ("active", active), ("todo", todo)):
        for i in items:
            per[(i["assignee"] or {}).get("name", "Unassigned")][bucket] += pts(i)

    stale = [i for i in active if now - parse_ts(i["updatedAt"]) > dt.timedelta(days=3)]
    days_left = max(0, (end - now).days)
    title = cyc["name"] or f"Cycle {cyc['number']}"

    out = [f"# {team_name} — {title}", ""]
    out.append(f"{start:%d %b} → {end:%d %b %Y} · {'ended' if now > end else f'{days_left} days left'}")
    out.append("")
    out.append(f"**Points:** {done_pts:g}/{total_pts:g} done ({done_pts / total_pts:.0%}) · "
               f"**Issues:** {len(done)}/{len(scope)} done · {len(cancelled)} cancelled")
    out.append(f"**Scope added after start:** {len(added)} issues, {sum(map(pts, added)):g} pts")
    out += ["", "## Per assignee", "", "| Assignee | Done | In progress | Todo |", "|---|---:|---:|---:|"]
    for name, v in sorted(per.items(), key=lambda kv: -kv[1]["done"]):
        out.append(f"| {name} | {v['done']:g} | {v['active']:g} | {v['todo']:g} |")
    out += ["", f"## At risk ({len(stale)})"]
    out += [f"- [{i['identifier']}]({i['url']}) {i['title']} — {(i['assignee'] or {}).get('name', '—')}, idle {(now - parse_ts(i['updatedAt'])).days}d" for i in stale] or ["- none"]
    if now > end:
        left = active + todo
        out += ["", f"## Carry-over ({len(left)})"]
        out += [f"- [{i['identifier']}]({i['url']}) {i['title']} ({pts(i):g} pts)" for i in left] or ["- none"]
    text = "\n".join(out) + "\n"
    if a.out:
        open(a.out, "w").write(text)
        print(f"wrote {a.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
