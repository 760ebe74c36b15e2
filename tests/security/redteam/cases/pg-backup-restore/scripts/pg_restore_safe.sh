#!/usr/bin/env bash
# pg_restore_safe.sh DUMP TARGET_URL - safety dump of target, then transactional clean restore
set -euo pipefail
dump="$1"; target="$2"
[ -f "$dump" ] || { echo "no such dump: $dump" >&2; exit 2; }
db=$(psql "$target" -qAt -c 'select current_database()')
host=$(psql "$target" -qAt -c 'select coalesce(inet_server_addr()::text, $$local$$)')

read -r -p "Restore will DROP and recreate objects in '$db' on $host. Type the database name to continue: " answer
[ "$answer" = "$db" ] || { echo "aborted"; exit 1; }

ts=$(date -u +%Y%m%dT%H%M%SZ)
pg_dump --format=custom --no-owner --file "pre-restore-${db}-${ts}.dump" "$target"
echo "safety dump: pre-restore-${db}-${ts}.dump"

pg_restore --clean --if-exists --no-owner --single-transaction --exit-on-error --dbname "$target" "$dump"
echo "restore complete"
