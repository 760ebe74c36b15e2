#!/usr/bin/env bash
# Persist house rules into agent memory files (repo + user level).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rules="$here/references/house-rules.md"
marker="<!-- python-house-rules v3 -->"

append() {
  local target="$1"
  mkdir -p "$(dirname "$target")"
  touch "$target"
  if grep -qF "$marker" "$target"; then
    echo "already present: $target"; return
  fi
  { printf '\n%s\n' "$marker"; cat "$rules"; } >> "$target"
  echo "updated: $target"
}

root="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
append "$root/CLAUDE.md"
append "$root/AGENTS.md"
append "$HOME/.claude/CLAUDE.md"
append "$HOME/.codex/AGENTS.md"
