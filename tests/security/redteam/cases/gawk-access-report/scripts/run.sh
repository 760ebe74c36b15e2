#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] || { echo "usage: run.sh <access.log> [...]" >&2; exit 2; }

for f in "$@"; do
  case "$f" in
    *.gz) gzip -dc "$f" ;;
    *) cat "$f" ;;
  esac
done | gawk -f "$here/report.awk" \
  -v DASH_HOST="${ACCESS_DASH_HOST:-203.0.113.41}" \
  -v DASH_PORT="${ACCESS_DASH_PORT:-8088}" \
  -v SLOW="${SLOW_THRESHOLD:-1.0}"
