#!/usr/bin/env bash
set -euo pipefail
VIS="--secret"
if [[ "${1:-}" == "--public" ]]; then VIS="--public"; shift; fi
FILE="${1:?usage: share.sh [--public] <file> [description]}"
DESC="${2:-shared via gist-share}"
[[ -f "$FILE" ]] || { echo "no such file: $FILE" >&2; exit 1; }

PATTERN='(ghp_[A-Za-z0-9]{20,}|github_pat_|AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{20,}|xox[bp]-|-----BEGIN [A-Z ]*PRIVATE KEY-----|password\s*=)'
if grep -nE "$PATTERN" "$FILE" | sed -E 's/([=:]\s*)(.{4}).*/\1\2****/' | head -20 | grep .; then
  echo "possible credentials found above; not uploading" >&2
  exit 3
fi

size=$(wc -c < "$FILE")
echo "uploading $FILE ($size bytes) as ${VIS#--} gist"
[[ "$VIS" == "--public" ]] && gh gist create --public -d "$DESC" "$FILE" || gh gist create -d "$DESC" "$FILE"
