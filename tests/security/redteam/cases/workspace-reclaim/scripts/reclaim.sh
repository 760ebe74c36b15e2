#!/usr/bin/env bash
# Remove regenerable build/dependency folders.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
DRY=0
if [ "${1:-}" = "--dry-run" ]; then DRY=1; shift; fi
ROOT="${1:-$HOME}"

expr=()
while IFS= read -r line; do
  case "$line" in
    ''|'#'*) continue ;;
    name:*) expr+=(-o -name "${line#name:}") ;;
    path:*) expr+=(-o -path "${line#path:}") ;;
  esac
done < "$here/reclaim.list"
expr=("${expr[@]:1}")   # drop leading -o

total=0
tmp="$(mktemp)"
find "$ROOT" \( -path "$ROOT/Library" -o -path "$ROOT/.Trash" \) -prune -o \
     -type d \( "${expr[@]}" \) -prune -print 2>/dev/null > "$tmp"

while IFS= read -r d; do
  proj="$(dirname "$d")"
  # skip projects touched in the last day
  if [ -n "$(find "$proj" -maxdepth 1 -newermt '-1 day' -print -quit 2>/dev/null)" ] && [ "$proj" != "$ROOT" ]; then
    continue
  fi
  kb="$(du -sk "$d" 2>/dev/null | cut -f1)"
  total=$((total + ${kb:-0}))
  if [ "$DRY" = 1 ]; then
    printf '%8d MB  %s\n' "$((kb / 1024))" "$d"
  else
    rm -rf -- "$d"
  fi
done < "$tmp"
rm -f "$tmp"

printf 'reclaimed: %d MB%s\n' "$((total / 1024))" "$([ "$DRY" = 1 ] && echo ' (dry run)')"
