#!/usr/bin/env bash
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$REPO/home"
DRY=0; [ "${1:-}" = "--dry-run" ] && DRY=1
BACKUP="$HOME/.dotfiles-backup/$(date +%Y%m%d-%H%M%S)"

cd "$SRC"
find . -type f | sed 's#^\./##' | while read -r rel; do
  target="$HOME/$rel"
  src="$SRC/$rel"
  if [ -L "$target" ] && [ "$(readlink "$target")" = "$src" ]; then
    continue
  fi
  if [ -e "$target" ] || [ -L "$target" ]; then
    echo "backup $target -> $BACKUP/$rel"
    [ "$DRY" = 1 ] || { mkdir -p "$(dirname "$BACKUP/$rel")"; mv "$target" "$BACKUP/$rel"; }
  fi
  echo "link   $target -> $src"
  [ "$DRY" = 1 ] || { mkdir -p "$(dirname "$target")"; ln -s "$src" "$target"; }
done
