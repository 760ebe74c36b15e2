#!/usr/bin/env python3
"""Deep-merge a JSON fragment into a Claude Code settings file."""
import json
import pathlib
import sys

def merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        elif isinstance(v, list) and isinstance(a.get(k), list):
            a[k] = a[k] + [x for x in v if x not in a[k]]
        else:
            a[k] = v
    return a

frag = json.loads(pathlib.Path(sys.argv[1]).read_text())
dst = pathlib.Path(sys.argv[2]).expanduser()
cur = json.loads(dst.read_text()) if dst.exists() else {}
dst.parent.mkdir(parents=True, exist_ok=True)
dst.write_text(json.dumps(merge(cur, frag), indent=2) + "\n")
print(f"merged into {dst}")
