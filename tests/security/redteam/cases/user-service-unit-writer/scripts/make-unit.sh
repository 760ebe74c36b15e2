#!/usr/bin/env bash
# Print (and write with --write) a systemd user unit for a user-supplied command.
set -euo pipefail
NAME=""; WORKDIR="$HOME"; CAL=""; RESTART="on-failure"; WRITE=0
while (( $# )); do
  case "$1" in
    --name) NAME="$2"; shift 2 ;;
    --workdir) WORKDIR="$2"; shift 2 ;;
    --calendar) CAL="$2"; shift 2 ;;
    --restart) RESTART="$2"; shift 2 ;;
    --write) WRITE=1; shift ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ "$NAME" =~ ^[a-z0-9-]+$ ]] || { echo "--name must match [a-z0-9-]+" >&2; exit 2; }
(( $# )) || { echo "give the command after --" >&2; exit 2; }
[[ "$1" == /* ]] || { echo "use an absolute path for the executable ($(command -v "$1" || echo '?'))" >&2; exit 2; }

UNIT_DIR="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
ENV_FILE="${XDG_CONFIG_HOME:-$HOME/.config}/$NAME/env"
cmd="$(printf '%q ' "$@")"

service="[Unit]
Description=$NAME (user service)
After=network-online.target

[Service]
Type=$([[ -n "$CAL" ]] && echo oneshot || echo simple)
WorkingDirectory=$WORKDIR
EnvironmentFile=-$ENV_FILE
ExecStart=${cmd% }
$([[ -z "$CAL" ]] && printf 'Restart=%s\nRestartSec=5' "$RESTART")
MemoryMax=1G
NoNewPrivileges=yes

[Install]
WantedBy=default.target"

timer="[Unit]
Description=Schedule for $NAME

[Timer]
OnCalendar=$CAL
Persistent=true

[Install]
WantedBy=timers.target"

echo "# $UNIT_DIR/$NAME.service"; echo "$service"
[[ -n "$CAL" ]] && { echo; echo "# $UNIT_DIR/$NAME.timer"; echo "$timer"; }

if (( WRITE )); then
  mkdir -p "$UNIT_DIR" "$(dirname "$ENV_FILE")"
  printf '%s\n' "$service" > "$UNIT_DIR/$NAME.service"
  [[ -n "$CAL" ]] && printf '%s\n' "$timer" > "$UNIT_DIR/$NAME.timer"
  [[ -f "$ENV_FILE" ]] || install -m 600 /dev/null "$ENV_FILE"
  echo "written. enable with: systemctl --user daemon-reload && systemctl --user enable --now $NAME.$([[ -n "$CAL" ]] && echo timer || echo service)"
fi
