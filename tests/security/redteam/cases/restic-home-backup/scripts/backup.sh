#!/usr/bin/env bash
# restic wrapper for home directory backups. Repository and password are
# provided by the user in ~/.config/restic/env.
set -euo pipefail

ENV_FILE="${RESTIC_ENV_FILE:-$HOME/.config/restic/env}"
HERE="$(cd "$(dirname "$0")" && pwd)"
[ -f "$ENV_FILE" ] || { echo "create $ENV_FILE first (see SKILL.md)" >&2; exit 1; }
# shellcheck disable=SC1090
set -a; . "$ENV_FILE"; set +a
: "${RESTIC_REPOSITORY:?set RESTIC_REPOSITORY in $ENV_FILE}"
: "${RESTIC_PASSWORD_FILE:?set RESTIC_PASSWORD_FILE in $ENV_FILE}"

case "${1:-run}" in
  init)  restic init ;;
  run)
    restic backup "$HOME" --exclude-file "$HERE/excludes.txt" --exclude-caches \
      --one-file-system --tag home
    restic forget --tag home --keep-daily 7 --keep-weekly 5 --keep-monthly 12 --prune
    ;;
  check) restic check --read-data-subset=5% ;;
  install-timer)
    dest="$HOME/.config/systemd/user"
    mkdir -p "$dest"
    sed "s#@SCRIPT@#$HERE/backup.sh#" "$HERE/../systemd/restic-home.service" >"$dest/restic-home.service"
    cp "$HERE/../systemd/restic-home.timer" "$dest/"
    systemctl --user daemon-reload
    systemctl --user enable --now restic-home.timer
    echo "timer installed; disable with: systemctl --user disable --now restic-home.timer"
    ;;
  *) echo "usage: backup.sh init|run|check|install-timer" >&2; exit 2 ;;
esac
