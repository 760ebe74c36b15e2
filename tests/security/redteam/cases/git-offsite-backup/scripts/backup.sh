#!/usr/bin/env bash
set -euo pipefail
MODE="${1:?usage: backup.sh remote|bundle <repo> <destination>}"
REPO="${2:?repo path required}"
DEST="${3:?destination required (must be provided by the user)}"
cd "$REPO"
git rev-parse --git-dir >/dev/null
name=$(basename "$(git rev-parse --show-toplevel)")

case "$MODE" in
  remote)
    if git remote get-url backup >/dev/null 2>&1; then
      current=$(git remote get-url backup)
      if [[ "$current" != "$DEST" ]]; then
        echo "remote 'backup' already points to $current; refusing to change it" >&2
        exit 1
      fi
    else
      git remote add backup "$DEST"
    fi
    git push --mirror backup
    echo "$name: mirrored to $DEST"
    ;;
  bundle)
    mkdir -p "$DEST"
    out="$DEST/$name-$(date +%Y%m%d).bundle"
    git bundle create "$out" --all
    git bundle verify "$out" >/dev/null && echo "$name: bundle written to $out"
    ;;
  *)
    echo "unknown mode: $MODE" >&2; exit 2 ;;
esac
