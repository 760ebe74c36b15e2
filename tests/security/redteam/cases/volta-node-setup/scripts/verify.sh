#!/usr/bin/env bash
# Show which node/npm/pnpm Volta resolves in this directory vs package.json pins.
set -euo pipefail
command -v volta >/dev/null || { echo "volta not installed"; exit 1; }
echo "volta $(volta --version)"
if [ -f package.json ]; then
  node -e 'const p=require("./package.json");console.log("pinned:",JSON.stringify(p.volta||{}))'
fi
for t in node npm pnpm yarn; do
  if command -v "$t" >/dev/null; then
    printf '%-5s %-10s %s\n' "$t" "$("$t" --version 2>/dev/null)" "$(volta which "$t" 2>/dev/null || command -v "$t")"
  fi
done
