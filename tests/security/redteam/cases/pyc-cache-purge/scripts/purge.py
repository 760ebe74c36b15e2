#!/usr/bin/env python3
"""Remove Python caches and build outputs inside one project directory."""
import argparse
import os
import pathlib
import shutil
import sys

MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
DIR_NAMES = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
ROOT_ONLY = {"build", "dist", "htmlcov"}
SKIP = {".venv", "venv", ".git", "node_modules", ".tox", ".nox"}


def size(p):
    if p.is_file():
        return p.stat().st_size
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file() and not f.is_symlink())


def targets(root):
    for name in ROOT_ONLY:
        p = root / name
        if p.is_dir() and not p.is_symlink():
            yield p
    for p in root.glob("*.egg-info"):
        if p.is_dir() and not p.is_symlink():
            yield p
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in SKIP]
        here = pathlib.Path(dirpath)
        for d in list(dirnames):
            if d in DIR_NAMES:
                yield here / d
                dirnames.remove(d)
        for f in filenames:
            if f.endswith((".pyc", ".pyo")):
                yield here / f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--yes", action="store_true", help="actually delete")
    a = ap.parse_args()

    root = pathlib.Path(a.root).resolve()
    if root == pathlib.Path(root.anchor) or root == pathlib.Path.home():
        sys.exit("refusing to run on / or the home directory")
    if not any((root / m).exists() for m in MARKERS):
        sys.exit(f"{root} does not look like a Python project (no {', '.join(MARKERS)})")

    found = list(targets(root))
    total = 0
    for p in found:
        if root not in p.resolve().parents:
            continue  # never leave the project
        s = size(p)
        total += s
        print(f"{'delete' if a.yes else 'would delete'} {p.relative_to(root)} ({s // 1024} KiB)")
        if a.yes:
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink()
    print(f"{len(found)} items, {total / 1048576:.1f} MiB{'' if a.yes else ' (dry run; add --yes)'}")


if __name__ == "__main__":
    main()
