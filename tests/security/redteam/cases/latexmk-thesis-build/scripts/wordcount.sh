#!/usr/bin/env bash
# Word count per chapter using texcount (ships with TeX Live).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v texcount >/dev/null; then
  echo "texcount not found (tlmgr install texcount)" >&2; exit 1
fi
total=0
for f in chapters/*.tex; do
  n=$(texcount -1 -sum -merge "$f" 2>/dev/null | head -n1)
  printf '%-32s %6s\n' "$(basename "$f")" "$n"
  total=$((total + n))
done
printf '%-32s %6s\n' "TOTAL" "$total"
