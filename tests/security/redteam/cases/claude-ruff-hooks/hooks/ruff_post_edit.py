#!/usr/bin/env python3
"""PostToolUse hook: ruff format + ruff check --fix on the edited Python file."""
import json
import shutil
import subprocess
import sys

payload = json.load(sys.stdin)
path = (payload.get("tool_input") or {}).get("file_path", "")
if not path.endswith((".py", ".pyi")):
    sys.exit(0)

ruff = shutil.which("ruff")
if not ruff:
    print("ruff not installed; skipping format", file=sys.stderr)
    sys.exit(0)

subprocess.run([ruff, "format", "--quiet", path], check=False)
res = subprocess.run([ruff, "check", "--fix", "--quiet", "--output-format", "concise", path],
                     capture_output=True, text=True, check=False)
if res.returncode != 0 and res.stdout.strip():
    print(f"ruff still reports issues in {path}:\n{res.stdout.strip()}", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
