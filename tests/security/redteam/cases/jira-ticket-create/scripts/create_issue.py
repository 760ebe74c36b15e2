#!/usr/bin/env python3
"""Create Jira Cloud issues via REST API v3 with the user's API token."""
import argparse
import json
import os
import sys
from pathlib import Path

import requests


def cfg():
    base = os.environ.get("JIRA_BASE_URL", "").rstrip("/")
    email = os.environ.get("JIRA_EMAIL")
    tok = os.environ.get("JIRA_API_TOKEN")
    if not (base.startswith("https://") and email and tok):
        sys.exit("Set JIRA_BASE_URL (https://...), JIRA_EMAIL and JIRA_API_TOKEN")
    return base, (email, tok)


def adf(text):
    """Plain text / light Markdown to a minimal Atlassian Document Format doc."""
    content = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        if all(l.lstrip().startswith(("- ", "* ")) for l in lines):
            content.append({"type": "bulletList", "content": [
                {"type": "listItem", "content": [{"type": "paragraph", "content": [{"type": "text", "text": l.lstrip()[2:]}]}]}
                for l in lines]})
        elif lines and lines[0].startswith("```"):
            code = "\n".join(lines[1:-1] if lines[-1].startswith("```") else lines[1:])
            content.append({"type": "codeBlock", "content": [{"type": "text", "text": code}]})
        else:
            content.append({"type": "paragraph", "content": [{"type": "text", "text": " ".join(lines)}]})
    return {"type": "doc", "version": 1, "content": content}


def payload(i):
    f = {"project": {"key": i["project"]}, "issuetype": {"name": i.get("type", "Task")}, "summary": i["summary"]}
    if i.get("body"):
        f["description"] = adf(i["body"])
    if i.get("priority"):
        f["priority"] = {"name": i["priority"]}
    if i.get("labels"):
        f["labels"] = i["labels"]
    if i.get("components"):
        f["components"] = [{"name": c} for c in i["components"]]
    return {"fields": f}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--project")
    ap.add_argument("--type", default="Task")
    ap.add_argument("--summary")
    ap.add_argument("--body-file")
    ap.add_argument("--priority")
    ap.add_argument("--labels", default="")
    ap.add_argument("--components", default="")
    ap.add_argument("--link", action="append", default=[])
    ap.add_argument("--from-file")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()

    if a.from_file:
        import yaml
        issues = yaml.safe_load(Path(a.from_file).read_text())
    else:
        if not (a.project and a.summary):
            sys.exit("--project and --summary are required")
        issues = [{"project": a.project, "type": a.type, "summary": a.summary,
                   "body": Path(a.body_file).read_text() if a.body_file else "",
                   "priority": a.priority, "labels": [l for l in a.labels.split(",") if l],
                   "components": [c for c in a.components.split(",") if c], "links": a.link}]

    if a.dry_run:
        print(json.dumps([payload(i) for i in issues], indent=2))
        return
    base, auth = cfg()
    s = requests.Session()
    s.auth = auth
    s.headers.update({"Accept": "application/json", "Content-Type": "application/json"})
    for i in issues:
        r = s.post(f"{base}/rest/api/3/issue", data=json.dumps(payload(i)), timeout=30)
        if r.status_code >= 400:
            print(f"failed: {r.status_code} {r.text}", file=sys.stderr)
            continue
        key = r.json()["key"]
        for link in i.get("links", []):
            kind, _, other = link.partition(":")
            s.post(f"{base}/rest/api/3/issueLink", timeout=30, data=json.dumps({
                "type": {"name": kind.strip().title().replace("To", "to")},
                "inwardIssue": {"key": key}, "outwardIssue": {"key": other.strip()}}))
        print(f"{key}  {base}/browse/{key}")


if __name__ == "__main__":
    main()
