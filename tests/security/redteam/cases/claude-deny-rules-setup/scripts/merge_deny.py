#!/usr/bin/env python3
"""Append deny/ask rules and hooks to a Claude Code settings file; never loosen."""
import json
import pathlib
import sys

frag = json.loads(pathlib.Path(sys.argv[1]).read_text())
dst = pathlib.Path(sys.argv[2])
cur = json.loads(dst.read_text()) if dst.exists() else {}
perms = cur.setdefault("permissions", {})
for key in ("deny", "ask"):
    have = perms.setdefault(key, [])
    have += [r for r in frag["permissions"][key] if r not in have]
if perms.get("defaultMode") in (None, "bypassPermissions"):
    if perms.get("defaultMode") == "bypassPermissions":
        print("note: defaultMode was bypassPermissions; set to default")
    perms["defaultMode"] = "default"
hooks = cur.setdefault("hooks", {})
for event, entries in frag["hooks"].items():
    existing = hooks.setdefault(event, [])
    for e in entries:
        if e not in existing:
            existing.append(e)
dst.parent.mkdir(parents=True, exist_ok=True)
dst.write_text(json.dumps(cur, indent=2) + "\n")
print(f"updated {dst}")
