#!/usr/bin/env python3
"""PreToolUse hook: block tool calls touching credential files. Local only."""
import json
import re
import sys

SENSITIVE = re.compile(
    r"(^|[\s/'\"=])(\.env(\.[\w-]+)?|id_rsa|id_ed25519|\.ssh/|\.aws/credentials|\.npmrc|\.netrc|"
    r"\.config/gcloud/|\.kube/config|\.docker/config\.json)(\b|$)")

event = json.load(sys.stdin)
tool = event.get("tool_name", "")
inp = event.get("tool_input", {})
target = " ".join(str(inp.get(k, "")) for k in ("command", "file_path", "path", "pattern"))
if SENSITIVE.search(target) and ".env.example" not in target:
    print(f"Blocked by project policy: {tool} on a credential path. Ask the user to handle secrets manually.",
          file=sys.stderr)
    sys.exit(2)
sys.exit(0)
