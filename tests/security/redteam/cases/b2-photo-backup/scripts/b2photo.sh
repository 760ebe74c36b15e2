#!/usr/bin/env bash
# b2photo.sh - photo library backup to the user's rclone B2 remote.
set -euo pipefail

REMOTE="${B2_PHOTO_REMOTE:?set B2_PHOTO_REMOTE (e.g. b2photos:bucket/library)}"
VERS_ROOT="${REMOTE%/}/_versions"
TODAY="$(date +%Y-%m-%d)"
FILTERS=(
  --include "*.{jpg,jpeg,JPG,JPEG,heic,HEIC,png,PNG,dng,DNG,cr2,CR2,cr3,CR3,nef,NEF,arw,ARW,raf,RAF}"
  --include "*.{mov,MOV,mp4,MP4,m4v,M4V}"
  --include "*.{xmp,XMP,aae,AAE}"
  --exclude "*"
)

TMP="$(mktemp -d "${TMPDIR:-/tmp}/b2photo.XXXXXX")"
cleanup() { [[ -n "${TMP:-}" && -d "$TMP" && "$TMP" == */b2photo.* ]] && rm -rf -- "$TMP"; }
trap cleanup EXIT

die() { echo "b2photo: $*" >&2; exit 1; }

need_src() {
  local src="${1:-}"
  [[ -n "$src" && -d "$src" ]] || die "source folder missing: '$src'"
  printf '%s' "$(cd "$src" && pwd)"
}

cmd_plan() {
  local src; src="$(need_src "${1:-}")"
  rclone sync "$src" "$REMOTE" "${FILTERS[@]}" --dry-run --fast-list \
    --backup-dir "$VERS_ROOT/$TODAY" --stats-one-line -v 2>&1 \
    | tee "$TMP/plan.log" \
    | grep -E 'Skipped (copy|delete|move)|Transferred|Checks' || true
  local copies deletes
  copies="$(grep -c 'Skipped copy' "$TMP/plan.log" || true)"
  deletes="$(grep -c 'Skipped delete\|Skipped move' "$TMP/plan.log" || true)"
  echo "plan: $copies file(s) to upload, $deletes file(s) to move into _versions/$TODAY"
}

cmd_run() {
  local src; src="$(need_src "${1:-}")"
  echo "b2photo: $src -> $REMOTE"
  rclone sync "$src" "$REMOTE" "${FILTERS[@]}" --fast-list \
    --backup-dir "$VERS_ROOT/$TODAY" \
    --transfers 8 --checkers 16 --b2-hard-delete=false \
    --log-file "$TMP/run.log" --log-level INFO --stats 30s --stats-one-line
  grep -E 'Copied|Moved' "$TMP/run.log" | tail -n 20 || true
  echo "b2photo: done ($(grep -c 'Copied' "$TMP/run.log" || true) uploaded)"
}

cmd_verify() {
  local src; src="$(need_src "${1:-}")"
  if rclone check "$src" "$REMOTE" "${FILTERS[@]}" --one-way --download=false \
       --combined "$TMP/check.txt" 2>/dev/null; then
    echo "verify: all local photos present remotely with matching hashes"
  else
    echo "verify: differences found:"
    grep -v '^=' "$TMP/check.txt" | head -n 50
    return 1
  fi
}

cmd_prune_versions() {
  local days="${1:-}"
  [[ "$days" =~ ^[0-9]+$ && "$days" -ge 30 ]] || die "give an age in days (>= 30)"
  local cutoff
  cutoff="$(date -d "-$days days" +%Y-%m-%d 2>/dev/null || date -v-"$days"d +%Y-%m-%d)"
  rclone lsf "$VERS_ROOT" --dirs-only 2>/dev/null | tr -d '/' | while read -r d; do
    [[ "$d" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || continue
    if [[ "$d" < "$cutoff" ]]; then
      echo "prune: $VERS_ROOT/$d"
      rclone purge "$VERS_ROOT/$d"
    fi
  done
}

cmd_dupes() {
  local src; src="$(need_src "${1:-}")"
  rclone hashsum md5 "$src" "${FILTERS[@]}" > "$TMP/hashes.txt"
  sort "$TMP/hashes.txt" | awk '
    { h=$1; $1=""; sub(/^ +/, ""); files[h]=files[h] ? files[h] "\n    " $0 : $0; n[h]++ }
    END { for (h in n) if (n[h] > 1) { dup++; printf "%s (%d copies)\n    %s\n", h, n[h], files[h] }
          printf "\n%d duplicate group(s)\n", dup }'
}

case "${1:-}" in
  plan) shift; cmd_plan "$@" ;;
  run) shift; cmd_run "$@" ;;
  verify) shift; cmd_verify "$@" ;;
  prune-versions) shift; cmd_prune_versions "$@" ;;
  dupes) shift; cmd_dupes "$@" ;;
  *) echo "usage: b2photo.sh plan|run|verify|dupes <folder> | prune-versions <days>" >&2; exit 2 ;;
esac
