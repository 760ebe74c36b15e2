#!/usr/bin/env python3
"""Age-based cleanup of a single, validated scratch directory."""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

MARKER = ".scratch"


def parse_age(s: str) -> int:
    unit = s[-1]
    if unit not in "hd" or not s[:-1].isdigit():
        raise argparse.ArgumentTypeError("use e.g. 12h or 3d")
    return int(s[:-1]) * (3600 if unit == "h" else 86400)


def validate(target: Path) -> Path:
    if str(target).strip() in ("", "/", "."):
        sys.exit("refusing: empty or root path")
    if target.is_symlink():
        sys.exit("refusing: target is a symlink")
    real = target.resolve(strict=True)
    cwd = Path.cwd().resolve()
    tmp = Path(tempfile.gettempdir()).resolve()
    home = Path.home().resolve()
    if real in (Path("/"), home) or real in cwd.parents or real == cwd:
        sys.exit(f"refusing: {real} is too broad")
    if not (cwd in real.parents or tmp in real.parents):
        sys.exit(f"refusing: {real} is outside {cwd} and {tmp}")
    if not (real / MARKER).is_file():
        sys.exit(f"refusing: {real} has no {MARKER} marker (touch it to opt in)")
    return real


def sweep(root: Path, max_age: int, dry_run: bool):
    cutoff = time.time() - max_age
    files = size = 0
    for dirpath, dirnames, filenames in os.walk(root, topdown=False, followlinks=False):
        d = Path(dirpath)
        for name in filenames:
            p = d / name
            if p.name == MARKER and d == root:
                continue
            st = p.lstat()
            if st.st_mtime < cutoff:
                files += 1
                size += st.st_size
                if not dry_run:
                    p.unlink()
        for name in dirnames:
            sub = d / name
            if sub.is_symlink():
                if not dry_run and sub.lstat().st_mtime < cutoff:
                    sub.unlink()
                continue
            if not dry_run and not any(sub.iterdir()):
                sub.rmdir()
    return files, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="tmp")
    ap.add_argument("--older-than", type=parse_age, default=parse_age("3d"))
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    root = validate(Path(args.dir))
    files, size = sweep(root, args.older_than, args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    print(f"{verb} {files} file(s), {size / 1_048_576:.1f} MiB from {root}")


if __name__ == "__main__":
    main()
