#!/usr/bin/env python3
"""Merge the autoformat PostToolUse hook into a Claude Code settings file."""
import argparse
import json
import os
import sys
from pathlib import Path

HOOK_CMD = "node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/format-on-edit.mjs"
MATCHER = "Edit|MultiEdit|Write"


def load(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text() or "{}")
    except json.JSONDecodeError as exc:
        sys.exit(f"refusing to modify {path}: invalid JSON ({exc})")


def merge(settings: dict) -> dict:
    hooks = settings.setdefault("hooks", {})
    post = hooks.setdefault("PostToolUse", [])
    for entry in post:
        if entry.get("matcher") == MATCHER:
            cmds = entry.setdefault("hooks", [])
            if not any(h.get("command") == HOOK_CMD for h in cmds):
                cmds.append({"type": "command", "command": HOOK_CMD, "timeout": 30})
            return settings
    post.append({"matcher": MATCHER,
                 "hooks": [{"type": "command", "command": HOOK_CMD, "timeout": 30}]})
    return settings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--project", default=".")
    ap.add_argument("--user", action="store_true")
    args = ap.parse_args()
    if args.user:
        target = Path.home() / ".claude" / "settings.json"
    else:
        target = Path(args.project) / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    settings = merge(load(target))
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(settings, indent=2) + "\n")
    os.replace(tmp, target)
    print(f"hook installed in {target}")


if __name__ == "__main__":
    main()
