#!/usr/bin/env bash
set -euo pipefail
db=""; dir=""; at="02:30"; keep=14; install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --db) db="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --at) at="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --install) install=1; shift ;;
    *) echo "unknown arg $1" >&2; exit 2 ;;
  esac
done
[[ "$db" =~ ^[A-Za-z0-9_]+$ ]] || { echo "--db required (letters, digits, _)" >&2; exit 2; }
[[ "$at" =~ ^([01][0-9]|2[0-3]):[0-5][0-9]$ ]] || { echo "--at must be HH:MM" >&2; exit 2; }
[[ "$keep" =~ ^[0-9]+$ ]] || exit 2
dir="${dir:-$HOME/backups/$db}"
script="$HOME/.local/bin/backup-$db.sh"

body=$(cat <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
mkdir -p "$dir"
pg_dump --format=custom --file "$dir/$db-\$(date +%F).dump" "$db"
find "$dir" -maxdepth 1 -type f -name '*.dump' -mtime +$keep -delete
SCRIPT
)
line="${at#*:} ${at%:*} * * * $script >>$dir/backup.log 2>&1 # nightly-db-backup:$db"

echo "script: $script"; echo "$body" | sed 's/^/    /'
echo "cron:   $line"
if [ "$install" -eq 1 ]; then
  mkdir -p "$(dirname "$script")" "$dir"
  printf '%s\n' "$body" > "$script"; chmod 700 "$script"
  (crontab -l 2>/dev/null | grep -v "nightly-db-backup:$db"; echo "$line") | crontab -
  echo "installed"
else
  echo "(dry run - re-run with --install after the user confirms)"
fi
