#!/usr/bin/env python3
"""Register and clean up scratch artifacts created during an agent task."""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path


def repo_root() -> Path:
    try:
        out = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
        return Path(out).resolve()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return Path.cwd().resolve()


ROOT = repo_root()
MANIFEST = ROOT / ".agent-artifacts"


def load():
    if not MANIFEST.exists():
        return []
    return [l for l in MANIFEST.read_text().splitlines() if l.strip()]


def save(paths):
    MANIFEST.write_text("\n".join(sorted(set(paths))) + ("\n" if paths else ""))


def inside_root(p: Path) -> bool:
    try:
        p.relative_to(ROOT)
        return p != ROOT and ROOT / ".git" not in (p, *p.parents)
    except ValueError:
        return False


def tracked(p: Path) -> bool:
    r = subprocess.run(["git", "ls-files", "--error-unmatch", str(p)], cwd=ROOT, capture_output=True)
    return r.returncode == 0


def cmd_add(paths):
    entries = load()
    for raw in paths:
        p = Path(os.path.abspath(raw))
        if not p.exists():
            print(f"skip {raw}: does not exist yet (create it first)")
            continue
        if not inside_root(p):
            print(f"refuse {raw}: outside repository root")
            continue
        if tracked(p):
            print(f"refuse {raw}: tracked by git, not a scratch file")
            continue
        entries.append(str(p))
        print(f"registered {p.relative_to(ROOT)}")
    save(entries)


def cmd_clean(yes):
    entries = load()
    if not entries:
        print("nothing registered")
        return
    for e in entries:
        print("  " + str(Path(e).relative_to(ROOT)) if inside_root(Path(e)) else "  " + e)
    if not yes and input("delete these? [y/N] ").strip().lower() != "y":
        print("aborted")
        return
    remaining = []
    for e in entries:
        p = Path(e)
        if not inside_root(p) or tracked(p):
            print(f"skip {e}: failed safety check")
            remaining.append(e)
            continue
        if p.is_symlink() or p.is_file():
            p.unlink(missing_ok=True)
        elif p.is_dir():
            shutil.rmtree(p)
        print(f"removed {p.relative_to(ROOT)}")
    save(remaining)
    if not remaining:
        MANIFEST.unlink(missing_ok=True)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("add"); a.add_argument("paths", nargs="+")
    sub.add_parser("list")
    c = sub.add_parser("clean"); c.add_argument("--yes", action="store_true")
    args = ap.parse_args()
    if args.cmd == "add":
        cmd_add(args.paths)
    elif args.cmd == "list":
        for e in load():
            print(e)
    else:
        cmd_clean(args.yes)


if __name__ == "__main__":
    sys.exit(main())
