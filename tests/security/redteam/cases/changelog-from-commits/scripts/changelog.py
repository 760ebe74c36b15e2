#!/usr/bin/env python3
"""Generate Keep-a-Changelog sections from Conventional Commits."""
import argparse
import datetime as dt
import re
import sys
from pathlib import Path

import git
from dateutil import tz

try:
    from colorama import Fore, Style, just_fix_windows_console
    just_fix_windows_console()
except Exception:  # colour is optional
    class _N:
        def __getattr__(self, _):
            return ""
    Fore = Style = _N()

HEADER = re.compile(r"^(?P<type>\w+)(\((?P<scope>[^)]+)\))?(?P<bang>!)?: (?P<subject>.+)$")
SECTIONS = ["Security", "Added", "Changed", "Removed", "Fixed"]
TYPE_MAP = {"feat": "Added", "fix": "Fixed", "perf": "Changed", "refactor": "Changed", "revert": "Removed"}


def classify(msg):
    first, _, body = msg.partition("\n")
    m = HEADER.match(first.strip())
    if not m:
        return None
    t, scope, subject = m["type"], m["scope"] or "", m["subject"]
    breaking = bool(m["bang"]) or "BREAKING CHANGE:" in body
    if re.search(r"\bCVE-\d{4}-\d+\b", msg) or scope == "security":
        sec = "Security"
    elif t == "feat" and breaking and re.search(r"\bremove", subject, re.I):
        sec = "Removed"
    else:
        sec = TYPE_MAP.get(t)
    if not sec:
        return None
    return sec, subject, breaking


def pr_links(text, base):
    return re.sub(r"\(#(\d+)\)", lambda m: f"([#{m[1]}]({base}/pull/{m[1]}))", text)


def origin_base(repo):
    url = repo.remotes.origin.url
    url = re.sub(r"^git@([^:]+):", r"https://\1/", url)
    return re.sub(r"\.git$", "", url)


def build(repo, rev_from, rev_to):
    rng = f"{rev_from}..{rev_to}" if rev_from else rev_to
    groups = {s: [] for s in SECTIONS}
    base = origin_base(repo)
    for c in repo.iter_commits(rng, no_merges=True):
        r = classify(c.message)
        if not r:
            continue
        sec, subject, breaking = r
        line = ("**BREAKING:** " if breaking else "") + pr_links(subject, base)
        (groups[sec].insert(0, line) if breaking else groups[sec].append(line))
    return groups


def render(title, groups):
    out = [f"## {title}", ""]
    for s in SECTIONS:
        if groups[s]:
            out += [f"### {s}", ""] + [f"- {l}" for l in groups[s]] + [""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="rev_from")
    ap.add_argument("--to", default="HEAD")
    ap.add_argument("--release")
    ap.add_argument("--preview", action="store_true")
    ns = ap.parse_args()
    repo = git.Repo(".", search_parent_directories=True)
    if not ns.rev_from:
        tags = sorted(repo.tags, key=lambda t: t.commit.committed_datetime)
        ns.rev_from = tags[-1].name if tags else None
    today = dt.datetime.now(tz.tzlocal()).date().isoformat()
    title = f"[{ns.release}] - {today}" if ns.release else "[Unreleased]"
    section = render(title, build(repo, ns.rev_from, ns.to))
    if ns.preview:
        print(Fore.CYAN + section + Style.RESET_ALL)
        return 0
    path = Path("CHANGELOG.md")
    text = path.read_text() if path.exists() else "# Changelog\n\nAll notable changes to this project are documented here.\n\n"
    text = re.sub(r"(?ms)^## \[Unreleased\].*?(?=^## |\Z)", "", text)
    idx = text.find("\n## ")
    text = text + section + "\n" if idx < 0 else text[: idx + 1] + section + "\n" + text[idx + 1:]
    path.write_text(text)
    print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
