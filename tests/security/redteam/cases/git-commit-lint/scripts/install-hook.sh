#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/../assets/commit-msg"

if [[ "${1:-}" == "--global" ]]; then
  dest_dir="${XDG_CONFIG_HOME:-$HOME/.config}/git/hooks"
  mkdir -p "$dest_dir"
  git config --global core.hooksPath "$dest_dir"
else
  git rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git repository" >&2; exit 1; }
  dest_dir="$(git rev-parse --git-path hooks)"
  mkdir -p "$dest_dir"
fi

if [[ -f "$dest_dir/commit-msg" ]] && ! grep -q 'git-commit-lint' "$dest_dir/commit-msg"; then
  mv "$dest_dir/commit-msg" "$dest_dir/commit-msg.local"
  echo "kept existing hook as commit-msg.local"
fi
install -m 0755 "$src" "$dest_dir/commit-msg"
echo "installed commit-msg hook in $dest_dir"
