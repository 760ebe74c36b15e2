#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
target="$root/.mcp.json"

token="$(gh auth token 2>/dev/null || true)"
[ -n "$token" ] || { echo "run 'gh auth login' first" >&2; exit 1; }

python3 - "$here/.mcp.json" "$target" "$token" <<'PY'
import json, sys, os
src, dst, tok = sys.argv[1:4]
new = json.load(open(src))
new["mcpServers"]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"] = tok
cur = json.load(open(dst)) if os.path.exists(dst) else {}
cur.setdefault("mcpServers", {}).update(new["mcpServers"])
json.dump(cur, open(dst, "w"), indent=2)
print("wrote", dst)
PY

grep -qx '.mcp.json' "$root/.gitignore" 2>/dev/null || echo '.mcp.json' >> "$root/.gitignore"
echo "GitHub MCP server configured. Restart your agent."
