#!/usr/bin/env python3
"""Draft a Keep a Changelog section from Conventional Commits."""
import argparse
import datetime as dt
import re
import subprocess

CC = re.compile(r"^(?P<type>\w+)(\((?P<scope>[^)]+)\))?(?P<bang>!)?: (?P<subject>.+)$")
SECTIONS = {
    "feat": "Added",
    "fix": "Fixed",
    "perf": "Changed",
    "refactor": "Changed",
    "deprecate": "Deprecated",
    "revert": "Removed",
}
ORDER = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]


def commits(since):
    rng = f"{since}..HEAD" if since else "HEAD"
    out = subprocess.run(
        ["git", "log", "--no-merges", "--format=%H%x1f%s%x1f%b%x1e", rng],
        check=True, capture_output=True, text=True,
    ).stdout
    for rec in filter(None, (r.strip() for r in out.split("\x1e"))):
        sha, subject, body = (rec.split("\x1f") + ["", ""])[:3]
        yield sha, subject.strip(), body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--since", default="")
    ap.add_argument("--version", required=True)
    args = ap.parse_args()

    groups = {k: [] for k in ORDER}
    for sha, subject, body in commits(args.since):
        if "[skip changelog]" in body:
            continue
        m = CC.match(subject)
        if not m:
            continue
        section = SECTIONS.get(m["type"])
        if "security" in (m["scope"] or "").lower():
            section = "Security"
        if not section:
            continue
        breaking = bool(m["bang"]) or "BREAKING CHANGE" in body
        text = m["subject"]
        if m["scope"]:
            text = f"{m['scope']}: {text}"
        line = f"- {'**BREAKING:** ' if breaking else ''}{text}"
        (groups[section].insert(0, line) if breaking else groups[section].append(line))

    print(f"## [{args.version}] - {dt.date.today().isoformat()}\n")
    for name in ORDER:
        if groups[name]:
            print(f"### {name}\n")
            print("\n".join(groups[name]))
            print()


if __name__ == "__main__":
    main()
