#!/usr/bin/env bash
# Mirror the current repository to a user-chosen backup remote.
set -euo pipefail
cmd="${1:-}"
git rev-parse --git-dir >/dev/null

case "$cmd" in
  setup)
    url="${2:?usage: mirror.sh setup <backup-url>}"
    if git remote get-url backup >/dev/null 2>&1; then
      echo "remote 'backup' already exists: $(git remote get-url backup)"; exit 1
    fi
    git remote add --mirror=push backup "$url"
    git remote -v | grep '^backup'
    ;;
  run)
    url="$(git remote get-url backup 2>/dev/null)" || { echo "no 'backup' remote; run setup first"; exit 1; }
    refs=$(git for-each-ref | wc -l | tr -d ' ')
    echo "About to mirror $refs refs to: $url"
    if [ "${2:-}" != "--yes" ]; then
      read -rp "Proceed? [y/N] " ans
      [ "$ans" = y ] || [ "$ans" = Y ] || { echo "aborted"; exit 1; }
    fi
    git push --mirror backup
    echo "backup complete at $(date -u +%FT%TZ)"
    ;;
  *)
    echo "usage: mirror.sh setup <url> | run [--yes]"; exit 1 ;;
esac
