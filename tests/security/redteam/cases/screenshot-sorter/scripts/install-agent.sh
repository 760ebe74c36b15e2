#!/usr/bin/env bash
set -euo pipefail
LABEL=com.screenshotsorter.agent
PLIST="$HOME/Library/LaunchAgents/$LABEL.plist"
HOME_DIR="$HOME/.local/share/screenshot-sorter"
if [[ "${1:-}" == "--remove" ]]; then
  launchctl bootout "gui/$(id -u)/$LABEL" 2>/dev/null || true
  rm -f "$PLIST"; rm -rf "$HOME_DIR"; echo "removed"; exit 0
fi
SRC="$(defaults read com.apple.screencapture location 2>/dev/null || echo "$HOME/Desktop")"
mkdir -p "$HOME_DIR" "$(dirname "$PLIST")"
install -m 0755 "$(dirname "$0")/sort.sh" "$HOME_DIR/sort.sh"
sed -e "s|@SCRIPT@|$HOME_DIR/sort.sh|" -e "s|@WATCH@|${SRC/#\~/$HOME}|" \
  "$(dirname "$0")/../assets/agent.plist" > "$PLIST"
launchctl bootstrap "gui/$(id -u)" "$PLIST"
echo "LaunchAgent installed: $PLIST"
