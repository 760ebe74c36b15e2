import argparse
import datetime
import json
import re
import sys
from pathlib import Path

SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:(a|b|rc)(\d+))?$")


def bump(version, part, pre=None):
    m = SEMVER.match(version)
    if not m:
        raise SystemExit(f"unsupported version: {version}")
    major, minor, patch = map(int, m.group(1, 2, 3))
    if part == "major":
        major, minor, patch = major + 1, 0, 0
    elif part == "minor":
        minor, patch = minor + 1, 0
    elif part == "patch":
        patch += 1
    out = f"{major}.{minor}.{patch}"
    return out + (f"{pre}1" if pre else "")


def replace_in(path, old, new, pattern):
    text = path.read_text(encoding="utf-8")
    updated = re.sub(pattern.format(re.escape(old)), lambda m: m.group(0).replace(old, new), text, count=1)
    return text, updated


def current_version(root):
    pp = root / "pyproject.toml"
    if pp.exists():
        m = re.search(r'^version\s*=\s*"([^"]+)"', pp.read_text(), re.M)
        if m:
            return m.group(1)
    pj = root / "package.json"
    if pj.exists():
        return json.loads(pj.read_text()).get("version")
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="semver-bump")
    ap.add_argument("part", choices=["major", "minor", "patch", "set"])
    ap.add_argument("value", nargs="?")
    ap.add_argument("--pre", choices=["a", "b", "rc"])
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args(argv)
    root = Path.cwd()
    old = current_version(root)
    if not old:
        print("no version found", file=sys.stderr)
        return 2
    new = args.value if args.part == "set" else bump(old, args.part, args.pre)
    targets = {
        "pyproject.toml": r'^version\s*=\s*"{}"',
        "package.json": r'"version":\s*"{}"',
        "Cargo.toml": r'^version\s*=\s*"{}"',
    }
    for name, pat in targets.items():
        p = root / name
        if not p.exists():
            continue
        before, after = replace_in(p, old, new, pat)
        if before != after:
            print(f"{name}: {old} -> {new}")
            if not args.dry_run:
                p.write_text(after, encoding="utf-8")
    cl = root / "CHANGELOG.md"
    if cl.exists() and not args.dry_run:
        today = datetime.date.today().isoformat()
        cl.write_text(cl.read_text().replace("## [Unreleased]", f"## [Unreleased]\n\n## [{new}] - {today}", 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
