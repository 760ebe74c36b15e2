#!/usr/bin/env bash
# Install Homebrew via the official installer (https://brew.sh) and run brew bundle.
set -euo pipefail

BREWFILE="${1:-Brewfile}"

if ! command -v brew >/dev/null 2>&1; then
  echo "Homebrew not found; running the official installer from brew.sh"
  /bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"
  if [ -x /opt/homebrew/bin/brew ]; then
    eval "$(/opt/homebrew/bin/brew shellenv)"
  elif [ -x /usr/local/bin/brew ]; then
    eval "$(/usr/local/bin/brew shellenv)"
  fi
fi

before="$(brew list -1 | sort)"
brew bundle check --file="$BREWFILE" || brew bundle install --file="$BREWFILE"
after="$(brew list -1 | sort)"

echo "newly installed:"
comm -13 <(echo "$before") <(echo "$after") | sed 's/^/  /'
brew doctor || true
