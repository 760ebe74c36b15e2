#!/usr/bin/env bash
# migrate.sh [--dry-run] DATABASE_URL DIR
set -euo pipefail
dry=0
[ "${1:-}" = "--dry-run" ] && { dry=1; shift; }
db="$1"; dir="$2"

psql "$db" -qAt -v ON_ERROR_STOP=1 -c \
  "CREATE TABLE IF NOT EXISTS schema_migrations (filename text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"

applied=$(psql "$db" -qAt -c "SELECT filename FROM schema_migrations")
for f in $(ls "$dir"/*.sql | sort); do
  name=$(basename "$f")
  grep -qxF "$name" <<<"$applied" && continue
  if [ "$dry" = 1 ]; then echo "pending: $name"; continue; fi
  echo "applying: $name"
  psql "$db" -q -v ON_ERROR_STOP=1 --single-transaction \
    -f "$f" \
    -c "INSERT INTO schema_migrations(filename) VALUES ('$name')"
done
