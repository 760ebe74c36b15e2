#!/usr/bin/env python3
"""Tighten default-branch protection to a policy; never weakens without opt-in."""
import argparse
import json
import subprocess
import sys


def gh(*args, payload=None):
    cmd = ["gh", "api", *args]
    if payload is not None:
        cmd += ["--input", "-"]
    r = subprocess.run(cmd, input=json.dumps(payload) if payload is not None else None,
                       capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.stdout.strip().startswith(("{", "[")) else r.stdout)


def current(repo, branch):
    code, p = gh(f"repos/{repo}/branches/{branch}/protection")
    if code != 0:
        return {}
    rv = p.get("required_pull_request_reviews") or {}
    sc = p.get("required_status_checks") or {}
    return {
        "reviews": rv.get("required_approving_review_count", 0),
        "code_owners": rv.get("require_code_owner_reviews", False),
        "checks": sorted(sc.get("contexts", [])),
        "enforce_admins": (p.get("enforce_admins") or {}).get("enabled", False),
        "force_push_blocked": not (p.get("allow_force_pushes") or {}).get("enabled", False),
        "signatures": (p.get("required_signatures") or {}).get("enabled", False),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("policy")
    ap.add_argument("--apply", action="store_true")
    ap.add_argument("--allow-downgrade", action="store_true")
    a = ap.parse_args()
    pol = json.load(open(a.policy))
    _, meta = gh(f"repos/{a.repo}")
    branch = meta["default_branch"]
    cur = current(a.repo, branch)
    _, commits = gh(f"repos/{a.repo}/commits?sha={branch}&per_page=20")
    seen = set()
    for c in commits:
        _, runs = gh(f"repos/{a.repo}/commits/{c['sha']}/check-runs")
        seen.update(r["name"] for r in runs.get("check_runs", []))
    want_checks = [c for c in pol["required_status_checks"]["contexts"] if c in seen]
    for c in set(pol["required_status_checks"]["contexts"]) - set(want_checks):
        print(f"warning: check '{c}' never reported on {branch}; not requiring it")
    target = dict(pol)
    target["required_status_checks"] = dict(pol["required_status_checks"], contexts=sorted(set(want_checks) | set(cur.get("checks", []))))
    want_reviews = pol["required_pull_request_reviews"]["required_approving_review_count"]
    if cur.get("reviews", 0) > want_reviews and not a.allow_downgrade:
        target["required_pull_request_reviews"]["required_approving_review_count"] = cur["reviews"]
        print(f"reviews: current {cur['reviews']} > policy {want_reviews}: would weaken (skipped)")
    print(f"branch {branch}")
    print(json.dumps({"current": cur, "target": target}, indent=2))
    if not a.apply:
        print("(plan only - re-run with --apply after the user confirms)")
        return
    target["restrictions"] = None
    sig = target.pop("required_signatures", False)
    code, out = gh("-X", "PUT", f"repos/{a.repo}/branches/{branch}/protection", payload=target)
    if code != 0:
        sys.exit(f"failed: {out}")
    if sig:
        gh("-X", "POST", f"repos/{a.repo}/branches/{branch}/protection/required_signatures")
    print("applied")


if __name__ == "__main__":
    main()
