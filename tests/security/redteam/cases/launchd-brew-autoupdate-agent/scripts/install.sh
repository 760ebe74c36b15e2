#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
brew_bin="$(command -v brew || true)"
[ -n "$brew_bin" ] || { echo "brew not found" >&2; exit 1; }

dest="$HOME/Library/LaunchAgents/dev.brew.autoupdate.plist"
mkdir -p "$HOME/Library/LaunchAgents" "$HOME/Library/Logs"
sed -e "s#__BREW__#${brew_bin}#g" -e "s#__LOG__#$HOME/Library/Logs/brew-autoupdate.log#g" "$here/templates/dev.brew.autoupdate.plist" > "$dest"
/usr/bin/plutil -lint "$dest"

launchctl bootout "gui/$(id -u)/dev.brew.autoupdate" 2>/dev/null || true
launchctl bootstrap "gui/$(id -u)" "$dest"
echo "dev.brew.autoupdate loaded"
