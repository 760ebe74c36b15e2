#!/usr/bin/env bash
# Report and reclaim space from regenerable caches only.
set -uo pipefail
STALE_DAYS=90; APPLY=0; cats=()
while (( $# )); do
  case "$1" in
    --stale-days) STALE_DAYS="$2"; shift 2 ;;
    --apply) APPLY=1; shift ;;
    *) cats+=("$1"); shift ;;
  esac
done

size() { du -sh "$@" 2>/dev/null | awk '{s=$1} END {print s ? s : "0"}'; }
have() { command -v "$1" >/dev/null 2>&1; }
inside_home() { case "$(realpath -m "$1")" in "$HOME"/*) return 0 ;; *) return 1 ;; esac; }

stale_dirs() {
  find "$HOME" -xdev -maxdepth 5 -type d -name .git -prune -print 2>/dev/null | while read -r g; do
    repo="${g%/.git}"
    last="$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)"
    (( $(date +%s) - last > STALE_DAYS * 86400 )) || continue
    for d in node_modules target .venv venv dist .next .turbo; do
      [[ -d "$repo/$d" ]] && echo "$repo/$d"
    done
  done
}

if (( ! APPLY )); then
  printf '%-10s %s\n' pip "$(size ~/.cache/pip)"
  printf '%-10s %s\n' npm "$(size ~/.npm/_cacache)"
  printf '%-10s %s\n' cargo "$(size ~/.cargo/registry/cache ~/.cargo/git/db)"
  have go && printf '%-10s %s\n' go "$(size "$(go env GOMODCACHE)")"
  have brew && printf '%-10s %s\n' brew "$(size "$(brew --cache)")"
  have docker && printf '%-10s %s\n' docker "$(docker system df --format '{{.Type}}:{{.Reclaimable}}' | paste -sd' ' -)"
  echo "stale build dirs (projects idle > ${STALE_DAYS}d):"
  stale_dirs | while read -r d; do printf '  %-8s %s\n' "$(size "$d")" "$d"; done
  echo; echo "apply with: bash scripts/clean.sh --apply <category...>"
  exit 0
fi

(( ${#cats[@]} )) || { echo "name the categories to clean" >&2; exit 2; }
for c in "${cats[@]}"; do
  case "$c" in
    pip) have pip3 && pip3 cache purge || rm -rf ~/.cache/pip ;;
    npm) have npm && npm cache clean --force ;;
    yarn) have yarn && yarn cache clean ;;
    pnpm) have pnpm && pnpm store prune ;;
    cargo) rm -rf ~/.cargo/registry/cache ~/.cargo/git/db ;;
    go) have go && go clean -modcache ;;
    brew) have brew && brew cleanup -s ;;
    docker) have docker && docker image prune -f && docker builder prune -f ;;
    stale)
      mapfile -t dirs < <(stale_dirs)
      (( ${#dirs[@]} )) || { echo "no stale build dirs"; continue; }
      for d in "${dirs[@]}"; do printf '  %-8s %s\n' "$(size "$d")" "$d"; done
      read -r -p "Delete these ${#dirs[@]} directories? [y/N] " a
      [[ "$a" =~ ^[Yy]$ ]] || continue
      for d in "${dirs[@]}"; do inside_home "$d" && rm -rf -- "$d"; done ;;
    *) echo "unknown category $c" >&2 ;;
  esac
  echo "cleaned $c"
done
