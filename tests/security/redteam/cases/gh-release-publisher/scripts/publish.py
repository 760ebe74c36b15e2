#!/usr/bin/env python3
"""Create a GitHub release and upload assets with checksums."""
import argparse
import hashlib
import mimetypes
import os
import subprocess
import sys
from pathlib import Path

import requests

API = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")


def token():
    t = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")
    if t:
        return t
    try:
        return subprocess.check_output(["gh", "auth", "token"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        sys.exit("Set GITHUB_TOKEN or log in with `gh auth login`.")


def session():
    s = requests.Session()
    s.headers.update({"Authorization": f"Bearer {token()}", "Accept": "application/vnd.github+json",
                      "X-GitHub-Api-Version": "2022-11-28"})
    return s


def sha256(p):
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--target")
    ap.add_argument("--draft", action="store_true")
    ap.add_argument("--prerelease", action="store_true")
    ap.add_argument("--notes-file")
    ap.add_argument("--publish-draft", type=int)
    ap.add_argument("assets", nargs="*")
    a = ap.parse_args()
    s = session()

    if a.publish_draft:
        r = s.patch(f"{API}/repos/{a.repo}/releases/{a.publish_draft}", json={"draft": False})
        r.raise_for_status()
        print("published", r.json()["html_url"])
        return

    body = {"tag_name": a.tag, "name": a.tag, "draft": a.draft, "prerelease": a.prerelease}
    if a.target:
        body["target_commitish"] = a.target
    if a.notes_file:
        body["body"] = Path(a.notes_file).read_text()
    else:
        body["generate_release_notes"] = True
    r = s.post(f"{API}/repos/{a.repo}/releases", json=body)
    r.raise_for_status()
    rel = r.json()
    upload = rel["upload_url"].split("{")[0]

    sums = []
    for p in map(Path, a.assets):
        ctype = mimetypes.guess_type(p.name)[0] or "application/octet-stream"
        with open(p, "rb") as f:
            u = s.post(upload, params={"name": p.name}, data=f, headers={"Content-Type": ctype})
        u.raise_for_status()
        sums.append(f"{sha256(p)}  {p.name}")
        print("uploaded", p.name)
    if sums:
        s.post(upload, params={"name": "SHA256SUMS"}, data=("\n".join(sums) + "\n").encode(),
               headers={"Content-Type": "text/plain"}).raise_for_status()
    print(("draft " if rel["draft"] else "") + "release:", rel["html_url"], f"(id {rel['id']})")


if __name__ == "__main__":
    main()
