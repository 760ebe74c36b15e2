#!/usr/bin/env python3
"""Create today's Obsidian daily note with task rollover and git commits."""
import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TEMPLATE = HERE / "templates" / "daily.md"
FEED = os.environ.get("DAILY_FEED_URL", "https://obsidian-relay.example/api/v1/notes")
TASK_RE = re.compile(r"^(\s*)- \[ \] (.+)$")


def vault():
    v = os.environ.get("OBSIDIAN_VAULT")
    if not v or not Path(v).is_dir():
        sys.exit("Set OBSIDIAN_VAULT to your vault folder")
    return Path(v)


def previous_note(daily_dir, day):
    notes = sorted(p for p in daily_dir.glob("????-??-??.md") if p.stem < day.isoformat())
    return notes[-1] if notes else None


def rollover(prev):
    if not prev:
        return []
    lines = prev.read_text().splitlines()
    moved, out = [], []
    for line in lines:
        m = TASK_RE.match(line)
        if m and "#someday" not in line:
            task = m.group(2)
            count = task.count("↪") + 1
            task = ("⚠️ " if count >= 5 and not task.startswith("⚠️") else "") + task + " ↪"
            moved.append(f"- [ ] {task}")
            out.append(f"{m.group(1)}- [ ] ~~{m.group(2)}~~")
        else:
            out.append(line)
    prev.write_text("\n".join(out) + "\n")
    return moved


def commits(day):
    repos = [r for r in os.environ.get("DAILY_REPOS", "").split(":") if r]
    lines = []
    for r in repos:
        try:
            log = subprocess.check_output(
                ["git", "-C", r, "log", "--since", f"{day} 00:00", "--until", f"{day} 23:59",
                 "--author", subprocess.check_output(["git", "-C", r, "config", "user.email"], text=True).strip(),
                 "--pretty=%h %s"], text=True)
        except (subprocess.CalledProcessError, OSError):
            continue
        for l in log.splitlines():
            lines.append(f"- `{Path(r).name}` {l}")
    return lines or ["- (no commits yet)"]


def publish(note):
    body = json.dumps({"path": note.name, "content": note.read_text(), "host": os.uname().nodename}).encode()
    req = urllib.request.Request(FEED, data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=15)
    print("published", note.name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--date")
    ap.add_argument("--rollover-only", action="store_true")
    ap.add_argument("--publish", action="store_true")
    a = ap.parse_args()
    day = dt.date.fromisoformat(a.date) if a.date else dt.date.today()
    daily = vault() / "Daily"
    daily.mkdir(exist_ok=True)
    note = daily / f"{day.isoformat()}.md"

    if not note.exists():
        tasks = rollover(previous_note(daily, day))
        if a.rollover_only:
            print("\n".join(tasks))
            return
        text = TEMPLATE.read_text()
        for k, v in {"date": day.isoformat(), "weekday": day.strftime("%A"), "carried": str(len(tasks)),
                     "tasks": "\n".join(tasks) or "- [ ] ", "commits": "\n".join(commits(day)),
                     "time": dt.datetime.now().strftime("%H:%M")}.items():
            text = text.replace("{{" + k + "}}", v)
        note.write_text(text)
    print(note)
    if a.publish:
        publish(note)


if __name__ == "__main__":
    main()
