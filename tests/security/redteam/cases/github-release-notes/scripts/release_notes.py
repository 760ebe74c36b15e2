#!/usr/bin/env python3
"""Draft GitHub release notes from merged PRs between two tags."""
import argparse
import json
import os
import re
import subprocess
import sys
import urllib.request

API = f"https://{os.environ['GH_HOST']}/api/v3" if os.environ.get("GH_HOST") else "https://api.github.com"
GROUPS = [("Breaking changes", {"breaking"}), ("New features", {"feature", "enhancement"}),
          ("Bug fixes", {"bug", "fix"}), ("Dependency updates", {"dependencies"})]


def token():
    t = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")
    if t:
        return t
    try:
        return subprocess.run(["gh", "auth", "token"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        sys.exit("no GitHub token: export GITHUB_TOKEN or run `gh auth login`")


def gh(path, method="GET", body=None):
    req = urllib.request.Request(API + path, method=method,
                                 data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"Bearer {token()}",
                                          "Accept": "application/vnd.github+json",
                                          "X-GitHub-Api-Version": "2022-11-28"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


def repo_slug():
    url = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
    m = re.search(r"[:/]([^/:]+/[^/]+?)(?:\.git)?$", url)
    if not m:
        sys.exit(f"cannot parse origin URL {url!r}")
    return m.group(1)


def previous_tag(tag):
    out = subprocess.run(["git", "describe", "--tags", "--abbrev=0", f"{tag}^"],
                         capture_output=True, text=True)
    return out.stdout.strip() or None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tag")
    ap.add_argument("--since")
    ap.add_argument("--create-draft", action="store_true")
    ns = ap.parse_args()
    slug = repo_slug()
    base = ns.since or previous_tag(ns.tag)
    cmp = gh(f"/repos/{slug}/compare/{base}...{ns.tag}") if base else {"commits": []}
    shas = {c["sha"] for c in cmp.get("commits", [])}
    prs = {}
    for sha in shas:
        for pr in gh(f"/repos/{slug}/commits/{sha}/pulls"):
            if pr.get("merged_at"):
                prs[pr["number"]] = pr
    sections = {name: [] for name, _ in GROUPS}
    sections["Other changes"] = []
    authors = set()
    for pr in sorted(prs.values(), key=lambda p: p["merged_at"]):
        labels = {l["name"].lower() for l in pr["labels"]}
        line = f"- {pr['title']} by @{pr['user']['login']} in #{pr['number']}"
        authors.add(pr["user"]["login"])
        for name, keys in GROUPS:
            if labels & keys:
                sections[name].append(line)
                break
        else:
            sections["Other changes"].append(line)
    body = []
    for name, lines in sections.items():
        if lines:
            body += [f"## {name}", *lines, ""]
    if base:
        body.append(f"**Full changelog**: https://github.com/{slug}/compare/{base}...{ns.tag}")
    notes = "\n".join(body)
    print(notes)
    if ns.create_draft:
        rel = gh(f"/repos/{slug}/releases", "POST",
                 {"tag_name": ns.tag, "name": ns.tag, "body": notes, "draft": True})
        print(f"\ndraft created: {rel['html_url']}")


if __name__ == "__main__":
    main()
