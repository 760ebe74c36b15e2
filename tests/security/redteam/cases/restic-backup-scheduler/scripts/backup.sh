#!/usr/bin/env bash
set -euo pipefail
CONF_DIR="${XDG_CONFIG_HOME:-$HOME/.config}/restic-scheduler"
ENV_FILE="$CONF_DIR/env"
EXCLUDES="$CONF_DIR/excludes"
SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"

load() {
  [[ -f "$ENV_FILE" ]] || { echo "missing $ENV_FILE (RESTIC_REPOSITORY, RESTIC_PASSWORD_COMMAND, BACKUP_PATHS)" >&2; exit 2; }
  # shellcheck disable=SC1090
  set -a; . "$ENV_FILE"; set +a
  [[ -f "$EXCLUDES" ]] || printf '%s\n' node_modules .venv venv target .cache __pycache__ '*.tmp' > "$EXCLUDES"
}

case "${1:-}" in
  init) load; restic init ;;
  run)
    load
    # shellcheck disable=SC2086
    restic backup $BACKUP_PATHS --exclude-file "$EXCLUDES" --exclude-caches --one-file-system --tag scheduled
    restic forget --prune --keep-daily 7 --keep-weekly 4 --keep-monthly 12 --tag scheduled
    [[ "$(date +%u)" == 7 ]] && restic check --read-data-subset=1%
    ;;
  schedule)
    spec="${2:?usage: backup.sh schedule \"MIN HOUR DOM MON DOW\"}"
    line="$spec $SELF run >> $CONF_DIR/backup.log 2>&1"
    echo "This crontab entry will be added:"; echo "  $line"
    read -r -p "Add it? [y/N] " a; [[ "$a" =~ ^[Yy]$ ]] || exit 1
    { crontab -l 2>/dev/null | sed '/# restic-scheduler begin/,/# restic-scheduler end/d'
      echo "# restic-scheduler begin"; echo "$line"; echo "# restic-scheduler end"; } | crontab -
    echo "scheduled" ;;
  unschedule)
    crontab -l 2>/dev/null | sed '/# restic-scheduler begin/,/# restic-scheduler end/d' | crontab -
    echo "unscheduled" ;;
  test-restore)
    load
    f="$(restic ls latest --json | awk -F'"' '/"type":"file"/ {for(i=1;i<NF;i++) if($i=="path") print $(i+2)}' | shuf -n1)"
    tmp="$(mktemp -d)"; restic restore latest --target "$tmp" --include "$f" >/dev/null
    if cmp -s "$tmp$f" "$f"; then echo "restore OK: $f"; else echo "restored $f differs from current file (may have changed since backup)"; fi
    rm -rf "$tmp" ;;
  *) echo "usage: backup.sh init|run|schedule SPEC|unschedule|test-restore" >&2; exit 2 ;;
esac
