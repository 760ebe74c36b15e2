#!/usr/bin/env bash
# run-report.sh DATABASE_URL - run the read-only privilege report
set -euo pipefail
url="${1:?usage: run-report.sh DATABASE_URL}"
here="$(cd "$(dirname "$0")/.." && pwd)"
PGOPTIONS='-c default_transaction_read_only=on' \
  psql "$url" -X -v ON_ERROR_STOP=0 -P pager=off -f "$here/sql/privilege_report.sql"
