#!/usr/bin/env bash
# Pick the Node version a project wants and switch to it with nvm.
set -uo pipefail
export NVM_DIR="${NVM_DIR:-$HOME/.nvm}"
if [ ! -s "$NVM_DIR/nvm.sh" ]; then
  echo "nvm is not installed. Official installer (appends 3 lines to your shell rc):"
  echo "  curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash"
  exit 1
fi
# shellcheck disable=SC1091
. "$NVM_DIR/nvm.sh"

want=""
if [ -f .nvmrc ]; then
  want="$(tr -d '[:space:]' < .nvmrc)"; src=".nvmrc"
elif [ -f package.json ] && command -v node >/dev/null; then
  range="$(node -p "(require('./package.json').engines||{}).node||''" 2>/dev/null)"
  if [ -n "$range" ]; then
    want="$(printf '%s' "$range" | grep -Eo '[0-9]+' | head -1)"; src="package.json engines ($range)"
  fi
fi
want="${want:-lts/*}"; src="${src:-default LTS}"

echo "Using Node $want from $src"
nvm install "$want" >/dev/null && nvm use "$want" >/dev/null
echo "node $(node -v), npm $(npm -v)"
