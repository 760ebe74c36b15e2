#!/usr/bin/env python3
"""PreToolUse hook: deny edits to lockfiles, env files and .git internals."""
import fnmatch
import json
import os
import sys

BLOCKED = ["uv.lock", "poetry.lock", "Pipfile.lock", ".env", ".env.*", ".git/*"]

payload = json.load(sys.stdin)
path = (payload.get("tool_input") or {}).get("file_path", "")
root = os.environ.get("CLAUDE_PROJECT_DIR", os.getcwd())
rel = os.path.relpath(path, root) if path else ""

for pattern in BLOCKED:
    if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(rel), pattern):
        print(json.dumps({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": f"{rel} is protected ({pattern}); regenerate it with the proper tool instead.",
            }
        }))
        sys.exit(0)
sys.exit(0)
