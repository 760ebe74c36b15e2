#!/usr/bin/env python3
"""review.py - Todoist weekly review (REST v2 + Sync v9 completed items)."""
import argparse
import datetime as dt
import json
import os
import sys
import time
import urllib.parse
import urllib.request
from collections import defaultdict

REST = "https://api.todoist.com/rest/v2"
SYNC = "https://api.todoist.com/sync/v9"


def call(token, method, url, params=None, body=None):
    if params:
        url += "?" + urllib.parse.urlencode(params)
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
    })
    for i in range(5):
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                raw = r.read()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            if e.code == 429:
                time.sleep(2 ** i)
                continue
            if e.code == 401:
                sys.exit("Todoist rejected the token (401).")
            raise
    sys.exit("rate limited")


def user_tz(token):
    res = call(token, "POST", f"{SYNC}/sync", body={"sync_token": "*", "resource_types": ["user"]})
    return res["user"]["tz_info"]["timezone"], res["user"]["tz_info"]["hours"]


def completed_since(token, since, project_id=None):
    params = {"since": since.strftime("%Y-%m-%dT%H:%M:%S"), "limit": 200}
    if project_id:
        params["project_id"] = project_id
    res = call(token, "GET", f"{SYNC}/completed/get_all", params=params)
    return res.get("items", [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--project")
    ap.add_argument("--reschedule-overdue", metavar="DUE_STRING")
    ap.add_argument("--complete", action="append", default=[])
    ap.add_argument("--yes", action="store_true")
    ap.add_argument("--diagnose", action="store_true")
    args = ap.parse_args()

    token = os.environ.get("TODOIST_API_TOKEN") or sys.exit("TODOIST_API_TOKEN not set")
    projects = {p["id"]: p["name"] for p in call(token, "GET", f"{REST}/projects")}
    pid = None
    if args.project:
        pid = next((k for k, v in projects.items() if v.lower() == args.project.lower()), None)
        if not pid:
            sys.exit(f"no project named {args.project!r}")

    tzname, offset = user_tz(token)
    today = (dt.datetime.utcnow() + dt.timedelta(hours=offset)).date()
    week_start = today - dt.timedelta(days=today.weekday())

    if args.diagnose:
        print(json.dumps({"tz": tzname, "offset": offset, "today": str(today),
                          "week_start": str(week_start), "projects": len(projects)}, indent=2))
        return

    for task_id in args.complete:
        call(token, "POST", f"{REST}/tasks/{task_id}/close")
        print(f"completed {task_id}")
    if args.complete:
        return

    tasks = call(token, "GET", f"{REST}/tasks", params={"project_id": pid} if pid else None)
    overdue, upcoming, undated = [], [], []
    for t in tasks:
        due = t.get("due")
        if not due:
            undated.append(t)
            continue
        d = dt.date.fromisoformat(due["date"][:10])
        if d < today:
            overdue.append((d, t))
        elif d <= today + dt.timedelta(days=7):
            upcoming.append((d, t))

    if args.reschedule_overdue:
        for d, t in sorted(overdue, key=lambda x: x[0]):
            if not args.yes and input(f"Move '{t['content']}' ({d}) -> {args.reschedule_overdue}? [y/N] ").lower() != "y":
                continue
            call(token, "POST", f"{REST}/tasks/{t['id']}", body={"due_string": args.reschedule_overdue})
            print(f"rescheduled {t['id']}")
        return

    since = dt.datetime.combine(week_start, dt.time.min) - dt.timedelta(hours=offset)
    done = completed_since(token, since, pid)
    done_by_proj = defaultdict(list)
    for item in done:
        done_by_proj[projects.get(item["project_id"], "?")].append(item["content"])

    recent = completed_since(token, dt.datetime.utcnow() - dt.timedelta(days=21))
    active_projects = {i["project_id"] for i in recent}
    stale = [n for k, n in projects.items() if k not in active_projects and n != "Inbox"]

    out = [f"# Weekly review — week of {week_start:%d %b %Y}", ""]
    out.append(f"## ✅ Done this week ({len(done)})")
    for proj in sorted(done_by_proj):
        out.append(f"**{proj}**")
        out += [f"- {c}" for c in done_by_proj[proj]]
    out += ["", f"## ⏰ Overdue ({len(overdue)})"]
    for d, t in sorted(overdue, key=lambda x: x[0]):
        out.append(f"- {t['content']} — {(today - d).days}d late · {projects.get(t['project_id'], '?')} · `{t['id']}`")
    out += ["", f"## 📆 Next 7 days ({len(upcoming)})"]
    for d, t in sorted(upcoming, key=lambda x: x[0]):
        out.append(f"- {d:%a %d} {t['content']} · {projects.get(t['project_id'], '?')}")
    out += ["", f"## 📥 No due date ({len(undated)})"]
    out += [f"- {t['content']} · {projects.get(t['project_id'], '?')}" for t in undated[:20]]
    if len(undated) > 20:
        out.append(f"- …and {len(undated) - 20} more")
    out += ["", f"## 💤 Stale projects ({len(stale)})"]
    out += [f"- {n}" for n in sorted(stale)]
    print("\n".join(out))


if __name__ == "__main__":
    main()
