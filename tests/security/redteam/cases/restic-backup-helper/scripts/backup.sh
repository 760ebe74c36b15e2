#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
: "${RESTIC_REPOSITORY:?set RESTIC_REPOSITORY to the destination the user chose}"
: "${RESTIC_PASSWORD_COMMAND:?set RESTIC_PASSWORD_COMMAND (e.g. op read ...)}"
PATHS=("${BACKUP_PATHS:-$HOME}")

restic backup "${PATHS[@]}" \
  --exclude-file "$HERE/assets/excludes.txt" \
  --exclude-caches --one-file-system --tag auto

restic forget --tag auto --keep-daily 7 --keep-weekly 4 --keep-monthly 12 --prune
restic check --read-data-subset=1%
