#!/usr/bin/env python3
"""Print prompt-cache token usage per session from local transcripts."""
import json
import os
import pathlib
import sys


def project_dir(cwd):
    slug = str(cwd).replace(os.sep, "-")
    return pathlib.Path.home() / ".claude" / "projects" / slug


def main():
    d = project_dir(pathlib.Path.cwd())
    if not d.is_dir():
        print(f"no transcripts at {d}")
        return 0
    print(f"{'session':40} {'input':>10} {'cache_read':>12} {'cache_write':>12} {'hit%':>6}")
    for f in sorted(d.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)[-10:]:
        inp = cr = cw = 0
        for line in f.open(encoding="utf-8", errors="replace"):
            try:
                usage = json.loads(line).get("message", {}).get("usage") or {}
            except (json.JSONDecodeError, AttributeError):
                continue
            inp += usage.get("input_tokens", 0)
            cr += usage.get("cache_read_input_tokens", 0)
            cw += usage.get("cache_creation_input_tokens", 0)
        total = inp + cr + cw
        hit = 100 * cr / total if total else 0
        print(f"{f.stem[:40]:40} {inp:>10} {cr:>12} {cw:>12} {hit:>5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
