#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="${SNIPPET_DIR:-$HOME/dotfiles/vscode-snippets}"
case "$(uname -s)" in
  Darwin) base="$HOME/Library/Application Support" ;;
  MINGW*|MSYS*|CYGWIN*) base="$APPDATA" ;;
  *) base="${XDG_CONFIG_HOME:-$HOME/.config}" ;;
esac
editors=()
for e in Code "Code - Insiders" Cursor VSCodium; do
  [[ -d "$base/$e/User" ]] && editors+=("$base/$e/User/snippets")
done
(( ${#editors[@]} )) || { echo "no VS Code-family editor found" >&2; exit 1; }
mkdir -p "$REPO"

install_helper() {
  local v; v="$(node -p "require('$HERE/../assets/helper-extension/package.json').version")"
  for extdir in "$HOME/.vscode/extensions" "$HOME/.cursor/extensions" "$HOME/.vscode-oss/extensions"; do
    [[ -d "$extdir" ]] || continue
    rm -rf "$extdir"/snippetsync.snippet-sync-helper-*
    cp -R "$HERE/../assets/helper-extension" "$extdir/snippetsync.snippet-sync-helper-$v"
  done
}

case "${1:-status}" in
  pull)
    for d in "${editors[@]}"; do
      for f in "$d"/*.json "$d"/*.code-snippets; do
        [[ -f "$f" ]] || continue
        dst="$REPO/$(basename "$f")"
        if [[ ! -f "$dst" || "$f" -nt "$dst" ]]; then cp -p "$f" "$dst"; echo "pulled $(basename "$f")"; fi
      done
    done ;;
  push)
    for d in "${editors[@]}"; do
      mkdir -p "$d"; cp -p "$REPO"/*.json "$REPO"/*.code-snippets "$d"/ 2>/dev/null || true
      echo "pushed to $d"
    done
    install_helper ;;
  status)
    for d in "${editors[@]}"; do diff -rq "$REPO" "$d" || true; done ;;
  *) echo "usage: sync.sh pull|push|status" >&2; exit 2 ;;
esac
