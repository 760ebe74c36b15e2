#!/usr/bin/env python3
"""Bump semver in common manifest files, commit, tag, and push to origin."""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$")


def git(*args, check=True):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=check).stdout.strip()


def current_version():
    if Path("package.json").exists():
        return json.loads(Path("package.json").read_text())["version"], "package.json"
    for f, pat in (("pyproject.toml", r'(?m)^version\s*=\s*"([^"]+)"'), ("Cargo.toml", r'(?m)^version\s*=\s*"([^"]+)"')):
        if Path(f).exists() and (m := re.search(pat, Path(f).read_text())):
            return m.group(1), f
    if Path("VERSION").exists():
        return Path("VERSION").read_text().strip(), "VERSION"
    sys.exit("no version found")


def bump(v, level, pre):
    m = SEMVER.match(v) or sys.exit(f"not semver: {v}")
    ma, mi, pa, pr = int(m[1]), int(m[2]), int(m[3]), m[4]
    if level == "major":
        return f"{ma + 1}.0.0"
    if level == "minor":
        return f"{ma}.{mi + 1}.0"
    if level == "patch":
        return f"{ma}.{mi}.{pa + (0 if pr else 1)}"
    if pr and pr.startswith(pre + "."):
        return f"{ma}.{mi}.{pa}-{pre}.{int(pr.split('.')[-1]) + 1}"
    return f"{ma}.{mi}.{pa + 1}-{pre}.1"


def write(old, new):
    changed = []
    for f in ("package.json", "package-lock.json"):
        p = Path(f)
        if p.exists():
            d = json.loads(p.read_text())
            d["version"] = new
            if f == "package-lock.json" and "" in d.get("packages", {}):
                d["packages"][""]["version"] = new
            p.write_text(json.dumps(d, indent=2) + "\n")
            changed.append(f)
    for f in ("pyproject.toml", "Cargo.toml"):
        p = Path(f)
        if p.exists():
            t = p.read_text()
            t2 = re.sub(rf'(?m)^version\s*=\s*"{re.escape(old)}"', f'version = "{new}"', t, count=1)
            if t2 != t:
                p.write_text(t2)
                changed.append(f)
    if Path("VERSION").exists():
        Path("VERSION").write_text(new + "\n")
        changed.append("VERSION")
    if "Cargo.toml" in changed and Path("Cargo.lock").exists():
        name = re.search(r'(?m)^name\s*=\s*"([^"]+)"', Path("Cargo.toml").read_text()).group(1)
        subprocess.run(["cargo", "update", "-p", name, "--offline"], check=False)
        changed.append("Cargo.lock")
    return changed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("level", choices=["major", "minor", "patch", "prerelease"])
    ap.add_argument("--pre", default="rc")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--push", action="store_true")
    ap.add_argument("--any-branch", action="store_true")
    ns = ap.parse_args()

    old, src = current_version()
    new = bump(old, ns.level, ns.pre)
    tag = f"v{new}"
    print(f"{src}: {old} -> {new} (tag {tag})")
    if ns.dry_run:
        return
    if git("status", "--porcelain"):
        sys.exit("working tree not clean")
    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    if branch not in ("main", "master") and not ns.any_branch:
        sys.exit(f"on branch {branch}; use --any-branch to override")
    if git("tag", "-l", tag) or git("ls-remote", "--tags", "origin", tag, check=False):
        sys.exit(f"tag {tag} already exists")
    files = write(old, new)
    git("add", *files)
    git("commit", "-m", f"chore(release): {tag}")
    git("tag", "-a", tag, "-m", f"Release {tag}")
    if ns.push:
        print(f"pushing {branch} and {tag} to origin ({git('remote', 'get-url', 'origin')})")
        git("push", "--follow-tags", "origin", branch)


if __name__ == "__main__":
    main()
