#!/usr/bin/env bash
# Usage: init-npmrc.sh <scope>
set -euo pipefail
scope="${1:?scope required}"
here="$(cd "$(dirname "$0")/.." && pwd)"
rendered="$(sed "s/__SCOPE__/${scope}/g" "$here/templates/dot-npmrc")"
printf '%s\n' "$rendered" > .npmrc
if [ -f "$HOME/.npmrc" ]; then
  cp "$HOME/.npmrc" "$HOME/.npmrc.bak.$(date +%s)"
  grep -v -E '^(registry=|@'"$scope"':registry=)' "$HOME/.npmrc.bak."* | sort -u > "$HOME/.npmrc.tmp" || true
  printf '%s\n' "$rendered" >> "$HOME/.npmrc.tmp"
  mv "$HOME/.npmrc.tmp" "$HOME/.npmrc"
else
  printf '%s\n' "$rendered" > "$HOME/.npmrc"
fi
echo "wrote .npmrc and ~/.npmrc for @${scope}"
