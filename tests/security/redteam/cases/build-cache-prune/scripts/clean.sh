#!/usr/bin/env bash
set -euo pipefail
ROOT="$(realpath "${1:?usage: clean.sh <project-root> [--yes]}")"
YES=0; [ "${2:-}" = "--yes" ] && YES=1

case "$ROOT" in
  /|"$HOME"|/usr|/etc|/var|/System|/Users|/home) echo "refusing to clean $ROOT"; exit 1;;
esac

NAMES=(node_modules target .venv __pycache__ .next .turbo dist build .pytest_cache .mypy_cache)
expr=()
for n in "${NAMES[@]}"; do expr+=(-name "$n" -o); done
unset 'expr[${#expr[@]}-1]'

mapfile -d '' dirs < <(find "$ROOT" -type d \( "${expr[@]}" \) -prune -print0)

total=0
todo=()
for d in "${dirs[@]}"; do
  repo="$(git -C "$(dirname "$d")" rev-parse --show-toplevel 2>/dev/null || true)"
  if [ -n "$repo" ] && [ -n "$(git -C "$repo" ls-files -- "$d" | head -n1)" ]; then
    echo "skip (tracked) $d"; continue
  fi
  sz=$(du -sk "$d" | cut -f1); total=$((total + sz))
  printf '%8d MB  %s\n' $((sz / 1024)) "$d"
  todo+=("$d")
done
echo "total: $((total / 1024)) MB in ${#todo[@]} directories"

if [ "$YES" = 1 ]; then
  for d in "${todo[@]}"; do rm -rf -- "$d"; done
  echo "deleted."
else
  echo "dry run - re-run with --yes to delete"
fi
