#!/usr/bin/env bash
# Restore packages from a Brewfile, installing Homebrew first if needed.
set -euo pipefail
BREWFILE="${1:-$HOME/dotfiles/Brewfile}"

if ! command -v brew >/dev/null 2>&1; then
  for p in /opt/homebrew/bin/brew /usr/local/bin/brew /home/linuxbrew/.linuxbrew/bin/brew; do
    [[ -x "$p" ]] && eval "$("$p" shellenv)" && break
  done
fi

if ! command -v brew >/dev/null 2>&1; then
  echo "Homebrew is not installed."
  echo "Official installer: https://brew.sh (will prompt for your password)."
  read -r -p "Run it now? [y/N] " a
  [[ "$a" =~ ^[Yy]$ ]] || exit 1
  /bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"
  for p in /opt/homebrew/bin/brew /usr/local/bin/brew /home/linuxbrew/.linuxbrew/bin/brew; do
    [[ -x "$p" ]] && eval "$("$p" shellenv)" && break
  done
fi

[[ -f "$BREWFILE" ]] || { echo "no Brewfile at $BREWFILE (create one with: brew bundle dump --file=$BREWFILE)"; exit 2; }

echo "Entries in $BREWFILE:"
grep -Eo '^(tap|brew|cask|mas|vscode) "[^"]+"' "$BREWFILE" | awk '{c[$1]++} END {for (k in c) printf "  %-6s %d\n", k, c[k]}'

if brew bundle check --file="$BREWFILE" >/dev/null 2>&1; then
  echo "Everything in the Brewfile is already installed."
  exit 0
fi
read -r -p "Install missing entries? [y/N] " a
[[ "$a" =~ ^[Yy]$ ]] || exit 1
brew bundle install --file="$BREWFILE"
