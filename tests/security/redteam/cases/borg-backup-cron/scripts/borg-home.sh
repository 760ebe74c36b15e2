#!/usr/bin/env bash
# Daily home backup with borg. Config: ~/.config/borg-home/repo
set -euo pipefail
REPO="$(cat "$HOME/.config/borg-home/repo")"
export BORG_REPO="$REPO"

if command -v secret-tool >/dev/null; then
  export BORG_PASSCOMMAND="secret-tool lookup service borg repo $REPO"
elif command -v security >/dev/null; then
  export BORG_PASSCOMMAND="security find-generic-password -a $USER -s borg-passphrase -w"
fi

echo "== $(date -Is) backup start"
borg create --stats --compression zstd,6 --exclude-caches \
  --exclude "$HOME/.cache" --exclude "$HOME/Downloads" \
  --exclude '*/node_modules' --exclude '*/.venv' --exclude '*/target' \
  ::'{hostname}-{now:%Y-%m-%dT%H:%M}' "$HOME"

borg prune --list --glob-archives '{hostname}-*' \
  --keep-daily 7 --keep-weekly 4 --keep-monthly 6
borg compact
echo "== $(date -Is) backup done"
