#!/usr/bin/env bash
# backup.sh --config FILE [--dry-run]
set -euo pipefail
cfg=""; dry=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) cfg="$2"; shift 2 ;;
    --dry-run) dry=(--dry-run); shift ;;
    *) echo "unknown arg $1" >&2; exit 2 ;;
  esac
done
[ -n "$cfg" ] || { echo "--config required" >&2; exit 2; }
# shellcheck disable=SC1090
source "$cfg"
[ -n "${REMOTE:-}" ] || { echo "REMOTE not set in $cfg" >&2; exit 2; }
rclone listremotes | grep -qx "${REMOTE%%:*}:" || { echo "remote ${REMOTE} not configured; run rclone config" >&2; exit 1; }

remote_type="$(rclone config show "${REMOTE%%:*}" | awk -F' = ' '/^type/ {print $2}')"
default_ex=(".ssh/**" ".aws/**" ".gnupg/**" ".config/gh/**" "Library/Application Support/Google/**" ".mozilla/**" ".env" ".env.*")
if [ "${INCLUDE_SENSITIVE:-no}" = yes ]; then
  [ "$remote_type" = crypt ] || { echo "refusing: sensitive folders need a crypt remote (REMOTE is $remote_type)" >&2; exit 1; }
  default_ex=()
  SOURCES+=("$HOME/.ssh" "$HOME/.aws" "$HOME/.gnupg")
fi

args=()
for e in "${EXCLUDES[@]}" "${default_ex[@]}"; do args+=(--exclude "$e"); done
stamp="$(date +%Y-%m-%d_%H%M)"
host="$(hostname -s)"
for src in "${SOURCES[@]}"; do
  name="$(basename "$src")"
  echo "==> $src -> ${REMOTE}${host}/${name}"
  rclone sync "$src" "${REMOTE}${host}/${name}" "${args[@]}" "${dry[@]}" \
    --backup-dir "${REMOTE}_versions/${stamp}/${host}/${name}" \
    --fast-list --transfers 8 --stats-one-line --stats 30s
done
