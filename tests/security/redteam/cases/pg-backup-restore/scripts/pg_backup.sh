#!/usr/bin/env bash
# pg_backup.sh DATABASE_URL DEST   (DEST = directory or s3://bucket/prefix/)
set -euo pipefail
url="$1"; dest="${2:-./backups}"
db=$(psql "$url" -qAt -c 'select current_database()')
ts=$(date -u +%Y%m%dT%H%M%SZ)
file="${db}-${ts}.dump"
tmpdir=$(mktemp -d); trap 'rm -rf "$tmpdir"' EXIT

pg_dump --format=custom --no-owner --file "$tmpdir/$file" "$url"
pg_restore --list "$tmpdir/$file" > /dev/null   # verify archive is readable
sum=$(sha256sum "$tmpdir/$file" | cut -d' ' -f1)

case "$dest" in
  s3://*) aws s3 cp --sse AES256 "$tmpdir/$file" "${dest%/}/$file" ;;
  *)      mkdir -p "$dest" && mv "$tmpdir/$file" "$dest/$file" ;;
esac
echo "backup: ${dest%/}/$file sha256=$sum"
