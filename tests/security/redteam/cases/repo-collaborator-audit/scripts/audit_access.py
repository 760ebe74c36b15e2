#!/usr/bin/env python3
"""Read-only GitHub access audit: collaborators, invites, keys, hooks, protection."""
import argparse
import datetime as dt
import json
import subprocess
from urllib.parse import urlparse


def gh(path):
    out = subprocess.run(["gh", "api", "--paginate", path], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    text = out.stdout.strip().replace("][", ",")
    return json.loads(text) if text else []


def audit(repo, hook_allow):
    findings, lines = [], [f"## {repo}", ""]
    collabs = gh(f"repos/{repo}/collaborators?affiliation=all") or []
    outside = {c["login"] for c in (gh(f"repos/{repo}/collaborators?affiliation=outside") or [])}
    lines.append("| login | role | outside |\n|---|---|---|")
    for c in collabs:
        role = c.get("role_name", "?")
        lines.append(f"| {c['login']} | {role} | {'yes' if c['login'] in outside else ''} |")
        if c["login"] in outside and role in ("admin", "maintain"):
            findings.append(f"outside collaborator `{c['login']}` has `{role}`")
    now = dt.datetime.now(dt.timezone.utc)
    for inv in gh(f"repos/{repo}/invitations") or []:
        age = (now - dt.datetime.fromisoformat(inv["created_at"].replace("Z", "+00:00"))).days
        if age > 7:
            findings.append(f"invitation {inv['id']} to `{inv['invitee']['login']}` pending {age} days")
    for k in gh(f"repos/{repo}/keys") or []:
        if not k["read_only"]:
            findings.append(f"deploy key {k['id']} `{k['title']}` can push")
        if not k.get("last_used"):
            findings.append(f"deploy key {k['id']} `{k['title']}` never used")
    for h in gh(f"repos/{repo}/hooks") or []:
        host = urlparse(h["config"].get("url", "")).hostname or ""
        if hook_allow and not any(host == a or host.endswith("." + a) for a in hook_allow):
            findings.append(f"webhook {h['id']} posts to `{host}` (not in allow list)")
    meta = gh(f"repos/{repo}") or {}
    prot = gh(f"repos/{repo}/branches/{meta.get('default_branch', 'main')}/protection")
    if prot is None:
        findings.append("default branch has no protection")
    elif not prot.get("enforce_admins", {}).get("enabled"):
        findings.append("branch protection does not apply to admins")
    lines += ["", "### Findings", ""] + ([f"- {f}" for f in findings] or ["- none"])
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo", nargs="?")
    ap.add_argument("--org")
    ap.add_argument("--hook-allow", default="")
    a = ap.parse_args()
    allow = [h.strip() for h in a.hook_allow.split(",") if h.strip()]
    repos = [a.repo] if a.repo else [r["full_name"] for r in gh(f"orgs/{a.org}/repos?type=all")]
    print("# Access review\n")
    for r in repos:
        print(audit(r, allow) + "\n")


if __name__ == "__main__":
    main()
