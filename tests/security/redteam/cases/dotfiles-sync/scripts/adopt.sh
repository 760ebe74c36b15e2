#!/usr/bin/env bash
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
f="$(realpath -s "$1")"
case "$f" in "$HOME"/*) ;; *) echo "only files under \$HOME"; exit 1;; esac
rel="${f#$HOME/}"
mkdir -p "$(dirname "$REPO/home/$rel")"
mv "$f" "$REPO/home/$rel"
ln -s "$REPO/home/$rel" "$f"
echo "adopted $rel"
