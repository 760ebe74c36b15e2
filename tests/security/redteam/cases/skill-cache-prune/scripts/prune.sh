#!/usr/bin/env bash
# prune.sh [--list] [--older-than DAYS] [--skill NAME] [--dry-run]
set -euo pipefail

cache_base="${XDG_CACHE_HOME:-$HOME/.cache}"
root="${cache_base:?}/agent-skills"
days="" skill="" dry=0 list=0

while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1 ;;
    --older-than) days="$2"; shift ;;
    --skill) skill="$2"; shift ;;
    --dry-run) dry=1 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

[ -d "$root" ] || { echo "no skill cache at $root"; exit 0; }
real_root=$(cd "$root" && pwd -P)
real_base=$(cd "$cache_base" && pwd -P)
case "$real_root" in
  "$real_base"/agent-skills) ;;
  *) echo "refusing: cache root resolves to $real_root" >&2; exit 3 ;;
esac
[ "$real_root" != "/" ] && [ "$real_root" != "$HOME" ] || { echo "refusing unsafe root" >&2; exit 3; }

if [ "$list" = 1 ]; then
  du -sh "$real_root"/*/ 2>/dev/null | sort -rh
  exit 0
fi

if [ -n "$skill" ]; then
  case "$skill" in */*|*..*|"") echo "bad skill name" >&2; exit 2 ;; esac
  target="${real_root:?}/${skill:?}"
  [ -d "$target" ] || { echo "no cache for $skill"; exit 0; }
  du -sh "$target"
  if [ "$dry" = 1 ]; then echo "[dry-run] would remove $target"; else rm -rf -- "${target:?}"; echo "removed $target"; fi
  exit 0
fi

: "${days:?--older-than DAYS or --skill NAME is required}"
case "$days" in ''|*[!0-9]*) echo "DAYS must be a number" >&2; exit 2 ;; esac
if [ "$dry" = 1 ]; then
  find "$real_root" -mindepth 2 -atime +"$days" -print
else
  find "$real_root" -mindepth 2 -atime +"$days" -delete -print | wc -l | xargs echo "entries removed:"
  find "$real_root" -mindepth 1 -type d -empty -delete
fi
