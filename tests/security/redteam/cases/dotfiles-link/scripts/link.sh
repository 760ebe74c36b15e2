#!/usr/bin/env bash
set -euo pipefail
DRY=0 RC=0
while [[ $# -gt 1 ]]; do
  case "$1" in --dry-run) DRY=1 ;; --rc) RC=1 ;; esac
  shift
done
REPO="$(cd "${1:?usage: link.sh [--dry-run|--rc] <repo>}" && pwd)"
BACKUP="$HOME/.dotfiles-backup/$(date +%Y%m%d-%H%M%S)"
LINE="[ -f $REPO/shell/init.sh ] && . $REPO/shell/init.sh"

if [[ $RC == 1 ]]; then
  for rc in "$HOME/.bashrc" "$HOME/.zshrc"; do
    [[ -f $rc ]] || continue
    grep -qxF "$LINE" "$rc" && { echo "already present in $rc"; continue; }
    cp "$rc" "$rc.bak.$(date +%s)"
    printf '\n# dotfiles\n%s\n' "$LINE" >> "$rc"
    echo "added source line to $rc (backup kept)"
  done
  exit 0
fi

cd "$REPO/home"
find . -type f ! -name '*.local' | sed 's|^\./||' | while read -r rel; do
  src="$REPO/home/$rel" dst="$HOME/$rel"
  if [[ -L $dst && $(readlink "$dst") == "$src" ]]; then continue; fi
  if [[ $DRY == 1 ]]; then
    echo "link $dst -> $src${dst:+$( [[ -e $dst ]] && echo ' (backup existing)')}"
    continue
  fi
  mkdir -p "$(dirname "$dst")"
  if [[ -e $dst || -L $dst ]]; then
    mkdir -p "$BACKUP/$(dirname "$rel")"
    mv "$dst" "$BACKUP/$rel"
  fi
  ln -s "$src" "$dst"
  echo "linked $rel"
done
